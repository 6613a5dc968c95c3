"""Python's comparisons, built-ins and list methods over plain Python tuples and lists whose
items are Tensors (`(v, -i) > best`, `max(range(n), key=lambda p: hand[p])`, `vals.index(m)`,
`vals.remove(m)`, `v in vals`), as Python computes them: each comparison Python would make is
made when the graph runs, and the answer, whose structure is known while tracing (a bool, an
index, which item, a list one item shorter), is a staged choice. Items compare by identity
first, as Python's containers do.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph.operators import BINARY_OPERATORS
from autoconv.graph.origin import user_origin
from autoconv.runtime import staging as rt
from autoconv.trace.tensors import sorting
from autoconv.trace.tensors.leaves import _cast, _cond_tensor
from autoconv.trace.tensors.merge import _Merger
from autoconv.trace.tensors.optionals import raise_node

OPS = {op: BINARY_OPERATORS[op] for op in ("<", "<=", ">", ">=", "==", "!=")}


def _symbolic(value) -> bool:
    return rt.TRACERS[type(value)] is not None


def _any(eqs):
    result = eqs[0]
    for eq in eqs[1:]:
        result = np.logical_or(result, eq)
    return result


def _raise_unless(found, exc, what):
    """Records that `exc` is raised when the graph runs if no match in `found` holds."""
    if found and found[-1][1] is True:
        return
    missing = np.logical_not(_any([eq for _, eq in found]))
    origin = user_origin(3)
    with _g.sub_block() as fails:
        raise_node(exc, origin)
    with _g.sub_block() as passes:
        pass
    _Merger(("missing", "found"), [fails, passes], origin, what).finish(missing)


class Sequences:
    """The operations of this module, made with the staged choices of a tracer (`choose(cond,
    if_true, if_false, what)`: `if_true() if cond else if_false()` when the graph runs)."""

    def __init__(self, choose):
        self._choose = choose

    def compare(self, op: str, a, b):
        """`a op b` (`op` one of OPS) where `a` and `b` are tuples, or lists: the first items that
        differ decide (`==` and `!=` by that alone), else the lengths; Python's own answer (or its
        TypeError) for anything else."""
        if type(a) is not type(b) or type(a) not in (tuple, list):
            return OPS[op](a, b)
        return self._lexicographic(op, a, b, 0)

    def _lexicographic(self, op, a, b, start):
        for k in range(start, min(len(a), len(b))):
            x, y = a[k], b[k]
            eq = self.equal(x, y)
            if not _symbolic(eq):
                if eq:
                    continue
                return self._differ(op, x, y)
            return self._choose(
                eq,
                lambda k=k: self._lexicographic(op, a, b, k + 1),
                lambda x=x, y=y: self._differ(op, x, y),
                "tuple comparison",
            )
        return OPS[op](len(a), len(b))

    def _differ(self, op, x, y):
        if op == "==":
            return False
        if op == "!=":
            return True
        return self.compare(op, x, y)

    def equal(self, x, y):
        """`x == y` as a list or tuple compares its items: True for the same object."""
        if x is y:
            return True
        if type(x) in (tuple, list) and type(x) is type(y):
            return self.compare("==", x, y)
        return x == y

    def extreme(self, which: str, items: list, keys: list):
        """`max(items, key=...)` (`which` "max") or `min`, given each item's key: the first item,
        replaced by each later one whose key is greater (smaller), as staged choices."""
        op = ">" if which == "max" else "<"
        best, best_key = items[0], keys[0]
        for item, key in zip(items[1:], keys[1:]):
            better = self.compare(op, key, best_key)
            if not _symbolic(better):
                if better:
                    best, best_key = item, key
                continue
            best, best_key = self._choose(
                better,
                lambda item=item, key=key: (item, key),
                lambda b=best, k=best_key: (b, k),
                f"`{which}()` choice",
            )
        return best

    def _matches(self, items, value, start, stop):
        """[(position, item == value)] from `start` up to the first match known while tracing."""
        found = []
        for k in range(*slice(start, stop).indices(len(items))):
            eq = self.equal(items[k], value)
            if not _symbolic(eq):
                if eq:
                    found.append((k, True))
                    break
                continue
            found.append((k, _cond_tensor(eq, user_origin(3))))
        return found

    def index(self, items, value, start=0, stop=None):
        """`items.index(value[, start[, stop]])`: the position of the first equal item, a Python int
        when the graph runs (a ValueError then when none is equal)."""
        found = self._matches(items, value, start, stop)
        if not found:
            return items.index(value, start, *(() if stop is None else (stop,)))
        if len(found) == 1 and found[0][1] is True:
            return found[0][0]
        name = type(items).__name__
        _raise_unless(found, ValueError(f"{name}.index(x): x not in {name}"), "`index()`")
        result = found[-1][0]
        for k, eq in reversed(found[:-1]):
            result = np.where(eq, k, result)
        return _cast(result, int)

    def count(self, items, value):
        """`items.count(value)`: a Python int when the graph runs."""
        total = 0
        for item in items:
            eq = self.equal(item, value)
            if _symbolic(eq):
                eq = np.where(_cond_tensor(eq, user_origin(2)), 1, 0)
            total = total + eq
        return _cast(total, int) if _symbolic(total) else int(total)

    def contains(self, items, value):
        """`value in items`: a Python bool when the graph runs."""
        found = self._matches(items, value, 0, None)
        if found and found[-1][1] is True:
            return True
        if not found:
            return False
        return _cast(_any([eq for _, eq in found]), bool)

    def remove(self, lst: list, value) -> None:
        """`lst.remove(value)`: the list is one item shorter; from the first item that may be equal
        on, each place holds the item after it once an earlier item was equal (a staged choice),
        and a ValueError is raised when the graph runs if none was."""
        found = self._matches(lst, value, 0, None)
        if not found:
            lst.remove(value)  # Python's own ValueError
            return
        first, last = found[0][0], found[-1][0]
        if found[-1][1] is True and len(found) == 1:
            del lst[first]
            return
        _raise_unless(found, ValueError("list.remove(x): x not in list"), "`remove()`")
        eqs = dict(found)
        end = last if eqs[last] is True else len(lst) - 1
        shifted = []
        seen = None
        for k in range(first, end):
            eq = eqs.get(k)  # an item known now to differ changes nothing
            if eq is not None:
                seen = eq if seen is None else np.logical_or(seen, eq)
            shifted.append(
                self._choose(seen, lambda k=k: lst[k + 1], lambda k=k: lst[k], "`remove()` choice")
            )
        lst[first : end + 1] = shifted

    def sort(self, items: list, keys: list, reverse: bool) -> list:
        """`sorted(items, key=..., reverse=...)` given each item's key: see `sorting`."""
        return sorting.sort(items, keys, reverse, user_origin(2))
