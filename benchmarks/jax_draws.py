"""The cost of NumPy random draws with the JAX backend, where each draw is a host callback.

Run: python benchmarks/jax_draws.py [--rounds N]   (needs the `jax` extra)

Draws are made on the host, on the user's generator, so that the numbers are eager's
(backends/jax/draws.py). This prices that choice. Columns: NumPy eager, the NumPy backend,
the JAX backend, and the same JAX program with the draws passed in as an array (what a
user who draws outside the function gets). Each cell is the median over rounds of the time
per call (batches of about 20 ms); `jax/eager` is the median of the per-round ratios.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numpy as np

import autoconv


def monte_carlo(n, rng):
    """Many small draws in a staged loop: one round trip each."""
    inside = 0
    i = 0
    while i < n:
        p = rng.uniform(-1, 1, size=2)
        if np.sum(p * p) <= 1:
            inside += 1
        i += 1
    return 4 * inside / n


def monte_carlo_given(n, points):
    inside = 0
    i = 0
    while i < n:
        p = points[i]
        if np.sum(p * p) <= 1:
            inside += 1
        i += 1
    return 4 * inside / n


def noisy_layers(x, rng):
    """A few large draws: the numbers cross to the device once per layer."""
    for _ in range(5):
        x = np.tanh(x + rng.normal(scale=0.1, size=x.shape))
    return x


def noisy_layers_given(x, noise):
    for k in range(5):
        x = np.tanh(x + noise[k])
    return x


def _per_call(f, args, budget=0.02):
    f(*args)
    n, elapsed = 1, 0.0
    while True:
        start = time.perf_counter()
        for _ in range(n):
            f(*args)
        elapsed = time.perf_counter() - start
        if elapsed >= budget:
            return elapsed / n
        n *= 2


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args(argv)
    n = np.int64(1000)
    x = np.random.default_rng(0).normal(size=(1000, 1000))
    rows = [
        (
            "1,000 draws of 2 (loop)",
            monte_carlo,
            lambda: (n, np.random.default_rng(1)),
            monte_carlo_given,
            lambda: (n, np.random.default_rng(1).uniform(-1, 1, size=(1000, 2))),
        ),
        (
            "5 draws of 1e6 (layers)",
            noisy_layers,
            lambda: (x, np.random.default_rng(1)),
            noisy_layers_given,
            lambda: (x, np.random.default_rng(1).normal(scale=0.1, size=(5, *x.shape))),
        ),
    ]
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, load "
        f"{os.getloadavg()[0]:.2f}, medians of {options.rounds} rounds\n"
    )
    print(
        "| workload | NumPy eager | NumPy backend | JAX backend | JAX, draws passed in "
        "| jax/eager |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for name, f, args, given, given_args in rows:
        numpy_fn = autoconv.function(f)
        jax_fn = autoconv.function(f, backend="jax")
        given_fn = autoconv.function(given, backend="jax")
        times = {"eager": [], "numpy": [], "jax": [], "given": []}
        ratios = []
        a, g = args(), given_args()
        for _ in range(options.rounds):
            round_ = {
                "eager": _per_call(f, a),
                "numpy": _per_call(numpy_fn, a),
                "jax": _per_call(jax_fn, a),
                "given": _per_call(given_fn, g),
            }
            for k, v in round_.items():
                times[k].append(v)
            ratios.append(round_["jax"] / round_["eager"])
        cells = [f"{statistics.median(times[k]) * 1e3:.2f} ms" for k in times]
        print(f"| {name} | " + " | ".join(cells) + f" | {statistics.median(ratios):.2f}x |")


if __name__ == "__main__":
    main()
