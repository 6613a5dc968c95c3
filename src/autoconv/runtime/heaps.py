"""`heapq` and `bisect` of a list in converted code (conversion.resolve routes their calls
here). While a graph is traced, a list a staged loop grows or changes, or one holding items
known only when the graph runs, gets the graph tracer's staged form (trace.tensors.heaps);
otherwise the library's function runs."""

import bisect
import heapq

from autoconv.runtime import staging
from autoconv.runtime.sequences import holds_symbolic

FUNCTIONS = {
    "heappush": heapq.heappush,
    "heappop": heapq.heappop,
    "heappushpop": heapq.heappushpop,
    "heapreplace": heapq.heapreplace,
    "heapify": heapq.heapify,
    "insort_right": bisect.insort_right,
    "insort_left": bisect.insort_left,
    "bisect_left": bisect.bisect_left,
    "bisect_right": bisect.bisect_right,
}
_READS = frozenset(("bisect_left", "bisect_right"))


def _staged(name: str):
    fn = FUNCTIONS[name]

    def call(heap, *args, **kwargs):
        if name in _READS and _searched(heap, args, kwargs):
            return _search(heap, args[0], name)
        if staging.traces and type(heap) is list:
            tracer = staging.graph_tracer
            if (
                staging.grown_list(heap)
                or (name not in _READS and tracer.in_staged_loop(heap))
                or holds_symbolic(heap, *args, *kwargs.values())
            ):
                return tracer.list_method(heap, name, args, kwargs)
        elif staging.jax_tracing() and isinstance(heap, list):
            if type(heap) is not list:
                # The library's C code changes a list's storage without its methods: a
                # stand-in that takes only appends (trace.jax.growth's, in a loop JAX stages)
                # must refuse this use, as it refuses len(), rather than lose the items.
                len(heap)
            _refuse_jax(name, [*heap, *args])
        return fn(heap, *args, **kwargs)

    call.__name__ = name
    call.__doc__ = f"`{name}(lst, ...)`, staged on a list whose items are known at run time."
    return call


def _searched(heap, args, kwargs) -> bool:
    """`bisect(cuts, x)` of a sorted list (or tuple) of Python numbers and a number known only
    when the graph runs: a search of the numbers, which the list is not part of."""
    if not (staging.traces or staging.jax_tracing()):
        return False
    if kwargs or len(args) != 1 or type(heap) not in (list, tuple) or not heap:
        return False
    if not all(type(v) in (int, float) for v in heap):
        return False
    x = args[0]
    symbolic = staging.tracer_for(x) is not None or staging.jax_value(x)
    return symbolic and getattr(x, "ndim", 1) == 0 and all(map(_ascending, heap, heap[1:]))


def _ascending(a, b) -> bool:
    return a <= b


def _search(items, x, name: str):
    """Where `x` goes in sorted `items` (`bisect_left` / `bisect_right`), a Python int as
    eagerly: the count of the items bisect's own comparison puts before it (`item < x`; `not
    x < item`), which is its answer for a sorted list, a NaN `x` included."""
    from autoconv.runtime.py_builtins import int as int_

    if staging.jax_value(x):
        import jax.numpy as jnp  # (a JAX value is here: JAX is loaded)

        xp, to_int = jnp, lambda n: n  # (a traced int, as `len` of a run-time list is)
    else:
        import numpy as xp

        to_int = int_
    a = xp.asarray(items)
    before = a < x if name == "bisect_left" else xp.logical_not(x < a)
    return to_int(xp.sum(before))


def _refuse_jax(name: str, values) -> None:
    """The error for a heap function JAX traces on tracers (also in tuples)."""
    items = [i for v in values for i in (v if type(v) is tuple else (v,))]
    if any(map(staging.jax_value, items)):
        from autoconv.trace.jax.lists import refuse_heap

        refuse_heap(name, items)


def _smallest(fn, reverse: bool):
    def call(n, iterable, key=None):
        if (
            staging.traces
            and type(n) is int
            and (staging.grown_list(iterable) or _symbolic_items(iterable, key))
        ):
            from autoconv.runtime.items import list_item
            from autoconv.runtime.py_builtins import sorted as sorted_

            # Python documents them as sorted(iterable, key=key, reverse=...)[:n]: the same
            # items in the same order, ties in the iterable's order.
            return list_item(sorted_(iterable, key=key, reverse=reverse), slice(None, max(n, 0)))
        if staging.jax_tracing() and type(iterable) in (list, tuple):
            _refuse_jax(fn.__name__, iterable)
        return fn(n, iterable, key=key)

    call.__name__ = fn.__name__
    call.__doc__ = f"`heapq.{fn.__name__}` of a list whose items are known at run time."
    return call


def _symbolic_items(iterable, key) -> bool:
    """A Python list or tuple holding values known only when the graph runs (`a.tolist()` of
    an array), or a list, tuple or range whose `key` gives such values (`key=lambda i: a[i]`,
    asked of its first item): compared by the staged sort."""
    if type(iterable) not in (list, tuple, range):
        return False
    if key is None:
        return holds_symbolic(iterable)
    return len(iterable) > 0 and holds_symbolic([key(iterable[0])])


STAGED = {
    **{fn: _staged(name) for name, fn in FUNCTIONS.items()},
    heapq.nsmallest: _smallest(heapq.nsmallest, False),
    heapq.nlargest: _smallest(heapq.nlargest, True),
}
"""The library functions above -> what converted code calls in their place."""
