"""The operators of the runtime's tracer protocol (`autoconv.runtime.staging`) that run as Python
on JAX values: JAX traces build no graph of ours, so there is nothing to mark, and item
assignment, `max` and `min` do what Python does with them."""

from __future__ import annotations

import builtins as _py


def mark():
    """Where the graph being built ends: JAX traces build none of ours."""
    return None


def setitem(target, key, value):
    """`target[key] = value`, as Python runs it (a JAX array refuses it, as it says)."""
    target[key] = value
    return target


def extreme(which, args):
    """`max(*args)` ("max") or `min(*args)` ("min"), as Python computes it."""
    return (_py.max if which == "max" else _py.min)(*args)
