"""`[0] * n` with `n` known only when the graph runs (`helpers.repeat_list`), as a run-time list
on the device: a new list family (`lists.py`) whose buffer holds the copies of the items.

Its length is bounded where `n` is: a constant, `c - len(lst)` (`merged += [0] * (4 -
len(merged))`, padding to a width) or a sum of such; else the family is growable and the call
runs again with a larger buffer where it overflows, as a list grown in an unbounded loop.
`list_makers.py` writes it."""

from __future__ import annotations

import numpy as np

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
