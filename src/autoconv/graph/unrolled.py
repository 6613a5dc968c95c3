"""Where each iteration of a Python loop unrolled while tracing begins.

A `for` over a Python iterable (a `range`, a list) runs in Python while a graph is traced: its
body's operations are appended to the block being built, one copy per iteration. The runtime
announces each iteration to the graph's tracer, which records here how many operations each one
added. The `roll` pass reads these hints to find the per-step copies it may re-roll into one
staged loop; it checks every step itself, so a wrong or stale hint only costs a missed roll.
"""

from __future__ import annotations

from autoconv.graph import graph as _g


class Steps:
    """The iterations of one unrolled Python loop in the block being built."""

    __slots__ = ("block", "graph", "starts", "origin")

    def __init__(self, origin=None):
        scope = _g.current()
        self.graph, self.block = scope.graph, scope.block
        self.starts: list[int] = []
        self.origin = origin

    def step(self) -> None:
        """An iteration begins."""
        self.starts.append(len(self.block.nodes))

    def end(self) -> None:
        """The loop is left: records a hint on the graph if two or more iterations added
        operations to the same block."""
        if not _g.building() or _g.current().block is not self.block or len(self.starts) < 2:
            return
        nodes = self.block.nodes
        ends = [*self.starts[1:], len(nodes)]
        lengths = [b - a for a, b in zip(self.starts, ends)]
        first = self.starts[0]
        if first >= len(nodes) or not nodes[first].outputs or min(lengths) <= 0:
            return
        # The first step's first operation, by its result's id (ids survive `Graph.copy`).
        self.graph.unrolled.append((nodes[first].outputs[0].id, lengths, self.origin))
