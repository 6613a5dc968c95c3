"""Facts about a graph that several passes need: which operations return new arrays, how each
Tensor is used, and which values may share memory with constants or Variables.

A use is *escaping* when the value itself (the very object) leaves the dataflow of operations
or its memory is shared onwards: a graph output, a value a branch or loop body yields, a loop's
initial value, a Variable assignment, an item appended to a run-time list, or an operation that
may return a view of it (indexing, reshape, transpose, ...). Passes keep what escapes distinct:
merging two escaping values would make the caller receive one array (or views of one array)
where eager NumPy gives two.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np

from autoconv.graph.graph import Block, Graph, Node, tensors_in
from autoconv.graph.tensor import Tensor

# NumPy functions whose results never share memory with their arguments.
_NEW_FUNCS = {
    getattr(np, name)
    for name in (
        "sum mean prod max min amax amin any all std var nansum nanmean nanmax nanmin nanprod "
        "argmax argmin median count_nonzero ptp cumsum cumprod nancumsum nancumprod dot outer "
        "tensordot concatenate stack where nonzero argwhere flatnonzero clip round around "
        "isclose zeros_like ones_like empty_like full_like take sort argsort repeat copy "
        "negative positive vstack hstack column_stack dstack append diff ediff1d cross kron "
        "convolve correlate tile pad roll tril triu interp polyval bincount searchsorted "
        "percentile quantile nanmedian nanpercentile nanquantile linspace logspace geomspace "
        "arange zeros ones full empty eye identity delete insert diagflat vander average cov "
        "corrcoef gradient take_along_axis digitize choose inner vdot ravel_multi_index angle "
        "resize extract compress intersect1d union1d setdiff1d setxor1d polyfit"
    ).split()
    if hasattr(np, name)
}
# Array methods (recorded by name) whose results never share memory with the array.
_NEW_METHODS = set(
    "sum mean prod max min any all argmax argmin cumsum cumprod std var clip round take "
    "argsort dot nonzero repeat copy flatten trace searchsorted conj conjugate".split()
)
# Operator symbols of binop/unop nodes, as the ufunc they call.
BINARY_UFUNCS = {
    "+": np.add,
    "-": np.subtract,
    "*": np.multiply,
    "/": np.true_divide,
    "//": np.floor_divide,
    "%": np.remainder,
    "**": np.power,
    "&": np.bitwise_and,
    "|": np.bitwise_or,
    "^": np.bitwise_xor,
    "<<": np.left_shift,
    ">>": np.right_shift,
}
UNARY_UFUNCS = {"-": np.negative, "+": np.positive, "~": np.invert, "abs": np.absolute}
# Kinds that read their arguments without keeping or sharing them.
_READING_KINDS = ("print", "cond")


def escaping_reader(node: Node) -> bool:
    """True when `node` keeps its arguments or may share their memory in its results."""
    return not (node.kind in _READING_KINDS or returns_new(node))


def ufunc_of(node: Node):
    """The ufunc an elementwise node calls (operators included), or None."""
    kind = node.kind
    if kind == "binop":
        return BINARY_UFUNCS.get(node.fn)
    if kind == "unop":
        return UNARY_UFUNCS.get(node.fn)
    if kind == "call" and isinstance(node.fn, np.ufunc):
        return node.fn
    return None


def returns_new(node: Node) -> bool:
    """True when the node's results never share memory with its inputs (or anything else):
    arithmetic, ufuncs, reductions, copies, helpers marked `returns_new`. False for views
    (indexing, reshape, transpose), constants, Variable reads, inputs and control flow."""
    kind = node.kind
    if kind in ("binop", "unop"):
        return True
    if kind == "helper":
        # Some helpers hand back their argument (`np.asarray`, the optional checks): only
        # those marked as allocating give new arrays.
        return getattr(node.fn, "returns_new", False)
    if node.attrs.get("random"):
        return True  # a random draw (see graph.random): a new array every time
    if kind == "call":
        fn = node.fn
        if isinstance(fn, np.ufunc) or isinstance(getattr(fn, "__self__", None), np.ufunc):
            return True
        if fn is getattr(np, "astype", None):
            return "copy" not in node.kwargs and len(node.args) <= 2
        return fn in _NEW_FUNCS
    if kind == "method":
        if node.fn == "astype":
            return "copy" not in node.kwargs and len(node.args) <= 4
        return node.fn in _NEW_METHODS
    return False


def fresh(t) -> bool:
    """True when `t` is an array this run allocated and nothing else refers to: the output of
    an operation that returns new arrays, with at least one dimension (0-d results are NumPy
    scalars, which cannot be written to)."""
    return (
        isinstance(t, Tensor)
        and not t.weak
        and len(t.shape) >= 1
        and t.node is not None
        and returns_new(t.node)
    )


class Uses:
    """How the Tensors of a graph are used.

    `count[id]`: reads (node arguments, block outputs, graph outputs), `escapes[id]`: the
    escaping ones among them, `readers[id]`: the nodes that read it (once each), `block_of[id]`:
    the block that defines it.
    """

    def __init__(self, graph: Graph):
        self.count: Counter = Counter()
        self.escapes: Counter = Counter()
        self.readers: dict = defaultdict(list)
        self.block_of: dict = {}
        for t in graph.inputs:
            self.block_of[t.id] = graph.block
        self._block(graph.block)
        for t in tensors_in(graph.outputs):
            self.count[t.id] += 1
            self.escapes[t.id] += 1

    def _block(self, block: Block):
        # Locals and dict.get: this runs for every input of every node, in four passes.
        count, escapes, readers, block_of = self.count, self.escapes, self.readers, self.block_of
        for p in block.params:
            block_of[p.id] = block
        for node in block.nodes:
            escaping = escaping_reader(node)
            seen = set()
            for t in node.inputs:
                i = t.id
                count[i] = count.get(i, 0) + 1
                if escaping:
                    escapes[i] = escapes.get(i, 0) + 1
                if i not in seen:
                    seen.add(i)
                    readers[i].append(node)
            for sub in node.blocks:
                self._block(sub)
                for t in tensors_in(sub.outputs):
                    count[t.id] += 1
                    escapes[t.id] += 1
            for t in node.outputs:
                block_of[t.id] = block

    def used(self, t) -> bool:
        return self.count[t.id] > 0


def count_nodes(graph: Graph) -> int:
    """Operations in the graph, nested blocks included."""
    # (Blocks' lengths, not a `walk` yielding each node: `optimize` counts after every pass.)
    n = 0
    stack = [graph.block]
    while stack:
        nodes = stack.pop().nodes
        n += len(nodes)
        for node in nodes:
            if node.blocks:
                stack.extend(node.blocks)
    return n


def may_alias_state(graph: Graph) -> set:
    """Ids of the Tensors whose run-time value may be (or be a view of) a graph constant or a
    Variable's array. Such a value must be copied before it is handed to the caller."""
    out: set = set()

    def mark(t, value):
        if value and t.id not in out:
            out.add(t.id)
            return True
        return False

    def flag(v) -> bool:
        return isinstance(v, Tensor) and v.id in out

    def visit(block: Block) -> bool:
        changed = False
        for node in block.nodes:
            kind = node.kind
            if kind == "const":
                value = node.attrs.get("value")
                for t in node.outputs:
                    changed |= mark(t, isinstance(value, np.ndarray))
            elif kind == "read":
                for t in node.outputs:
                    changed |= mark(t, True)
            elif kind == "cond":
                for sub in node.blocks:
                    changed |= visit(sub)
                for i, t in enumerate(node.outputs):
                    changed |= mark(t, any(flag(sub.outputs[i]) for sub in node.blocks))
            elif kind == "while":
                cond, body = node.blocks
                n = len(node.outputs)
                for _ in range(n + 2):
                    step = False
                    for i, p in enumerate(body.params):
                        init = node.args[i] if i < len(node.args) else None
                        value = flag(init) or (i < len(body.outputs) and flag(body.outputs[i]))
                        step |= mark(p, value)
                    step |= visit(cond)
                    step |= visit(body)
                    changed |= step
                    if not step:
                        break
                for i, t in enumerate(node.outputs):
                    changed |= mark(t, flag(body.params[i]) if i < len(body.params) else False)
            elif not returns_new(node):
                value = any(flag(t) for t in node.inputs)
                for t in node.outputs:
                    changed |= mark(t, value)
        return changed

    visit(graph.block)
    return out


def may_stand_for(x, y, uses: Uses, claimed: set, dropping: Node | None = None) -> bool:
    """Whether Tensor `x` may replace `y` at `y`'s escaping uses too (a full replacement).

    Yes when nothing of `y` escapes, or `y` is a Python number. Otherwise the caller would
    receive `x` where eager NumPy gives a distinct object, so `x` must be a new array that
    escapes nowhere else, has not been handed out already (`claimed`) and has no views.
    `dropping`: a reader of `x` that the replacement removes.
    """
    if y.weak or uses.escapes[y.id] == 0:
        return True
    if not isinstance(x, Tensor) or x.node is None or x.weak:
        return False
    if not returns_new(x.node) or x.id in claimed or uses.escapes[x.id]:
        return False
    return all(returns_new(r) for r in uses.readers[x.id] if r is not dropping)
