"""In-place NumPy calls on a local name, for converted code: `np.fill_diagonal(d, 0)` becomes
`d = ac.inplace_call(np, 'fill_diagonal', d, 0)` and `a.sort()` becomes
`a = ac.inplace_method(a, 'sort')` (converters/inplace_calls.py). Run as written, they change
the array and give it back, so the rebinding changes nothing; while a graph is traced and a
symbolic value is involved the graph tracer gives the new array instead (as `ac.setitem`)."""

from autoconv.runtime import staging
from autoconv.runtime.calls import converted

_traces = staging.traces


def inplace_call(owner, name, target, *args, **kwargs):
    """`owner.name(target, *args, **kwargs)`; gives what `target`'s name holds afterwards."""
    if _traces:
        return staging.graph_tracer.inplace(owner, name, target, args, kwargs)
    converted(getattr(owner, name))(target, *args, **kwargs)
    return target


def inplace_method(target, name, *args, **kwargs):
    """`target.name(*args, **kwargs)`; gives what `target`'s name holds afterwards."""
    if _traces:
        return staging.graph_tracer.inplace(None, name, target, args, kwargs)
    converted(getattr(target, name))(*args, **kwargs)
    return target
