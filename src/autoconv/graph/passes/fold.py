"""Constant folding: operations whose inputs are all constants run once, while tracing, and
become constants.

Folded: pure operations (NumPy functions, operators, indexing, methods) whose Tensor inputs are
constants the graph owns (made by the trace or by this pass, never an array the program could
still change), and `zeros_like` / `ones_like` / `full_like` / `empty_like` of a Tensor whose
shape is fully known (they depend on its shape and dtype only). A conditional whose condition
became a constant is replaced by the branch it takes. Not folded: anything that raises or
warns (it keeps failing or warning at run time, as eager code would), results larger than
`fold_max_bytes`, object arrays, and operations with several results. Folded arrays are made
read-only; the executor copies a constant before handing it to the caller.
"""

from __future__ import annotations

import warnings

import numpy as np

from autoconv.graph.graph import Block, Graph, map_tensors
from autoconv.graph.operators import BINARY_OPERATORS, UNARY_OPERATORS
from autoconv.graph.passes.rewrite import Replacements
from autoconv.graph.tensor import PY_TYPES, Tensor

NAME = "fold"
_FOLDABLE = ("call", "binop", "unop", "getitem", "method", "attr", "helper")
_BINARY = BINARY_OPERATORS
_UNARY = UNARY_OPERATORS
_SHAPE_ONLY = {np.zeros_like, np.ones_like, np.full_like, np.empty_like}
DEFAULT_MAX_BYTES = 16 << 20
# An empty array's contents are unspecified: folded, it is zeros, never the bytes of a buffer
# this process freed (which a constant would carry into listings and saved files).
ZEROED = {np.empty: np.zeros, np.empty_like: np.zeros_like}


class _NotConstant(Exception):
    pass


def evaluate(node, values: dict):
    """Runs one operation on concrete values, exactly as the generated code would.
    `values[id]` is the value of each Tensor input."""
    sub = lambda t: values[t.id]  # noqa: E731
    args = map_tensors(node.args, sub)
    kwargs = map_tensors(node.kwargs, sub)
    kind = node.kind
    if kind in ("call", "helper"):
        return ZEROED.get(node.fn, node.fn)(*args, **kwargs)
    if kind == "binop":
        return _BINARY[node.fn](args[0], args[1])
    if kind == "unop":
        return _UNARY[node.fn](args[0])
    if kind == "getitem":
        return args[0][args[1]]
    if kind == "method":
        return getattr(args[0], node.fn)(*args[1:], **kwargs)
    if kind == "attr":
        return getattr(args[0], node.fn)
    raise _NotConstant(kind)


def run(graph: Graph, settings=None) -> int:
    """Folds what it can; returns the number of operations folded."""
    max_bytes = getattr(settings, "fold_max_bytes", DEFAULT_MAX_BYTES)
    folder = _Folder(max_bytes)
    folder.block(graph.block)
    folder.repl.apply(graph)
    return folder.folded


class _Folder:
    def __init__(self, max_bytes):
        self.max_bytes = max_bytes
        self.values: dict = {}  # id -> value of Tensors that are owned constants
        self.repl = Replacements()
        self.folded = 0

    def block(self, block: Block):
        i = 0
        while i < len(block.nodes):
            node = block.nodes[i]
            self.repl.node(node)
            kind = node.kind
            if kind == "const":
                if node.attrs.get("owned"):
                    self.values[node.outputs[0].id] = node.attrs["value"]
            elif kind == "cond" and (
                not isinstance(node.args[0], Tensor) or node.args[0].id in self.values
            ):  # a test known now (another pass may have made it a NumPy bool)
                taken = self._taken(node)
                if taken is not None:
                    block.nodes[i : i + 1] = taken.nodes
                    for out, value in zip(node.outputs, taken.outputs):
                        if isinstance(value, Tensor):
                            self.repl.add(out, value, True)
                    self.folded += 1
                    continue  # visit the spliced nodes
            elif kind in _FOLDABLE and not node.effect and len(node.outputs) == 1:
                self._fold(node)
            for sub in node.blocks:
                self.block(sub)
            i += 1

    def _taken(self, node):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                test = node.args[0]
                flag = bool(self.values[test.id] if isinstance(test, Tensor) else test)
        except Exception:
            return None
        return node.blocks[0 if flag else 1]

    def _may_fold(self, node) -> bool:
        """Whether every input is a constant (or the shape-only operand): the cheap test that
        `_inputs` makes in full, done before anything that costs more."""
        values = self.values
        for t in node.inputs:
            if t.id not in values:
                # by identity: a recorded callable need not be hashable
                return node.kind == "call" and any(node.fn is f for f in _SHAPE_ONLY)
        return True

    def _inputs(self, node) -> dict | None:
        """The constant values of the node's inputs, or None if it cannot fold."""
        values = {}
        shape_only = node.kind == "call" and node.fn in _SHAPE_ONLY
        for k, t in enumerate(node.inputs):
            if t.id in self.values:
                values[t.id] = self.values[t.id]
            elif shape_only and k == 0 and node.args and node.args[0] is t:
                if None in t.shape or t.dtype.kind == "O":
                    return None
                values[t.id] = PY_TYPES[t.dtype.kind](0) if t.weak else np.zeros(t.shape, t.dtype)
            else:
                return None
        if _has_array(node.args) or _has_array(node.kwargs):
            return None  # an array the program may change between calls
        return values

    def _fold(self, node):
        if not self._may_fold(node):
            return  # most operations: an input is computed at run time
        out = node.outputs[0]
        if None in out.shape or out.dtype.kind == "O":
            return
        if int(np.prod(out.shape, dtype=np.int64)) * out.dtype.itemsize > self.max_bytes:
            return
        values = self._inputs(node)
        if values is None:
            return
        try:
            with np.errstate(all="raise"), warnings.catch_warnings():
                warnings.simplefilter("error")
                value = evaluate(node, values)
        except Exception:
            return  # fails (or warns) at run time, as eagerly
        if not _matches(value, out):
            return
        if isinstance(value, np.ndarray):
            value.flags.writeable = False  # shared by every run
        op = node.op
        node.kind = "const"
        node.op = "const"
        node.fn = None
        node.args = ()
        node.kwargs = {}
        node.inputs = []
        node.attrs = {"value": value, "owned": True, "folded": op}
        self.values[out.id] = value
        self.folded += 1


def _has_array(template) -> bool:
    t = type(template)
    if t is np.ndarray:
        return True
    if t in (tuple, list):
        return any(_has_array(x) for x in template)
    if t is dict:
        return any(_has_array(x) for x in template.values())
    return False


def _matches(value, t) -> bool:
    """The value has the Tensor's static spec (and is a Python number exactly when the
    Tensor is weak)."""
    if t.weak:
        return type(value) is PY_TYPES.get(t.dtype.kind)
    if not isinstance(value, (np.ndarray, np.generic)):
        return False
    return value.dtype == t.dtype and value.shape == t.shape
