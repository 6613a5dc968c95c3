"""`if`, `for` and `while` as functions.

On Python values each runs the statement exactly as Python would, calling the body closures the
converter generated; the state closures are not touched. When the condition or the iterable is
symbolic (its type is in `staging.STAGED_TYPES`), the registered graph backend stages the
statement instead. Keep these lean: they run once per `if` and once per loop in Python mode.
"""

from autoconv.runtime import staging
from autoconv.runtime.logical import not_
from autoconv.runtime.unbound import register, throw, unbound_error

_STAGED = staging.STAGED_TYPES
_len = len  # bound now: code under test may replace `builtins.len` (with converted code, even)
_symbolic = staging.symbolic
_traces = staging.traces
_jax_value = staging.jax_value
_jax = staging.jax_ops


def if_stmt(cond, body, orelse=None, get_state=None, set_state=None, names=()):
    """Runs `body()` if `cond` is true, else `orelse()` (either may be None).

    For `elif` branches, `orelse` is a tuple `(test, body, test, body, ..., else_body)` (the
    last item only when there is an `else`): the tests run one after the other, as Python runs
    them, in a loop, so that neither the converted source nor the stack grows with the number
    of branches."""
    # `is True`/`is False` first: comparisons give bools, and two identity tests are cheaper
    # than a type lookup on the hot path.
    if cond is not True and cond is not False:
        if _symbolic(cond):
            if type(orelse) is tuple:
                orelse = ElifChain(orelse, get_state, set_state, names)
            return staging.backend.if_stmt(cond, body, orelse, get_state, set_state, names)
        if _jax_value(cond):
            if type(orelse) is tuple:
                orelse = ElifChain(orelse, get_state, set_state, names)
            return _jax().if_stmt(cond, body, orelse, get_state, set_state, names)
    try:
        if cond:
            if body is not None:
                body()
        elif orelse is not None:
            if type(orelse) is not tuple:
                orelse()
                return
            i, n = 0, _len(orelse) - 1
            while i < n:
                cond = orelse[i]()
                staged = None if cond is True or cond is False else _staged_if(cond)
                if staged is not None:
                    # The rest of the chain is the `else` of a staged `if`.
                    rest = orelse[i + 2 :]
                    rest = ElifChain(rest, get_state, set_state, names) if rest else None
                    return staged(cond, orelse[i + 1], rest, get_state, set_state, names)
                if cond:
                    if orelse[i + 1] is not None:
                        orelse[i + 1]()
                    return
                i += 2
            if i == n:
                orelse[n]()  # the `else`
        return
    except NameError as e:
        new = unbound_error(e, body, *(orelse if type(orelse) is tuple else (orelse,)))
        if new is None:
            raise
    throw(new)  # out of the `except` block, which would chain the `NameError`


def _staged_if(cond):
    """The backend's `if_stmt` for a symbolic or JAX condition, else None."""
    if _symbolic(cond):
        return staging.backend.if_stmt
    if _jax_value(cond):
        return _jax().if_stmt
    return None


class ElifChain:
    """The rest of an `elif` chain (the tuple `if_stmt` takes as `orelse`), as the `else` of an
    `if` whose test is symbolic: calling it runs the chain on. The graph backend reads
    `functions()` to see what the branches may change."""

    __slots__ = ("chain", "state")

    def __init__(self, chain, get_state, set_state, names):
        self.chain, self.state = chain, (get_state, set_state, names)

    def functions(self) -> tuple:
        return tuple(f for f in self.chain if f is not None)

    def __call__(self):
        chain = self.chain
        if _len(chain) == 1:
            return chain[0]()  # the `else`
        rest = chain[2:] or None
        return if_stmt(chain[0](), chain[1], rest, *self.state)


def for_stmt(iterable, body, get_state=None, set_state=None, names=()):
    """Calls `body(item)` for each item of `iterable`; stops early when the body returns true.

    A Python loop whose body returns a symbolic stop (a `break` or `return` under a Tensor
    condition) hands the rest of its iterations to the backend, staged from the current state.
    """
    if type(iterable) in _STAGED:
        return staging.backend.for_stmt(iterable, body, get_state, set_state, names)
    if _jax_value(iterable):
        return _jax().for_stmt(iterable, body, get_state, set_state, names)
    try:
        items = iter(iterable)
        for item in items:
            stop = body(item)
            if stop is None or stop is False:
                continue
            if stop is not True and type(stop) in _STAGED:
                return staging.backend.for_rest(
                    stop, iterable, items, item, body, get_state, set_state, names
                )
            if stop is not True and _jax_value(stop):
                return _jax().for_rest(
                    stop, iterable, items, item, body, get_state, set_state, names
                )
            if stop:
                break
        return
    except BaseException as e:
        # Python drops the iterator as the loop is left, before any handler of the caller
        # runs (closing a generator nothing else holds): so does this frame, which the
        # traceback keeps alive.
        iterable = items = item = None  # noqa: F841
        new = unbound_error(e, body) if isinstance(e, NameError) else None
        if new is None:
            raise
    throw(new)


def while_stmt(test, body, get_state=None, set_state=None, names=()):
    """Calls `body()` while `test()` is true; stops early when the body returns true.

    When the test, or the body's stop, turns symbolic after some Python iterations, the rest of
    the loop is staged by the backend from the current state.
    """
    try:
        mark = staging.backend.mark() if _traces else None
        cond = test()
        while True:
            if cond is not True and cond is not False:
                if _symbolic(cond):
                    return staging.backend.while_stmt(
                        test, body, get_state, set_state, names, cond, mark
                    )
                if _jax_value(cond):
                    return _jax().while_stmt(test, body, get_state, set_state, names, cond)
            if not cond:
                break
            stop = body()
            if stop is not None and stop is not False:
                if stop is not True and type(stop) in _STAGED:
                    return staging.backend.while_rest(stop, test, body, get_state, set_state, names)
                if stop is not True and _jax_value(stop):
                    return _jax().while_rest(stop, test, body, get_state, set_state, names)
                if stop:
                    break
            if _traces:
                mark = staging.backend.mark()
            cond = test()
        return
    except NameError as e:
        new = unbound_error(e, test, body)
        if new is None:
            raise
    throw(new)


def is_none(value):
    """`value is None`; for a symbolic value that is None on some paths only, a staged test."""
    if type(value) in _STAGED:
        return staging.backend.is_none(value)
    if _jax_value(value):  # a tracer, or a value None on some paths only
        return _jax().is_none(value)
    return value is None


def is_not_none(value):
    """`value is not None` (see `is_none`)."""
    if type(value) in _STAGED:
        return not_(staging.backend.is_none(value))
    if _jax_value(value):
        return not_(_jax().is_none(value))
    return value is not None


def assert_(test, message=None):
    """`assert test, message()`; a symbolic test becomes a check that runs with the graph."""
    if test is not True and test is not False:
        if type(test) in _STAGED:
            return staging.backend.assert_(test, message)
        if _jax_value(test):
            return _jax().assert_(test, message)
    if not test:
        raise AssertionError() if message is None else AssertionError(message())


register(if_stmt, for_stmt, while_stmt)
