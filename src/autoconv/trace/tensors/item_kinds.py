"""The Python kinds of the numbers a run-time list holds, read from the graph that made it.

A run-time list's Tensor has one dtype for its items, but eagerly each item keeps its own
type: `ops.append(int(v))` in a staged loop gives a list of Python ints. A read of an item
(`ops.pop()`, `ops[0]`, `sum(ops)`) records the item's type when the graph runs (a kind
tag, `accumulated.run_time_item`), but where every item that can reach the list is a
Python number of one type, the read is that type while tracing too: a weak Tensor, so that
`(ops.pop(), 0)` is a tuple of Python ints and `np.float32(1.5) + n` a float32, as eagerly.

`of_list(t)` walks the nodes that made list `t` (`list_new`, `append`, a list method, a
branch's or loop's output) and gives the set of kinds its items can have (a Python type,
None for a NumPy value), or None where the graph does not tell. A staged loop's run-time
list enters its body as a parameter: the loop assumes its items' kinds (`assume`) and traces
again where the body gives more (`settle`).
"""

from __future__ import annotations

import numpy as np

from autoconv.graph.helpers import LIST_METHODS, concat_lists, mixed_output
from autoconv.graph.tensor import PY_TYPES, Tensor
from autoconv.trace.tensors.optionals import RUN_LISTS

_PY_NUMBERS = (bool, int, float, complex)
_METHODS = frozenset(LIST_METHODS.values())
# The list methods (and heapq's, bisect's functions) that store their last argument.
_STORES = frozenset(
    ("insert", "setitem", "heappush", "heappushpop", "heapreplace", "insort_right", "insort_left")
)
_DEPTH = 200  # a deeper chain of nodes: not told


def of_item(v) -> frozenset | None:
    """The kinds a value appended to a list can have when the graph runs."""
    t = type(v)
    if t in _PY_NUMBERS:
        return frozenset((t,))
    if isinstance(v, (np.ndarray, np.generic)):
        return frozenset((None,))
    if t is not Tensor:
        return None  # (a row, a string, ...: not a number)
    if v.py_kinds is not None:
        return frozenset(v.py_kinds[1])
    if v.weak:
        return frozenset((PY_TYPES[v.dtype.kind],))
    node = v.node
    if node is not None and node.kind == "helper" and node.fn is mixed_output:
        return frozenset(node.args[2])  # a number of its path's type (`as_its_kind`)
    return frozenset((None,))


def of_items(items, memo: dict | None = None) -> frozenset | None:
    """The union of the kinds of `items` (Python values or Tensors), None if one is untold."""
    found: set = set()
    for v in items:
        kinds = of_list(v.tensor, 0, memo) if type(v) in RUN_LISTS else of_item(v)
        if kinds is None:
            return None
        found |= kinds
    return frozenset(found)


def of_list(t, depth: int = 0, memo: dict | None = None) -> frozenset | None:
    """The kinds the items of run-time list `t` (a Tensor) can have, or None if untold.
    (`memo`: the lists already told, by id: a list's versions form a graph, not a tree,
    where branches join them: `waits.append(max(0.0, w))` 50 times made 2**50 walks.)"""
    if memo is None:
        memo = {}
    key = id(t)
    if key not in memo:
        memo[key] = _of_list(t, depth, memo)
    return memo[key]


def _of_list(t, depth, memo) -> frozenset | None:
    node = getattr(t, "node", None)
    if node is None or depth > _DEPTH:
        return None
    kind = node.kind
    if kind == "param":
        return node.attrs.get("item_kinds")
    if kind == "list_new":
        return frozenset()
    if kind == "list_append":
        return union(of_list(node.args[0], depth + 1, memo), of_items(node.args[1:], memo))
    index = node.output_index(t)
    if kind == "cond":
        return _joined((b.outputs[index] for b in node.blocks), depth, memo)
    if kind == "while":
        body = node.blocks[1]
        if len(body.outputs) < len(node.outputs) or len(node.args) != len(node.outputs):
            return None
        return _joined((node.args[index], body.outputs[index]), depth, memo)
    if kind != "helper" or index != 0:
        return None
    if node.fn is concat_lists:
        return _joined(node.args, depth, memo)
    if node.fn in _METHODS and len(node.args) >= 3:
        prefix, acc, tail, *rest = node.args
        if type(prefix) is not list or type(tail) is not list:
            return None
        # (`insert` and item assignment store their last argument)
        stored = rest[-1:] if node.op in _STORES else ()
        items = of_items([*prefix, *tail, *stored], memo)
        return union(items, of_list(acc, depth + 1, memo))
    return None


def of_parts(prefix, acc, tail) -> frozenset | None:
    """The kinds of a list's items: those known now and run-time list `acc`'s."""
    return union(of_items([*prefix, *tail]), of_list(acc))


def _joined(lists, depth, memo) -> frozenset | None:
    found: frozenset | None = frozenset()
    for t in lists:
        found = union(found, of_list(t, depth + 1, memo))
        if found is None:
            return None
    return found


def union(a, b):
    """Two sets of kinds together (None: untold)."""
    return None if a is None or b is None else a | b


def one_python_kind(kinds, dtype) -> type | None:
    """The Python type every item has, where `kinds` says they are all one (of `dtype`'s
    kind), else None."""
    if not kinds or len(kinds) != 1:
        return None
    (kind,) = kinds
    return kind if kind is not None and PY_TYPES.get(np.dtype(dtype).kind) is kind else None


def assume(param: Tensor, kinds) -> None:
    """A staged loop's parameter for a run-time list: its items have `kinds` (None: untold)."""
    param.node.attrs["item_kinds"] = kinds


def initial(outer) -> frozenset | None:
    """The kinds of the items a loop's run-time list starts from (`outer`: the ListAccum of
    the items before the loop, or None: none)."""
    return frozenset() if outer is None else of_list(outer.tensor)


def settle(assumed: dict, accums: dict, appended: list) -> bool:
    """Checks a loop body's run-time lists against the kinds `assumed` for their items
    (list index -> kinds, as `assume` gave its parameter): where the body gives kinds the
    parameter did not have, they are assumed from now on; True if one changed (trace the
    body again). Kinds only grow, to None (untold) at most: the loop settles."""
    changed = False
    for k, (_, _, outer) in accums.items():
        got = appended[k] if k < len(appended) else None
        if type(got) is list:  # the loop's first run-time list: its items, and those appended
            now = union(initial(outer), of_items(got))
            assumed[k] = union(assumed[k], now) if k in assumed else now
            continue
        before = assumed.get(k)
        if type(got) is not tuple or before is None:
            continue
        acc, items = got  # the run-time list after the body, and items appended since
        now = union(of_list(acc), of_items(items))
        if now is None or not now <= before:
            assumed[k] = None if now is None else now | before
            changed = True
    return changed
