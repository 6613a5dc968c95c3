"""`ConcreteFunction.profile`: where the time goes when a graph runs, per operation and per
line of the user's code.

The graph runs as generated Python, one statement per operation (or a few operations, when
the executor writes an operand into the statement that reads it). A line tracer, installed
only for the generated code's frames, times each statement from its start to the next one;
NumPy's own work inside a statement counts for that statement. The tracer adds a fixed cost
per statement (about a microsecond), so on tiny arrays the shares flatten out: compare shares
on realistic sizes, and `per_run_s` (measured without the tracer) for the absolute time.
"""

from __future__ import annotations

import html
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field

from autoconv.graph.listing import _op_text, _origin, _short, _structure
from autoconv.graph.origin import source_text


@dataclass
class Row:
    """One line of a profile: what ran, where in the user's code, how often, how long."""

    what: str
    where: str
    calls: int
    seconds: float
    share: float = 0.0
    nodes: list = field(default_factory=list, repr=False)


class Profile:
    """The result of `ConcreteFunction.profile`: `operations` and `lines` (lists of `Row`,
    largest total first), `runs`, `per_run_s` (seconds per untraced run). `str()` gives plain
    text tables, notebooks show HTML tables."""

    def __init__(self, name: str, runs: int, per_run_s: float, operations: list, lines: list):
        self.name = name
        self.runs = runs
        self.per_run_s = per_run_s
        self.operations = operations
        self.lines = lines

    def _head(self) -> str:
        return (
            f"profile of {self.name}: {self.runs} runs, "
            f"{_time(self.per_run_s)} per run (without the profiler)"
        )

    def __str__(self) -> str:
        out = [self._head(), ""]
        for title, rows in (("per operation", self.operations), ("per line", self.lines)):
            out.append(f"{title}:")
            kind = "operation" if title == "per operation" else "line"
            out.append(f"{'share':>7} {'total':>10} {'calls':>7}  {kind}")
            for r in rows:
                label = f"{r.what}  ({r.where})" if r.where and r.what != r.where else r.what
                out.append(f"{r.share:>6.1%} {_time(r.seconds):>10} {r.calls:>7}  {label}")
            out.append("")
        return "\n".join(out)

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        printer.text(str(self))  # IPython's plain display: the tables

    def __repr__(self) -> str:
        return f"<autoconv Profile {self.name}: {len(self.operations)} operations>"

    def _repr_html_(self) -> str:
        cell = "padding:2px 8px;text-align:right;min-width:4em;font-variant-numeric:tabular-nums"
        left = "padding:2px 8px;text-align:left;font-family:monospace"
        parts = [f"<p><b>{html.escape(self._head())}</b></p>"]
        for title, rows, first in (
            ("Per operation", self.operations, "operation"),
            ("Per line", self.lines, "line"),
        ):
            parts.append(
                f'<table style="border-collapse:collapse;font-size:12px">'
                f'<caption style="text-align:left">{title}</caption><thead><tr>'
                f'<th style="{cell}">share</th><th style="{cell}">total</th>'
                f'<th style="{cell}">calls</th><th style="{left}">{first}</th>'
                f'<th style="{left}">where</th></tr></thead><tbody>'
            )
            for r in rows:
                bar = f"background:linear-gradient(90deg,#cfe2ff {r.share:.1%},transparent 0)"
                parts.append(
                    f'<tr><td style="{cell};{bar}">{r.share:.1%}</td>'
                    f'<td style="{cell}">{_time(r.seconds)}</td><td style="{cell}">{r.calls}</td>'
                    f'<td style="{left}">{html.escape(r.what)}</td>'
                    f'<td style="{left}">{html.escape(r.where)}</td></tr>'
                )
            parts.append("</tbody></table>")
        return "<div>" + "".join(parts) + "</div>"


def _time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.3f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds * 1e6:.1f} µs"


def _line_nodes(program, lineno: int) -> list:
    """The nodes a generated line runs: those written into it as operands, then its own."""
    nodes = []
    main = program.line_nodes.get(lineno)
    for _, _, inner in program.line_spans.get(lineno, ()):
        if inner is not main and all(inner is not n for n in nodes):
            nodes.append(inner)
    if main is not None:
        nodes.append(main)
    return nodes


# The executor's names: `v7` holds the listing's %7; constants are bound as `c`, `c_2`, ...
_VALUE_NAME = re.compile(r"\bv(\d+)\b")
_CONSTANT_NAME = re.compile(r"\bc(?:_\d+)?\b")


def _in_listing_words(code: str, bound: dict) -> str:
    """A generated statement with the listing's `%n` names and constants' values."""
    code = _VALUE_NAME.sub(r"%\1", code)

    def constant(m):
        value = bound.get(m[0], bound)
        return m[0] if value is bound or callable(value) else _short(value)

    return _CONSTANT_NAME.sub(constant, code)


def _describe(node, code: str, bound: dict) -> str:
    if node.kind in ("cond", "while") or code.startswith("with "):
        # Moving loop variables, testing, branching, taking the lock of the Variable that the
        # node updates: the generated statement says which.
        return f"{node.kind}: {_in_listing_words(code, bound)}"
    outs = ", ".join(f"%{t.id}" for t in node.outputs)
    return f"{outs + ' = ' if outs else ''}{_op_text(node, as_written=True)}"


def profile(concrete, args: tuple, kwargs: dict, runs: int) -> Profile:
    """Runs `concrete(*args, **kwargs)` `runs` times untraced, then `runs` times with a line
    tracer on its generated code; returns the `Profile`."""
    if runs < 1:
        raise ValueError(f"profile: runs must be at least 1, got {runs}")
    program = concrete._program
    filename = program.filename
    concrete(*args, **kwargs)  # warm up (first-call allocations, caches)
    start = time.perf_counter()
    for _ in range(runs):
        concrete(*args, **kwargs)
    per_run = (time.perf_counter() - start) / runs

    totals: dict = defaultdict(float)
    calls: dict = defaultdict(int)
    current: dict = {}  # frame -> (line, start time) of the statement running in it
    clock = time.perf_counter

    def local(frame, event, arg):
        now = clock()
        running = current.get(frame)
        if running is not None:
            totals[running[0]] += now - running[1]
        if event == "line":
            calls[frame.f_lineno] += 1
            current[frame] = (frame.f_lineno, clock())
        elif event == "return":
            current.pop(frame, None)
        elif running is not None:
            current[frame] = (running[0], clock())
        return local

    def calls_into(frame, event, arg):
        return local if frame.f_code.co_filename == filename else None

    previous = sys.gettrace()
    sys.settrace(calls_into)
    try:
        for _ in range(runs):
            concrete(*args, **kwargs)
    finally:
        sys.settrace(previous)

    source_lines = program.source.splitlines()
    bound = getattr(program, "bound", {})
    graph = getattr(program, "graph", None)
    operations = []
    for lineno, seconds in totals.items():
        nodes = _line_nodes(program, lineno)
        code = source_lines[lineno - 1].strip()
        if nodes:
            what = "; ".join(_describe(n, code, bound) for n in nodes)
            where = _origin(nodes[0])
        elif code.startswith("return ") and graph is not None:
            # The `return` line (copies and the output structure), as the listing ends.
            what = f"return {_structure(graph.outputs)}"
            where = ""
        else:
            what = _in_listing_words(code, bound)
            where = ""
        operations.append(Row(what, where, calls[lineno] // runs, seconds / runs, nodes=nodes))
    total = sum(r.seconds for r in operations) or 1.0
    by_line: dict = {}
    for r in operations:
        origin = r.nodes[0].origin if r.nodes else None
        row = by_line.get(origin)
        if row is None:
            text = source_text(origin) if origin else "(returning the outputs)"
            row = by_line[origin] = Row(text or r.where, r.where, 0, 0.0)
        row.calls = max(row.calls, r.calls)
        row.seconds += r.seconds
        row.nodes += r.nodes
    lines = list(by_line.values())
    for rows in (operations, lines):
        for r in rows:
            r.share = r.seconds / total
        rows.sort(key=lambda r: -r.seconds)
    return Profile(concrete.function._name, runs, per_run, operations, lines)
