"""Runs a graph by generating straight-line Python that calls NumPy.

Each node becomes one line (`v7 = np_sum(v3, axis=0)`, `v8 = v7 + 1`), conditionals become
`if`/`else` blocks and loops `while True:` blocks, inlined in place. The NumPy functions,
constants and Variables the code uses are parameters of an enclosing `make_run` function, so
`run` reads them as local (closure) variables. A call of the graph is then one call of
ordinary Python code with no per-operation interpretation. `Program.source` is the readable
code; an exception raised by a line is reported with the user's file and line of the operation
that line came from.

The executor emits every node of the graph it is given: pruning, folding and the other
optimizations are passes (`autoconv.graph.passes`) that run before it. It writes an elementwise
operation in place when the `inplace` pass marked it (`v5 += c`, `np_maximum(0.0, v5,
out=v5)`), copies results that may share memory with a constant or a Variable before returning
them, and stores a new array straight into a Variable only when nothing else refers to it.

A Variable's update is atomic across threads, as eagerly (see `autoconv.graph.variables`): the
operations from the read of the Variable that the stored value depends on to the store are
written under `with var._lock:` (only the store, when the value does not depend on a read).
Updates whose runs overlap share one `with`; a `with` around a branch or loop also takes the
locks its body would take, so that no thread waits for a lock while it holds another.
"""

from __future__ import annotations

import builtins
import math

import numpy as np

from autoconv.backends import nesting
from autoconv.backends.frame import Parameters, ProgramFrame
from autoconv.backends.literals import call_arguments, literal, subscript
from autoconv.graph.errors import GraphExecutionError, StagingError, execution_error, where
from autoconv.graph.graph import Block, Graph, Node
from autoconv.graph.helpers import Mixed, mixed_output, optional_output
from autoconv.graph.origin import source_text
from autoconv.graph.passes.analysis import (
    BINARY_UFUNCS,
    UNARY_UFUNCS,
    Uses,
    fresh,
    may_alias_state,
    returns_new,
)
from autoconv.graph.tensor import Tensor, format_spec
from autoconv.graph.variables import in_lock_order
from autoconv.trace.tensors.optionals import Optional


class Program(ProgramFrame):
    """The generated executor of a graph: `source`, and `fn(*inputs)` returning the outputs."""

    def __init__(self, graph: Graph):
        super().__init__("graph", graph.name)
        self.graph = graph
        w = _Writer(graph)
        self.bound = w.namespace  # the values the code reads by name (profiles show constants)
        self.fn = self.make_run(w.lines, w.namespace, w.line_nodes, w.line_spans, _describe_bound)

    def rewrite(self, exc: BaseException) -> BaseException:
        """`exc` raised while running, re-made to name the user's file and line of the node."""
        node = self.node_of(exc)
        if node is None or isinstance(exc, GraphExecutionError):
            return exc
        source = _source_line(node.origin)
        if node.attrs.get("raises"):
            # The user's own `raise` (or the error eager Python gives on that path): raised as
            # it is, with a note that says where.
            if hasattr(exc, "add_note"):
                exc.add_note(f"raised by the graph at {where(node.origin)}{source}")
            return exc
        # The same type as eager NumPy's error (a subclass of it that is also a
        # GraphExecutionError), its message led by the user's line and ended by its source
        # text, and NumPy's error chained as the cause.
        message = (
            f"{where(node.origin)}: {node.op} failed while the graph ran: "
            f"{type(exc).__name__}: {exc}{source}"
        )
        return execution_error(exc, message)


def _source_line(origin) -> str:
    """The user's source text at `origin` as a message's last line (`\n    return a + b`), or
    '' when it is unknown."""
    if origin is None:
        return ""
    text = source_text(origin)
    return f"\n    {text}" if text else ""


class _Writer:
    def __init__(self, graph: Graph):
        self.graph = graph
        self.lines: list[str] = []
        self.line_nodes: dict = {}
        params = Parameters(_RESERVED, r"[vc]\d+|_(then|else|test|body)_\w*", builtins_kept=True)
        self.bind = params.bind
        self.namespace = params.bound  # bound name -> value, in binding order
        self.names: dict = {t.id: f"v{t.id}" for t in graph.inputs}
        # id -> (expression as an operand, bare expression, node) of the values written into
        # the statement that reads them
        self.inline: dict = {}
        self._consumed: list = []  # the inlined expressions used by the line being written
        self.line_spans: dict = {}  # line -> [(first column, end column, node)]
        self._defined: list[set] = [set(t.id for t in graph.inputs)]
        self.uses = Uses(graph)
        self.shared = may_alias_state(graph)
        self._held: set = set()  # ids of the Variables whose locks the line being written holds
        self._touched: dict = {}  # id(node) -> (Variables it reads, Variables it assigns)
        # Blocks nested too deeply to write in place (nesting.py): (name, lines, nodes, spans)
        self._functions: list = []
        params = ", ".join(self.names[t.id] for t in graph.inputs)
        self.lines.append(f"def run({params}):")
        self.block(graph.block, 1)
        self.lines.append(f"    return {self.output(graph.outputs)}")
        for _, lines, nodes, spans in self._functions:
            # After `run`, in `make_run`: `run` calls them only once `make_run` has returned.
            at = len(self.lines)
            self.lines += lines
            self.line_nodes.update({n + at: node for n, node in nodes.items()})
            self.line_spans.update({n + at: spans for n, spans in spans.items()})

    # --- names and expressions ------------------------------------------------------------
    def fn(self, fn) -> str:
        name = getattr(fn, "__name__", None) or "fn"
        owner = getattr(fn, "__self__", None)
        if isinstance(owner, np.ufunc):
            return self.bind(fn, f"np_{owner.__name__}_{name}")
        if (getattr(fn, "__module__", None) or "").startswith("numpy.random"):
            return self.bind(fn, "np_random_" + name)  # not to be read as numpy.<name>
        return self.bind(fn, "np_" + name if isinstance(fn, (np.ufunc,)) or _is_numpy(fn) else name)

    def ref(self, t: Tensor) -> str:
        if not any(t.id in scope for scope in self._defined):
            raise StagingError(
                f"{where(t.node.origin if t.node is not None else None)}: a value computed "
                "here, inside a branch or loop body, "
                "is used outside it. Only variables that the `if` or loop assigns are carried "
                "out of it: assign the value to a variable in the body (not to an object "
                "attribute or container that autoconv does not track)."
            )
        inline = self.inline.get(t.id)
        if inline is not None:
            self._consumed.append(inline)
            return inline[0]
        return self.names.get(t.id) or f"v{t.id}"

    def expr(self, v) -> str:
        if isinstance(v, Tensor):
            return self.ref(v)
        text = literal(v, self.expr)
        return text if text is not None else self.bind(v)

    def call_args(self, args, kwargs) -> str:
        return call_arguments(args, kwargs, self.expr)

    def output(self, value) -> str:
        if isinstance(value, Tensor):
            if value.id in self.shared and not value.weak and not _python_object(value):
                # A constant's or Variable's array: the caller gets its own copy.
                if not value.shape:  # (an item of a run-time list may be a Python number)
                    return f"{self.bind(_own_copy, 'own_copy')}({self.ref(value)})"
                return f"{self.ref(value)}.copy()"
            return self.ref(value)
        t = type(value)
        if t is tuple:
            items = [self.output(x) for x in value]
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        if t is list:
            items = [self.output(x) for x in value[:-1]] if value else []
            if value and type(value[-1]).__name__ == "ListAccum":
                # Items a staged loop appended: the run-time list's, after the known ones.
                items.append(f"*{self.ref(value[-1].tensor)}")
            elif value:
                items.append(self.output(value[-1]))
            return "[" + ", ".join(items) + "]"
        if t is dict:
            return (
                "{" + ", ".join(f"{self.expr(k)}: {self.output(x)}" for k, x in value.items()) + "}"
            )
        if isinstance(value, tuple) and hasattr(t, "_fields"):
            return f"{self.bind(t, t.__name__)}(" + ", ".join(self.output(x) for x in value) + ")"
        if t is np.ndarray:
            return f"{self.bind(value)}.copy()"
        if t is Mixed:
            args = [self.output(value.value), self.output(value.tag), self.expr(value.kinds)]
            return f"{self.bind(mixed_output, 'mixed')}({', '.join(args)})"
        if t is Optional:
            args = [self.output(value.flag), self.output(value.value)]
            args += [self.expr(value.missing), self.expr(value.name)]
            return f"{self.bind(optional_output, 'optional')}({', '.join(args)})"
        from autoconv.trace.tensors.accumulated import check_output

        check_output(value)
        return self.expr(value)

    # --- statements -----------------------------------------------------------------------
    def emit(self, indent: int, text: str, node: Node | None):
        line = "    " * indent + text
        self.lines.append(line)
        if node is not None:
            self.line_nodes[len(self.lines)] = node
        if self._consumed:
            # Columns of the inlined expressions on this line, for error reports.
            spans = []
            for _, bare, inner in self._consumed:
                start = line.find(bare)
                if start >= 0:
                    spans.append((start, start + len(bare), inner))
            self.line_spans[len(self.lines)] = spans
            self._consumed = []

    def define(self, tensors):
        for t in tensors:
            self._defined[-1].add(t.id)
            self.names.setdefault(t.id, f"v{t.id}")

    def block(self, block: Block, indent: int, plan: set | None = None):
        start = len(self.lines)
        plan = self._inline_plan(block) if plan is None else plan
        frees = self._frees(block, plan)
        sections = self._locked_sections(block)
        outer_held, end, at = self._held, -1, indent
        for i, node in enumerate(block.nodes):
            if i in sections:
                end, variables = sections[i]
                names = [f"{self.bind(v, 'var')}._lock" for v in variables]
                # (the store's line: a profile counts the wait for the lock as the update's)
                self.emit(indent, f"with {', '.join(names)}:", block.nodes[end])
                self._held = outer_held | {id(v) for v in variables}
                at = indent + 1
            if i in plan:
                # Read once, by the next statement: written into it as an expression.
                out = node.outputs[0]
                bare = self.rhs(node)
                operand = bare if node.kind in _ATOMS else f"({bare})"
                self.inline[out.id] = (operand, bare, node)
                self._defined[-1].add(out.id)
            else:
                self.node(node, at)
                if i in frees:
                    self.emit(at, f"del {', '.join(frees[i])}", None)
            if i == end:
                self._held, at = outer_held, indent
        return len(self.lines) > start

    def _locked_sections(self, block: Block) -> dict:
        """`first index -> (last index, Variables)`: the runs of `block`'s nodes written under
        the Variables' locks (see the module docstring). A run goes from the earliest read of a
        Variable that a store into it depends on (through this block's values) to the store. A
        branch or loop that assigns a Variable is itself a store; when nothing it reads here
        depends on a read of that Variable, its body takes the lock itself (a loop then holds
        it for each update, not for the whole loop)."""
        if not any(self._touches(node)[1] for node in block.nodes):
            return {}  # assigns no Variable
        held = self._held
        first_read: dict = {}  # tensor id -> {Variable id: index of the earliest read}
        spans = []
        for i, node in enumerate(block.nodes):
            reads, assigns = self._touches(node)
            depends: dict = {}
            for t in _reads(node):
                for key, k in first_read.get(t.id, {}).items():
                    depends[key] = min(k, depends.get(key, k))
            for key in assigns:
                if key in held:
                    continue
                if key in depends:
                    spans.append([depends[key], i])
                elif node.kind == "assign":
                    spans.append([i, i])
            for key in reads:
                depends.setdefault(key, i)
            if depends:
                for t in node.outputs:
                    first_read[t.id] = depends
        spans.sort()
        merged: list = []
        for span in spans:
            if merged and span[0] <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], span[1])
            else:
                merged.append(span)
        sections = {}
        for first, last in merged:
            variables = {}
            for node in block.nodes[first : last + 1]:
                variables.update(self._touches(node)[1])
            locks = [v for v in in_lock_order(variables.values()) if id(v) not in held]
            sections[first] = (last, locks)
        return sections

    def _touches(self, node) -> tuple:
        """`(reads, assigns)`: `{id: Variable}` of the Variables `node` reads and assigns, its
        blocks included."""
        found = self._touched.get(id(node))
        if found is None:
            reads, assigns = {}, {}
            if node.kind == "read":
                v = node.attrs["variable"]
                reads[id(v)] = v
            elif node.kind == "assign":
                v = node.attrs["variable"]
                assigns[id(v)] = v
            for sub in node.blocks:
                for inner in sub.nodes:
                    r, a = self._touches(inner)
                    reads.update(r)
                    assigns.update(a)
            found = self._touched[id(node)] = (reads, assigns)
        return found

    def _inlinable(self, node, reader) -> bool:
        """`node` computes a value that only `reader` reads, once, with no side effect."""
        if node.kind not in _EXPRESSIONS or node.effect or len(node.outputs) != 1:
            return False
        if "inplace" in node.attrs:
            return False
        out = node.outputs[0]
        if self.uses.count[out.id] != 1:
            return False
        if reader is None:  # read by the block's output
            return self.uses.escapes[out.id] == 1
        return any(t is out for t in reader.inputs) and reader.kind != "while"

    def _inline_plan(self, block: Block) -> set:
        """Indices of the nodes written into the condition of the `if` that follows them."""
        plan = set()
        nodes = block.nodes
        for j, node in enumerate(nodes):
            if node.kind != "cond":
                continue
            k, reader = j - 1, node
            while (
                k >= 0
                and j - k <= _INLINE_DEPTH
                and k not in plan
                and self._inlinable(nodes[k], reader)
            ):
                if reader is node and node.args[0] is not nodes[k].outputs[0]:
                    break
                plan.add(k)
                reader = nodes[k]
                k -= 1
        return plan

    def _tail_plan(self, block: Block, results) -> set:
        """Indices of the last nodes of a block that compute one of `results` (the values
        the statement after the block reads), each read only by the next: they are written
        into that statement as one expression."""
        plan = set()
        nodes = block.nodes
        k, reader = len(nodes) - 1, None
        while k >= 0 and len(plan) < _INLINE_DEPTH:
            node = nodes[k]
            if reader is None and not (
                len(node.outputs) == 1 and any(node.outputs[0] is r for r in results)
            ):
                break
            if not self._inlinable(node, reader):
                break
            plan.add(k)
            reader = node
            k -= 1
        return plan

    def _assign(self, indent, names: str | None, values: list, fallback):
        """`names = values` (`return values` with `names` None), mapped (for error reports) to
        the operation of an inlined value."""
        node = next(
            (self.inline[v.id][2] for v in values if isinstance(v, Tensor) and v.id in self.inline),
            fallback,
        )
        text = ", ".join(self._test(v)[0] for v in values)
        if names is None:
            self.emit(indent, f"return {text}", node)
            return
        one = "," if len(values) == 1 and "," in names else ""
        self.emit(indent, f"{names} = {text}{one}", node)

    def _outlined(self, block: Block, indent: int, plan: set, values: list, label, node):
        """A block that would start `indent` levels deep, past `MAX_INDENT`, written as a
        function of its own returning `values` (its results): the expression that calls it,
        or None when the block is written in place (not that deep, or empty)."""
        if indent < nesting.MAX_INDENT or not block.nodes:
            return None
        # Its parameters: the names it uses that are locals where it is called. (Not only
        # those it reads: an in-place operation (`v5 += c`) or a `del` of a value from outside
        # uses the name as a local.)
        outer = {self.names.get(i) for scope in self._defined for i in scope}
        outer -= set(self.namespace)  # (`make_run`'s parameters: it sees them)
        number = len(self._functions) + 1
        name = f"_{label}_{number}"
        self._functions.append(None)  # (its place, so that functions nested in it number on)
        saved = self.lines, self.line_nodes, self.line_spans
        self.lines, self.line_nodes, self.line_spans = ["def _():"], {1: node}, {}
        wrote = self.block(block, 1, plan)
        if values:
            self._assign(1, None, values, node)
        elif not wrote:
            self.emit(1, "pass", node)
        lines, nodes, spans = self.lines, self.line_nodes, self.line_spans
        self.lines, self.line_nodes, self.line_spans = saved
        params = ", ".join(n for n in nesting.names_in(lines) if n in outer)
        lines[0] = f"def {name}({params}):"
        self._functions[number - 1] = (name, lines, nodes, spans)
        return f"{name}({params})"

    def _frees(self, block: Block, plan: set) -> dict:
        """`index -> names`: the large arrays defined in `block` whose last use is its node
        `index`, so that `del` releases them there rather than when `run` returns (eager code
        releases a temporary as soon as nothing refers to it)."""
        memo: dict = {}

        def name_of(t):
            return self._name_of(t, memo)

        last: dict = {}
        kept: set = {name_of(t) for t in _tensors(block.outputs)}
        if block is self.graph.block:
            kept |= {name_of(t) for t in _tensors(self.graph.outputs)}
        n = len(block.nodes)
        for i, node in enumerate(block.nodes):
            if i not in plan and node.kind != "const":
                for t in node.outputs:
                    if _large(t):
                        last.setdefault(name_of(t), i)
            at = i
            while at in plan:  # an inlined node is read by the next statement written
                at += 1
            for t in _reads(node):
                name = name_of(t)
                if name in last:
                    last[name] = at if at < n else None  # None: read by the block's end
        frees: dict = {}
        for name, i in last.items():
            if name not in kept and i is not None:
                frees.setdefault(i, []).append(name)
        return frees

    def _name_of(self, t, memo: dict) -> str:
        """The Python name a Tensor will have: an in-place result takes its operand's name.
        `memo`: the names found so far, while no name changes (kept by the caller)."""
        # A loop, not a recursion, that remembers each name it finds: an unrolled loop makes
        # chains of in-place results as long as it ran, and each result's name is asked for.
        chain = []
        while True:
            name = self.names.get(t.id) or memo.get(t.id)
            if name is not None:
                break
            chain.append(t.id)
            node = t.node
            k = node.attrs.get("inplace") if node is not None else None
            if k is not None and isinstance(node.args[k], Tensor) and len(node.outputs) == 1:
                t = node.args[k]
            elif node is not None and node.kind == "while":
                name = f"v{node.blocks[1].params[t.index].id}"
                break
            else:
                name = f"v{t.id}"
                break
        for i in chain:
            memo[i] = name
        return name

    def outs(self, node) -> str:
        return ", ".join(f"v{t.id}" for t in node.outputs)

    def node(self, node: Node, indent: int):
        kind = node.kind
        method = getattr(self, "node_" + kind, None)
        if method is not None:
            method(node, indent)
            self.define(node.outputs)
            return
        if "inplace" in node.attrs and self.inplace(node, indent):
            return
        if kind == "const":
            # Constants are not copied into locals: each use names the bound value.
            for t in node.outputs:
                self.names[t.id] = self.expr(node.attrs["value"])
            self.define(node.outputs)
            return
        rhs = self.rhs(node)
        if node.outputs:
            self.emit(indent, f"{self.outs(node)} = {rhs}", node)
        else:
            self.emit(indent, rhs, node)
        self.define(node.outputs)

    def rhs(self, node) -> str:
        """The Python expression of an operation."""
        kind = node.kind
        args, kwargs = node.args, node.kwargs
        if kind in ("call", "helper"):
            if node.attrs.get("rows") and node.fn is np.stack and self._by_rows(node):
                # The `roll` pass's stack of a Python list's items, which its loop reads row by
                # row: the items themselves (what the unrolled steps read), uncopied.
                items = [self.expr(a) for a in args[0]]
                return f"({', '.join(items)}{',' if len(items) == 1 else ''})"
            return f"{self.fn(node.fn)}({self.call_args(args, kwargs)})"
        if kind == "binop":
            return f"{self.expr(args[0])} {node.fn} {self.expr(args[1])}"
        if kind == "unop":
            if node.fn == "abs":
                return f"abs({self.expr(args[0])})"
            return f"{node.fn}{self.expr(args[0])}"
        if kind == "getitem":
            sub = subscript(args[1], bool(node.attrs.get("tuple")), self.expr)
            return f"{self.expr(args[0])}[{sub}]"
        if kind == "method":
            return f"{self.expr(args[0])}.{node.fn}({self.call_args(args[1:], kwargs)})"
        if kind == "attr":
            return f"{self.expr(args[0])}.{node.fn}"
        if kind == "read":
            return f"{self.bind(node.attrs['variable'], 'var')}._value"
        if kind in ("placeholder", "param"):
            raise AssertionError(f"a {kind} node inside a block")
        raise AssertionError(f"unknown node kind {kind!r}")

    def _by_rows(self, node) -> bool:
        """Whether every reader of `node`'s result takes one row of it by an integer."""
        out = node.outputs[0]
        readers = self.uses.readers.get(out.id, ())
        return (
            not node.kwargs
            and type(node.args[0]) is list
            and self.uses.count[out.id] == len(readers)  # no block or graph output
            and all(
                r.kind == "getitem"
                and r.args[0] is out
                and not r.attrs.get("tuple")
                and (type(r.args[1]) is int or isinstance(r.args[1], Tensor))
                and all(a is not out for a in r.args[1:])
                for r in readers
            )
        )

    def _test(self, value):
        """`(expression, node)` of an `if` or loop test: an inlined expression without its outer
        parentheses, with the node that computes it (for error reports), or a name."""
        inline = self.inline.get(value.id) if isinstance(value, Tensor) else None
        if inline is not None:
            self._consumed.append(inline)
            return inline[1], inline[2]
        return self.expr(value), None

    def inplace(self, node, indent) -> bool:
        """Writes an elementwise operation into the buffer of operand `attrs["inplace"]`."""
        k = node.attrs["inplace"]
        target = node.args[k]
        if not isinstance(target, Tensor) or len(node.outputs) != 1:
            return False
        name = self.ref(target)
        kind = node.kind
        if kind == "binop" and k == 0:
            # `x op= y` runs the very NumPy code `x op y` runs (fast scalar powers included).
            text = f"{name} {node.fn}= {self.expr(node.args[1])}"
        else:
            if kind == "binop":
                uf = BINARY_UFUNCS[node.fn]
            elif kind == "unop":
                uf = UNARY_UFUNCS[node.fn]
            else:
                uf = node.fn
            text = f"{self.fn(uf)}({self.call_args(node.args, {})}, out={name})"
        out = node.outputs[0]
        self.emit(indent, f"{text}  # v{out.id}", node)
        self._defined[-1].add(out.id)
        self.names[out.id] = name
        return True

    def node_assign(self, node, indent):
        variable = node.attrs["variable"]
        var = self.bind(variable, "var")
        v = node.args[0]
        value = self.expr(v)
        sole = (
            isinstance(v, Tensor)
            and not v.weak
            and v.dtype == variable.dtype
            and v.shape == variable.shape
            and self.uses.count[v.id] == 1
            and self.uses.escapes[v.id] == 1
        )
        if sole and fresh(v) and v.node.kind != "helper":
            # A new array that nothing else refers to: the Variable takes it as it is. (Not a
            # helper's: its declared spec is not re-inferred when a file is loaded.)
            self.emit(indent, f"{var}._value = {value}", node)
        elif sole and v.node is not None and returns_new(v.node):
            # A new 0-d result (a NumPy scalar): stored as the 0-d array a Variable holds.
            self.emit(indent, f"{var}._value = {self.bind(np.asarray, 'asarray_')}({value})", node)
        else:
            self.emit(indent, f"{var}._set({value})", node)

    def node_print(self, node, indent):
        print_ = self.bind(builtins.print, "print_")
        self.emit(indent, f"{print_}({self.call_args(node.args, node.kwargs)})", node)

    def node_list_new(self, node, indent):
        self.emit(indent, f"{self.outs(node)} = []", node)

    def node_list_append(self, node, indent):
        acc, *items = node.args
        for item in items:
            self.emit(indent, f"{self.expr(acc)}.append({self.expr(item)})", node)
        self.emit(indent, f"{self.outs(node)} = {self.expr(acc)}", node)

    def node_cond(self, node, indent):
        then, orelse = node.blocks
        test = self._test(node.args[0])
        self.emit(indent, f"if {test[0]}:", test[1] or node)
        for i, block in enumerate((then, orelse)):
            if i == 1:
                self.emit(indent, "else:", node)
            self._defined.append(set())
            tail = self._tail_plan(block, block.outputs) if node.outputs else set()
            plan = self._inline_plan(block) | tail
            values = list(block.outputs) if node.outputs else []
            call = self._outlined(block, indent + 1, plan, values, ("then", "else")[i], node)
            if call is not None:
                self.emit(indent + 1, f"{self.outs(node)} = {call}" if values else call, node)
            else:
                wrote = self.block(block, indent + 1, plan)
                if values:
                    self._assign(indent + 1, self.outs(node), values, node)
                elif not wrote:
                    self.emit(indent + 1, "pass", node)
            self._defined.pop()

    def node_while(self, node, indent):
        cond, body = node.blocks
        params = ", ".join(f"v{t.id}" for t in body.params)
        one = "," if len(body.params) == 1 else ""
        if body.params:
            inits = ", ".join(self.expr(v) for v in node.args)
            self.emit(indent, f"{params}{one} = {inits}{one}", node)
        self.define(body.params)
        self._defined.append(set())
        tail = self._tail_plan(cond, cond.outputs[:1])
        if len(tail) == len(cond.nodes):
            # The whole test is one expression: `while <test>:`.
            self.block(cond, indent + 1, tail)
            test = self._test(cond.outputs[0])
            self.emit(indent, f"while {test[0]}:", test[1] or node)
        else:
            self.emit(indent, "while True:", node)
            call = self._outlined(cond, indent + 1, tail, cond.outputs[:1], "test", node)
            if call is None:
                self.block(cond, indent + 1, tail)
                test = self._test(cond.outputs[0])
                test = (_parens(test[0]), test[1])
            else:
                test = (call, None)
            self.emit(indent + 1, f"if not {test[0]}:", test[1] or node)
            self.emit(indent + 2, "break", node)
        n = len(body.params)
        stop = body.outputs[n] if node.attrs.get("stop") else None
        tail = self._tail_plan(body, body.outputs[:n]) if n else set()
        plan = self._inline_plan(body) | tail
        # Written as a function, the body returns the `break` flag too.
        flag = [stop] if isinstance(stop, Tensor) else []
        call = self._outlined(body, indent + 1, plan, list(body.outputs[:n]) + flag, "body", node)
        returned = None  # the name of the returned flag
        if call is not None:
            targets = [f"v{t.id}" for t in (*body.params, *flag)]
            self.emit(indent + 1, f"{', '.join(targets)} = {call}" if targets else call, node)
            returned = targets[-1] if flag else None
        else:
            self.block(body, indent + 1, plan)
            if n:
                self._assign(indent + 1, f"{params}{one}", list(body.outputs[:n]), node)
        if node.attrs.get("stop"):
            self.emit(indent + 1, f"if {returned or self.expr(stop)}:", node)
            self.emit(indent + 2, "break", node)
        self._defined.pop()
        for t, p in zip(node.outputs, body.params):
            self.names[t.id] = f"v{p.id}"  # after the loop, its variables hold the results


_RESERVED = {"run", "make_run"}
_EXPRESSIONS = ("call", "helper", "binop", "unop", "getitem", "method", "attr")
_ATOMS = ("call", "helper", "getitem", "method", "attr")  # need no parentheses as operands
# The most operations written into one statement: each nests its operand once more in
# parentheses, and CPython's parser takes at most 200 levels (and recurses on each). Earlier
# ones in a longer chain keep their own lines.
_INLINE_DEPTH = 16


def _parens(text: str) -> str:
    return text if text.startswith("(") or text.isidentifier() else f"({text})"


_LARGE = 1 << 16  # bytes: arrays at least this large (or of unknown size) are freed early


def _large(t) -> bool:
    if t.weak or not t.shape:
        return False
    if None in t.shape:
        return True
    return math.prod(t.shape) * t.dtype.itemsize >= _LARGE


def _tensors(value) -> list:
    from autoconv.graph.passes.analysis import tensors_in

    return tensors_in(value)


def _reads(node) -> list:
    """The Tensors a node reads, its nested blocks included."""
    found = list(node.inputs)
    for sub in node.blocks:
        found += _tensors(sub.outputs)
        for inner in sub.nodes:
            found += _reads(inner)
    return found


def _is_numpy(fn) -> bool:
    module = getattr(fn, "__module__", None) or ""
    return module == "numpy" or module.startswith("numpy.")


def _describe_bound(value) -> str:
    """What a bound name holds, for the comment next to it in `make_run`'s parameters."""
    from autoconv.graph.variables import Variable

    if isinstance(value, np.ndarray):
        text = f"{format_spec(value.shape, value.dtype)} array"
        return f"{text} {value.item()!r}" if value.size == 1 else text
    if isinstance(value, Variable):
        return f"Variable {ascii(value.name)}"
    if isinstance(value, np.ufunc):
        return f"numpy.{value.__name__}"
    if isinstance(getattr(value, "__self__", None), np.ufunc):
        return f"numpy.{value.__self__.__name__}.{value.__name__}"
    if isinstance(value, np.generic):
        return f"{value.dtype.name} scalar {value.item()!r}"
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    if type(name) is str:
        module = getattr(value, "__module__", None)
        if type(module) is not str:
            module = None
        elif module.startswith("numpy"):
            module = "numpy"
        return f"{module}.{name}" if module and module != "builtins" else name
    # Never the value's repr: it can hold text from a saved file.
    return f"a {type(value).__name__}"


def describe(t: Tensor) -> str:
    return format_spec(t.shape, t.dtype)


def _own_copy(value):
    """A 0-d result the caller owns: an array's copy; a number as it is (immutable)."""
    return value.copy() if type(value) is np.ndarray else value


def _python_object(t: Tensor) -> bool:
    """A 0-d object Tensor holds a Python value (a string an f-string made), not an array."""
    return t.dtype.kind == "O" and not t.shape
