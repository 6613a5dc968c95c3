"""`in` and the methods other than `append` of a list that converted code appends to
(`converters/list_items.py`): plain Python, except for a list a staged loop appended to while a
graph is traced, whose items are known only when the graph runs."""

from autoconv.runtime import sequences, staging
from autoconv.runtime.calls import converted
from autoconv.runtime.control_flow import for_stmt, if_stmt

_traces = staging.traces


def list_contains(target, value):
    """`value in target`."""
    if _traces and staging.grown_list(target):
        return staging.graph_tracer.list_contains(target, value)
    return value in target


def list_method(target, name, *args, **kwargs):
    """`target.name(*args, **kwargs)`, for `name` one of converters.list_items.METHODS (or
    `index`, `count`, `remove`, `sort` of any local name: converters/calls.py). While a graph
    is traced, staged on a list a staged loop appended to, or on a plain list or tuple with
    symbolic items (runtime.sequences); other objects' methods are called converted, as any
    call."""
    if _traces:
        if staging.grown_list(target):
            return staging.graph_tracer.list_method(target, name, args, kwargs)
        result = sequences.staged_method(target, name, args, kwargs)
        if result is not sequences.PYTHON:
            return result
    return converted(getattr(target, name))(*args, **kwargs)


def filtered(items, test, value):
    """`[value(v) for v in items if test(v)]` (`converters/comprehensions.py`). While tracing,
    a test known only when the graph runs appends under a staged `if`, as the statement form
    does: the result is a list whose length is known when the graph runs."""
    if not _traces and not staging.jax_tracing():
        return [value(v) for v in items if test(v)]
    out = []

    def body(item):
        if_stmt(test(item), lambda: out.append(value(item)))

    for_stmt(items, body)
    return out
