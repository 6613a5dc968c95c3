"""A `try` whose handler may catch an error staged for run time (converters.staged_try).

Converted code keeps the user's `try` for errors raised while it runs in Python; errors a graph
raises only when it runs (a `raise` under a staged condition, `1.0 / v` of a run-time number)
become a run-time number instead, `caught` (0: none, k: the k-th `except` clause), which the
rest of the body and the handlers test. In Python every operator here is a cheap no-op.

The tracer fills in the hooks: `BLOCK()` (the block receiving operations, None when not
tracing) and `COMBINE(caught, pending)` (the new `caught` from the failure points a statement
recorded, as `(flag, clause)` pairs in program order) and `SETTLE(value)` (see `try_settle`).
"""

import sys
import threading

from autoconv.runtime import keyed

BLOCK = [lambda: None]
REACHABLE = [lambda exc: True]  # the tracer's: can the handler show `exc`'s run-time text?
COMBINE = [None]
SETTLE = [lambda value: value]


class _Stack(threading.local):
    def __init__(self):
        self.scopes: list = []


_STACK = _Stack()


class TryScope:
    """One running `try` of converted code: its clauses' types (read when first needed), where
    it began, the statement of its body being run (`mark`: the block it runs in, or None) and
    the failure points that statement recorded."""

    __slots__ = ("kinds", "types", "home", "mark", "pending", "caught", "origin", "state")

    def __init__(self, kinds, origin):
        self.kinds = kinds
        self.types = None
        self.home = BLOCK[0]()
        self.mark = None
        self.pending: list = []
        self.caught: dict = {}  # clause -> the exceptions recorded for it
        self.origin = origin
        self.state = None  # what the statement's objects held when it began (`_state`)

    def clause_for(self, kind) -> int:
        """1 + the index of the first clause that catches `kind` (as Python tests it), or 0."""
        if self.types is None:
            self.types = tuple(self.kinds())
        for k, types in enumerate(self.types, 1):
            try:
                if issubclass(kind, types):
                    return k
            except TypeError:
                return 0
        return 0


def try_begin(kinds) -> TryScope:
    """Opens the scope of a `try`; `kinds()` gives each clause's type (or tuple of types)."""
    frame = sys._getframe(1)
    scope = TryScope(kinds, (frame.f_code.co_filename, frame.f_lineno))
    _STACK.scopes.append(scope)
    return scope


def try_end(scope: TryScope) -> None:
    """Closes `scope` (from its handlers, `else` and `finally`: any may run first)."""
    scopes = _STACK.scopes
    if scope in scopes:
        del scopes[scopes.index(scope) :]
    scope.mark = None


def try_mark(scope: TryScope) -> None:
    """A statement of the body starts: failure points in its block are the scope's to stage."""
    scope.mark = BLOCK[0]()
    scope.pending = []
    if scope.mark is not None:
        scope.state = _state(sys._getframe(1).f_locals)


def try_poll(scope: TryScope, caught):
    """`caught` after the statement that `try_mark` opened."""
    scope.mark = None
    if not scope.pending:
        return caught
    pending, scope.pending = scope.pending, []
    if scope.state is not None and _state(sys._getframe(1).f_locals) != scope.state:
        # A function the statement called raised (a failure point in its code) and went on to
        # change an object the `try` sees (`self.balance -= amount` after the `raise`): eager
        # code never ran those lines, and the graph cannot take them back.
        CHANGED[0](pending)
    return COMBINE[0](caught, pending)


CHANGED = [None]  # the tracer's error for `try_poll`'s changed objects (trace.staged_try)


def _state(names: dict) -> list:
    """What the objects that local `names` hold refer to: each user object's attributes, and
    the items of the lists and dicts among them (by identity), one level down."""
    seen = []
    for value in names.values():
        attrs = getattr(value, "__dict__", None)
        if type(attrs) is not dict or isinstance(value, type) or callable(value):
            continue
        for name, held in attrs.items():
            seen.append((id(value), name, id(held)))
            if type(held) is list:
                seen.append((id(held), tuple(map(id, held))))
            elif type(held) is dict:
                seen.append((id(held), tuple(map(id, held.values()))))
            shadow = keyed.active(held)  # a dict or set holding keys known only at run time
            if shadow is not None:
                for lst in (shadow.keys, shadow.values or ()):
                    seen.append((id(lst), tuple(map(id, lst))))
    return seen


def try_raise(scope: TryScope, exc):
    """The clause that stages the user's `raise exc` (0: Python raises it now). Staged when a
    condition known only when the graph runs leads to it: in a block other than the `try`'s."""
    block = BLOCK[0]()
    if block is not None and isinstance(exc, type) and issubclass(exc, BaseException):
        try:  # `raise ValueError` raises `ValueError()`, as Python does
            exc = exc()
        except Exception:
            return 0  # Python's own error from the class: raised by `raise exc` as eagerly
    if block is None or block is scope.home or not isinstance(exc, BaseException):
        return 0
    k = scope.clause_for(type(exc))
    if k:
        scope.caught.setdefault(k, []).append(exc)
    return k


def try_settle(*values):
    """The values of names that the body (with `else`) and every handler bind: bound after the
    `try` on every path, although each was bound under a staged condition of its own."""
    settle = SETTLE[0]
    out = tuple(settle(v) for v in values)
    return out[0] if len(out) == 1 else out


def try_which(scope: TryScope, caught, k: int):
    """Whether clause `k` handles `caught`: False when nothing staged reaches it."""
    if k not in scope.caught:
        return False
    return caught == k


def try_exception(scope: TryScope, k: int):
    """The exception that clause `k` binds with `as`: the one recorded for it."""
    found = scope.caught.get(k) or [None]
    first = found[0]
    for other in found:
        if _made_when_run(other) and not REACHABLE[0](other):
            from autoconv.errors import StagingError

            raise StagingError(
                f"{scope.origin[0]}:{scope.origin[1]}: the `except ... as` name of this `try` "
                f"would be a {type(other).__name__} whose message holds values known only when the "
                "graph runs, made under the condition that raises it (an f-string of them): a "
                "graph cannot carry them to the handler. "
                'Use the name only where its message is fixed (`raise ValueError("negative '
                'reading")`), or return the values that describe the error instead.'
            )
        if other is None or type(other) is not type(first) or str(other) != str(first):
            from autoconv.errors import StagingError

            raise StagingError(
                f"{scope.origin[0]}:{scope.origin[1]}: the `except ... as` name of this `try` "
                "would be one of several exceptions "
                f"({_shown(first)}; {_shown(other)}), known only when the graph runs. Use the "
                "name only where one error can reach it, or handle each case with its own "
                "`except` clause.",
            )
    return first


def _made_when_run(exc) -> bool:
    """Whether `exc`'s message stands for text made when the graph runs (the printing
    module's markers of a traced value)."""
    try:
        return exc is not None and any("\ue000" in str(a) for a in exc.args)
    except Exception:
        return False


def scopes() -> list:
    """The open scopes, innermost last."""
    return _STACK.scopes


def _shown(exc) -> str:
    if exc is None:
        return "an IndexError whose message names the run-time index"
    return f"{type(exc).__name__}: {exc}"


def accepting(kind, block):
    """The scope that stages an error of type `kind` raised in `block` while a statement of
    its body runs, and its clause; (None, 0) when none does (the innermost `try` whose clause
    catches `kind` decides, as in Python)."""
    for scope in reversed(_STACK.scopes):
        k = scope.clause_for(kind)
        if k:
            if scope.mark is not None and scope.mark is block:
                return scope, k
            return None, 0
    return None, 0


def suppressed(manager, *kinds) -> tuple:
    """The exception types a `with suppress(*kinds):` block (converters.suppress, now a `try`)
    catches; `manager` must be contextlib's `suppress`, which the block was read as."""
    import contextlib

    if manager is not contextlib.suppress:
        from autoconv.errors import ConversionError

        raise ConversionError(
            f"autoconv reads `with suppress(...)` as `contextlib.suppress`, but `suppress` is "
            f"{manager!r} here: name your own function otherwise, or call it before the `with`."
        )
    return kinds
