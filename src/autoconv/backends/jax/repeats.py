"""`[0] * n` with `n` known only when the graph runs (`helpers.repeat_list`), as a run-time list
on the device: a new list family (`lists.py`) whose buffer holds the copies of the items.

Its length is bounded where `n` is: a constant, `c - len(lst)` (`merged += [0] * (4 -
len(merged))`, padding to a width) or a sum of such; else the family is growable and the call
runs again with a larger buffer where it overflows, as a list grown in an unbounded loop."""

from __future__ import annotations

import numpy as np

from autoconv.backends.jax.errors import lowering_error
from autoconv.graph.helpers import repeat_list
from autoconv.graph.tensor import Tensor


def is_repeat(node) -> bool:
    return node.kind == "helper" and node.fn is repeat_list


def sets_error(node, plan) -> bool:
    """Whether the lowered repeat may set the error flag (its buffer's overflow)."""
    return is_repeat(node) and bool(plan.bounds) and plan.family(node.outputs[0]).index is not None


def plan(lists, node, unbounded) -> None:
    """Records the bounds and family of the list `node` makes (`lists`: the `ListPlan`)."""
    count, *items = node.args
    (out,) = node.outputs
    most = _most(count)
    lists.bounds[out.id] = (0, unbounded if most is None else max(most, 0) * len(items))
    lists._new(out, node)
    fam = lists.family(out)
    for item in items:
        lists._item(fam, item, node)


def _most(v, depth=4):
    """The largest value integer `v` may take when the graph runs, where the graph shows it
    (else None)."""
    if isinstance(v, (bool, np.bool_)) or depth == 0:
        return None
    if isinstance(v, (int, np.integer)):
        return int(v)
    node = v.node if isinstance(v, Tensor) else None
    if node is None:
        return None
    if node.kind == "const":
        return _most(node.attrs["value"], depth - 1)
    if node.kind == "binop" and len(node.args) == 2:
        a, b = node.args
        if node.op == "+":
            ma, mb = _most(a, depth - 1), _most(b, depth - 1)
            return None if ma is None or mb is None else ma + mb
        if node.op == "-" and _nonnegative(b):
            return _most(a, depth - 1)
    return None


def _nonnegative(v) -> bool:
    """Whether `v` is never negative: a length, or a constant that is not."""
    if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
        return v >= 0
    node = v.node if isinstance(v, Tensor) else None
    if node is None:
        return False
    if node.kind == "const":
        return _nonnegative(node.attrs["value"])
    if node.kind == "binop" and node.op in ("+", "*") and len(node.args) == 2:
        return all(map(_nonnegative, node.args))
    return node.fn is len


def lower(w, node, indent) -> bool:
    """Writes `v = list_repeat(count, items, rows)` for `node` with writer `w`."""
    from autoconv.backends.jax import reads as _reads  # (reads imports lists, which plans here)

    count, *items = node.args
    (out,) = node.outputs
    plan = w.plan
    shapes = plan.buffer_shapes(out, node)
    if plan.family(out).fields is not None:
        raise lowering_error(node, "a list of tuples repeated a number of times known at run time")
    (shape, dtype) = shapes[0]
    exprs = "".join(_reads.item_expr(w, node, out, v) + ", " for v in items)
    zeros = f"jnp.zeros({shape!r}, {w.dtype(dtype)})"
    w.emit(indent, f"v{out.id} = list_repeat({w.expr(count)}, ({exprs}), {zeros})", node)
    _reads.check_overflow(w, node, out, indent)
    return True
