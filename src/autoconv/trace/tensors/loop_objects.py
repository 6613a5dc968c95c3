"""Lists and dicts a staged loop carries that stay the same objects after it: one the body
changed only in place, and an empty dict (or one with run-time keys) the loop carries."""

from __future__ import annotations

from autoconv.runtime import keyed as keyed_rt


def in_place(before, after, kept, i):
    """A list or dict that the body changed only in place (`seen[u] = True` at a run-time
    index: trace.tensors.switch) is, after the loop, the object it was before, holding the
    loop's results: other names that hold it see them, as eagerly."""
    if i < len(kept) and kept[i] and type(before) is type(after) and before is not after:
        if type(before) is list:
            before[:] = after
        else:
            before.clear()
            before.update(after)
        return before
    return after


def kept(value) -> tuple:
    """An empty dict the loop carries, or one with run-time keys' lists beside it, stays the one
    object (the keys it gets when the graph runs are kept beside it, by its identity:
    `runtime.keyed`)."""
    if type(value) is not dict:
        return ()
    return (value,) if not value or keyed_rt.shadow(value) is not None else ()
