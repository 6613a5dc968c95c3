"""Python lists that staged branches and loops append to, and NumPy arrays made outside the
graph that they must not change in place.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph.errors import StagingError, where
from autoconv.runtime import staging as rt
from autoconv.trace.core.closures import closure_cells, containers
from autoconv.trace.tensors.accumulated import ListAccum, accum_index, one_kind
from autoconv.trace.tensors.leaves import _spec_text, _struct, _weak
from autoconv.trace.tensors.rows import as_items, describe, is_row, item_spec


def _item_text(dtype) -> str:
    return describe(dtype) if is_row(dtype) else np.dtype(dtype).name


def _closure_lists(*fns):
    """The Python lists that `fns` can reach through their closures, with their names; also
    through the closures of functions they reach (the converter's branch and loop bodies), and
    inside the objects, dicts and lists those hold (`self.items`, `d['a']`, `out[0]`)."""
    found: dict = {}
    for name, _, value in closure_cells(fns, depth=64):
        if type(value) is not _FunctionType:
            for inner_name, container in containers(value, name):
                if type(container) is list and id(container) not in found:
                    found[id(container)] = (container, inner_name)
    return list(found.values())


_FunctionType = type(_closure_lists)


def fold_tails(lists, origin) -> None:
    """Lists that end in a staged loop's run-time items followed by items appended since (in
    the enclosing loop's body, `out.append(v)` before a nested loop): the items join the
    run-time ones, so that the next staged statement carries on after them."""
    for lst, name in lists:
        n = accum_index(lst)
        tail = [] if n is None else lst[n + 1 :]
        if tail and all(item_spec(t) is not None for t in tail):
            lst[n:] = [ListAccum(_append(lst[n].tensor, tail, name, origin))]


def _snapshot(lists):
    return [(lst, name, list(lst)) for lst, name in lists]


def _restore(snap):
    for lst, _, before in snap:
        lst[:] = before


class _Rewritten(list):
    """A list whose items a staged branch replaced (`layers[k] = ...`): its whole content
    after the branch (`_appended(..., rewrites=True)`)."""


def _appended(lst, before, tracked=frozenset(), rewrites=False):
    """Items appended to `lst` since `before` (a copy), or None if it changed otherwise. Items
    at `tracked` indices (composite names such as `acc[0]`, carried as state) may change."""
    if before and isinstance(before[-1], ListAccum):
        # A nested staged `if` may have replaced the enclosing loop's accumulator.
        n = len(before) - 1
        if (
            len(lst) > n
            and isinstance(lst[n], ListAccum)
            and lst[n] is not before[n]
            and all(a is b for a, b in zip(lst[:n], before))
        ):
            return _Replaced(lst[n].tensor, lst[n + 1 :])
    if len(lst) < len(before) or any(
        a is not b and i not in tracked for i, (a, b) in enumerate(zip(lst, before))
    ):
        if rewrites and not any(isinstance(v, ListAccum) for v in (*lst, *before)):
            return _Rewritten(lst)
        return None
    return lst[len(before) :]


class _ConcreteArrays:
    """The NumPy arrays (made outside the graph) among a staged statement's state, with copies
    of their contents. A branch or loop body runs once while tracing, so an in-place update of
    such an array (`acc += 1` with no Tensor involved) would happen once, at trace time, where
    eager code does it on every run and every iteration: `check` undoes it and says so."""

    def __init__(self, names, values, origin, what):
        self.origin, self.what = origin, what
        self.arrays = []
        for name, value in zip(names, values):
            leaves: list = []
            _struct(value, leaves)
            for leaf in leaves:
                if type(leaf) is np.ndarray and leaf.dtype != object:
                    self.arrays.append((name, leaf, leaf.copy()))

    def check(self):
        for name, array, copy in self.arrays:
            if array.shape == copy.shape and np.array_equal(array, copy, equal_nan=True):
                continue
            array[...] = copy
            raise StagingError(
                f"{where(self.origin)}: this {self.what} changes `{name}` in place, and `{name}` "
                "is a NumPy array made outside the graph: the change would happen once, while "
                "tracing, where eager code makes it every time the graph runs. Write "
                f"`{name} = {name} + ...` (a new array) instead of an in-place operator or item "
                f"assignment, or make `{name}` from graph values."
            )


def _set_final_state(set_state, final, names, origin, what):
    """Stores a staged statement's results; a result that Python cannot store (a Tensor into an
    item of a NumPy array made outside the graph) is a clear error."""
    try:
        set_state(tuple(final))
    except (TypeError, ValueError) as e:
        items = [n for n in names if "[" in n or "." in n]
        if not items:
            raise
        raise StagingError(
            f"{where(origin)}: {what} gives {', '.join(f'`{n}`' for n in items)} a value known "
            "only when the graph runs, and it cannot be stored there (a NumPy array made "
            "outside the graph cannot hold one). Make the whole array a graph value "
            "(`acc = np.where(cond, new, acc)`), or assign the name rather than an item."
        ) from e


class _Replaced(list):
    """Items appended after a nested `if` replaced a loop's accumulator with `tensor`."""

    def __init__(self, tensor, items):
        super().__init__(items)
        self.tensor = tensor


def _tracked(names, list_name) -> frozenset:
    """The indices of `list_name` that are composite state names (`acc[0]`)."""
    found = set()
    for name in names:
        root, accessors = rt._parse(name)
        if root == list_name and len(accessors) == 1 and not accessors[0][0]:
            key = accessors[0][1]
            if type(key) is int:
                found.add(key)
    return frozenset(found)


_LOOPS: list = []  # snapshots of the lists seen by the loops being traced, innermost last


def unsettled_appends(origin, what="staged loop") -> StagingError:
    """The error for appends a staged loop cannot carry as a run-time list."""
    return StagingError(
        f"{where(origin)}: a list is appended to a different number of times on different "
        f"paths through this {what}, in a way autoconv cannot stage (branches and loops nested "
        "inside it). Append the same number of items on every path (e.g. append a placeholder "
        "and filter with a mask afterwards), or collect the values in a preallocated array."
    )


class _NeedsAccumulator(Exception):
    """A branch inside a loop body appended to a list unevenly: retrace with it accumulated."""

    def __init__(self, lst, items):
        super().__init__()
        self.lst = lst
        self.items = items


def _prefix(before):
    """A list's items before a loop, without the marker of an enclosing loop's accumulation."""
    return before[:-1] if before and isinstance(before[-1], ListAccum) else before


class _Box:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _append(acc, items, name, origin):
    for item in items:
        if isinstance(item, ListAccum):
            raise StagingError(
                f"{where(origin)}: list `{name}`: appending a list built in a staged loop to "
                "another is not supported"
            )
    one_kind(items, f"goes into list `{name}`", origin, stacked=True)
    items = as_items(items)  # a string a staged condition chose: the value it picks
    node = _g.Node("list_append", "append", args=(acc, *items))
    elem = tuple(acc.shape[1:])
    for item in items:
        spec = item_spec(item)
        if spec is None:
            raise StagingError(
                f"{where(origin)}: list `{name}` holds {_item_text(acc.dtype)} appended in a "
                f"staged loop, and {_spec_text(item)} is appended to it: append items of one "
                "kind (arrays, numbers, or tuples of them)."
            )
        if len(spec[0]) != len(elem):
            raise StagingError(
                f"{where(origin)}: items appended to list `{name}` in a staged loop must all have "
                f"the same shape: got {shapes.fmt(spec[0])} after {shapes.fmt(elem)}"
            )
        elem = shapes.generalize(elem, tuple(spec[0]))
        if spec[1] != acc.dtype and (is_row(spec[1]) or is_row(acc.dtype) or not _weak(item)):
            raise StagingError(
                f"{where(origin)}: items appended to list `{name}` in a staged loop must all have "
                f"the same dtype: got {_item_text(spec[1])} after {_item_text(acc.dtype)}"
            )
    _g.add_node(node, [((None, *elem), acc.dtype)], origin)
    return node.outputs[0]
