"""`lst.sort(key=f)` of a list a staged loop appended to (or made a run-time one: `pts.sort(
key=f)` in a staged loop), whose keys are numbers: the keys are computed item by item when the
graph runs (a staged comprehension), a stable `np.argsort` of them orders the items, and a
staged loop over that order reads them into the list again, as Python's stable sort places
them (`reverse=True` keeps equal keys in their first order, as Python does). A NaN key raises
a `ValueError` when the graph runs (`sorting.py`: Python's order then depends on which items
its sort compared)."""

from __future__ import annotations

import numpy as np

from autoconv.trace.tensors.accumulated import ListAccum, list_item, stack_items


def sort_by_key(lst: list, key, reverse, origin) -> bool:
    """Sorts `lst` in place by `key` (None: the items) when the graph runs; False (nothing
    done) where the keys are not numbers or `reverse` is not a Python bool."""
    from autoconv.runtime.lists import filtered
    from autoconv.trace.tensors.sorting import _no_nan

    if type(reverse) is not bool or key is None:
        return False
    keys = filtered(lst, None, key)
    if not any(isinstance(v, ListAccum) for v in keys):
        return False
    column = stack_items(np.array, keys)
    if column.ndim not in (1, 2) or column.dtype.kind not in "biuf":
        return False
    if column.ndim == 2 and column.shape[1] is None:
        return False
    if column.dtype.kind == "f":
        _no_nan(column, [column], origin)
    if reverse:  # equal keys stay in their first order: a stable sort of the negated keys
        column = -(column.astype(np.int64) if column.dtype.kind in "bu" else column)
    if column.ndim == 1:
        order = np.argsort(column, kind="stable")
    else:
        # Tuple keys (`key=lambda e: (e[0], e[1])`), compared place by place: a lexsort, whose
        # last column is the first key (stable, as Python's sort).
        width = column.shape[1]
        column = column.reshape(-1, width)  # (no keys at all: NumPy's array of none is 1-d)
        order = np.lexsort(tuple(column[:, j] for j in reversed(range(width))))
    items = list(lst)
    lst[:] = filtered(order, None, lambda i: list_item(items, i))
    return True
