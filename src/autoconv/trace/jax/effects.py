"""Lists and dicts that traced code changes: an error under JAX, which cannot grow them.

A branch of a staged `if` or the body of a staged loop is traced once for every path and
iteration, so an `append` there would run once, whatever the data. Before tracing, the lists
and dicts that the body's closures reach (the converter's body functions read the user's
locals through closure cells) are recorded; a change is undone and reported.
"""

from __future__ import annotations

import contextlib

from autoconv.runtime import staging
from autoconv.trace.core.closures import closure_cells, containers
from autoconv.trace.jax import merge
from autoconv.trace.jax import state as st
from autoconv.trace.jax.growth import Appends


def _reachable(fns):
    """`(name, container, direct)` for the lists and dicts in the closures of `fns` and of the
    functions those closures hold, and inside the objects, dicts and lists those hold (`direct`:
    in a closure cell itself, where a loop can put its stand-in for a growing list)."""
    found, seen = [], set()
    for name, _, value in closure_cells(fns):
        if type(value) is Appends:
            if id(value) not in seen:
                seen.add(id(value))
                found.append((name, value, True))
            continue
        for inner_name, container in containers(value, name):
            if id(container) not in seen:
                seen.add(id(container))
                found.append((inner_name, container, container is value))
    return found


def _snapshot(container):
    if type(container) is Appends:  # an enclosing loop's stand-in: its appended items
        return list(container.items)
    if type(container) is list:
        return list(container)
    return dict(container)


def _items(container):
    return container.items if type(container) is Appends else container


def _grew(container, before) -> bool:
    """Whether list `container` holds the items it held `before`, and more after them."""
    items = _items(container)
    return len(items) > len(before) and all(a is b for a, b in zip(items, before))


def _same(container, saved, state_keys) -> bool:
    """Whether `container` holds what `saved` does, except at `state_keys` (the items that are
    variables of the staged statement, merged or carried like names)."""
    if type(container) is Appends:
        container = container.items
    if type(container) is list:
        return len(container) == len(saved) and all(
            a is b or i in state_keys for i, (a, b) in enumerate(zip(container, saved))
        )
    kept = saved.keys() - state_keys  # a key that is a variable may be added (d['k'] = v)
    return container.keys() - state_keys == kept and all(container[k] is saved[k] for k in kept)


def state_items(get_state, names) -> dict:
    """`{id(container): {keys}}` for the variables among `names` that are items, `d['k']` or
    `acc[0]` (the converter passes them as names): changing those is the statement's output."""
    found: dict = {}
    items = [n for n in names if n.endswith("]")]
    if not items or get_state is None:
        return found
    cells = dict(zip(get_state.__code__.co_freevars, get_state.__closure__ or ()))
    for name in items:
        root, accessors = staging._parse(name)
        try:
            value = cells[root].cell_contents if root in cells else get_state.__globals__[root]
            for is_attr, key in accessors[:-1]:
                value = getattr(value, key) if is_attr else value[key]
        except (ValueError, LookupError, AttributeError):
            continue
        key = accessors[-1][1]
        if type(value) is list and type(key) is int and key < 0:
            key += len(value)
        found.setdefault(id(value), set()).add(key)
    return found


@contextlib.contextmanager
def unchanged_containers(fns, origin, what, state_keys=None, growing=None, skip=(), hidden=None):
    """Traces `what` (the body functions `fns`), raising if it changes a list or dict other
    than at `state_keys` (see `state_items`). `growing` (a loop with a static trip count):
    `{id(list): (name, list)}` of the lists it may grow; a list found growing is added, and
    the body traced again (`merge.Retry`; see `growth`). `skip`: ids of this loop's own
    stand-ins for those lists. `hidden`: the statement's `HiddenState`, whose dicts (a
    helper's, an object's) it puts back and carries itself."""
    skip = {*skip, *(id(d) for d, _, _ in (hidden.dicts if hidden is not None else ()))}
    state_keys = state_keys or {}
    saved = [(n, c, _snapshot(c), d) for n, c, d in _reachable(fns) if id(c) not in skip]
    try:
        yield
    finally:
        changed = []  # (name, container, whether it only grew, in a closure cell)
        for name, container, before, direct in saved:
            if not _same(container, before, state_keys.get(id(container), ())):
                grew = type(container) is not dict and _grew(container, before)
                changed.append((name, container, grew, direct))
            if type(container) is not dict:
                _items(container)[:] = before
            else:
                container.clear()
                container.update(before)
    if changed and growing is not None:
        if all(grew and direct and id(c) not in growing for _, c, grew, direct in changed):
            growing.update((id(c), (n, c)) for n, c, _, _ in changed)
            raise merge.Retry(None)
    if changed:
        name, container, grew, direct = changed[0]
        kind = "dict" if type(container) is dict else "list"
        if grew and direct and what.endswith("loop"):
            st.fail(
                origin,
                f"list `{name}` grows inside {what}, whose number of iterations JAX does not "
                "know while tracing (a `while` loop, a traced `range`, or a `break` or `return` "
                "in it), so the list's length would depend on the data. Preallocate an array of "
                "the largest size and write `x = x.at[i].set(v)` with a count, or loop over an "
                "array without `break`.",
            )
        st.fail(
            origin,
            f"{kind} `{name}` is changed inside {what}, which JAX traces once for every path "
            "and iteration, so it cannot grow or change with the data. Keep arrays instead "
            "(preallocate and use `x.at[i].set(v)`, or `jnp.where`), or change the "
            f"{kind} outside the staged statement.",
        )
