"""Lowers the reads of run-time lists inside the program: an item (`lst[i]`, `for v in lst`),
`sum` / `max` / `min` of the items, and two lists joined in a branch (`list_concat`).

The calls go to `listops.py`, on the device. Where eager Python raises (an index past the end,
`max()` of no items) a run-time check keeps its exception, raised after the call as the user's
own `raise` is (`host.py`); the same check sees a list grown in an unbounded loop that
outgrew its buffer, and the call runs again with a larger one (`program.py`). The Python type
of a number read (`helpers.kind_index`) is worked out while lowering, per part of the list:
the items known while tracing each have theirs, the appended items their family's.
"""

from __future__ import annotations

import builtins
import sys

import numpy as np

from autoconv.backends.jax import lists as _lists
from autoconv.backends.jax import tagged as _tagged
from autoconv.backends.jax.errors import lowering_error
from autoconv.graph import helpers as _helpers
from autoconv.graph.eager_types import eager_type
from autoconv.graph.tensor import Tensor

CALLS = {"sum": builtins.sum, "max": builtins.max, "min": builtins.min}
_NUMBERS = (bool, int, float, complex)
# Python 3.12's sum() of Python floats compensates rounding (Neumaier); earlier, it adds.
# 3.14's does for Python complex numbers too (not lowered there).
_COMPENSATED_SUM = sys.version_info >= (3, 12)
_COMPENSATED_COMPLEX = sys.version_info >= (3, 14)


def read_kind(node, plan):
    """ "item", "sum", "max", "min" or "concat" for a node reading run-time lists, else None."""
    if node.kind != "helper" or not plan.bounds:
        return None
    if node.fn is _helpers.list_item:
        # (A Python list's item at a run-time key has no run-time list: `args[1]` is [].)
        return "item" if plan.is_list(node.args[1]) else None
    if node.fn is _helpers.concat_lists:
        return "concat"
    args = node.args
    if (
        node.op in CALLS
        and len(args) >= 3
        and type(args[0]) is list
        and type(args[2]) is list
        and plan.is_list(args[1])
    ):
        return node.op
    return None


def sets_error(node, plan) -> bool:
    """Whether the lowered read may set the error flag (a run-time check)."""
    lst = plan.masked_stacks.get(id(node))
    if lst is not None:
        return plan.family(lst).index is not None  # (`check_overflow`)
    kind = read_kind(node, plan)
    if kind in ("item", "max", "min"):
        return not _always_ok(node, plan, kind)
    if kind == "sum":
        return plan.family(node.args[1]).index is not None or _empty_sum_checked(node, plan)
    return False


def _plain_default(args, dtype) -> bool:
    """Whether `max`'s / `min`'s only other argument is its `default=`, a Python or NumPy real
    number that the result's dtype holds exactly (the device gives it where no item is)."""
    if len(args) != 1 or isinstance(args[0], Tensor):
        return False
    d = args[0]
    if type(d) not in (bool, int, float) and not isinstance(d, (np.integer, np.floating)):
        return False
    try:
        return bool(np.asarray(d).astype(dtype) == d) and np.asarray(d).dtype.kind != "c"
    except (OverflowError, ValueError):
        return False


def _always_ok(node, plan, kind) -> bool:
    """Whether an item or max/min read can be seen to succeed while lowering: a list of
    bounded length that always holds the item (a constant key), or holds any item at all."""
    prefix, lst, tail, *args = node.args
    if plan.family(lst).index is not None:
        return False  # it may outgrow its buffer: the check reports that
    fewest = plan.bounds[lst.id][0] + len(prefix) + len(tail)
    if kind != "item":
        return fewest > 0
    key = args[0]
    if isinstance(key, (bool, np.bool_)) or not isinstance(key, (int, np.integer)):
        return False
    return -fewest <= key < fewest


def _empty_sum_checked(node, plan) -> bool:
    """A sum of array items from a Python number, over a list that may hold none: eager Python
    gives the number itself (`0`), which has not the result's shape."""
    prefix, lst, tail, *args = node.args
    start = args[0] if args else 0
    elem = node.outputs[0].shape
    shape = tuple(start.shape) if isinstance(start, Tensor) else np.shape(start)
    empty = not prefix and not tail and plan.bounds[lst.id][0] == 0
    return bool(elem) and empty and shape != tuple(elem)


class Check:
    """The host callback of a read's run-time check `(err, count, capacity)`: records the
    overflow of a growable list's buffer (the call runs again), else the exception eager
    Python raises (the first of a call counts, as with `raise`)."""

    def __init__(self, node, plan, lst, make):
        self.node = node
        self.plan = plan
        self.index = plan.family(lst).index
        self.make = make
        self.slot: list = []

    def __call__(self, err, count, capacity):
        count, capacity = int(np.asarray(count)), int(np.asarray(capacity))
        if self.index is not None and count > capacity:
            overflow = self.plan.overflow
            overflow[self.index] = max(overflow.get(self.index, 0), count)
            return
        if bool(np.asarray(err)) or self.slot:
            return
        self.slot.append((self.make(), self.node))


def _eager_error(fn):
    def make():
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - eager Python's own exception, kept
            return e
        raise AssertionError("expected an exception")  # pragma: no cover

    return make


def lower(w, node, indent) -> bool:
    """Writes `node` (a read: `read_kind` is not None) with writer `w` (`lowering._Writer`)."""
    plan = w.plan
    kind = read_kind(node, plan)
    (out,) = node.outputs
    if kind == "concat":
        a, b = node.args
        w.emit(indent, f"v{out.id} = list_concat({w.ref(a)}, {w.ref(b)})", node)
        return True
    prefix, lst, tail, *args = node.args
    elem = tuple(plan.family(lst).elem)
    parts = parts_of(w, node, lst, prefix, tail)
    ref = w.ref(lst)
    name = f"v{out.id}"
    info = {"lst": lst, "prefix": prefix, "tail": tail, "kind": kind, "args": args}
    if kind == "item":
        (key,) = args
        w.emit(indent, f"{name}, {name}_at, {name}_ok = list_get({parts}, {w.expr(key)})", node)
        info["at"] = f"{name}_at"
        if not _always_ok(node, plan, kind):
            _check(w, node, lst, f"{name}_ok", indent, _eager_error(lambda: [][0]))
    elif kind in ("max", "min"):
        if elem or out.dtype.kind in "cOV" or (args and not _plain_default(args, out.dtype)):
            raise lowering_error(
                node,
                f"`{kind}()` of {plan.describe(lst)} is lowered for lists of real numbers "
                "without other arguments (or with a `default=` number of their dtype) only",
            )
        greater = kind == "max"
        w.emit(indent, f"{name}, {name}_at, {name}_ok = list_extreme({parts}, {greater})", node)
        info["at"] = f"{name}_at"
        fn = CALLS[kind]
        ok = f"{name}_ok"
        if args:  # `max(lst, default=d)`: d where the list holds no items (`at` is -1 then)
            w.emit(indent, f"{name} = jnp.where({name}_at < 0, {w.expr(args[0])}, {name})", node)
            ok = f"({name}_ok | ({name}_at < 0))"
        if not _always_ok(node, plan, kind):
            _check(w, node, lst, ok, indent, _eager_error(lambda: fn([])))
    else:  # sum
        start = args[0] if args else 0
        compensated = _compensated(node, plan, start)
        dt = w.dtype(out.dtype)
        w.emit(
            indent,
            f"{name}, {name}_ok = list_sum({parts}, {w.expr(start)}, {dt}, {compensated})",
            node,
        )
        if plan.family(lst).index is not None:
            _check(w, node, lst, f"{name}_ok", indent, None)
        if _empty_sum_checked(node, plan):
            why = (
                f"`sum()` of {plan.describe(lst)} found no items when the graph ran, where "
                f"eager Python gives the start, {start!r}, not an array of shape {elem}. "
                "Give sum() an array to start from (`sum(lst, np.zeros(shape))`)"
            )
            error = lowering_error(node, why)
            _check(w, node, lst, f"({ref}[1] > 0)", indent, lambda: error)
    if out.dtype.fields is None:  # (a tuple's items are typed by `row_field`)
        w.emit(indent, f"{name} = fix({name}, {w.dtype(out.dtype)})", node)
    w.list_reads[out.id] = info
    return True


def parts_of(w, node, lst, prefix, tail) -> str:
    """`(prefix items), list, (tail items)`: the arguments of a `listops` call."""
    plan = w.plan
    elem = tuple(plan.family(lst).elem)
    for v in (*prefix, *tail):
        if plan.family(lst).fields is not None and type(v) is tuple:
            continue  # a row: `item_expr` gives its fields
        shape = tuple(v.shape) if isinstance(v, Tensor) else np.shape(v)
        if shape != elem:
            raise lowering_error(
                node,
                f"{plan.describe(lst)} holds items of shape {elem} and others of shape "
                f"{shape}, which one buffer cannot hold",
            )
    values = plan.tags(lst) is not None  # a tagged list's numbers (tagged.py)
    ref = f"({w.ref(lst)}[0][0], {w.ref(lst)}[1])" if values else w.ref(lst)
    parts = f"({''.join(item_expr(w, node, lst, v, values) + ', ' for v in prefix)}), {ref}, "
    return parts + f"({''.join(item_expr(w, node, lst, v, values) + ', ' for v in tail)})"


def item_expr(w, node, lst, v, values=False) -> str:
    """An item of run-time list `lst` as its buffer holds it: a string as its index among the
    list's objects (`lists.ListPlan.object_index`), a tuple as a tuple."""
    plan = w.plan
    fam = plan.family(lst)
    if fam.fields is not None and type(v) is tuple:
        kinds = [fam.dtype[name].base.kind for name in fam.dtype.names]
        return "(" + "".join(_atom_expr(w, lst, x, k) + ", " for x, k in zip(v, kinds)) + ")"
    table = plan.tags(lst)
    if table is not None and not values:  # with its Python type's tag (tagged.py)
        return _tagged.item_expr(w, lst, v, _atom_expr(w, lst, v, fam.dtype.kind), table)
    return _atom_expr(w, lst, v, fam.dtype.kind)


def _atom_expr(w, lst, v, kind) -> str:
    if kind != "O":
        return w.expr(_lists.as_kind_value(v))
    plan = w.plan
    node = v.node if isinstance(v, Tensor) else None
    if node is not None and node.kind == "const":
        v, node = node.attrs["value"], None
    if node is None:
        return repr(plan.object_index(lst, v))
    if v.id in plan.handles:  # a string made when the graph runs (string_handles.py)
        return f"(-1 - {w.ref(v)})"
    tag, options = node.args  # a staged condition's choice (`helpers.choose`)
    table = [plan.object_index(lst, o) for o in options]
    return f"jnp.asarray({table!r})[{w.expr(tag)}]"


def capacity(w, lst) -> str:
    """The number of items the buffer of list `lst` holds."""
    return repr(max(w.plan.family(lst).cap, 1))


def check_overflow(w, node, lst, indent):
    """Where `lst` grows in an unbounded loop: the check that reports its buffer's overflow."""
    if w.plan.family(lst).index is not None:
        ref = w.ref(lst)
        _check(w, node, lst, f"{ref}[1] <= {capacity(w, lst)}", indent, None)


def _check(w, node, lst, ok, indent, make):
    record = Check(node, w.plan, lst, make)
    w.callbacks.append(record)
    cb = w.bind(record, f"list_check_{len(w.callbacks)}")
    ref = w.ref(lst)
    w.emit(indent, f"err = check({ok}, err, {cb}, {ref}[1], {capacity(w, lst)})", node)


def _kind(plan, v):
    """The Python type of an item eager code holds (None: a NumPy value, scalar or 0-d array,
    as `host.list_items` gives it: both have the tag of None)."""
    return eager_type(v) if isinstance(v, Tensor) else type(v)


def _run_kind(plan, lst, node):
    """The Python type of the items appended to `lst` (None: NumPy values)."""
    kinds = plan.all_kinds(lst)
    if len(kinds) > 1:
        shown = ", ".join(sorted("a NumPy value" if k is None else k.__name__ for k in kinds))
        raise lowering_error(
            node,
            f"the items appended to {plan.describe(lst)} are of several Python types "
            f"({shown}), which one buffer does not keep; append one kind of number",
        )
    return next(iter(kinds), None)


def _compensated(node, plan, start) -> bool:
    """Whether Python's sum of these items compensates rounding: 3.12 and later, where every
    item is a Python float (and the start a Python int or float)."""
    prefix, lst, tail, *_ = node.args
    if plan.tags(lst) is not None:  # Python and NumPy numbers (tagged.py)
        if _COMPENSATED_SUM and float in plan.tags(lst):
            raise lowering_error(
                node,
                f"`sum()` of {plan.describe(lst)} mixes Python floats with other kinds of "
                "number, whose rounding Python's sum follows item by item; append one kind "
                "of number",
            )
        return False
    kinds = [_kind(plan, v) for v in (*prefix, *tail)] + [_run_kind(plan, lst, node)]
    floats = [k is float for k in kinds]
    if _COMPENSATED_COMPLEX and complex in kinds:
        raise lowering_error(
            node,
            f"`sum()` of {plan.describe(lst)}: Python's sum of Python complex numbers "
            "compensates rounding, which this backend does not follow",
        )
    if not _COMPENSATED_SUM or node.outputs[0].shape or not any(floats):
        return False
    if all(floats) and _kind(plan, start) in (int, float):
        return True
    raise lowering_error(
        node,
        f"`sum()` of {plan.describe(lst)} mixes Python floats with other kinds of number, "
        "whose rounding Python's sum follows item by item; append one kind of number",
    )


def _standin(kind, dtype):
    if kind is None:
        return dtype.type(1)
    if kind in _NUMBERS:
        return kind(1)
    if kind is np.ndarray:
        return np.ones((), dtype)
    if isinstance(kind, type) and issubclass(kind, np.generic):
        return kind(1)
    return None


def lower_tag(w, node, indent) -> bool:
    """`kind_index(value, kinds)` of a number a list read gave: the Python type eager code
    has, as an index into `kinds`, worked out per part of the list."""
    value, kinds = node.args
    (t,) = node.outputs
    info = w.list_reads.get(value.id) if isinstance(value, Tensor) else None
    if info is None:
        raise lowering_error(node, "the Python type of this number is known only on the host")
    plan = w.plan
    lst = info["lst"]

    def index(kind):
        return kinds.index(kind) if kind is not None and kind in kinds else 0

    if info["kind"] == "sum" and plan.tags(lst) is not None:  # folded on the device
        w.emit(indent, f"v{t.id} = {_tagged.sum_tag(w, node, info, kinds, _standin)}", node)
        return True
    if info["kind"] == "sum":
        # The type of Python's sum follows from the items' types only: replay it on
        # stand-ins, with the appended items and without (an empty run).
        def replay(run):
            items = [_kind(plan, v) for v in info["prefix"]]
            items += [_run_kind(plan, lst, node)] * run
            items += [_kind(plan, v) for v in info["tail"]]
            start = info["args"][0] if info["args"] else 0
            values = [_standin(k, value.dtype) for k in (*items, _kind(plan, start))]
            if None in values:
                raise lowering_error(node, "the items are not all numbers")
            return index(type(builtins.sum(values[:-1], values[-1])))

        full, empty = replay(1), replay(0)
        lo, hi = plan.bounds[lst.id]
        if full == empty or lo > 0 or hi == 0:
            w.names[t.id] = repr(full if lo > 0 else empty)
            return False
        w.emit(indent, f"v{t.id} = jnp.where({w.ref(lst)}[1] > 0, {full}, {empty})", node)
        return True
    prefix = [index(_kind(plan, v)) for v in info["prefix"]]
    tail = [index(_kind(plan, v)) for v in info["tail"]]
    run = index(_run_kind(plan, lst, node))
    # `max(lst, default=d)` of no items: d's type (its position `at` is -1 then)
    extra = [index(_kind(plan, v)) for v in info["args"]] if info["kind"] != "item" else []
    if all(g == run for g in (*prefix, *tail, *extra)):
        w.names[t.id] = repr(run)
        return False
    count = plan.count(lst)
    count = repr(count) if count is not None else f"{w.ref(lst)}[1]"
    expr = (
        f"item_tag({info['at']}, {len(prefix)}, {count}, {tuple(prefix)!r}, {run}, {tuple(tail)!r})"
    )
    if extra:
        expr = f"jnp.where({info['at']} < 0, {extra[0]}, {expr})"
    w.emit(indent, f"v{t.id} = {expr}", node)
    return True
