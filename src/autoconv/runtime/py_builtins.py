"""Built-ins that a staged `for` loop must see before Python consumes them.

`range(n)` with a symbolic `n` cannot be built by Python's own `range`, and `enumerate(t)` /
`zip(t, u)` would iterate a symbolic `t` at once. The converter routes these calls in a `for`
header here; on Python values they are Python's own.
"""

import builtins as _py

from autoconv.runtime import staging

_STAGED = staging.STAGED_TYPES
_traces = staging.traces
_jax_value = staging.jax_value


def max(*args, **kwargs):  # noqa: A001
    """Python's `max`; while tracing, symbolic values are compared by staged choices."""
    if _traces and not kwargs and _any_symbolic(args):
        return staging.backend.extreme("max", args)
    return _py.max(*args, **kwargs)


def min(*args, **kwargs):  # noqa: A001
    """Python's `min`; while tracing, symbolic values are compared by staged choices."""
    if _traces and not kwargs and _any_symbolic(args):
        return staging.backend.extreme("min", args)
    return _py.min(*args, **kwargs)


def _any_symbolic(args) -> bool:
    items = args[0] if _py.len(args) == 1 and type(args[0]) in (list, tuple) else args
    return _py.len(args) > 0 and _py.any(type(a) in _STAGED for a in items)


def len(value):  # noqa: A001
    """Python's `len(value)`; while tracing, the run-time length of a list a staged loop
    appended to (or of a Tensor whose length is known only when the graph runs)."""
    if _traces and (type(value) in _STAGED or staging.grown_list(value)):
        return staging.backend.len(value)
    return _py.len(value)


def range(*args):  # noqa: A001 - mirrors the built-in it stands for
    """Python's `range(*args)`, or a staged range when a bound is symbolic."""
    for arg in args:
        if type(arg) in _STAGED:
            return staging.backend.range(*args)
        if _jax_value(arg):
            return staging.jax_ops().range(*args)
    return _py.range(*args)


def enumerate(iterable, start=0):  # noqa: A001
    """Python's `enumerate`, or a staged one over a symbolic iterable."""
    if type(iterable) in _STAGED or type(start) in _STAGED:
        return staging.backend.enumerate(iterable, start)
    if _jax_value(iterable) or _jax_value(start):
        return staging.jax_ops().enumerate(iterable, start)
    return _py.enumerate(iterable, start)


def zip(*iterables, **kwargs):  # noqa: A001
    """Python's `zip`, or a staged one when an iterable is symbolic."""
    for iterable in iterables:
        if type(iterable) in _STAGED:
            return staging.backend.zip(*iterables, **kwargs)
    for iterable in iterables:
        if _jax_value(iterable):
            return staging.jax_ops().zip(*iterables, **kwargs)
    return _py.zip(*iterables, **kwargs)
