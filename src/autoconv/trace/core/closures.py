"""What a staged branch or loop body can reach: the converter's body functions read the user's
locals through closure cells, and hold the nested bodies of inner statements the same way; the
lists and dicts those locals are or hold (`self.items`, `d['a']`, `out[0]`)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

_FunctionType = type(lambda: None)
# autoconv's own package: a cell of a function written there (`runtime.keyed_sets`' loop body
# over a set it makes) holds no variable of the user's, so it names nothing in messages.
_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep


def closure_cells(fns, depth: int = 4, limit: int = 64) -> Iterator[tuple]:
    """`(name, cell, value)` for each bound closure cell of `fns` and of the functions those
    cells hold, `depth` levels down (at most `limit` functions); unbound cells are left out.
    A cell of a function of autoconv's own is named ""."""
    seen: set = set()
    todo = [(fn, depth) for fn in fns if fn is not None]
    while todo and len(seen) < limit:
        fn, left = todo.pop()
        if type(fn) is not _FunctionType or id(fn) in seen:
            continue
        seen.add(id(fn))
        own = fn.__code__.co_filename.startswith(_PACKAGE)
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
            try:
                value = cell.cell_contents
            except ValueError:  # an unbound local
                continue
            yield ("" if own else name), cell, value
            if left:
                todo.extend((f, left - 1) for f in held_functions(value))


def held_functions(value) -> list:
    """The functions a cell's value is or holds: a function, or the functions of a tuple (the
    converter's `elifs = (lambda: test, elif_body, ...)`)."""
    if type(value) is _FunctionType:
        return [value]
    if type(value) is tuple:
        return [f for f in value if type(f) is _FunctionType]
    return []


def containers(value, name: str, depth: int = 2) -> Iterator[tuple]:
    """`(name, container)` for the lists and dicts `value` is or holds, as attributes of a
    user's object, values of a dict or items of a list, `depth` levels down, each named as the
    user would write it (`self.items`, `d['a']`, `out[0]`)."""
    seen: set = set()
    if type(value) is _MethodType and user_object(value.__self__):
        # A bound method a branch calls (`union_methods`' branch per object of a `Union`):
        # its object's lists are what the call changes (`self.hist.append(v)`).
        value = value.__self__

    def walk(v, n, left):
        t = type(v)
        if t is list or t is dict:
            if id(v) in seen:
                return
            seen.add(id(v))
            yield n, v
            inner = [(f"{n}[{k!r}]", x) for k, x in (enumerate(v) if t is list else v.items())]
        elif user_object(v):
            if id(v) in seen:
                return
            seen.add(id(v))
            inner = [(f"{n}.{k}", x) for k, x in object.__getattribute__(v, "__dict__").items()]
        else:
            return
        if left > 0:
            for inner_name, x in inner:
                if type(x) in (list, dict) or user_object(x):
                    yield from walk(x, inner_name, left - 1)

    yield from walk(value, name, depth)


_ModuleType = type(sys)


def user_object(value) -> bool:
    """An instance of a user's class, whose attributes a staged body may change."""
    t = type(value)
    module = getattr(t, "__module__", None) or ""
    # Whole package names: a user's module may start with "jax" (`jax_tools`, a docs page).
    if module in ("builtins", "numpy", "jax", "jaxlib") or module.startswith(
        ("autoconv.", "jax.", "jaxlib.", "numpy.")
    ):
        return False
    if isinstance(value, (type, _ModuleType, _FunctionType)):
        return False
    try:  # never through the value's own __getattr__ (a traced value may refuse any use)
        return type(object.__getattribute__(value, "__dict__")) is dict
    except AttributeError:
        return False


_MethodType = type(user_object.__get__(0))  # a bound method
