"""The dicts a branch's variables hold, as the branch left them.

A staged `if` reads each branch's variables, then restores the state before it and runs the
other branch. A dict one variable holds is the same object the other branch may change through
another name: `retval = (d["k"], d)` in one branch and `d["k"] += 1` in the other would give the
first branch's `retval` the second branch's entry, a value of the wrong block. The first
branch's dicts are copied (recursively, through tuples and dicts) as it left them; the merge
builds new dicts anyway. A set or dict holding keys known only when the graph runs keeps its
identity: its entries live in its shadow, which the branch restores itself (`runtime.keyed`).
"""

from __future__ import annotations

from autoconv.runtime import keyed as keyed_rt


def as_left(values: tuple) -> tuple:
    """`values` with each plain dict inside it (and inside its tuples and dicts) copied."""
    new = tuple(_copy(v) for v in values)
    return values if all(a is b for a, b in zip(new, values)) else new


def _copy(v):
    t = type(v)
    if t is dict:
        if keyed_rt.shadow(v) is not None:
            return v
        return {k: _copy(x) for k, x in v.items()}
    if t is tuple:
        new = tuple(_copy(x) for x in v)
        return v if all(a is b for a, b in zip(new, v)) else new
    return v
