"""`filter` and `map` (converters/calls.py), which Python runs lazily item by item: while a
graph is traced, a filter (whose test may be known only when the graph runs), or a map over
items a staged loop appended, go through `ac.filtered` as the generator expression
`(v for v in items if test(v))` / `(f(v) for v in items)` would. Outside a trace, and on
Python values, each is Python's own."""

import builtins as _py

from autoconv.runtime import staging
from autoconv.runtime.calls import converted
from autoconv.runtime.lists import filtered

_traces = staging.traces


def filter(function, iterable, /):  # noqa: A001
    """Python's `filter`; while tracing, the items whose test is true when the graph runs."""
    if not _traces:
        return _py.filter(function, iterable)
    out = filtered(iterable, _same if function is None else converted(function), _same)
    # A list whose length is known now stays an iterator, as Python's is.
    return out if staging.grown_list(out) else iter(out)


def map(function, iterable, /, *iterables):  # noqa: A001
    """Python's `map`; while tracing, of items a staged loop appended (known only when
    the graph runs): `function` of each when the graph runs."""
    if not _traces:
        return _py.map(function, iterable, *iterables)
    # (`map(float, x)` of Tensors: the staged `float`, as `float(v)` in converted code is)
    function = converted(function)
    if iterables and _py.any(map(staging.grown_list, (iterable, *iterables))):
        # `map(f, a, b)` of lists a staged loop grew: `[f(u, v) for u, v in zip(a, b)]`
        from autoconv.runtime.py_builtins import zip as staged_zip

        return filtered(staged_zip(iterable, *iterables), None, function, unpack=True)
    if iterables or not staging.grown_list(iterable):
        return _py.map(function, iterable, *iterables)
    return filtered(iterable, None, function)


def _same(value):
    return value
