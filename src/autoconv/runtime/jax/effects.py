"""Lists and dicts that traced code changes: an error under JAX, which cannot grow them.

A branch of a staged `if` or the body of a staged loop is traced once for every path and
iteration, so an `append` there would run once, whatever the data. Before tracing, the lists
and dicts that the body's closures reach (the converter's body functions read the user's
locals through closure cells) are recorded; a change is undone and reported.
"""

from __future__ import annotations

import contextlib

from autoconv.runtime.jax import state as st

_FunctionType = type(lambda: None)


def _reachable(fns, depth=4):
    """`(name, container)` for the lists and dicts in the closures of `fns` and of the
    functions those closures hold."""
    found, seen = [], set()
    todo = [(fn, depth) for fn in fns if fn is not None]
    while todo:
        fn, left = todo.pop()
        if type(fn) is not _FunctionType or id(fn) in seen:
            continue
        seen.add(id(fn))
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
            try:
                value = cell.cell_contents
            except ValueError:  # an unbound local
                continue
            if type(value) in (list, dict) and id(value) not in seen:
                seen.add(id(value))
                found.append((name, value))
            elif type(value) is _FunctionType and left:
                todo.append((value, left - 1))
    return found


def _snapshot(container):
    if type(container) is list:
        return list(container)
    return dict(container)


def _same(container, saved) -> bool:
    if len(container) != len(saved):
        return False
    if type(container) is list:
        return all(a is b for a, b in zip(container, saved))
    return container.keys() == saved.keys() and all(container[k] is saved[k] for k in saved)


@contextlib.contextmanager
def unchanged_containers(fns, origin, what):
    """Traces `what` (the body functions `fns`), raising if it changes a list or dict."""
    saved = [(name, c, _snapshot(c)) for name, c in _reachable(fns)]
    try:
        yield
    finally:
        changed = []
        for name, container, before in saved:
            if not _same(container, before):
                changed.append((name, container))
                if type(container) is list:
                    container[:] = before
                else:
                    container.clear()
                    container.update(before)
    if changed:
        name, container = changed[0]
        kind = type(container).__name__
        st.fail(
            origin,
            f"{kind} `{name}` is changed inside {what}, which JAX traces once for every path "
            "and iteration, so it cannot grow or change with the data. Keep arrays instead "
            "(preallocate and use `x.at[i].set(v)`, or `jnp.where`), or change the "
            f"{kind} outside the staged statement.",
        )
