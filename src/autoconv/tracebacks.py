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

import ast
import contextlib
import functools
import linecache
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


def _function_around(filename: str, line: int) -> str:
    """The name of the innermost function of `filename` around `line` ('<module>' if none)."""
    try:
        tree = ast.parse("".join(linecache.getlines(filename)))
    except (SyntaxError, ValueError):
        return "<module>"
    name, best = "<module>", -1
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            if node.lineno <= line <= node.end_lineno and node.lineno > best:
                name, best = getattr(node, "name", "<lambda>"), node.lineno
    return name


def end_at_user_line(error: BaseException, filename: str, line: int) -> None:
    """Appends to `error`'s traceback an entry at the user's `filename:line` (the user's own
    `raise` that a graph ran into), in a frame named after the function around it, so that the
    traceback ends where eager Python's would. Nothing when the file's source is unknown."""
    if not isinstance(line, int) or line < 1 or not linecache.getline(filename, line):
        return
    # A code object of the user's file whose one statement, at `line`, raises `error`; it
    # spans the columns of the user's statement, so that no marks point into the line.
    text = linecache.getline(filename, line).rstrip()
    indent = len(text) - len(text.lstrip())
    statement = "raise (error" + " " * max(0, len(text) - indent - 13) + ")"
    if indent and line > 1:
        source = "\n" * (line - 2) + "if 1:\n" + " " * indent + statement
    else:
        source = "\n" * (line - 1) + statement
    code = compile(source, filename, "exec")
    code = code.replace(co_name=_function_around(filename, line))
    saved, context = error.__traceback__, error.__context__
    error.__traceback__ = None  # (raising it would add to its traceback)
    try:
        exec(code, {"error": error})  # noqa: S102 - raises `error` at the user's line
    except BaseException as e:  # noqa: BLE001 - it is `error`
        entry = e.__traceback__.tb_next  # past this function's own entry
    error.__traceback__, error.__context__ = saved, context
    if entry is None:
        return
    if saved is None:
        error.__traceback__ = entry
        return
    last = saved
    while last.tb_next is not None:
        last = last.tb_next
    last.tb_next = entry


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


# --- warnings.warn(stacklevel=n) from code the functional form calls ------------------------
#
# The functional form runs a compound statement's body as a function its operator calls
# (`if_stmt` calls `if_body`), and `convert(f)` enters it through a guard: a helper called in a
# body that warns with `stacklevel=2` would name runtime/control_flow.py, not the user's line.
# The body functions are real frames (the closures the graph tracer needs), so `warnings.warn` is
# wrapped, once the first functional form is built: the wrapper counts the levels as the
# original's frames would (autoconv's frames skipped; a body and the frames up to its function's
# one level; a guard and its functional form one level) and passes the matching stacklevel on.
# Where the levels meet none of autoconv's generated code, the stacklevel is passed on as given.

_original_warn = None


def _is_generated(code) -> bool:
    from autoconv.conversion.library import generated_codes

    return id(code) in generated_codes


def _is_guard(code) -> bool:
    from autoconv.conversion.guarded import _forms_entries  # guarded code -> its form's cell

    return id(code) in _forms_entries


def _called_by_operator(frame) -> bool:
    """Whether `frame` is a body function that an operator (or a tracer staging it) called."""
    from autoconv.runtime.unbound import operator_codes

    back = frame.f_back
    if back is None:
        return False
    return back.f_code in operator_codes or back.f_code.co_filename.startswith(_TRACE_DIR)


_TRACE_DIR = os.path.join(_PACKAGE, "trace") + os.sep


def _raw_level(frame, stacklevel: int):
    """The raw stack level (1: `frame`) at which eager Python's level `stacklevel` is, or None
    when the walk meets no generated code (the given level is then right)."""
    level, raw, generated, skipping = 0, 0, False, None
    while frame is not None:
        raw += 1
        code = frame.f_code
        if is_ours(code.co_filename):
            frame = frame.f_back
            continue
        if _is_generated(code):
            generated = True
            body = _called_by_operator(frame)
            if skipping == "body":
                # The level is a body's: its enclosing bodies, then its function, are in it.
                skipping = "body" if body else code.co_name
                frame = frame.f_back
                continue
            if skipping == code.co_name and not body and _is_guard(code):
                skipping = None  # the guard of the functional form just counted
                frame = frame.f_back
                continue
            skipping = "body" if body else code.co_name
        else:
            skipping = None
        level += 1
        if level == stacklevel:
            return raw if generated else None
        frame = frame.f_back
    return None


def _warn(message, category=None, stacklevel=1, source=None, **kwargs):
    caller = sys._getframe(1)
    if stacklevel > 1 and not is_ours(caller.f_code.co_filename):
        raw = _raw_level(caller, stacklevel)
        if raw is not None:
            stacklevel = raw
    return _original_warn(message, category, stacklevel + 1, source, **kwargs)


def count_levels_as_the_original() -> None:
    """Wraps `warnings.warn` so that a `stacklevel` counts the frames the original code would
    have (see above). Idempotent; called when the first functional form is built."""
    import warnings

    global _original_warn
    if _original_warn is None:
        _original_warn = warnings.warn
        _warn.__doc__ = warnings.warn.__doc__
        _warn.__wrapped__ = warnings.warn
        warnings.warn = _warn
