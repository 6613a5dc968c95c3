"""Lowers the changes of run-time lists inside the program: a slice (`losses[-3:]`), `in`, and
the list methods other than `append` (pop, insert, remove, sort, reverse, index, count), and an
item write (`setitem`).

Each call goes to `listops.py` on the device, over the whole list in one buffer (the items
known while tracing, then the run-time ones), and gives a new `(buffer, count)` of the list's
family, which `lists.py` bounds. Where eager Python raises (a pop of an empty list, `remove`
of an item the list does not hold) a run-time check keeps its exception, as `reads.py` does;
the same check sees a buffer that overflowed (the call then runs again with a larger one).
Methods that compare items (`remove`, `index`, `count`, `in`, `sort`) are lowered for lists of
numbers: they compare with `==` (and sort with `<`) as Python does for NumPy scalars.
"""

from __future__ import annotations

import numpy as np

from autoconv.backends.jax import heap_changes as _heap_changes
from autoconv.backends.jax import heapops as _heapops
from autoconv.backends.jax import reads as _reads
from autoconv.backends.jax.errors import lowering_error
from autoconv.backends.jax.host import to_eager
from autoconv.graph import helpers as _helpers
from autoconv.graph.record_layout import layout_of
from autoconv.graph.tensor import Tensor

_METHODS = {fn: name for name, fn in _helpers.LIST_METHODS.items()}
_COMPARING = frozenset(("remove", "index", "count", "in", "sort"))
NAMES = (
    "list_slice list_pop list_insert list_setitem list_index list_count list_remove "
    "list_reverse list_sort list_nan_clash"
).split() + list(_heapops.HELPERS)


def change_kind(node, plan):
    """ "slice", "in" or the method's name for a node changing a run-time list, else None."""
    if node.kind != "helper" or not plan.bounds:
        return None
    if node.fn is _helpers.slice_list:
        kind = "slice"
    elif node.fn is _helpers.contains_list:
        kind = "in"
    else:
        kind = _METHODS.get(node.fn)
    if kind is None or len(node.args) < 3 or not plan.is_list(node.args[1]):
        return None
    return kind


def sets_error(node, plan) -> bool:
    """Whether the lowered change may set the error flag (a run-time check)."""
    kind = change_kind(node, plan)
    if kind is None:
        return False
    fam = plan.family(node.args[1])
    if kind in ("pop", "remove", "index", "sort", "setitem") or fam.index is not None:
        return True
    if kind in _heap_changes.KINDS:
        return kind in ("heappop", "heapreplace")
    return kind in ("count", "in") and fam.dtype.kind in "fc"  # (a NaN looked for)


class _Check(_reads.Check):
    """A change's run-time check: also given the list's count and the item the method looked
    for, which eager Python's message names."""

    def __init__(self, node, plan, lst, make, known):
        super().__init__(node, plan, lst, make)
        self.known = known  # items known while tracing (the count is the run-time ones')
        self.seen: tuple = ()

    def __call__(self, err, count, capacity, *values):
        n = int(np.asarray(count)) + self.known
        self.seen = (n, *values)
        if self.index is not None and n > int(capacity):
            count = n  # the whole list outgrew the buffer: run again with a larger one
        super().__call__(err, count, capacity)


def lower(w, node, indent) -> bool:
    """Writes `node` (`change_kind` is not None) with writer `w` (`lowering._Writer`)."""
    plan = w.plan
    kind = change_kind(node, plan)
    prefix, lst, tail, *args = node.args
    parts = _reads.parts_of(w, node, lst, prefix, tail)
    fam = plan.family(lst)
    rows = kind == "sort" and _real_rows(fam.dtype)  # tuples of numbers: compared in order
    if (
        kind in _COMPARING
        and not rows
        and (fam.dtype.fields is not None or fam.elem or fam.dtype.kind == "O")
    ):
        raise lowering_error(
            node,
            f"`{kind}` of {plan.describe(lst)} is lowered for lists of numbers only (its items "
            "are arrays, tuples or strings)",
        )
    if kind == "sort" and fam.dtype.kind == "c":
        raise lowering_error(node, f"`sort()` of {plan.describe(lst)}: its items have no order")
    outs = node.outputs
    new = f"v{outs[0].id}"
    known = len(prefix) + len(tail)

    def check(ok, make, *extra):
        record = _Check(node, plan, lst, make, known)
        w.callbacks.append(record)
        cb = w.bind(record, f"list_check_{len(w.callbacks)}")
        ref = w.ref(lst)
        more = "".join(", " + w.expr(v) for v in extra)
        w.emit(indent, f"err = check({ok}, err, {cb}, {ref}[1], {_rows(plan, lst)}{more})", node)
        return record

    if kind in _heap_changes.KINDS:
        _heap_changes.lower(w, node, indent, kind, parts, check)
    elif kind == "slice":
        start, stop, step = args
        if step is not None and (not _is_int(step) or step == 0):
            why = "zero" if _is_int(step) else "known only when the graph runs"
            raise lowering_error(node, f"the step of this slice of {plan.describe(lst)} is {why}")
        start, stop = (w.expr(v) if v is not None else "None" for v in (start, stop))
        w.emit(indent, f"{new} = list_slice({parts}, {start}, {stop}, {int(step or 1)})", node)
        _overflow(w, node, lst, new, indent, check)
    elif kind == "pop":
        key = args[0] if args else -1
        item = outs[1]
        v = f"v{item.id}"
        w.emit(indent, f"{new}, {v}, {v}_at, {v}_ok = list_pop({parts}, {w.expr(key)})", node)
        record = check(f"{v}_ok", None)
        # an empty list's message, or an index's past the end
        record.make = lambda r=record: _caught(lambda: ([None] * r.seen[0]).pop(r.seen[0]))
        if item.dtype.fields is None and item.dtype.kind != "O":  # (a string: on the host)
            w.emit(indent, f"{v} = fix({v}, {w.dtype(item.dtype)})", node)
        info = {"lst": lst, "prefix": prefix, "tail": tail, "kind": "item", "args": args}
        info["at"] = f"{v}_at"
        w.list_reads[item.id] = info
    elif kind == "insert":
        key, item = args
        expr = _reads.item_expr(w, node, lst, item)
        w.emit(indent, f"{new} = list_insert({parts}, {w.expr(key)}, {expr})", node)
        _overflow(w, node, lst, new, indent, check)
    elif kind == "setitem":
        key, item = args
        expr = _reads.item_expr(w, node, lst, item)
        w.emit(indent, f"{new}, {new}_ok = list_setitem({parts}, {w.expr(key)}, {expr})", node)
        record = check(f"{new}_ok", None)
        # an index past either end: Python's IndexError and message
        record.make = lambda r=record: _caught(lambda: _set_past_end(r.seen[0]))
    elif kind in ("remove", "index", "count", "in"):
        (item,) = args if len(args) == 1 else (None,)
        if len(args) != 1:
            raise lowering_error(node, f"`.index()` of {plan.describe(lst)} with start or stop")
        fn = "list_count" if kind == "in" else f"list_{kind}"
        if fam.dtype.kind in "fc":
            # Python looks for the very object first: it finds a NaN the list holds where it
            # is that object, which the device cannot tell.
            clash = f"v{outs[-1].id}_nan"
            w.emit(indent, f"{clash} = list_nan_clash({parts}, {w.expr(item)})", node)
            why = lowering_error(
                node,
                f"`{kind}` of {plan.describe(lst)} looked for a NaN in a list holding a NaN when "
                "the graph ran, where Python's answer depends on whether it is the very same "
                "object; this backend does not follow it (test with np.isnan instead)",
            )
            check(f"~{clash}", None).make = lambda why=why: why
        if kind == "remove":
            w.emit(indent, f"{new}, {new}_ok = list_remove({parts}, {w.expr(item)})", node)
            check(f"{new}_ok", None).make = lambda: _caught(lambda: [].remove(None))
        else:
            res = f"v{outs[-1].id}"
            target = "_" if kind == "in" else new
            w.emit(indent, f"{target}, {res}, {res}_ok = {fn}({parts}, {w.expr(item)})", node)
            if kind == "index":
                record = check(f"{res}_ok", None, item)
                record.make = lambda r=record: _caught(lambda: [].index(_seen_item(r, item)))
            else:
                _overflow(w, node, lst, None, indent, check, ok=f"{res}_ok")
            if kind == "in":
                w.emit(indent, f"{res} = {res} > 0", node)
    elif kind == "sort":
        reverse = args[0] if args else False
        if isinstance(reverse, Tensor):
            raise lowering_error(node, "`sort(reverse=...)` with a flag known only at run time")
        w.emit(indent, f"{new}, {new}_ok = list_sort({parts}, {bool(reverse)})", node)
        why = lowering_error(
            node,
            f"`sort()` of {plan.describe(lst)} found a NaN when the graph ran, where the order "
            "Python's sort gives depends on where the NaN stands; this backend does not follow "
            "it",
        )
        check(f"{new}_ok", None).make = lambda why=why: why
    elif kind == "reverse":
        w.emit(indent, f"{new} = list_reverse({parts})", node)
        _overflow(w, node, lst, new, indent, check)
    else:  # pragma: no cover - a method added to LIST_METHODS and not here
        raise lowering_error(node, f"`{kind}` of {plan.describe(lst)}")
    return True


def _real_rows(dtype) -> bool:
    """Whether a list's items are plain tuples of real numbers (one field each, no layout):
    Python compares them item by item, as `listops.list_sort` sorts their fields."""
    if dtype.fields is None or not dtype.names or layout_of(dtype) is not None:
        return False
    return all(dtype[n].shape == () and dtype[n].kind in "biuf" for n in dtype.names)


def _set_past_end(n: int):
    items = [None] * n
    items[n] = None  # Python's own IndexError


def _overflow(w, node, lst, new, indent, check, ok=None):
    """Where the list may outgrow its buffer: the check that reports it."""
    if w.plan.family(lst).index is None:
        return
    check(ok or f"{new}[1] <= {_rows(w.plan, lst)}", None)


def _rows(plan, lst) -> int:
    return max(plan.family(lst).cap, 1)


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _seen_item(record, item):
    value = record.seen[1] if len(record.seen) > 1 else item
    return to_eager(item, value) if isinstance(item, Tensor) else value


def _caught(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - eager Python's own exception, kept
        return e
    raise AssertionError("expected an exception")  # pragma: no cover
