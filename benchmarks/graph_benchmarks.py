"""Graph mode against NumPy eager: steady-state time per call, ratio, and build times.

Run: .venv/bin/python benchmarks/graph_benchmarks.py [--rounds N] [--ablation] [--only KEY]
[--quick] [--wall]

Each workload runs the same Python function eagerly with NumPy and through
`autoconv.function` (after a warm-up call, which traces; the results are checked equal bit for
bit). A round times a batch of eager calls and a batch of graph calls, then both again in
reverse order (A B B A); the table shows the median time per call of each over all rounds and
the median of the per-round ratios, so a machine whose speed drifts affects both sides alike.
Times are process CPU time (`time.process_time`), which leaves out the time spent waiting for a
core on a shared machine; `--wall` uses `time.perf_counter`. `trace`, `optimize` and `compile`
are the median times (over 3 fresh traces) to trace the function, run the optimizing passes and
generate the executor. If TensorFlow or JAX is installed, `tf.function` and `jax.jit` versions
of the same workloads are timed in the same rounds; neither is needed.

`--ablation` also times the graph with every pass off and with each pass off, each against the
graph with every pass on (in rounds of their own): how much each pass saves on each workload.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import os
import platform
import statistics
import sys
import time

import numpy as np

import autoconv
from autoconv.graph import passes

# --- the workloads, as a careful person writes them with NumPy --------------------------------


def power(x, y):
    result = np.eye(10, dtype=np.int32)
    for _ in range(y):
        result = np.matmul(x, result)
    return result


def power_like(x, y):
    result = np.ones_like(x)
    for _ in range(y):
        result = np.matmul(x, result)
    return result


def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def linear_regression(xs, ys, steps, lr):
    w = np.float32(0.0)
    b = np.float32(0.0)
    for _ in range(steps):
        err = w * xs + b - ys
        w = w - lr * np.mean(err * xs)
        b = b - lr * np.mean(err)
    return w, b


class Dense:
    def __init__(self, rng, n):
        self.w = (rng.normal(size=(n, n)) * 0.3).astype(np.float32)
        self.b = np.zeros(n, np.float32)

    def __call__(self, x):
        return np.maximum(0.0, x @ self.w + self.b)


class Model:
    def __init__(self, layers=100, width=10):
        rng = np.random.default_rng(0)
        self.layers = [Dense(rng, width) for _ in range(layers)]

    def call(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def chain(a, b, c, d):
    """A long elementwise chain: every step allocates a temporary eagerly."""
    return ((a * b + c - d) * a + b) * c - d


def windowed(x, y):
    """Where a graph knows more: a window that depends only on the input's shape (eager code
    recomputes it at every call), a gate written out twice, and elementwise chains."""
    ramp = np.cumsum(np.ones_like(x)) / x.size
    window = 0.5 - 0.5 * np.cos(2 * np.pi * ramp)
    a = x * window / (1.0 + np.exp(-y))
    b = y * window / (1.0 + np.exp(-y))
    return np.tanh(a * b + a - b) * 0.5 + (a - b) * (a + b)


def _cases():
    rng = np.random.default_rng(0)
    x10 = rng.integers(-1, 2, size=(10, 10)).astype(np.int32)
    xs = rng.normal(size=64).astype(np.float32)
    ys = (3 * xs + 2).astype(np.float32)
    model = Model()
    xm = rng.normal(size=(8, 10)).astype(np.float32)
    big = [rng.normal(size=1_000_000) for _ in range(4)]
    return [
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
        ("windowed 1e6 (knows more)", "windowed", windowed, tuple(big[:2])),
    ]


# --- TensorFlow and JAX versions (only when installed) -----------------------------------------


def _bound(fn, args, finish):
    """A callable ignoring its arguments that runs `fn(*args)` to completion."""

    def call(*_):
        return finish(fn(*args))

    return call


def _tf_versions(cases):
    import tensorflow as tf

    out = {}

    @tf.function
    def tf_power(x):
        result = tf.eye(10, dtype=tf.int32)
        for _ in range(100):
            result = tf.matmul(x, result)
        return result

    @tf.function
    def tf_collatz(n):
        steps = tf.constant(0)
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps

    @tf.function
    def tf_linreg(xs, ys, steps, lr):
        w = tf.constant(0.0)
        b = tf.constant(0.0)
        for _ in tf.range(steps):
            err = w * xs + b - ys
            w = w - lr * tf.reduce_mean(err * xs)
            b = b - lr * tf.reduce_mean(err)
        return w, b

    model = Model()
    weights = [(tf.constant(d.w), tf.constant(d.b)) for d in model.layers]

    @tf.function
    def tf_dense(x):
        for w, b in weights:
            x = tf.maximum(0.0, x @ w + b)
        return x

    @tf.function
    def tf_chain(a, b, c, d):
        return ((a * b + c - d) * a + b) * c - d

    @tf.function
    def tf_windowed(x, y):
        ramp = tf.cumsum(tf.ones_like(x)) / tf.cast(tf.size(x), x.dtype)
        window = 0.5 - 0.5 * tf.cos(2 * np.pi * ramp)
        a = x * window / (1.0 + tf.exp(-y))
        b = y * window / (1.0 + tf.exp(-y))
        return tf.tanh(a * b + a - b) * 0.5 + (a - b) * (a + b)

    fns = {
        "power": lambda x, y: tf_power(x),
        "collatz": lambda n: tf_collatz(tf.constant(n)),
        "linreg": tf_linreg,
        "dense": tf_dense,
        "chain": tf_chain,
        "windowed": tf_windowed,
    }
    for _, key, _, args in cases:
        converted = tuple(
            tf.constant(a) if isinstance(a, (np.ndarray, np.generic)) and key != "collatz" else a
            for a in args
        )
        out[key] = _bound(fns[key], converted, lambda r: r.numpy())
    return out


def jax_hand_written(model) -> dict:
    """The workloads written by hand with `jax.numpy` and `lax` control flow under `jax.jit`
    (`{key: function}`; benchmarks/jax_backend.py compares the JAX backend with them)."""
    import jax
    import jax.numpy as jnp
    from jax import lax

    @jax.jit
    def jax_power(x):
        result = jnp.eye(10, dtype=jnp.int32)
        for _ in range(100):
            result = jnp.matmul(x, result)
        return result

    @jax.jit
    def jax_collatz(n):
        def body(state):
            n, steps = state
            n = lax.cond(n % 2 == 0, lambda n: n // 2, lambda n: 3 * n + 1, n)
            return n, steps + 1

        return lax.while_loop(lambda s: s[0] != 1, body, (n, 0))[1]

    @jax.jit
    def jax_linreg(xs, ys, steps, lr):
        def body(_, wb):
            w, b = wb
            err = w * xs + b - ys
            return w - lr * jnp.mean(err * xs), b - lr * jnp.mean(err)

        return lax.fori_loop(0, steps, body, (jnp.float32(0.0), jnp.float32(0.0)))

    weights = [(d.w, d.b) for d in model.layers]

    @jax.jit
    def jax_dense(x):
        for w, b in weights:
            x = jnp.maximum(0.0, x @ w + b)
        return x

    @jax.jit
    def jax_chain(a, b, c, d):
        return ((a * b + c - d) * a + b) * c - d

    return {
        "power": lambda x, y: jax_power(x),
        "collatz": jax_collatz,
        "linreg": jax_linreg,
        "dense": jax_dense,
        "chain": jax_chain,
    }


def _jax_versions(cases):
    import jax
    import jax.numpy as jnp

    out = {}

    @jax.jit
    def jax_windowed(x, y):
        ramp = jnp.cumsum(jnp.ones_like(x)) / x.size
        window = 0.5 - 0.5 * jnp.cos(2 * np.pi * ramp)
        a = x * window / (1.0 + jnp.exp(-y))
        b = y * window / (1.0 + jnp.exp(-y))
        return jnp.tanh(a * b + a - b) * 0.5 + (a - b) * (a + b)

    fns = {**jax_hand_written(Model()), "windowed": jax_windowed}
    for _, key, _, args in cases:
        converted = tuple(
            jnp.asarray(a) if isinstance(a, (np.ndarray, np.generic)) else a for a in args
        )
        out[key] = _bound(fns[key], converted, jax.block_until_ready)
    return out


def _others(cases) -> dict:
    """`{column: {workload: callable}}` for the installed frameworks; a version that fails to
    build or run is left out (shown as n/a)."""
    out = {}
    for column, module, make in (
        ("tf.function", "tensorflow", _tf_versions),
        ("jax.jit", "jax", _jax_versions),
    ):
        if importlib.util.find_spec(module) is None:
            continue
        try:
            fns = make(cases)
        except Exception as e:  # a broken installation: say so, measure the rest
            print(f"# {column}: not measured ({type(e).__name__}: {e})", file=sys.stderr)
            continue
        working = {}
        for key, fn in fns.items():
            try:
                fn()
                fn()
                working[key] = fn
            except Exception as e:
                print(f"# {column} {key}: not measured ({type(e).__name__}: {e})", file=sys.stderr)
        out[column] = working
    return out


# --- measuring --------------------------------------------------------------------------------


_CLOCK = [time.process_time]


def _batch(fn, args, number) -> float:
    clock = _CLOCK[0]
    start = clock()
    for _ in range(number):
        fn(*args)
    return (clock() - start) / number


def _rounds(variants: dict, args, rounds: int, target: float = 0.005) -> dict:
    """Per variant, the times per call in each of `rounds` rounds. A round runs one batch of
    each variant, then one more in reverse order (A B B A), and counts their mean, so that a
    machine whose speed drifts during the round affects every variant alike."""
    first = next(iter(variants.values()))
    one = min(_batch(first, args, 1) for _ in range(3))
    number = max(1, int(target / max(one, 1e-7)))
    names = list(variants)
    times = {name: [] for name in names}
    for _ in range(rounds):
        got = {name: 0.0 for name in names}
        for name in names + names[::-1]:
            got[name] += _batch(variants[name], args, number) / 2
        for name in names:
            times[name].append(got[name])
    return times


def _ratio(times, name, base="eager") -> float:
    return statistics.median(t / b for t, b in zip(times[name], times[base]))


def _ablation(fn, graph, args, rounds) -> list:
    """Per setting (all passes off, then each pass off): its time as a ratio to the graph with
    every pass on, measured in rounds of its own against that graph."""
    settings = [("none", False)] + [(p, {p: False}) for p in passes.PASSES]
    out = []
    for _, optimize in settings:
        variant = autoconv.function(fn, optimize=optimize)
        _check(fn, variant, args)
        times = _rounds({"graph": graph, "variant": variant}, args, rounds)
        out.append(f"{_ratio(times, 'variant', 'graph'):.2f}x")
    return out


def _build_times(fn, args, optimize=None) -> dict:
    runs = []
    for _ in range(3):
        f = autoconv.function(fn, optimize=optimize)
        runs.append(f.get_concrete_function(*args).timings)
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def _check(fn, graph, args):
    """The graph gives eager NumPy's results, bit for bit."""
    expected, got = fn(*args), graph(*args)
    e_flat = expected if isinstance(expected, tuple) else (expected,)
    g_flat = got if isinstance(got, tuple) else (got,)
    for e, g in zip(e_flat, g_flat):
        assert np.asarray(g).dtype == np.asarray(e).dtype and np.shape(g) == np.shape(e)
        assert np.asarray(g).tobytes() == np.asarray(e).tobytes(), "graph differs from eager"


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}, NumPy {np.__version__}"
    )


def _us(t: float) -> str:
    return f"{t * 1e6:,.1f} us" if t < 0.1 else f"{t * 1e3:,.1f} ms"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21, help="rounds per workload (21)")
    parser.add_argument("--ablation", action="store_true", help="also time each pass off")
    parser.add_argument("--only", help="run the workloads whose key contains this")
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--wall", action="store_true", help="wall-clock time, not CPU time")
    opts = parser.parse_args(argv)
    if opts.quick:
        opts.rounds = 3
    if opts.wall:
        _CLOCK[0] = time.perf_counter
    cases = [c for c in _cases() if not opts.only or opts.only in c[1]]
    others = _others(cases)
    columns = list(others)
    head = ["workload", "NumPy eager", "autoconv graph", "ratio"]
    for column in columns:
        head += [column, "ratio"]
    head += ["trace", "optimize", "compile"]
    rows = []
    ablation = []
    for name, key, fn, args in cases:
        graph = autoconv.function(fn)
        _check(fn, graph, args)
        variants = {"eager": fn, "graph": graph}
        for column in columns:
            if key in others[column]:
                variants[column] = others[column][key]
        times = _rounds(variants, args, opts.rounds)
        row = [
            name,
            _us(statistics.median(times["eager"])),
            _us(statistics.median(times["graph"])),
            f"{_ratio(times, 'graph'):.2f}x",
        ]
        for column in columns:
            if column in times:
                row += [_us(statistics.median(times[column])), f"{_ratio(times, column):.2f}x"]
            else:
                row += ["n/a", ""]
        build = _build_times(fn, args)
        row += [f"{build[k] * 1e3:.1f} ms" for k in ("trace", "optimize", "compile")]
        rows.append(row)
        if opts.ablation:
            ablation.append([name] + _ablation(fn, graph, args, max(5, opts.rounds // 2)))
        print(" | ".join(row), file=sys.stderr, flush=True)

    command = ["python", "benchmarks/graph_benchmarks.py", *(argv or sys.argv[1:])]
    print(f"Command: `{' '.join(command)}`")
    print(f"Machine: {_machine()}")
    clock = "wall-clock" if opts.wall else "process CPU"
    print(
        f"Date: {datetime.date.today().isoformat()}; {opts.rounds} rounds per workload, "
        f"{clock} time\n"
    )
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    missing = [m for m, c in (("TensorFlow", "tf.function"), ("JAX", "jax.jit")) if c not in others]
    notes = [
        "ratio: graph time / eager time, median of the per-round ratios (below 1: the graph is "
        "faster)."
    ]
    if missing:
        notes.append(
            f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not installed: "
            "no column for "
            + " or ".join(
                c for m, c in (("TensorFlow", "tf.function"), ("JAX", "jax.jit")) if m in missing
            )
            + "."
        )
    print()
    for note in notes:
        print(note)
    if opts.ablation:
        print(
            "\nEach pass off (time as a ratio to the graph with every pass on; above 1: the "
            "pass saves that much):\n"
        )
        head2 = ["workload", "all off"] + [f"no {p}" for p in passes.PASSES]
        print("| " + " | ".join(head2) + " |")
        print("|" + "---|" * len(head2))
        for row in ablation:
            print("| " + " | ".join(row) + " |")
    # Tracing never computes on full-size data: same trace time for 10x10 and 4000x4000.
    print()
    for n in (10, 4000):
        x = np.ones((n, n), np.int32)
        build = _build_times(power_like, (x, 100))
        total = sum(build.values())
        print(
            f"power_like(x, 100) for a {n}x{n} int32 x: trace + optimize + compile "
            f"{total * 1e3:.1f} ms"
        )


if __name__ == "__main__":
    main()
