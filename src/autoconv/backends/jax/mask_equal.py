"""`np.array_equal` of mask selections (`masks.py`): of a list of data-dependent length and
its reverse (`letters == letters[::-1]`), of a list and a fixed array (`np.array_equal(moved,
row)`). The selections' rows are packed in front of their buffers; they are equal where their
counts and row shapes are and their first `count` rows are. An empty list compares as eager
NumPy compares its empty array (equal to another empty one of the same row shape), whatever
dtype NumPy gives it."""

from __future__ import annotations

import numpy as np

from autoconv.graph.tensor import Tensor


def is_equal(node, selections) -> bool:
    """Whether `node` is `np.array_equal(a, b)` of selections (or of one and an array of a
    shape known in advance), lowered here."""
    if node.kind != "call" or node.fn is not np.array_equal or len(node.args) != 2:
        return False
    if set(node.kwargs) - {"equal_nan"} or not isinstance(
        node.kwargs.get("equal_nan", False), bool
    ):
        return False
    for v in node.args:
        if isinstance(v, Tensor) and v.id in selections:
            continue
        v = _constant(v)
        shape = v.shape if isinstance(v, (Tensor, np.ndarray)) else None
        if shape is None or None in shape or not shape:
            return False
    return True


def lower(w, node, selections, names, indent) -> None:
    """Writes `v<out> = ` the comparison (each selection's rows packed: `v<id>_rows`)."""
    out = node.outputs[0]
    sides = []  # (rows, count, size, row shape)
    for v in node.args:
        if isinstance(v, Tensor) and v.id in selections:
            s, _, n = names(v)
            size = max(int(np.prod(s.mask.shape)), 1)
            sides.append((f"v{v.id}_rows", n, size, tuple(s.rest)))
        else:
            v = _constant(v)
            shape = tuple(v.shape)
            sides.append((f"jnp.asarray({w.expr(v)})", repr(shape[0]), shape[0], shape[1:]))
    (a, na, sa, ra), (b, nb, sb, rb) = sides
    if ra != rb:
        w.emit(indent, f"v{out.id} = jnp.asarray(False)", node)
        return
    k = min(sa, sb)
    if k == 0:  # an array of no rows: equal where the other holds none
        w.emit(indent, f"v{out.id} = ({na}) == ({nb})", node)
        return
    same = f"{a}[:{k}] == {b}[:{k}]"
    if node.kwargs.get("equal_nan"):
        same = f"({same}) | (jnp.isnan({a}[:{k}]) & jnp.isnan({b}[:{k}]))"
    axes = tuple(range(1, 1 + len(ra)))
    rows = f"jnp.all({same}, axis={axes!r})" if axes else f"({same})"
    inside = f"jnp.arange({k}) < ({na})"
    value = f"(({na}) == ({nb})) & jnp.all({rows} | ~({inside}))"
    w.emit(indent, f"v{out.id} = {value}", node)


def _constant(v):
    """A list or tuple of Python numbers written in the code as its array (`lst == [1, 2]`)."""
    if type(v) in (list, tuple) and not any(isinstance(x, Tensor) for x in v):
        try:
            array = np.asarray(v)
        except ValueError:  # ragged
            return None
        return array if array.dtype.kind in "biuf" else None
    return v
