"""Run-time lists whose items are Python numbers on some paths and NumPy values on others:

    handled.append(min(backlog, 1))        # np.int64(backlog) or the int 1, by the data
    out.append(float("inf") if v == 0 else 1.0 / v)

One buffer keeps one dtype, so such a list (a *tagged* family of `lists.ListPlan`) keeps a
second buffer beside it: each item's Python type as an index into the family's kinds
(`table`). Its buffer is the pair `(values, tags)`; `append`, branches and loops carry it as
they carry a list of tuples' buffers. The host gives each item back as the type its tag says
(an int stays an int), and `sum()` of it folds the tags as Python's `+` types them, so the
sum is an `int` or an `np.int64` as eager's is. A tagged list is appended to, carried,
measured with `len()`, summed, printed and returned; any other use keeps the planner's
LoweringError (`lists._one_kind`, `host.list_items`), as do items whose types come from a
list they were read from."""

from __future__ import annotations

import builtins

import numpy as np

from autoconv.graph import helpers as _helpers
from autoconv.graph.eager_types import eager_type
from autoconv.graph.tensor import Tensor

_PY = (bool, int, float, complex)


def plan(lists) -> dict:
    """id(family root) -> its kinds, for each family of `lists` that is tagged."""
    changed = {id(f.root()) for _, f in lists._changed}
    roots: dict = {}
    for tid, f in lists._family.items():
        roots.setdefault(id(f.root()), (f.root(), []))[1].append(tid)
    out = {}
    for key, (fam, ids) in roots.items():
        if fam.fields is not None or fam.dtype.kind not in "biufc" or fam.elem:
            continue
        if fam.untaggable or key in changed or fam.sources or fam.mapped:
            continue
        kinds = lists.all_kinds_of(fam)
        if len({k if k in _PY else "NumPy" for k in kinds}) < 2:
            continue
        if not all(k in _PY or (isinstance(k, type) and issubclass(k, np.generic)) for k in kinds):
            continue
        users = [(tid, u) for tid in ids for u in lists.uses.get(tid, ())]
        if all(_allowed(lists, tid, u) for tid, u in users):
            out[key] = tuple(sorted(kinds, key=lambda k: (k not in _PY, k.__name__)))
    return out


def _allowed(lists, tid, user) -> bool:
    if user.kind == "list_append":
        return isinstance(user.args[0], Tensor) and user.args[0].id == tid
    if user.kind in ("cond", "while", "print"):
        return True
    if user.kind in ("call", "helper") and user.fn is builtins.len and len(user.args) == 1:
        return True
    args = user.args  # `sum(lst)` (as `reads.read_kind` finds it)
    return (
        user.kind == "helper"
        and user.op == "sum"
        and len(args) >= 3
        and type(args[0]) is list
        and type(args[2]) is list
        and lists.is_list(args[1])
        and args[1].id == tid
    )


def taggable(item, kinds_of) -> bool:
    """Whether an appended item's Python type is known on the device: one type, or a path's
    (`mixed_output` of a staged choice)."""
    if not isinstance(item, Tensor):
        return True
    node = item.node
    if node is not None and node.kind == "helper" and node.fn is _helpers.mixed_output:
        return True
    return len(set(kinds_of(item))) == 1


def summed(item):
    """The read `sum(lst)` where appended `item` is it as its Python type (`as_kind` tagged by
    the sum's own `kind_index`, which the device works out: `reads.lower_tag`), else None."""
    node = item.node if isinstance(item, Tensor) else None
    if node is None or node.kind != "helper" or node.fn is not _helpers.mixed_output:
        return None
    value, tag = node.args[:2]
    read = value.node if isinstance(value, Tensor) else None
    tag_node = tag.node if isinstance(tag, Tensor) else None
    if read is None or read.kind != "helper" or read.fn is not _helpers.sum_list:
        return None
    if tag_node is None or tag_node.fn is not _helpers.kind_index or tag_node.args[0] is not value:
        return None
    prefix, _, tail = read.args[:3]
    return read if not prefix and not tail else None


def sum_kinds(lists, read):
    """The Python types `sum(lst)` (`read`) has, once the plan knows `lst`'s items' kinds and
    bounds: Python's `start + item` of its items' one kind, and the start itself where `lst`
    may hold no items (Python's `0` of a run of NumPy values); None where its items are of
    several kinds (the sum's kinds are then the list's, as any read's)."""
    lst = read.args[1]
    start = read.args[3] if len(read.args) > 3 else 0
    items = lists.all_kinds(lst)
    first = eager_type(start) if isinstance(start, Tensor) else type(start)
    if len(items) != 1 or not _number_kind(first) or not _number_kind(next(iter(items))):
        return None
    (kind,) = items
    found = {type(builtins.sum([kind(1)], first(0)))}
    return found | {first} if lists.bounds[lst.id][0] == 0 else found


def _number_kind(kind) -> bool:
    return kind in _PY or isinstance(kind, type) and issubclass(kind, np.number)


def item_expr(w, lst, v, value: str, table) -> str:
    """`(value, tag)` of item `v` appended to tagged list `lst` (`value`: its expression)."""
    node = v.node if isinstance(v, Tensor) else None
    if node is not None and node.kind == "helper" and node.fn is _helpers.mixed_output:
        inner, tag, kinds = node.args
        own = eager_type(inner)
        # (a kind no path gives, as `sum`'s tag lists, is not in the table: never chosen)
        remap = [
            table.index(x) if x in table else 0 for x in (own if k is None else k for k in kinds)
        ]
        return f"({value}, jnp.asarray({remap!r}, jnp.int8)[{w.expr(tag)}])"
    kind = eager_type(v) if isinstance(v, Tensor) else type(v)
    return f"({value}, {table.index(kind)})"


def items(table, buffer, count: int) -> list:
    """The items of a tagged list as eager code holds them."""
    values, tags = (np.asarray(b)[:count] for b in buffer)
    return [table[g](x) for x, g in zip(values.tolist(), tags.tolist())]


def sum_tag(w, node, info, kinds, standin) -> str:
    """The expression of `kind_index` of the sum of a tagged list: the kinds Python's `+`
    gives, folded over the items on the device (`info`: the read, `kinds`: kind_index's)."""
    plan = w.plan
    lst = info["lst"]
    table = list(plan.tags(lst))
    start = info["args"][0] if info["args"] else 0
    known = [type(v) if not isinstance(v, Tensor) else eager_type(v) for v in (start,)]
    prefix = [type(v) if not isinstance(v, Tensor) else eager_type(v) for v in info["prefix"]]
    tail = [type(v) if not isinstance(v, Tensor) else eager_type(v) for v in info["tail"]]
    found = list(dict.fromkeys([*table, *known, *prefix, *tail]))
    dtype = node.args[0].dtype
    added = {}
    i = 0
    while i < len(found):  # the types `+` gives, to a closure
        for j in range(len(found)):
            for a, b in ((i, j), (j, i)):
                if (a, b) not in added:
                    kind = type(standin(found[a], dtype) + standin(found[b], dtype))
                    if kind not in found:
                        found.append(kind)
                    added[(a, b)] = found.index(kind)
        i += 1
    n = len(found)
    grid = [[added[(a, b)] for b in range(n)] for a in range(n)]
    acc = found.index(known[0])
    for k in prefix:
        acc = grid[acc][found.index(k)]
    remap = [found.index(k) for k in table]
    ref = w.ref(lst)
    expr = f"tag_fold({ref}[0][1], {ref}[1], {grid!r}, {remap!r}, {acc})"
    for k in tail:
        expr = f"jnp.asarray({grid!r})[{expr}, {found.index(k)}]"
    out = [kinds.index(k) if k in kinds else 0 for k in found]
    return f"jnp.asarray({out!r})[{expr}]"
