"""The layout of a structured item of a run-time list (trace/tensors/records.py), and the
rebuilding of items from their flat rows when the graph runs.

A run-time list holds one row per item: a NumPy structured dtype with a field per leaf. An item
that is more than a tuple of leaves (a dict, a list, a nested tuple, a value-or-None) keeps its
*layout* in the name of the row's first field, after `MARK`, as a Python literal:

- `"x"`: one leaf (an array, a number, or a string written in the code: one field);
- `("o",)`: a value or None (two fields: the value, and a bool flag "the value is there");
- `("t", parts)`, `("l", parts)`: a tuple or list of parts;
- `("d", keys, parts)`: a dict, its keys (str, int or bool) in order;
- `("r", shape, dtype)`: a list whose length is known only when the graph runs (a staged
  loop appended to it: `runs.append(cur)`), of items of that shape and dtype (`dtype.str`):
  one field of Python objects, the list itself.

The layout travels with the dtype wherever the run-time list goes, so every read can rebuild
the Python structure eager code has. Plain NumPy: this module imports nothing else.
"""

from __future__ import annotations

import ast
import functools

import numpy as np

MARK = "|"


def layout_of(dtype):
    """The layout a row dtype carries, or None (a plain tuple, or no row)."""
    dtype = np.dtype(dtype)
    names = dtype.names
    if names is not None and not names:  # an empty list, tuple or dict: in the metadata
        return (dtype.metadata or {}).get(MARK)
    if not names or MARK not in names[0]:
        return None
    return _parse(names[0])


@functools.lru_cache(maxsize=256)
def _parse(name: str):
    return ast.literal_eval(name.split(MARK, 1)[1])


def field_name(prefix: str, j: int, layout=None) -> str:
    """The name of field `j` (`prefix`: "p" for a Python number, "n" otherwise)."""
    return f"{prefix}{j}" if j or layout is None else f"{prefix}0{MARK}{layout!r}"


def rebuild(layout, leaves, optional=None, inner=None):
    """The item of `layout` made of `leaves` (an iterator over its row's fields, in order).
    `optional(flag, value)` makes a value-or-None; None: `value if flag else None`.
    `inner(layout, value)` makes a list of run-time length ("r"); None: the list itself."""
    if layout == "x":
        return next(leaves)
    kind = layout[0]
    if kind == "r":
        value = next(leaves)
        return value if inner is None else inner(layout, value)
    if kind == "o":
        value, flag = next(leaves), next(leaves)
        if optional is not None:
            return optional(flag, value)
        return value if flag else None
    parts = [rebuild(p, leaves, optional, inner) for p in layout[-1]]
    if kind == "t":
        return tuple(parts)
    if kind == "l":
        return parts
    return dict(zip(layout[1], parts))


def leaf_kinds(layout) -> list:
    """Each leaf's kind, in row order: "x" (a leaf), "r" (a list of run-time length), "v" and
    "f" (a value-or-None's value and its flag)."""
    if layout == "x" or layout[0] == "r":
        return ["x" if layout == "x" else "r"]
    if layout[0] == "o":
        return ["v", "f"]
    return [k for p in layout[-1] for k in leaf_kinds(p)]


def leaf_place(layout, j: int) -> str:
    """Where leaf `j` of an item of `layout` is, as messages name it: "the items", "item 1 of
    the tuples", "the value at 'b' of the dicts" (`layout` None: a plain tuple)."""
    if layout is None:
        return f"item {j} of the tuples"
    path = _leaf_path(layout, [j], [])
    if not path:
        return "the items"
    kind, key = path[-1]
    noun = {"t": "tuples", "l": "lists", "d": "dicts"}[kind]
    text = f"the value at {key!r} of the {noun}" if kind == "d" else f"item {key} of the {noun}"
    for kind, key in reversed(path[:-1]):
        text = f"the value at {key!r} of {text}" if kind == "d" else f"item {key} of {text}"
    return text


def _leaf_path(layout, left: list, path: list):
    """The steps (kind, key) from the item to leaf `left[0]`, or None (`left` counts down)."""
    if layout == "x" or layout[0] in ("r", "o"):
        n = len(leaf_kinds(layout))
        if left[0] < n:
            return path
        left[0] -= n
        return None
    for i, part in enumerate(layout[-1]):
        key = layout[1][i] if layout[0] == "d" else i
        found = _leaf_path(part, left, [*path, (layout[0], key)])
        if found is not None:
            return found
    return None


def records_out(items: list, layout) -> list:
    """A run-time list of rows as eager code holds its items: dicts, lists, tuples, None."""
    return [rebuild(layout, iter(row)) for row in items]


def describe(layout, leaves) -> str:
    """`dict(id: int, sum: float64, ratio: float64 or None)`: a layout as messages show it
    (`leaves`: an iterator over the texts of its leaves)."""
    if layout == "x":
        return next(leaves)
    kind = layout[0]
    if kind == "o":
        text = next(leaves)
        next(leaves)
        return f"{text} or None"
    if kind == "r":
        next(leaves)
        return f"list({_dtype_name(layout)} each, of run-time length)"
    parts = [describe(p, leaves) for p in layout[-1]]
    if kind == "d":
        return "dict(" + ", ".join(f"{k!r}: {p}" for k, p in zip(layout[1], parts)) + ")"
    return ("tuple" if kind == "t" else "list") + "(" + ", ".join(parts) + ")"


def _dtype_name(layout) -> str:
    """`int64` (or `int64[3]` of items of a shape) of an "r" layout."""
    name = np.dtype(layout[2]).name
    return name + (f"[{', '.join(map(str, layout[1]))}]" if layout[1] else "")


def inner_spec(dtype):
    """`(elem shape, dtype)` of the lists of run-time length a run-time list of `dtype` holds
    as its items (layout "r"), or None."""
    layout = layout_of(dtype)
    if type(layout) is not tuple or layout[0] != "r":
        return None
    return tuple(layout[1]), np.dtype(layout[2])
