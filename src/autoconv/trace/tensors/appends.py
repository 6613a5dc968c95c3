"""Python lists that staged branches and loops append to, and NumPy arrays made outside the
graph that they must not change in place.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph.errors import StagingError, where
from autoconv.graph.helpers import concat_lists
from autoconv.graph.origin import _SKIP, user_origin
from autoconv.graph.record_layout import inner_spec
from autoconv.runtime import keyed as keyed_rt
from autoconv.runtime import staging as rt
from autoconv.runtime.staged_locals import converter_body
from autoconv.trace.core.closures import closure_cells, containers, held_functions, user_object
from autoconv.trace.core.hidden import global_reads
from autoconv.trace.tensors import accumulated
from autoconv.trace.tensors.accumulated import ListAccum, accum_index, list_name, one_kind
from autoconv.trace.tensors.leaves import _spec_text, _struct, _weak
from autoconv.trace.tensors.nested_runs import (
    note_items,
    refuse_changed_items,
    refuse_changed_since,
    refuse_held_items,
    refuse_nested_runs,
    rejoined,
)
from autoconv.trace.tensors.optionals import Optional, as_its_kind
from autoconv.trace.tensors.recording import emit
from autoconv.trace.tensors.records import (
    LAYOUT_HINT,
    check_reads,
    layout_of,
    returned_list,
    spec_against,
)
from autoconv.trace.tensors.rows import as_items, describe, is_row, item_spec
from autoconv.trace.tensors.user_code import user_frame


def _item_text(dtype) -> str:
    return describe(dtype) if is_row(dtype) else np.dtype(dtype).name


def _closure_lists(*fns):
    """The Python lists that `fns` can reach through their closures, with their names; also
    through the closures of functions they reach (the converter's branch and loop bodies), and
    inside the objects, dicts and lists those hold (`self.items`, `d['a']`, `out[0]`)."""
    found: dict = {}
    held = [(name, value) for name, _, value in closure_cells(fns, depth=64)]
    for name, value in held + module_values(fns, held):
        if type(value) is not _FunctionType:
            for inner_name, container in [(name, value), *containers(value, name)]:
                if type(container) is list and id(container) not in found:
                    found[id(container)] = (container, inner_name)
                for shadow in keyed_rt.shadow_lists(container, inner_name):  # run-time keys
                    found.setdefault(id(shadow[0]), shadow)
    return list(found.values())


_FunctionType = type(_closure_lists)


def module_values(fns, held) -> list:
    """`(name, value)` of the module-level names the converter's bodies among `fns` and the
    functions `held` (closure cells' values) read (`HIST.append(v)`, `STATE.items`): lists
    that a statement changes there are its own, as an enclosing function's are."""
    out = []
    bodies = [*fns, *(f for _, v in held for f in held_functions(v))]
    for fn in bodies:
        if type(fn) is not _FunctionType or not converter_body(fn):
            continue
        module = fn.__globals__
        for var in global_reads(fn.__code__):
            value = module.get(var)
            if type(value) is list or type(value) is dict or user_object(value):
                out.append((var, value))
    return out


def fold_tails(lists, origin) -> None:
    """Lists that end in a staged loop's run-time items followed by items appended since (in
    the enclosing loop's body, `out.append(v)` before a nested loop): the items join the
    run-time ones, so that the next staged statement carries on after them."""
    for lst, name in lists:
        n = accum_index(lst)
        tail = [] if n is None else lst[n + 1 :]
        if tail and all(item_spec(t) is not None for t in tail):
            lst[n:] = [ListAccum(_append(lst[n].tensor, tail, name, origin))]
            rejoined(lst)


def _snapshot(lists):
    return [(lst, name, list(lst)) for lst, name in lists]


def _restore(snap):
    for lst, _, before in snap:
        lst[:] = before


def as_left(values, snap, originals: dict):
    """`values` (a branch's variables) with each list of `snap` that the branch wrote an item
    of (`retval = cnt` after `cnt[0] += 1`) as a copy of what it holds now: the
    lists are restored before the next branch, and the merge must see this one's items.
    `originals` maps each copy's id to its list."""
    # Only lists with an item replaced: appends are merged on the list itself, which every
    # name holding it sees (`merge_lists`).
    changed = {
        id(lst): lst
        for lst, _, before in snap
        if any(a is not b for a, b in zip(lst, before))
        and not isinstance(_appended(lst, before), (_Replaced, _Whole))  # (merged on the list)
    }
    if not changed:
        return values

    def walk(v):
        t = type(v)
        if t is list:
            if id(v) not in changed:
                return v
            copy = list(v)
            originals[id(copy)] = (copy, v)  # the copy too: its id stays its own
            return copy
        if t is tuple:
            return tuple(walk(x) for x in v)
        if isinstance(v, Optional):
            inner = walk(v.value)
            return v if inner is v.value else v.like(v.flag, inner)
        return v

    return tuple(walk(v) for v in values)


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
    if before and len(lst) == 1 and isinstance(lst[0], ListAccum) and lst[0] is not before[0]:
        # Items known now made one run-time list with the rest (`dq.pop(0)` of `[*run, i]`);
        # (an empty list made one is appended to: the items after `before` below)
        return _Whole(lst[0].tensor)
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
    except NameError as e:  # (UnboundLocalError too)
        # An item of a name the statement binds only inside it (`lot = lots[0]`, then
        # `lot[0] -= take` in a staged loop): there is no object after it to store into.
        items = [n for n in names if "[" in n or "." in n]
        own = [n for n in items if e.name and n[len(e.name) : len(e.name) + 1] in ("[", ".")]
        if not own or not all(n.startswith(e.name) for n in own):
            raise
        raise StagingError(
            f"{where(origin)}: {what} changes {', '.join(f'`{n}`' for n in own)} in place, "
            f"and `{e.name}` is bound only inside it, so the change would be made to a value "
            "the graph builds in each iteration. Write the change into the container it came "
            "from (`rows[k][0] -= v` rather than `row = rows[k]; row[0] -= v`), or keep such "
            "values in NumPy arrays."
        ) from None
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


def run_spec(value):
    """`(elem shape, dtype)` of the run-time items of list `value`, or None if it has none."""
    n = accum_index(value) if type(value) is list else None
    if n is None:
        return None
    t = value[n].tensor
    return tuple(t.shape[1:]), t.dtype


def one_run(value: list, name: str, origin, like=None):
    """`value`, a list holding items a staged statement appended (or any list of arrays and
    numbers, given `like`: the `(elem shape, dtype)` its items take, else its run-time
    items'), as one run-time list made in the current block: a Tensor, or None where its
    items cannot be one."""
    if len(value) == 1 and isinstance(value[0], ListAccum):
        return value[0].tensor
    spec = like or run_spec(value)
    if spec is None or any(not isinstance(v, ListAccum) and item_spec(v) is None for v in value):
        return None
    elem, dtype = spec
    node = _g.Node("list_new", "list", attrs={"list": name})
    _g.add_node(node, [((None, *elem), dtype, False)], origin)
    acc = node.outputs[0]
    items: list = []
    for v in [*value, None]:
        if v is not None and not isinstance(v, ListAccum):
            items.append(v)
            continue
        if items:
            acc = _append(acc, items, name, origin)
            items = []
        if v is not None:
            out = [((None, *elem), dtype, False)]
            acc = emit("helper", "list_concat", concat_lists, (acc, v.tensor), {}, out)[0]
    return acc


def _join_runs(lst: list, first: int) -> int:
    """`accumulated.JOIN`: `lst`'s runs (`up + down` of two filtered lists) and the items from
    the first to the last as one run, in place; the run's index (`first` where they cannot be
    one: a read then names the other kind)."""
    if _JOINING:
        return first  # (reading the runs' kinds while joining them)
    last = max(k for k, v in enumerate(lst) if isinstance(v, ListAccum))
    _JOINING.append(lst)
    try:
        shown = list_name(lst)
        name = shown[6:-1] if shown.startswith("list `") else "the list"
        # (where its first run was made: it may be joined past the user's code, as it is returned)
        origin = getattr(lst[first].tensor.node, "origin", None) or user_origin(3)
        run = one_run(lst[first : last + 1], name, origin)
    finally:
        _JOINING.pop()
    if run is not None:
        lst[first : last + 1] = [ListAccum(run)]
        rejoined(lst)
    return first


_JOINING: list = []
accumulated.JOIN[0] = _join_runs


def rebound_lists(names, results, blocks, origin, originals) -> dict:
    """A variable that holds a different list after each branch of a staged `if` (`cur =
    []` in one, `cur.append(v)` in the other), where either holds items known only when the
    graph runs or the two lengths differ: each branch's list as one run-time list made in its
    block, so that the merge chooses between them (`results`: per branch, the variables'
    values and the lists' changes, as `TensorTracer.if_stmt` collects them; `originals`: the
    lists `as_left` copied). Gives `{i: list}` for each variable whose two values are one list
    (an item written in one branch, appends in the other): the merged run-time list goes back
    into that list object, which every name holding it sees."""
    graph = _g.current().graph
    for values, lists in results:  # `out.append(cur)` with `cur` a grown list, kept after
        refuse_held_items(values, lists, origin, "branch of this `if`")
    kept = {}
    for i, name in enumerate(names):
        a, b = results[0][0][i], results[1][0][i]
        if type(a) is not list or type(b) is not list:
            continue
        a_list, b_list = (originals.get(id(v), (None, v))[1] for v in (a, b))
        if a is b or (a_list is b_list and id(a) in originals and id(b) in originals):
            continue  # one list, its items merged one by one
        if any(v is a or v is b for k in (0, 1) for j, v in enumerate(results[k][0]) if j != i):
            continue  # another variable holds the same list: it must stay one object
        if a_list is b_list:
            kept[i] = a_list  # whatever the merge gives goes back into the one list
        if any(held_elsewhere(v, name) for v in (a_list, b_list) if _in_snap(v, results)):
            continue  # the list a branch appended to is seen under another name too
        for _, lists in results:  # `cur.append(-1); out.append(cur); cur = []`
            refuse_changed_items(lists, origin, "branch of this `if`")
        contents = [
            list(v) if id(v) in originals else _content(v, lists)
            for v, (_, lists) in zip((a, b), results)
        ]
        if any(c is None for c in contents):
            continue
        like = run_spec(contents[0]) or run_spec(contents[1])
        if like is None:
            if len(contents[0]) == len(contents[1]):
                continue  # item by item, as any two lists
            specs = [item_spec(v) for v in (*contents[0], *contents[1])]
            if not specs or any(spec is None for spec in specs):
                continue
            weak = [_weak(v) for v in (*contents[0], *contents[1])]
            like = specs[weak.index(False)] if False in weak else specs[0]
            like = (tuple(like[0]), like[1])
        made = []
        for block, content in zip(blocks, contents):
            with _g.build(graph, block):
                made.append(one_run(content, name, origin, like))
        if any(t is None for t in made):
            continue
        for k, t in enumerate(made):
            values = list(results[k][0])
            values[i] = [ListAccum(t)]
            # The list objects themselves stay as they were: the variable, their only holder
            # here, now holds the chosen run-time list.
            lists = [
                (lst, n, [] if lst is a_list or lst is b_list else added, before)
                for lst, n, added, before in results[k][1]
            ]
            results[k] = (tuple(values), lists)
    return kept


def _in_snap(lst, results) -> bool:
    return any(lst is x for x, _, _, _ in results[0][1])


def held_elsewhere(lst: list, name: str) -> bool:
    """Whether a name other than `name` in the user's frames (or a global, or a container
    they hold) refers to `lst`: then it must keep its own appends."""
    frame = user_frame()
    while frame is not None:
        if not frame.f_code.co_filename.startswith(_SKIP):
            for key, v in frame.f_locals.items():
                if key != name and _holds(v, lst, 0):
                    return True
            if any(v is lst for v in frame.f_globals.values()):
                return True
        frame = frame.f_back
    return False


def _holds(v, lst, depth: int) -> bool:
    if v is lst:
        return True
    t = type(v)
    if depth >= 2 or t not in (list, tuple, dict):
        return False
    items = v.values() if t is dict else v
    return any(_holds(x, lst, depth + 1) for _, x in zip(range(1000), items))


def _content(value: list, lists):
    """What list `value` holds after a branch (`lists`: each list's changes there), or None
    where a branch changed it otherwise than by appending."""
    for lst, _, added, before in lists:
        if lst is value:
            if added is None or type(added) is not list:
                return None
            return [*before, *added]
    return list(value)


def whole_lists(value):
    """A function's outputs with each list that holds run-time items followed by others
    (`out.append(1)` after a staged loop appended to `out`) made one run-time list, as the
    graph returns it."""
    check_reads()  # (records read from run-time lists and changed in place: refused)
    refuse_changed_since()  # (lists appended as items and changed later: refused)
    t = type(value)
    if t is list:
        n = accum_index(value)
        if n is None:
            items = [whole_lists(v) for v in value]
            return value if all(a is b for a, b in zip(items, value)) else items
        if n < len(value) - 1 or (n and layout_of(value[n].tensor.dtype) is not None):
            # (no frame of the user's is running now: an error cites the staged statement that
            # made the run-time items, not the caller's line)
            node = getattr(value[n].tensor, "node", None)
            origin = getattr(node, "origin", None) or user_origin(3)
            run = one_run(value, "the returned list", origin)
            value = value if run is None else [ListAccum(run)]
        return returned_list(value)  # records: rebuilt when the graph runs
    if t is tuple:
        items = tuple(whole_lists(v) for v in value)
        return value if all(a is b for a, b in zip(items, value)) else items
    if t is dict:
        items = {k: whole_lists(v) for k, v in value.items()}
        return value if all(items[k] is v for k, v in value.items()) else items
    if isinstance(value, tuple) and hasattr(t, "_fields"):
        return t(*(whole_lists(v) for v in value))
    return value


class _Replaced(list):
    """Items appended after a nested `if` replaced a loop's accumulator with `tensor`."""

    def __init__(self, tensor, items):
        super().__init__(items)
        self.tensor = tensor


class _Whole(list):
    """A list that a list method in a staged branch made one run-time list, `tensor` (`dq.pop(0)`
    of a list holding items before or after its run-time ones)."""

    def __init__(self, tensor):
        super().__init__()
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


def in_staged_loop(lst) -> bool:
    """Whether `lst` is among the lists of the staged loop being traced."""
    return bool(_LOOPS) and any(lst is seen for seen, _, _ in _LOOPS[-1])


def unsettled_appends(origin, what="staged loop") -> StagingError:
    """The error for appends a staged loop cannot carry as a run-time list."""
    return StagingError(
        f"{where(origin)}: a list is appended to a different number of times on different "
        f"paths through this {what}, in a way autoconv cannot stage (branches and loops nested "
        "inside it). Append the same number of items on every path (e.g. append a placeholder "
        "and filter with a mask afterwards), or collect the values in a preallocated array."
    )


class _NeedsAccumulator(Exception):
    """A branch inside a loop body appended to a list unevenly (`items`), or (`whole`) the
    body pops from it or otherwise changes it (`items`: values of its items' kind, if any):
    retrace with it accumulated, as a whole when `whole`, as values-or-None when `widen`."""

    def __init__(self, lst, items, whole=False, widen=None):
        super().__init__()
        self.lst = lst
        self.items = items
        self.whole = whole
        self.widen = widen  # the row dtype of values-or-None its items take from now on


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
    # A number whose Python type depends on the path goes in as that type, so that reads of
    # the list (which find each item's type when the graph runs) give eager's.
    note_items(items, name, origin)  # (a list appended, changed later: refused)
    items = [as_its_kind(it) for it in as_inner_runs(items, acc.dtype, name, origin)]
    refuse_nested_runs(items, name, origin)
    one_kind(items, f"goes into list `{name}`", origin, stacked=True)
    # (a record takes the list's layout: its spec before it is made its flat row)
    specs = [spec_against(it, acc.dtype) or item_spec(it) for it in items]
    items = as_items(items, acc.dtype)  # a string a staged condition chose: the value it picks
    node = _g.Node("list_append", "append", args=(acc, *items))
    elem = tuple(acc.shape[1:])
    for item, spec in zip(items, specs):
        if spec is None:
            raise StagingError(
                f"{where(origin)}: list `{name}` holds {_item_text(acc.dtype)} appended in a "
                f"staged loop, and {_spec_text(item)} is appended to it: append items of one "
                "kind (arrays, numbers, or tuples of them)."
            )
        if len(spec[0]) != len(elem):
            raise StagingError(
                f"{where(origin)}: items appended to list `{name}` in a staged loop or branch "
                f"must all have the same number of dimensions: got {shapes.fmt(spec[0])} after "
                f"{shapes.fmt(elem)}"
            )
        elem = shapes.generalize(elem, tuple(spec[0]))
        if spec[1] != acc.dtype and (is_row(spec[1]) or is_row(acc.dtype) or not _weak(item)):
            raise StagingError(
                f"{where(origin)}: items appended to list `{name}` in a staged loop or branch "
                f"must all have the same dtype: got {_item_text(spec[1])} after "
                f"{_item_text(acc.dtype)}" + LAYOUT_HINT * any(map(layout_of, (spec[1], acc.dtype)))
            )
    _g.add_node(node, [((None, *elem), acc.dtype)], origin)
    return node.outputs[0]


def as_inner_runs(items, dtype, name: str, origin) -> list:
    """`items` going into a run-time list (of `dtype`): a list holding run-time items and
    items after them (`cur.append(v)` then `out.append(cur)`), or a list of numbers going
    into a list of lists of run-time length (`[]`, `[x]`), as one run-time list."""
    spec = inner_spec(dtype)
    out = []
    for item in items:
        tailed = type(item) is list and len(item) > 1 and accum_index(item) is not None
        if tailed or spec is not None and type(item) is list and not _one_run_list(item):
            t = one_run(item, name, origin, spec)
            item = item if t is None else [ListAccum(t)]
        out.append(item)
    return out


def _one_run_list(item) -> bool:
    return len(item) == 1 and isinstance(item[0], ListAccum)
