"""`heapq` and `bisect` on lists whose items are known only when the graph runs: a priority
queue a staged loop pushes onto (`heapq.heappush(pq, (d, v))`, `heapq.heappop(pq)`), a sorted
list grown by `bisect.insort`.

Each call is staged as a method of the run-time list (`list_ops.list_method`), whose helper
runs the library's own function on the list's items when the graph runs (graph.helpers
`HEAP_FUNCS`; the JAX backend follows the same sift steps on its buffer). So the list keeps
eager's exact layout: `pq[0]`, iterating it, printing or returning it give what eager code
gives, and ties (`(d, node)` with equal `d`) pop as eagerly. `heapq.nsmallest` /
`nlargest` are `sorted(...)[:n]`, as Python documents them, which is staged on such lists.
"""

from __future__ import annotations

import heapq

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph.errors import StagingError, where
from autoconv.graph.helpers import HEAP_FUNCS, HEAP_RESULTS, LIST_METHODS
from autoconv.runtime import staging
from autoconv.trace.tensors.accumulated import item_kind, list_name, run_time_item
from autoconv.trace.tensors.appends import as_its_kind, in_staged_loop
from autoconv.trace.tensors.optionals import index_value
from autoconv.trace.tensors.recording import emit
from autoconv.trace.tensors.records import as_row, refuse_order
from autoconv.trace.tensors.rows import parts

_INT = ((), np.dtype(np.int64), True)
_CHANGING = frozenset(HEAP_FUNCS) - {"bisect_left", "bisect_right"}
_PUSHES = frozenset(("heappush", "heappushpop", "heapreplace", "insort_right", "insort_left"))
_ARITY = {"heappop": 0, "heapify": 0}  # others take one item (or value) after the list


def heap_call(lst: list, n: int, name: str, args: tuple, kwargs: dict, origin):
    """`heapq.name(lst, *args)` (or bisect's) of `lst`, whose item `n` stands for the items a
    staged statement appended: staged, the list left holding one run-time list."""
    from autoconv.trace.tensors.accumulated import ListAccum

    if kwargs or len(args) != _ARITY.get(name, 1):
        shown = ", ".join(["lst", *("..." for _ in args), *(f"{k}=" for k in kwargs)])
        raise StagingError(
            f"{where(origin)}: `{name}({shown})` of {list_name(lst)}, whose items a staged "
            f"statement appended: only `{name}(lst{', x' if _ARITY.get(name, 1) else ''})` "
            "is staged (no lo/hi/key). Call it with those arguments only."
        )
    args = tuple(index_value(a) for a in args)
    if name in _PUSHES:
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
    return outs[1] if specs[1] is _INT else run_time_item(outs[1])


def _staged(name: str):
    fn = HEAP_FUNCS[name]

    def call(heap, *args, **kwargs):
        if _g.building() and type(heap) is list:
            from autoconv.runtime.sequences import holds_symbolic

            if (
                staging.grown_list(heap)
                or (name in _CHANGING and in_staged_loop(heap))
                or holds_symbolic(heap, *args, *kwargs.values())
            ):
                return staging.graph_tracer.list_method(heap, name, args, kwargs)
        return fn(heap, *args, **kwargs)

    call.__name__ = name
    call.__doc__ = f"`{name}(heap, ...)`, staged on a list whose items are known when the graph runs."
    return call


def _smallest(fn, reverse: bool):
    def call(n, iterable, key=None):
        if _g.building() and isinstance(n, int) and staging.grown_list(iterable):
            from autoconv.runtime.py_builtins import sorted as sorted_

            # Python documents them as sorted(iterable, key=key, reverse=...)[:n]: the same
            # items in the same order, ties in the iterable's order.
            kept = sorted_(iterable, key=key, reverse=reverse)
            return staging.graph_tracer.list_item(kept, slice(None, max(n, 0)))
        return fn(n, iterable, key=key)

    call.__name__ = fn.__name__
    call.__doc__ = f"`heapq.{fn.__name__}` of a list whose items are known when the graph runs."
    return call


STAGED = {
    **{fn: _staged(name) for name, fn in HEAP_FUNCS.items()},
    heapq.nsmallest: _smallest(heapq.nsmallest, False),
    heapq.nlargest: _smallest(heapq.nlargest, True),
}
"""The library functions converted code calls through the runtime (conversion.resolve)."""
