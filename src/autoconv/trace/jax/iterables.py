"""What a staged `for` iterates: `range` with traced bounds, a traced array's rows,
`enumerate` and `zip` over traced arrays. Each is an `Iteration`: a length (an int, or a tracer
for a traced `range`) and the item at an index."""

from __future__ import annotations

import builtins as _py

import jax
import jax.numpy as jnp

from autoconv.runtime import staging
from autoconv.trace.jax import state as st


class Iteration:
    """Items `item(i)` for `i` in `0 .. length-1`; `length` is an int or a scalar tracer."""

    __slots__ = ("length", "item")

    def __init__(self, length, item):
        self.length, self.item = length, item

    def __iter__(self):
        st.fail(
            st.user_origin(),
            "a range, enumerate or zip over values JAX traces can only be the iterable of a "
            "`for` loop in converted code; use jnp.arange(...) to make an array of it",
        )


def rows(value, origin=None) -> Iteration:
    """The rows of an array (or an `Iteration` as it is)."""
    if isinstance(value, Iteration):
        return value
    if not st.is_array(value):
        value = jnp.asarray(value)
    if value.ndim == 0:
        st.fail(origin or st.user_origin(), "iteration over a 0-d array")
    return Iteration(value.shape[0], lambda i: value[i])


def range(*args):  # noqa: A001 - mirrors the built-in it stands for
    """`range(*args)` with a traced bound: its length is traced too."""
    if not 1 <= _py.len(args) <= 3:
        raise TypeError(f"range expected 1 to 3 arguments, got {_py.len(args)}")
    start, stop, step = (0, args[0], 1) if _py.len(args) == 1 else (*args, 1)[:3]
    for arg in (start, stop, step):
        if not jnp.issubdtype(jnp.result_type(arg), jnp.integer):
            raise TypeError(f"'{jnp.result_type(arg)}' object cannot be interpreted as an integer")
    if step is not None and not isinstance(step, jax.core.Tracer) and step == 0:
        raise ValueError("range() arg 3 must not be zero")
    # Python's length of a range: ceil((stop - start) / step), at least 0.
    span = stop - start
    length = jnp.maximum(0, jnp.where(step > 0, span + step - 1, span + step + 1) // step)
    return Iteration(length, lambda i: start + i * step)


def enumerate(iterable, start=0):  # noqa: A001
    """`enumerate` over a traced array (or traced range)."""
    inner = rows(iterable)
    return Iteration(inner.length, lambda i: (start + i, inner.item(i)))


def zip(*iterables, strict=False):  # noqa: A001
    """`zip` over traced arrays: as many items as the shortest has."""
    parts = [rows(it) for it in iterables]
    lengths = [p.length for p in parts]
    if strict and _py.len({id(n) if isinstance(n, jax.core.Tracer) else n for n in lengths}) > 1:
        raise ValueError("zip() arguments have different lengths")
    length = lengths[0]
    for n in lengths[1:]:
        length = (
            _py.min(length, n) if type(length) is int and type(n) is int else jnp.minimum(length, n)
        )
    return Iteration(length, lambda i: tuple(p.item(i) for p in parts))


len = _py.len  # noqa: A001 - a traced array's length is its static leading dimension


staging._JAX_TYPES.add(Iteration)  # the operators hand it to the JAX `for_stmt`
