"""`if`, `for` and `while` as functions.

On Python values each runs the statement exactly as Python would, calling the body closures the
converter generated; the state closures are not touched. When a tracer claims the condition or
the iterable (`staging.tracer_for`), that tracer stages the statement instead. Keep these lean:
they run once per `if` and once per loop in Python mode.
"""

from autoconv.runtime import keyed, objects, pure_steps, staging
from autoconv.runtime.logical import not_
from autoconv.runtime.unbound import past_operators, register, throw, unbound_error

_len = len  # bound now: code under test may replace `builtins.len` (with converted code, even)
_TRACERS = staging.TRACERS
_tracer_for = staging.tracer_for
_traces = staging.traces


def if_stmt(cond, body, orelse=None, get_state=None, set_state=None, names=()):
    """Runs `body()` if `cond` is true, else `orelse()` (either may be None).

    For `elif` branches, `orelse` is a tuple `(test, body, test, body, ..., else_body)` (the
    last item only when there is an `else`): the tests run one after the other, as Python runs
    them, in a loop, so that neither the converted source nor the stack grows with the number
    of branches."""
    # `is True`/`is False` first: comparisons give bools, and two identity tests are cheaper
    # than a type lookup on the hot path.
    if cond is not True and cond is not False:
        if _traces and type(cond) in keyed.KINDS:
            cond = keyed.view(cond)  # holding keys known only when the graph runs: their list
        else:
            cond = objects.tested(cond)  # a user's object: its `__bool__`, converted
        tracer = _tracer_for(cond)
        if tracer is not None:
            if type(orelse) is tuple:
                orelse = ElifChain(orelse, get_state, set_state, names)
            return tracer.if_stmt(cond, body, orelse, get_state, set_state, names)
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
                if _traces and type(cond) in keyed.KINDS:
                    cond = keyed.view(cond)
                tracer = None if cond is True or cond is False else _tracer_for(cond)
                if tracer is not None:
                    # The rest of the chain is the `else` of a staged `if`.
                    rest = orelse[i + 2 :]
                    rest = ElifChain(rest, get_state, set_state, names) if rest else None
                    return tracer.if_stmt(cond, orelse[i + 1], rest, get_state, set_state, names)
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
            past_operators(e)
            raise
    except BaseException as e:
        past_operators(e)
        raise
    throw(new)  # out of the `except` block, which would chain the `NameError`


class ElifChain:
    """The rest of an `elif` chain (the tuple `if_stmt` takes as `orelse`), as the `else` of an
    `if` whose test is symbolic: calling it runs the chain on. The Tensor tracer reads
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

    A Python loop whose body returns a symbolic stop (a `break` or `return` under a symbolic
    condition) hands the rest of its iterations to the stop's tracer, staged from the current
    state.
    """
    if _traces and type(iterable) in keyed.KINDS:
        iterable = keyed.view(iterable, ordered=True)  # keys known only when the graph runs
    tracer = _TRACERS[type(iterable)]
    if tracer is None and _traces and type(iterable) is list:
        tracer = staging.tracer_for(iterable)  # a list a staged loop appended to
    if tracer is not None:
        return tracer.for_stmt(iterable, body, get_state, set_state, names)
    # While a graph is traced, the loop is unrolled: its tracer notes where each iteration
    # begins (for the `roll` pass).
    steps = _python_loop() if _traces else None
    settling = resume = None
    if steps is not None and type(iterable) is range and names:
        settling = _settling(iterable, body, get_state, set_state, names)
    try:
        items = iter(iterable)
        for item in items:
            if steps is not None:
                if resume is not None and item >= resume:  # (a range's int: see below)
                    settling = _settling(iterable, body, get_state, set_state, names)
                    resume = None
                steps.step()
            stop = body(item)
            if settling is not None and stop is not True:
                # A step that may stop the loop (a symbolic stop) is undone and staged with the
                # rest: the staged loop stops where it would.
                undone = stop is not None and stop is not False
                rest = range(item + (0 if undone else iterable.step), iterable.stop, iterable.step)
                if settling.settled() and _len(rest) >= pure_steps.MIN_LEFT:
                    # The step left the state as it found it: the rest is staged as one loop,
                    # the loop the `roll` pass would make of their copies.
                    if undone:
                        steps.starts.pop()
                    roll = staging.graph_tracer.roll_rest
                    done = roll(
                        rest,
                        body,
                        *settling.state,
                        settling.start if undone else settling.undo,
                        settling.aliases,
                        settling.subscripts,
                        steps,
                    )
                    if done is True:
                        return
                    # It could not be staged (from here): unrolled on.
                    settling, steps, resume = None, _python_loop(), done
                    if undone:
                        steps.step()
                        stop = body(item)
                elif not settling.tries or _len(rest) < pure_steps.MIN_LEFT:
                    settling = None
            if stop is None or stop is False:
                continue
            if stop is not True:
                tracer = _TRACERS[type(stop)]
                if tracer is not None:
                    steps = None  # the rest is staged: no hint
                    return tracer.for_rest(
                        stop, iterable, items, item, body, get_state, set_state, names
                    )
            if stop:
                break
        if steps is not None:
            steps.end()
        return
    except BaseException as e:
        # Python drops the iterator as the loop is left, before any handler of the caller
        # runs (closing a generator nothing else holds): so does this frame, which the
        # traceback keeps alive.
        iterable = items = item = None  # noqa: F841
        new = unbound_error(e, body) if isinstance(e, NameError) else None
        if new is None:
            past_operators(e)
            raise
    throw(new)


def _settling(iterable, body, get_state, set_state, names):
    """A watch on the state of a loop over a Python range whose rest may be staged once the
    state settles (`pure_steps`), or None."""
    if _len(iterable) < pure_steps.MIN_LEFT + 1 or not staging.graph_tracer.rolls():
        return None
    written = pure_steps.stageable(body)
    if written is None or get_state is None or get_state.__closure__ is None:
        return None
    mark = staging.graph_tracer.mark
    return pure_steps.Settling(get_state, set_state, names, written, mark)


def _python_loop():
    """The graph tracer's record of a Python loop's iterations (None if it keeps none)."""
    record = getattr(staging.graph_tracer, "python_loop", None)
    return record() if record is not None else None


def while_stmt(test, body, get_state=None, set_state=None, names=()):
    """Calls `body()` while `test()` is true; stops early when the body returns true.

    When the test, or the body's stop, turns symbolic after some Python iterations, the rest of
    the loop is staged by its tracer from the current state. While a graph is being built, the
    graph's tracer (`staging.graph_tracer`) marks where the graph stands before each test, so
    that the tracer staging the loop can drop what the test recorded since.
    """
    try:
        mark = staging.graph_tracer.mark() if _traces else None
        cond = test()
        if cond is not True and cond is not False and objects.tested(cond) is not cond:
            # `while st:` of a user's object: its `__bool__` (converted) is the test.
            test = objects.testing(test)
            cond = test()
        while True:
            if cond is not True and cond is not False:
                tracer = _tracer_for(cond)
                if tracer is not None:
                    return tracer.while_stmt(test, body, get_state, set_state, names, cond, mark)
            if not cond:
                break
            stop = body()
            if stop is not None and stop is not False:
                if stop is not True:
                    tracer = _TRACERS[type(stop)]
                    if tracer is not None:
                        return tracer.while_rest(stop, test, body, get_state, set_state, names)
                if stop:
                    break
            if _traces:
                mark = staging.graph_tracer.mark()
            cond = test()
        return
    except NameError as e:
        new = unbound_error(e, test, body)
        if new is None:
            past_operators(e)
            raise
    except BaseException as e:
        past_operators(e)
        raise
    throw(new)


def is_none(value):
    """`value is None`; for a symbolic value that is None on some paths only, a staged test."""
    tracer = _TRACERS[type(value)]
    if tracer is not None:  # a symbolic value, or one None on some paths only
        return tracer.is_none(value)
    return value is None


def is_not_none(value):
    """`value is not None` (see `is_none`)."""
    tracer = _TRACERS[type(value)]
    if tracer is not None:
        return not_(tracer.is_none(value))
    return value is not None


def is_(a, b):
    """`a is b`; where either is one of several values by path (trace.tensors.unions, or the
    JAX client's `Choice` and `Maybe`), a staged test."""
    for x, y in ((a, b), (b, a)):
        same = getattr(_TRACERS[type(x)], "is_same", None)
        if same is not None:
            return same(x, y)
    return a is b


def is_not(a, b):
    """`a is not b` (see `is_`)."""
    answer = is_(a, b)
    return not_(answer) if answer is not True and answer is not False else not answer


def assert_(test, message=None):
    """`assert test, message()`; a symbolic test becomes a check that runs with the graph."""
    if test is not True and test is not False:
        tracer = _TRACERS[type(test)]
        if tracer is not None:
            return tracer.assert_(test, message)
    if not test:
        raise AssertionError() if message is None else AssertionError(message())


register(if_stmt, for_stmt, while_stmt)


def handler(exc) -> None:
    """The first statement of a broad `except` in converted code: re-raises an error of tracing
    (a `StagingError` that is of no eager type too), which the user's handler must not hide."""
    if isinstance(exc, Exception) and _of_tracing(type(exc)):
        raise exc


def _of_tracing(kind) -> bool:
    mro = kind.__mro__
    if not any(c.__name__ == "StagingError" and c.__module__ == "autoconv.errors" for c in mro):
        return False
    eager = (Exception, BaseException, object)
    return all(c in eager or c.__module__.startswith("autoconv.") for c in mro)
