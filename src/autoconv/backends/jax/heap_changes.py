"""Lowers `heapq` and `bisect` of run-time lists (trace.tensors.heaps) to the device functions
of `heapops.py`, for `changes.py`: lists of numbers or of tuples of numbers, compared as
Python compares them. A pop of an empty heap keeps eager's IndexError (a run-time check)."""

from __future__ import annotations

import heapq

from autoconv.backends.jax import reads as _reads
from autoconv.backends.jax.errors import lowering_error

KINDS = frozenset(
    "heappush heappop heappushpop heapreplace heapify insort_right insort_left bisect_left "
    "bisect_right".split()
)
_CALLS = {
    "heappush": "heap_push",
    "heapreplace": "heap_replace",
    "heappushpop": "heap_pushpop",
    "insort_right": "heap_insort",
    "insort_left": "heap_insort",
}


def lower(w, node, indent, kind, parts, check) -> None:
    """Writes `kind` (one of KINDS) of the run-time list `node` changes or reads; `parts` is
    its `(prefix, list, tail)` as the call takes it, `check` makes a run-time check."""
    plan = w.plan
    prefix, lst, tail, *args = node.args
    fam = plan.family(lst)
    dtypes = [fam.dtype[n] for n in fam.dtype.names] if fam.dtype.fields else [fam.dtype]
    if fam.elem or any(d.kind not in "biuf" or d.shape for d in dtypes):
        raise lowering_error(
            node,
            f"`{kind}` of {plan.describe(lst)} is lowered for lists of real numbers or tuples "
            "of them only (its items are arrays, strings or complex numbers)",
        )
    outs = node.outputs
    new = f"v{outs[0].id}"
    right = ", True" if kind.endswith("right") else ", False" if kind.endswith("left") else ""
    item = _reads.item_expr(w, node, lst, args[0]) if args else None
    if kind in ("heappush", "insort_right", "insort_left"):
        w.emit(indent, f"{new} = {_CALLS[kind]}({parts}, {item}{right})", node)
        if fam.index is not None:  # (a list that may outgrow its buffer: `changes.sets_error`)
            check(f"{new}[1] <= {max(fam.cap, 1)}", None)
    elif kind == "heapify":
        w.emit(indent, f"{new} = heap_heapify({parts})", node)
        if fam.index is not None:
            check(f"{new}[1] <= {max(fam.cap, 1)}", None)
    elif kind in ("bisect_left", "bisect_right"):
        res = f"v{outs[1].id}"
        w.emit(indent, f"{new}, {res}, {res}_ok = heap_bisect({parts}, {item}{right})", node)
        if fam.index is not None:
            check(f"{res}_ok", None)
    else:  # heappop, heapreplace, heappushpop: an item comes back
        got = outs[1]
        v = f"v{got.id}"
        call = "heap_pop" if kind == "heappop" else _CALLS[kind]
        more = f", {item}" if item is not None else ""
        w.emit(indent, f"{new}, {v}, {v}_ok = {call}({parts}{more})", node)
        if kind != "heappushpop":
            record = check(f"{v}_ok", None)
            record.make = lambda: _caught(lambda: heapq.heappop([]))  # Python's IndexError
        elif fam.index is not None:
            check(f"{v}_ok", None)
        if got.dtype.fields is None:
            w.emit(indent, f"{v} = fix({v}, {w.dtype(got.dtype)})", node)
        # (its Python type: the one of the item at the front of the whole list)
        at = "0" if kind != "heappushpop" else "-1"
        info = {"lst": lst, "prefix": prefix, "tail": tail, "kind": "item", "args": args}
        info["at"] = at
        w.list_reads[got.id] = info


def _caught(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - eager Python's own exception, kept
        return e
    raise AssertionError("expected an exception")  # pragma: no cover
