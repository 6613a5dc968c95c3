"""Replacing one Tensor by another throughout a graph.

A replacement is *full* (every use, escaping ones included) or *partial* (only uses by
operations that merely read the value and return new arrays; outputs, yielded values, loop
inits, Variable assignments and views keep the original). Partial replacement is what keeps a
caller's view of the results exact: `y = x * 1` may read `x` inside the graph, but the caller
still receives a new array for `y` (and `y[1:]` is still a view of a new array), as eager NumPy
gives.
"""

from __future__ import annotations

from autoconv.graph.graph import Block, Graph, map_tensors, set_args
from autoconv.graph.passes.analysis import escaping_reader
from autoconv.graph.tensor import Tensor


class Replacements:
    """Pending replacements, applied to a whole graph in one walk by `apply`."""

    def __init__(self):
        self.map: dict = {}  # id -> (tensor, full)

    def __bool__(self):
        return bool(self.map)

    def __len__(self):
        return len(self.map)

    def add(self, old, new, full: bool) -> None:
        if old is not new and old.id != getattr(new, "id", None):
            self.map[old.id] = (new, full)

    def resolve(self, t, escaping: bool):
        """What a use of `t` becomes (following chains of replacements)."""
        seen = 0
        while isinstance(t, Tensor):
            entry = self.map.get(t.id)
            if entry is None or (escaping and not entry[1]):
                return t
            t = entry[0]
            seen += 1
            if seen > 10_000:  # a cycle would be a bug in a pass
                raise AssertionError("cyclic tensor replacement")
        return t

    def node(self, node) -> bool:
        """Rewrites one node's arguments; True if they changed."""
        if not node.inputs or not self.map:
            return False
        if not any(t.id in self.map for t in node.inputs):
            return False
        escaping = escaping_reader(node)
        fn = lambda t: self.resolve(t, escaping)  # noqa: E731
        set_args(node, map_tensors(node.args, fn), map_tensors(node.kwargs, fn))
        return True

    def apply(self, graph: Graph) -> None:
        if self.map:
            self._block(graph.block)
            graph.outputs = map_tensors(graph.outputs, lambda t: self.resolve(t, True))

    def _block(self, block: Block) -> None:
        for node in block.nodes:
            self.node(node)
            for sub in node.blocks:
                self._block(sub)
                sub.outputs = map_tensors(list(sub.outputs), lambda t: self.resolve(t, True))
