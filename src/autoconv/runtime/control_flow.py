"""`if`, `for` and `while` as functions.

On Python values each runs the statement exactly as Python would, calling the body closures the
converter generated; the state closures are not touched. When the condition or the iterable is
symbolic (its type is in `staging.STAGED_TYPES`), the registered graph backend stages the
statement instead. Keep these lean: they run once per `if` and once per loop in Python mode.
"""

from autoconv.runtime import staging
from autoconv.runtime.unbound import register, unbound_error

_STAGED = staging.STAGED_TYPES


def if_stmt(cond, body, orelse=None, get_state=None, set_state=None, names=()):
    """Runs `body()` if `cond` is true, else `orelse()` (either may be None)."""
    # `is True`/`is False` first: comparisons give bools, and two identity tests are cheaper
    # than a type lookup on the hot path.
    if cond is not True and cond is not False and type(cond) in _STAGED:
        return staging.backend.if_stmt(cond, body, orelse, get_state, set_state, names)
    try:
        if cond:
            if body is not None:
                body()
        elif orelse is not None:
            orelse()
    except NameError as e:
        new = unbound_error(e)
        if new is None:
            raise
        raise new from None


def for_stmt(iterable, body, get_state=None, set_state=None, names=()):
    """Calls `body(item)` for each item of `iterable`; stops early when the body returns true."""
    if type(iterable) in _STAGED:
        return staging.backend.for_stmt(iterable, body, get_state, set_state, names)
    try:
        for item in iterable:
            if body(item):
                break
    except NameError as e:
        new = unbound_error(e)
        if new is None:
            raise
        raise new from None


def while_stmt(test, body, get_state=None, set_state=None, names=()):
    """Calls `body()` while `test()` is true; stops early when the body returns true."""
    try:
        cond = test()
        if cond is not True and cond is not False and type(cond) in _STAGED:
            return staging.backend.while_stmt(test, body, get_state, set_state, names, cond)
        while cond:
            if body():
                break
            cond = test()
    except NameError as e:
        new = unbound_error(e)
        if new is None:
            raise
        raise new from None


register(if_stmt, for_stmt, while_stmt)
