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


def unbound_error(error):
    """The `UnboundLocalError` the unconverted function would raise instead of `error`, or None
    when `error` is not about one of its locals (it is then re-raised as it is)."""
    if type(error) is not NameError or error.name is None:
        return None
    tb = error.__traceback__  # the operator's frame, then the body's
    body = tb.tb_next
    if body is None or body.tb_next is not None:
        return None  # raised deeper, by code the user wrote that way
    # Walk out through bodies to the converted function that owns the locals.
    caller = tb.tb_frame.f_back
    while (
        caller is not None
        and caller.f_back is not None
        and (caller.f_back.f_code in operator_codes)
    ):
        caller = caller.f_back.f_back
    if caller is None or error.name not in caller.f_code.co_cellvars:
        return None
    new = UnboundLocalError(_message(error.name))
    new.name = error.name if hasattr(new, "name") else None
    return new.with_traceback(body)


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
    """`with ac.unbound_locals('x', 'y'):` around a `try` or `with` body inside converted control
    flow, where `x` or `y` may be unbound: reading one there raises `UnboundLocalError`, as in
    the original function, before the statement's own `except` or `__exit__` sees the error."""

    __slots__ = ("names",)

    def __init__(self, *names):
        self.names = names

    def __enter__(self):
        return None

    def __exit__(self, kind, error, tb):
        # Only a read in this very body (not in code it calls) of one of these locals.
        if kind is NameError and error.name in self.names and tb is not None and tb.tb_next is None:
            new = UnboundLocalError(_message(error.name))
            new.name = error.name
            raise new.with_traceback(tb) from None
        return False


def register(*functions) -> None:
    operator_codes.update(f.__code__ for f in functions)


del sys
