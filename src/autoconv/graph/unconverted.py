"""Why the user's code that met a Tensor as a Python bool or iterable was not converted, where
Python itself calls it so that converted code never does: a property's getter (called on
attribute access) or a generator's body (run between `next()` calls, left as Python)."""

from __future__ import annotations

import inspect
import linecache
import os
import sys

from autoconv.graph.origin import _SKIP


def _user_frame(depth: int):
    frame = sys._getframe(depth + 1)
    while frame is not None and frame.f_code.co_filename.startswith(_SKIP):
        frame = frame.f_back
    return frame


def _property_of(frame):
    """`Class.name` of the property whose getter `frame` runs, or None."""
    code = frame.f_code
    if not code.co_argcount or code.co_varnames[0] not in frame.f_locals:
        return None
    owner = frame.f_locals[code.co_varnames[0]]
    for cls in type(owner).__mro__:
        for name, value in vars(cls).items():
            if isinstance(value, property) and getattr(value.fget, "__code__", None) is code:
                return f"{cls.__name__}.{name}"
    return None


def reason(depth: int = 1) -> str:
    """A sentence naming the property getter or generator the user's line is in, with what to
    write instead, or "" (`depth`: frames above the caller to start from)."""
    frame = None
    try:
        frame = _user_frame(depth + 1)
        if frame is None:
            return ""
        found = _property_of(frame)
        if found is not None:
            attr = found.split(".")[1]
            return (
                f" This line is in the getter of property `{found}`, which Python calls on "
                "attribute access, so autoconv does not convert it: make it a method and call "
                f"it (`obj.{attr}()` rather than `obj.{attr}`)."
            )
        if frame.f_code.co_filename.startswith(_STDLIB):
            return _library_reason(frame)
        if frame.f_code.co_flags & inspect.CO_GENERATOR:
            return (
                f" This line is in generator `{frame.f_code.co_name}`, whose body autoconv "
                "leaves as Python (it runs between next() calls): build a list in a loop and "
                "return it, or loop in the caller."
            )
    except Exception:  # noqa: BLE001 - a hint only: never in the way of the error itself
        return ""
    finally:
        del frame
    return ""


_STDLIB = os.path.dirname(os.path.abspath(os.__file__)) + os.sep


def _library_reason(frame) -> str:
    """The user's line that called the standard-library code `frame` runs: that code is
    Python's own, given a value known only when the graph runs."""
    library = os.path.basename(frame.f_code.co_filename).removesuffix(".py")
    caller = frame.f_back
    while caller is not None and caller.f_code.co_filename.startswith((_STDLIB, *_SKIP)):
        caller = caller.f_back
    if caller is None:
        return ""
    line = linecache.getline(caller.f_code.co_filename, caller.f_lineno).strip()
    return (
        f" This line is in `{library}`, called from {caller.f_code.co_filename}:"
        f"{caller.f_lineno} (`{line}`) with a value known only when the graph runs; the "
        f"standard library's code is not converted: compute it with NumPy (np.median, np.mean, "
        "np.sort, ...) on an array."
    )
