"""The traced program: a plain list of nodes per block, and the scopes that build it.

A `Graph` holds the top-level `Block` of a trace. A node's `outputs` are `Tensor`s; its
`args`/`kwargs` are a call template in which `Tensor`s stand for the values of earlier nodes.
Conditionals and loops keep their bodies as nested `Block`s (`node.blocks`), whose nodes may
read any tensor defined before them in an enclosing block (lexical scoping, as in the Python
the executor generates). Tensor ids are unique within a graph, so blocks can be inlined.
"""

from __future__ import annotations

from contextlib import contextmanager

from autoconv.graph.origin import user_origin
from autoconv.runtime import staging


class Node:
    """One operation.

    kind: how the executor emits it ('call', 'binop', 'unop', 'getitem', 'method', 'attr',
    'const', 'placeholder', 'read', 'assign', 'print', 'cond', 'while', 'list_new',
    'list_append', 'helper'). op: the name shown in listings. fn: the callable (or the operator
    symbol / method name). origin: the user's `(file, line)`.
    """

    __slots__ = (
        "kind",
        "op",
        "fn",
        "args",
        "kwargs",
        "inputs",
        "outputs",
        "attrs",
        "origin",
        "effect",
        "blocks",
    )

    def __init__(self, kind, op, fn=None, args=(), kwargs=None, attrs=None, origin=None):
        self.kind = kind
        self.op = op
        self.fn = fn
        self.args = tuple(args)
        self.kwargs = kwargs or {}
        self.inputs = _collect_tensors((self.args, self.kwargs))
        self.outputs = []
        self.attrs = attrs or {}
        self.origin = origin
        self.effect = False
        self.blocks = []

    def __repr__(self):
        outs = ", ".join(f"%{t.id}" for t in self.outputs)
        return f"<Node {outs} = {self.op}>"


class Block:
    """A sequence of nodes with its results (`outputs`) and, for loop bodies, the tensors that
    stand for the loop variables (`params`)."""

    __slots__ = ("nodes", "outputs", "params")

    def __init__(self):
        self.nodes: list[Node] = []
        self.outputs: list = []
        self.params: list = []


class Graph:
    """A traced function: its input placeholders, its nodes and its output structure.

    `as_text()` lists one operation per line; `to_dot()` gives Graphviz DOT.
    """

    def __init__(self, name: str = "graph"):
        self.name = name
        self.block = Block()
        self.inputs: list = []
        self.input_names: list[str] = []
        self.outputs = None
        self._next_id = 0

    @property
    def nodes(self) -> list[Node]:
        """Top-level nodes, in program order."""
        return self.block.nodes

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id - 1

    def as_text(self) -> str:
        """A readable listing: one operation per line with its inputs, shape, dtype and origin."""
        from autoconv.graph.listing import as_text

        return as_text(self)

    def to_dot(self) -> str:
        """The graph in Graphviz DOT."""
        from autoconv.graph.listing import to_dot

        return to_dot(self)

    def __repr__(self):
        return f"<autoconv.Graph {self.name!r}: {len(self.nodes)} nodes>"


class _Scope:
    __slots__ = ("graph", "block")

    def __init__(self, graph, block):
        self.graph = graph
        self.block = block


# The runtime's list, so that it can tell in one test whether a graph is being built.
_SCOPES: list[_Scope] = staging.traces


def building() -> bool:
    """True while a trace is adding operations to a graph."""
    return bool(_SCOPES)


def current() -> _Scope:
    return _SCOPES[-1]


@contextmanager
def build(graph: Graph, block: Block | None = None):
    """Makes `block` (default: the graph's top-level block) receive new nodes."""
    _SCOPES.append(_Scope(graph, graph.block if block is None else block))
    try:
        yield _SCOPES[-1].block
    finally:
        _SCOPES.pop()


@contextmanager
def sub_block():
    """A fresh nested block of the graph being built (a branch or loop body)."""
    scope = current()
    block = Block()
    with build(scope.graph, block):
        yield block


def add_node(node: Node, specs, origin=None) -> Node:
    """Appends `node` to the current block, giving it one output per `(shape, dtype)` in
    `specs`. Returns the node."""
    from autoconv.graph.tensor import Tensor

    scope = current()
    graph = scope.graph
    for t in node.inputs:
        if t.graph is not graph:
            raise _foreign(t)
    if node.origin is None:
        node.origin = origin or user_origin(2)
    for i, spec in enumerate(specs):
        node.outputs.append(Tensor(graph, node, i, *spec))
    scope.block.nodes.append(node)
    return node


def _foreign(t):
    from autoconv.graph.errors import StagingError, where

    return StagingError(
        f"{where(t.node.origin)}: a Tensor from another trace ({t!r}) was used here. Tensors "
        "only live inside the trace that made them: do not keep them in globals or on objects "
        "between calls; return them as outputs instead."
    )


def _collect_tensors(template) -> list:
    from autoconv.graph.tensor import Tensor

    found = []

    def walk(v):
        if isinstance(v, Tensor):
            found.append(v)
        elif type(v) in (tuple, list):
            for x in v:
                walk(x)
        elif type(v) is dict:
            for x in v.values():
                walk(x)
        elif type(v) is slice:
            walk(v.start)
            walk(v.stop)
            walk(v.step)

    walk(template)
    return found
