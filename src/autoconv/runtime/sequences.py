"""Comparisons of tuples and the list methods `index`, `count`, `remove` and `sort` on plain
Python tuples and lists: Python's own, except while a graph is traced and an item is symbolic, where
Python would compare the items while tracing (and fail on the truth of a Tensor); the graph's
tracer then compares them when the graph runs (`trace.tensors.sequences`).

    (v, -i) > best       ->  ac.compare('>', (v, -i), best)
"""

import operator as _operator

from autoconv.runtime import objects, staging

_traces = staging.traces
_TRACERS = staging.TRACERS

COMPARISONS = {
    "<": _operator.lt,
    "<=": _operator.le,
    ">": _operator.gt,
    ">=": _operator.ge,
    "==": _operator.eq,
    "!=": _operator.ne,
}

PYTHON = object()
"""`staged_method`'s answer when the call is Python's own."""

METHODS = frozenset(("index", "count", "remove", "sort"))
"""The list and tuple methods staged on symbolic items (`remove`, `sort`: lists only)."""


def holds_symbolic(*values) -> bool:
    """Whether a value, or an item of a tuple or list among `values` (nested), is one the
    graph's tracer claims."""
    tracer = staging.graph_tracer
    for value in values:
        kind = type(value)
        if kind in (tuple, list):
            if holds_symbolic(*value):
                return True
        elif _TRACERS[kind] is tracer and tracer is not None:
            return True
    return False


def compare(op, a, b):
    """`a op b` (`op` one of <, <=, >, >=, ==, !=) with a tuple written in place on one side;
    while a graph is traced, tuples holding symbolic items compare as Python's do, item by item,
    with the comparisons made when the graph runs."""
    if (
        _traces
        and type(a) is type(b)
        and type(a) in (tuple, list)
        and holds_symbolic(a, b)
        and not staging.grown_list(a)
        and not staging.grown_list(b)
    ):
        return staging.graph_tracer.sequence("compare", op, a, b)
    return COMPARISONS[op](a, b)


def staged_method(target, name, args, kwargs):
    """The graph tracer's `target.name(*args)` (one of METHODS) of a plain list or tuple with a
    symbolic item or argument, or PYTHON when Python's own method is the one to call."""
    if name == "sort" and type(target) is list and not args and set(kwargs) <= {"key", "reverse"}:
        from autoconv.runtime.py_builtins import sorted as sorted_

        if not staging.grown_list(target) and (
            "key" in kwargs or holds_symbolic(target) or objects.ordered_objects(target)
        ):
            target[:] = sorted_(target, **kwargs)  # one list when the graph runs, as Python
            return None
    if (
        name in METHODS
        and not kwargs
        and type(target) in ((list,) if name == "remove" else (list, tuple))
        and holds_symbolic(target, *args)
        and not staging.grown_list(target)
    ):
        if name == "remove" and len(args) == 1:
            return staging.graph_tracer.sequence("remove", target, *args)
        if name == "count" and len(args) == 1:
            return staging.graph_tracer.sequence("count", target, *args)
        if name == "index" and 1 <= len(args) <= 3:
            return staging.graph_tracer.sequence("index", target, *args)
    return PYTHON
