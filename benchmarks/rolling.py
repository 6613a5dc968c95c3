"""A Python `range` loop re-rolled by the `roll` pass, against the same loop left unrolled.

Run: python benchmarks/rolling.py [--steps N] [--rounds N] [--no-jax] [--jax-unrolled]

The workload is issue 25's gradient descent, written as a user writes it (a Python `range`, so
the loop is unrolled while tracing):

    for _ in range(steps):
        err = y - x @ w
        grad = x.T @ err / n
        w = w - 0.01 * grad

with x (200, 16), y (200,), w (16,) float64. Rows:
- `numpy, unrolled`: backend="numpy" with `optimize={"roll": False}` (autoconv before the pass);
- `numpy, rolled`: backend="numpy" with the default passes (`roll` on);
- `jax, unrolled` / `jax, rolled`: the same on backend="jax" (the unrolled one is measured once,
  with `--jax-unrolled`: XLA compiles its thousands of operations for tens of seconds);
- `jax.jit + fori_loop`: the loop written by hand with `lax.fori_loop`.
Columns: `trace`, `passes` and `roll` are what `pass_summary()` reports for the trace of the
Python function (the same work in both autoconv rows: the pass runs after it), for all the
passes (with the copy of the traced graph they work on) and for the `roll` pass alone,
`first call` a fresh function's first call (trace, passes, code generation or lowering and XLA
compile, and the run), `call` a later call. Medians over the rounds, wall time
(`time.perf_counter`); `ops` counts the operations of the graph that runs.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
import warnings

import numpy as np

import autoconv


def make(steps):
    def gd(x, y, w):
        n = x.shape[0]
        for _ in range(steps):
            err = y - x @ w
            grad = x.T @ err / n
            w = w - 0.01 * grad
        return w

    return gd


def _seconds(fn, *args) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def _median(values) -> float:
    return statistics.median(values) if values else float("nan")


def _autoconv_row(gd, args, backend, optimize, rounds, calls):
    if rounds > 1:  # a first, untimed round: the conversion and the imports
        autoconv.function(gd, backend=backend, optimize=optimize)(*args)
    traces, passes, rolls, firsts, later, ops = [], [], [], [], [], 0
    for _ in range(rounds):
        f = autoconv.function(gd, backend=backend, optimize=optimize)
        firsts.append(_seconds(f, *args))
        concrete = f.get_concrete_function(*args)
        seconds = _summary_seconds(concrete.pass_summary())
        traces.append(seconds.get("trace", float("nan")))
        passes.append(seconds.get("optimize", float("nan")))
        rolls.append(seconds.get("roll", float("nan")))
        ops = sum(1 for _ in concrete.optimized_graph.walk())
        f(*args)
        later.append(min(_seconds(f, *args) for _ in range(calls)))
    return traces, passes, rolls, firsts, later, ops


def _summary_seconds(summary: str) -> dict:
    """`{"trace": s, "optimize": s, "compile": s}` from `pass_summary()`'s last line."""
    out = {}
    for part in summary.splitlines()[-1].split(","):
        words = part.split()
        if len(words) == 3 and words[2] == "ms":
            out[words[0]] = float(words[1]) / 1e3
    for line in summary.splitlines():  # the pass lines: `roll  7001 -> 11 ops  ...  0.4 ms`
        words = line.split()
        if words and words[0] == "roll" and words[-1] == "ms":
            out["roll"] = float(words[-2]) / 1e3
    return out


def _compare(got, want) -> str:
    if np.array_equal(got, want):
        return "bit-equal"
    return f"rel. diff {np.abs(got - want).max() / np.abs(want).max():.1e}"


def _to_numpy(fn, args):
    return np.asarray(fn(*args))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=20, help="later calls per round (best)")
    parser.add_argument("--no-jax", action="store_true")
    parser.add_argument("--jax-unrolled", action="store_true", help="also the unrolled JAX row")
    parser.add_argument("--quick", action="store_true", help="100 steps, 2 rounds")
    opts = parser.parse_args()
    warnings.simplefilter("ignore")  # a fresh function per round: retracing warnings
    if opts.quick:
        opts.steps, opts.rounds, opts.calls = 100, 2, 3
    rng = np.random.default_rng(0)
    x, y, w = rng.random((200, 16)), rng.random(200), np.zeros(16)
    args = (x, y, w)
    gd = make(opts.steps)
    want = gd(*args)
    rows = []
    for name, backend, optimize, rounds in (
        ("numpy, unrolled", "numpy", {"roll": False}, opts.rounds),
        ("numpy, rolled", "numpy", None, opts.rounds),
        ("jax, unrolled", "jax", {"roll": False}, 1),
        ("jax, rolled", "jax", None, opts.rounds),
    ):
        if backend == "jax" and opts.no_jax:
            continue
        if name == "jax, unrolled" and not opts.jax_unrolled:
            continue
        traces, passes, rolls, firsts, later, ops = _autoconv_row(
            gd, args, backend, optimize, rounds, opts.calls
        )
        got = autoconv.function(gd, backend=backend, optimize=optimize)(*args)
        same = _compare(got, want)
        rows.append((name, ops, *map(_median, (traces, passes, rolls, firsts, later)), same))
    if not opts.no_jax:
        import jax
        from jax import lax

        jax.config.update("jax_enable_x64", True)
        steps = opts.steps

        def make_hand():  # a new function each round: jax.jit caches by function
            def hand(x, y, w):
                n = x.shape[0]

                def body(_, w):
                    err = y - x @ w
                    grad = x.T @ err / n
                    return w - 0.01 * grad

                return lax.fori_loop(0, steps, body, w)

            return hand

        firsts, later = [], []
        for _ in range(opts.rounds):
            jitted = jax.jit(make_hand())
            start = time.perf_counter()
            np.asarray(jitted(*args))
            firsts.append(time.perf_counter() - start)
            later.append(min(_seconds(_to_numpy, jitted, args) for _ in range(opts.calls)))
        got = np.asarray(jax.jit(make_hand())(*args))
        same = _compare(got, want)
        rows.append(
            ("jax.jit + fori_loop", None, None, None, None, _median(firsts), _median(later), same)
        )

    print(f"## Re-rolling a {opts.steps}-step Python `range` loop (gradient descent)\n")
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, ")
    print(f"NumPy {np.__version__}; medians of {opts.rounds} rounds (one for `jax, unrolled`)\n")
    print("| row | ops | trace ms | passes ms | roll ms | first call ms | call µs | vs eager |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, ops, tr, ps, rl, first, call, same in rows:
        cells = [
            name,
            "" if ops is None else str(ops),
            "" if tr is None else f"{tr * 1e3:.1f}",
            "" if ps is None else f"{ps * 1e3:.1f}",
            "" if rl is None or rl != rl else f"{rl * 1e3:.1f}",
            f"{first * 1e3:.1f}",
            f"{call * 1e6:.0f}",
            same,
        ]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
