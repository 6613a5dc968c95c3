"""Rich display in notebooks: `_repr_html_` of `Function`, `ConcreteFunction`, `Graph`,
`LoadedFunction`, `Variable` and `TensorSpec`.

A function or graph shows its signature(s), a picture of the graph (inline SVG made by
Graphviz's `dot` when it is installed) and the listing (`as_text()`). Without `dot`, or for a
graph too large to draw quickly, the listing alone (without `dot`, once per session, how to
install it). The HTML is self-contained (inline styles, no scripts) and escapes every piece of
text that comes from user code.
"""

from __future__ import annotations

import html
import shutil
import subprocess

from autoconv.code import PRE_STYLE
from autoconv.graph.graph import views, walk

MAX_DRAWN_OPERATIONS = 400  # larger graphs show the listing only: `dot` would take long
_DOT_TIMEOUT_S = 20
_BOX = "font-family:Helvetica,Arial,sans-serif;font-size:13px"


def svg(dot_source: str) -> str | None:
    """`dot_source` rendered to an SVG element by Graphviz, or None without a working `dot`."""
    exe = shutil.which("dot")
    if exe is None:
        return None
    try:
        done = subprocess.run(
            [exe, "-Tsvg"],
            input=dot_source,
            capture_output=True,
            text=True,
            timeout=_DOT_TIMEOUT_S,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    start = done.stdout.find("<svg")
    # The XML prolog and DOCTYPE are not allowed inside HTML; the <svg> element is.
    return done.stdout[start:] if start >= 0 else None


def _pre(text: str) -> str:
    return f'<pre style="{PRE_STYLE}">{html.escape(text)}</pre>'


def _picture(graph) -> str:
    count = sum(1 for _ in walk(graph.block))
    if count > MAX_DRAWN_OPERATIONS:
        return (
            f"<p><i>{count} operations: too many to draw here; "
            "<code>to_dot()</code> gives the picture.</i></p>"
        )
    drawn = svg(graph.to_dot())
    if drawn is None:
        return _how_to_draw()
    # Scale down wide pictures to the cell; keep small ones at their natural size.
    drawn = drawn.replace("<svg", '<svg style="max-width:100%;height:auto"', 1)
    return f'<div style="margin:6px 0">{drawn}</div>'


_TOLD = []  # whether a display has said how to get pictures (once per session)


def _how_to_draw() -> str:
    """Once per session, without Graphviz's `dot`: how to get the picture."""
    if _TOLD or shutil.which("dot") is not None:
        return ""
    _TOLD.append(True)
    return (
        "<p><i>Install Graphviz to see a picture of the graph here (its <code>dot</code> "
        "program: <code>apt install graphviz</code>, <code>brew install graphviz</code> or "
        "<code>conda install graphviz</code>); <code>to_dot()</code> gives its DOT text.</i></p>"
    )


def graph_body(graph) -> str:
    """The picture (when `dot` is available) and the listing of `graph`."""
    return _picture(graph) + _pre(graph.as_text())


def graph_html(graph) -> str:
    """`Graph._repr_html_`."""
    head = f"<b>autoconv.Graph</b> <code>{html.escape(graph.name)}</code>"
    return f'<div style="{_BOX}">{head}{graph_body(graph)}</div>'


def concrete_html(concrete) -> str:
    """`ConcreteFunction._repr_html_`: the signature, then the graph that runs (optimized)."""
    head = "<b>autoconv.ConcreteFunction</b>"
    return (
        f'<div style="{_BOX}">{head}{_pre(concrete.pretty_printed_signature())}'
        f"{graph_body(concrete.optimized_graph)}</div>"
    )


def function_html(function) -> str:
    """`Function._repr_html_`: the name and trace count, then each traced signature with its
    graph (the first one open)."""
    count = function.tracing_count
    head = (
        f"<b>autoconv.Function</b> <code>{html.escape(function._name)}</code> "
        f"({count} trace{'' if count == 1 else 's'})"
    )
    concretes = list(function._concretes)
    if not concretes:
        body = (
            "<p>Not traced yet: call it, or use <code>get_concrete_function(...)</code> with "
            "arguments or <code>TensorSpec</code>s.</p>"
        )
    else:
        parts = []
        for i, concrete in enumerate(concretes):
            title = html.escape(concrete.pretty_printed_signature().splitlines()[0])
            parts.append(
                f"<details{' open' if i == 0 else ''}><summary><code>{title}</code></summary>"
                f"{_pre(concrete.pretty_printed_signature())}"
                f"{graph_body(concrete.optimized_graph)}</details>"
            )
        body = "".join(parts)
    return f'<div style="{_BOX}">{head}{body}</div>'


def variable_html(variable) -> str:
    """`Variable._repr_html_`: its name, dtype and shape, and its current value."""
    head = (
        f"<b>autoconv.Variable</b> <code>{html.escape(str(variable.name))}</code> "
        f"{html.escape(variable.dtype.name)}{html.escape(str(list(variable.shape)))}"
    )
    return f'<div style="{_BOX}">{head}{_pre(repr(variable.numpy()))}</div>'


def spec_html(spec) -> str:
    """`TensorSpec._repr_html_`: `float32[None, 3]` and its name."""
    name = "" if spec.name is None else f" <i>{html.escape(str(spec.name))}</i>"
    head = f"<b>autoconv.TensorSpec</b> <code>{html.escape(str(spec))}</code>"
    return f'<div style="{_BOX}">{head}{name}</div>'


def loaded_html(loaded) -> str:
    """`LoadedFunction._repr_html_`: the name and file, then each saved signature with its
    graph (the first one open), then its Variables."""
    count = len(loaded.signatures)
    head = (
        f"<b>autoconv.LoadedFunction</b> <code>{html.escape(loaded.name)}</code> "
        f"({count} signature{'' if count == 1 else 's'}, from "
        f"<code>{html.escape(str(loaded.path))}</code>)"
    )
    parts = []
    for i, (signature, entry) in enumerate(zip(loaded.signatures, loaded._entries)):
        title = html.escape(signature.splitlines()[0])
        parts.append(
            f"<details{' open' if i == 0 else ''}><summary><code>{title}</code></summary>"
            f"{_pre(signature)}{graph_body(entry.graph)}</details>"
        )
    variables = "".join(
        f"<li><code>{html.escape(str(v.name))}</code>: {html.escape(repr(v.numpy()))}</li>"
        for v in loaded.variables
    )
    if variables:
        parts.append(f"<p>Variables:</p><ul>{variables}</ul>")
    return f'<div style="{_BOX}">{head}{"".join(parts)}</div>'


views.graph_html = graph_html  # Graph._repr_html_ (graph.py imports this module not)
