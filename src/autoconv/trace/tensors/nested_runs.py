"""Lists of lists whose inner lengths are known only when the graph runs (`runs.append(cur)`
where a staged loop appended to `cur`): a run-time list keeps items of one layout, so such an
item is refused with one message wherever it is appended."""

from __future__ import annotations

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


def refuse_nested_runs(items, name: str, origin) -> None:
    """Raises where one of `items`, appended to list `name`, is a list of run-time length
    that a run-time list cannot hold (one of items of one shape and dtype, as an item or a
    field of one, it can: `records`, layout "r")."""
    if any(_holds_run(it) and item_spec(it) is None for it in items):
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
        spec = item_spec(item)
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
                raise StagingError(
                    f"{where(origin)}: list `{changed[id(item)]}` is appended to list `{name}` "
                    f"and changed in the same {what}: the item would not show the change, as "
                    f"it does eagerly. Finish `{changed[id(item)]}` before appending it (or "
                    f"append a copy, `{name}.append(list({changed[id(item)]}))`, where the "
                    "change should not show)."
                )
