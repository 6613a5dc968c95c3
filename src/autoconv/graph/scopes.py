"""Which block of which graph receives the operations traced now: one stack per thread.

`graph.build` pushes a scope while a trace adds nodes; `building()` and `current()` read it.
This sits below both `graph` and `tensor` (a Tensor asks `building()` whether user code is
tracing), so both import it and neither imports the other late.
"""

from __future__ import annotations

import os
import threading

from autoconv.runtime import staging


class _Scope:
    __slots__ = ("graph", "block")

    def __init__(self, graph, block):
        self.graph = graph
        self.block = block


class _Scopes(threading.local):
    """The blocks receiving nodes, innermost last: one stack per thread, so that threads can
    trace at the same time. `sealed` counts the `no_recording` scopes open in this thread."""

    def __init__(self):
        self.stack: list[_Scope] = []
        self.sealed = 0


_SCOPES = _Scopes()


def _forget_other_traces_in_child() -> None:
    # After a fork only the forking thread exists: the shared count of open traces keeps
    # just its own entries, or the runtime would take every call for one made while tracing.
    staging.reset_traces(len(_SCOPES.stack))


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_other_traces_in_child)


def building() -> bool:
    """True while this thread's trace is adding operations to a graph."""
    return bool(_SCOPES.stack)


def current() -> _Scope:
    return _SCOPES.stack[-1]
