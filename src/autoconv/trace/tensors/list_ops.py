"""Slices, `in` and the methods other than `append` of a list that a staged statement appended
to: computed on the whole list when the graph runs (graph.helpers), so that they see the items
the graph appends. A method that changes the list leaves it holding one run-time list."""

from __future__ import annotations

import numpy as np

from autoconv.graph.errors import StagingError, where
from autoconv.graph.helpers import (
    HEAP_FUNCS,
    LIST_METHODS,
    contains_list,
    join_list,
    slice_list,
)
from autoconv.graph.origin import user_origin
from autoconv.graph.tensor import Tensor
from autoconv.runtime.lists import CHANGES
from autoconv.trace.tensors import item_kinds
from autoconv.trace.tensors.accumulated import (
    ListAccum,
    accum_index,
    item_kind,
    list_name,
    run_time_item,
)
from autoconv.trace.tensors.appends import _NeedsAccumulator, as_its_kind, in_staged_loop, one_run
from autoconv.trace.tensors.heaps import PUSHES, heap_call
from autoconv.trace.tensors.optionals import index_value
from autoconv.trace.tensors.recording import emit
from autoconv.trace.tensors.records import as_row, refuse_order
from autoconv.trace.tensors.rows import _weak, item_spec, parts

_BOOL = ((), np.dtype(bool), True)
# heapq's and bisect's functions that change the list (a staged loop's body that calls them
# carries it as a run-time list).
HEAP_CHANGES = frozenset(HEAP_FUNCS) - {"bisect_left", "bisect_right"}
_INT = ((), np.dtype(np.int64), True)


def list_slice(lst: list, key: slice):
    """`lst[start:stop:step]`: the items before the run-time ones when the slice stays among
    them, else a new list whose items are known when the graph runs."""
    n = accum_index(lst)
    if n is None:
        return lst[key]
    start, stop, step = (index_value(k) for k in (key.start, key.stop, key.step))
    if _plain(start) and _plain(stop) and step in (None, 1):
        if (start or 0) >= 0 and stop is not None and 0 <= stop <= n:
            return lst[key]
    elem, dtype = item_kind(lst, n, "a slice", user_origin(2))
    prefix, acc, tail = parts(lst, n)
    spec = [((None, *elem), dtype, False)]
    out = emit("helper", "slice", slice_list, (prefix, acc, tail, start, stop, step), {}, spec)
    return [ListAccum(out[0])]


def _plain(v) -> bool:
    return v is None or (isinstance(v, (int, np.integer)) and not isinstance(v, bool))


def list_contains(lst: list, value):
    """`value in lst`, when the graph runs."""
    n = accum_index(lst)
    if n is None:
        return value in lst
    value = index_value(value)
    item_kind(lst, n, "`in`", user_origin(2))
    prefix, acc, tail = parts(lst, n)
    value = as_row(value, acc.dtype, "`in`", user_origin(2))  # a record: its row
    return emit("helper", "in", contains_list, (prefix, acc, tail, value), {}, [_BOOL])[0]


def _made_run_time(lst: list, name: str, args) -> bool:
    """A Python list of arrays or numbers whose method gets a value known only when the graph
    runs (`todo.remove(best)`): made a run-time list holding its items, in place; False where
    it cannot be (then Python's method runs, and meets the Tensor)."""
    if name in HEAP_FUNCS:
        from autoconv.runtime.sequences import holds_symbolic

        if not holds_symbolic(lst, *args):
            return False
    elif not any(isinstance(a, Tensor) for a in args):
        return False
    specs = [item_spec(v) for v in lst]
    if any(spec is None for spec in specs):
        return False
    if specs:
        like = (
            tuple(specs[0][0]),
            next((sp[1] for v, sp in zip(lst, specs) if not _weak(v)), specs[0][1]),
        )
    elif name in PUSHES and args and item_spec(args[0]) is not None:
        spec = item_spec(args[0])
        like = (tuple(spec[0]), spec[1])
    elif name in ("insert", "remove", "index", "count") and item_spec(args[-1]) is not None:
        spec = item_spec(args[-1])
        like = (tuple(spec[0]), spec[1])
    else:
        return False
    run = one_run(lst, _name(lst), user_origin(3), like)
    if run is None:
        return False
    lst[:] = [ListAccum(run)]
    return True


class JoinTypeError(StagingError, TypeError):
    """`sep.join` of items that are not strings: eager Python raises TypeError too."""


def joined(sep: str, lst: list):
    """`sep.join(lst)` of a list of strings a staged statement appended (a status string a
    staged condition chose, per item): the string, made when the graph runs."""
    n = accum_index(lst)
    prefix, acc, tail = parts(lst, n)
    if acc.dtype != np.dtype(object) or not all(map(_text, (*prefix, *tail))):
        raise JoinTypeError(
            f"{where(user_origin(2))}: `{sep!r}.join(...)` of {list_name(lst)}, whose items a "
            f"staged statement appended ({acc.dtype} each): str.join takes strings (eager "
            "Python raises this TypeError too). Append strings, or make them with str() "
            "outside autoconv.function."
        )
    spec = [((), np.dtype(object), False)]
    return emit("helper", "join", join_list, (sep, prefix, acc, tail), {}, spec)[0]


def _text(v) -> bool:
    """A string, or one made when the graph runs (an f-string appended after a staged loop)."""
    return type(v) is str or isinstance(v, Tensor) and v.dtype == object and v.shape == ()


_KINDS: dict = {}  # id(list) -> (the list, an item of it): see note_kind


def note_kind(lst: list) -> None:
    """Remembers one of `lst`'s items (its kind), while tracing."""
    if len(_KINDS) > 256:
        _KINDS.clear()
    _KINDS[id(lst)] = (lst, lst[-1])


def noted_kind(lst: list) -> list:
    """`[item]` of the kind `lst` held when `note_kind` saw it, or []."""
    entry = _KINDS.get(id(lst))
    return [entry[1]] if entry is not None and entry[0] is lst else []


def list_iadd(lst: list, value) -> list:
    """`lst += value`: the items of `value` after `lst`'s, in place; one run-time list where
    either held items known only when the graph runs."""
    lst.extend(value)
    # Items after the run-time ones are as if appended (as `append` leaves them); a second
    # run-time part joins the first.
    if sum(isinstance(v, ListAccum) for v in lst) > 1:
        run = one_run(lst, _name(lst), user_origin(2))
        if run is None:
            raise StagingError(
                f"{where(user_origin(2))}: `+=` joins {list_name(lst)}, whose items a staged "
                "statement appended, with items that are not arrays or numbers. Append arrays "
                "or numbers."
            )
        lst[:] = [ListAccum(run)]
    return lst


def _name(lst: list) -> str:
    shown = list_name(lst)  # "list `name`", or "this list"
    return shown[6:-1] if shown.startswith("list `") else "the list"


def list_method(lst: list, name: str, args: tuple, kwargs: dict):
    """`lst.name(*args, **kwargs)` (pop, insert, remove, sort, reverse, index, count)."""
    n = accum_index(lst)
    if n is None:
        if (name in CHANGES or name in HEAP_CHANGES) and in_staged_loop(lst):
            # Changed in a staged loop's body: the loop carries it as a run-time list (its
            # items as they are give the kind; none: the items a branch appends do).
            # (a heap pushed onto from empty: the pushed item gives the kind)
            kind = list(lst) or (list(args[:1]) if name in PUSHES else [])
            raise _NeedsAccumulator(lst, kind, whole=True)
        if not _made_run_time(lst, name, args):
            if name in HEAP_FUNCS:
                return HEAP_FUNCS[name](lst, *args, **kwargs)
            return getattr(lst, name)(*args, **kwargs)
        n = 0
    origin = user_origin(2)
    if name in HEAP_FUNCS:
        return heap_call(lst, n, name, args, kwargs, origin)
    if name == "sort" and "key" in kwargs and not set(kwargs) - {"key", "reverse"}:
        from autoconv.trace.tensors.keyed_sort import sort_by_key

        if sort_by_key(lst, kwargs["key"], kwargs.get("reverse", False), origin):
            return None
    if set(kwargs) - ({"reverse"} if name == "sort" else set()):
        raise StagingError(
            f"{where(origin)}: `.{name}({', '.join(f'{k}=' for k in kwargs)})` of a list that "
            "a staged loop appended to: its items are known only when the graph runs, and "
            f"only `.{name}()` without those keywords can be staged. Sort an array instead "
            "(np.sort(np.stack(lst)))."
        )
    args = tuple(index_value(a) for a in args)
    if name in ("insert", "setitem"):
        # the item stored as its path's Python type, as `append` stores it
        args = (args[0], as_its_kind(args[1]))
    # The items known now join the run-time list: each as its path's Python type too.
    lst[:] = [v if isinstance(v, ListAccum) else as_its_kind(v) for v in lst]
    if name == "sort":
        args = (kwargs["reverse"],) if "reverse" in kwargs else ()
    elem, dtype = item_kind(
        lst, n, f"`.{name}()`", origin, more=args[1:] if name in ("insert", "setitem") else ()
    )
    prefix, acc, tail = parts(lst, n)
    specs = [((None, *elem), dtype, False)]
    if name == "pop":
        specs.append((elem, dtype, False))
    elif name in ("index", "count"):
        specs.append(_INT)
    if name == "sort":
        refuse_order("`.sort()`", acc.dtype, origin)
    if name in ("index", "count", "remove", "insert", "setitem"):  # a record: its row
        k = 1 if name in ("insert", "setitem") else 0
        args = (*args[:k], as_row(args[k], acc.dtype, f"`.{name}()`", origin), *args[k + 1 :])
    outs = emit("helper", name, LIST_METHODS[name], (prefix, acc, tail, *args), {}, specs)
    lst[:] = [ListAccum(outs[0])]
    if name == "pop":
        return run_time_item(outs[1], known=item_kinds.of_parts(prefix, acc, tail))
    return outs[1] if len(outs) > 1 else None


def extreme_by_key(which: str, lst: list, key):
    """`max(lst, key=key)` / `min(...)` of a list a staged loop appended to, whose keys are
    numbers: the item at the first greatest (smallest) key, as Python gives it, read when the
    graph runs (no items: NumPy's ValueError, as Python's). None where the keys are not
    numbers (the caller refuses it)."""
    from autoconv.runtime.calls import converted
    from autoconv.runtime.lists import filtered
    from autoconv.trace.tensors.accumulated import list_item, stack_items

    # The key converted (a lambda stays as written until called: `key=lambda k: dist[k]`
    # reads a list at the run-time item, which converted code does through the runtime).
    keys = filtered(lst, None, converted(key))
    n = accum_index(keys)
    if n is None or len(keys) != 1:
        return None
    run = keys[n].tensor
    if run.ndim != 1 or run.dtype.kind not in "biuf":
        return None
    _rename(run, f"{which}()'s keys")  # (not the name of the comprehension's own list)
    found = (np.argmax if which == "max" else np.argmin)(stack_items(np.array, keys))
    return list_item(lst, found)


def _rename(run: Tensor, name: str) -> None:
    """Names the list that made run-time list `run` (its `list_new`, before the loop that
    grew it) `name` in messages."""
    todo, seen = [run], set()
    while todo:
        t = todo.pop()
        node = t.node if isinstance(t, Tensor) else None
        if node is None or id(node) in seen or len(seen) > 64:
            continue
        seen.add(id(node))
        if node.kind == "list_new":
            node.attrs["list"] = name
            return
        todo.extend(a for a in node.args if isinstance(a, Tensor))
