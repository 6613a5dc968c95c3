"""Bounds of the shadow lists of sets and dicts whose keys are known only when the graph runs
(`graph.keyed_helpers`), for `lists.ListPlan`.

A keyed set is its run-time list of distinct keys in insertion order; a keyed dict is that and
the run-time list of its values. Each keyed operation gives the lists after it, which stay in
their families (one buffer size each): an insertion (`add`, `d[k] = v`, `setdefault`) adds at
most one item, a removal (`discard`, `remove`, `pop`) takes at most one, and a lookup leaves
them as they are. `d.items()` is a new list of pairs as long as the keys. So the loops' trip
counts bound a set or dict filled in a loop, as they bound a list grown there.
"""

from __future__ import annotations

import operator

import numpy as np

from autoconv.graph import helpers as _helpers
from autoconv.graph import keyed_helpers as kh
from autoconv.graph.eager_types import eager_type
from autoconv.graph.tensor import Tensor

# Each keyed helper that gives lists: how many items it adds (None: a lookup; it gives none).
ADDS = {
    kh.keyed_add: 1,
    kh.keyed_discard: -1,
    kh.keyed_remove: -1,
    kh.keyed_store: 1,
    kh.keyed_setdefault: 1,
    kh.keyed_pop: -1,
}
LOOKUPS = frozenset((kh.keyed_contains, kh.keyed_item, kh.keyed_get, kh.keyed_max, kh.keyed_min))
OUTPUTS = frozenset((kh.keyed_dict, kh.keyed_set))  # made on the host from the lists
_PAIRS = frozenset((kh.keyed_pairs, kh.keyed_most_common))  # new lists of `(key, value)`


def is_keyed(node) -> bool:
    """Whether `node` is a keyed operation this backend lowers on the device."""
    fn = node.fn
    return node.kind == "helper" and (fn in ADDS or fn in LOOKUPS or fn in _PAIRS)


def plan(lists, node) -> bool:
    """Records the bounds and families of the lists keyed `node` gives (`lists`: the
    `ListPlan`); False where its inputs are not run-time lists the plan knows."""
    fn = node.fn
    n_lists = 1 if fn in (kh.keyed_add, kh.keyed_discard, kh.keyed_remove) else 2
    if fn is kh.keyed_contains:
        n_lists = 1
    ins = node.args[:n_lists]
    if not all(lists.is_list(t) for t in ins):
        return False
    if fn in LOOKUPS:
        return True
    if fn in _PAIRS:
        keys, _ = ins
        (out,) = node.outputs
        lists.bounds[out.id] = lists.bounds[keys.id]
        lists._new(out, node)
        pairs = lists.family(out)
        for column, t in zip(pairs.fields, ins):  # each item's Python type, as eagerly
            column |= lists.all_kinds(t)
        return True
    added = ADDS[fn]
    key = node.args[n_lists]
    for i, t in enumerate(ins):
        lo, hi = lists.bounds[t.id]
        fam = lists.family(t)
        if added < 0:
            lists.shrunk.add(fam)
            bound = (max(lo - 1, 0), hi)
        else:
            bound = (lo, hi + 1)  # (the key may be there already)
            item = key if i == 0 else node.args[n_lists + 1]
            lists._item(fam, item, node)  # (`d[k] = d.get(k, 0) + 1`: `read_back`)
        out = node.outputs[i]
        lists.bounds[out.id] = bound
        lists._family[out.id] = lists._family[t.id]
    return True


_READS = frozenset((kh.keyed_item, kh.keyed_get, kh.keyed_setdefault, kh.keyed_pop))
_LIST_READS = frozenset((_helpers.list_item, _helpers.LIST_METHODS["pop"]))
_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv}
_OPS["%"] = operator.mod


def read_back(lists, item, depth=3):
    """`(list, other kinds)` where `item` is a value read from a run-time list (`lst[i]`,
    `lst.pop()`) or from a keyed dict's values (`d[k]`, `d.get(k, 0)`), or such a value with
    a Python number added, taken or multiplied by (an operation that keeps its Python type,
    int or float, Python's or NumPy's), else None. It is then of the kinds that list's items
    are, known once the whole graph is planned (`lists._all_kinds`), and the other kinds (a
    `get`'s default, the items known while tracing)."""
    node = item.node if isinstance(item, Tensor) else None
    if node is None or depth == 0:
        return None
    if node.kind == "helper" and node.fn in _LIST_READS and item is node.outputs[-1]:
        prefix, lst, tail = node.args[:3]  # `lst[i]`, `lst.pop()`: that list's kinds
        if not (type(prefix) is list and type(tail) is list and lists.is_list(lst)):
            return None
        extra = {eager_type(v) if isinstance(v, Tensor) else type(v) for v in (*prefix, *tail)}
        if not all(k in (bool, int, float) or issubclass(k, np.generic) for k in extra):
            return None
        return lst, extra
    if node.kind == "helper" and node.fn in _READS and item is node.outputs[-1]:
        values = node.args[1]
        if not lists.is_list(values):
            return None
        extra = {type(node.args[3])} if node.fn is kh.keyed_get else set()
        if any(k not in (bool, int, float) for k in extra):
            return None
        return values, extra
    op = _OPS.get(node.op) if node.kind == "binop" else None
    if op is None or len(node.args) != 2 or node.kwargs:
        return None
    a, b = node.args
    for read, other in ((a, b), (b, a)):
        number = _python_number(other)
        if number is None or not isinstance(read, Tensor):
            continue
        found = read_back(lists, read, depth - 1)
        if found is None or read.dtype != item.dtype:
            continue
        kind = read.dtype.kind
        if kind not in "iuf" or type(number) is float and kind != "f":
            continue
        # Python's int or float and NumPy's scalar of the dtype keep their type by `op`:
        stand = (int if kind in "iu" else float)(3), read.dtype.type(3)
        args = [(s, number) if read is a else (number, s) for s in stand]
        try:
            kept = all(type(op(*pair)) is type(s) for pair, s in zip(args, stand))
        except ZeroDivisionError:
            kept = False
        if kept:
            # The other kinds (a `.get` default) by `op` too: `d.get(k, 0) + 0.5` is a float.
            lst, extra = found
            try:
                extra = {type(op(k(3), number) if read is a else op(number, k(3))) for k in extra}
            except ZeroDivisionError:
                return None
            return lst, extra
    return None


def _python_number(v):
    """A Python int or float standing for `v` (a constant, or a Tensor that is one on every
    path), else None."""
    if type(v) in (int, float):
        return v
    if isinstance(v, Tensor) and v.weak and eager_type(v) in (int, float):
        return eager_type(v)(3)
    return None
