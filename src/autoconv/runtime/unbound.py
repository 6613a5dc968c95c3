"""Keeping Python's own error for a local read before assignment.

Converted code reads the function's locals from nested body functions, where an unbound one
raises `NameError: cannot access free variable 'x' ...` instead of the original's
`UnboundLocalError: cannot access local variable 'x' ...`. The operators catch that `NameError`
as it leaves a body (no cost until one is raised) and ask `unbound_error` for the error the
original would have raised.
"""

import sys

operator_codes: set = set()  # code objects of the operators that call bodies
_template = None


def unbound_error(error, *bodies):
    """The `UnboundLocalError` the unconverted function would raise instead of `error`, or None
    when `error` is not about one of its locals, or was not raised by one of `bodies` (the
    functions the operator called) itself: it is then re-raised as it is. The new error keeps
    `error`'s traceback from the body on, and its context (see `throw`)."""
    if type(error) is not NameError or error.name is None:
        return None
    tb = error.__traceback__  # the operator's frame, then the body's
    body = tb.tb_next
    if body is None or body.tb_next is not None:
        return None  # raised deeper, by code the user wrote that way
    code = body.tb_frame.f_code
    if not any(getattr(f, "__code__", None) is code for f in bodies):
        return None  # raised by something else the operator called (a generator, `iter`)
    caller = _owner(tb.tb_frame.f_back)
    if caller is None or error.name not in caller.f_code.co_cellvars:
        return None
    new = UnboundLocalError(_message(error.name))
    new.name = error.name
    new.__cause__ = error.__cause__
    new.__context__ = error.__context__
    new.__suppress_context__ = error.__suppress_context__
    return new.with_traceback(body)


def _showing_all() -> bool:
    """`AUTOCONV_TRACEBACK=full` (read by `autoconv.tracebacks`, when it is loaded: the runtime
    imports no more than itself)."""
    tracebacks = sys.modules.get("autoconv.tracebacks")
    return tracebacks is not None and tracebacks.showing_all()


def past_operators(error) -> None:
    """Drops the operators' own entries (`if_stmt` called `if_body`, ...) from the start of
    `error`'s traceback as it leaves one, so that the functional form's tracebacks show the
    user's frames only, as autoconv's entry points do (`AUTOCONV_TRACEBACK=full` keeps them).
    The caller re-raises `error` with a bare `raise`, which adds no entry back."""
    tb = error.__traceback__
    if tb is None or _showing_all():
        return
    while tb is not None and tb.tb_frame.f_code in operator_codes:
        tb = tb.tb_next
    error.__traceback__ = tb


def past_guard(error) -> None:
    """Drops the entry of the guard's frame (`convert(f)` calling its functional form) from the
    start of `error`'s traceback: the functional form's frame stands for the function, as the
    original's one frame does. The guard re-raises `error` with a bare `raise`."""
    tb = error.__traceback__
    if tb is not None and tb.tb_frame is sys._getframe(1) and not _showing_all():
        error.__traceback__ = tb.tb_next


def _owner(frame):
    """The converted function that owns the locals, out from `frame` (an operator's caller)
    through operators and the bodies they called."""
    while frame is not None:
        if frame.f_code in operator_codes:
            frame = frame.f_back
        elif frame.f_back is not None and frame.f_back.f_code in operator_codes:
            frame = frame.f_back.f_back  # a body, called by an operator
        else:
            return frame
    return None


def throw(new):
    """Raises `new` (from `unbound_error`) with the context it was given, as the original's
    error has: the exception being handled where the local was read, if any. Outside an
    `except` block (the operators) that is what `raise` gives, unless the caller is handling
    another exception; inside one (`unbound_locals.__exit__`) `raise` would chain the
    `NameError`. Either way the context is put back by raising `new` while handling it."""
    context = new.__context__
    handled = sys.exc_info()[1]
    if handled is None or handled is context:
        raise new
    if context is None:
        raise new from None
    saved = context.__context__, context.__traceback__
    try:
        raise context
    except BaseException:
        try:
            raise new  # noqa: B904 - chained to `context` on purpose
        finally:
            context.__context__, context.__traceback__ = saved


def _message(name):
    global _template
    if _template is None:
        try:
            _probe()
        except UnboundLocalError as e:
            _template = str(e).replace("'autoconv_probe'", "{!r}")
    return _template.format(name)


def _probe():
    autoconv_probe  # noqa: B018, F821 - raises the error whose wording we need
    autoconv_probe = 0  # noqa: F841


class unbound_locals:
    """`with ac.unbound_locals('x', 'y') as guard: ...` then `guard.check()`, around a `try` or
    `with` body inside converted control flow, where `x` or `y` may be unbound: reading one there
    raises `UnboundLocalError`, as in the original function, before the statement's own `except`
    or `__exit__` sees the error. `__exit__` only keeps the error: `check` raises it outside the
    `except` machinery, so that its context is the original's (not the `NameError`)."""

    __slots__ = ("names", "error")

    def __init__(self, *names):
        self.names = names
        self.error = None

    def __enter__(self):
        return self

    def __exit__(self, kind, error, tb):
        # Only a read in this very body (not in code it calls) of one of these locals.
        if kind is NameError and error.name in self.names and tb is not None and tb.tb_next is None:
            new = UnboundLocalError(_message(error.name))
            new.name = error.name
            new.__context__ = error.__context__
            self.error = new.with_traceback(tb)
            return True
        return False

    def check(self) -> None:
        """Raises the error `__exit__` kept, if any."""
        if self.error is not None:
            error, self.error = self.error, None
            throw(error)


def register(*functions) -> None:
    operator_codes.update(f.__code__ for f in functions)
