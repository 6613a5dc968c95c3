"""Failure points of a staged `try` (converters.staged_try, runtime.tries) for the Tensor tracer.

An operation that would raise when the graph runs (`1.0 / v` with a run-time zero,
`math.sqrt(v)` of a run-time negative number), inside a statement of a `try` body whose
`except` catches its error, records a failure point instead: a run-time flag, and the error
eager code raises. The operation then runs on a harmless operand where the flag is set, and the
converted `try` takes the handler there.
"""

from __future__ import annotations

import operator
from typing import NamedTuple

import numpy as np

from autoconv.graph import math_domains
from autoconv.graph.errors import StagingError, where
from autoconv.graph.origin import user_origin
from autoconv.graph.scopes import _SCOPES
from autoconv.graph.tensor import Tensor
from autoconv.runtime import tries
from autoconv.trace.core.optional import Optional
from autoconv.trace.tensors.user_code import refuse_if_handled


def _block():
    stack = _SCOPES.stack
    return stack[-1].block if stack else None


def _combine(caught, pending):
    """`caught` after the failure points of one statement, in program order: the first that
    fails gives its clause."""
    for flag, k, block, count, origin in pending:
        for node in block.nodes[count:]:
            if node.effect:
                raise StagingError(
                    f"{where(origin)}: this statement may raise an error that the `try` around "
                    "it handles when the graph runs, and does more afterwards (prints, checks) "
                    "that eager code would skip then; a graph cannot undo it. Compute the value "
                    "that may fail in a statement of its own, before the rest."
                )
        caught = caught + (caught == 0) * flag * k
    return caught


def _changed(pending):
    """`runtime.tries.try_poll`'s error: a function the statement called went on, after the
    point where it raises, to change an object the `try` sees."""
    origin = pending[0][4]
    raise StagingError(
        f"{where(origin)}: this may raise an error that a `try` around the call handles when "
        "the graph runs, and the function goes on to change objects after it (attributes, "
        "lists, dicts: `self.balance -= amount`) that eager code would leave as they were; a "
        "graph cannot take those changes back. Test the condition where the `try` is (`if a "
        "> acct.balance: failed += 1` / `else: acct.withdraw(a)`), or have the function "
        "return a flag instead of raising."
    )


def _settle(value):
    """A name's value after a staged `try` that binds it on every path (runtime.tries)."""
    if isinstance(value, Optional) and value.missing is not None:
        return value.value  # unbound only where the `caught` tests exclude each other
    return value


tries.BLOCK[0] = _block
tries.COMBINE[0] = _combine
tries.SETTLE[0] = _settle
tries.CHANGED[0] = _changed


def _record(kind, exc, flag) -> bool:
    block = _block()
    scope, k = tries.accepting(kind, block)
    if scope is None:
        return False
    scope.pending.append((flag, k, block, len(block.nodes), user_origin(3)))
    scope.caught.setdefault(k, []).append(exc)
    return True


def failure_point(kind, exc, flag) -> bool:
    """Where a staged `try` handles `kind` here: records the failure point `flag` (a bool
    Tensor, true where `exc` is raised when the graph runs) and gives True; else False."""
    return _record(kind, exc, flag)


_DIVISIONS = {"/": operator.truediv, "//": operator.floordiv, "%": operator.mod}


def divisor(symbol: str, a, b):
    """`b` for `a <symbol> b` of Python numbers: where a `try` handles ZeroDivisionError here,
    a failure point where `b` is 0 and a divisor that cannot fail; else `b` (refused where the
    user's `try` handles it, but none can stage it)."""
    block = _block()
    scope, _ = tries.accepting(ZeroDivisionError, block)
    if scope is None:
        refuse_if_handled((ZeroDivisionError,), f"`{symbol}` of Python numbers")
        return b
    try:  # the message eager code gives, from numbers of the operands' kinds
        _DIVISIONS[symbol](_number(a), _zero(b))
        exc = ZeroDivisionError("division by zero")
    except ZeroDivisionError as e:
        exc = e.with_traceback(None)
    flag = b == 0
    _record(ZeroDivisionError, exc, flag)
    return b + flag


def power_base(a, b):
    """`a` for `a ** b` of Python numbers: where a `try` handles ZeroDivisionError here, a
    failure point where `a` is 0 and `b` negative, and a base that cannot fail; else `a`."""
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        return a
    if not isinstance(a, Tensor) and a != 0 or not isinstance(b, Tensor) and not b < 0:
        return a  # cannot fail
    scope, _ = tries.accepting(ZeroDivisionError, _block())
    if scope is None:
        refuse_if_handled((ZeroDivisionError,), "`**` of Python numbers")
        return a
    try:  # the message eager code gives, from numbers of the operands' kinds
        operator.pow(_zero(a) if isinstance(a, Tensor) else a, _number(b) * -1)
        exc = ZeroDivisionError("0.0 cannot be raised to a negative power")
    except ZeroDivisionError as e:
        exc = e.with_traceback(None)
    # Python bools, as `b == 0` of `divisor`: `a + flag` keeps the Python number's type.
    flag = (a == 0) if not isinstance(b, Tensor) else (b < 0)
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        flag = (a == 0) & flag
    _record(ZeroDivisionError, exc, flag)
    return a + flag


def math_args(func, args) -> tuple:
    """`args` for `func(*args)` of run-time numbers: a `math` function that raises for some
    arguments (`math.sqrt(v)`, `math.log(v)`, `math.exp(v)`: graph/math_domains.py), inside a
    `try` that handles its error, gets a failure point and an argument that cannot fail; other
    functions are refused where the user's `try` would handle their error."""
    found = math_domains.domain(func, args)
    if found is None or not isinstance(args[0], Tensor):
        refuse_if_handled((ValueError, OverflowError), f"math.{func.__name__}()")
        return args
    scope, _ = tries.accepting(found.kind, _block())
    if scope is None:
        refuse_if_handled((found.kind,), f"math.{func.__name__}()")
        return args
    (x,) = args
    flag = found.fails(x)
    _record(found.kind, math_domains.error(func, found.bad), flag)
    return (x + flag * (found.safe - x),)


def _number(x):
    if isinstance(x, Tensor):
        return 1 if x.dtype.kind in "iub" else 1.0
    return x


def _zero(x):
    return 0 if x.dtype.kind in "iub" else 0.0


class HandledRaise(NamedTuple):
    """What `_trace_branch` gives for the user's `raise` (in a function the `try` body calls)
    that a staged `try` handles: the branch raises, and the `if` records the failure point."""

    scope: object
    clause: int


def handled_raise(e):
    """A `HandledRaise` when a staged `try` handles `e`, raised in a branch of a staged `if`
    that runs in the block of a statement of its body; else None."""
    stack = _SCOPES.stack
    if len(stack) < 2:
        return None
    scope, k = tries.accepting(type(e), stack[-2].block)
    if scope is None:
        return None
    scope.caught.setdefault(k, []).append(e.with_traceback(None))
    return HandledRaise(scope, k)


def handled_assert(exc, fails, origin) -> bool:
    """Whether a staged `try` handles the `AssertionError` of an `assert` in a statement of its
    body (`fails`: where the test is false when the graph runs); it is then a failure point,
    as a branch that raises is (`branches_raised`)."""
    block = _block()
    scope, k = tries.accepting(type(exc), block)
    if scope is None:
        return False
    scope.caught.setdefault(k, []).append(exc)
    scope.pending.append((fails, k, block, len(block.nodes), origin))
    return True


def branches_raised(cond, raised, origin) -> None:
    """After a staged `if` whose branches were traced: the failure points of the branches that
    raise an error a staged `try` handles (`raised`: what `_trace_branch` gave for each)."""
    if not any(type(r) is HandledRaise for r in raised):
        return
    if all(raised):
        raise StagingError(
            f"{where(origin)}: every path of this `if` raises, under a condition known only "
            "when the graph runs, and a `try` around it handles some of the errors: a graph "
            "cannot follow that. Raise on one path only, or test the condition in Python."
        )
    block = _block()
    for k, r in enumerate(raised):
        if type(r) is HandledRaise:
            flag = cond if k == 0 else np.logical_not(cond)
            r.scope.pending.append((flag, r.clause, block, len(block.nodes), origin))


def int_operand(value):
    """`value` for `int(value)` of a run-time float: where a `try` handles the ValueError of
    a NaN or the OverflowError of an infinity, a failure point and a float that converts."""
    block = _block()
    cases = []
    for kind, exc, test in (
        (ValueError, ValueError("cannot convert float NaN to integer"), _is_nan),
        (OverflowError, OverflowError("cannot convert float infinity to integer"), _is_inf),
    ):
        scope = tries.accepting(kind, block)[0]
        if scope is not None:
            flag = test(value)
            _record(kind, exc, flag)
            cases.append((flag, scope.pending[-1]))
    for flag, _ in cases:
        value = np.where(flag, 0.0, value)
    return value, [entry for _, entry in cases]


def past(entries) -> None:
    """The failure points `entries` are those of the operation just recorded: its own check of
    the cases no `try` handles is not something done after them."""
    count = len(_block().nodes)
    for scope in tries.scopes():
        scope.pending = [
            (*e[:3], count, e[4]) if any(e is x for x in entries) else e for e in scope.pending
        ]


def _is_nan(v):
    return np.isnan(v)


def _is_inf(v):
    return np.isinf(v)


def index_key(key, size):
    """`key` for `x[key]` of a run-time integer along an axis of `size` items: where a `try`
    handles the IndexError, a failure point and an index in range."""
    if not size or tries.accepting(IndexError, _block())[0] is None:
        return key
    flag = np.logical_or(key < -size, key >= size)
    _record(IndexError, None, flag)  # eager's message names the run-time index
    return np.where(flag, 0, key)
