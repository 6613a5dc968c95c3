"""The Python type of an operation on two items read from one run-time list (`stack.pop() +
stack.pop()`, a stack machine): eager code gives each item's type when the items are of one
kind, so the result is of that list's kinds (`lists._derived`)."""

from __future__ import annotations

from autoconv.backends.jax import keyed_plan as _keyed_plan
from autoconv.graph.tensor import Tensor


def read_pair(plan, value):
    """`(list, other kinds)` for `value = a op b` with `a` and `b` read back from lists of one
    family (`keyed_plan.read_back`) and `op` one that keeps the type of two numbers of one
    kind (int or float, Python's or NumPy's), else None."""
    node = value.node if isinstance(value, Tensor) else None
    op = _keyed_plan._OPS.get(node.op) if node is not None and node.kind == "binop" else None
    if op is None or len(node.args) != 2 or node.kwargs:
        return None
    a, b = node.args
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)):
        return None
    if a.dtype != value.dtype or b.dtype != value.dtype or value.dtype.kind not in "iuf":
        return None
    found = [_keyed_plan.read_back(plan, v) for v in (a, b)]
    if None in found or not all(plan.is_list(f[0]) for f in found):
        return None
    if plan.family(found[0][0]).root() is not plan.family(found[1][0]).root():
        return None
    stand = (int if value.dtype.kind in "iu" else float)(3), value.dtype.type(3)
    try:
        kept = all(type(op(s, s)) is type(s) for s in stand)
    except ZeroDivisionError:
        kept = False
    return (found[0][0], found[0][1] | found[1][1]) if kept else None
