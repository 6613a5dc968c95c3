"""The readable listing of a graph, `as_text()` (one operation per line); `to_dot()` is in
`autoconv.graph.dot`."""

from __future__ import annotations

import numpy as np

from autoconv.graph.graph import Block, Graph, Node, views
from autoconv.graph.helpers import Mixed
from autoconv.graph.tensor import Tensor, format_spec
from autoconv.locations import describe


def _short(v) -> str:
    if isinstance(v, Tensor):
        return f"%{v.id}"
    if isinstance(v, (np.ndarray, np.generic)) and v.ndim == 0:
        return f"{v.dtype.name}({v.item()!r})"
    if isinstance(v, np.ndarray):
        if v.size > 6:
            return f"array({format_spec(v.shape, v.dtype)})"
        # One line (a 2-d array prints a row a line), so the listing's columns hold.
        return np.array2string(v, separator=",", max_line_width=10**6).replace("\n", "")
    if type(v) in (tuple, list):
        inner = ", ".join(_short(x) for x in v)
        return f"({inner}{',' if len(v) == 1 else ''})" if type(v) is tuple else f"[{inner}]"
    if type(v) is slice:
        # `2:` (not `2`, an index), `:3`, `::2`, `:`: the slice as it is written.
        parts = ["" if x is None else _short(x) for x in (v.start, v.stop)]
        if v.step is not None:
            parts.append(_short(v.step))
        return ":".join(parts)
    if isinstance(v, np.dtype):
        return v.name
    if isinstance(v, type):
        return v.__name__
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _origin(node: Node) -> str:
    if node.origin is None:
        return ""
    return describe(*node.origin, short=True)


def _op_text(node: Node, as_written: bool = False) -> str:
    """The operation as the listing shows it; with `as_written`, a call a pass lowered
    (`np.sum` run as `add.reduce`) as the user wrote it."""
    if as_written and "written" in node.attrs:
        return node.attrs["written"]
    args = [_short(a) for a in node.args] + [f"{k}={_short(v)}" for k, v in node.kwargs.items()]
    if node.kind == "read":
        return f"read {node.attrs['variable'].name}"
    if node.kind == "assign":
        return f"assign {node.attrs['variable'].name} <- {args[0]}"
    if node.kind == "const":
        return f"const {_short(node.attrs['value'])}"
    if node.kind == "placeholder":
        return f"placeholder {node.attrs.get('name', '')}"
    if node.kind == "binop":
        return f"{args[0]} {node.fn} {args[1]}"
    if node.kind == "getitem":
        key = node.args[1]
        items = key if node.attrs.get("tuple") else (key,)
        return f"{args[0]}[{', '.join(_short(k) for k in items)}]"
    if node.kind in ("method", "attr"):
        rest = ", ".join(args[1:])
        return f"{args[0]}{node.op}" + ("" if node.kind == "attr" else f"({rest})")
    return f"{node.op}({', '.join(args)})"


def _lines(block: Block, indent: int, out: list):
    pad = "  " * indent
    for node in block.nodes:
        outs = ", ".join(f"%{t.id}" for t in node.outputs)
        head = f"{pad}{outs + ' = ' if outs else ''}{_op_text(node)}"
        if "inplace" in node.attrs:
            head += f"  (into {_short(node.args[node.attrs['inplace']])})"
        spec = ", ".join(format_spec(t.shape, t.dtype, t.weak) for t in node.outputs)
        origin = _origin(node)
        out.append(f"{head:<56} {spec:<24} {origin}".rstrip())
        if node.kind == "cond":
            for label, sub in zip(("then", "else"), node.blocks):
                out.append(f"{pad}  {label}:")
                _lines(sub, indent + 2, out)
                out.append(f"{pad}    yield {', '.join(_short(v) for v in sub.outputs)}")
        elif node.kind == "while":
            cond, body = node.blocks
            out.append(f"{pad}  loop vars: {', '.join(_short(p) for p in body.params)}")
            out.append(f"{pad}  test:")
            _lines(cond, indent + 2, out)
            out.append(f"{pad}    yield {_short(cond.outputs[0])}")
            out.append(f"{pad}  body:")
            _lines(body, indent + 2, out)
            out.append(f"{pad}    yield {', '.join(_short(v) for v in body.outputs)}")


def _structure(value) -> str:
    if isinstance(value, Tensor):
        return f"%{value.id}"
    if isinstance(value, Mixed):  # a number whose Python type depends on the path taken
        kinds = " or ".join(
            "a NumPy value" if k is None else f"a Python {k.__name__}" for k in value.kinds
        )
        return f"{_structure(value.value)} ({kinds}, by {_short(value.tag)})"
    if all(hasattr(value, a) for a in ("flag", "value", "missing")):  # an Optional output
        missing = "None" if value.missing is None else "unbound"
        return f"{_structure(value.value)} (or {missing} where not {_short(value.flag)})"
    if isinstance(value, (tuple, list)):
        inner = ", ".join(_structure(v) for v in value)
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_structure(v)}" for k, v in value.items()) + "}"
    return _short(value)


def as_text(graph: Graph) -> str:
    params = ", ".join(
        f"%{t.id} {name}: {format_spec(t.shape, t.dtype)}"
        for t, name in zip(graph.inputs, graph.input_names)
    )
    out = [f"graph {graph.name}({params}):"]
    _lines(graph.block, 1, out)
    out.append(f"  return {_structure(graph.outputs)}")
    return "\n".join(out) + "\n"


views.as_text = as_text  # Graph.as_text (graph.py imports this module not)
