"""Reads of run-time lists on the device: the functions the lowered code calls (`reads.py`
writes the calls).

A run-time list is `(buffer, count)` (`lists.py`); the list eager code holds is `prefix` (items
known while tracing, before the staged loop's), the buffer's first `count` rows, then `tail`.
Each function follows Python's own loop over that list: `sum` adds in order, `max` / `min`
keep the first item no later item beats, and an index counts from the end when negative. Each
also gives `ok`, false where eager Python raises (an index past the end, `max()` of no items)
or where a list grown in an unbounded loop outgrew its buffer (the call then runs again).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax


def _span(lst, prefix, tail):
    buffer, count = lst
    return buffer, count, _rows(buffer), len(prefix) + count + len(tail)


def _row(v, buffer):
    return jax.tree_util.tree_map(lambda b, x: jnp.asarray(x).astype(b.dtype), buffer, v)


def list_get(prefix, lst, tail, key):
    """Item `key` of the list: `(value, its position, ok)`."""
    buffer, count, cap, n = _span(lst, prefix, tail)
    key = jnp.asarray(key)
    k = jnp.where(key < 0, key + n, key)
    ok = (k >= 0) & (k < n) & (count <= cap)
    p = len(prefix)
    value = _gather(buffer, k - p)  # (a tuple of items, for a list of tuples)
    for j, v in enumerate(prefix):
        value = _select(k == j, _row(v, buffer), value)
    for j, v in enumerate(tail):
        value = _select(k == p + count + j, _row(v, buffer), value)
    return value, k, ok


def list_extreme(prefix, lst, tail, greater):
    """`max` (`greater`) or `min` of the list's numbers: `(value, its position, ok)`. As
    Python's loop: an item replaces the one kept when it compares greater (smaller), so the
    first of equal items wins and a NaN is kept only where it comes first."""
    buffer, count, cap, n = _span(lst, prefix, tail)
    p = len(prefix)

    def take(i, x, state):
        at, best = state
        beats = (x > best) if greater else (x < best)
        new = (at < 0) | beats
        return jnp.where(new, i, at), jnp.where(new, x, best)

    state = (jnp.asarray(-1, jnp.int64), jnp.zeros(buffer.shape[1:], buffer.dtype))
    for j, v in enumerate(prefix):
        state = take(j, _row(v, buffer), state)
    state = lax.fori_loop(0, jnp.minimum(count, cap), lambda i, s: take(p + i, buffer[i], s), state)
    for j, v in enumerate(tail):
        state = take(p + count + j, _row(v, buffer), state)
    at, best = state
    return best, at, (n > 0) & (count <= cap)


def list_sum(prefix, lst, tail, start, dtype, compensated=False):
    """`sum(items, start)` in `dtype`: `(value, ok)`. `compensated`: Python 3.12's sum of
    Python floats (Neumaier's compensated sum, its correction added at the end when finite)."""
    buffer, count, cap, _ = _span(lst, prefix, tail)
    acc = jnp.broadcast_to(jnp.asarray(start).astype(dtype), buffer.shape[1:])
    if compensated:
        state = (acc, jnp.zeros_like(acc))

        def add(x, s):
            f, c = s
            x = x.astype(dtype)
            t = f + x
            c = c + jnp.where(jnp.abs(f) >= jnp.abs(x), (f - t) + x, (x - t) + f)
            return t, c
    else:
        state = acc

        def add(x, s):
            return s + x.astype(dtype)

    for v in prefix:
        state = add(_row(v, buffer), state)
    state = lax.fori_loop(0, jnp.minimum(count, cap), lambda i, s: add(buffer[i], s), state)
    for v in tail:
        state = add(_row(v, buffer), state)
    if compensated:
        f, c = state
        state = jnp.where((c != 0) & jnp.isfinite(c), f + c, f)
    return state, count <= cap


def list_concat(a, b):
    """List `a` with list `b`'s items after its own (both buffers of one size)."""
    abuf, ca = a
    bbuf, cb = b
    idx = jnp.arange(_rows(abuf))
    return _select(idx < ca, abuf, _gather(bbuf, idx - ca)), ca + cb


def item_tag(k, p, count, prefix_tags, run_tag, tail_tags):
    """The kind tag (`helpers.kind_index`) of item `k`: its part's (prefix item, appended
    item, tail item)."""
    tag = jnp.asarray(run_tag, jnp.int64)
    for j, g in enumerate(prefix_tags):
        tag = jnp.where(k == j, g, tag)
    for j, g in enumerate(tail_tags):
        tag = jnp.where(k == p + count + j, g, tag)
    return tag


HELPERS = {
    "list_get": list_get,
    "list_extreme": list_extreme,
    "list_sum": list_sum,
    "list_concat": list_concat,
    "item_tag": item_tag,
}


# --- changes of run-time lists: slices and list methods (`changes.py` writes the calls) --------
# Each works on the whole list as one buffer (`list_full`) and gives a new `(buffer, count)` of
# the same size. A count larger than the buffer marks an overflow (`lists.py`): it stays larger
# after every change, so that the host sees it and the call runs again.


def _rows(buffer):
    return jax.tree_util.tree_leaves(buffer)[0].shape[0]


def _gather(buffer, idx):
    i = jnp.clip(idx, 0, _rows(buffer) - 1)
    return jax.tree_util.tree_map(lambda b: b[i], buffer)


def _select(mask, a, b):
    def pick(x, y):
        m = mask.reshape(mask.shape + (1,) * (jnp.ndim(y) - mask.ndim))
        return jnp.where(m, x, y)

    return jax.tree_util.tree_map(pick, a, b)


def _fill(item, buffer):
    """One item as rows of `buffer`'s shape (an item of a row list is a tuple, per field)."""
    return jax.tree_util.tree_map(
        lambda b, v: jnp.broadcast_to(jnp.asarray(v).astype(b.dtype), b.shape), buffer, item
    )


def list_full(prefix, lst, tail):
    """The list's items known while tracing and its run-time items in one buffer:
    `(buffer, n, overflowed)`."""
    buffer, count = lst
    cap, p = _rows(buffer), len(prefix)
    idx = jnp.arange(cap)
    out = _gather(buffer, idx - p)
    for j, v in enumerate(prefix):
        out = _select(idx == j, _fill(v, buffer), out)
    for j, v in enumerate(tail):
        out = _select(idx == p + count + j, _fill(v, buffer), out)
    n = p + count + len(tail)
    return out, n, n > cap


def _changed(buffer, count, n, overflowed):
    return buffer, jnp.where(overflowed, n + 1, count)


def list_slice(prefix, lst, tail, start, stop, step):
    """`items[start:stop:step]` (`step` a nonzero Python int), as Python's slice clips."""
    buffer, n, over = list_full(prefix, lst, tail)
    if step > 0:
        lo, hi = 0, n
        start = lo if start is None else _clip(start, n, lo, hi)
        stop = hi if stop is None else _clip(stop, n, lo, hi)
        length = jnp.maximum(0, (stop - start + step - 1) // step)
    else:
        lo, hi = -1, n - 1
        start = hi if start is None else _clip(start, n, lo, hi)
        stop = lo if stop is None else _clip(stop, n, lo, hi)
        length = jnp.maximum(0, (start - stop - step - 1) // (-step))
    out = _gather(buffer, start + jnp.arange(_rows(buffer)) * step)
    return _changed(out, length, n, over)


def _clip(k, n, lo, hi):
    k = jnp.asarray(k)
    return jnp.clip(jnp.where(k < 0, k + n, k), lo, hi)


def _position(n, key):
    key = jnp.asarray(key)
    k = jnp.where(key < 0, key + n, key)
    return k, (k >= 0) & (k < n)


def list_pop(prefix, lst, tail, key=-1):
    """`items.pop(key)`: `(list, item, its position, ok)`."""
    buffer, n, over = list_full(prefix, lst, tail)
    k, ok = _position(n, key)
    idx = jnp.arange(_rows(buffer))
    out = _select(idx >= k, _gather(buffer, idx + 1), buffer)
    return _changed(out, n - 1, n, over), _gather(buffer, k), k, ok & ~over


def list_setitem(prefix, lst, tail, key, item):
    """`items[key] = item`: `(list, ok)`, not ok where the key is past either end."""
    buffer, n, over = list_full(prefix, lst, tail)
    k, ok = _position(n, key)
    out = _select(jnp.arange(_rows(buffer)) == k, _fill(item, buffer), buffer)
    return _changed(out, n, n, over), ok & ~over


def list_insert(prefix, lst, tail, key, item):
    """`items.insert(key, item)`, the key clipped as Python clips it."""
    buffer, n, over = list_full(prefix, lst, tail)
    k = _clip(key, n, 0, n)
    idx = jnp.arange(_rows(buffer))
    moved = _select(idx > k, _gather(buffer, idx - 1), buffer)
    out = _select(idx == k, _fill(item, buffer), moved)
    return _changed(out, n + 1, n + 1, over | (n + 1 > _rows(buffer)))


def _matches(buffer, n, item):
    idx = jnp.arange(_rows(buffer))
    # (compared in the common dtype, as Python compares: 2.5 is not in [2, 3])
    return (buffer == jnp.asarray(item)) & (idx < n)


def list_nan_clash(prefix, lst, tail, item):
    """Whether `item` is a NaN and the list holds one."""
    buffer, n, _ = list_full(prefix, lst, tail)
    held = jnp.any(jnp.isnan(buffer) & (jnp.arange(_rows(buffer)) < n))
    return jnp.isnan(jnp.asarray(item)) & held


def list_index(prefix, lst, tail, item):
    """`items.index(item)` of numbers: `(list, position, ok)`."""
    buffer, n, over = list_full(prefix, lst, tail)
    found = _matches(buffer, n, item)
    return _changed(buffer, n, n, over), jnp.argmax(found), jnp.any(found) & ~over


def list_count(prefix, lst, tail, item):
    """`items.count(item)` of numbers: `(list, count, ok)`."""
    buffer, n, over = list_full(prefix, lst, tail)
    count = jnp.sum(_matches(buffer, n, item), dtype=jnp.int64)
    return _changed(buffer, n, n, over), count, ~over


def list_remove(prefix, lst, tail, item):
    """`items.remove(item)` of numbers: `(list, ok)`."""
    (buffer, _), k, ok = list_index(prefix, lst, tail, item)
    full, n, over = list_full(prefix, lst, tail)
    idx = jnp.arange(_rows(full))
    out = _select(idx >= k, _gather(full, idx + 1), full)
    return _changed(out, n - 1, n, over), ok


def list_reverse(prefix, lst, tail):
    """`items.reverse()`."""
    buffer, n, over = list_full(prefix, lst, tail)
    out = _gather(buffer, n - 1 - jnp.arange(_rows(buffer)))
    return _changed(out, n, n, over)


def list_sort(prefix, lst, tail, reverse=False):
    """`items.sort(reverse=...)` of real numbers (or of tuples of them, compared item by item
    as Python compares tuples), stable as Python's: `(list, ok)`, not ok where an item is NaN
    (Python's order then depends on where the NaN stands)."""
    buffer, n, over = list_full(prefix, lst, tail)
    idx = jnp.arange(_rows(buffer))
    past = idx >= n
    if reverse:  # Python's: reversed, sorted (stable), reversed again
        buffer = _gather(buffer, jnp.where(past, idx, n - 1 - idx))
    fields = jax.tree_util.tree_leaves(buffer)  # (one, or a tuple's items in order)
    keys = [jnp.where(b == 0, jnp.zeros_like(b), b) for b in fields]  # -0.0 equals 0.0
    *_, order = lax.sort((past, *keys, idx), num_keys=len(keys) + 2)
    out = _gather(buffer, order)
    if reverse:
        out = _gather(out, jnp.where(past, idx, n - 1 - idx))
    ok = True
    for b in fields:
        if jnp.issubdtype(b.dtype, jnp.inexact):
            ok = ok & ~jnp.any(jnp.isnan(b) & ~past)
    return _changed(out, n, n, over), ok & ~over


HELPERS.update(
    list_slice=list_slice,
    list_pop=list_pop,
    list_insert=list_insert,
    list_setitem=list_setitem,
    list_index=list_index,
    list_count=list_count,
    list_remove=list_remove,
    list_reverse=list_reverse,
    list_sort=list_sort,
    list_nan_clash=list_nan_clash,
)


def tag_fold(tags, count, grid, remap, start):
    """The Python type of `sum()` of a tagged list (tagged.py): `grid[a][b]` is the type of
    `a + b`, folded over the first `count` tags (`remap`: a tag's index in the grid)."""
    grid = jnp.asarray(grid, jnp.int32)
    remap = jnp.asarray(remap, jnp.int32)
    n = jnp.minimum(count, tags.shape[0])
    return lax.fori_loop(0, n, lambda i, a: grid[a, remap[tags[i]]], jnp.asarray(start, jnp.int32))


HELPERS["tag_fold"] = tag_fold
