"""Lists of lists whose inner lengths are known only when the graph runs (`runs.append(cur)`
where a staged loop appended to `cur`): a run-time list keeps items of one layout, so such an
item is refused with one message wherever it is appended."""

from __future__ import annotations

from autoconv.graph import graph as _g
from autoconv.graph import record_layout as rl
from autoconv.graph.errors import StagingError, where
from autoconv.graph.record_layout import inner_spec
from autoconv.trace.tensors.accumulated import ListAccum
from autoconv.trace.tensors.rows import item_spec

FIX = (
    "Append the values to one flat list and each group's length to another "
    "(`flat.extend(cur); sizes.append(len(cur))`), or reduce the group as it ends "
    "(`sums.append(sum(cur))`)"
)


def _holds_run(item, depth: int = 0) -> bool:
    """Whether `item` is (or a tuple, list or dict of it holds) a list with run-time items."""
    t = type(item)
    if t is list and any(isinstance(v, ListAccum) for v in item):
        return True
    if depth >= 2 or t not in (list, tuple, dict):
        return False
    return any(_holds_run(v, depth + 1) for v in (item.values() if t is dict else item))


def as_one_run(item):
    """`item`, a list holding run-time items and items after them, as the one run-time list
    it is made (`appends.as_inner_runs`) while tracing (no node: for its spec)."""
    if type(item) is not list or len(item) < 2:
        return item
    run = next((v for v in item if isinstance(v, ListAccum)), None)
    return item if run is None else [run]


def refuse_held_items(values, lists, origin, what: str) -> None:
    """Raises where a list holding run-time items and items after them (made one run-time
    list as it is appended as an item: a copy) is appended to a list and still held by a
    variable after the branch (`values`): eagerly the item is that list, and later changes to
    it show in the item."""
    for _, name, added, _ in lists:
        for item in added if type(added) is list else ():
            if as_one_run(item) is not item and any(item is v for v in values):
                raise StagingError(
                    f"{where(origin)}: a list grown in a staged loop is appended to list "
                    f"`{name}` in this {what} and still held by a variable after it: eagerly "
                    "the item is that list, and what is appended to it later shows in the "
                    "item, which autoconv cannot follow. Rebind the variable after appending "
                    f"it (`{name}.append(cur); cur = []`), or append a copy "
                    f"(`{name}.append(list(cur))`)."
                )


def refuse_nested_runs(items, name: str, origin) -> None:
    """Raises where one of `items`, appended to list `name`, is a list of run-time length
    that a run-time list cannot hold (one of items of one shape and dtype, as an item or a
    field of one, it can: `records`, layout "r")."""
    if any(_holds_run(it) and item_spec(as_one_run(it)) is None for it in items):
        raise StagingError(
            f"{where(origin)}: list `{name}` gets, as an item, a list whose length is known only "
            "when the graph runs (a staged loop or branch appended to it): a list grown in a "
            "staged loop holds items of one layout, not lists of lengths known only then. "
            f"{FIX}."
        )


def widens(old, new) -> bool:
    """Whether a run-time list of items of `old`, lists of a length known while tracing
    (`groups.append([])` first), takes lists of run-time length (`new`, layout "r") too."""
    layout = rl.layout_of(old)
    return (
        inner_spec(new) is not None
        and type(layout) is tuple
        and layout[0] == "l"
        and all(p == "x" for p in layout[1])
    )


def inner_runs_of(dtype, items):
    """The dtype of lists of run-time length (layout "r") that a run-time list of `dtype`
    (lists of a length known while tracing) takes for `items`, or None."""
    for item in items:
        spec = item_spec(as_one_run(item))
        if spec is not None and widens(dtype, spec[1]):
            return spec[1]
    return None


def refuse_changed_items(lists, origin, what: str) -> None:
    """Raises where a list one of `lists` got as an item (`out.append(cur)`) is itself
    changed in the same branch or loop body (`cur.append(-1)` before or after): the traced
    list's item is what that list held before, where eagerly it is the changed list (`lists`:
    `(list, name, added, before)` each, as the tracer collects the changes there)."""
    # (a list whose run-time items took the ones appended after them: `_Replaced`, which
    # compares equal to [])
    changed = {
        id(lst): name for lst, name, added, _ in lists if not (type(added) is list and not added)
    }
    for _, name, added, _ in lists:
        for item in added if type(added) is list else ():
            if type(item) is list and id(item) in changed:
                shown = changed[id(item)]
                raise StagingError(
                    f"{where(origin)}: list `{shown}` is changed and appended to list "
                    f"`{name}` in the same {what}: eagerly the item is that list, changes and "
                    "all, which autoconv cannot follow there. Append a new list "
                    f"(`{name}.append({shown} + [v])`), or change `{shown}` outside this "
                    "branch."
                )


# Lists and dicts appended as items in staged code, with the items they held then: a run-time
# list's item is what the appended list held when appended (a copy, `records.row_of`), where
# eagerly it is that list, so a later change must be refused (`refuse_kept_items`,
# `refuse_changed_since`). Entries of the graph being traced: (graph, item, ids, name, origin).
_ITEMS: list = []


def note_items(items, name: str, origin) -> None:
    """Notes the lists and dicts of `items`, appended to list `name` in staged code."""
    graph = _g.current().graph
    if len(_ITEMS) > 4096 or (_ITEMS and _ITEMS[0][0] is not graph):
        _ITEMS.clear()  # (an earlier trace's)
    for item in items:
        if type(item) in (list, dict) and not any(e[1] is item for e in _ITEMS):
            _ITEMS.append((graph, item, _ids(item), name, origin))


def rejoined(lst) -> None:
    """`lst`, a list appended as an item, had its items made one run-time list in place by
    autoconv (`appends._join_runs`, `fold_tails`): the same items, not a change of the user's."""
    for k, entry in enumerate(_ITEMS):
        if entry[1] is lst:
            _ITEMS[k] = (*entry[:2], _ids(lst), *entry[3:])


def _ids(v) -> tuple:
    return tuple(map(id, v.values() if type(v) is dict else v))


def _kept_error(entry, how: str) -> StagingError:
    _, item, _, name, origin = entry
    kind = type(item).__name__
    return StagingError(
        f"{where(origin)}: a {kind} appended to list `{name}` here {how}: eagerly the item is "
        f"that {kind}, and shows what is done to it later, where autoconv's item keeps what it "
        "held when appended. Bind the name to a new one after appending it "
        f"(`{name}.append(cur); cur = []`), or append a copy (`{name}.append(list(cur))`)."
    )


def refuse_kept_items(values, lists, what: str, origin) -> None:
    """At the end of a staged loop's body: raises where a list or dict appended as an item
    (in it, or before it) is still a loop variable's value (`values`), so the next iteration
    may change it, or is one of the lists the body appended to (`lists`: `(list, name, added,
    before)`, as `_settle_lists` gets them)."""
    graph = _g.current().graph
    entries = [e for e in _ITEMS if e[0] is graph]
    for _, name, added, _ in lists:
        for item in added if isinstance(added, list) else ():
            if type(item) in (list, dict) and not any(e[1] is item for e in entries):
                entries.append((graph, item, (), name, origin))
    grown = [lst for lst, _, added, _ in lists if not (type(added) is list and not added)]
    for entry in entries:
        item = entry[1]
        held = any(item is v or type(v) is tuple and any(item is x for x in v) for v in values)
        changed = any(item is lst for lst in grown)
        if held or changed:
            raise _kept_error(entry, f"is still held after an iteration of this {what}")


def refuse_changed_since() -> None:
    """At the end of the trace: raises where a list or dict appended as an item was changed
    since (`runs.append(cur)`, then `cur.append(9)`)."""
    graph = _g.current().graph
    found = [e for e in _ITEMS if e[0] is graph and _ids(e[1]) != e[2]]
    _ITEMS.clear()
    if found:
        raise _kept_error(found[0], "is changed later")
