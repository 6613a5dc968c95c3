"""Lowers an optimized graph to the source of a Python function over `jax.numpy`.

Each node becomes one line, as in the NumPy executor, but over JAX values: a NumPy call becomes
its `jax.numpy` form (`ops.lookup`), `cond` becomes `lax.cond` over two nested functions (a
Python `if` when the test is known while JAX traces), `while` becomes `lax.while_loop` whose
carry holds the loop variables, the Variables the loop assigns, the `break` flag and the error
flag. A list grown in a staged loop is a preallocated buffer and a count (`lists.py`).
Variables are state: `run` takes their values and returns their new ones. Prints, the user's
raises (`host.py`) and NumPy's random draws (`draws.py`) become ordered host callbacks; a raise
also sets the error flag, which stops loops, and the program raises the recorded exception
after the call, as eager code would.

Every value keeps the dtype NumPy gives it: operands of an operator are cast to NumPy's common
dtype first (Python numbers stay weak, as in NumPy), and a result JAX types differently is cast
(`fix`, a no-op at trace time when the dtypes agree). Anything without a JAX form raises a
`LoweringError` naming the operation and the user's line.
"""

from __future__ import annotations

import builtins

import numpy as np

from autoconv.backends import nesting
from autoconv.backends.frame import Parameters
from autoconv.backends.jax import bounds as _bounds
from autoconv.backends.jax import casts as _casts
from autoconv.backends.jax import changes as _changes
from autoconv.backends.jax import divisions as _divisions
from autoconv.backends.jax import draws as _draws
from autoconv.backends.jax import host as _host
from autoconv.backends.jax import keyed as _keyed
from autoconv.backends.jax import linalg_checks as _linalg
from autoconv.backends.jax import list_makers as _list_makers
from autoconv.backends.jax import lists as _lists
from autoconv.backends.jax import masks as _masks
from autoconv.backends.jax import ops as _ops
from autoconv.backends.jax import reads as _reads
from autoconv.backends.jax import repeats as _repeats
from autoconv.backends.jax import string_handles as _string_handles
from autoconv.backends.jax.errors import lowering_error
from autoconv.backends.literals import call_arguments, literal, subscript
from autoconv.graph import helpers as _helpers
from autoconv.graph import math_domains as _math_domains
from autoconv.graph.graph import Block, Graph, Node, map_tensors, tensors_in
from autoconv.graph.helpers import checked as _checked
from autoconv.graph.helpers import checked_raise as _checked_raise
from autoconv.graph.tensor import Tensor

_RESERVED = frozenset(
    "run make_run err stop lax jnp fix carry truth cond while_loop all_of callback check confirm "
    "carry_list append draw partial list_get list_extreme list_sum list_concat item_tag".split()
    + _changes.NAMES
    + _keyed.NAMES
    + ["list_repeat"]
)
_GLOBALS = _RESERVED - {"err", "stop"}  # (those two are locals of the generated functions)
_STANDIN = {"b": True, "i": 1, "u": 1, "f": 1.0, "c": 1j}


class Lowered:
    """The JAX source of a graph and what the program needs to call it."""

    def __init__(self, graph: Graph, capacities=None):
        """`capacities`: the buffer sizes of lists grown in unbounded loops (`lists.py`)."""
        w = _Writer(graph, capacities)
        # `run` and the functions it calls, with the values they read by name (backends/frame.py)
        self.lines = w.lines
        self.line_nodes = w.line_nodes
        self.bound = w.namespace
        self.variables = w.variables
        self.outputs = w.out_host  # HostValues of the graph's output Tensors
        self.callbacks = w.callbacks  # the host callbacks, to reset per call
        self.has_error = w.has_error
        # (the warnings and errors of empty mask selections are given after the call: masks.py)
        self.has_effects = bool(w.callbacks) or w.masks.after_call
        self.objects = w.objects  # generators the graph made in the last call (draws.py)
        self.plan = w.plan
        # A program with growable lists may run again: its prints wait for the attempt that
        # counts (None: they go out as they run).
        self.pending = w.pending


class _Writer:
    def __init__(self, graph: Graph, capacities=None):
        self.graph = graph
        self.lines: list[str] = []
        self.line_nodes: dict = {}
        params = Parameters(_RESERVED, r"[vcs]\d+|_(then|else|test|body)_\w*", builtins_kept=False)
        self.bind = params.bind
        self.namespace = params.bound
        self.names: dict = {t.id: f"v{t.id}" for t in graph.inputs}
        self.callbacks: list = []
        self._typed: set = set()
        self.variables: list = []
        self._var_names: dict = {}
        for node in graph.walk():
            if node.kind in ("read", "assign"):
                v = node.attrs["variable"]
                if id(v) not in self._var_names:
                    self._var_names[id(v)] = f"s{len(self.variables)}"
                    self.variables.append(v)
        self.plan = _lists.ListPlan(graph, capacities)
        self.pending = _lists.Pending() if self.plan.growable else None
        self.masks = _masks.MaskPlan(graph, self.plan)
        self.list_reads: dict = {}  # a list read's value id -> what its kind tag needs (reads.py)
        self.objects: dict = {}  # generators made by the graph, on the host (draws.py)
        # Per node, worked out once: its index checks, and whether the host evaluates it.
        self._checks: dict = {}
        self._host: dict = {}
        self._states: dict = {}  # id(control-flow node) -> `_state`
        host_nodes = self.plan.host_nodes
        ranges = _bounds.counted_ranges(graph)  # counted loops' indices need no check
        for n in graph.walk():
            self._checks[id(n)] = _bounds.checks(n, ranges)
            self._host[id(n)] = _host.is_host(n, self.plan) or id(n) in host_nodes
        self.has_error = any(self._sets_error(n) for n in graph.walk())
        self.out_host = _host.HostValues(tensors_in(graph.outputs), self.plan)
        # Branch and loop functions nested too deeply to write in place (nesting.py): (name,
        # lines, line -> node)
        self._functions: list = []
        state = [self._var_names[id(v)] for v in self.variables]
        params = [self.names[t.id] for t in graph.inputs] + state
        self.lines.append(f"def run({', '.join(params)}):")
        if self.has_error:
            self.emit(1, "err = False", None)
        self.masks.start(self)
        self.block(graph.block, 1)
        outs = _tuple([self.ref(t) for t in self.out_host.device] + self.masks.finish(self))
        self.out_host = self.masks.after(self, self.out_host)
        if state or self.has_error:
            err = "err" if self.has_error else "False"
            self.emit(1, f"return {outs}, {_tuple(state)}, {err}", None)
        else:
            self.emit(1, f"return {outs}", None)  # no state: nothing else to bring back
        for _, lines, nodes in self._functions:  # after `run`, in `make_run`
            at = len(self.lines)
            self.lines += lines
            self.line_nodes.update({n + at: node for n, node in nodes.items()})

    # --- names ----------------------------------------------------------------------------
    def ref(self, t: Tensor) -> str:
        name = self.names.get(t.id)
        if name is None:
            node = t.node
            if node is not None and self.is_host(node):
                raise lowering_error(
                    node,
                    "its result (a string, a Python choice, or a number read from a string made "
                    "when the graph runs, which this backend makes on the host after the XLA "
                    "program) is used by an array operation",
                )
            return f"v{t.id}"
        return name

    def expr(self, v) -> str:
        if type(v) is Tensor:  # first: isinstance(v, _Raw) would ask the Tensor's __class__
            return self.ref(v)
        if isinstance(v, _Raw):
            return str(v)
        if isinstance(v, Tensor):
            return self.ref(v)
        text = literal(v, self.expr)
        if text is not None:
            return text
        if isinstance(v, np.dtype):
            return self.bind(v, "dt_" + v.name)
        if isinstance(v, type) and issubclass(v, np.generic):
            return self.bind(np.dtype(v), "dt_" + np.dtype(v).name)
        return self.bind(v)

    def dtype(self, dt) -> str:
        dt = np.dtype(dt)
        return self.bind(dt, "dt_" + dt.name)

    def call_args(self, args, kwargs) -> str:
        return call_arguments(args, kwargs, self.expr)

    def emit(self, indent, text, node):
        self.lines.append("    " * indent + text)
        if node is not None:
            self.line_nodes[len(self.lines)] = node

    # --- blocks and nodes -----------------------------------------------------------------
    def block(self, block: Block, indent: int):
        wrote = False
        for node in block.nodes:
            wrote = self.node(node, indent) or wrote
        return wrote

    def node(self, node: Node, indent: int) -> bool:
        kind = node.kind
        if kind == "const":
            for t in node.outputs:
                if t.id in self.plan.handles:  # a string the device keeps (string_handles.py)
                    self.names[t.id] = repr(self.plan.strings.constant(node.attrs["value"]))
                else:
                    self.names[t.id] = self.expr(node.attrs["value"])
            return False
        if node.attrs.get("raises"):
            self.node_raise(node, indent)
            return True
        self._check_not_empty(node, indent)
        if _draws.is_draw(node):
            self.node_draw(node, indent)
            return True
        if node.kind == "helper" and node.fn in _host.CHOICE_FNS:
            # The Python kind of a number is the host's business (outputs, prints); the
            # device computes with its value, in the dtype the graph gives it.
            value = node.args[0] if node.fn is _host.mixed_output else node.args[1]
            t = node.outputs[0]
            self._check_divisor(node, indent)  # (a quotient of reads: its Python type's)
            self.emit(indent, f"v{t.id} = fix({self.expr(value)}, {self.dtype(t.dtype)})", node)
            return True
        if self.is_host(node):
            if any(t.id in self.plan.handles for t in node.outputs):
                _string_handles.lower(self, node, indent)  # a string the device keeps
                return True
            return False  # evaluated by the callbacks or outputs that read it
        if self.masks and id(node) in self.masks.nodes:
            return self.masks.lower(self, node, indent)
        lists = self.plan.bounds
        if lists and kind == "helper" and node.fn is _helpers.row_field:
            (t,) = node.outputs  # an item of a tuple read from a run-time list
            row, j = node.args
            self.emit(indent, f"v{t.id} = fix({self.ref(row)}[{j}], {self.dtype(t.dtype)})", node)
            return True
        if lists and kind == "helper" and node.fn is _helpers.kind_index:
            return _reads.lower_tag(self, node, indent)
        if lists and _repeats.is_repeat(node):
            return _list_makers.lower_repeat(self, node, indent)
        if lists and id(node) in self.plan.branch_stacks:
            return _list_makers.lower_branch_stack(self, node, indent)
        if lists and kind not in _LIST_KINDS and any(t.id in lists for t in node.inputs):
            wrote = self.list_use(node, indent)
            _string_handles.decode_reads(self, node, indent)  # a string the device keeps
            return wrote
        if self.plan.handles:
            _string_handles.check_use(self, node)
        method = getattr(self, "node_" + kind, None)
        if method is not None:
            method(node, indent)
            return True
        if self._empty_axis(node):
            # An index into an empty axis: eager NumPy raises IndexError where it runs (the
            # check below records it), and JAX rejects the index while tracing, also on a path
            # that never runs (a loop over the empty axis). Any value will do in its place.
            self._check_indices(node, indent)
            (t,) = node.outputs
            self.emit(indent, f"v{t.id} = jnp.zeros({t.shape!r}, {self.dtype(t.dtype)})", node)
            return True
        rhs = self.rhs(node)
        self._check_indices(node, indent)
        self._check_cast(node, indent)
        self._check_divisor(node, indent)
        self._check_math(node, indent)
        self._check_linalg(node, indent)
        outs = node.outputs
        if not outs:
            self.emit(indent, rhs, node)
        elif len(outs) == 1:
            self.emit(indent, f"v{outs[0].id} = {rhs}", node)
            self._fix(node, outs[0], indent)
        else:
            self.emit(indent, f"{', '.join(f'v{t.id}' for t in outs)} = {rhs}", node)
            for t in outs:
                self._fix(node, t, indent)
        return True

    def is_host(self, node) -> bool:
        found = self._host.get(id(node))
        if found is None:
            found = _host.is_host(node, self.plan) or id(node) in self.plan.host_nodes
        return found

    def _sets_error(self, node) -> bool:
        """Whether a node can set the error flag: the user's raise, a random draw (its
        arguments may be wrong), an index to check, or a min/max of a mask selection that may be
        empty (masks.py)."""
        if node.attrs.get("raises") or _draws.is_draw(node):
            return True
        if _reads.sets_error(node, self.plan) or _changes.sets_error(node, self.plan):
            return True
        if _keyed.sets_error(node, self.plan) or _repeats.sets_error(node, self.plan):
            return True
        if id(node) in self.plan.branch_stacks:
            return True
        if _casts.checked_value(node) is not None or _casts.empty_stack(node, self.plan):
            return True
        if _divisions.found(node, self.plan) is not None or _math_domain(node) is not None:
            return True
        if _linalg.fails(node) is not None:
            return True
        return bool(self._checks.get(id(node))) or id(node) in self.masks.errors

    def _empty_axis(self, node) -> bool:
        """Whether `node` indexes an axis of length 0 with an index known only at run time
        (and gives one value of a static shape)."""
        checks = self._checks.get(id(node))
        if not checks or len(node.outputs) != 1 or None in node.outputs[0].shape:
            return False
        for _, axis in checks:
            shape = np.shape(node.args[0]) if not isinstance(node.args[0], Tensor) else None
            shape = node.args[0].shape if shape is None else shape
            if None in shape:
                continue
            if (int(np.prod(shape)) if axis is None else shape[axis]) == 0:
                return True
        return False

    def _check_indices(self, node, indent):
        """Run-time bounds checks of the indices XLA would clamp (see bounds.py)."""
        for index, axis in self._checks.get(id(node), ()):
            record = _bounds.recorder(axis)
            record.node = node
            self.callbacks.append(record)
            cb = self.bind(record, f"index_error_{len(self.callbacks)}")
            n = f"{self.bind(_bounds.size, 'size')}({self.receiver(node.args[0])}, {axis!r})"
            ok = f"{self.bind(_bounds.inbounds, 'inbounds')}({self.expr(index)}, {n})"
            self.emit(indent, f"err = check({ok}, err, {cb}, {self.expr(index)}, {n})", node)

    def _check_cast(self, node, indent):
        """The run-time check of a float converted to an integer (see casts.py)."""
        value = _casts.checked_value(node)
        if value is None:
            return
        record = _casts.recorder(node)
        self.callbacks.append(record)
        cb = self.bind(record, f"cast_error_{len(self.callbacks)}")
        dtype = node.args[0].dtype if node.fn is _helpers.set_copy else None
        suspect = self.bind(_casts.suspect, "cast_suspect")
        v = self.expr(value)
        test = f"{suspect}({v}{', ' + self.dtype(dtype) if dtype is not None else ''})"
        self.emit(indent, f"err = confirm({test}, err, {cb}, {v})", node)

    def _check_divisor(self, node, indent):
        """The run-time check of a division of Python numbers by zero (see divisions.py)."""
        found = _divisions.found(node, self.plan)
        if found is None:
            return
        record = _divisions.recorder(found[0])
        self.callbacks.append(record)
        cb = self.bind(record, f"zero_division_{len(self.callbacks)}")
        self.emit(indent, f"err = check({_divisions.test(*found, self.expr)}, err, {cb})", node)

    def _check_math(self, node, indent):
        """The run-time check of a `math` function's argument: XLA gives a NaN or an infinity
        where eager Python raises ValueError or OverflowError (graph/math_domains.py)."""
        found = _math_domain(node)
        if found is None:
            return
        fn = node.fn
        record = _casts.replayer(node, lambda v: fn(np.asarray(v).item()))  # (isqrt: an int)
        self.callbacks.append(record)
        cb = self.bind(record, f"math_error_{len(self.callbacks)}")
        x = self.expr(node.args[0])
        fails = self.bind(found.fails, f"{fn.__name__}_fails")
        self.emit(indent, f"err = confirm({fails}({x}), err, {cb}, {x})", node)

    def _check_linalg(self, node, indent):
        """The run-time check of `np.linalg.inv`, `solve` or `cholesky`'s arguments: XLA gives
        infinities or NaNs where NumPy raises LinAlgError (`linalg_checks.py`)."""
        found = _linalg.fails(node)
        if found is None:
            return
        fn = node.fn
        record = _casts.replayer(node, lambda *v: fn(*map(np.asarray, v)))
        self.callbacks.append(record)
        cb = self.bind(record, f"linalg_error_{len(self.callbacks)}")
        args = ", ".join(self.expr(a) for a in node.args)
        test = self.bind(found, f"{fn.__name__}_fails")
        self.emit(indent, f"err = confirm({test}({args}), err, {cb}, {args})", node)

    def _check_not_empty(self, node, indent):
        """np.stack of lists grown when the graph runs, whose result may be unused (it is
        kept for this check): eager NumPy raises ValueError where they hold no items."""
        found = _casts.empty_stack(node, self.plan)
        if found is None:
            return
        func, lists = found
        record = _casts.replayer(node, lambda: func([]))
        self.callbacks.append(record)
        cb = self.bind(record, f"empty_stack_{len(self.callbacks)}")
        counts = " + ".join(f"{self.ref(t)}[1]" for t in lists)
        self.emit(indent, f"err = confirm(({counts}) == 0, err, {cb})", node)

    def _fix(self, node, t, indent):
        if node.kind in ("getitem", "attr") or id(node) in self._typed:
            return
        self.emit(indent, f"v{t.id} = fix(v{t.id}, {self.dtype(t.dtype)})", node)

    def rhs(self, node) -> str:
        kind = node.kind
        args, kwargs = node.args, node.kwargs
        if kind in ("call", "helper"):
            if (
                isinstance(node.fn, np.ufunc)
                and node.fn.nout == 1
                and len(args) == node.fn.nin
                and "dtype" in kwargs
                and set(kwargs) <= {"dtype", "casting"}
            ):
                # `w -= x` (np.subtract(w, x, dtype=w.dtype, casting="same_kind")): NumPy casts
                # the operands to `dtype` and computes in it (the casting rule held while
                # tracing, where the dtypes are known); jax.numpy's ufuncs take no dtype.
                dt = self.dtype(np.dtype(kwargs["dtype"]))
                operands = ", ".join(f"fix({self.expr(a)}, {dt})" for a in args)
                return f"{self.fn(node)}({operands})"
            if (
                isinstance(node.fn, np.ufunc)
                and node.fn.nin == 2
                and node.fn.nout == 1
                and len(args) == 2
                and not kwargs
            ):
                common = _inexact_operands(node, _common_dtype(args))
                a, b = self.operands(args, common)
                if self._result_typed(node, common, node.fn.__name__):
                    self._typed.add(id(node))
                return f"{self.fn(node)}({a}, {b})"
            if isinstance(node.fn, np.ufunc) and node.fn.nin == 1 and len(args) == 1:
                # NumPy computes an int's sqrt, exp, log... in float64, JAX in float32.
                target = _inexact_operands(node, _common_dtype(args))
                if target is not None and isinstance(args[0], Tensor) and args[0].dtype != target:
                    cast = f"fix({self.expr(args[0])}, {self.dtype(target)})"
                    rest = call_arguments((), kwargs, self.expr)
                    return f"{self.fn(node)}({cast}{', ' + rest if rest else ''})"
            out = node.outputs[0].dtype if node.outputs else None
            accumulate = self._accumulate_in(node, out)
            if accumulate is not None:
                return f"{self.fn(node)}({self.call_args(args, accumulate)})"
            if out is not None and out.kind in "fc" and _ops.in_result_dtype(node.fn):
                # np.kron(int32, float32) computes in float64, jnp.kron in float32.
                cast = [
                    f"fix({self.expr(a)}, {self.dtype(out)})"
                    if isinstance(a, (Tensor, np.ndarray))
                    and a.dtype != out
                    and np.can_cast(a.dtype, out)
                    else self.expr(a)
                    for a in args
                ]
                rest = call_arguments((), kwargs, self.expr)
                return f"{self.fn(node)}({', '.join(cast + ([rest] if rest else []))})"
            return f"{self.fn(node)}({self.call_args(args, kwargs)})"
        if kind == "binop":
            common = _common_dtype(args)
            if node.fn == "/":
                common = _inexact_operands(node, common)
            a, b = self.operands(args, common)
            if self._result_typed(node, common, node.fn):
                self._typed.add(id(node))
            if node.fn == "/" and node.outputs and not node.outputs[0].shape:
                # XLA divides by a number it knows (written in the code, or one it works out,
                # as a list's count) as a multiplication by its reciprocal, which Python's and
                # NumPy's `7 / 3` are not (one unit in the last place off, a third of the
                # time): a number's quotient stays a division.
                b = f"lax.optimization_barrier({b})"
            return f"{a} {node.fn} {b}"
        if kind == "unop":
            if node.fn == "abs":
                return f"jnp.abs({self.expr(args[0])})"
            return f"{node.fn}{self.expr(args[0])}"
        if kind == "getitem":
            sub = subscript(args[1], bool(node.attrs.get("tuple")), self.expr)
            if type(args[1]) is list and not node.attrs.get("tuple"):
                sub = f"{self.bind(_ops.list_key, 'list_key')}({sub})"  # `A[[p, k]]`
            axes = sorted({axis for v, axis in _bounds.checks(node) if _scalar(v)})
            if axes and None not in axes:
                return f"nonempty({self.receiver(args[0])}, {tuple(axes)!r})[{sub}]"
            return f"{self.receiver(args[0])}[{sub}]"
        if kind == "method" and node.fn == "item" and not kwargs and len(args) <= 2:
            # A Python number when the graph runs: on the device, the element itself.
            where_ = self.expr(args[1]) if len(args) == 2 else "0"
            return f"jnp.ravel({self.expr(args[0])})[{where_}]"
        if kind == "method":
            if node.fn not in _ops.METHODS:
                raise lowering_error(node, f"the array method .{node.fn}() has no JAX form")
            if node.fn == "round":  # `x.round(d)`: NumPy's own rounding (`ops.np_round`)
                return f"{self.bind(_ops.np_round, 'np_round')}({self.call_args(args, kwargs)})"
            accumulate = self._accumulate_in(node, node.outputs[0].dtype)
            if accumulate is not None:
                rest = self.call_args(args[1:], accumulate)
                return f"{self.receiver(args[0])}.{node.fn}({rest})"
            return f"{self.receiver(args[0])}.{node.fn}({self.call_args(args[1:], kwargs)})"
        if kind == "attr":
            if node.fn not in _ops.ATTRS:
                raise lowering_error(node, f"the array attribute .{node.fn} has no JAX form")
            return f"{self.expr(args[0])}.{node.fn}"
        if kind == "read":
            return self._var_names[id(node.attrs["variable"])]
        raise lowering_error(node, f"graph operations of kind {kind!r} have no JAX form")

    def _accumulate_in(self, node, out):
        """The keyword arguments, with the result dtype passed, of a running sum or product of
        small ints or bools (`np.cumsum` of an int32, `.cumprod()`): NumPy accumulates in the
        platform int it returns, jax.numpy in the operand's dtype, which overflows first.
        None for other operations."""
        args, kwargs = node.args, node.kwargs
        if out is None or out.kind not in "iu" or "dtype" in kwargs or not args:
            return None
        if not _ops.accumulates(node.fn) or not isinstance(args[0], Tensor):
            return None
        if args[0].dtype == out:
            return None
        return {**kwargs, "dtype": out}

    def receiver(self, v) -> str:
        """A value indexed or whose method is called: a constant array as a JAX array."""
        text = self.expr(v)
        if isinstance(v, Tensor) and v.node is not None and v.node.kind == "const":
            if isinstance(v.node.attrs["value"], np.ndarray):
                return f"jnp.asarray({text})"
        return text

    def fn(self, node) -> str:
        found = _ops.lookup(node.fn)
        refused = _ops.refused(node.fn)
        if refused is not None:
            raise lowering_error(node, refused)
        if found is None:
            name = getattr(node.fn, "__qualname__", None) or repr(node.fn)
            raise lowering_error(node, f"{name} has no jax.numpy form")
        return self.bind(found[1], found[0])

    def operands(self, args, common):
        """The two operands of an elementwise operation, each Tensor cast to NumPy's common
        dtype `common` (Python numbers stay as they are: JAX treats them as weak, as NumPy)."""
        out = []
        for a in args:
            text = self.expr(a)
            if isinstance(a, Tensor) and common is not None and (a.weak or a.dtype != common):
                if not (a.weak and all(isinstance(x, Tensor) and x.weak for x in args)):
                    text = f"fix({text}, {self.dtype(common)})"
            out.append(text)
        return out

    @staticmethod
    def _result_typed(node, common, op) -> bool:
        """Whether JAX, given operands of the common dtype, gives NumPy's result dtype."""
        if common is None or len(node.outputs) != 1:
            return False
        out = node.outputs[0].dtype
        if out == common:
            return True
        return out == np.bool_ and op in _COMPARING

    # --- statements -----------------------------------------------------------------------
    def node_assign(self, node, indent):
        variable = node.attrs["variable"]
        name = self._var_names[id(variable)]
        value = self.expr(node.args[0])
        self.emit(indent, f"{name} = carry({value}, {self.dtype(variable.dtype)})", node)

    # --- run-time lists: `(buffer, count)` pairs (see lists.py) ------------------------------
    def node_list_new(self, node, indent):
        t = node.outputs[0]
        shapes = self.plan.buffer_shapes(t, node)
        zeros = [f"jnp.zeros({shape!r}, {self.dtype(dt)})" for shape, dt in shapes]
        if self.plan.family(t).fields is not None:  # a list of tuples: a buffer per item
            zeros = [_tuple(zeros)]
        elif self.plan.tags(t):  # each item's Python type beside it (tagged.py)
            zeros = [f"({zeros[0]}, jnp.zeros({shapes[0][0][:1]!r}, jnp.int8))"]
        self.emit(indent, f"v{t.id} = ({zeros[0]}, 0)", node)

    def node_list_append(self, node, indent):
        acc, *items = node.args
        args = ", ".join([self.expr(acc), *(_reads.item_expr(self, node, acc, v) for v in items)])
        self.emit(indent, f"v{node.outputs[0].id} = append({args})", node)

    def list_use(self, node, indent) -> bool:
        """`len(lst)` and `np.stack(lst)`-like uses of run-time lists on the device."""
        plan = self.plan
        if _changes.change_kind(node, plan) is not None:
            return _changes.lower(self, node, indent)
        if _keyed.keyed_kind(node, plan) is not None:
            return _keyed.lower(self, node, indent)
        if _reads.read_kind(node, plan) is not None:
            return _reads.lower(self, node, indent)
        lists = [t for t in node.inputs if plan.is_list(t)]
        if node.kind in ("call", "helper") and node.fn is builtins.len and len(node.args) == 1:
            (t,) = node.outputs
            n = plan.count(lists[0])
            if n is not None:  # known while compiling: a Python int, as `len` gives
                self.names[t.id] = repr(n)
                return False
            self.emit(indent, f"v{t.id} = {self.ref(lists[0])}[1]", node)
            return True
        func = _lists.stacker_func(node)
        if func is not None and any(plan.device_dtype(t) != plan.family(t).dtype for t in lists):
            raise lowering_error(
                node,
                f"{plan.describe(lists[0])} holds tuples or strings, which this backend stacks "
                "only where the result leaves the program (return it)",
            )
        if func is None:
            raise lowering_error(
                node,
                f"{plan.describe(lists[0])}, grown in a staged loop, is used by an operation "
                "other than np.stack/np.array/np.concatenate/len() or returning it",
            )
        template, *rest = node.args
        out = node.outputs[0]
        counts = [plan.count(t) for t in lists]  # all known: others run on the host
        if (
            func in _lists.PLAIN_STACKERS
            and len(template) == 1
            and not rest
            and not node.kwargs
            and counts[0] > 0
        ):
            self.emit(indent, f"v{out.id} = {self.ref(lists[0])}[0][:{counts[0]}]", node)
        else:
            items = []
            for v in template:
                if plan.is_list(v):
                    items.append(f"*{self.ref(v)}[0][:{plan.count(v)}]")
                else:
                    items.append(self.expr(v))
            target = _ops.lookup(func)
            if target is None:
                raise lowering_error(node, f"numpy.{func.__name__} has no jax.numpy form")
            call = self.call_args((_Raw("[" + ", ".join(items) + "]"), *rest), node.kwargs)
            self.emit(indent, f"v{out.id} = {self.bind(target[1], target[0])}({call})", node)
        if sum(counts) + len(template) - len(lists) == 0:
            return True  # no items: the dtype is NumPy's for an empty list (float64)
        self._fix(node, out, indent)
        return True

    def node_print(self, node, indent):
        values = _host.HostValues(tensors_in((node.args, node.kwargs)), self.plan)
        errs = "err, " if self.has_error else ""

        pending = self.pending

        def show(*arrays, _node=node, _values=values, _err=self.has_error, _pending=pending):
            if _err:
                if bool(arrays[0]):
                    return  # an earlier raise ended the call
                arrays = arrays[1:]
            try:
                env = _values.env(arrays)
            except _host.Overflow:
                return  # this attempt is void: the call runs again with a larger buffer

            # Tensors inside lists, tuples and dicts too: `print([v, n])` shows their values.
            def read(t):
                return _values.value(t, env)

            args = map_tensors(_node.args, read)
            kwargs = map_tensors(_node.kwargs, read)
            if _pending is None:
                builtins.print(*args, **kwargs)
            else:
                _pending.items.append((args, kwargs))

        if pending is not None:
            show.save, show.restore = pending.save, pending.restore
        self.callbacks.append(show)
        cb = self.bind(show, f"print_{node.outputs[0].id if node.outputs else len(self.callbacks)}")
        vals = "".join(self.ref(t) + ", " for t in values.device)
        self.emit(indent, f"callback({cb}, {errs}{vals})", node)

    def node_draw(self, node, indent):
        draw = _draws.Draw(node, self.plan, self.objects)
        self.callbacks.append(draw)
        n = len(self.callbacks)
        cb = self.bind(draw, f"draw_{n}")
        specs = self.bind(draw.specs(), f"draw_{n}_specs")
        args = ", ".join([cb, specs, "err"] + [self.ref(t) for t in draw.device])
        outs = _tuple([f"v{t.id}" for t in draw.results])
        self.emit(indent, f"{outs}, err = draw({args})", node)

    def node_raise(self, node, indent):
        values = _host.HostValues(node.inputs, self.plan)
        slot = []

        def record(err, *arrays, _node=node, _values=values, _slot=slot):
            if bool(err) or _slot:
                return  # only the first raise of a call counts
            try:
                env = _values.env(arrays)
            except _host.Overflow:
                return  # from items past the buffer: the call runs again, and raises then
            args = [_values.value(a, env) for a in _node.args]
            try:
                _node.fn(*args)
            except BaseException as e:  # noqa: BLE001 - the user's exception, raised later
                _slot.append((e, _node))

        record.slot = slot
        self.callbacks.append(record)
        cb = self.bind(record, f"raise_{len(self.callbacks)}")
        vals = "".join(self.ref(t) + ", " for t in values.device)
        if node.fn is _checked or node.fn is _checked_raise:
            # An optional read where eager code reads it: the value, and the error raised
            # when the graph runs if it is missing.
            flag, value = node.args[0], node.args[1]
            for t in node.outputs:
                self.emit(indent, f"v{t.id} = fix({self.expr(value)}, {self.dtype(t.dtype)})", node)
                self.names[t.id] = f"v{t.id}"
            self.emit(indent, f"err = check({self.expr(flag)}, err, {cb}, {vals})", node)
            return
        self.emit(indent, f"callback({cb}, err, {vals})", node)
        self.emit(indent, "err = True", node)

    def _state(self, node) -> list[str]:
        """The state names (Variables, the error flag) that `node`'s blocks assign."""
        found = self._states.get(id(node))
        if found is not None:
            return found
        names = []
        for sub in node.blocks:
            for inner in sub.nodes:
                if inner.kind == "assign":
                    names.append(self._var_names[id(inner.attrs["variable"])])
                elif self._sets_error(inner):
                    names.append("err")
                names.extend(self.masks.state(inner))
                if inner.blocks:  # its blocks' names, worked out once (conds nest deeply)
                    names.extend(self._state(inner))
        found = self._states[id(node)] = list(dict.fromkeys(names))
        return found

    def _state_dtype(self, name):
        if name == "err":
            return self.dtype(np.bool_)
        if name in _masks.STATE:
            return self.dtype(np.int64)
        return self.dtype(self.variables[int(name[1:])].dtype)

    def function(self, indent, name, params, label, node, body) -> str:
        """Writes `def name(params):` at `indent` with `body(indent)` writing its statements;
        the expression naming the function. Past `MAX_INDENT`, the function is written next to
        `run` instead (its own `_<label>_<n>`), its first parameters the names it reads from
        the functions around it, and the expression is a `partial` giving them."""
        if indent + 1 < nesting.MAX_INDENT:
            self.emit(indent, f"def {name}({params}):", node)
            body(indent + 1)
            return name
        number = len(self._functions)
        name = f"_{label}_{number + 1}"
        self._functions.append(None)  # (its place, so that functions nested in it number on)
        outer = self.lines, self.line_nodes
        self.lines, self.line_nodes = [f"def _({params}):"], {1: node}  # (its header later)
        body(1)
        lines, nodes = self.lines, self.line_nodes
        self.lines, self.line_nodes = outer
        known = set(self.namespace) | _GLOBALS | {f[0] for f in self._functions if f is not None}
        free = [n for n in nesting.names_in(lines, free=True) if n not in known]
        lines[0] = f"def {name}({', '.join(free + ([params] if params else []))}):"
        self._functions[number] = (name, lines, nodes)
        return f"partial({name}, {', '.join(free)})" if free else name

    def node_cond(self, node, indent):
        state = self._state(node)
        sargs = ", ".join(state)
        fname = f"v{node.outputs[0].id}" if node.outputs else f"n{len(self.lines)}"
        fns = []
        for label, block in zip(("then", "else"), node.blocks):

            def body(inner, block=block):
                self.block(block, inner)
                outs = [self.carried(v, t) for v, t in zip(block.outputs, node.outputs)]
                states = [f"carry({s}, {self._state_dtype(s)})" for s in state]
                self.emit(inner, f"return ({_tuple(outs)}, {_tuple(states)})", node)

            fns.append(self.function(indent, f"_{label}_{fname}", sargs, label, node, body))
        targets = _tuple([f"v{t.id}" for t in node.outputs])
        test = self.expr(node.args[0])
        self.emit(
            indent,
            f"{targets}, {_tuple(state)} = cond({test}, {fns[0]}, {fns[1]}, {_tuple(state)})",
            node,
        )

    def carried(self, v, t) -> str:
        """`v`, the value of branch result or loop variable `t`, in the form it keeps."""
        if self.plan.is_list(t):
            return f"carry_list({self.expr(v)})"
        if t.id in self.plan.branch_results:
            return _list_makers.carried_branch_stack(self, v, t)
        if t.id in self.plan.handles:
            return f"carry({self.expr(v)}, {self.dtype(_string_handles.DTYPE)})"
        return f"carry({self.expr(v)}, {self.dtype(t.dtype)})"

    def node_while(self, node, indent):
        test_block, body = node.blocks
        for v in (*node.args, *body.params):
            if (
                isinstance(v, Tensor)
                and v.dtype == object
                and not self.plan.is_list(v)
                and v.id not in self.plan.handles
            ):
                raise lowering_error(node, "a loop variable holds a Python object")
        state = self._state(node)
        stop = bool(node.attrs.get("stop"))
        params = [f"v{p.id}" for p in body.params]
        carry_names = params + state + (["stop"] if stop else [])
        unpack = f"{_tuple(carry_names)} = c_" if carry_names else None
        fname = f"w{node.outputs[0].id}" if node.outputs else f"w{len(self.lines)}"

        def test(inner):
            if unpack:
                self.emit(inner, unpack, node)
            self.block(test_block, inner)
            conds = [f"truth({self.expr(test_block.outputs[0])})"]
            if stop:
                conds.append("~stop")
            if "err" in state:
                conds.append("~err")
            self.emit(inner, f"return all_of({', '.join(conds)})", node)

        def step(inner):
            if unpack:
                self.emit(inner, unpack, node)
            self.block(body, inner)
            n = len(body.params)
            outs = [self.carried(v, p) for v, p in zip(body.outputs[:n], body.params)]
            outs += [f"carry({s}, {self._state_dtype(s)})" for s in state]
            if stop:
                outs.append(f"carry(truth({self.expr(body.outputs[n])}), {self.dtype(np.bool_)})")
            self.emit(inner, f"return {_tuple(outs)}", node)

        test_fn = self.function(indent, f"_test_{fname}", "c_", "test", node, test)
        body_fn = self.function(indent, f"_body_{fname}", "c_", "body", node, step)
        inits = [self.carried(v, p) for v, p in zip(node.args, body.params)]
        inits += [f"carry({s}, {self._state_dtype(s)})" for s in state]
        if stop:
            inits.append(f"carry(False, {self.dtype(np.bool_)})")
        results = [f"v{t.id}" for t in node.outputs] + state + (["_"] if stop else [])
        self.emit(
            indent,
            f"{_tuple(results)} = while_loop({test_fn}, {body_fn}, {_tuple(inits)})",
            node,
        )


_COMPARING = _ops.COMPARISONS | {
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "equal",
    "not_equal",
}
_LIST_KINDS = frozenset(("list_append", "cond", "while", "print"))


class _Raw(str):
    """Code written as it is by `call_arguments`."""


def _tuple(items) -> str:
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def _inexact_operands(node, common):
    """The dtype to give the operands of an operation that NumPy computes in a float or
    complex dtype from ints or bools (`x / 5`, `np.sqrt(x)` on an int32 `x`): NumPy's result
    dtype, float64, where JAX would compute in float32. Else `common` as it is."""
    if common is None or common.kind not in "biu" or len(node.outputs) != 1:
        return common
    out = node.outputs[0].dtype
    return out if out.kind in "fc" else common


def _common_dtype(args):
    """NumPy's common dtype of operator operands (Python numbers and weak Tensors weak)."""
    standins = []
    for a in args:
        if isinstance(a, Tensor):
            standins.append(_STANDIN.get(a.dtype.kind, 1) if a.weak else a.dtype)
        elif isinstance(a, (bool, int, float, complex, np.generic, np.ndarray)):
            standins.append(a)
        else:
            return None
    try:
        return np.result_type(*standins)
    except (TypeError, ValueError):
        return None


def _scalar(v) -> bool:
    """An index known only when the graph runs that picks one position of its axis."""
    return isinstance(v, Tensor) and not v._shape


def _math_domain(node):
    """The domain of a `math` function of a run-time number that may raise (a helper node)."""
    if node.kind != "helper" or not node.args or not isinstance(node.args[0], Tensor):
        return None
    return _math_domains.domain(node.fn, node.args)
