"""`heapq` and `bisect` on run-time lists on the device: the functions the lowered code calls
(`changes.py` writes the calls).

Each follows CPython's own `_heapq` / `_bisect` steps on the list's one buffer (the items known
while tracing and the run-time ones, `listops.list_full`), so the list ends in eager's exact
layout: a push sifts the new item up from the end, a pop moves the last item to the root and
sifts it down to a leaf along the smaller children, then up again. Items compare as Python
compares them: numbers with `<`, tuples item by item (the first items that differ decide; a
NaN differs from everything and is never smaller). Each change gives `(buffer, count)` as
`listops` does, a count past the buffer marking an overflow (the call then runs again).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax

from autoconv.backends.jax.listops import _changed, list_full

_map = jax.tree_util.tree_map


def _lt(a, b):
    """Python's `a < b` of two items (a tuple's items are the buffer's leaves)."""
    lt, decided = jnp.asarray(False), jnp.asarray(False)
    for x, y in zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)):
        lt = jnp.where(decided, lt, x < y)
        decided = decided | (x != y)
    return lt


def _get(buffer, i):
    return _map(lambda b: b[i], buffer)


def _set(buffer, i, item, where=True):
    return _map(lambda b, v: b.at[i].set(jnp.where(where, v, b[i])), buffer, item)


def _siftdown(buffer, start, pos):
    """CPython's `_siftdown`: the item at `pos` moves up while it is smaller than its parent."""
    new = _get(buffer, pos)

    def test(s):
        pos, _, done = s
        return (pos > start) & ~done

    def step(s):
        pos, buffer, _ = s
        parentpos = (pos - 1) >> 1
        parent = _get(buffer, parentpos)
        move = _lt(new, parent)
        buffer = _set(buffer, pos, parent, move)
        return jnp.where(move, parentpos, pos), buffer, ~move

    pos, buffer, _ = lax.while_loop(test, step, (jnp.asarray(pos), buffer, jnp.asarray(False)))
    return _set(buffer, pos, new)


def _siftup(buffer, pos, end):
    """CPython's `_siftup`: the item at `pos` goes down to a leaf along the smaller children
    (the right one where the left is not smaller), then `_siftdown` places it."""
    start = jnp.asarray(pos)
    new = _get(buffer, pos)
    limit = end >> 1

    def step(s):
        pos, buffer = s
        child = 2 * pos + 1
        right = _lt(_get(buffer, child), _get(buffer, child + 1))
        child = jnp.where((child + 1 < end) & ~right, child + 1, child)
        return child, _set(buffer, pos, _get(buffer, child))

    pos, buffer = lax.while_loop(lambda s: s[0] < limit, step, (start, buffer))
    return _siftdown(_set(buffer, pos, new), start, pos)


def heap_push(prefix, lst, tail, item):
    """`heapq.heappush(items, item)`."""
    buffer, n, over = list_full(prefix, lst, tail)
    out = _siftdown(_set(buffer, n, _fill1(item, buffer)), 0, n)
    return _changed(out, n + 1, n + 1, over | (n + 1 > _rows(buffer)))


def heap_pop(prefix, lst, tail):
    """`heapq.heappop(items)`: `(list, item, ok)`, not ok where the list is empty."""
    buffer, n, over = list_full(prefix, lst, tail)
    m = n - 1
    last, top = _get(buffer, m), _get(buffer, 0)
    out = _siftup(_set(buffer, 0, last), 0, m)
    item = _map(lambda a, b: jnp.where(m > 0, a, b), top, last)
    return _changed(out, m, n, over), item, (n > 0) & ~over


def heap_replace(prefix, lst, tail, item):
    """`heapq.heapreplace(items, item)`: `(list, the item it popped, ok)`."""
    buffer, n, over = list_full(prefix, lst, tail)
    top = _get(buffer, 0)
    out = _siftup(_set(buffer, 0, _fill1(item, buffer)), 0, n)
    return _changed(out, n, n, over), top, (n > 0) & ~over


def heap_pushpop(prefix, lst, tail, item):
    """`heapq.heappushpop(items, item)`: `(list, the item it gives back, ok)`."""
    buffer, n, over = list_full(prefix, lst, tail)
    item = _fill1(item, buffer)
    top = _get(buffer, 0)
    swap = (n > 0) & _lt(top, item)
    out = _siftup(_set(buffer, 0, item, swap), 0, jnp.where(swap, n, 0))
    back = _map(lambda a, b: jnp.where(swap, a, b), top, item)
    return _changed(out, n, n, over), back, ~over


def heap_heapify(prefix, lst, tail):
    """`heapq.heapify(items)`: each parent from the last one to the root sifted up."""
    buffer, n, over = list_full(prefix, lst, tail)
    half = n // 2
    out = lax.fori_loop(0, half, lambda j, b: _siftup(b, half - 1 - j, n), buffer)
    return _changed(out, n, n, over)


def _bisect(buffer, n, item, right):
    def step(s):
        lo, hi = s
        mid = (lo + hi) // 2
        at = _get(buffer, mid)
        up = ~_lt(item, at) if right else _lt(at, item)
        return jnp.where(up, mid + 1, lo), jnp.where(up, hi, mid)

    lo, _ = lax.while_loop(lambda s: s[0] < s[1], step, (jnp.asarray(0, n.dtype), n))
    return lo


def heap_bisect(prefix, lst, tail, item, right):
    """`bisect.bisect_right(items, item)` (`right`) or `bisect_left`: `(list, index, ok)`."""
    buffer, n, over = list_full(prefix, lst, tail)
    at = _bisect(buffer, jnp.asarray(n), _fill1(item, buffer), right)
    return _changed(buffer, n, n, over), at, ~over


def heap_insort(prefix, lst, tail, item, right):
    """`bisect.insort_right(items, item)` (`right`) or `insort_left`."""
    buffer, n, over = list_full(prefix, lst, tail)
    item = _fill1(item, buffer)
    k = _bisect(buffer, jnp.asarray(n), item, right)
    idx = jnp.arange(_rows(buffer))
    moved = _map(lambda b: jnp.where(_wide(idx > k, b), b[jnp.maximum(idx - 1, 0)], b), buffer)
    out = _map(lambda b, v: jnp.where(_wide(idx == k, b), v, b), moved, item)
    return _changed(out, n + 1, n + 1, over | (n + 1 > _rows(buffer)))


def _wide(mask, b):
    return mask.reshape(mask.shape + (1,) * (b.ndim - 1))


def _rows(buffer):
    return jax.tree_util.tree_leaves(buffer)[0].shape[0]


def _fill1(item, buffer):
    """One item in the dtypes of `buffer`'s leaves."""
    return _map(lambda b, v: jnp.asarray(v).astype(b.dtype), buffer, item)


HELPERS = {
    "heap_push": heap_push,
    "heap_pop": heap_pop,
    "heap_replace": heap_replace,
    "heap_pushpop": heap_pushpop,
    "heap_heapify": heap_heapify,
    "heap_bisect": heap_bisect,
    "heap_insort": heap_insort,
}
