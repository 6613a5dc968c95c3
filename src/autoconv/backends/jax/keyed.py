"""Lowers the sets and dicts whose keys are known only when the graph runs (`keyed_plan.py`
bounds their lists) to device buffers: each keyed operation calls `keyedops.py` on the
`(buffer, count)` pairs of the keys and values. Where Python raises (`d[k]` or `s.remove(k)`
of a missing key, `max()` of an empty dict) a run-time check keeps its exception, raised after
the call as `reads.py` does; the same check sees a buffer that overflowed. The set or dict a
function returns is made on the host from the lists (`host.py`), as the NumPy backend does.
"""

from __future__ import annotations

import numpy as np

from autoconv.backends.jax import reads as _reads
from autoconv.backends.jax.errors import lowering_error
from autoconv.backends.jax.host import to_eager
from autoconv.backends.jax.keyed_plan import is_keyed
from autoconv.graph import keyed_helpers as kh
from autoconv.graph.tensor import Tensor

# The functions of `keyedops.py` the lowered code calls.
NAMES = (
    "keyed_contains keyed_add keyed_discard keyed_item keyed_get keyed_store keyed_setdefault "
    "keyed_pop keyed_extreme keyed_pairs keyed_most_common"
).split()
_ONE_LIST = frozenset((kh.keyed_add, kh.keyed_discard, kh.keyed_remove, kh.keyed_contains))


def keyed_kind(node, plan):
    """The keyed helper of a node this module lowers, else None."""
    if not plan.bounds or not is_keyed(node):
        return None
    n = 1 if node.fn in _ONE_LIST else 2
    return node.fn if all(plan.is_list(t) for t in node.args[:n]) else None


def sets_error(node, plan) -> bool:
    """Whether the lowered operation may set the error flag (a run-time check)."""
    fn = keyed_kind(node, plan)
    if fn is None:
        return False
    if fn in (kh.keyed_remove, kh.keyed_item, kh.keyed_pop, kh.keyed_max, kh.keyed_min):
        return True
    return plan.family(node.args[0]).index is not None


class _KeyCheck(_reads.Check):
    """A check whose exception names the key looked for (a KeyError), given when it runs."""

    def __init__(self, node, plan, lst, key):
        super().__init__(node, plan, lst, self._make)
        self.key = key
        self.seen = None

    def __call__(self, err, count, capacity, *values):
        self.seen = values[0] if values else None
        super().__call__(err, count, capacity)

    def _make(self):
        key = self.key
        if isinstance(key, Tensor):
            key = to_eager(key, self.seen)
        elif type(key) is tuple:
            key = tuple(to_eager(k, v) for k, v in zip(key, self.seen or key))
        return KeyError(key)


def lower(w, node, indent) -> bool:
    """Writes keyed `node` (`keyed_kind` is not None) with writer `w` (`lowering._Writer`)."""
    plan = w.plan
    fn = keyed_kind(node, plan)
    keys = node.args[0]
    values = None if fn in _ONE_LIST else node.args[1]
    rest = node.args[1:] if values is None else node.args[2:]
    outs = node.outputs
    kfam = plan.family(keys)
    if kfam.dtype.kind == "O" or values is not None and plan.family(values).dtype.kind == "O":
        raise lowering_error(
            node, f"{_text(node, kfam)} holds strings, which this backend does not key"
        )
    for lst in (keys, values):
        if lst is not None:
            _reads.check_overflow(w, node, lst, indent)
    k, v = w.ref(keys), (w.ref(values) if values is not None else None)
    key = _reads.item_expr(w, node, keys, rest[0]) if rest else None
    name = f"v{outs[-1].id}" if outs else None
    if fn is kh.keyed_contains:
        w.emit(indent, f"{name} = keyed_contains({k}, {key})", node)
    elif fn is kh.keyed_add:
        w.emit(indent, f"{name} = keyed_add({k}, {key})", node)
    elif fn in (kh.keyed_discard, kh.keyed_remove):
        w.emit(indent, f"{name}, {name}_ok = keyed_discard({k}, {key})", node)
        if fn is kh.keyed_remove:
            _key_check(w, node, keys, f"{name}_ok", rest[0], indent)
    elif fn is kh.keyed_store:
        value = _reads.item_expr(w, node, values, rest[1])
        ks, vs = (f"v{t.id}" for t in outs)
        w.emit(indent, f"{ks}, {vs} = keyed_store({k}, {v}, {key}, {value})", node)
    elif fn is kh.keyed_setdefault:
        value = _reads.item_expr(w, node, values, rest[1])
        ks, vs, item = (f"v{t.id}" for t in outs)
        w.emit(indent, f"{ks}, {vs}, {item} = keyed_setdefault({k}, {v}, {key}, {value})", node)
        _read(w, node, values, outs[2], f"{v}[1]", indent)
    elif fn is kh.keyed_pop:
        ks, vs, item = (f"v{t.id}" for t in outs)
        w.emit(
            indent, f"{ks}, {vs}, {item}, {item}_at, {item}_ok = keyed_pop({k}, {v}, {key})", node
        )
        _key_check(w, node, keys, f"{item}_ok", rest[0], indent)
        _read(w, node, values, outs[2], f"{item}_at", indent)
    elif fn is kh.keyed_item:
        w.emit(indent, f"{name}, {name}_at, {name}_ok = keyed_item({k}, {v}, {key})", node)
        _key_check(w, node, keys, f"{name}_ok", rest[0], indent)
        _read(w, node, values, outs[0], f"{name}_at", indent)
    elif fn is kh.keyed_get:
        default = rest[1]
        if not isinstance(default, (Tensor, bool, int, float, complex, np.generic)):
            raise lowering_error(
                node,
                f"`.get()` of {_text(node)} with the default {default!r}: this backend keeps "
                "numbers only (give a number: `d.get(k, 0)`)",
            )
        fill = w.expr(default)
        w.emit(indent, f"{name}, {name}_at = keyed_get({k}, {v}, {key}, {fill})", node)
        # A missing key's position is the count: the default's kind tag stands there.
        _read(w, node, values, outs[0], f"{name}_at", indent, tail=[default])
    elif fn in (kh.keyed_max, kh.keyed_min):
        vfam = plan.family(values)
        if vfam.elem or vfam.fields is not None or vfam.dtype.kind == "c":
            raise lowering_error(node, f"`{fn.__name__[6:]}()` of {_text(node)} by its values")
        greater = fn is kh.keyed_max
        w.emit(indent, f"{name}, {name}_at, {name}_ok = keyed_extreme({k}, {v}, {greater})", node)
        fail = _reads._eager_error(lambda: fn([], []))
        _reads._check(w, node, keys, f"{name}_ok", indent, fail)
        _read(w, node, keys, outs[0], f"{name}_at", indent)
    elif fn in (kh.keyed_pairs, kh.keyed_most_common):
        if kfam.fields is not None or plan.family(values).fields is not None:
            raise lowering_error(node, f"`.items()` of {_text(node)} with tuple keys or values")
        rows = max(plan.family(outs[0]).cap, 1)
        if fn is kh.keyed_pairs:
            w.emit(indent, f"{name} = keyed_pairs({k}, {v}, {rows})", node)
        else:
            w.emit(indent, f"{name} = keyed_most_common({k}, {v}, {rows}, {rest[0]!r})", node)
    else:  # pragma: no cover - a keyed helper added to keyed_plan and not here
        raise lowering_error(node, f"`{fn.__name__}` of {_text(node)}")
    for t in outs:
        if not plan.is_list(t) and t.dtype.fields is None:
            w.emit(indent, f"v{t.id} = fix(v{t.id}, {w.dtype(t.dtype)})", node)
    return True


def _text(node, fam=None) -> str:
    kind = "set" if node.fn in _ONE_LIST else "dict"
    name = fam.name.rsplit(".", 1)[0] if fam is not None and fam.name else ""  # `d.keys()`
    return f"{kind} `{name}`" if name else f"this {kind}"


def _key_check(w, node, keys, ok, key, indent):
    """The KeyError eager Python raises where `ok` is false, naming the key."""
    record = _KeyCheck(node, w.plan, keys, key)
    w.callbacks.append(record)
    cb = w.bind(record, f"list_check_{len(w.callbacks)}")
    cap = _reads.capacity(w, keys)
    seen = ""
    if isinstance(key, Tensor):
        seen = ", " + w.expr(key)
    elif type(key) is tuple:
        seen = ", (" + "".join(w.expr(x) + ", " for x in key) + ")"
    w.emit(indent, f"err = check({ok}, err, {cb}, {w.ref(keys)}[1], {cap}{seen})", node)


def _read(w, node, lst, out, at, indent, tail=()):
    """Records `out` as an item read from `lst` at position `at` (`reads.lower_tag` gives its
    Python type from the list's items)."""
    info = {"lst": lst, "prefix": [], "tail": list(tail), "kind": "item", "args": [], "at": at}
    w.list_reads[out.id] = info
