"""Issue 25 item 6: the JAX backend on a GPU, at large sizes, and `device="auto"`'s threshold.

Run: python benchmarks/jax_gpu.py [--table] [--threshold] [--small] [--rounds N] [--steps N]
(needs the `jax` extra with a GPU plugin; `--small` runs tiny sizes and falls back to the CPU
when JAX sees no GPU, to test the script itself). With `$OUT` set, results also go to
`$OUT/gpu_table.json` and `$OUT/gpu_threshold.json`, written again after every row, so that a run
cut short keeps what it measured.

`--table`: issue 25's workloads written as a user writes them (benchmarks/jax_user_workloads.py):
an elementwise chain on four 3e7 float32 arrays; 20 dense ReLU layers `for w in ws` with x
(4096, 1024) and ws one (20, 1024, 1024) array, then the same with ws a Python list of 20
arrays; k-means on 2e5 x 8 points, k=16, `iters=50` with the converged `break`; the descent
`range(1000)` at x (4096, 64). All float32. Each against a hand-written `jax.jit` (+ `lax`), both
on the GPU, in two regimes: device-resident (inputs `jax.device_put` on the GPU, ours with
`keep_on_device=True`, results waited for with `block_until_ready`) and NumPy in/out (ours
returns NumPy arrays; the hand side is `np.asarray(jitted(*numpy_args))`). Times are medians of
`--rounds` interleaved rounds (each round times a batch of calls of each side, in alternating
order); `ours/jit` is the median of the per-round ratios. `first call`: a fresh function's first
call (ours: convert, trace, lower, XLA compile, run; jit: compile and run). Every result is
checked against NumPy eager and the two sides against each other with rtol 1e-3, atol 1e-3
(float32; a GPU may run float32 matmuls with TF32, JAX's default precision there), and the
largest absolute differences are shown.

`--threshold`: where the GPU starts to beat the CPU for a graph run with NumPy arrays in and out
(the regime `device="auto"` serves): an elementwise program `np.sqrt(a * a + b) - a` on n
elements and a loop program, 10 steps of `x = np.tanh(x @ w)` with x (k,) and w (k, k),
n = k * k elements; n from 2^8 to 2^26, times 4 each step; `device="cpu"`, `"gpu"` and
`"auto"` (what auto picks today, `AUTO_CPU_ELEMENTS`), warm calls, medians of interleaved rounds.
It prints, per program and dtype, the smallest n from which the GPU is faster at every larger
size.

Device time (an H200 with 16 cores, estimated): start-up and JAX's GPU init ~10 s; threshold
~50 s (60 small compiles a dtype; the 2^24 and 2^26 sizes dominate the timing, 256-512 MB
copied each way per call); table ~60 s (16 compiles, some with XLA's GEMM autotuning, and the
NumPy eager references: about 1 s each at these sizes). The descent's 1000 Python-range steps
are re-rolled into one loop (its first call took 0.2 s on this 2-core CPU). Whole run: about
2 minutes. The threshold runs first, the descent last, and `--budget` (seconds, default 270)
starts nothing after it.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import math
import os
import platform
import statistics
import sys
import time
import traceback
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax_user_workloads import chain, descent, hand_written, kmeans, layers  # noqa: E402

import autoconv  # noqa: E402
from autoconv.backends.jax.program import AUTO_CPU_ELEMENTS, x64  # noqa: E402

RTOL = ATOL = 1e-3
# Every row makes its functions anew on purpose (first calls are measured fresh).
warnings.filterwarnings("ignore", category=autoconv.RetracingWarning)
START = time.perf_counter()


def say(*parts):
    print(*parts, flush=True)


def _elapsed():
    return time.perf_counter() - START


def _fmt(seconds):
    if seconds is None or (isinstance(seconds, float) and math.isnan(seconds)):
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def _devices(kind):
    try:
        return jax.devices(kind)
    except RuntimeError:
        return []


def pick_device(small: bool):
    """`(name for device=, jax.Device)`: the first GPU, or the CPU with `--small` (or with a
    warning) when JAX sees none."""
    gpus = _devices("gpu")
    if gpus:
        return "gpu", gpus[0]
    if not small:
        say("WARNING: JAX sees no GPU; measuring on the CPU instead")
    return "cpu", jax.devices("cpu")[0]


def _on(device):
    """A scope placing uncommitted (NumPy) inputs of a `jax.jit` call on `device`."""
    if jax.devices()[0] == device:
        return contextlib.nullcontext()
    return jax.default_device(device)


def _wait(value):
    return jax.block_until_ready(value)


def _batch(fn, args, n):
    start = time.perf_counter()
    for _ in range(n):
        fn(*args)
    return (time.perf_counter() - start) / n


def _batch_size(fn, args, target):
    once = min(_batch(fn, args, 1) for _ in range(2))
    return max(1, min(2000, int(target / max(once, 1e-7))))


def interleaved(columns, rounds, target=0.01):
    """`{name: median seconds per call}` and the per-round times of `columns` ({name: (fn,
    args)}), timed in batches of about `target` seconds, in alternating order each round."""
    sizes = {k: _batch_size(fn, a, target) for k, (fn, a) in columns.items()}
    times = {k: [] for k in columns}
    for r in range(rounds):
        order = list(columns) if r % 2 == 0 else list(columns)[::-1]
        for k in order:
            fn, a = columns[k]
            times[k].append(_batch(fn, a, sizes[k]))
    return {k: statistics.median(v) for k, v in times.items()}, times


def _array(value):
    if isinstance(value, tuple):
        return tuple(np.asarray(v) for v in value)
    return np.asarray(value)


def compare(got, want):
    """`{"ok", "max_abs", "dtype_ok", "shape_ok"}` of `got` against `want` (rtol/atol 1e-3)."""
    got, want = np.asarray(got), np.asarray(want)
    out = {"dtype_ok": got.dtype == want.dtype, "shape_ok": got.shape == want.shape}
    if not out["shape_ok"]:
        return {**out, "ok": False, "max_abs": None}
    diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
    finite = np.isfinite(want)
    out["max_abs"] = float(np.max(diff[finite])) if finite.any() else 0.0
    out["ok"] = bool(np.allclose(got, want, rtol=RTOL, atol=ATOL, equal_nan=True))
    out["finite"] = bool(finite.all())
    return out


class Results:
    """Results kept as JSON in `$OUT/<name>` (rewritten after every row) when `$OUT` is set."""

    def __init__(self, name, meta):
        self.data = {**meta, "rows": []}
        out = os.environ.get("OUT")
        self.path = os.path.join(out, name) if out else None

    def add(self, row):
        self.data["rows"].append(row)
        self.save()

    def save(self):
        if self.path:
            with open(self.path, "w") as f:
                json.dump(self.data, f, indent=1, default=str)


# ----------------------------------------------------------------------------------------
# The table


def layers_list_jit():
    @jax.jit
    def j_layers_list(x, ws):
        for w in ws:  # as JAX users write it: unrolled while JAX traces
            x = jnp.maximum(x @ w, 0)
        return x

    return j_layers_list


def table_cases(small, steps):
    """`(label, key, function, arguments)`: float32 throughout."""
    rng = np.random.default_rng(0)
    f32 = np.float32
    n_chain = 10_000 if small else 30_000_000
    batch, width = (64, 32) if small else (4096, 1024)
    n_pts = 2_000 if small else 200_000
    rows, cols = (256, 16) if small else (4096, 64)
    out = []

    big = tuple(rng.standard_normal(n_chain, dtype=f32) for _ in range(4))
    out.append((f"chain 4x{n_chain:.0e} float32", "chain", chain, big))

    x = rng.standard_normal((batch, width), dtype=f32)
    # He scaling: ReLU layers keep the values' size, so 20 layers stay finite
    ws = (rng.standard_normal((20, width, width), dtype=f32) * f32(math.sqrt(2 / width))).astype(
        f32
    )
    out.append((f"20 layers for w in ws ({batch},{width})", "layers", layers, (x, ws)))
    out.append((f"20 layers, list of 20 ({batch},{width})", "layers_list", layers, (x, list(ws))))

    k = 16
    centers = rng.uniform(-20, 20, size=(k, 8)).astype(f32)
    # 16 separated clusters, started from one point of each (+0.5), as jax_user_workloads'
    # cases do: Lloyd's converges and breaks, with no near-ties for float32 rounding to flip
    pts = (centers[np.arange(n_pts) % k] + rng.standard_normal((n_pts, 8), dtype=f32)).astype(f32)
    start = (pts[:k] + f32(0.5)).astype(f32)
    out.append((f"k-means {n_pts:.0e}x8, k=16, break", "kmeans", kmeans, (pts, start, 50)))

    xd = rng.standard_normal((rows, cols), dtype=f32)
    yd = (xd @ rng.standard_normal(cols, dtype=f32)).astype(f32)

    def desc(x, y, w):
        return descent(x, y, w, steps)

    desc.__name__ = f"descent{steps}"
    out.append(
        (f"descent range({steps}) ({rows},{cols})", "descent", desc, (xd, yd, np.zeros(cols, f32)))
    )
    return out


def _hand(key, steps):
    """A fresh hand-written `jax.jit` function for `key` and how it takes our arguments."""
    if key == "layers_list":
        return layers_list_jit(), lambda a: a
    jit = hand_written(steps)[key]
    if key == "kmeans":  # its 50 iterations are written in
        return jit, lambda a: a[:2]
    return jit, lambda a: a


def _put(value, device):
    """`value` on `device` (lists elementwise; Python numbers stay)."""
    if isinstance(value, list):
        return [_put(v, device) for v in value]
    if isinstance(value, (np.ndarray, np.generic)):
        with x64():
            return jax.device_put(value, device)
    return value


def measure_row(label, key, fn, args, name, device, steps, rounds):
    """One workload in both regimes: medians, ratios, first calls and checks."""
    row = {"label": label, "key": key}
    t0 = time.perf_counter()
    want = fn(*args)  # NumPy eager
    row["eager"] = time.perf_counter() - t0
    say(f"  eager {_fmt(row['eager'])}")
    results = {}
    for regime, keep in (("device", True), ("numpy", False)):
        jit, hand_args = _hand(key, steps)
        if keep:
            ours_args = tuple(_put(a, device) for a in args)
            jit_args = tuple(_put(a, device) for a in hand_args(args))
        else:
            ours_args, jit_args = args, hand_args(args)
        gc.collect()
        t0 = time.perf_counter()
        ours = autoconv.function(fn, backend="jax", device=name, keep_on_device=keep)
        ours.get_concrete_function(*ours_args)
        autoconv_part = time.perf_counter() - t0
        got = _wait(ours(*ours_args))
        first_ours = time.perf_counter() - t0
        if keep:

            def ours_call(*a, _f=ours):
                return _wait(_f(*a))

            def hand_call(*a, _j=jit):
                with x64():
                    return _wait(_j(*a))

        else:
            ours_call = ours
            scope = _on(device)

            def hand_call(*a, _j=jit, _s=scope):
                with x64(), _s:
                    return _array(_j(*a))

        t0 = time.perf_counter()
        hand_got = hand_call(*jit_args)
        first_jit = time.perf_counter() - t0
        say(
            f"  {regime}: first call ours {_fmt(first_ours)} (autoconv {_fmt(autoconv_part)}), "
            f"jit {_fmt(first_jit)}"
        )
        med, times = interleaved(
            {"ours": (ours_call, ours_args), "jit": (hand_call, jit_args)}, rounds
        )
        ratios = [o / j for o, j in zip(times["ours"], times["jit"])]
        results[regime] = {
            "ours": med["ours"],
            "jit": med["jit"],
            "ratio": statistics.median(ratios),
            "first_ours": first_ours,
            "autoconv_part": autoconv_part,
            "first_jit": first_jit,
            "ours_vs_eager": compare(_array(got), want),
            "jit_vs_eager": compare(_array(hand_got), want),
            "ours_vs_jit": compare(_array(got), _array(hand_got)),
            "ours_type": type(got).__name__,
        }
        say(
            f"  {regime}: ours {_fmt(med['ours'])}, jit {_fmt(med['jit'])}, "
            f"ours/jit {results[regime]['ratio']:.2f}x"
        )
        del ours, got, hand_got, ours_args, jit_args
    row.update(results)
    return row


def _check_text(row):
    parts = []
    for regime in ("device", "numpy"):
        r = row[regime]
        for what in ("ours_vs_eager", "jit_vs_eager", "ours_vs_jit"):
            c = r[what]
            if not c["ok"] or not c.get("dtype_ok", True):
                parts.append(f"{regime} {what.replace('_', ' ')} DIFF {c['max_abs']}")
    if parts:
        return "; ".join(parts)
    errs = [row[g][w]["max_abs"] for g in ("device", "numpy") for w in ("ours_vs_eager",)]
    return f"ok (max abs vs eager {max(errs):.1e})"


def run_table(opts, name, device):
    steps = opts.steps or (50 if opts.small else 1000)
    res = Results("gpu_table.json", _meta(opts, device, steps=steps))
    say(f"\n## Table ({opts.rounds} rounds, device={name!r}: {device})")
    lines = []
    for label, key, fn, args in table_cases(opts.small, steps):
        if opts.only and key not in opts.only.split(","):
            continue
        if _elapsed() > opts.budget:
            say(f"- {label}: skipped, past --budget {opts.budget} s")
            res.add({"label": label, "key": key, "skipped": "budget"})
            continue
        say(f"- {label} [{_elapsed():.0f} s]")
        try:
            row = measure_row(label, key, fn, args, name, device, steps, opts.rounds)
        except Exception as exc:  # one workload failing must not end the run
            traceback.print_exc()
            say(f"  FAILED: {type(exc).__name__}: {exc}")
            res.add({"label": label, "key": key, "error": f"{type(exc).__name__}: {exc}"})
            lines.append(f"| {label} |" + " - |" * 9 + f" FAILED: {type(exc).__name__} |")
            continue
        finally:
            gc.collect()
        res.add(row)
        d, n = row["device"], row["numpy"]
        lines.append(
            f"| {label} | {_fmt(d['ours'])} | {_fmt(d['jit'])} | {d['ratio']:.2f}x | "
            f"{_fmt(n['ours'])} | {_fmt(n['jit'])} | {n['ratio']:.2f}x | {_fmt(d['first_ours'])} | "
            f"{_fmt(d['first_jit'])} | {_fmt(row['eager'])} | {_check_text(row)} |"
        )
    say(
        f"\n{_header(device)}\n{opts.rounds} rounds, median time per call, wall clock; "
        f"checks rtol {RTOL}, atol {ATOL} (float32)\n"
    )
    say(
        "| workload | ours, device | jit, device | ours/jit, device | ours, NumPy in/out | "
        "jit, NumPy in/out | ours/jit, NumPy | first call ours | first call jit | NumPy eager | "
        "check |"
    )
    say("|" + " --- |" * 11)
    for line in lines:
        say(line)
    return res


# ----------------------------------------------------------------------------------------
# The threshold


def elementwise(a, b):
    return np.sqrt(a * a + b) - a


def loop(x, w):
    for _ in range(10):
        x = np.tanh(x @ w)
    return x


def threshold_inputs(kind, n, dtype, rng):
    if kind == "elementwise":
        return (rng.standard_normal(n).astype(dtype), rng.uniform(0, 1, n).astype(dtype))
    k = math.isqrt(n)
    w = (rng.standard_normal((k, k)) / math.sqrt(k)).astype(dtype)
    return (rng.standard_normal(k).astype(dtype), w)


def _auto_picks(n, gpu):
    """What `device="auto"` picks for these programs: every array of theirs has at most n
    elements and w (or a and b) exactly n."""
    return "cpu" if not gpu or n < AUTO_CPU_ELEMENTS else "gpu"


def threshold_cell(kind, fn, args, name, rounds):
    """Medians per call of `fn` with device="cpu", `name` and "auto", NumPy in and out."""
    devices = ["cpu", name, "auto"] if name != "cpu" else ["cpu", "auto"]
    fns, first, got = {}, {}, {}
    for d in devices:
        t0 = time.perf_counter()
        fns[d] = autoconv.function(fn, backend="jax", device=d)
        got[d] = fns[d](*args)
        first[d] = time.perf_counter() - t0
    want = fn(*args)
    med, _ = interleaved({d: (fns[d], args) for d in devices}, rounds, target=0.005)
    checks = {d: compare(got[d], want) for d in devices}
    if name == "cpu":
        med["gpu"] = first["gpu"] = float("nan")
    return med, first, checks


def run_threshold(opts, name, device):
    gpu = name != "cpu"
    exps = range(8, 15, 2) if opts.small else range(8, 27, 2)
    rounds = opts.rounds
    res = Results(
        "gpu_threshold.json",
        _meta(opts, device, auto_cpu_elements=AUTO_CPU_ELEMENTS, rtol=RTOL, atol=ATOL),
    )
    say(f"\n## Threshold ({rounds} rounds, NumPy in/out, device={name!r}: {device})")
    rng = np.random.default_rng(1)
    summary = []
    for dtype in opts.dtypes.split(","):
        for kind, fn in (("elementwise", elementwise), ("loop", loop)):
            rows = []
            what = "np.sqrt(a * a + b) - a" if kind == "elementwise" else "10 x tanh(x @ w)"
            say(f"\n### {kind}, {dtype}: {what}\n")
            say(
                "| n elements | cpu | gpu | auto | auto picks | gpu faster | first cpu | first gpu "
                "| check |"
            )
            say("|" + " --- |" * 9)
            for e in exps:
                n = 1 << e
                if _elapsed() > opts.budget:
                    say(f"| 2^{e} | skipped, past --budget {opts.budget} s |")
                    res.add({"kind": kind, "dtype": dtype, "n": n, "skipped": "budget"})
                    continue
                try:
                    args = threshold_inputs(kind, n, np.dtype(dtype), rng)
                    med, first, checks = threshold_cell(kind, fn, args, name, rounds)
                except Exception as exc:
                    traceback.print_exc()
                    say(f"| 2^{e} | FAILED: {type(exc).__name__}: {exc} |")
                    res.add(
                        {
                            "kind": kind,
                            "dtype": dtype,
                            "n": n,
                            "error": f"{type(exc).__name__}: {exc}",
                        }
                    )
                    continue
                finally:
                    gc.collect()
                faster = gpu and med["gpu"] < med["cpu"]
                ok = all(c["ok"] for c in checks.values())
                row = {
                    "kind": kind,
                    "dtype": dtype,
                    "n": n,
                    "cpu": med["cpu"],
                    "gpu": med["gpu"],
                    "auto": med["auto"],
                    "auto_picks": _auto_picks(n, gpu),
                    "gpu_faster": faster,
                    "first": first,
                    "checks": checks,
                }
                rows.append(row)
                res.add(row)
                worst = max(c["max_abs"] or 0.0 for c in checks.values())
                say(
                    f"| 2^{e} = {n} | {_fmt(med['cpu'])} | {_fmt(med['gpu'])} | "
                    f"{_fmt(med['auto'])} | "
                    f"{row['auto_picks']} | {'yes' if faster else 'no'} | {_fmt(first['cpu'])} | "
                    f"{_fmt(first['gpu'])} | {'ok' if ok else 'DIFF'} {worst:.1e} |"
                )
            summary.append((kind, dtype, crossover(rows), rows))
    say("\nGPU faster than CPU (NumPy in/out, warm calls):")
    for kind, dtype, (first_faster, from_on), _ in summary:
        say(f"- {kind} {dtype}: first at n = {first_faster}, at every larger n from n = {from_on}")
        res.data.setdefault("crossover", []).append(
            {"kind": kind, "dtype": dtype, "first_faster": first_faster, "faster_from": from_on}
        )
    res.save()
    say(f"(device='auto' today: CPU below AUTO_CPU_ELEMENTS = {AUTO_CPU_ELEMENTS})")
    return res


def crossover(rows):
    """`(the smallest n where the GPU is faster, the smallest n from which it is faster at every
    measured larger n)`; None where it never is."""
    first = next((r["n"] for r in rows if r["gpu_faster"]), None)
    from_on = None
    for r in reversed(rows):
        if not r["gpu_faster"]:
            break
        from_on = r["n"]
    return first, from_on


# ----------------------------------------------------------------------------------------


def _header(device):
    cpu = platform.processor() or platform.machine()
    return (
        f"JAX {jax.__version__}, NumPy {np.__version__}, Python {platform.python_version()}, "
        f"device {device}, {os.cpu_count()} cores ({cpu})"
    )


def _meta(opts, device, **more):
    return {
        "jax": jax.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "device": str(device),
        "devices": [str(d) for d in jax.devices()],
        "cores": os.cpu_count(),
        "rounds": opts.rounds,
        "small": opts.small,
        "matmul_precision": str(getattr(jax.config, "jax_default_matmul_precision", "?")),
        **more,
    }


def _warm_up(name):
    """JAX's start-up on each device and autoconv's first conversion, paid before any row."""
    for d in {"cpu", name}:
        autoconv.function(lambda a: a * 2 + 1, backend="jax", device=d)(np.ones(3, np.float32))
        with x64():
            jax.jit(lambda a: a + 1)(jax.device_put(np.ones(2), _devices(d)[0])).block_until_ready()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", action="store_true", help="the large workloads, both regimes")
    parser.add_argument("--threshold", action="store_true", help="where the GPU beats the CPU")
    parser.add_argument("--small", action="store_true", help="tiny sizes, to test the script")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--steps", type=int, help="the descent's steps (1000; --small: 50)")
    parser.add_argument("--only", help="table rows: chain,layers,layers_list,kmeans,descent")
    parser.add_argument("--dtypes", default="float32,float64", help="threshold dtypes")
    parser.add_argument("--budget", type=float, default=270.0, help="start nothing after (s)")
    opts = parser.parse_args()
    if not (opts.table or opts.threshold):
        parser.error("say --table and/or --threshold")
    name, device = pick_device(opts.small)
    say(_header(device))
    say(f"JAX devices: {jax.devices()}; measuring on {device} (device={name!r})")
    _warm_up(name)
    say(f"warmed up [{_elapsed():.1f} s]")
    # The threshold first: it is what sets AUTO_CPU_ELEMENTS; the table's descent (the longest
    # compile) comes last.
    if opts.threshold:
        try:
            run_threshold(opts, name, device)
        except Exception:
            traceback.print_exc()
    if opts.table:
        try:
            run_table(opts, name, device)
        except Exception:
            traceback.print_exc()
    say(f"\ndone in {_elapsed():.1f} s")


if __name__ == "__main__":
    main()
