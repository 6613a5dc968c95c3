"""Lists of lists whose inner lengths are known only when the graph runs (`runs.append(cur)`
where a staged loop appended to `cur`): a run-time list keeps items of one layout, so such an
item is refused with one message wherever it is appended."""

from __future__ import annotations

from autoconv.graph.errors import StagingError, where
from autoconv.trace.tensors.accumulated import ListAccum

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
    """Raises where one of `items`, appended to list `name`, is a list of run-time length."""
    if any(_holds_run(it) for it in items):
        raise StagingError(
            f"{where(origin)}: list `{name}` gets, as an item, a list whose length is known only "
            "when the graph runs (a staged loop or branch appended to it): a list grown in a "
            "staged loop holds items of one layout, not lists of lengths known only then. "
            f"{FIX}."
        )
