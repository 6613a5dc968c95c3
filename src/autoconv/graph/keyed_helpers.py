"""What the graph runs for a set or dict whose keys are known only when it runs
(`autoconv.trace.tensors.keyed`): `keys` is the run-time list of its distinct keys in insertion
order, `values` (a dict's) the run-time list of their values in the same order. Each function
gives the lists after the operation (and its result), raising as Python's set and dict do."""

from collections import defaultdict


def _at(keys, key):
    for i, k in enumerate(keys):
        if k == key:
            return i
    return -1


def keyed_contains(keys, key, present=True) -> bool:
    """`key in s` (`present`: false where the key is None, which no number key equals)."""
    return bool(present) and _at(keys, key) >= 0


def key_not_none(present, key):
    """A key that may be None (`d[best]`): KeyError(None) where it is, as Python's dict of
    number keys raises."""
    if not present:
        raise KeyError(None)
    return key


def keyed_add(keys, key):
    """`s.add(key)`."""
    return keys if _at(keys, key) >= 0 else [*keys, key]


def keyed_discard(keys, key, present=True):
    """`s.discard(key)`."""
    i = _at(keys, key) if present else -1
    return keys if i < 0 else [*keys[:i], *keys[i + 1 :]]


def keyed_remove(keys, key):
    """`s.remove(key)`: KeyError for a missing key."""
    i = _at(keys, key)
    if i < 0:
        raise KeyError(key)
    return [*keys[:i], *keys[i + 1 :]]


def keyed_item(keys, values, key):
    """`d[key]`: KeyError for a missing key."""
    i = _at(keys, key)
    if i < 0:
        raise KeyError(key)
    return values[i]


def keyed_get(keys, values, key, default, present=True):
    """`d.get(key, default)`."""
    i = _at(keys, key) if present else -1
    return default if i < 0 else values[i]


def keyed_store(keys, values, key, value):
    """`d[key] = value`: the keys and values after it."""
    i = _at(keys, key)
    if i < 0:
        return [*keys, key], [*values, value]
    return keys, [*values[:i], value, *values[i + 1 :]]


def keyed_setdefault(keys, values, key, default):
    """`d.setdefault(key, default)`: the keys and values after it, and its result."""
    i = _at(keys, key)
    if i < 0:
        return [*keys, key], [*values, default], default
    return keys, values, values[i]


def keyed_pop(keys, values, key):
    """`d.pop(key)`: KeyError for a missing key; the keys and values after it, and the value."""
    i = _at(keys, key)
    if i < 0:
        raise KeyError(key)
    return [*keys[:i], *keys[i + 1 :]], [*values[:i], *values[i + 1 :]], values[i]


def keyed_max(keys, values):
    """`max(d, key=d.get)`: the first key of the largest value."""
    if not keys:
        raise ValueError("max() iterable argument is empty")
    return keys[max(range(len(keys)), key=values.__getitem__)]


def keyed_min(keys, values):
    """`min(d, key=d.get)`: the first key of the smallest value."""
    if not keys:
        raise ValueError("min() iterable argument is empty")
    return keys[min(range(len(keys)), key=values.__getitem__)]


def keyed_pairs(keys, values):
    """`list(d.items())`."""
    return list(zip(keys, values))


def keyed_most_common(keys, values, n=None):
    """`c.most_common(n)` of a Counter: its pairs by count, largest first, ties in insertion
    order (Python's `heapq.nlargest` and `sorted(..., reverse=True)` are stable so)."""
    pairs = sorted(zip(keys, values), key=lambda kv: kv[1], reverse=True)
    return pairs if n is None else pairs[: max(n, 0)]


def keyed_dict(keys, values, table=None, kind=None) -> dict:
    """The dict the function returns (`table`: the keys written in the code, which `keys`
    index; `kind`: `Counter`, or `(default_factory,)` of a defaultdict, which it made)."""
    if table is not None:
        keys = [table[k] for k in keys]
    made = dict(zip(keys, values))
    if kind is None:
        return made
    if type(kind) is tuple:
        return defaultdict(kind[0], made)
    out = kind()
    out.update(made)  # (as `dict.update`: a Counter's own `update` of a mapping adds counts)
    return out


def keyed_set(keys, table=None) -> set:
    """The set the function returns."""
    return set(keys) if table is None else {table[k] for k in keys}


def present(value) -> bool:
    """Whether a value read from a dict whose values may be None is not None."""
    return value is not None


def or_zero(value, zero):
    """A value read from a dict whose values may be None, with `zero` standing for None."""
    return zero if value is None else value


def some_or_none(flag, value):
    """A value that exists where `flag` is true (an Optional), as a dict stores it."""
    return value if flag else None


def with_nones(values: list, at: tuple) -> list:
    """`values` with None at the indices `at` (a dict's values known while tracing)."""
    values = list(values)
    for i in at:
        values[i] = None
    return values
