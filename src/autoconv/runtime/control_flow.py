"""`if`, `for` and `while` as functions.

On Python values each runs the statement exactly as Python would, calling the body closures the
converter generated; the state closures are not touched. When the condition or the iterable is
symbolic (its type is in `staging.STAGED_TYPES`), the registered graph backend stages the
statement instead. Keep these lean: they run once per `if` and once per loop in Python mode.
"""

from autoconv.runtime import staging

_STAGED = staging.STAGED_TYPES


def if_stmt(cond, body, orelse=None, get_state=None, set_state=None, names=()):
    """Runs `body()` if `cond` is true, else `orelse()` (either may be None)."""
    if type(cond) in _STAGED:
        return staging.backend.if_stmt(cond, body, orelse, get_state, set_state, names)
    if cond:
        if body is not None:
            body()
    elif orelse is not None:
        orelse()


def for_stmt(iterable, body, get_state=None, set_state=None, names=()):
    """Calls `body(item)` for each item of `iterable`; stops early when the body returns true."""
    if type(iterable) in _STAGED:
        return staging.backend.for_stmt(iterable, body, get_state, set_state, names)
    for item in iterable:
        if body(item):
            break


def while_stmt(test, body, get_state=None, set_state=None, names=()):
    """Calls `body()` while `test()` is true; stops early when the body returns true."""
    cond = test()
    if type(cond) in _STAGED:
        return staging.backend.while_stmt(test, body, get_state, set_state, names, cond)
    while cond:
        if body():
            break
        cond = test()
