"""Lists a staged loop's body binds a variable to (`frontier = nxt`, `cur = []` on some path
and `cur.append(v)`): carried as run-time lists."""

from __future__ import annotations

from autoconv.trace.tensors.accumulated import ListAccum
from autoconv.trace.tensors.appends import one_run, run_spec
from autoconv.trace.tensors.rows import item_spec


def one_run_each(out, state_in, given, snap, names, origin) -> None:
    """A variable the body binds to a list made in it (`frontier = nxt`), or whose list it
    appends to while also rebinding it on some path (`cur = []`), where that list or the
    variable's list before holds run-time items: one run-time list, which the loop carries
    as one of its variables (`given`: the variables' lists as the body got them)."""
    for i, o in enumerate(out):
        if type(o) is not list or any(o is lst for lst, _, _ in snap):
            continue
        like = run_spec(given[i] or [])
        if o is state_in[i]:
            old = given[i]
            if len(o) == len(old) and all(a is b for a, b in zip(o, old)):
                continue  # not changed
            appended = len(o) > len(old) and all(a is b for a, b in zip(o, old))
            if not appended and len(o) == len(old):
                continue  # items written in place: leaves the loop carries
            # Appended to, or popped from, each iteration: a run-time list.
            items = o[len(old) :] if appended else [*old, *o]
            like = like or _items_spec(items)
        elif like is None and given[i] is not None and len(o) != len(given[i]):
            # A list made in the body (`cur = []` on some path, then `cur.append(v)`) of
            # another length than the variable's list before: a run-time list, as is the
            # one before (`_lifted_to_run`).
            like = _items_spec(o)
        if like is not None or run_spec(o) is not None:
            t = one_run(o, names[i], origin, like)
            if t is not None:
                out[i] = [ListAccum(t)]


def _items_spec(items):
    """`(elem shape, dtype)` of the first of `items` that has one, or None."""
    spec = next((sp for sp in map(item_spec, items) if sp is not None), None)
    return None if spec is None else (tuple(spec[0]), spec[1])
