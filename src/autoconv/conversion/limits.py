"""How deep the user's code nests: the limits conversion keeps to, and room for the ones it
does not choose.

The passes recurse over the syntax tree, one or a few frames per level. Real nesting is short
(CPython compiles at most 99 levels of indentation), but an `elif` is an `if` inside the `else`
of the one before: a chain of a thousand branches is a thousand levels deep, beyond the
interpreter's recursion limit, although CPython compiles it. `call_deep` gives such code the
stack it needs. The converted form of a chain is flat (one `ac.if_stmt`, its branches in a
tuple), so only real nesting remains in the output; `check_indentation` keeps it compilable.
"""

import sys
import threading

import gast

from autoconv.converters.checks import Unconvertible
from autoconv.locks import new_lock

MAX_INDENTATION = 99  # levels of indentation CPython's tokenizer accepts
_DEEP_RECURSION_LIMIT = 60_000  # frames: ~20 per branch of CPython's longest `elif` chains
_DEEP_STACK_BYTES = 1024 * 1024 * 1024  # reserved address space; pages are used as touched
_deep_lock = new_lock()


def call_deep(fn, *args):
    """`fn(*args)`; when that runs out of recursion (code nested deeper than the interpreter's
    recursion limit, or a call made deep in the user's stack), `fn(*args)` again in a thread of
    its own with a large stack and recursion limit. `fn` must be safe to run again after a
    `RecursionError` (conversion is: it starts from the source each time). A second
    `RecursionError` propagates."""
    try:
        return fn(*args)
    except RecursionError:
        pass
    outcome = []

    def run():
        try:
            outcome.append((True, fn(*args)))
        except BaseException as e:  # noqa: BLE001 - handed to the calling thread
            outcome.append((False, e))

    # The recursion limit is the interpreter's, not the thread's: it is raised only while this
    # thread converts, one deep conversion at a time.
    with _deep_lock:
        old_limit = sys.getrecursionlimit()
        old_size = threading.stack_size(_DEEP_STACK_BYTES)
        try:
            thread = threading.Thread(target=run, name="autoconv-deep-conversion", daemon=True)
            sys.setrecursionlimit(max(old_limit, _DEEP_RECURSION_LIMIT))
            try:
                thread.start()
                thread.join()
            finally:
                sys.setrecursionlimit(old_limit)
        finally:
            threading.stack_size(old_size)
    ok, value = outcome[0]
    if ok:
        return value
    raise value


def check_indentation(function_node, level: int = 0) -> None:
    """Raises `Unconvertible` when the converted `function_node`, printed at indentation
    `level` (its `def` line's), would nest statements deeper than CPython's tokenizer accepts.
    Iterative: the tree may be as deep as the user's code."""
    stack = [(function_node, level)]
    while stack:
        node, depth = stack.pop()
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(node, field, None)
            if type(block) is not list:
                continue
            # An `else`'s lone `if` prints as `elif`, at the level of the `if` itself.
            if (
                field == "orelse"
                and isinstance(node, gast.If)
                and len(block) == 1
                and isinstance(block[0], gast.If)
            ):
                stack.append((block[0], depth))
                continue
            inner = depth if field == "handlers" else depth + 1
            for child in block:
                if isinstance(child, (gast.stmt, gast.excepthandler, gast.match_case)):
                    if inner > MAX_INDENTATION:
                        line = getattr(child, "lineno", None) or function_node.lineno
                        raise Unconvertible(
                            "nesting",
                            line,
                            f"its converted form nests statements {inner} levels deep, and "
                            f"CPython compiles at most {MAX_INDENTATION} levels of indentation "
                            "(move the inner blocks into a function of their own)",
                        )
                    stack.append((child, inner))
