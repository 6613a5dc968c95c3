"""Runs a graph by generating straight-line Python that calls NumPy.

Each node becomes one line (`v7 = np_sum(v3, axis=0)`, `v8 = v7 + 1`), conditionals become
`if`/`else` blocks and loops `while True:` blocks, inlined in place; NumPy functions and
constants are bound as globals of the generated module. A call of the graph is then one call of
ordinary Python code with no per-operation interpretation, so its overhead over eager NumPy is
close to nil. Only what the outputs, prints and Variable updates need is emitted (non-strict
execution). `Program.source` is the readable code; an exception raised by a line is reported
with the user's file and line of the operation that line came from.
"""

from __future__ import annotations

import builtins
import itertools
import keyword
import linecache
import math
import re

import numpy as np

from autoconv.graph.errors import GraphExecutionError, StagingError, where
from autoconv.graph.graph import Block, Graph, Node
from autoconv.graph.tensor import Tensor, format_spec

_counter = itertools.count()


def live_nodes(graph: Graph) -> dict:
    """Non-strict pruning: `id(block) -> nodes kept`, keeping the nodes that outputs, effects
    (prints, Variable updates) and kept control flow need, in program order."""
    needed: set = set()
    _collect_output_ids(graph.outputs, needed)
    kept: dict = {}
    _prune(graph.block, needed, kept)
    return kept


def _collect_output_ids(value, needed):
    if isinstance(value, Tensor):
        needed.add(value.id)
    elif type(value) in (tuple, list) or isinstance(value, tuple):
        for v in value:
            _collect_output_ids(v, needed)
    elif type(value) is dict:
        for v in value.values():
            _collect_output_ids(v, needed)


def _prune(block: Block, needed: set, kept: dict):
    out = []
    for node in reversed(block.nodes):
        if node.effect or any(t.id in needed for t in node.outputs):
            for sub in node.blocks:
                _collect_output_ids(sub.outputs, needed)
            for sub in reversed(node.blocks):
                _prune(sub, needed, kept)
            needed.update(t.id for t in node.inputs)
            out.append(node)
    out.reverse()
    kept[id(block)] = out


class Program:
    """The generated executor of a graph: `source`, and `fn(*inputs)` returning the outputs."""

    def __init__(self, graph: Graph):
        self.graph = graph
        self.filename = f"<autoconv graph {graph.name} #{next(_counter)}>"
        writer = _Writer(graph)
        self.source = writer.source
        self.line_nodes = writer.line_nodes
        linecache.cache[self.filename] = (
            len(self.source),
            None,
            self.source.splitlines(True),
            self.filename,
        )
        namespace = writer.namespace
        exec(compile(self.source, self.filename, "exec"), namespace)  # noqa: S102 - our own code
        self.fn = namespace["run"]

    def rewrite(self, exc: BaseException) -> BaseException:
        """`exc` raised while running, re-made to name the user's file and line of the node."""
        tb = exc.__traceback__
        node = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                node = self.line_nodes.get(tb.tb_lineno, node)
            tb = tb.tb_next
        if node is None or isinstance(exc, GraphExecutionError):
            return exc
        message = (
            f"{where(node.origin)}: {node.op} failed while the graph ran: "
            f"{type(exc).__name__}: {exc}"
        )
        try:
            new = _combined(type(exc))(message)
        except Exception:
            new = GraphExecutionError(message)
        new.__cause__ = exc
        return new


_COMBINED: dict = {}


def _combined(cls):
    made = _COMBINED.get(cls)
    if made is None:
        made = _COMBINED[cls] = type(
            cls.__name__, (cls, GraphExecutionError), {"__module__": cls.__module__}
        )
    return made


_SAFE_NAME = re.compile(r"[^0-9a-zA-Z_]")


class _Writer:
    def __init__(self, graph: Graph):
        self.graph = graph
        self.lines: list[str] = []
        self.line_nodes: dict = {}
        self.namespace: dict = {"__builtins__": builtins, "print_": builtins.print}
        self._bound: dict = {}
        self._keep: list = []
        self._defined: list[set] = [set(t.id for t in graph.inputs)]
        self.kept = live_nodes(graph)
        params = ", ".join(f"v{t.id}" for t in graph.inputs)
        self.lines.append(f"def run({params}):")
        self.block(graph.block, 1)
        self.lines.append(f"    return {self.output(graph.outputs)}")
        self.source = "\n".join(self.lines) + "\n"

    # --- names and expressions ------------------------------------------------------------
    def bind(self, value, hint="c") -> str:
        key = (id(value), hint)
        name = self._bound.get(key)
        if name is None:
            base = _SAFE_NAME.sub("_", hint)
            name = base if base not in self.namespace and not keyword.iskeyword(base) else None
            if name is None or re.fullmatch(r"[vc]\d+", base):
                name = f"{base}_{len(self._bound)}"
            self._bound[key] = name
            self.namespace[name] = value
            self._keep.append(value)
        return name

    def fn(self, fn) -> str:
        name = getattr(fn, "__name__", None) or "fn"
        return self.bind(fn, "np_" + name if isinstance(fn, (np.ufunc,)) or _is_numpy(fn) else name)

    def ref(self, t: Tensor) -> str:
        if not any(t.id in scope for scope in self._defined):
            raise StagingError(
                f"{where(t.node.origin)}: a value computed here, inside a branch or loop body, "
                "is used outside it. Only variables that the `if` or loop assigns are carried "
                "out of it: assign the value to a variable in the body (not to an object "
                "attribute or container that autoconv does not track)."
            )
        return f"v{t.id}"

    def expr(self, v) -> str:
        t = type(v)
        if isinstance(v, Tensor):
            return self.ref(v)
        if v is None or t is bool or v is Ellipsis:
            return repr(v)
        if t is int:
            return repr(v) if v >= 0 else f"({v!r})"
        if t is float and math.isfinite(v):
            return repr(v) if math.copysign(1.0, v) > 0 else f"({v!r})"
        if t is str:
            return repr(v)
        if t is tuple:
            items = [self.expr(x) for x in v]
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        if t is list:
            return "[" + ", ".join(self.expr(x) for x in v) + "]"
        if t is dict:
            return "{" + ", ".join(f"{self.expr(k)}: {self.expr(x)}" for k, x in v.items()) + "}"
        if t is slice:
            return f"slice({self.expr(v.start)}, {self.expr(v.stop)}, {self.expr(v.step)})"
        return self.bind(v)

    def subscript_item(self, v) -> str:
        if type(v) is slice:
            parts = [
                self.expr(v.start) if v.start is not None else "",
                self.expr(v.stop) if v.stop is not None else "",
            ]
            if v.step is not None:
                parts.append(self.expr(v.step))
            return ":".join(parts)
        return self.expr(v)

    def call_args(self, args, kwargs) -> str:
        parts = [self.expr(a) for a in args]
        parts += [f"{k}={self.expr(v)}" for k, v in kwargs.items()]
        return ", ".join(parts)

    def output(self, value) -> str:
        if isinstance(value, Tensor):
            return self.ref(value)
        t = type(value)
        if t is tuple:
            items = [self.output(x) for x in value]
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        if t is list:
            return "[" + ", ".join(self.output(x) for x in value) + "]"
        if t is dict:
            return (
                "{" + ", ".join(f"{self.expr(k)}: {self.output(x)}" for k, x in value.items()) + "}"
            )
        if isinstance(value, tuple) and hasattr(t, "_fields"):
            return f"{self.bind(t, t.__name__)}(" + ", ".join(self.output(x) for x in value) + ")"
        if t is np.ndarray:
            return f"{self.bind(value)}.copy()"
        from autoconv.graph.staging import check_output

        check_output(value)
        return self.expr(value)

    # --- statements -----------------------------------------------------------------------
    def emit(self, indent: int, text: str, node: Node | None):
        self.lines.append("    " * indent + text)
        if node is not None:
            self.line_nodes[len(self.lines)] = node

    def define(self, tensors):
        self._defined[-1].update(t.id for t in tensors)

    def block(self, block: Block, indent: int):
        start = len(self.lines)
        for node in self.kept.get(id(block), ()):
            self.node(node, indent)
        return len(self.lines) > start

    def outs(self, node) -> str:
        return ", ".join(f"v{t.id}" for t in node.outputs)

    def node(self, node: Node, indent: int):
        kind = node.kind
        method = getattr(self, "node_" + kind, None)
        if method is not None:
            method(node, indent)
            self.define(node.outputs)
            return
        args, kwargs = node.args, node.kwargs
        if kind in ("call", "helper"):
            rhs = f"{self.fn(node.fn)}({self.call_args(args, kwargs)})"
        elif kind == "binop":
            rhs = f"{self.expr(args[0])} {node.fn} {self.expr(args[1])}"
        elif kind == "unop":
            rhs = (
                f"abs({self.expr(args[0])})"
                if node.fn == "abs"
                else f"{node.fn}{self.expr(args[0])}"
            )
        elif kind == "getitem":
            key = args[1]
            if node.attrs.get("tuple"):
                items = [self.subscript_item(k) for k in key]
                sub = ", ".join(items) + ("," if len(items) == 1 else "")
            else:
                sub = self.subscript_item(key)
            rhs = f"{self.expr(args[0])}[{sub}]"
        elif kind == "method":
            rhs = f"{self.expr(args[0])}.{node.fn}({self.call_args(args[1:], kwargs)})"
        elif kind == "attr":
            rhs = f"{self.expr(args[0])}.{node.fn}"
        elif kind == "const":
            rhs = self.expr(node.attrs["value"])
        elif kind == "read":
            rhs = f"{self.bind(node.attrs['variable'], 'var')}._value"
        else:
            raise AssertionError(f"unknown node kind {kind!r}")
        if node.outputs:
            self.emit(indent, f"{self.outs(node)} = {rhs}", node)
        else:
            self.emit(indent, rhs, node)
        self.define(node.outputs)

    def node_assign(self, node, indent):
        var = self.bind(node.attrs["variable"], "var")
        value = self.expr(node.args[0])
        if node.attrs.get("direct"):
            self.emit(indent, f"{var}._value = {value}", node)
        else:
            self.emit(indent, f"{var}._set({value})", node)

    def node_print(self, node, indent):
        self.emit(indent, f"print_({self.call_args(node.args, node.kwargs)})", node)

    def node_list_new(self, node, indent):
        self.emit(indent, f"{self.outs(node)} = []", node)

    def node_list_append(self, node, indent):
        acc, *items = node.args
        for item in items:
            self.emit(indent, f"{self.expr(acc)}.append({self.expr(item)})", node)
        self.emit(indent, f"{self.outs(node)} = {self.expr(acc)}", node)

    def node_cond(self, node, indent):
        then, orelse = node.blocks
        self.emit(indent, f"if {self.expr(node.args[0])}:", node)
        for i, block in enumerate((then, orelse)):
            if i == 1:
                self.emit(indent, "else:", node)
            self._defined.append(set())
            wrote = self.block(block, indent + 1)
            if node.outputs:
                values = ", ".join(self.expr(v) for v in block.outputs)
                self.emit(indent + 1, f"{self.outs(node)} = {values}", node)
            elif not wrote:
                self.emit(indent + 1, "pass", node)
            self._defined.pop()

    def node_while(self, node, indent):
        cond, body = node.blocks
        params = ", ".join(f"v{t.id}" for t in body.params)
        if body.params:
            inits = ", ".join(self.expr(v) for v in node.args)
            self.emit(
                indent,
                f"{params}{',' if len(body.params) == 1 else ''} = "
                f"{inits}{',' if len(body.params) == 1 else ''}",
                node,
            )
        self.define(body.params)
        self.emit(indent, "while True:", node)
        self._defined.append(set())
        self.block(cond, indent + 1)
        self.emit(indent + 1, f"if not {self.expr(cond.outputs[0])}:", node)
        self.emit(indent + 2, "break", node)
        self.block(body, indent + 1)
        n = len(body.params)
        if n:
            values = ", ".join(self.expr(v) for v in body.outputs[:n])
            self.emit(
                indent + 1,
                f"{params}{',' if n == 1 else ''} = {values}{',' if n == 1 else ''}",
                node,
            )
        if node.attrs.get("stop"):
            self.emit(indent + 1, f"if {self.expr(body.outputs[n])}:", node)
            self.emit(indent + 2, "break", node)
        self._defined.pop()
        if node.outputs:
            self.emit(
                indent,
                f"{self.outs(node)}{',' if n == 1 else ''} = {params}{',' if n == 1 else ''}",
                node,
            )


def _is_numpy(fn) -> bool:
    module = getattr(fn, "__module__", None) or ""
    return module == "numpy" or module.startswith("numpy.")


def describe(t: Tensor) -> str:
    return format_spec(t.shape, t.dtype)
