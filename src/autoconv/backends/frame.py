"""The program frame both code generators (the NumPy executor, the JAX lowering) share.

A generated program is the source of a module that defines

    def make_run(
        c0,  # what the bound value is
        ...
    ):
        def run(v0, v1):
            ...
        return run

whose parameters are the values the code reads by name (functions, constants, Variables), so
that `run` reads them as closure variables. The frame names those parameters (`Parameters`)
and the program's file (`<autoconv ...>`, which `autoconv.tracebacks` knows as autoconv's),
registers the source in `linecache` while the program exists, refuses source that is not
printable ASCII (`literals.check_source`), compiles it and makes `run`, and finds the graph node
of the generated line an exception was raised at.
"""

from __future__ import annotations

import builtins
import itertools
import keyword
import linecache
import re
import weakref

from autoconv.backends.literals import ascii_text, check_source

_counter = itertools.count()
_UNSAFE = re.compile(r"[^0-9a-zA-Z_]")


class Parameters:
    """`make_run`'s parameters: a name for each value the generated code reads (one per value
    and hint), and `bound`, the values by name in binding order."""

    def __init__(self, reserved, ours: str, builtins_kept: bool):
        """`reserved`: names the module or the generated functions define; `ours`: a pattern of
        the names the generator writes itself; `builtins_kept`: a builtin bound as itself may
        keep its name."""
        self.bound: dict = {}
        self._names: dict = {}  # (id(value), hint) -> name
        self._reserved = reserved
        self._ours = re.compile(ours)
        self._builtins_kept = builtins_kept

    def bind(self, value, hint="c") -> str:
        """The name (made from `hint`) under which `run` sees `value`."""
        key = (id(value), hint)
        name = self._names.get(key)
        if name is None:
            base = _UNSAFE.sub("_", hint) or "c"
            if base[0].isdigit():
                base = "c_" + base
            name = base
            kept = self._builtins_kept and getattr(builtins, base, None) is value
            if (
                base in self.bound
                or keyword.iskeyword(base)
                or base in self._reserved
                or self._ours.fullmatch(base)
                or (hasattr(builtins, base) and not kept)
            ):
                name = f"{base}_{len(self._names)}"
            self._names[key] = name
            self.bound[name] = value
        return name


class ProgramFrame:
    """Base of a backend's program: `filename`, `source`, and the node of each generated line
    (`line_nodes`; `line_spans`: on a line holding several nodes' expressions, the columns of
    each, as `(first, end, node)`)."""

    def __init__(self, kind: str, name):
        self.filename = f"<autoconv {kind} {ascii_text(str(name))} #{next(_counter)}>"
        self.source = ""
        self.line_nodes: dict = {}
        self.line_spans: dict = {}
        # Tracebacks show the generated lines while the program exists; then its entry goes
        # (linecache never drops entries without a file, and each trace adds one).
        weakref.finalize(self, linecache.cache.pop, self.filename, None)

    def make_run(self, lines, bound: dict, line_nodes, line_spans=None, describe=None, names=None):
        """Compiles `lines` (`def run(...):` and the functions it calls) inside `make_run`, whose
        parameters are `bound`'s names, and returns `run` made with `bound`'s values.
        `line_nodes`/`line_spans` count lines and columns in `lines`. `describe(value)`: the
        comment after a parameter. `names`: the module's own names (helpers the code calls).
        A program may call this again (the JAX one compiles again): the new source replaces
        the old one under the same file name."""
        header = ["def make_run("]
        for name, value in bound.items():
            comment = f"  # {ascii_text(describe(value))}" if describe is not None else ""
            header.append(f"    {name},{comment}")
        header.append("):")
        at = len(header)
        body = ["    " + line for line in lines] + ["    return run"]
        self.source = source = "\n".join(header + body) + "\n"
        self.line_nodes = {n + at: node for n, node in line_nodes.items()}
        self.line_spans = {
            n + at: [(a + 4, b + 4, node) for a, b, node in spans]
            for n, spans in (line_spans or {}).items()
        }
        linecache.cache[self.filename] = (len(source), None, source.splitlines(True), self.filename)
        check_source(source)
        module = {"__builtins__": builtins, **(names or {})}
        exec(compile(source, self.filename, "exec"), module)  # noqa: S102 - our own code
        return module["make_run"](*bound.values())

    def node_of(self, exc: BaseException):
        """The node whose line of the generated code raised `exc` (the innermost), or None."""
        tb = exc.__traceback__
        node = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                node = self._node_at(tb) or node
            tb = tb.tb_next
        return node

    def _node_at(self, tb):
        """The node of the instruction a traceback entry stopped at: the node of its line, or
        on a line with inlined expressions, the innermost one whose columns hold it."""
        node = self.line_nodes.get(tb.tb_lineno)
        spans = self.line_spans.get(tb.tb_lineno)
        positions = getattr(tb.tb_frame.f_code, "co_positions", None)
        if spans and positions is not None:
            try:
                _, _, col, end = list(positions())[tb.tb_lasti // 2]
            except (IndexError, ValueError):
                return node
            inside = [s for s in spans if col is not None and s[0] <= col and end <= s[1]]
            if inside:
                return min(inside, key=lambda s: s[1] - s[0])[2]
        return node
