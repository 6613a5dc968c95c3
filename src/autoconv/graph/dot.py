"""`to_dot()`: a Graphviz picture of a graph that a person can follow through control flow.

Inputs are green houses at the top, the outputs one blue house at the bottom. Each operation
is a box that says what it computes (`%3 = %0 * 2.0`, with literal values written out), its
result's shape and dtype and the user's line; constants are ellipses showing their value.
Edges carry the listing's `%N` names, so the picture and `as_text()` can be read together.

A conditional is a cluster `if (file:line)` holding a `then` and an `else` cluster: an edge
runs from the `if` node (which reads the predicate) into each branch, and from each branch's
`yield` out to the merge node whose results the rest of the graph reads. A loop is a cluster
`while (file:line)`: its initial values enter a `loop vars` node, which the `test` and `body`
clusters read; the test's `yield` goes on into the body (true) or out of the loop (false), the
body's `yield` goes back to `loop vars` (next iteration) and, for a loop with `break`, out.

Operations that nothing needs (the ones dead-code elimination drops) are not drawn unless
`dead=True`, which draws them greyed out.
"""

from __future__ import annotations

import itertools

from autoconv.graph.graph import Block, Graph, Node, tensors_in, views
from autoconv.graph.listing import _op_text, _origin, _short, _structure
from autoconv.graph.tensor import format_spec

_MAX_LABEL = 48


def _q(text: str) -> str:
    """`text` as the inside of a DOT string (quotes and backslashes escaped, lines joined by
    DOT's centred line break)."""
    text = text.replace("\\", "\\\\").replace('"', '\\"')
    return "\\n".join(text.splitlines() or [""])


def _clip(text: str) -> str:
    """Each line of `text` cut to a readable width."""
    return "\n".join(
        line if len(line) <= _MAX_LABEL else line[: _MAX_LABEL - 3] + "..."
        for line in text.splitlines()
    )


# A ufunc's reduce and accumulate take (array, axis, dtype, out) by position; NumPy's dispatch
# passes all four, and `add.reduce(%0, None, None, None)` hides that `axis=None` is the point.
_UFUNC_METHOD_PARAMS = ("axis", "dtype", "out")


def _label(node: Node) -> str:
    """What the operation computes, as the listing writes it, but with a ufunc reduction's
    positional arguments named and its default `None`s left out (`add.reduce(%0, axis=None)`)."""
    if node.kind != "call" or not str(node.op).endswith((".reduce", ".accumulate")):
        return _op_text(node)
    args = [_short(node.args[0])] if node.args else []
    for name, value in zip(_UFUNC_METHOD_PARAMS, node.args[1:]):
        if value is not None or name == "axis":
            args.append(f"{name}={_short(value)}")
    args += [f"{k}={_short(v)}" for k, v in node.kwargs.items()]
    return f"{node.op}({', '.join(args)})"


def _specs(tensors) -> str:
    return ", ".join(format_spec(t.shape, t.dtype, t.weak) for t in tensors)


class _Drawer:
    def __init__(self, graph: Graph, dead: bool):
        from autoconv.graph.passes.dce import live_nodes

        self.graph = graph
        self.live = None if dead else live_nodes(graph)
        self.dead_ids: set = set()
        if dead:
            kept = live_nodes(graph)
            self.dead_ids = {id(n) for n in graph.walk()} - {
                id(n) for nodes in kept.values() for n in nodes
            }
        self.lines: list[str] = []
        # Edges are written after every node: a node named in an edge inside a cluster would
        # become a member of that cluster.
        self.edges: list[str] = []
        self.source: dict = {}  # tensor id -> DOT node that produces it
        self.ids = itertools.count()

    def fresh(self, prefix: str) -> str:
        return f"{prefix}{next(self.ids)}"

    def out(self, pad: str, text: str) -> None:
        self.lines.append(pad + text)

    def edge(self, pad: str, tensor, target: str, extra: str = "") -> None:
        src = self.source.get(tensor.id)
        if src is None:
            return
        line = f'  {src} -> {target} [label="%{tensor.id}"{extra}];'
        if line not in self.edges:  # a value read twice by one operation: one edge
            self.edges.append(line)

    def link(self, text: str) -> None:
        self.edges.append(f"  {text}")

    def nodes_of(self, block: Block) -> list:
        if self.live is None:
            return block.nodes
        return self.live.get(id(block), [])

    def draw(self) -> str:
        g = self.graph
        self.out("", f'digraph "{_q(g.name)}" {{')
        self.out(
            "  ",
            "graph [compound=true, rankdir=TB, fontname=Helvetica, fontsize=11, "
            "labeljust=l, nodesep=0.3, ranksep=0.35];",
        )
        self.out("  ", "node [shape=box, style=rounded, fontname=monospace, fontsize=10];")
        self.out("  ", "edge [fontname=monospace, fontsize=8, color=gray35];")
        for t, name in zip(g.inputs, g.input_names):
            nid = f"in{t.id}"
            self.source[t.id] = nid
            label = _q(f"input {name}\n{format_spec(t.shape, t.dtype)}")
            self.out(
                "  ",
                f'{nid} [label="{label}", shape=invhouse, style=filled, fillcolor="#d9f2d9"];',
            )
        self.block(g.block, "  ")
        label = _q(_clip(f"return {_structure(g.outputs)}"))
        self.out("  ", f'output [label="{label}", shape=house, style=filled, fillcolor="#d6e6ff"];')
        for t in tensors_in(g.outputs):
            self.edge("  ", t, "output")
        self.lines += self.edges
        self.out("", "}")
        return "\n".join(self.lines) + "\n"

    def block(self, block: Block, pad: str) -> str | None:
        """Draws the nodes of `block`; returns the DOT name of its first node (or None)."""
        first = None
        for node in self.nodes_of(block):
            if node.kind == "cond":
                name = self.cond(node, pad)
            elif node.kind == "while":
                name = self.loop(node, pad)
            else:
                name = self.op(node, pad)
            first = first or name
        return first

    def op(self, node: Node, pad: str) -> str:
        nid = self.fresh("n")
        spec = _specs(node.outputs)
        style = ""
        if node.kind == "const":
            text = f"{_short(node.attrs['value'])}\n{spec}"
            style = ', shape=ellipse, style=filled, fillcolor="#f2f2f2"'
        else:
            outs = ", ".join(f"%{t.id}" for t in node.outputs)
            text = _clip(f"{outs + ' = ' if outs else ''}{_label(node)}")
            text += f"\n{spec}" if spec else ""
            if node.effect:
                style = ', style="rounded,filled", fillcolor="#fff2cc"'
        origin = _origin(node)
        text += f"\n{origin}" if origin else ""
        if id(node) in self.dead_ids:
            style += ", color=gray70, fontcolor=gray60"
        self.out(pad, f'{nid} [label="{_q(text)}"{style}];')
        for t in node.inputs:
            self.edge(pad, t, nid)
        for t in node.outputs:
            self.source[t.id] = nid
        return nid

    def _merge(self, node: Node, pad: str, what: str) -> str:
        """The node whose results the rest of the graph reads after a conditional or loop."""
        mid = self.fresh("m")
        outs = ", ".join(f"%{t.id}" for t in node.outputs) or "(no results)"
        text = f"{outs} = {what} results"
        spec = _specs(node.outputs)
        text += f"\n{spec}" if spec else ""
        self.out(pad, f'{mid} [label="{_q(_clip(text))}", shape=cds];')
        for t in node.outputs:
            self.source[t.id] = mid
        return mid

    def _yield(self, block: Block, pad: str, text: str, n: int | None = None) -> str:
        """A block's results; with `n`, the first `n` are loop variables and the next one the
        loop's stop (break) flag."""
        yid = self.fresh("y")
        shown = block.outputs if n is None else block.outputs[:n]
        label = _clip(f"{text} {', '.join(_short(v) for v in shown)}".strip())
        if n is not None and len(block.outputs) > n:
            label += f"\nbreak if {_short(block.outputs[n])}"
        self.out(pad, f'{yid} [label="{_q(label)}", shape=plain];')
        for t in tensors_in(list(block.outputs)):
            self.edge(pad, t, yid, ", style=dashed")
        return yid

    def cond(self, node: Node, pad: str) -> str:
        cid = self.fresh("c")
        where = _origin(node)
        self.out(pad, f'subgraph cluster_{cid} {{ label="{_q(f"if ({where})")}"; style=dashed;')
        inner = pad + "  "
        self.out(inner, f'{cid} [label="if", shape=diamond];')
        for t in node.inputs:
            self.edge(inner, t, cid)
        yields = []
        for label, sub in zip(("then", "else"), node.blocks):
            bid = self.fresh("b")
            self.out(inner, f'subgraph cluster_{bid} {{ label="{label}"; style="rounded";')
            first = self.block(sub, inner + "  ")
            y = self._yield(sub, inner + "  ", "yield")
            self.out(inner, "}")
            self.link(f'{cid} -> {first or y} [label="{label}", lhead=cluster_{bid}, style=bold];')
            yields.append(y)
        mid = self._merge(node, inner, "if")
        self.out(pad, "}")
        for y in yields:
            self.link(f"{y} -> {mid} [style=bold];")
        return cid

    def loop(self, node: Node, pad: str) -> str:
        test, body = node.blocks
        wid = self.fresh("w")
        where = _origin(node)
        self.out(pad, f'subgraph cluster_{wid} {{ label="{_q(f"while ({where})")}"; style=dashed;')
        inner = pad + "  "
        params = ", ".join(f"%{p.id}" for p in body.params) or "(none)"
        vars_text = f"loop vars {params}\n{_specs(body.params)}"
        self.out(inner, f'{wid} [label="{_q(_clip(vars_text))}", shape=cds];')
        for t in node.inputs:
            self.edge(inner, t, wid, ', taillabel="enter"')
        for p in body.params:
            self.source[p.id] = wid
        tid, bid = self.fresh("b"), self.fresh("b")
        self.out(inner, f'subgraph cluster_{tid} {{ label="test"; style="rounded";')
        first_test = self.block(test, inner + "  ")
        ty = self._yield(test, inner + "  ", "continue if")
        self.out(inner, "}")
        self.link(f"{wid} -> {first_test or ty} [lhead=cluster_{tid}, style=bold];")
        self.out(inner, f'subgraph cluster_{bid} {{ label="body"; style="rounded";')
        first_body = self.block(body, inner + "  ")
        by = self._yield(body, inner + "  ", "next", len(body.params))
        self.out(inner, "}")
        self.link(f'{ty} -> {first_body or by} [label="true", lhead=cluster_{bid}, style=bold];')
        self.link(
            f'{by} -> {wid} [label="next iteration", style=bold, color=blue, constraint=false];'
        )
        mid = self._merge(node, inner, "while")
        self.out(pad, "}")
        self.link(f'{ty} -> {mid} [label="false", style=bold];')
        if node.attrs.get("stop"):
            self.link(f'{by} -> {mid} [label="break", style=bold, color=red];')
        return wid


def to_dot(graph: Graph, *, dead: bool = False) -> str:
    """`graph` in Graphviz DOT: inputs, operations with their values and lines, control flow
    as labelled clusters with edges in and out, and the outputs (see the module docstring).
    Operations that nothing needs are left out, or greyed out with `dead=True`."""
    return _Drawer(graph, dead).draw()


views.to_dot = to_dot  # Graph.to_dot (graph.py imports this module not)
