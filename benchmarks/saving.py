"""Saved graphs: a loaded function's call time against the original `Function`'s, and the time
to save and to load, and the file size.

Run: .venv/bin/python benchmarks/saving.py [--rounds N] [--quick] [--wall]

Each workload is traced once with `autoconv.function`, saved with `Function.save` and loaded
with `autoconv.load` (results checked equal bit for bit). A round times a batch of original
calls and a batch of loaded calls, then both again in reverse order (A B B A); the table shows
the median time per call of each over all rounds and the median of the per-round ratios.
`save` and `load` are medians over 5 runs (`load` includes checking the file and generating
the executors). Times are process CPU time unless `--wall`.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time

import numpy as np

import autoconv


def tiny(x):
    return x * 2.0 + 1.0


def mlp(x, w1, w2):
    h = np.maximum(x @ w1, 0.0)
    return np.tanh(h @ w2)


def newton_sqrt(a):
    x = a
    i = 0
    while np.max(np.abs(x * x - a)) > 1e-9 and i < 50:
        x = 0.5 * (x + a / x)
        i += 1
    return x


def running_stats(xs):
    total = np.zeros(xs.shape[1])
    for row in xs:
        if np.sum(row) > 0:
            total = total + row
        else:
            total = total - 0.5 * row
    return total, np.mean(total)


rng = np.random.default_rng(0)
WORKLOADS = {
    "tiny (3 floats)": (tiny, (np.array([1.0, 2.0, 3.0]),)),
    "mlp 16x64x64x10": (
        mlp,
        (rng.normal(size=(16, 64)), rng.normal(size=(64, 64)), rng.normal(size=(64, 10))),
    ),
    "newton sqrt (while)": (newton_sqrt, (rng.uniform(1, 100, size=1000),)),
    "running stats (for, 200 rows)": (running_stats, (rng.normal(size=(200, 16)),)),
}


def _clock(wall):
    return time.perf_counter if wall else time.process_time


def _per_call(fn, args, n, clock):
    start = clock()
    for _ in range(n):
        fn(*args)
    return (clock() - start) / n


def _batch(fn, args, clock):
    n = 1
    while _per_call(fn, args, n, clock) * n < 0.02:
        n *= 2
    return n


def _same(a, b):
    if isinstance(a, tuple):
        return all(_same(x, y) for x, y in zip(a, b))
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--wall", action="store_true")
    opts = parser.parse_args(argv)
    rounds = 2 if opts.quick else opts.rounds
    clock = _clock(opts.wall)
    folder = tempfile.mkdtemp()
    print(f"# Saved graphs ({'wall' if opts.wall else 'CPU'} time, {rounds} rounds)\n")
    print(
        "| workload | original µs/call | loaded µs/call | loaded/original | save ms | load ms "
        "| file KiB |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, (func, args) in WORKLOADS.items():
        f = autoconv.function(func)
        expected = f(*args)
        path = os.path.join(folder, func.__name__ + ".acg")
        saves, loads = [], []
        for _ in range(5):
            start = clock()
            f.save(path)
            saves.append(clock() - start)
            start = clock()
            g = autoconv.load(path)
            loads.append(clock() - start)
        assert _same(expected, g(*args)), name
        n = _batch(f, args, clock)
        originals, loadeds, ratios = [], [], []
        for _ in range(rounds):
            a1 = _per_call(f, args, n, clock)
            b1 = _per_call(g, args, n, clock)
            b2 = _per_call(g, args, n, clock)
            a2 = _per_call(f, args, n, clock)
            originals += [a1, a2]
            loadeds += [b1, b2]
            ratios.append((b1 + b2) / (a1 + a2))
        print(
            f"| {name} | {statistics.median(originals) * 1e6:.1f} "
            f"| {statistics.median(loadeds) * 1e6:.1f} | {statistics.median(ratios):.2f} "
            f"| {statistics.median(saves) * 1e3:.2f} | {statistics.median(loads) * 1e3:.2f} "
            f"| {os.path.getsize(path) / 1024:.1f} |"
        )
    command = " ".join([sys.argv[0], *(argv or sys.argv[1:])])
    print(
        f"\n{platform.python_implementation()} {platform.python_version()}, NumPy "
        f"{np.__version__}, {platform.machine()}; `{command}`"
    )


if __name__ == "__main__":
    main()
