"""`for w in ws` on the JAX backend against a hand-written `lax.scan`, over one array and over
a Python list of arrays.

Run: python benchmarks/jax_scan.py [--rounds N] [--layers N]   (needs the `jax` extra)

`x = np.maximum(x @ w, 0)` for each `w` of `ws` (N (64, 64) float64 weights, x (8, 64)), with
JAX arrays in and `keep_on_device=True` (results waited for):
- `array`: `ws` one (N, 64, 64) array (a staged loop over its first axis) against
  `lax.scan(..., x, ws)`;
- `list`: `ws` a Python list of N arrays, unrolled while tracing; `rolled` with the default
  passes (the `roll` pass: a loop over their stack), `unrolled` with `optimize={"roll": False}`,
  against `lax.scan(..., x, jnp.stack(ws))`.
Each round times 100 calls of every row, in turn (the order reversed every other round);
`call` is the median per call, `/ lax.scan` the median of the per-round ratios to the row's
hand-written scan, `first call` the median of three fresh functions' first calls (trace,
lowering, XLA's compile, the run).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import warnings

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

import autoconv


def layers(x, ws):
    for w in ws:
        x = np.maximum(x @ w, 0)
    return x


def _hand(stack: bool):
    def make():
        if stack:
            return jax.jit(lambda x, ws: lax.scan(_step, x, jnp.stack(ws))[0])
        return jax.jit(lambda x, ws: lax.scan(_step, x, ws)[0])

    return make


def _step(x, w):
    return jnp.maximum(x @ w, 0), None


def _ours(**options):
    return lambda: autoconv.function(layers, backend="jax", keep_on_device=True, **options)


def _first(make, args) -> tuple:
    fn = make()
    start = time.perf_counter()
    jax.block_until_ready(fn(*args))
    return fn, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--layers", type=int, default=100)
    opts = parser.parse_args()
    warnings.simplefilter("ignore")
    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(0)
    x, ws = rng.normal(size=(8, 64)), rng.normal(size=(opts.layers, 64, 64)) * 0.15
    xd, wsd = jnp.asarray(x), jnp.asarray(ws)
    wl = [jnp.asarray(w) for w in ws]
    rows = {
        "array: ours": (_ours(), (xd, wsd), "array: lax.scan"),
        "array: lax.scan": (_hand(False), (xd, wsd), "array: lax.scan"),
        "list: ours, rolled": (_ours(), (xd, wl), "list: lax.scan(stack)"),
        "list: ours, unrolled": (
            _ours(optimize={"roll": False}),
            (xd, wl),
            "list: lax.scan(stack)",
        ),
        "list: lax.scan(stack)": (_hand(True), (xd, wl), "list: lax.scan(stack)"),
    }
    want = layers(x, ws)
    fns, firsts, times = {}, {}, {name: [] for name in rows}
    for name, (make, args, _) in rows.items():
        fns[name], seconds = _first(make, args)
        firsts[name] = [seconds]
        np.testing.assert_allclose(np.asarray(fns[name](*args)), want, rtol=1e-10)
    for r in range(opts.rounds):
        for name in list(rows) if r % 2 == 0 else list(rows)[::-1]:
            fn, args = fns[name], rows[name][1]
            start = time.perf_counter()
            for _ in range(100):
                out = fn(*args)
            jax.block_until_ready(out)
            times[name].append((time.perf_counter() - start) / 100)
    for _ in range(2):
        for name, (make, args, _) in rows.items():
            firsts[name].append(_first(make, args)[1])
    print(f"JAX {jax.__version__}, {jax.devices()[0]}, {opts.layers} layers, {opts.rounds} rounds")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)\n")
    print("| row | call µs | / lax.scan | first call ms |")
    print("| --- | ---: | ---: | ---: |")
    for name, (_, _, base) in rows.items():
        ratio = statistics.median([a / b for a, b in zip(times[name], times[base])])
        print(
            f"| {name} | {statistics.median(times[name]) * 1e6:.1f} | {ratio:.2f}x | "
            f"{statistics.median(firsts[name]) * 1e3:.1f} |"
        )


if __name__ == "__main__":
    main()
