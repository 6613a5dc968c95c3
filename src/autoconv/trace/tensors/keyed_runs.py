"""Two sets or dicts, one on each path of a staged `if`, where either holds keys known only when
the graph runs (`return dict(cnt)` after `cnt[k] += 1` on one path, `{}` on the other).

Each path's keys (and values) become one run-time list made in its block, and the `if` merges
those lists as any two run-time lists: after it, the variable holds a new set or dict of the
same kind whose keys are the lists the path took (`runtime.keyed`). The pair travels through
the merge as a named tuple of its lists (`_runs_type`), which the merge rebuilds into that new
object, as `object_state` does for an object made in a branch. Sets and dicts inside tuples and
lists are lifted alike (`return (dict(cnt),)`).
"""

from __future__ import annotations

import collections

from autoconv.graph import graph as _g
from autoconv.graph.errors import StagingError, where
from autoconv.runtime import keyed as keyed_rt
from autoconv.trace.core import messages
from autoconv.trace.tensors.accumulated import ListAccum
from autoconv.trace.tensors.appends import one_run, run_spec
from autoconv.trace.tensors.rows import item_spec

_TYPES: dict = {}  # (kind, default factory, name) -> its named tuple class


def _runs_type(obj, name: str):
    """A named tuple class of `obj`'s kind's run-time lists (keys, and values for a dict)
    whose construction from them (as the merge rebuilds a structure) gives a new set or dict
    of that kind holding those keys."""
    kind = type(obj)
    factory = getattr(obj, "default_factory", None)
    found = _TYPES.get((kind, factory, name))
    if found is None:
        fields = ("keys",) if kind is set else ("keys", "values")
        base = collections.namedtuple(f"{kind.__name__}Runs", fields)

        def made(cls, keys, values=None):
            new = kind() if factory is None else kind(factory)
            shadow = keyed_rt.shadow(new, name, make=True)
            shadow.keys[:] = keys
            shadow.coded = False
            if values is not None:
                shadow.values[:] = values
            return new

        if len(_TYPES) > 256:
            _TYPES.clear()
        found = _TYPES[(kind, factory, name)] = type(
            base.__name__, (base,), {"__slots__": (), "__new__": made}
        )
    return found


def lift(name: str, a, b, merger, names=()):
    """`a` and `b`, one variable's values at the end of the two blocks of a staged `if`
    (`merger`'s), with each pair of distinct sets or dicts of one kind (at any depth of tuples
    and lists) where either holds run-time keys as their run-time lists, made in their
    blocks."""
    if type(a) is not type(b) or a is b:
        return a, b
    if type(a) in (tuple, list) and len(a) == len(b):
        pairs = [lift(name, x, y, merger, names) for x, y in zip(a, b)]
        if all(p[0] is x and p[1] is y for p, x, y in zip(pairs, a, b)):
            return a, b
        made = [[p[k] for p in pairs] for k in (0, 1)]
        return (tuple(made[0]), tuple(made[1])) if type(a) is tuple else (made[0], made[1])
    if type(a) not in keyed_rt.KINDS:
        return a, b
    if getattr(a, "default_factory", None) is not getattr(b, "default_factory", None):
        return a, b  # (two defaults: the merge's own message)
    found = [_content(v, lists) for v, lists in zip((a, b), merger.block_lists)]
    contents = [c for c, _ in found]
    if not any(run_time for _, run_time in found) and (
        None in contents or contents[0][0] == contents[1][0]
    ):
        return a, b  # no run-time keys, and the same keys (or others) on both paths: as before
    lifted = None if None in contents else _runs(name, a, contents, merger)
    if lifted is None:
        kind = "set" if type(a) is set else "dict"
        shown = messages.named(messages.shown(name, names))
        raise StagingError(
            f"{where(merger.origin)}: {shown} is a {kind} holding keys known only when the graph "
            f"runs on one path of this `if` and another {kind} on the other, whose keys cannot "
            f"be chosen when the graph runs (strings, or values that are not numbers). Make it "
            f"once before the `if` and store its keys in the branch (`.add(k)`, `d[k] = v`)."
        )
    return lifted


def _content(obj, lists):
    """`((keys, values), run_time)`: what set or dict `obj` holds at the end of a block
    (`lists`: the changes of the lists the statement carries there; values None for a set),
    None where they cannot be one run-time list each (string keys, a list changed otherwise),
    and whether it holds run-time keys there."""
    shadow = keyed_rt.shadow(obj)
    if shadow is not None and (shadow.snapped or shadow.active()):
        keys = _after(shadow.keys, lists)
        values = None if shadow.values is None else _after(shadow.values, lists)
        run_time = keys is None or run_spec(keys) is not None
        if keys is None or (shadow.values is not None and values is None):
            return None, run_time
        if shadow.coded or shadow.nones:
            return None, run_time
        return (keys, values), run_time
    if not all(map(keyed_rt.number_key, obj)):
        return None, False
    return (list(obj), None if type(obj) is set else list(obj.values())), False


def _after(lst, lists):
    for changed, _, added, before in lists:
        if changed is lst:
            return None if type(added) is not list else [*before, *added]
    return list(lst)


def _like(contents):
    """`(elem shape, dtype)` of the run-time list the paths' `contents` make: their run-time
    items', else their first item's; None where both are empty."""
    for content in contents:
        if content is not None and run_spec(content) is not None:
            return run_spec(content)
    for content in contents:
        if content:
            spec = item_spec(content[0])
            return None if spec is None else (tuple(spec[0]), spec[1])
    return None


def _runs(name, obj, contents, merger):
    """The two paths' sets or dicts (`contents`: their keys and values) as named tuples of
    run-time lists made in their blocks, or None where a path's cannot be one."""
    likes = [_like([c[j] for c in contents]) for j in (0, 1)]
    graph = _g.current().graph
    runs_type = _runs_type(obj, name)
    out = []
    for block, (keys, items) in zip(merger.blocks, contents):
        lists = []
        for j, content in enumerate((keys, items)):
            if content is None:
                continue
            like = likes[j]
            if like is None:
                lists.append([])  # (empty on both paths: nothing to choose)
                continue
            what = f"{name}.keys()" if j == 0 else f"{name}.values()"
            with _g.build(graph, block):
                t = one_run(content, what, merger.origin, like)
            if t is None:
                return None
            lists.append([ListAccum(t)])
        out.append(tuple.__new__(runs_type, lists))
    return tuple(out)
