"""`target[key]` at a key known only when the graph runs, of a value made while tracing
(converters/run_time_index.py makes such reads `ac.item_at(target, key)`):

    a NumPy array    ->  the array as a constant of the graph, indexed in it: NumPy's
                         wrapping of negative indices and its IndexError when the graph runs
    a list, tuple    ->  a switch over its items (`switch.list_read`); a longer one of Python
                         numbers of one type (or NumPy scalars of one dtype): one array of
                         them, indexed in the graph, the item given back its Python type
    a dict           ->  a switch on key equality over its keys, numbers known now; KeyError
                         with the key when none matches (`.get(key, default)`: the default)

Anything else is Python's own `target[key]`, whose error asks for the key now.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph.errors import StagingError, where
from autoconv.graph.helpers import raise_key, raise_new
from autoconv.graph.tensor import PY_TYPES, Tensor
from autoconv.runtime import keyed as keyed_rt
from autoconv.trace.tensors import accumulated, switch
from autoconv.trace.tensors.leaves import _cast
from autoconv.trace.tensors.optionals import index_value

_NUMBERS = (bool, int, float)
NO_DEFAULT = object()


def item_at(target, key, origin):
    """`target[key]` with `key` (or an item of a tuple key) known only when the graph runs."""
    key = tuple(map(index_value, key)) if type(key) is tuple else index_value(key)
    if type(target) is np.ndarray and target.dtype != object:
        return _constant(target)[key]
    if type(target) in (list, tuple):
        check_slice(target, key, origin)
        index = switch.key_of(key)
        if index is not None:
            value = switch.list_read(target, index, origin)
            if value is switch.NOT_MINE:
                value = numbers_read(target, index, origin)
            if value is not switch.NOT_MINE:
                return value
    elif type(target) is dict:
        value = dict_read(target, key, origin)
        if value is not switch.NOT_MINE:
            return value
    elif type(target) in keyed_rt.DICTS:
        return keyed_rt.item(target, key)  # a Counter's or defaultdict's (runtime.tallies)
    elif isinstance(target, dict):
        _dict_subclass(target, origin)
    return target[key]  # Python's own read: its error asks for a key known now


def _dict_subclass(target: dict, origin) -> None:
    """Refuses a key known only when the graph runs of a `defaultdict` (any dict subclass):
    Python would file it under the Tensor's identity (autoconv's frame hashes it), not its
    value, and only a plain dict holds keys known only when the graph runs."""
    kind = type(target).__name__
    raise StagingError(
        f"{where(origin)}: {kind} `{switch._name(target)}` is read at a key known only when "
        f"the graph runs: only a plain dict (`d = {{}}`) holds such keys. Use a plain dict: "
        "`d[k] = d.get(k, 0) + 1` for counts; for lists of items per key, lists of keys and "
        "items (`keys.append(k); items.append(i)`)."
    )


def check_slice(items, key, origin) -> None:
    """Refuses `items[i:]` of a list or tuple (of items known now) at a bound known only when
    the graph runs: the list it gives would have a length known only then."""
    if type(key) is not slice or accumulated.accum_index(items) is not None:
        return
    if not any(isinstance(index_value(v), Tensor) for v in (key.start, key.stop, key.step)):
        return
    name = switch._name(items)
    kind = type(items).__name__
    raise StagingError(
        f"{where(origin)}: this slices the Python {kind} `{name}` with a bound known only when "
        f"the graph runs, so the {kind} it gives would have a length known only then. Make "
        f"`{name}` a NumPy array (`np.asarray({name})`): a slice of an array at a run-time "
        "bound is read in the graph; or loop over the indices (`for k in range(i, "
        f"len({name})): out.append({name}[k])`)."
    )


def _constant(array: np.ndarray) -> Tensor:
    """`array` as it is now, a constant of the graph (a copy: a later write to `array` while
    tracing must not change what this read saw)."""
    copy = array.copy()
    return _g.add_const(copy, (copy.shape, copy.dtype), True)


def numbers_read(items, index, origin):
    """`items[index]` of a list or tuple of Python numbers of one type, or NumPy scalars of
    one dtype, too long for a switch: one constant array, indexed in the graph."""
    if not items:
        return switch.NOT_MINE
    kinds = {type(v) for v in items}
    if len(kinds) != 1:
        return switch.NOT_MINE
    (kind,) = kinds
    if kind not in _NUMBERS and not issubclass(kind, np.generic):
        return switch.NOT_MINE
    try:
        array = np.array(items)
    except (OverflowError, ValueError):
        return switch.NOT_MINE
    if array.dtype == object or array.ndim != 1:
        return switch.NOT_MINE
    error = IndexError(f"{type(items).__name__} index out of range")
    at = switch._checked(index, len(items), error, origin)
    value = _g.add_const(array, (array.shape, array.dtype), True)[at]
    if kind in _NUMBERS:
        return _cast(value, kind)
    return _cast(value, array.dtype.type)  # a NumPy scalar, as the items are


def dict_read(d: dict, key, origin, default=NO_DEFAULT):
    """`d[key]` (or `d.get(key, default)`) of a dict whose keys are Python numbers known now,
    at a number `key` known only when the graph runs: a switch on which key equals it;
    `NOT_MINE` for any other dict or key."""
    keys = list(d)
    if type(key) is tuple:
        return _tuple_read(d, key, origin, default)
    if not (
        isinstance(key, Tensor)
        and not key.shape
        and key.dtype.kind in "biuf"
        and 0 < len(keys) <= switch.LIMIT
        and all(type(k) in _NUMBERS and k == k for k in keys)  # (NaN equals no key)
        and switch._numpy_type(key) is not np.ndarray  # a 0-d array is no dict key eagerly
    ):
        return switch.NOT_MINE
    name = switch._name(d)
    hits = [key == k for k in keys]
    if default is NO_DEFAULT:
        found = hits[0]
        for hit in hits[1:]:
            found = found | hit
        _raise_key_error(np.logical_not(found), key, origin)
        value, pairs = d[keys[0]], list(zip(keys, hits))[1:]
    else:
        value, pairs = default, list(zip(keys, hits))
    for k, hit in pairs:
        value = switch.pick(hit, d[k], value, f"{name}[{k!r}]", origin, "read")
    return value


_PLAIN_ITEMS = (*_NUMBERS, str)


def _tuple_read(d: dict, key: tuple, origin, default):
    """`d[key]` of a dict whose keys are tuples of Python numbers (or strings) known now, at a
    tuple of them some known only when the graph runs (`d[(i, j)]`, `d[(state, event)]`): a
    switch on which key equals it item by item; `NOT_MINE` for any other dict or key."""
    keys = list(d)
    if not (
        0 < len(keys) <= switch.LIMIT
        and all(isinstance(v, Tensor) and not v.shape or type(v) in _PLAIN_ITEMS for v in key)
        and any(isinstance(v, Tensor) for v in key)
        and all(type(k) is tuple and all(type(v) in _PLAIN_ITEMS for v in k) for k in keys)
    ):
        return switch.NOT_MINE
    name = switch._name(d)
    hits = []
    for k in keys:
        if len(k) != len(key):
            continue
        hit = True
        for v, w in zip(key, k):
            if (type(v) is str) is not (type(w) is str):
                hit = False  # a string equals no number (nor a number Tensor)
                break
            hit = hit & (v == w) if hit is not True else v == w
            if hit is False:
                break
        if hit is not False:
            hits.append((k, hit))
    if default is NO_DEFAULT:
        found = False
        for _, hit in hits:
            found = hit if found is False else found | hit
        if not hits:
            return switch.NOT_MINE  # no key can equal it: the caller's own error
        _raise_key_error(np.logical_not(found), key, origin)
        value, pairs = d[hits[0][0]], hits[1:]
    else:
        value, pairs = default, hits
    for k, hit in pairs:
        value = switch.pick(hit, d[k], value, f"{name}[{k!r}]", origin, "read")
    return value


def _shown(v):
    """A key's item as the user's code holds it (a Python number, or a NumPy scalar)."""
    if not isinstance(v, Tensor):
        return v
    return _cast(v, PY_TYPES[v.dtype.kind] if v.weak else v.dtype.type)


def _raise_key_error(bad, key, origin) -> None:
    """The graph raises `KeyError(key)` where `bad` is true when it runs, the key (a Tensor, or
    a tuple of them and numbers) as the user's code holds it."""
    from autoconv.trace.tensors.merge import _Merger

    with _g.sub_block() as fails:
        if type(key) is tuple:
            args, fn = tuple(map(_shown, key)), raise_key
        else:
            args, fn = (KeyError, _shown(key)), raise_new
        node = _g.Node("helper", "raise", fn, args, attrs={"raises": True})
        node.effect = True
        _g.add_node(node, [], origin)
    with _g.sub_block() as passes:
        pass
    _Merger(("failing", "passing"), [fails, passes], origin, "key check").finish(bad)
