"""Objects of the user's classes placed by an order known only when the graph runs: `sorted()`
and `.sort()` of them by a run-time key (`items.sort(key=lambda it: it.ratio)`).

Item `k` of the result is a `Union` of the objects sorted, its tag `order[k]`: the very objects
eager code places there (no copies), their attributes and properties read by a pick of each
one's, their methods called on the one the tag picks (`union_uses`). An item that is itself
such a Union (a list sorted twice) takes part through its own tag.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.trace.tensors.choices import _TAG
from autoconv.trace.tensors.unions import Union, is_object


def chosen_objects(values: list, order) -> list | None:
    """Item `k` of `values` (objects, or Unions of objects) placed by `order` (an int Tensor of
    the sorted positions' original indices), as Unions; None unless every value is an object."""
    if not all(_objects_of(v) for v in values):
        return None
    base: list = []

    def index(obj) -> int:
        for k, o in enumerate(base):
            if o is obj:
                return k
        base.append(obj)
        return len(base) - 1

    tags = []
    for v in values:
        if isinstance(v, Union):
            table = np.asarray([index(a) for a in v.ac_alternatives], np.int64)
            tags.append(np.take(_g.add_const(table, (table.shape, table.dtype), True), v.ac_tag))
        else:
            tags.append(_g.add_const(np.int64(index(v)), _TAG, True))
    stacked = np.stack(tags)
    picked = np.take(stacked, order)
    return [
        Union(picked[k], tuple(base), f"item {k} of the sorted list") for k in range(len(values))
    ]


def _objects_of(v) -> bool:
    if isinstance(v, Union):
        return all(is_object(a) for a in v.ac_alternatives)
    return is_object(v)
