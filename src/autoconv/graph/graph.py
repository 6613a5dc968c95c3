"""The traced program: a plain list of nodes per block, and the scopes that build it.

A `Graph` holds the top-level `Block` of a trace. A node's `outputs` are `Tensor`s; its
`args`/`kwargs` are a call template in which `Tensor`s stand for the values of earlier nodes.
Conditionals and loops keep their bodies as nested `Block`s (`node.blocks`), whose nodes may
read any tensor defined before them in an enclosing block (lexical scoping, as in the Python
the executor generates). Tensor ids are unique within a graph, so blocks can be inlined.
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np

from autoconv.graph.origin import user_origin
from autoconv.graph.scopes import _SCOPES, _Scope, building, current  # noqa: F401 - used as _g.building()
from autoconv.graph.tensor import Tensor
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
        self.args = args = tuple(args)
        self.kwargs = kwargs or {}
        if kwargs:
            self.kwargs = _owned(self.kwargs)
            self.args = _owned(args)
            self.inputs = tensors_in((self.args, self.kwargs))
        else:  # the same walk, written out for the common case (every traced operation)
            self.inputs = found = []
            held = False
            for a in args:
                ta = type(a)
                if ta is Tensor:
                    found.append(a)
                elif ta not in _PLAIN:
                    held = held or ta is list or ta is dict or ta is tuple
                    _find(a, found)
            if held:
                self.args = _owned(args)
        self.outputs = []
        self.attrs = attrs or {}
        self.origin = origin
        self.effect = False
        self.blocks = _NO_BLOCKS  # (a control-flow node sets a list of its own)

    def __repr__(self):
        outs = ", ".join(f"%{t.id}" for t in self.outputs)
        return f"<Node {outs} = {self.op}>"

    def output_index(self, t) -> int | None:
        """The index of Tensor `t` among this node's outputs, or None."""
        return next((i for i, o in enumerate(self.outputs) if o is t), None)


def _owned(v):
    """`v` with each list and dict in it copied: a node keeps the values its arguments held when
    it was recorded (`np.stack(lst)`), not the user's container, which later code may change
    (a staged `if` writes its merged items back into `lst`)."""
    t = type(v)
    if t is list:
        return [_owned(x) for x in v]
    if t is dict:
        return {k: _owned(x) for k, x in v.items()}
    if t is tuple:
        items = tuple(_owned(x) for x in v)
        return v if all(a is b for a, b in zip(items, v)) else items
    return v


# The blocks of an operation that has none, shared: one list fewer per traced operation for
# the garbage collector to go through after the trace (a 1,000-step loop records 8,000).
_NO_BLOCKS: tuple = ()


class Block:
    """A sequence of nodes with its results (`outputs`) and, for loop bodies, the tensors that
    stand for the loop variables (`params`)."""

    __slots__ = ("nodes", "outputs", "params")

    def __init__(self):
        self.nodes: list[Node] = []
        self.outputs: list = []
        self.params: list = []


class _Views:
    """How a graph is shown: `listing.as_text`, `dot.to_dot` and `display.graph_html`. Those
    modules build on this one, so each registers its function here when imported (importing
    `autoconv.graph` imports them all) and this module imports none of them."""

    __slots__ = ("as_text", "to_dot", "graph_html", "as_dict")


views = _Views()
# `as_dict` is the saved-file encoder (`functions/saving/encode.py`), registered by the
# graph-mode API (`autoconv.functions`), which every Graph a user holds comes from.
views.as_dict = None


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
        # Hints for the `roll` pass: the unrolled Python loops (`graph.unrolled.Steps`).
        self.unrolled: list = []
        # Set when a Variable's creation is recorded (`creates_variables` then looks for it).
        self.may_create = False

    @property
    def nodes(self) -> list[Node]:
        """Top-level nodes, in program order."""
        return self.block.nodes

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id - 1

    def copy(self, blocks=None, replace=None) -> Graph:
        """A deep copy (new nodes, blocks and Tensors, with the same ids) that passes can rewrite
        without touching this graph. A pass that plans its changes without making them (`roll`)
        passes `blocks`, id(block) -> the nodes to copy in its place, and `replace`, the Tensor
        a read of each Tensor becomes: the copy then holds the changes, and costs what the
        changed graph's size costs."""
        return _copy_graph(self, blocks, replace)

    def walk(self):
        """Every node, nested blocks included, in program order (a node before its blocks)."""
        return walk(self.block)

    def as_text(self) -> str:
        """A readable listing: one operation per line with its inputs, shape, dtype and origin."""
        return views.as_text(self)

    def to_dot(self, *, dead: bool = False) -> str:
        """The graph in Graphviz DOT: labelled clusters for branches and loops, with edges in
        and out; operations nothing needs are left out (greyed out with `dead=True`)."""
        return views.to_dot(self, dead=dead)

    def as_dict(self) -> dict:
        """The graph as plain data, in the form a saved file holds it (TF's `as_graph_def()`):
        `{"format", "version", "graph", "arrays", "variables"}`. `graph` is JSON-able (nodes,
        blocks, tagged values such as `["t", 7]` for the Tensor `%7`); `arrays` holds the
        NumPy arrays that `["array", i]` names; `variables` the Variables' names and arrays."""
        if views.as_dict is None:
            raise TypeError("Graph.as_dict needs autoconv's graph mode: import autoconv.functions")
        return views.as_dict(self)

    def __repr__(self):
        return f"<autoconv.Graph {self.name!r}: {len(self.nodes)} nodes>"

    def _repr_html_(self) -> str:
        return views.graph_html(self)


@contextmanager
def build(graph: Graph, block: Block | None = None):
    """Makes `block` (default: the graph's top-level block) receive new nodes."""
    stack = _SCOPES.stack
    stack.append(_Scope(graph, graph.block if block is None else block))
    # The runtime's shared list tells it in one test that some thread may be tracing.
    staging.enter_trace()
    try:
        yield stack[-1].block
    finally:
        staging.leave_trace()
        stack.pop()


@contextmanager
def sub_block():
    """A fresh nested block of the graph being built (a branch or loop body)."""
    scope = current()
    block = Block()
    with build(scope.graph, block):
        yield block


class RecordingForbidden(Exception):
    """Raised by `add_node` inside `no_recording()`: autoconv's own bookkeeping touched a Tensor
    in a way that would have added an operation to the user's graph."""


@contextmanager
def no_recording():
    """While open, any attempt to add a node raises `RecordingForbidden` instead.

    autoconv's own checks made during a trace (is this value the same in both branches? did this
    loop variable change?) may call user-defined `==` on values that hold Tensors. Such a call
    must never leave an operation behind in the block being traced: with dead-code elimination
    off it would run, or reference a value of another block."""
    _SCOPES.sealed += 1
    try:
        yield
    finally:
        _SCOPES.sealed -= 1


def add_const(value, spec, owned: bool) -> Tensor:
    """A `const` node holding `value` (of `spec`) in the current block; `owned`: autoconv made
    the value, so no caller can change it later."""
    node = Node("const", "const", attrs={"value": value, "owned": owned})
    add_node(node, [spec])
    return node.outputs[0]


def add_node(node: Node, specs, origin=None) -> Node:
    """Appends `node` to the current block, giving it one output per `(shape, dtype)` in
    `specs`. Returns the node."""
    scopes = _SCOPES  # (a thread-local: read once)
    if scopes.sealed:
        raise RecordingForbidden(node.op)
    scope = scopes.stack[-1]
    graph = scope.graph
    for t in node.inputs:
        if t.graph is not graph:
            raise _foreign(t)
    if node.origin is None:
        node.origin = origin or user_origin(2)
    outputs = node.outputs
    if node.kind == "placeholder":
        for i, spec in enumerate(specs):
            outputs.append(Tensor(graph, node, i, *spec))
    else:
        # What `Tensor(...)` does for an operation's results (only a placeholder's 0-d input
        # needs its `__init__`), without its call: this runs for every traced operation.
        for i, spec in enumerate(specs):
            t = _new_object(Tensor)
            t.weak = len(spec) > 2 and spec[2]
            t.py_kinds = None
            # Not changed in place (trace.tensors.mutation): set, so that the check every
            # operation makes of its inputs once a graph has such an array reads None here
            # instead of raising AttributeError through `Tensor.__getattr__`.
            t._stale = None
            t.graph = graph
            t.node = node
            t.index = i
            t.id = graph._next_id  # (`graph.new_id()`, without the call)
            graph._next_id += 1
            t._shape = tuple(spec[0])
            dtype = spec[1]
            t.dtype = dtype if isinstance(dtype, np.dtype) else np.dtype(dtype)
            outputs.append(t)
    scope.block.nodes.append(node)
    return node


_new_object = object.__new__


def _foreign(t):
    from autoconv.graph.errors import StagingError, where

    return StagingError(
        f"{where(t.node.origin)}: a Tensor from another trace ({t!r}) was used here. Tensors "
        "only live inside the trace that made them: do not keep them in globals or on objects "
        "between calls; return them as outputs instead."
    )


# Values that hold Tensors besides the containers below: `optionals.Optional` and `Mixed`,
# `staging.ListAccum`. Those modules build on this one, so each registers its type here when
# imported (no such value exists before): type -> (parts, rebuild), where `parts(v)` gives the
# held values in order and `rebuild(v, new_parts)` makes the same holder around new ones.
HOLDERS: dict = {}


def tensors_in(value) -> list:
    """The Tensors in a nested structure (tuples, lists, namedtuples, dicts, slices), in order."""
    found: list = []
    _find(value, found)
    return found


# Types that never hold a Tensor: the walks below skip them with one set lookup instead of a
# chain of isinstance tests (they run for every argument of every node: tracing, each pass and
# the graph copy all walk call templates).
_PLAIN = frozenset(
    {int, float, bool, complex, str, bytes, type(None), type(Ellipsis), np.ndarray, np.dtype}
    | {type(np.dtype(c)) for c in "?bhilqBHILQefdgFDGSUV"}
    | set(np.sctypeDict.values())
)


def _find(v, found: list) -> None:
    t = type(v)
    if t is Tensor:
        found.append(v)
    elif t is tuple or t is list:
        for x in v:
            tx = type(x)
            if tx is Tensor:
                found.append(x)
            elif tx not in _PLAIN:
                _find(x, found)
    elif t in _PLAIN:
        pass
    elif t is dict:
        for x in v.values():
            _find(x, found)
    elif t is slice:
        _find(v.start, found)
        _find(v.stop, found)
        _find(v.step, found)
    elif isinstance(v, Tensor):
        found.append(v)
    elif t in HOLDERS:
        for x in HOLDERS[t][0](v):
            _find(x, found)
    elif isinstance(v, (tuple, list)):
        for x in v:
            _find(x, found)


def map_tensors(template, fn):
    """`template` with each Tensor `t` replaced by `fn(t)`; tuples, lists, dicts, slices and
    namedtuples are rebuilt, anything else is kept as it is."""
    return _map(template, fn)


def _map(v, fn):
    t = type(v)
    if t is Tensor:
        return fn(v)
    if t in _PLAIN:
        return v
    if t is tuple or t is list:
        return t(
            [fn(x) if type(x) is Tensor else x if type(x) in _PLAIN else _map(x, fn) for x in v]
        )
    if t is dict:
        return {k: _map(x, fn) for k, x in v.items()}
    if t is slice:
        return slice(_map(v.start, fn), _map(v.stop, fn), _map(v.step, fn))
    if isinstance(v, Tensor):
        return fn(v)
    holder = HOLDERS.get(t)
    if holder is not None:
        parts, rebuild = holder
        return rebuild(v, [_map(x, fn) for x in parts(v)])
    if isinstance(v, tuple) and hasattr(t, "_fields"):
        return t(*[_map(x, fn) for x in v])
    return v


def walk(block: Block):
    """Yields every node of `block` and of its nested blocks, in program order."""
    # A stack of iterators, not nested generators: each node of a block 50 levels deep (a
    # `break` in a Python loop nests the remaining steps in conds) passed up 50 generators.
    stack = [iter(block.nodes)]
    while stack:
        for node in stack[-1]:
            yield node
            if node.blocks:
                stack.extend([iter(sub.nodes) for sub in reversed(node.blocks)])
                break
        else:
            stack.pop()


def set_args(node: Node, args=None, kwargs=None) -> None:
    """Replaces a node's call template and recomputes its `inputs`."""
    if args is not None:
        node.args = tuple(args)
    if kwargs is not None:
        node.kwargs = kwargs
    node.inputs = tensors_in((node.args, node.kwargs))


def new_tensor(graph: Graph, node: Node, index: int, shape, dtype, weak=False, id=None):
    """A Tensor of `graph` made by `node` (a fresh id unless `id` is given)."""
    t = Tensor.__new__(Tensor)
    t.weak = weak
    t.py_kinds = None
    t.graph = graph
    t.node = node
    t.index = index
    t.id = graph.new_id() if id is None else id
    t.shape = tuple(shape)
    t.dtype = dtype
    return t


class _Copier:
    """Copies nodes and blocks, each Tensor once through `tensor(t)` (which makes or finds its
    copy); `drop` names the attributes the copies leave out."""

    def __init__(self, tensor, drop=(), blocks=None, read=None):
        self.tensor, self.drop = tensor, drop
        # `blocks`: id(block) -> the nodes to copy in place of its own; `read`: the copy of a
        # Tensor an operation reads (the passes' planned replacements), `tensor` by default.
        self.blocks = blocks or {}
        self.read = read or tensor

    def node(self, node):
        made = Node.__new__(Node)
        made.kind, made.op, made.fn = node.kind, node.op, node.fn
        made.args = map_tensors(node.args, self.read)
        made.kwargs = map_tensors(node.kwargs, self.read)
        made.inputs = tensors_in((made.args, made.kwargs))
        made.attrs = {k: v for k, v in node.attrs.items() if k not in self.drop}
        made.origin = node.origin
        made.effect = node.effect
        made.blocks = [self.block(b) for b in node.blocks]
        if node.kind == "while":
            made.blocks[0].params = made.blocks[1].params
        made.outputs = []
        for t in node.outputs:
            out = self.tensor(t)
            out.node = made
            made.outputs.append(out)
        return made

    def block(self, block):
        made = Block()
        made.params = [self.tensor(p) for p in block.params]
        for p, old in zip(made.params, block.params):
            p.node = _param_node(old)
        made.nodes = [self.node(n) for n in self.blocks.get(id(block), block.nodes)]
        made.outputs = map_tensors(list(block.outputs), self.read)
        return made


def _copy_graph(graph: Graph, blocks=None, replace=None) -> Graph:
    new = Graph(graph.name)
    new._next_id = graph._next_id
    tensors: dict = {}

    def tensor(t):
        made = tensors.get(t.id)
        if made is None:
            made = tensors[t.id] = new_tensor(new, None, t.index, t.shape, t.dtype, t.weak, t.id)
        return made

    for t in graph.inputs:
        made = tensor(t)
        node = Node("placeholder", "placeholder", attrs=dict(t.node.attrs))
        node.outputs.append(made)
        made.node = node
        new.inputs.append(made)
    new.input_names = list(graph.input_names)
    new.unrolled = list(getattr(graph, "unrolled", ()))
    new.may_create = getattr(graph, "may_create", True)
    read = tensor if replace is None else (lambda t: tensor(replace(t)))
    new.block = _Copier(tensor, blocks=blocks, read=read).block(graph.block)
    new.outputs = map_tensors(graph.outputs, read)
    new._next_id = graph._next_id  # the planned operations may have taken new ids
    return new


def _param_node(param):
    return Node("param", "param", attrs=dict(param.node.attrs) if param.node else None)


def inline(graph: Graph, inputs: list):
    """Adds a copy of `graph`'s operations to the block being built, with `inputs` (Tensors of
    the graph being built, or constant values) in place of its placeholders, and returns its
    outputs in their structure. The copies get fresh Tensor ids (blocks are lexically scoped,
    so nested blocks copy as they are)."""
    if _SCOPES.sealed:
        raise RecordingForbidden(graph.name)
    scope = current()
    target = scope.graph
    mapped: dict = {t.id: v for t, v in zip(graph.inputs, inputs)}

    def tensor(t):
        if t.id not in mapped:
            mapped[t.id] = new_tensor(target, None, t.index, t.shape, t.dtype, t.weak)
        return mapped[t.id]

    # In-place marks were made for the other graph's buffers: the passes decide again here.
    copier = _Copier(tensor, drop=("inplace",))
    scope.block.nodes.extend(copier.node(n) for n in graph.block.nodes)
    return map_tensors(graph.outputs, tensor)
