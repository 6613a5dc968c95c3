"""`in` and the methods other than `append` of a list that converted code appends to
(`converters/list_items.py`): plain Python, except for a list a staged loop appended to while a
graph is traced, whose items are known only when the graph runs."""

from autoconv.runtime import staging

_traces = staging.traces


def list_contains(target, value):
    """`value in target`."""
    if _traces and staging.grown_list(target):
        return staging.graph_tracer.list_contains(target, value)
    return value in target


def list_method(target, name, *args, **kwargs):
    """`target.name(*args, **kwargs)`, for `name` one of converters.list_items.METHODS."""
    if _traces and staging.grown_list(target):
        return staging.graph_tracer.list_method(target, name, args, kwargs)
    return getattr(target, name)(*args, **kwargs)
