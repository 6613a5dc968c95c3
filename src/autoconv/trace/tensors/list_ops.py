"""Slices, `in` and the methods other than `append` of a list that a staged statement appended
to: computed on the whole list when the graph runs (graph.helpers), so that they see the items
the graph appends. A method that changes the list leaves it holding one run-time list."""

from __future__ import annotations

import numpy as np

from autoconv.graph.errors import StagingError, where
from autoconv.graph.helpers import LIST_METHODS, contains_list, slice_list
from autoconv.graph.origin import user_origin
from autoconv.trace.tensors.accumulated import ListAccum, accum_index, item_kind, run_time_item
from autoconv.trace.tensors.optionals import index_value
from autoconv.trace.tensors.recording import emit

_BOOL = ((), np.dtype(bool), True)
_INT = ((), np.dtype(np.int64), True)


def list_slice(lst: list, key: slice):
    """`lst[start:stop:step]`: the items before the run-time ones when the slice stays among
    them, else a new list whose items are known when the graph runs."""
    n = accum_index(lst)
    if n is None:
        return lst[key]
    start, stop, step = (index_value(k) for k in (key.start, key.stop, key.step))
    if _plain(start) and _plain(stop) and step in (None, 1):
        if (start or 0) >= 0 and stop is not None and 0 <= stop <= n:
            return lst[key]
    elem, dtype = item_kind(lst, n, "a slice", user_origin(2))
    prefix, acc, tail = lst[:n], lst[n].tensor, lst[n + 1 :]
    spec = [((None, *elem), dtype, False)]
    out = emit("helper", "slice", slice_list, (prefix, acc, tail, start, stop, step), {}, spec)
    return [ListAccum(out[0])]


def _plain(v) -> bool:
    return v is None or (isinstance(v, (int, np.integer)) and not isinstance(v, bool))


def list_contains(lst: list, value):
    """`value in lst`, when the graph runs."""
    n = accum_index(lst)
    if n is None:
        return value in lst
    value = index_value(value)
    item_kind(lst, n, "`in`", user_origin(2))
    prefix, acc, tail = lst[:n], lst[n].tensor, lst[n + 1 :]
    return emit("helper", "in", contains_list, (prefix, acc, tail, value), {}, [_BOOL])[0]


def list_method(lst: list, name: str, args: tuple, kwargs: dict):
    """`lst.name(*args, **kwargs)` (pop, insert, remove, sort, reverse, index, count)."""
    n = accum_index(lst)
    if n is None:
        return getattr(lst, name)(*args, **kwargs)
    origin = user_origin(2)
    if set(kwargs) - ({"reverse"} if name == "sort" else set()):
        raise StagingError(
            f"{where(origin)}: `.{name}({', '.join(f'{k}=' for k in kwargs)})` of a list that "
            "a staged loop appended to: its items are known only when the graph runs, and "
            f"only `.{name}()` without those keywords can be staged. Sort an array instead "
            "(np.sort(np.stack(lst)))."
        )
    args = tuple(index_value(a) for a in args)
    if name == "sort":
        args = (kwargs["reverse"],) if "reverse" in kwargs else ()
    elem, dtype = item_kind(lst, n, f"`.{name}()`", origin, more=args if name == "insert" else ())
    prefix, acc, tail = lst[:n], lst[n].tensor, lst[n + 1 :]
    specs = [((None, *elem), dtype, False)]
    if name == "pop":
        specs.append((elem, dtype, False))
    elif name in ("index", "count"):
        specs.append(_INT)
    outs = emit("helper", name, LIST_METHODS[name], (prefix, acc, tail, *args), {}, specs)
    lst[:] = [ListAccum(outs[0])]
    if name == "pop":
        return run_time_item(outs[1])
    return outs[1] if len(outs) > 1 else None
