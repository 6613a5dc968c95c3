"""The user's classes that converted code meets: the functions Python itself calls for their
objects (a property's getter and setter, `__init__`, `__len__`, `__lt__`, `__getitem__`,
`__call__`, ...), which converted code never reaches through `ac.converted`, get their guarded
forms (`guarded.guard`): the user's statements as written outside traces, their converted form
while a trace is built. So `s.mean`, with an `if` on a value known only when the graph runs in
the getter, is staged as a method's `if` is.

A class is prepared once, in place (its own `__dict__`, and its bases' that are the user's),
when converted code first calls one of its methods or a converted function names it. Functions
without a source (a dataclass's generated `__eq__` and `__lt__`), generators and library code
stay as they are.
"""

import weakref

from autoconv.conversion import guarded, library
from autoconv.errors import ConversionError

_FunctionType = type(lambda: None)

SPECIAL = frozenset(
    (
        "__init__ __post_init__ __call__ __len__ __bool__ __contains__ __getitem__ "
        "__setitem__ __delitem__ __lt__ __le__ __gt__ __ge__ __eq__ __ne__ __neg__ __pos__ "
        "__abs__ __invert__ __float__ __int__ __index__ __round__ __add__ __radd__ __iadd__ "
        "__sub__ __rsub__ __isub__ __mul__ __rmul__ __imul__ __truediv__ __rtruediv__ "
        "__itruediv__ __floordiv__ __rfloordiv__ __ifloordiv__ __mod__ __rmod__ __pow__ "
        "__rpow__ __matmul__ __rmatmul__ __imatmul__ __and__ __rand__ __or__ __ror__ __xor__ "
        "__rxor__"
    ).split()
)
"""The special methods given guarded forms. Not `__repr__`, `__str__`, `__format__` and
`__hash__` (messages and dict keys need their Python value now), nor attribute access."""

_done: "weakref.WeakSet[type]" = weakref.WeakSet()
# code -> the global names it and its nested code read (weakly: a lambda's code goes with it)
_names: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def prepare(cls) -> None:
    """Gives the user's class `cls` (and its user bases) guarded special methods and
    properties, once."""
    try:
        if cls in _done:
            return
        mro = cls.__mro__
    except TypeError:  # not weakly referable, or not a class
        return
    for klass in mro:
        if klass in _done or not _users(klass):
            continue
        _done.add(klass)
        _guard_class(klass)


def prepare_named(func) -> None:
    """Prepares the user's classes that the global names `func`'s code reads are bound to."""
    code = func.__code__
    hit = _names.get(code)
    if hit is None:
        hit = _names[code] = tuple(_global_names(code))
    spaces = func.__globals__
    for name in hit:
        value = spaces.get(name)
        if isinstance(value, type) and value not in _done:
            prepare(value)


def _global_names(code):
    seen = set()
    todo = [code]
    while todo:
        c = todo.pop()
        for name in c.co_names:
            if name not in seen:
                seen.add(name)
                yield name
        todo.extend(k for k in c.co_consts if type(k) is type(code))


def _users(klass) -> bool:
    module = getattr(klass, "__module__", None)
    return klass is not object and not library.is_library_module(module)


def _guard_class(klass) -> None:
    for name, value in list(vars(klass).items()):
        if type(value) is property:
            parts = [_guarded(f) for f in (value.fget, value.fset, value.fdel)]
            if any(p is not f for p, f in zip(parts, (value.fget, value.fset, value.fdel))):
                _set(klass, name, property(*parts, value.__doc__))
        elif name in SPECIAL and type(value) is _FunctionType:
            new = _guarded(value)
            if new is not value:
                _set(klass, name, new)


def _set(klass, name, value) -> None:
    try:
        setattr(klass, name, value)
    except (AttributeError, TypeError):  # a class that refuses it: it stays as it is
        pass


def _guarded(f):
    if type(f) is not _FunctionType or library.skips_function(f) or guarded.is_guarded(f):
        return f
    try:
        made = guarded.guard(f, True)
    except Exception:  # noqa: BLE001 - never in the way of the user's program
        return f
    if made is None or isinstance(made, ConversionError):
        return f
    return made
