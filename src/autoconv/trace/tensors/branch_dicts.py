"""The dicts a branch's variables hold, as the branch left them.

A staged `if` reads each branch's variables, then restores the state before it and runs the
other branch. A dict one variable holds is the same object the other branch may change through
another name: `retval = (d["k"], d)` in one branch and `d["k"] += 1` in the other would give the
first branch's `retval` the second branch's entry, a value of the wrong block. Such a dict
(one whose items changed after the branch was read) is replaced, in that branch's values, by a
copy of the items it held then; a dict no later branch changed stays the one object (the
merge keeps it: `r = (v, d)` in a branch, then `d["k"] = ...` after the `if`). A set or dict
holding keys known only when the graph runs keeps its identity: its entries live in its
shadow, which the branch restores itself (`runtime.keyed`).
"""

from __future__ import annotations

from autoconv.runtime import keyed as keyed_rt


def noted(values: tuple) -> dict:
    """`id(d) -> (d, its items now)` for each plain dict inside `values` (through tuples and
    dicts)."""
    found: dict = {}

    def walk(v):
        t = type(v)
        if t is dict and id(v) not in found and keyed_rt.shadow(v) is None:
            found[id(v)] = (v, dict(v))
            for x in v.values():
                walk(x)
        elif t is tuple:
            for x in v:
                walk(x)

    for v in values:
        walk(v)
    return found


def as_left(values: tuple, seen: dict) -> tuple:
    """`values` with each dict of `seen` (`noted` when the branch was read) whose items have
    changed since replaced by a copy of the items it held then."""
    changed = {
        key
        for key, (d, items) in seen.items()
        if len(d) != len(items) or any(d.get(k, _GONE) is not v for k, v in items.items())
    }
    if not changed:
        return values

    def copy(v):
        t = type(v)
        if t is dict and id(v) in seen:
            items = seen[id(v)][1]
            new = {k: copy(x) for k, x in items.items()}
            same = id(v) not in changed and all(new[k] is items[k] for k in items)
            return v if same else new
        if t is tuple:
            new = tuple(copy(x) for x in v)
            return v if all(a is b for a, b in zip(new, v)) else new
        return v

    return tuple(copy(v) for v in values)


_GONE = object()
