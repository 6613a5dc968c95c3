"""Tracebacks of errors that reach the user through autoconv's public entry points show the
user's frames only.

A user error raised while a function is traced (a `ValueError` in its body, a `StagingError`
at one of its lines) passes through a dozen frames of the tracer and the runtime before it
reaches the user, and a notebook shows all of them above the line that matters. As JAX does
(`jax._src.traceback_util`), the entry points (`Function.__call__`, `get_concrete_function`,
`ConcreteFunction.__call__`, ...) catch the exception on its way out and rebuild its
`__traceback__` (and those of the exceptions chained to it) from the frames whose code is not
autoconv's: the package's files and the code it generates (`<autoconv ...>` file names). The
exception itself, its type, message and chain, is never changed or swallowed.

`AUTOCONV_TRACEBACK=full` in the environment shows every frame (read at each error, so it can
be set in a running notebook with `os.environ`). Converted functions (`convert`) are not entry
points: their calls add no frames and hide nothing.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import types

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep
_GENERATED = "<autoconv "  # the executors and dispatchers autoconv compiles
_CONTEXTLIB = contextlib.__file__


def showing_all() -> bool:
    """True when `AUTOCONV_TRACEBACK=full` asks for tracebacks with autoconv's frames."""
    return os.environ.get("AUTOCONV_TRACEBACK", "").strip().lower() == "full"


def is_ours(filename: str) -> bool:
    """True for code of the autoconv package or code it generated."""
    if filename.startswith(_GENERATED):
        return True
    if filename.startswith("<"):
        return False
    return os.path.abspath(filename).startswith(_PACKAGE)


def _our_context_exit(frame) -> bool:
    """Whether `frame` is `contextlib`'s `__exit__` of a `with` in autoconv's code (the error
    passed through one of autoconv's context managers)."""
    back = frame.f_back
    return (
        frame.f_code.co_name == "__exit__"
        and frame.f_code.co_filename == _CONTEXTLIB
        and back is not None
        and is_ours(back.f_code.co_filename)
    )


def without_our_frames(tb: types.TracebackType | None) -> types.TracebackType | None:
    """A new chain of traceback entries: those of `tb` whose frames are not autoconv's, in the
    same order (None when none is left)."""
    kept = []
    while tb is not None:
        frame = tb.tb_frame
        if not is_ours(frame.f_code.co_filename) and not _our_context_exit(frame):
            kept.append(tb)
        tb = tb.tb_next
    new = None
    for entry in reversed(kept):
        new = types.TracebackType(new, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return new


def hide_our_frames(error: BaseException) -> None:
    """Removes autoconv's frames from the tracebacks of `error` and of the exceptions chained
    to it (`__cause__`, `__context__`), unless `AUTOCONV_TRACEBACK=full` or a graph is being
    built: a Function called inside another trace leaves the traceback whole, since the tracer
    reads it (which frames raised) before the outer entry point hides them."""
    if showing_all():
        return
    scopes = sys.modules.get("autoconv.graph.scopes")  # not loaded: no graph is being built
    if scopes is not None and scopes.building():
        return
    seen: set = set()
    todo = [error]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        e.__traceback__ = without_our_frames(e.__traceback__)
        todo += [e.__cause__, e.__context__]


def entry_point(fn):
    """Decorates a public entry point: an exception leaving it carries a traceback without
    autoconv's frames (see the module's docstring)."""

    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as e:
            hide_our_frames(e)
            # A bare `raise` re-raises without adding this frame back to the traceback.
            raise

    return call
