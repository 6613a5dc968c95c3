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
            stop = body(item)
            if stop is None or stop is False:
                continue
            if stop is not True and type(stop) in _STAGED:
                raise _symbolic_stop(body, "iterates over a Python iterable")
            if stop:
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
            stop = body()
            if stop is not None and stop is not False:
                if stop is not True and type(stop) in _STAGED:
                    raise _symbolic_stop(body, "has a Python condition")
                if stop:
                    break
            cond = test()
    except NameError as e:
        new = unbound_error(e)
        if new is None:
            raise
        raise new from None


register(if_stmt, for_stmt, while_stmt)


def _symbolic_stop(body, why):
    from autoconv.errors import AutoconvError

    code = body.__code__
    return AutoconvError(
        f"{code.co_filename}:{code.co_firstlineno}: this loop {why}, so it runs as Python and "
        "cannot stop early on a symbolic condition: a `break` or `return` in it depends on a "
        "Tensor. Loop over a Tensor (or `range` of a Tensor) so that the whole loop is staged, "
        "or make the condition a Python value."
    )
