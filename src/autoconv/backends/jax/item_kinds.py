"""The Python types of items a staged branch chooses (`lists.ListPlan`): in

    span.append(i + 1 if not stack else i - stack[-1])

the item is a Python int on one path and, on the other, of whatever type `stack[-1]` has when
the graph runs: the branch's kind tag maps the read's tag through a table
(`table[kind_index(stack[-1])]`). Its types are known once the whole graph is planned (the
list read may get items later in the loop), so each such path is kept as a *mapping* of the
list's kinds, resolved by `resolve`."""

from __future__ import annotations

import numpy as np

from autoconv.backends.jax import kind_combos as _kind_combos
from autoconv.backends.jax.keyed_plan import read_back
from autoconv.graph import helpers as _helpers
from autoconv.graph.eager_types import eager_type
from autoconv.graph.tensor import Tensor


def path_kinds(plan, item, flag=None):
    """`(kinds, mappings)` of an item a branch chooses (`as_kind` tagged by a `cond`), each
    path's kind a constant or a mapping of a list read's; None where the graph shows other.
    `flag`: the item is a value-or-None's value, and a path where its flag is False (the
    value None, a stand-in number in its place) gives no kind."""
    node = item.node if isinstance(item, Tensor) else None
    if node is None or node.kind != "helper" or node.fn is not _helpers.mixed_output:
        return None
    value, tag, kinds = node.args
    cond = tag.node if isinstance(tag, Tensor) else None
    if cond is not None and cond.kind == "helper" and cond.fn is _helpers.kind_index:
        return _computed(plan, value, cond, kinds)
    if cond is not None and cond.kind != "cond" and isinstance(value, Tensor):
        found = _kind_combos.combo(plan, value, tag, kinds)  # `a / b` of two reads
        return None if found is None else (set(), [found])
    if cond is None or cond.kind != "cond" or not isinstance(value, Tensor):
        return None
    j = cond.output_index(tag)
    numpy_kind = eager_type(value)
    if j is None or numpy_kind in (bool, int, float, complex):
        return None
    found, mappings = set(), []
    k = cond.output_index(flag)
    for block in cond.blocks:
        if k is not None and _const(block.outputs[k], bool) is False:
            continue
        path = _const(block.outputs[j])
        if path is not None:
            found.add(numpy_kind if kinds[path] is None else kinds[path])
            continue
        mapped = _mapped(plan, block.outputs[j], kinds)
        if mapped is None:
            return None
        mappings.append((*mapped, kinds, numpy_kind))
    return found, mappings


def _computed(plan, value, tag_node, kinds):
    """`q >= 2` of a read `q` (`as_kind` tagged by the read's own `kind_index`): the item's
    kind at each index of `kinds` is what the operation gives the read's kind at that index
    (Python's int gives a Python bool, NumPy's int64 `np.bool_`), a mapping of the read list's
    kinds."""
    read, read_kinds = tag_node.args
    if not isinstance(value, Tensor) or len(read_kinds) != len(kinds):
        return None
    source = read_back(plan, read, depth=1)
    if source is None:
        return None
    table = tuple(range(len(kinds)))
    return set(), [(source[0], source[1], tuple(read_kinds), table, kinds, eager_type(value))]


def _resolved(plan, found, mappings) -> set:
    """The kinds of `path_kinds`'s answer, with the lists read as the plan knows them now."""
    out = set(found)
    for m in mappings:
        if isinstance(m, _kind_combos.Combo):
            out |= m.resolve([plan.all_kinds_of(f) for f in m.families])
        else:
            out |= resolve(m, plan.all_kinds(m[0]))
    return out


def _const(t, kind=None):
    """The constant int `t` is (`kind=bool`: the constant bool), else None."""
    node = t.node if isinstance(t, Tensor) else None
    if node is not None and node.kind == "const":
        t = node.attrs["value"]
    if kind is bool:
        return bool(t) if isinstance(t, (bool, np.bool_)) else None
    if isinstance(t, (int, np.integer)) and not isinstance(t, (bool, np.bool_)):
        return int(t)
    return None


def _mapped(plan, t, kinds):
    """`(list, other kinds, read kinds, table)` where tag `t` (an index into `kinds`) is
    `int(table[kind_index(read, read kinds)])` or `kind_index(read, kinds)` of a read from a
    run-time list, else None."""
    node = t.node if isinstance(t, Tensor) else None
    if node is not None and node.kind == "helper" and node.fn is _helpers.kind_index:
        read, read_kinds = node.args
        if tuple(read_kinds) != tuple(kinds):
            return None
        source = read_back(plan, read, depth=1)
        if source is None:
            return None
        return source[0], source[1], tuple(kinds), tuple(range(len(kinds)))
    if node is not None and node.kind == "helper" and node.fn is int and len(node.args) == 1:
        t = node.args[0]
        node = t.node if isinstance(t, Tensor) else None
    if node is None or node.kind != "getitem" or len(node.args) != 2:
        return None
    table, index = node.args
    table = (
        table.node.attrs["value"]
        if isinstance(table, Tensor) and table.node.kind == "const"
        else None
    )
    index_node = index.node if isinstance(index, Tensor) else None
    if table is None or index_node is None or index_node.fn is not _helpers.kind_index:
        return None
    read, read_kinds = index_node.args
    source = read_back(plan, read, depth=1)
    if source is None:
        return None
    return source[0], source[1], tuple(read_kinds), tuple(int(x) for x in np.asarray(table))


def resolve(mapping, list_kinds) -> set:
    """The kinds a mapping gives, the read list's kinds being `list_kinds`."""
    _, extra, read_kinds, table, kinds, numpy_kind = mapping
    out = set()
    for k in set(list_kinds) | set(extra):
        i = read_kinds.index(k) if k is not None and k in read_kinds else 0
        kind = kinds[table[i]]
        out.add(numpy_kind if kind is None else kind)
    return out


def field_kinds(plan, v, depth=4, flag=None) -> set:
    """The Python types of a tuple's field appended to a run-time list: a field read back from
    a run-time list's tuple (`q[0] = (q[0][0], 2)`) has that list's field's types; one a
    staged branch chooses (`max(q[-1][1], e)`, `heap[0] if c else None`), those of its paths.
    `flag`: where `v` is a value-or-None's value, its flag: a path whose flag is False gives
    None there, and its stand-in value's type is no type the item has."""
    node = v.node if isinstance(v, Tensor) else None
    if node is not None and node.kind == "helper" and node.fn is _helpers.mixed_output:
        # A number whose Python type is its path's (`as_kind`): the kinds its tag may give.
        chosen = path_kinds(plan, v, flag)
        if chosen is not None:
            return _resolved(plan, *chosen)
        value, _, kinds = node.args
        return {eager_type(value) if k is None else k for k in kinds}
    if node is not None and node.kind == "cond" and depth > 0:
        # Each path's own: a number read from a run-time list is a Python number or a NumPy
        # value as that list's items are, which `eager_type` of the join does not know.
        j = node.output_index(v)
        k = node.output_index(flag)
        paths = [
            b.outputs[j]
            for b in node.blocks
            if k is None or k >= len(b.outputs) or _const(b.outputs[k], bool) is not False
        ]
        if paths:
            return set().union(*(field_kinds(plan, p, depth - 1) for p in paths))
    source = plan._read_from(v) if node is not None and v.dtype.kind != "V" else None
    if source is not None:
        # `(stack.pop(), i)`: a number read back from a run-time list has that list's types
        prefix, lst, tail = source
        kinds = set(plan.all_kinds(lst))
        kinds |= {eager_type(x) if isinstance(x, Tensor) else type(x) for x in (*prefix, *tail)}
        if kinds:
            return kinds
    if node is not None and node.kind == "helper" and node.fn is _helpers.row_field:
        source = plan._read_from(node.args[0])
        fam = plan._family.get(source[1].id) if source is not None else None
        fam = fam.root() if fam is not None else None
        if fam is not None and fam.fields is not None and fam.fields[node.args[1]]:
            return set(fam.fields[node.args[1]])
    return {eager_type(v) if isinstance(v, Tensor) else type(v)}
