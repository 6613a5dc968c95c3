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

import jax.numpy as jnp
from jax import lax


def _span(lst, prefix, tail):
    buffer, count = lst
    return buffer, count, buffer.shape[0], len(prefix) + count + len(tail)


def _row(v, buffer):
    return jnp.asarray(v).astype(buffer.dtype)


def list_get(prefix, lst, tail, key):
    """Item `key` of the list: `(value, its position, ok)`."""
    buffer, count, cap, n = _span(lst, prefix, tail)
    key = jnp.asarray(key)
    k = jnp.where(key < 0, key + n, key)
    ok = (k >= 0) & (k < n) & (count <= cap)
    p = len(prefix)
    value = buffer[jnp.clip(k - p, 0, cap - 1)]
    for j, v in enumerate(prefix):
        value = jnp.where(k == j, _row(v, buffer), value)
    for j, v in enumerate(tail):
        value = jnp.where(k == p + count + j, _row(v, buffer), value)
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
    cap = abuf.shape[0]
    idx = jnp.arange(cap)
    rows = bbuf[jnp.clip(idx - ca, 0, bbuf.shape[0] - 1)]
    mask = (idx < ca).reshape((cap,) + (1,) * (abuf.ndim - 1))
    return jnp.where(mask, abuf, rows), ca + cb


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
