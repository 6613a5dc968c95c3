"""The cost of a growable list on the JAX backend: a list grown in a `while` loop the graph
cannot bound starts with a buffer of 512 float64 items; one that outgrows it is compiled and run
a second time with a larger buffer (docs/backends.md, "Lists grown in staged loops").

Run: python benchmarks/jax_growth.py [--rounds N]   (needs the `jax` extra)

Rows, each with the same loop body (an append and two flops per iteration):
- `bound 1000`: `for _ in steps` over an array of 1,000 items, a bound the graph knows: a
  buffer of 1,000, no re-run (the baseline);
- `no bound, 100`: `while i < n` with `n` an input (100): the starting buffer holds the items;
- `no bound, 1000`: the same loop with n = 1000: the first call overflows the starting buffer,
  compiles again (1,024 items) and runs again.
`first call` is a fresh `autoconv.function`'s first call (trace, lower, compile, run, and the
re-run where there is one), `later call` a call of the same function after it (the grown buffer
is kept, so no re-run). Medians over the rounds; `x bound` is the ratio to the baseline's
median in the same run.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np

import autoconv


def bounded(x, steps):
    history = []
    for _ in steps:  # an array of a shape known while tracing: the bound is its length
        history.append(x)
        x = x * 0.99 + 0.001
    return np.array(history)


def unbounded(x, n):
    history = []
    i = 0
    while i < n:  # n is an input: no bound known while compiling
        history.append(x)
        x = x * 0.99 + 0.001
        i += 1
    return np.array(history)


ROWS = [
    ("bound 1000", bounded, 1000),
    ("no bound, 100", unbounded, 100),
    ("no bound, 1000", unbounded, 1000),
]


def _time(fn, *args) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def measure(rounds: int) -> dict:
    first: dict = {name: [] for name, _, _ in ROWS}
    later: dict = {name: [] for name, _, _ in ROWS}
    recompiles: dict = {}
    autoconv.function(bounded, backend="jax")(np.float64(1.0), np.zeros(3))  # JAX's own start
    for _ in range(rounds):
        for name, fn, n in ROWS:
            args = (np.float64(1.0), np.zeros(n) if fn is bounded else np.int64(n))
            f = autoconv.function(fn, backend="jax")
            first[name].append(_time(f, *args))
            later[name].append(statistics.median(_time(f, *args) for _ in range(20)))
            recompiles[name] = f.get_concrete_function(*args)._program.recompiles
            expected = fn(*args)
            got = f(*args)
            assert got.shape == expected.shape and np.allclose(got, expected, rtol=1e-12)
    return {
        name: (statistics.median(first[name]), statistics.median(later[name]), recompiles[name])
        for name, _, _ in ROWS
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    opts = parser.parse_args(argv)
    import warnings

    warnings.simplefilter("ignore")  # each round makes fresh functions on purpose
    results = measure(opts.rounds)
    base_first, base_later, _ = results["bound 1000"]
    print(f"{platform.processor() or platform.machine()}, {opts.rounds} rounds, medians")
    print(
        "| loop | recompiles | first call ms | x bound | later call us | x bound |\n"
        "| --- | --- | --- | --- | --- | --- |"
    )
    for name, (first, later, again) in results.items():
        print(
            f"| {name} | {again} | {first * 1e3:.1f} | {first / base_first:.2f} | "
            f"{later * 1e6:.0f} | {later / base_later:.2f} |"
        )


if __name__ == "__main__":
    main()
