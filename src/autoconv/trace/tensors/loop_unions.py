"""A staged loop's variable whose Python kind depends on the path (`out = "none"` before the
loop, `out = v` in some iterations): carried as a union (`unions.Union`) of a fixed plan.

A *plan* is the tuple of the variable's alternatives, each a constant (`("const", value)`:
a string, None, a Python number known now) or a graph value of one kind (`("graph", spec,
kind)`: its `(shape, dtype, weak)` and the type eager code gives it). The loop carries the
tag (which alternative the path left) and one graph value per graph alternative (zeros where
the path left another). Plans grow as the loop's traces find alternatives, as shapes do.
Values held in containers, objects or run-time lists are not carried this way (None).
"""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph.eager_types import eager_type
from autoconv.graph.tensor import Tensor
from autoconv.trace.tensors.choices import _TAG, Choice, atom
from autoconv.trace.tensors.leaves import _as_tensor
from autoconv.trace.tensors.unions import Union


def _alternatives(v) -> tuple | None:
    """The alternatives `v` may be, or None if a loop cannot carry it as a union."""
    if isinstance(v, Union):
        found = v.ac_alternatives
    elif isinstance(v, Choice):
        found = v.options
    else:
        found = (v,)
    # A NumPy scalar known now (the stand-in a path where the variable is None holds) is a
    # constant of the graph, as a number of the loop's own would be.
    found = tuple(
        _g.add_const(a, ((), a.dtype, False), True) if isinstance(a, np.generic) else a
        for a in found
    )
    for a in found:
        if not (atom(a) or (isinstance(a, Tensor) and a.py_kinds is None)):
            return None
    return found


def _entry(a):
    if isinstance(a, Tensor):
        return ("graph", (tuple(a.shape), a.dtype, a.weak), eager_type(a))
    return ("const", a)


def _same_const(a, b) -> bool:
    return a is b or (type(a) is type(b) and a == b)


def _find(plan, entry) -> int | None:
    for k, known in enumerate(plan):
        if known[0] != entry[0]:
            continue
        if entry[0] == "const" and _same_const(known[1], entry[1]):
            return k
        if entry[0] == "graph" and known[2] is entry[2] and _joins(known[1], entry[1]):
            return k
    return None


def _joins(a, b) -> bool:
    return a[1] == b[1] and a[2] == b[2] and len(a[0]) == len(b[0])


def grown(plan: tuple, v) -> tuple | None:
    """`plan` with the alternatives of `v` added (shapes generalized); None if `v` is not a
    value a loop carries as a union."""
    found = _alternatives(v)
    if found is None:
        return None
    plan = list(plan)
    for a in found:
        entry = _entry(a)
        k = _find(plan, entry)
        if k is None:
            plan.append(entry)
        elif entry[0] == "graph":
            shape = shapes.generalize(plan[k][1][0], entry[1][0])
            plan[k] = ("graph", (shape, *plan[k][1][1:]), plan[k][2])
    return tuple(plan)


def slots(plan) -> list:
    """The indices of the graph alternatives of `plan` (one carried value each)."""
    return [k for k, entry in enumerate(plan) if entry[0] == "graph"]


def tag(v, plan) -> Tensor:
    """Which alternative of `plan` `v` is, as a tag in the block being built."""
    found = _alternatives(v)
    own = [_find(plan, _entry(a)) for a in found]
    if not isinstance(v, (Union, Choice)):
        return _g.add_const(np.int64(own[0]), _TAG, True)
    chosen = v.ac_tag if isinstance(v, Union) else v.tag
    if own == list(range(len(own))):
        return chosen
    table = np.asarray(own, np.int64)
    return np.take(_g.add_const(table, (table.shape, table.dtype), True), chosen)


def slot(v, plan, k) -> Tensor:
    """The graph value `v` holds for alternative `k` of `plan` (zeros where it is another)."""
    spec = plan[k][1]
    found = [
        (n, _as_tensor(a, spec))
        for n, a in enumerate(_alternatives(v))
        if isinstance(a, Tensor) and _find(plan, _entry(a)) == k
    ]
    if found:
        # Several of `v`'s alternatives may be this one of the plan's (`r = v` in a branch
        # where `r` was the loop's own value of that kind): the one `v`'s tag says.
        value = found[0][1]
        for n, t in found[1:]:
            value = np.where((v.ac_tag if isinstance(v, Union) else v.tag) == n, t, value)
        return _as_tensor(value, spec)
    shape = tuple(0 if d is None else d for d in spec[0])
    return _as_tensor(np.zeros(shape, spec[1])[()], spec)  # (never read on its path)


def union(plan, tag_value, values: dict, name: str) -> Union:
    """The Union a loop's tag and carried graph values (`values[k]`) stand for."""
    alts = tuple(values[k] if entry[0] == "graph" else entry[1] for k, entry in enumerate(plan))
    for k, entry in enumerate(plan):
        if entry[0] == "graph" and isinstance(values[k], Tensor) and eager_type(values[k]) is None:
            # A loop's own value (a parameter of its body, its result) is the kind the plan
            # found for it: without this, the next trace would see a new alternative of unknown
            # kind, and messages would name the kind twice ("a float64 or a number").
            values[k]._etype = entry[2]
    return Union(tag_value, alts, name)
