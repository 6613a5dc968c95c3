"""Values of staged state that are not ordinary values."""

from __future__ import annotations

from autoconv.errors import StagingError
from autoconv.runtime import staging
from autoconv.runtime.staging import is_undefined


class Undefined:
    """A variable that has no value on some path (defined in one branch only). Any use of it
    raises the StagingError that explains why; only assigning it again is fine."""

    __slots__ = ("name", "message", "error")

    def __init__(self, name: str, message: str, error: type = StagingError):
        self.name = name
        self.message = message
        self.error = error

    def __repr__(self):
        return f"<undefined {self.name}>"

    def fail(self, *args, **kwargs):
        raise self.error(self.message)

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        self.fail()

    __bool__ = __iter__ = __len__ = __call__ = __getitem__ = __array__ = fail
    __index__ = __int__ = __float__ = __complex__ = __format__ = fail

    def __array_ufunc__(self, *args, **kwargs):
        self.fail()

    def __array_function__(self, *args, **kwargs):
        self.fail()


staging.STORE_CHECKS[Undefined] = Undefined.fail


def _install_operators() -> None:
    for name in (
        "add sub mul truediv floordiv mod pow matmul and or xor lshift rshift "
        "radd rsub rmul rtruediv rfloordiv rmod rpow rmatmul rand ror rxor "
        "lt le gt ge eq ne neg pos abs invert"
    ).split():
        setattr(Undefined, f"__{name}__", Undefined.fail)
    Undefined.__hash__ = object.__hash__


_install_operators()


def unbound(value) -> bool:
    """Whether `value` stands for a variable without a value: not bound yet (the runtime's
    marker) or bound on some paths only (`Undefined`)."""
    return is_undefined(value) or type(value) is Undefined


def map_leaves(v, fn):
    """`v` with `fn` applied to each leaf inside its tuples, lists, dicts and namedtuples."""
    t = type(v)
    if t is tuple or t is list:
        return t(map_leaves(x, fn) for x in v)
    if t is dict:
        return {k: map_leaves(x, fn) for k, x in v.items()}
    if isinstance(v, tuple) and hasattr(t, "_fields"):
        return t(*(map_leaves(x, fn) for x in v))
    return fn(v)
