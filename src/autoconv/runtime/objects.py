"""The truth, `len()` and order of the user's objects while a graph is traced.

Python calls a class's `__bool__` (or `__len__`) itself for `if s:`, `while st and ...` and
`len(s)`, and needs a Python bool or int back: a `Stack` whose `__bool__` returns
`bool(self._items)` of a list a staged loop appends to has its truth only when the graph runs.
Converted code asks here first: the method is called (converted) directly, and its result, a
graph value or a Python one, is the test (`len() != 0` for `__len__`) or the length.

Objects of a `@dataclass(order=True)` sorted by themselves compare as the tuples of their
compared fields, which their generated `__lt__` (code without a source, never converted)
compares: `order_key` gives that tuple, which a staged sort orders.
"""

from autoconv.runtime import staging

_FunctionType = type(lambda: None)
_MISSING = object()
_TRUTH: dict = {}  # type -> (its `__bool__` or `__len__` written in Python, which), or None
_LENGTH: dict = {}  # type -> its `__len__` written in Python, or None
_SIMPLE = frozenset((bool, int, float, str, bytes, list, tuple, dict, set, type(None)))


def _user_class(cls) -> bool:
    """A class of the user's, not Python's, NumPy's, JAX's or autoconv's (whose values, graph
    values among them, have tracers of their own)."""
    if cls in _SIMPLE:
        return False
    module = getattr(cls, "__module__", None) or ""
    return module.split(".")[0] not in _LIBRARIES


_LIBRARIES = frozenset(("builtins", "numpy", "jax", "jaxlib", "autoconv"))


def _method(cls, name):
    f = getattr(cls, name, None)
    return f if type(f) is _FunctionType else None


def _truth_method(cls):
    found = _TRUTH.get(cls, _MISSING)
    if found is _MISSING:
        found = None
        if _user_class(cls):
            f = _method(cls, "__bool__")
            if f is not None:
                found = (f, "bool")
            elif getattr(cls, "__bool__", None) is None:
                f = _method(cls, "__len__")
                found = (f, "len") if f is not None else None
        _TRUTH[cls] = found
    return found


def tested(value):
    """While tracing, the truth of a user's object whose class writes `__bool__` or `__len__`
    in Python, as that method (converted) gives it; any other value as it is."""
    if not staging.traces and not staging.jax_tracing():
        return value
    found = _truth_method(type(value))
    if found is None:
        return value
    from autoconv.runtime.calls import converted

    result = converted(found[0])(value)
    if found[1] == "len":
        return result != 0
    return result


def length(value):
    """While tracing, `len()` of a user's object whose class writes `__len__` in Python: what
    that method (converted) gives, a graph value when known only when the graph runs; None
    for any other value."""
    cls = type(value)
    f = _LENGTH.get(cls, _MISSING)
    if f is _MISSING:
        f = None
        if _user_class(cls):
            f = _method(cls, "__len__")
        _LENGTH[cls] = f
    if f is None:
        return None
    from autoconv.runtime.calls import converted

    return converted(f)(value)


def testing(test):
    """A `while` loop's test that gives the truth of what `test` gives (see `tested`)."""
    return lambda: tested(test())


def order_key(item):
    """The tuple of fields an object of a `@dataclass(order=True)` compares by (`tasks.sort()`),
    or `item` itself."""
    kind = type(item)
    if kind in _SIMPLE:
        return item
    if kind.__module__ == "autoconv.trace.tensors.unions":
        # A Union of objects (one of several, picked when the graph runs): its one class's.
        kinds = {type(a) for a in item.ac_alternatives}
        kind = kinds.pop() if len(kinds) == 1 else kind
    params = getattr(kind, "__dataclass_params__", None)
    if params is None or not params.order or not _user_class(kind):
        return item
    import dataclasses

    return tuple(getattr(item, f.name) for f in dataclasses.fields(kind) if f.compare)


def ordered_objects(items) -> bool:
    """Whether `items` holds an object of a `@dataclass(order=True)` (see `order_key`)."""
    return any(order_key(v) is not v for v in items)


def text(value, name: str):
    """While tracing, `repr()` (`name` "__repr__") or `str()` ("__str__") of a user's object
    whose class writes that method in Python (`str()` falls back on `__repr__`, as Python
    does): what the method, converted, gives, a string made when the graph runs where its
    f-string formats such values; None for any other value."""
    cls = type(value)
    if not _user_class(cls):
        return None
    f = _method(cls, name)
    if f is None and name == "__str__" and getattr(cls, "__str__", None) is object.__str__:
        f = _method(cls, "__repr__")
    if f is None:
        return None
    from autoconv.runtime.calls import converted

    return converted(f)(value)
