"""autoconv's part of a first call, split: converting, tracing, the passes and the lowering.

Run: python benchmarks/first_call_parts.py [--rounds N] [--backend jax|numpy] [--steps N]

For each of issue 25's workloads as users write them (benchmarks/jax_user_workloads.py), a
fresh `autoconv.function` with the conversion caches cleared, up to `get_concrete_function`:
`convert` is the functional form's conversion, `trace`, `passes` and `lowering` are what the
concrete function's `timings` report (`compile` there: the code generation or the JAX
lowering, not XLA's compile, which runs at the first call), `total` the whole, also in this
process's CPU time, which other programs on a busy machine do not inflate. The source files are
read and parsed once before (the first function converted from a file pays for that). Medians
over the rounds, milliseconds.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from jax_user_workloads import cases  # noqa: E402

import autoconv  # noqa: E402
import autoconv.functions.function  # noqa: E402, F401  (registers its caches)
from autoconv import caches  # noqa: E402

_CONVERSION = (
    "conversion (recursive)",
    "conversion (not recursive)",
    "guarded forms (recursive)",
    "guarded forms (not recursive)",
    "converted calls: functions called as they are",
)


def _clear_conversions() -> None:
    for name in _CONVERSION:
        clear, _count = caches._REGISTRY[name]
        clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--backend", default="jax")
    parser.add_argument("--steps", type=int, default=1000, help="the descent's Python range")
    opts = parser.parse_args()
    warnings.simplefilter("ignore")  # fresh functions of one Python function: retracing
    if opts.backend == "jax":
        import jax

        jax.config.update("jax_enable_x64", True)
    print(f"backend={opts.backend!r}, medians of {opts.rounds} rounds, milliseconds")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)\n")
    print("| workload | convert | trace | passes | lowering | total | total (CPU) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for label, _key, fn, args, _ in cases(opts.steps):
        autoconv.function(fn, backend=opts.backend).get_concrete_function(*args)  # files read
        parts: dict = {k: [] for k in ("convert", "trace", "passes", "lowering", "total", "cpu")}
        for _ in range(opts.rounds):
            gc.collect()  # no collection of what the previous round left falls into this one
            _clear_conversions()
            start, cpu = time.perf_counter(), time.process_time()
            f = autoconv.function(fn, backend=opts.backend)
            f._converted_function()
            converted = time.perf_counter()
            concrete = f.get_concrete_function(*args)
            parts["total"].append(time.perf_counter() - start)
            parts["cpu"].append(time.process_time() - cpu)
            parts["convert"].append(converted - start)
            parts["trace"].append(concrete.timings["trace"])
            parts["passes"].append(concrete.timings["optimize"])
            parts["lowering"].append(concrete.timings["compile"])
        cells = [f"{statistics.median(v) * 1e3:.1f}" for v in parts.values()]
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
