"""Item assignment for converted code: `name[key] = value` becomes
`name = ac.setitem(name, key, value)` (converters/item_assignment.py)."""

from autoconv.runtime import staging

_traces = staging.traces


def setitem(target, key, value):
    """`target[key] = value`; gives what the name holds afterwards: `target` itself, or, while a
    graph is traced and a symbolic value is involved, the backend's new array."""
    if _traces:
        return staging.backend.setitem(target, key, value)
    target[key] = value
    return target


class _Index:
    """`ac.index[key]` is `key`: a subscript's key, slices included, as a value."""

    __slots__ = ()

    def __getitem__(self, key):
        return key


index = _Index()
