"""Boolean-mask selections on the JAX backend against NumPy eager, the NumPy backend and the
same computation written by hand with `jax.numpy` masks (`where=`) under `jax.jit`.

Run: python benchmarks/jax_masks.py [--rounds N]   (needs the `jax` extra)

The columns and the timing are those of jax_backend.py (its `measure`): the median time per
call over rounds of about 20 ms batches, and `ours/jit`, the median per-round ratio. Our code
keeps NumPy's behaviour on empty selections (the warnings of an empty mean, the ValueError of
an empty max: counted on the device, given after the call); the hand-written code does not.

Measured on the 2-core CPU (load about 3, 7 rounds): k-means 2.02 ms against 1.74 ms by hand
(1.16x; NumPy eager 6.74 ms), x[x>0] statistics 6.89 against 6.59 ms (1.04x).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402
from jax_backend import _fmt, _warm_up, measure  # noqa: E402

from autoconv.backends.jax.program import x64  # noqa: E402


def kmeans_masks(x, c, iters):
    """Lloyd's iterations, each centroid the mean of its points: `x[labels == j].mean(0)`."""
    k = c.shape[0]
    i = 0
    while i < iters:
        labels = np.argmin(np.sum((x[:, None, :] - c[None, :, :]) ** 2, axis=2), axis=1)
        c = np.stack(
            [np.where(np.any(labels == j), x[labels == j].mean(axis=0), c[j]) for j in range(k)]
        )
        i += 1
    return c


def positive_stats(x):
    """The mean, largest value and count of the positive elements."""
    pos = x[x > 0]
    return pos.mean(), pos.max(), len(pos)


def _hand_written():
    @jax.jit
    def j_kmeans(x, c, iters):
        k = c.shape[0]

        def body(_, c):
            labels = jnp.argmin(jnp.sum((x[:, None, :] - c[None, :, :]) ** 2, axis=2), axis=1)
            rows = []
            for j in range(k):
                m = labels == j
                n = jnp.sum(m)
                mean = jnp.sum(x, axis=0, where=m[:, None]) / n.astype(x.dtype)
                rows.append(jnp.where(n > 0, mean, c[j]))
            return jnp.stack(rows)

        return lax.fori_loop(0, iters, body, c)

    @jax.jit
    def j_positive(x):
        m = x > 0
        n = jnp.sum(m)
        return jnp.sum(x, where=m) / n, jnp.max(x, where=m, initial=-jnp.inf), n

    return {"kmeans": j_kmeans, "positive": j_positive}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    opts = parser.parse_args()
    rng = np.random.default_rng(0)
    pts = rng.normal(size=(2000, 2)).astype(np.float32)
    cases = [
        ("k-means x[labels==j].mean(0) 2000x2, k=5, 20 it", "kmeans", kmeans_masks),
        ("x[x>0] mean, max, len; 1e6 float64", "positive", positive_stats),
    ]
    args = {
        "kmeans": (pts, pts[:5].copy(), np.int64(20)),
        "positive": (rng.normal(size=1_000_000),),
    }
    with x64():
        hand = _hand_written()
    _warm_up()
    rows = [measure(label, key, fn, args[key], hand, opts.rounds) for label, key, fn in cases]
    cpu = platform.processor() or platform.machine()
    print(f"JAX {jax.__version__}, device {jax.devices()[0]}, {os.cpu_count()} cores ({cpu})")
    print(f"{opts.rounds} rounds, median time per call, wall clock\n")
    print(
        "| workload | NumPy eager | autoconv numpy | autoconv jax | hand jax.jit | ours/jit | "
        "first call ours | first call jit |"
    )
    print("|" + " --- |" * 8)
    logs = []
    for label, med, ratio, (first_ours, first_jit, _, _) in rows:
        logs.append(math.log(ratio))
        print(
            f"| {label} | {_fmt(med['eager'])} | {_fmt(med['numpy'])} | {_fmt(med['jax'])} | "
            f"{_fmt(med['jit'])} | {ratio:.2f}x | {_fmt(first_ours)} | {_fmt(first_jit)} |"
        )
    print(f"\ngeometric mean ours/jit: {math.exp(sum(logs) / len(logs)):.2f}x")


if __name__ == "__main__":
    main()
