"""The operators of the runtime's tracer protocol (`autoconv.runtime.staging`) that need little
on JAX values: JAX traces build no graph of ours, so there is nothing to mark; item assignment
does what Python does; `max` and `min` are staged choices where a comparison is traced."""

from __future__ import annotations

import builtins as _py

import jax

from autoconv.trace.jax.cond import if_exp


def mark():
    """Where the graph being built ends: JAX traces build none of ours."""
    return None


def setitem(target, key, value):
    """`target[key] = value`, as Python runs it (a JAX array refuses it, as it says)."""
    target[key] = value
    return target


def extreme(which, args):
    """`max(*args)` ("max") or `min(*args)` ("min") as Python computes it: the first item,
    replaced by each later one that is greater (smaller). A traced comparison makes the choice
    a staged conditional value (the items must then agree in dtype and shape)."""
    items = list(args[0]) if _py.len(args) == 1 else list(args)
    if not items:
        raise ValueError(f"{which}() iterable argument is empty")
    result = items[0]
    for item in items[1:]:
        better = item > result if which == "max" else item < result
        if isinstance(better, jax.core.Tracer):
            result = if_exp(better, lambda item=item: item, lambda r=result: r)
        elif better:
            result = item
    return result
