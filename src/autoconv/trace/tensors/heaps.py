"""`heapq` and `bisect` on lists whose items are known only when the graph runs: a priority
queue a staged loop pushes onto (`heapq.heappush(pq, (d, v))`, `heapq.heappop(pq)`), a sorted
list grown by `bisect.insort`.

Each call is staged as a method of the run-time list (`list_ops.list_method`), whose helper
runs the library's own function on the list's items when the graph runs (graph.helpers
`HEAP_FUNCS`; the JAX backend follows the same sift steps on its buffer; runtime.heaps routes
the calls here). So the list keeps eager's exact layout: `pq[0]`, iterating it, printing or
returning it give what eager code gives, and ties (`(d, node)` with equal `d`) pop as eagerly;
no read of the list has to be refused. `heapq.nsmallest` / `nlargest` are `sorted(...)[:n]`,
as Python documents them (runtime.heaps), which is staged on such lists.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph.errors import StagingError, where
from autoconv.graph.helpers import HEAP_RESULTS, LIST_METHODS
from autoconv.trace.tensors import item_kinds
from autoconv.trace.tensors.accumulated import ListAccum, item_kind, list_name, run_time_item
from autoconv.trace.tensors.appends import as_its_kind
from autoconv.trace.tensors.optionals import index_value
from autoconv.trace.tensors.recording import emit
from autoconv.trace.tensors.records import as_row, refuse_order
from autoconv.trace.tensors.rows import parts

_INT = ((), np.dtype(np.int64), True)
PUSHES = frozenset(("heappush", "heappushpop", "heapreplace", "insort_right", "insort_left"))
"""The functions that push an item (their argument after the list)."""
_ARITY = {"heappop": 0, "heapify": 0}  # others take one item (or value) after the list


def heap_call(lst: list, n: int, name: str, args: tuple, kwargs: dict, origin):
    """`heapq.name(lst, *args)` (or bisect's) of `lst`, whose item `n` stands for the items a
    staged statement appended: staged, the list left holding one run-time list."""
    if kwargs or len(args) != _ARITY.get(name, 1):
        shown = ", ".join(["lst", *("..." for _ in args), *(f"{k}=" for k in kwargs)])
        raise StagingError(
            f"{where(origin)}: `{name}({shown})` of {list_name(lst)}, whose items a staged "
            f"statement appended: only `{name}(lst{', x' if _ARITY.get(name, 1) else ''})` "
            "is staged (no lo/hi/key). Call it with those arguments only."
        )
    args = tuple(index_value(a) for a in args)
    if name in PUSHES:
        args = (as_its_kind(args[0]),)
    lst[:] = [v if isinstance(v, ListAccum) else as_its_kind(v) for v in lst]
    op = f"`{name}()`"
    elem, dtype = item_kind(lst, n, op, origin, more=args)
    prefix, acc, tail = parts(lst, n)
    refuse_order(op, acc.dtype, origin)
    if args:
        args = (as_row(args[0], acc.dtype, op, origin),)  # a record: its row
    specs = [((None, *elem), dtype, False)]
    if name in ("bisect_left", "bisect_right"):
        specs.append(_INT)
    elif name in HEAP_RESULTS:
        specs.append((elem, dtype, False))
    outs = emit("helper", name, LIST_METHODS[name], (prefix, acc, tail, *args), {}, specs)
    lst[:] = [ListAccum(outs[0])]
    if len(outs) == 1:
        return None
    if specs[1] is _INT:
        return outs[1]
    # (an item of the list, or the one pushed: Python numbers of one type give one)
    known = item_kinds.union(item_kinds.of_parts(prefix, acc, tail), item_kinds.of_items(args))
    return run_time_item(outs[1], known=known)
