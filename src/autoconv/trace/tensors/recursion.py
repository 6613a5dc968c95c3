"""The error for a trace that recursed without end.

A recursive function whose base case tests a Tensor (`if n <= 0: return 0.0` with a symbolic
`n`) cannot stop while it is traced: both branches of the staged `if` are traced, and the
branch with the recursive call traces another call, and so on until Python's recursion limit.
The `RecursionError` then comes from wherever the stack ran out, deep inside autoconv. The
trace catches it and raises this module's error instead: it names the function that calls
itself, the user's line of the call and of the condition, and says to write a loop.
"""

from __future__ import annotations

import collections
import os
import traceback

from autoconv.graph.errors import StagingError, where
from autoconv.graph.origin import _SKIP

# The modules whose frames run the branches and loop bodies being staged.
_HERE = os.path.dirname(os.path.abspath(__file__))
_STAGING = frozenset(
    os.path.join(_HERE, f"{m}.py") for m in ("tracer", "raising", "loops", "merge")
)


class TracedRecursionError(StagingError, RecursionError):
    """A recursion went past Python's recursion limit while a graph was traced. Also a
    `RecursionError`, so code that handles the eager error handles this one."""


def _user_frames(error: BaseException) -> list:
    """`(code, (filename, line), staged)` of the user's frames in `error`'s traceback, outermost
    first; `staged`: whether the frame runs inside a branch or loop being staged since the
    previous user frame."""
    out = []
    staged = False
    for frame, line in traceback.walk_tb(error.__traceback__):
        code = frame.f_code
        if code.co_filename in _STAGING:
            staged = True
        elif not code.co_filename.startswith(_SKIP):
            out.append((code, (code.co_filename, line), staged))
            staged = False
    return out


def _nested(code) -> set:
    """The code objects defined inside `code`, at any depth."""
    out = set()
    for const in code.co_consts:
        if isinstance(const, type(code)):
            out.add(const)
            out |= _nested(const)
    return out


def _name(code) -> str:
    return getattr(code, "co_qualname", code.co_name)


def recursion_error(error: RecursionError, traced) -> TracedRecursionError:
    """The StagingError that replaces `error`, raised while `traced` (a Python function) was
    being traced."""
    frames = _user_frames(error)
    counts = collections.Counter(code for code, _, _ in frames)
    repeated = [code for code, n in counts.items() if n > 1]
    if not repeated:
        code = getattr(traced, "__code__", None)
        origin = (code.co_filename, code.co_firstlineno) if code is not None else None
        return TracedRecursionError(
            f"{where(origin)}: tracing `{getattr(traced, '__name__', traced)}` went deeper than "
            "Python's recursion limit. A graph cannot recurse: write the recursion as a loop."
        )
    # The functions themselves, not the branch and loop bodies the converter nests in them.
    inner = set()
    for code in repeated:
        inner |= _nested(code)
    recursing = [c for c in repeated if c not in inner] or repeated[:1]
    names = " and ".join(f"`{_name(c)}`" for c in recursing)
    verb = "calls itself" if len(recursing) == 1 else "call each other"
    # The first time a recursing function is entered again: the caller's line is the call,
    # the line where the first activation stopped is the condition being staged.
    seen, call, test, staged = set(), None, None, False
    for k, (code, origin, inside) in enumerate(frames):
        staged = staged or (bool(seen) and inside)
        if code in recursing:
            if code in seen:
                call = frames[k - 1][1]
                break
            seen.add(code)
            test = test or origin
    call = call or test
    if not staged:
        # The recursion runs in Python at trace time and would stop, but each level costs more
        # stack while traced than it does eagerly.
        return TracedRecursionError(
            f"{where(call)}: {names} {verb} too deeply to be traced: each traced call costs "
            "more of Python's stack than an eager one, and the recursion went past Python's "
            "recursion limit. Write the recursion as a loop, or raise the limit with "
            "sys.setrecursionlimit()."
        )
    return TracedRecursionError(
        f"{where(call)}: {names} {verb} without end while being traced: the condition that "
        f"should end the recursion ({where(test)}) depends on a Tensor, so both of its branches "
        "are traced, and each traced call traces another. A graph cannot recurse on a Tensor: "
        "write a loop instead, carrying in loop variables what the recursion passes down, or "
        "make the recursion depend on a Python value."
    )
