"""Tracebacks under JAX show the user's frames, not autoconv's.

An error from the user's code in a staged branch or loop comes out of autoconv's own frames
(the runtime, this client, `lax.cond`'s) and often chains JAX's error (`raise ... from e`). The
statements this client stages remove autoconv's frames from the whole chain where they hand the
error back to the user's function (`outermost`), as `autoconv.function` does.

JAX removes its own frames from the traceback of an error that leaves `jax.jit`, `jax.grad`
and its other transformations (`jax._src.traceback_util`; `JAX_TRACEBACK_FILTERING=off` keeps
them). Its filter drops every frame under the paths in its list of exclusions: autoconv's
package joins that list, as a path that follows `AUTOCONV_TRACEBACK` (read at each error, as
for `autoconv.function`, `autoconv.tracebacks`): with `AUTOCONV_TRACEBACK=full` it names no
folder, and autoconv's frames stay.
"""

from __future__ import annotations

import functools
import os
import threading
import types

import autoconv
from autoconv.tracebacks import hide_our_frames, showing_all

_PACKAGE = os.path.dirname(os.path.abspath(autoconv.__file__))


class _OurFrames(os.PathLike):
    """autoconv's folder, or one that holds no file when `AUTOCONV_TRACEBACK=full`."""

    def __fspath__(self) -> str:
        # A folder that does not exist: no frame is under it.
        return os.path.join(_PACKAGE, "<all frames shown>") if showing_all() else _PACKAGE

    def __repr__(self) -> str:
        return f"<autoconv's frames: {self.__fspath__()!r}>"


def hide_from_jax_tracebacks() -> None:
    """Adds autoconv's folder to JAX's traceback exclusions (once; nothing where this JAX keeps
    them elsewhere)."""
    try:
        from jax._src import traceback_util
    except ImportError:  # pragma: no cover - another JAX layout
        return
    paths = getattr(traceback_util, "_exclude_paths", None)
    if type(paths) is list and not any(isinstance(p, _OurFrames) for p in paths):
        paths.append(_OurFrames())


_local = threading.local()


def outermost(stage):
    """`stage` (a staged statement of this client, which runs user code), removing autoconv's
    frames from the tracebacks of an error leaving the outermost one (the inner ones leave
    them: the outer ones read where the user's code raised)."""

    @functools.wraps(stage)
    def staged(*args, **kwargs):
        depth = getattr(_local, "depth", 0)
        _local.depth = depth + 1
        try:
            return stage(*args, **kwargs)
        except Exception as e:
            if depth == 0:
                hide_our_frames(e)
            raise
        finally:
            _local.depth = depth

    return staged


def named_after(staged, user_fn):
    """`staged` (a function of this client that JAX traces: a branch for `lax.cond`, a body for
    `lax.while_loop`), named in JAX's messages ("the function ... traced at file:line") after
    the user's function it runs: JAX names the function it finds through `__wrapped__`."""
    if user_fn is None:
        return staged
    code = getattr(user_fn, "__code__", None)
    if code is None or code.co_argcount == staged.__code__.co_argcount:
        staged.__wrapped__ = user_fn
        return staged
    # JAX also reads the parameters of what `__wrapped__` names: a stand-in with `staged`'s
    # parameters and the user's name, file and line (never called).
    where = {
        "co_name": code.co_name,
        "co_filename": code.co_filename,
        "co_firstlineno": code.co_firstlineno,
    }
    if hasattr(code, "co_qualname"):  # Python 3.11 and later
        where["co_qualname"] = code.co_qualname
    code_here = staged.__code__.replace(**where)
    stand_in = types.FunctionType(code_here, {}, code.co_name, None, staged.__closure__)
    staged.__wrapped__ = stand_in
    return staged
