"""The JAX backend against NumPy eager, the NumPy backend and hand-written `jax.jit` + `lax`.

Run: python benchmarks/jax_backend.py [--rounds N] [--only KEY] [--user [--quick]]
(needs the `jax` extra)

`--user`: issue 25's workloads instead, written as a user writes them
(benchmarks/jax_user_workloads.py), in both regimes: device-resident JAX arrays in with
`keep_on_device=True` against the hand-written function on the same arrays (results waited
for), and NumPy arrays in and out against `np.asarray(jitted(*numpy_args))`. `--quick` runs
the Python-range descent for 100 steps instead of 1000 (XLA compiles the 1000 unrolled steps
for half a minute per regime) and 3 rounds: about a minute on 2 cores.

The six workloads of issue 10 (those of graph_benchmarks.py plus k-means), written once with
NumPy. Columns: NumPy eager, `autoconv.function` with the NumPy backend, with
`backend="jax"`, and the same computation written by hand with `jax.numpy` and `lax` control
flow under `jax.jit` (64-bit types on, as our backend keeps NumPy's dtypes; NumPy arrays in,
`np.asarray` of the result out, as our backend returns NumPy arrays). Each round times a batch
of calls (about 20 ms) of every column, in turn, then again in reverse order; the table shows
the median time per call (wall clock, `time.perf_counter`) and `ours/jit`, the median of the
per-round ratios of our JAX backend to the hand-written version. `first call` is the time of
the first call of a fresh function (trace, optimize, lower, compile, run) against the first
call of the hand-written `jax.jit` (its compile). `autoconv part` is the time until the lowered
program exists (converting, tracing, optimizing and lowering the function: timed directly, up to
`get_concrete_function`), and `JAX+XLA of ours` the rest of the first call: JAX's tracing of
the lowered program, XLA's compile, and the run. `(CPU)`: the autoconv part in this process's
CPU time, which other programs on a busy machine do not inflate. A full garbage collection runs
before each workload's first call, so that no row pays for what earlier rows left behind.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import platform
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from graph_benchmarks import (  # noqa: E402
    Model,
    chain,
    collatz,
    jax_hand_written,
    linear_regression,
)
from jax import lax  # noqa: E402

import autoconv  # noqa: E402
from autoconv.backends.jax.program import x64  # noqa: E402
from autoconv.pyct.sources import function_node  # noqa: E402


def power(x, y):
    result = np.eye(10, dtype=np.int32)
    for _ in range(y):
        result = np.matmul(x, result)
    return result


def kmeans(x, c, iters):
    """Lloyd's iterations with a staged loop (iters is an array): distances, labels, means."""
    k = c.shape[0]
    i = 0
    while i < iters:
        d = np.sum((x[:, None, :] - c[None, :, :]) ** 2, axis=2)
        labels = np.argmin(d, axis=1)
        onehot = (labels[:, None] == np.arange(k)[None, :]).astype(x.dtype)
        counts = np.sum(onehot, axis=0)
        c = (onehot.T @ x) / np.maximum(counts, 1.0)[:, None]
        i += 1
    return c


def _hand_written(model):
    """graph_benchmarks' hand-written `jax.jit` versions, and k-means."""

    @jax.jit
    def j_kmeans(x, c, iters):
        k = c.shape[0]

        def body(_, c):
            d = jnp.sum((x[:, None, :] - c[None, :, :]) ** 2, axis=2)
            onehot = (jnp.argmin(d, axis=1)[:, None] == jnp.arange(k)[None, :]).astype(x.dtype)
            return (onehot.T @ x) / jnp.maximum(onehot.sum(axis=0), 1.0)[:, None]

        return lax.fori_loop(0, iters, body, c)

    return {**jax_hand_written(model), "kmeans": j_kmeans}


def cases():
    rng = np.random.default_rng(0)
    x10 = rng.integers(-1, 2, size=(10, 10)).astype(np.int32)
    xs = rng.normal(size=64).astype(np.float32)
    ys = (3 * xs + 2).astype(np.float32)
    model = Model()
    xm = rng.normal(size=(8, 10)).astype(np.float32)
    big = [rng.normal(size=1_000_000) for _ in range(4)]
    pts = rng.normal(size=(2000, 2)).astype(np.float32)
    centers = pts[:5].copy()
    return model, [
        ("power(x, 100) 10x10 int32", "power", power, (x10, 100)),
        ("collatz(27) while", "collatz", collatz, (np.int64(27),)),
        (
            "linreg 1000 steps",
            "linreg",
            linear_regression,
            (xs, ys, np.int64(1000), np.float32(0.1)),
        ),
        ("100 dense+relu layers", "dense", model.call, (xm,)),
        ("chain 1e6 float64", "chain", chain, tuple(big)),
        ("k-means 2000x2, k=5, 20 it", "kmeans", kmeans, (pts, centers, np.int64(20))),
    ]


def _finish(value):
    if isinstance(value, tuple):
        return tuple(np.asarray(v) for v in value)
    return np.asarray(value)


def _batch(fn, args, n):
    start = time.perf_counter()
    for _ in range(n):
        fn(*args)
    return (time.perf_counter() - start) / n


def measure(label, key, fn, args, hand, rounds):
    eager = fn
    # Each row's first call starts from the same collector state: without this, what the
    # rows before left in the young generations is traversed by the collection that the
    # row's own allocations trigger (4 ms of the 100 layers' 21 ms, measured).
    gc.collect()
    t0, c0 = time.perf_counter(), time.process_time()
    ours = autoconv.function(fn, backend="jax")
    ours.get_concrete_function(*args)  # converted, traced, optimized and lowered
    autoconv_part = time.perf_counter() - t0
    autoconv_cpu = time.process_time() - c0
    ours(*args)  # JAX traces the lowered program, XLA compiles it, and it runs
    first_ours = time.perf_counter() - t0
    np_graph = autoconv.function(fn)
    np_graph(*args)
    jit = hand[key]

    def hand_call(*a):
        with x64():
            return _finish(jit(*a))

    t0 = time.perf_counter()
    hand_call(*args)
    first_jit = time.perf_counter() - t0
    columns = {"eager": eager, "numpy": np_graph, "jax": ours, "jit": hand_call}
    # calls per batch: about 20 ms of each column
    sizes = {}
    for k, c in columns.items():
        once = min(_batch(c, args, 1) for _ in range(3))
        sizes[k] = max(1, min(5000, int(0.02 / max(once, 1e-7))))
    times = {k: [] for k in columns}
    ratios = []
    for r in range(rounds):
        order = list(columns) if r % 2 == 0 else list(columns)[::-1]
        got = {k: _batch(columns[k], args, sizes[k]) for k in order}
        for k, v in got.items():
            times[k].append(v)
        ratios.append(got["jax"] / got["jit"])
    med = {k: statistics.median(v) for k, v in times.items()}
    parts = (first_ours, first_jit, autoconv_part, autoconv_cpu)
    return label, med, statistics.median(ratios), parts


def _fmt(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:8.1f} us"
    return f"{seconds * 1e3:8.2f} ms"


def _countdown(n):
    s = 0
    while n > 0:
        if n % 2 == 0:
            s += 1
        n -= 1
    return s


def _warm_up():
    """JAX's and autoconv's one-time costs (imports, the first lowering of a while loop and a
    cond, reading and parsing each source file once) are paid here, so that no workload's first
    call pays them: `_countdown` reads this file, `function_node` graph_benchmarks.py (about
    10 ms for its 500 lines, paid by the first function converted from a file)."""
    function_node(jax_hand_written)
    autoconv.function(_countdown, backend="jax")(np.int64(3))
    autoconv.function(_countdown)(np.int64(3))
    with x64():
        body = lambda c: (c[0] - 1, lax.cond(c[0] % 2 == 0, lambda s: s + 1, lambda s: s, c[1]))
        jax.jit(lambda n: lax.while_loop(lambda c: c[0] > 0, body, (n, 0)))(3)


def _wait(value):
    """`value` once the device has computed it (JAX dispatches asynchronously)."""
    return jax.block_until_ready(value)


def _on_device(a):
    if isinstance(a, (np.ndarray, np.generic)):
        return jax.device_put(a)
    if type(a) in (list, tuple):
        return type(a)(_on_device(v) for v in a)
    return a


def measure_user(label, key, fn, args, hand_args, jit, rounds):
    """One issue-25 workload in both regimes: per-call medians, ratios and first calls."""
    out = {}
    device_args = []
    with x64():
        for a in args:
            # Arrays inside lists and tuples too (the mlp's (w, b) pairs), as the hand-written
            # side's device_put of the whole pytree gives them; Python numbers stay numbers.
            device_args.append(_on_device(a))
        hand_device = [jax.device_put(a) for a in hand_args]
    regimes = {
        "device": (True, tuple(device_args), tuple(hand_device)),
        "numpy": (False, tuple(args), tuple(hand_args)),
    }
    for regime, (keep, ours_args, jit_args) in regimes.items():
        gc.collect()
        t0, c0 = time.perf_counter(), time.process_time()
        ours = autoconv.function(fn, backend="jax", keep_on_device=keep)
        ours.get_concrete_function(*ours_args)
        autoconv_part = time.perf_counter() - t0
        autoconv_cpu = time.process_time() - c0
        _wait(ours(*ours_args))
        first_ours = time.perf_counter() - t0
        if keep:

            def hand_call(*a):
                with x64():
                    return _wait(jit(*a))

            def ours_call(*a, _f=ours):
                return _wait(_f(*a))

        else:

            def hand_call(*a):
                with x64():
                    return _finish(jit(*a))

            ours_call = ours
        if regime == "device":
            t0 = time.perf_counter()
            hand_call(*jit_args)
            out["first_jit"] = time.perf_counter() - t0
        else:
            hand_call(*jit_args)
        columns = {"ours": (ours_call, ours_args), "jit": (hand_call, jit_args)}
        sizes = {}
        for k, (c, a) in columns.items():
            once = min(_batch(c, a, 1) for _ in range(3))
            sizes[k] = max(1, min(5000, int(0.02 / max(once, 1e-7))))
        times = {k: [] for k in columns}
        ratios, cpu_ratios = [], []
        for r in range(rounds):
            order = list(columns) if r % 2 == 0 else list(columns)[::-1]
            got, cpu = {}, {}
            for k in order:
                c0 = time.process_time()
                got[k] = _batch(columns[k][0], columns[k][1], sizes[k])
                cpu[k] = (time.process_time() - c0) / sizes[k]
            for k, v in got.items():
                times[k].append(v)
            ratios.append(got["ours"] / got["jit"])
            cpu_ratios.append(cpu["ours"] / max(cpu["jit"], 1e-9))
        out[regime] = {
            "ours": statistics.median(times["ours"]),
            "jit": statistics.median(times["jit"]),
            "ratio": statistics.median(ratios),
            # CPU time of this process (XLA's threads included): less moved by other programs
            "cpu_ratio": statistics.median(cpu_ratios),
            "first": first_ours,
            "autoconv": autoconv_part,
            "autoconv_cpu": autoconv_cpu,
        }
    return label, out


def main_user(opts):
    from jax_user_workloads import cases as user_cases
    from jax_user_workloads import hand_written

    steps = 100 if opts.quick else 1000
    rounds = 3 if opts.quick else opts.rounds
    hand = hand_written(steps)
    with x64():
        jax.jit(lambda x: x + 1)(np.ones(2)).block_until_ready()  # JAX's one-time start-up
    _warm_up()
    rows = []
    for label, key, fn, args, hand_args in user_cases(steps):
        if opts.only and key != opts.only:
            continue
        rows.append(measure_user(label, key, fn, args, hand_args or args, hand[key], rounds))
    cpu = platform.processor() or platform.machine()
    print(f"JAX {jax.__version__}, device {jax.devices()[0]}, {os.cpu_count()} cores ({cpu})")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{rounds} rounds, median time per call, wall clock; load average {load:.1f}\n")
    print(
        "| workload | ours, device | jit, device | ours/jit, device | ours/jit CPU, device | "
        "ours, NumPy in/out | jit, NumPy in/out | ours/jit, NumPy | ours/jit CPU, NumPy | "
        "first call ours | autoconv part | autoconv part CPU | JAX+XLA of ours | first call jit |"
    )
    print("|" + " --- |" * 14)
    logs = {"device": [], "numpy": [], "device (CPU)": [], "numpy (CPU)": []}
    for label, out in rows:
        d, n = out["device"], out["numpy"]
        logs["device"].append(math.log(d["ratio"]))
        logs["numpy"].append(math.log(n["ratio"]))
        logs["device (CPU)"].append(math.log(d["cpu_ratio"]))
        logs["numpy (CPU)"].append(math.log(n["cpu_ratio"]))
        print(
            f"| {label} | {_fmt(d['ours'])} | {_fmt(d['jit'])} | {d['ratio']:.2f}x | "
            f"{d['cpu_ratio']:.2f}x | {_fmt(n['ours'])} | {_fmt(n['jit'])} | {n['ratio']:.2f}x | "
            f"{n['cpu_ratio']:.2f}x | {_fmt(d['first'])} | {_fmt(d['autoconv'])} | "
            f"{_fmt(d['autoconv_cpu'])} | {_fmt(d['first'] - d['autoconv'])} | "
            f"{_fmt(out['first_jit'])} |"
        )
    for regime, values in logs.items():
        if values:
            print(f"geometric mean ours/jit, {regime}: {math.exp(sum(values) / len(values)):.2f}x")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--only")
    parser.add_argument("--user", action="store_true", help="issue 25's workloads, both regimes")
    parser.add_argument("--quick", action="store_true", help="with --user: 100 steps, 3 rounds")
    opts = parser.parse_args()
    if opts.user:
        main_user(opts)
        return
    model, all_cases = cases()
    with x64():
        hand = _hand_written(model)
        jax.jit(lambda x: x + 1)(np.ones(2)).block_until_ready()  # JAX's one-time start-up
    _warm_up()
    rows = []
    for label, key, fn, args in all_cases:
        if opts.only and key != opts.only:
            continue
        rows.append(measure(label, key, fn, args, hand, opts.rounds))
    cpu = platform.processor() or platform.machine()
    print(f"JAX {jax.__version__}, device {jax.devices()[0]}, {os.cpu_count()} cores ({cpu})")
    print(f"{opts.rounds} rounds, median time per call, wall clock\n")
    head = "| workload | NumPy eager | autoconv numpy | autoconv jax | hand jax.jit | ours/jit |"
    print(head + " first call ours | first call jit | JAX+XLA of ours | autoconv part | (CPU) |")
    print("|" + " --- |" * 11)
    logs = []
    for label, med, ratio, (first_ours, first_jit, autoconv_part, autoconv_cpu) in rows:
        logs.append(math.log(ratio))
        print(
            f"| {label} | {_fmt(med['eager'])} | {_fmt(med['numpy'])} | {_fmt(med['jax'])} | "
            f"{_fmt(med['jit'])} | {ratio:.2f}x | {_fmt(first_ours)} | {_fmt(first_jit)} | "
            f"{_fmt(first_ours - autoconv_part)} | {_fmt(autoconv_part)} | {_fmt(autoconv_cpu)} |"
        )
    print(f"\ngeometric mean ours/jit: {math.exp(sum(logs) / len(logs)):.2f}x")


if __name__ == "__main__":
    main()
