"""Results whose size depends on the data, lowered as mask selections (`masks.py`).

`np.nonzero(x)`, `np.flatnonzero(x)`, `np.argwhere(x)` and `np.unique(x)` have as many
elements as the data says, a size XLA cannot compile. Each is a selection of a whole array of a
size known in advance, the input's: the indices of every element where `x != 0`, or the sorted
elements where each run of equal ones starts. So they are lowered as `x[mask]` is: reductions,
`len()`, elementwise operations and `sel[i]` (a `for` loop over it) work, with NumPy's values;
other uses (returning it) raise `masks.py`'s LoweringError. `np.unique`'s `return_index` and
`return_counts` are selections by the same mask, and `return_inverse` has the input's size.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph.tensor import Tensor

_FUNCS = (np.nonzero, np.flatnonzero, np.argwhere, np.unique)
_UNIQUE_FLAGS = ("return_index", "return_inverse", "return_counts")


class Rows:
    """The mask of a sized result, shared by its outputs: made in the lowered code; while
    planning, only its shape is read."""

    __slots__ = ("shape",)

    def __init__(self, size: int):
        self.shape = (size,)


def _shape(x):
    shape = x.shape if isinstance(x, (Tensor, np.ndarray)) else None
    if shape is None or None in shape:
        return None
    return tuple(int(d) for d in shape)


def outputs(node) -> list | None:
    """`[(output, rest)]` for the outputs of `node` that are selections (`rest`: the shape of
    each selected row), where `node` is one of the sized calls lowered here, else None."""
    if node.kind != "call" or node.fn not in _FUNCS or not node.args:
        return None
    x = node.args[0]
    shape = _shape(x)
    if shape is None or len(node.args) != 1 or x.dtype.kind not in "biuf":
        return None
    if node.fn is np.unique:
        if set(node.kwargs) - set(_UNIQUE_FLAGS):
            return None
        flags = [k for k in _UNIQUE_FLAGS if node.kwargs.get(k)]
        if any(not isinstance(node.kwargs[k], bool) for k in node.kwargs):
            return None
        return [
            (out, ())
            for out, name in zip(node.outputs, ["values", *flags])
            if name != "return_inverse"
        ]
    if node.kwargs:
        return None
    if node.fn is np.argwhere:
        return [(node.outputs[0], (max(len(shape), 1),))]
    return [(out, ()) for out in node.outputs]


def lower(w, node, names, indent) -> None:
    """Writes the whole arrays of `node`'s selections, their mask and count (`names(t)`: the
    Selection of output `t` and its mask and count names)."""
    x = node.args[0]
    shape = _shape(x) or ()
    size = int(np.prod(shape, dtype=np.int64))
    first = node.outputs[0]
    _, m, n = names(first)
    i64 = w.dtype(np.int64)
    flat = f"jnp.ravel({w.receiver(x)})"
    if node.fn is np.unique:
        _unique(w, node, flat, size, m, indent)
    else:
        w.emit(indent, f"{m} = {flat} != 0", node)
        index = f"jnp.arange({size}, dtype={i64})"
        if node.fn is np.flatnonzero or len(shape) <= 1:
            columns = [index]
        else:
            columns = [f"fix({c}, {i64})" for c in _unravel(index, shape)]
        if node.fn is np.argwhere:
            w.emit(indent, f"v{first.id} = jnp.stack([{', '.join(columns)}], axis=1)", node)
        else:
            for out, column in zip(node.outputs, columns):
                w.emit(indent, f"v{out.id} = {column}", node)
    w.emit(indent, f"{n} = jnp.sum({m}, dtype={i64})", node)
    if node.fn is np.argwhere:  # one flag a row
        w.emit(indent, f"{m} = jnp.reshape({m}, ({size}, 1))", node)


def _unravel(index, shape):
    return [f"jnp.unravel_index({index}, {shape!r})[{j}]" for j in range(len(shape))]


def _unique(w, node, flat, size, m, indent):
    """`np.unique`: the stably sorted elements, each run of equal ones starting where the mask
    is true (NaNs are one run, as NumPy's `equal_nan=True` makes them)."""
    i64 = w.dtype(np.int64)
    v = f"v{node.outputs[0].id}"
    w.emit(indent, f"{v}_order = jnp.argsort({flat}, stable=True)", node)
    w.emit(indent, f"{v} = {flat}[{v}_order]", node)
    new = f"{v}[1:] != {v}[:-1]"
    if node.args[0].dtype.kind == "f":
        new = f"({new}) & ~(jnp.isnan({v}[1:]) & jnp.isnan({v}[:-1]))"
    w.emit(indent, f"{m} = jnp.concatenate([jnp.ones({min(size, 1)}, bool), {new}])", node)
    flags = [k for k in _UNIQUE_FLAGS if node.kwargs.get(k)]
    for out, name in zip(node.outputs[1:], flags):
        if name == "return_index":
            w.emit(indent, f"v{out.id} = fix({v}_order, {i64})", node)
        elif name == "return_inverse":
            group = f"jnp.cumsum({m}, dtype={i64}) - 1"
            inverse = f"jnp.zeros({size}, {i64}).at[{v}_order].set({group})"
            w.emit(indent, f"v{out.id} = jnp.reshape({inverse}, {out.shape!r})", node)
        else:  # the count of a run: where the next one starts, less where it starts
            at = f"jnp.arange({size}, dtype={i64})"
            starts = f"jnp.where({m}, {at}, {size})"
            nxt = f"jnp.concatenate([{starts}[1:], jnp.full(1, {size}, {i64})])"
            following = f"jnp.flip(lax.cummin(jnp.flip({nxt})))"
            w.emit(indent, f"v{out.id} = {following} - {at}", node)
