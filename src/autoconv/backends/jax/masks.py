"""Boolean-mask selections `x[mask]`, lowered with static shapes where every use allows it.

`x[mask]` has as many rows as `mask` has true elements: a shape XLA cannot compile. Most code
only reduces the selection, though (`x[x > 0].sum()`, `np.mean(points[labels == j], axis=0)`,
`len(x[m])`), and a reduction does not need the selected shape. `MaskPlan` finds each selection
(a bool Tensor `mask` with `mask.shape == x.shape[:mask.ndim]`) and checks, before anything is
written, that every use of it is one of:

- a reduction over all its elements or over its first axis: sum, prod, mean, min, max, any, all
  (`np.` function, method or `ufunc.reduce` form) and `np.count_nonzero`. It is written over the
  whole of `x` with `where=mask`, so the shapes are static and the dtypes NumPy's;
- `len()`, `.shape[0]`, `.size`: the number of true elements of `mask`;
- an elementwise operation (an operator, a ufunc, `.astype`) with static-shaped or
  same-mask operands: computed over the whole array, its result is selected by the same mask;
- an index `sel[i]` with one integer (a loop over the selection): the selected rows are packed
  to the front of a buffer of the whole size, and the index is checked against the count.

What eager NumPy does on an empty selection is kept: `min`/`max` raise its ValueError, and
`mean` gives nan with NumPy's RuntimeWarnings. The device only finds them: it counts the empty
means and keeps which min/max failed first (setting the error flag, which stops loops and later
host calls), as state of the lowered code (`STATE`). After the call, the host runs the eager
reduction of an empty array, so the warnings and the exception are NumPy's own (`finish`,
`after`): no host call per loop iteration, and none at all where the program has no other.
Any other use (returning the selection, stacking it, a reduction along another axis) raises a
`LoweringError` that says why and what to write.
"""

from __future__ import annotations

import builtins
import warnings

import numpy as np

from autoconv.backends.jax import bounds as _bounds
from autoconv.backends.jax import mask_equal as _mask_equal
from autoconv.backends.jax import reads as _reads
from autoconv.backends.jax import sized as _sized
from autoconv.backends.jax.errors import lowering_error
from autoconv.graph import helpers as _helpers
from autoconv.graph.errors import warn_at, where
from autoconv.graph.graph import Graph, tensors_in, walk
from autoconv.graph.tensor import Tensor

# ufunc.reduce and the NumPy functions and array methods that reduce: the operation's name.
_UFUNC_REDUCTIONS = {
    np.add: "sum",
    np.multiply: "prod",
    np.maximum: "max",
    np.minimum: "min",
    np.logical_or: "any",
    np.logical_and: "all",
}
_FUNCS = {
    np.sum: "sum",
    np.prod: "prod",
    np.mean: "mean",
    np.max: "max",
    np.min: "min",
    np.amax: "max",
    np.amin: "min",
    np.any: "any",
    np.all: "all",
    np.count_nonzero: "count_nonzero",
    np.argmin: "argmin",
    np.argmax: "argmax",
}
_METHODS = frozenset(("sum", "prod", "mean", "max", "min", "any", "all", "argmin", "argmax"))
# Positional parameters after the array, as NumPy names them.
_PARAMS = {
    "ufunc": ("axis", "dtype", "out", "keepdims"),
    "sum": ("axis", "dtype", "out", "keepdims"),
    "prod": ("axis", "dtype", "out", "keepdims"),
    "mean": ("axis", "dtype", "out", "keepdims"),
    "max": ("axis", "out", "keepdims"),
    "min": ("axis", "out", "keepdims"),
    "any": ("axis", "out", "keepdims"),
    "all": ("axis", "out", "keepdims"),
    "count_nonzero": ("axis",),
    "argmin": ("axis", "out", "keepdims"),
    "argmax": ("axis", "out", "keepdims"),
}
# State of the lowered code: how often each `mean` of a selection was empty in this call, and
# which min/max of a selection found it empty first (-1: none).
COUNTS = "empty_means"
FAILED = "empty_failed"
STATE = (COUNTS, FAILED)
_COUNTS = {builtins.len: "len", _helpers.dim: "dim", _helpers.size: "size"}
_ADVICE = (
    "keep the shape with np.where(mask, x, 0), or reduce with where= (np.sum(x, where=mask), "
    "np.max(x, where=mask, initial=...)); sum/prod/mean/min/max/any/all/np.count_nonzero over "
    "the selection, len() and .shape[0] of it, elementwise operations on it and x[mask][i] "
    "are lowered"
)


class _Rows:
    """The mask of a list's selection (the buffer's first `count` rows): made in the lowered
    code from the count; while planning, only its shape is read."""

    __slots__ = ("shape",)

    def __init__(self, capacity: int):
        self.shape = (capacity,)


class Selection:
    """A masked value: the whole array it is selected from (`v<id>` in the lowered code, of
    shape `mask.shape + rest`) and the mask, shared by the values computed from it."""

    __slots__ = ("source", "mask", "rest", "compact")

    def __init__(self, source: Tensor, mask, rest: tuple):
        self.source = source  # the `x[mask]` Tensor whose names hold the mask and its count
        self.mask = mask
        self.rest = rest  # the shape of each selected row
        self.compact = False  # whether `sel[i]` needs the selected rows packed in a buffer

    @property
    def k(self) -> int:
        return len(self.mask.shape)


class MaskPlan:
    """The mask selections of a graph and how each node that uses one is lowered."""

    def __init__(self, graph: Graph, lists=None):
        self.lists = lists  # the ListPlan, to name a list a selection is appended to
        self.selections: dict = {}  # tensor id -> Selection
        self.nodes: dict = {}  # id(node) -> "source" | "elementwise" | "reduce" | "count" | "index"
        self.errors: set = set()  # id(node) of the uses that can raise (min/max, sel[i])
        self._reductions: dict = {}  # id(node) -> (op, axis, dtype, keepdims)
        self.means: dict = {}  # id(node) -> index in the counts of empty means (`COUNTS`)
        self.extrema: dict = {}  # id(node) of a min/max -> its number in `FAILED`
        self._mean_nodes: list = []
        self._extremum_nodes: list = []
        self._on_host = False  # whether a host call at the end of `run` reports (`finish`)
        # A while loop's test gives only its truth value: counts made there would be lost.
        self._in_tests = {
            id(n) for loop in graph.walk() if loop.kind == "while" for n in walk(loop.blocks[0])
        }
        for node in graph.walk():
            self._plan(node)
        blocks = [graph.block] + [b for n in graph.walk() for b in n.blocks]
        for value in [graph.outputs] + [b.outputs for b in blocks]:
            for t in tensors_in(value):
                if t.id in self.selections:
                    raise self.error(t, None, "it is a result of the function, a branch or a loop")

    def __bool__(self):
        return bool(self.selections)

    def error(self, t: Tensor, user, why: str):
        """The LoweringError for a selection `t` used where its shape is needed."""
        source = self.selections[t.id].source if t.id in self.selections else t
        node = source.node
        lst = self.lists.masked_stacks.get(id(node)) if self.lists is not None else None
        if lst is not None:
            return self.lists.stack_error(node, lst, user or node)
        if user is not None:
            op = f"`{user.op}`"
            acc = user.args[0] if user.kind == "list_append" and user.args else None
            if self.lists is not None and self.lists.is_list(acc):
                op += f" to {self.lists.describe(acc)}"
            why = f"{op} at {where(user.origin)} {why}"
        what = "x[mask] selects as many elements as the mask has true values"
        if node.kind == "call":  # sized.py's
            what = f"np.{node.fn.__name__}() gives as many elements as the data says"
        return lowering_error(
            node,
            f"{what}, a size that depends on the data, so XLA cannot compile it, and {why}. "
            f"Instead, {_ADVICE}",
        )

    # --- planning -------------------------------------------------------------------------
    def _plan(self, node):
        lst = self.lists.masked_stacks.get(id(node)) if self.lists is not None else None
        if lst is not None:
            # np.array(lst) of a run-time list: its buffer, the first `count` rows selected
            # (and the items known while tracing, `np.stack([first, *lst])`).
            fam = self.lists.family(lst)
            rows = max(fam.cap, 1) + len(node.args[0]) - 1  # (the items known while tracing)
            selection = Selection(node.outputs[0], _Rows(rows), tuple(fam.elem))
            self.selections[node.outputs[0].id] = selection
            self.nodes[id(node)] = "source"
            return
        sized = _sized.outputs(node)
        if sized is not None:  # np.nonzero, np.unique: selections of a whole array
            rows = _sized.Rows(int(np.prod(node.args[0].shape, dtype=np.int64)))
            for out, rest in sized:
                self.selections[out.id] = Selection(node.outputs[0], rows, rest)
            self.nodes[id(node)] = "sized"
            return
        if node.kind == "getitem":
            selection = _source(node)
            if selection is not None:
                self.selections[node.outputs[0].id] = selection
                self.nodes[id(node)] = "source"
                return
            if _masks_data_dependently(node):
                raise lowering_error(
                    node,
                    "x[mask] selects as many elements as the mask has true values, a size that "
                    "depends on the data, so XLA cannot compile it (only x[mask] with one "
                    f"boolean mask over the leading axes is lowered, and only reduced); {_ADVICE}",
                )
        used = [t for t in node.inputs if t.id in self.selections]
        if not used:
            return
        t = used[0]
        if self._reduction(node, t):
            op = self._reductions[id(node)][0]
            if op in ("argmin", "argmax"):  # the position among the rows packed in front
                self.selections[t.id].compact = True
            if op in ("min", "max", "argmin", "argmax"):
                self.errors.add(id(node))
                if id(node) not in self._in_tests:
                    self._extremum_nodes.append(node)
                    self.extrema[id(node)] = len(self.extrema)
            elif op == "mean" and id(node) not in self._in_tests:
                self._mean_nodes.append((node, len(self.means)))
                self.means[id(node)] = len(self.means)
            self.nodes[id(node)] = "reduce"
        elif _count(node, t) is not None:
            self.nodes[id(node)] = "count"
        elif self._index(node, t):
            self.selections[t.id].compact = True
            self.nodes[id(node)] = "index"
            self.errors.add(id(node))
        elif self._elementwise(node, used):
            self.nodes[id(node)] = "elementwise"
        elif _mask_equal.is_equal(node, self.selections):
            for v in used:
                self.selections[v.id].compact = True
            self.nodes[id(node)] = "equal"
        else:
            raise self.error(t, node, "needs its shape")

    def _reduction(self, node, t) -> bool:
        found = _reduction(node)
        if found is None or node.args[0] is not t or len(node.outputs) != 1:
            return False
        op, params = found
        if params.get("out") is not None or None in node.outputs[0].shape:
            return False
        axis = params.get("axis")
        if isinstance(axis, tuple) and len(axis) == 1:
            axis = axis[0]
        if axis is not None:
            if not _integer(axis) or int(axis) % len(t.shape) != 0:
                return False
            axis = 0
        keepdims = params.get("keepdims", False)
        if not isinstance(keepdims, bool):
            return False
        if op in ("argmin", "argmax") and (keepdims or self.selections[t.id].rest):
            return False  # (a flat position of rows of several elements)
        self._reductions[id(node)] = (op, axis, params.get("dtype"), keepdims)
        return True

    def _index(self, node, t) -> bool:
        if node.kind != "getitem" or node.args[0] is not t or node.attrs.get("tuple"):
            return False
        key = node.args[1]
        if isinstance(key, Tensor):
            return key.shape == () and key.dtype.kind in "iu"
        return _integer(key)

    def _elementwise(self, node, used) -> bool:
        if len(node.outputs) != 1 or node.kwargs:
            return False
        out = node.outputs[0]
        if not out.shape or out.shape[0] is not None or None in out.shape[1:]:
            return False
        if node.kind in ("binop", "unop"):
            pass
        elif node.kind == "call" and isinstance(node.fn, np.ufunc) and node.fn.nout == 1:
            pass
        elif node.kind == "method" and node.fn == "astype" and len(node.args) == 2:
            pass
        else:
            return False
        first = self.selections[used[0].id]
        for v in node.args:
            if isinstance(v, Tensor) and v.id in self.selections:
                s = self.selections[v.id]
                if s.mask is not first.mask:
                    return False
                if len(v.shape) != len(out.shape):
                    return False  # (n,) with (n, 3) would broadcast n against 3
            elif isinstance(v, (Tensor, np.ndarray)):
                shape = v.shape
                if None in shape or len(shape) >= len(out.shape):
                    return False  # it would broadcast against the selected axis
        self.selections[out.id] = Selection(first.source, first.mask, tuple(out.shape[1:]))
        return True

    # --- lowering -------------------------------------------------------------------------
    def lower(self, w, node, indent) -> bool:
        """Writes `node` (a selection or a use of one) with writer `w`."""
        how = self.nodes[id(node)]
        getattr(self, "_lower_" + how)(w, node, indent)
        return True

    def _names(self, t: Tensor):
        s = self.selections[t.id]
        base = f"v{s.source.id}"
        return s, f"{base}_m", f"{base}_n"

    def _lower_source(self, w, node, indent):
        t = node.outputs[0]
        s, m, n = self._names(t)
        lst = self.lists.masked_stacks.get(id(node)) if self.lists is not None else None
        if lst is not None:
            self._lower_list_source(w, node, lst, indent)
            return
        x, mask = node.args
        w.emit(indent, f"v{t.id} = {w.receiver(x)}", node)
        mask_expr = w.receiver(mask)
        w.emit(indent, f"{n} = jnp.sum({mask_expr}, dtype={w.dtype(np.int64)})", node)
        w.emit(indent, f"{m} = jnp.reshape({mask_expr}, {mask.shape + (1,) * len(s.rest)!r})", node)
        self._compact(w, node, t, indent)

    def _lower_sized(self, w, node, indent):
        _sized.lower(w, node, self._names, indent)
        for out in node.outputs:
            if out.id in self.selections:
                self._compact(w, node, out, indent)

    def _lower_list_source(self, w, node, lst, indent):
        """np.stack([*before, *lst, *after]): the items known while tracing as rows around the
        buffer, the list's first `count` rows selected."""
        t = node.outputs[0]
        s, m, n = self._names(t)
        template = node.args[0]
        at = next(i for i, v in enumerate(template) if v is lst)
        dt = w.dtype(t.dtype)
        ref = w.ref(lst)
        one = (1, *s.rest)

        def row(v):
            return f"jnp.reshape(fix(jnp.asarray({w.expr(v)}), {dt}), {one!r})"

        parts = [row(v) for v in template[:at]] + [f"fix({ref}[0], {dt})"]
        parts += [row(v) for v in template[at + 1 :]]
        known = len(template) - 1
        value = f"jnp.concatenate([{', '.join(parts)}])" if known else parts[0]
        w.emit(indent, f"v{t.id} = {value}", node)
        w.emit(indent, f"{n} = fix({ref}[1], {w.dtype(np.int64)}) + {known}", node)
        cap = s.mask.shape[0] - known
        flags = [f"jnp.ones({at}, bool)", f"jnp.arange({cap}) < {ref}[1]"]
        flags.append(f"jnp.ones({known - at}, bool)")
        rows = f"jnp.concatenate([{', '.join(flags)}])"
        w.emit(indent, f"{m} = jnp.reshape({rows}, {s.mask.shape + (1,) * len(s.rest)!r})", node)
        if s.compact and at == known:  # the items packed at the front
            w.emit(indent, f"v{t.id}_rows = v{t.id}", node)
        else:
            self._compact(w, node, t, indent)
        _reads.check_overflow(w, node, lst, indent)

    def _compact(self, w, node, t, indent):
        s, m, _ = self._names(t)
        if not s.compact:
            return
        size = int(np.prod(s.mask.shape))
        if size == 0:  # nothing to index (each index is checked): one row to read
            w.emit(indent, f"v{t.id}_rows = jnp.zeros({(1, *s.rest)!r}, v{t.id}.dtype)", node)
            return
        rows = f"jnp.nonzero(jnp.ravel({m}), size={size}, fill_value=0)[0]"
        w.emit(indent, f"v{t.id}_rows = jnp.reshape(v{t.id}, {(size, *s.rest)!r})[{rows}]", node)

    def _lower_elementwise(self, w, node, indent):
        out = node.outputs[0]
        w.emit(indent, f"v{out.id} = {w.rhs(node)}", node)
        w._fix(node, out, indent)
        self._compact(w, node, out, indent)

    def _lower_equal(self, w, node, indent):
        _mask_equal.lower(w, node, self.selections, self._names, indent)

    def _lower_count(self, w, node, indent):
        t = [v for v in node.inputs if v.id in self.selections][0]
        s, _, n = self._names(t)
        out = node.outputs[0]
        value = n
        if _count(node, t) == "size":
            value = f"{n} * {int(np.prod(s.rest))}"
        w.emit(indent, f"v{out.id} = fix({value}, {w.dtype(out.dtype)})", node)

    def _lower_index(self, w, node, indent):
        t, key = node.args
        _, _, n = self._names(t)
        out = node.outputs[0]
        record = _bounds.recorder(0)
        record.node = node
        w.callbacks.append(record)
        cb = w.bind(record, f"index_error_{len(w.callbacks)}")
        i = w.expr(key)
        ok = f"{w.bind(_bounds.inbounds, 'inbounds')}({i}, {n})"
        w.emit(indent, f"err = check({ok}, err, {cb}, {i}, {n})", node)
        w.emit(indent, f"v{out.id} = v{t.id}_rows[jnp.where({i} < 0, {i} + {n}, {i})]", node)

    def _lower_reduce(self, w, node, indent):
        t = node.args[0]
        s, m, n = self._names(t)
        op, axis, dtype, keepdims = self._reductions[id(node)]
        out = node.outputs[0]
        axes = tuple(range(s.k)) if axis == 0 else None
        rest = int(np.prod(s.rest))
        # How many elements each result reduces: the selected rows (times the row size when
        # the whole selection is reduced).
        count = n if axis == 0 or rest == 1 else f"({n} * {rest})"
        x = f"v{t.id}"
        odt = w.dtype(out.dtype)
        if op in ("sum", "prod"):
            value = f"jnp.{op}({x}, axis={axes!r}, dtype={odt}, where={m})"
        elif op in ("any", "all"):
            value = f"jnp.{op}({x}, axis={axes!r}, where={m})"
        elif op == "count_nonzero":
            value = f"jnp.sum(({x} != 0) & {m}, axis={axes!r})"
        elif op == "mean":
            # NumPy sums float16 in float32 for a mean.
            acc = np.float32 if out.dtype == np.float16 and dtype is None else out.dtype
            acc = w.dtype(acc)
            value = f"jnp.sum({x}, axis={axes!r}, dtype={acc}, where={m}) / fix({count}, {acc})"
            self._warn_if_empty(w, node, t, count, indent)
        elif op in ("argmin", "argmax"):  # the first best of the rows packed in front
            fill = _identity(op[3:], t.dtype)
            if fill is None:
                raise self.error(t, node, f"has no JAX form for {t.dtype} values")
            self._fail_if_empty(w, node, t, count, indent)
            size = int(np.prod(s.mask.shape))
            rows = f"jnp.where(jnp.arange({max(size, 1)}) < {n}, v{t.id}_rows, {w.expr(fill)})"
            value = f"jnp.{op}({rows})"
        else:  # min, max: eager NumPy raises on an empty selection
            initial = _identity(op, t.dtype)
            if initial is None:
                raise self.error(t, node, f"has no JAX form for {t.dtype} values")
            self._fail_if_empty(w, node, t, count, indent)
            value = f"jnp.{op}({x}, axis={axes!r}, where={m}, initial={w.expr(initial)})"
        w.emit(indent, f"v{out.id} = jnp.reshape({value}, {out.shape!r})", node)
        w.emit(indent, f"v{out.id} = fix(v{out.id}, {odt})", node)

    def _warn_if_empty(self, w, node, t, count, indent):
        # Counted on the device and warned on the host after the call (`warn_after`): a host
        # call inside a loop costs about 50 us per iteration on a CPU, more than the work.
        if id(node) not in self.means:  # in a loop's test: a host call right here
            warn = _eager_warner(node, t)
            w.callbacks.append(lambda err, _warn=warn: None if bool(err) else _warn())
            cb = w.bind(w.callbacks[-1], f"empty_mean_{len(w.callbacks)}")
            err = "err" if w.has_error else "False"
            w.emit(indent, f"check({count} != 0, {err}, {cb})", node)  # its flag is dropped
            return
        empty = f"{count} == 0"
        if w.has_error:
            empty = f"jnp.logical_and({empty}, jnp.logical_not(err))"  # none after a raise
        i = self.means[id(node)]
        w.emit(indent, f"{COUNTS} = {COUNTS}.at[{i}].add(fix({empty}, {w.dtype(np.int64)}))", node)

    def _fail_if_empty(self, w, node, t, count, indent):
        if id(node) not in self.extrema:  # in a loop's test: a host call right here
            record = _eager_recorder(node, t)
            w.callbacks.append(record)
            cb = w.bind(record, f"reduce_error_{len(w.callbacks)}")
            w.emit(indent, f"err = check({count} > 0, err, {cb})", node)
            return
        # The error flag stops loops and later host calls; which node failed is kept on the
        # device, and its exception made on the host after the call (`finish`).
        first = f"jnp.logical_and({count} == 0, jnp.logical_not(err))"
        w.emit(indent, f"{FAILED} = jnp.where({first}, {self.extrema[id(node)]}, {FAILED})", node)
        w.emit(indent, f"err = jnp.logical_or(err, {count} == 0)", node)

    @property
    def after_call(self) -> bool:
        """Whether the host has work after the call: warnings of empty means, or the error of
        an empty min/max."""
        return bool(self.means or self.extrema)

    def state(self, node) -> list:
        """The state names (`STATE`) that `node` writes."""
        if id(node) in self.means:
            return [COUNTS]
        return [FAILED] if id(node) in self.extrema else []

    def start(self, w):
        """Writes the start of `run`: no empty means yet, and no failed min/max."""
        if self.means:
            w.emit(1, f"{COUNTS} = jnp.zeros({len(self.means)}, {w.dtype(np.int64)})", None)
        if self.extrema:
            w.emit(1, f"{FAILED} = jnp.asarray(-1, {w.dtype(np.int64)})", None)

    def finish(self, w) -> list:
        """Ends `run`; gives its extra results. The device only counts empty means and keeps
        the first min/max that found its selection empty; with no other host call in the
        program, these are extra results and the host warns and raises after the call
        (`after`): one host call costs about 0.8 ms per call on a CPU, even where it never
        runs. Otherwise one host call at the end of `run` does it, so that the warnings and
        the exception keep their order with the program's other host calls (except in a
        program that may run twice, whose host calls wait for the attempt that counts)."""
        state = ([COUNTS] if self.means else []) + ([FAILED] if self.extrema else [])
        # A program that may run twice (lists.py) reports after the attempt that counts.
        self._on_host = bool(state) and bool(w.callbacks) and w.pending is None
        if not self._on_host:
            return state
        done = self._done()
        slot: list = []

        def record(err, *values):
            exc = done(*values)
            if exc is not None and not slot:
                slot.append(exc)

        record.slot = slot  # raised by the program after the call, as the user's raise
        w.callbacks.append(record)
        cb = w.bind(record, f"selection_checks_{len(w.callbacks)}")
        ok = [f"jnp.all({COUNTS} == 0)"] if self.means else []
        ok += [f"{FAILED} < 0"] if self.extrema else []
        # The host call of a check that fails where there is something to say; the flag it
        # gives is dropped (the error flag was set where a min/max failed).
        w.emit(1, f"check(all_of({', '.join(ok)}), False, {cb}, {', '.join(state)})", None)
        return []

    def after(self, w, outputs):
        """`outputs` (the `HostValues` of the results) taking the extra results of `finish`
        as its last device results: reading them gives NumPy's warnings, then raises the
        exception of an empty min/max, as eager code would have."""
        if not self.after_call or self._on_host:
            return outputs
        done = self._done()
        env = outputs.env
        extra = bool(self.means) + bool(self.extrema)

        def env_after(arrays, keep=False):
            arrays = list(arrays)
            exc = done(*arrays[-extra:])
            if exc is not None:
                error, node = exc
                if hasattr(error, "add_note"):
                    error.add_note(f"raised by the graph at {where(node.origin)}")
                raise error
            return env(arrays[:-extra], keep)

        outputs.env = env_after
        return outputs

    def _done(self):
        """A host function of the extra results (the counts of empty means, the failed
        min/max): gives NumPy's warnings, each as often as its mean was empty (all of one
        `mean` line's, then the next line's), and returns `(exception, node)` of the failed
        min/max, or None."""
        warners = [None] * len(self.means)
        for node, i in self._mean_nodes:
            warners[i] = _eager_warner(node, node.args[0])
        extrema = list(self._extremum_nodes)
        means = bool(self.means)

        def done(*values):
            values = list(values)
            if means:
                for warner, n in zip(warners, np.asarray(values.pop(0)).tolist()):
                    for _ in range(n):
                        warner()
            if values and int(values[0]) >= 0:
                node = extrema[int(values[0])]
                try:
                    _eager(node, node.args[0])
                except Exception as e:  # noqa: BLE001 - NumPy's error, raised after the call
                    return e, node
            return None

        return done


# --- what a node is ---------------------------------------------------------------------------
def _source(node):
    """The Selection `node` (a getitem) makes, or None when it is not `x[mask]` of the lowered
    form (one bool Tensor over the leading axes, a result of data-dependent length)."""
    if node.attrs.get("tuple") or len(node.outputs) != 1:
        return None
    x, mask = node.args
    out = node.outputs[0]
    if not isinstance(mask, Tensor) or mask.dtype != np.bool_ or not mask.shape:
        return None
    shape = x.shape if isinstance(x, (Tensor, np.ndarray)) else None
    if shape is None or None in shape or None in mask.shape:
        return None
    if tuple(shape[: len(mask.shape)]) != tuple(mask.shape) or not out.shape:
        return None
    if out.shape[0] is not None:
        return None
    return Selection(out, mask, tuple(shape[len(mask.shape) :]))


def _masks_data_dependently(node) -> bool:
    """Whether a getitem has a bool Tensor in its key and a result of data-dependent shape."""
    if not node.outputs or None not in node.outputs[0].shape or node.outputs[0].dtype == object:
        return False  # (an object result is the host's: a Python list indexed, say)
    key = node.args[1]
    items = key if node.attrs.get("tuple") else (key,)
    return any(isinstance(v, Tensor) and v.dtype == np.bool_ for v in items)


def _reduction(node):
    """`(op, params)` for a reduction node (`params`: its arguments after the array, by name)."""
    if not node.args:
        return None
    if node.kind == "call":
        owner = getattr(node.fn, "__self__", None)
        if isinstance(owner, np.ufunc) and getattr(node.fn, "__name__", "") == "reduce":
            op = _UFUNC_REDUCTIONS.get(owner)
            names = _PARAMS["ufunc"]
        else:
            op = _FUNCS.get(node.fn) if _hashable(node.fn) else None
            names = _PARAMS.get(op, ())
    elif node.kind == "method" and node.fn in _METHODS:
        op = node.fn
        names = _PARAMS[op]
    else:
        return None
    if op is None or len(node.args) - 1 > len(names):
        return None
    params = dict(zip(names, node.args[1:]))
    for key, value in node.kwargs.items():
        if key not in names or key in params:
            return None
        params[key] = value
    if any(isinstance(v, Tensor) for v in params.values()):
        return None
    if op in ("any", "all") and params.get("dtype") not in (None, bool, np.bool_):
        return None
    return op, params


def _count(node, t):
    """ "len", "dim" or "size" where `node` is the length, first dimension or size of `t`."""
    if node.kind != "helper" or not _hashable(node.fn) or node.args[0] is not t:
        return None
    how = _COUNTS.get(node.fn)
    if how == "dim" and (len(node.args) != 2 or node.args[1] not in (0, -len(t.shape))):
        return None
    if how == "size" and len(node.args) > 1 and node.args[1] is not None:
        return None
    return how


def _integer(v) -> bool:
    """Whether `v` is a Python or NumPy integer (not a bool)."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _hashable(fn) -> bool:
    try:
        hash(fn)
    except TypeError:
        return False
    return True


def _identity(op, dtype):
    """The value that leaves a min/max unchanged, or None (complex values)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return np.bool_(op == "min")
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return dtype.type(info.max if op == "min" else info.min)
    if dtype.kind == "f":
        return dtype.type(np.inf if op == "min" else -np.inf)
    return None


def _empty_like(t: Tensor):
    return np.empty((0, *t.shape[1:]), dtype=t.dtype)


def _eager(node, t):
    """Runs `node` eagerly over an empty selection (NumPy's own errors and warnings)."""
    args = [_empty_like(t) if a is t else a for a in node.args]
    if node.kind == "method":
        return getattr(args[0], node.fn)(*args[1:], **node.kwargs)
    return node.fn(*args, **node.kwargs)


def _eager_recorder(node, t):
    """A host callback `(err)` keeping the exception eager NumPy raises for `node` on an empty
    selection (only the first error of a call counts, as with `raise`)."""
    slot: list = []

    def record(err, _node=node, _t=t):
        if bool(err) or slot:
            return
        try:
            _eager(_node, _t)
        except Exception as e:  # noqa: BLE001 - NumPy's error, raised after the call
            slot.append((e, _node))

    record.slot = slot
    return record


def _eager_warner(node, t):
    """A host function that gives NumPy's warnings for `node` on an empty selection."""

    module_globals: dict = {}  # the registry that shows each warning once per line

    def warn(_node=node, _t=t):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _eager(_node, _t)
        for w in caught:
            filename, line = w.filename, w.lineno
            if filename == __file__ and _node.origin is not None:
                # NumPy points the warning of the method form (`sel.mean()`) at its caller:
                # in eager code, the user's line.
                filename, line = _node.origin[0], _node.origin[1]
            warn_at(w.message, w.category, filename, line, module_globals)

    return warn
