"""The truth and `len()` of the user's objects while a graph is traced.

Python calls a class's `__bool__` (or `__len__`) itself for `if s:`, `while st and ...` and
`len(s)`, and needs a Python bool or int back: a `Stack` whose `__bool__` returns
`bool(self._items)` of a list a staged loop appends to has its truth only when the graph runs.
Converted code asks here first: the method is called (converted) directly, and its result, a
graph value or a Python one, is the test (`len() != 0` for `__len__`) or the length.
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
