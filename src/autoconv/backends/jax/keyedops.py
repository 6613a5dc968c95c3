"""Sets and dicts with run-time keys on the device: the functions the lowered code calls
(`keyed.py` writes the calls).

`keys` and `values` are run-time lists `(buffer, count)` (`lists.py`): a dict's keys in
insertion order, and its values in the same order. A lookup compares the key with the first
`count` keys (`==`, as Python's dict finds an equal key: 1 and 1.0 are one key); an insertion
writes row `count`, a removal moves the later rows down one, as Python keeps insertion order.
A count past the buffer (an overflow, `lists.py`) stays past it, so the host sees it.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from autoconv.backends.jax.listops import _fill, _gather, _rows, _select, list_extreme


def _find(keys, key):
    """`(found, position)` of `key` among the keys."""
    buffer, count = keys
    leaves = jax.tree_util.tree_leaves(buffer)
    parts = jax.tree_util.tree_leaves(key) if isinstance(buffer, tuple) else [key]
    hit = jnp.arange(_rows(buffer)) < count
    for b, k in zip(leaves, parts):
        hit = hit & (b == jnp.asarray(k))
    return jnp.any(hit), jnp.argmax(hit)


def _put(lst, at, item, write):
    """`lst` with row `at` holding `item` where `write`."""
    buffer, count = lst
    mask = (jnp.arange(_rows(buffer)) == at) & write
    return _select(mask, _fill(item, buffer), buffer), count


def _drop(lst, at, found):
    """`lst` without row `at` where `found`."""
    buffer, count = lst
    idx = jnp.arange(_rows(buffer))
    moved = _select((idx >= at) & found, _gather(buffer, idx + 1), buffer)
    return moved, jnp.where(found, count - 1, count)


def _grown(lst, found):
    buffer, count = lst
    return buffer, jnp.where(found, count, count + 1)


def keyed_contains(keys, key):
    """`key in s`."""
    return _find(keys, key)[0]


def keyed_add(keys, key):
    """`s.add(key)`: the keys after it."""
    found, _ = _find(keys, key)
    return _grown(_put(keys, keys[1], key, ~found), found)


def keyed_discard(keys, key):
    """`s.discard(key)` (`s.remove(key)`): `(keys, found)`."""
    found, at = _find(keys, key)
    return _drop(keys, at, found), found


def keyed_item(keys, values, key):
    """`d[key]`: `(value, its position, found)`."""
    found, at = _find(keys, key)
    return _gather(values[0], at), at, found


def keyed_get(keys, values, key, default):
    """`d.get(key, default)`: `(value, position)`, the position of a missing key being the
    count (where `reads.lower_tag` finds the default's kind tag)."""
    found, at = _find(keys, key)
    value = _select(found, _gather(values[0], at), _fill(default, _gather(values[0], at)))
    return value, jnp.where(found, at, keys[1])


def keyed_store(keys, values, key, value):
    """`d[key] = value`: the keys and values after it."""
    found, at = _find(keys, key)
    count = keys[1]
    new_keys = _grown(_put(keys, count, key, ~found), found)
    new_values = _grown(_put(values, jnp.where(found, at, values[1]), value, True), found)
    return new_keys, new_values


def keyed_setdefault(keys, values, key, default):
    """`d.setdefault(key, default)`: the keys and values after it, its result and position."""
    found, at = _find(keys, key)
    new_keys = _grown(_put(keys, keys[1], key, ~found), found)
    new_values = _grown(_put(values, values[1], default, ~found), found)
    old = _gather(values[0], at)
    return new_keys, new_values, _select(found, old, _fill(default, old))


def keyed_pop(keys, values, key):
    """`d.pop(key)`: the keys and values after it, the value, its position, found."""
    found, at = _find(keys, key)
    value = _gather(values[0], at)
    return _drop(keys, at, found), _drop(values, at, found), value, at, found


def keyed_extreme(keys, values, greater):
    """`max(d, key=d.get)` (`greater`) or `min`: the first key of the largest (smallest)
    value, its position, and whether the dict holds any key."""
    _, at, ok = list_extreme((), values, (), greater)
    return _gather(keys[0], at), at, ok


def keyed_pairs(keys, values, rows):
    """`list(d.items())`: a list of pairs of `rows` rows."""

    def fit(b):
        n = b.shape[0]
        if n >= rows:
            return b[:rows]
        return jnp.concatenate([b, jnp.zeros((rows - n, *b.shape[1:]), b.dtype)])

    return (fit(keys[0]), fit(values[0])), keys[1]


def keyed_most_common(keys, values, rows, n):
    """`c.most_common(n)` of a Counter (`n` None: all): its pairs by count, largest first,
    ties in insertion order, in a list of `rows` rows."""
    (kb, count), (vb, _) = keys, values
    idx = jnp.arange(kb.shape[0])
    # (`~` reverses the order of integers and bools without overflow; a float is negated)
    down = -vb if jnp.issubdtype(vb.dtype, jnp.floating) else ~vb
    order = jnp.lexsort((idx, down, idx >= count))  # (the last key sorts first)
    pairs, _ = keyed_pairs((kb[order], count), (vb[order], count), rows)
    if n is not None:
        count = jnp.minimum(count, max(n, 0))
    return pairs, count


HELPERS = {
    f.__name__: f
    for f in (
        keyed_contains,
        keyed_add,
        keyed_discard,
        keyed_item,
        keyed_get,
        keyed_store,
        keyed_setdefault,
        keyed_pop,
        keyed_extreme,
        keyed_pairs,
        keyed_most_common,
    )
}


def list_repeat(count, items, zeros):
    """`[*items] * count` in a buffer like `zeros`: `(buffer, count)`, the count past the
    buffer where the copies do not fit (an overflow, `lists.py`)."""
    k = len(items)
    n = jnp.maximum(jnp.asarray(count, jnp.int64), 0) * k
    idx = jnp.arange(_rows(zeros))
    out = zeros
    for j, v in enumerate(items):
        out = _select((idx < n) & (idx % k == j), _fill(v, zeros), out)
    return out, n


HELPERS["list_repeat"] = list_repeat
