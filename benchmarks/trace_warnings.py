"""What the graph-mode warnings cost: trace time with the checks behind `TraceEffectWarning`
(Python's `print`, changes to global containers) and the made-in-a-loop `RetracingWarning`,
against the same traces with those checks switched off, in the same process.

    python benchmarks/trace_warnings.py            # full run
    python benchmarks/trace_warnings.py --quick    # fewer repeats

Each row makes a fresh `autoconv.function` and times its first call (convert, trace, optimize,
compile, run). Runs with the checks on and off alternate; each figure is the median over
`--repeat` runs of process CPU time (`--wall`: wall-clock time). Ratio = on / off. Nothing warns
in these workloads: this is the price every trace pays.
"""

from __future__ import annotations

import argparse
import contextlib
import platform
import statistics
import sys
import time
import warnings

import numpy as np

import autoconv
from autoconv.runtime import calls
from autoconv.trace.tensors import made_in_loop, trace_effects


def helper(y, acc):
    acc.append(y)
    return y * 2


def many_calls(x):
    acc = [x]
    for _ in range(300):  # unrolled while tracing: 300 calls through `converted`
        x = helper(x, acc) + 1
    return x


def staged_loop(x, n):
    total = np.zeros_like(x)
    i = 0
    while i < n:
        total = total + x * i
        i += 1
    return total


def small(x):
    return np.sum(x * x)


WORKLOADS = {
    "300 helper calls (unrolled)": (many_calls, (np.ones(3),)),
    "staged while loop": (staged_loop, (np.ones(3), np.int64(5))),
    "one expression": (small, (np.ones(3),)),
}


@contextlib.contextmanager
def checks_off():
    """Switches the warning checks off (the hook in `converted`, the per-trace watch and the
    creation site a Function records)."""
    saved = calls.effects_hook, trace_effects.watch, made_in_loop.creation_site
    calls.effects_hook = None
    trace_effects.watch = lambda function, values: contextlib.nullcontext()
    made_in_loop.creation_site = lambda: None
    try:
        yield
    finally:
        calls.effects_hook, trace_effects.watch, made_in_loop.creation_site = saved


def first_call(func, args, clock) -> float:
    f = autoconv.function(func)
    start = clock()
    f(*args)
    return clock() - start


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=41)
    parser.add_argument("--wall", action="store_true")
    options = parser.parse_args(argv)
    repeat = 9 if options.quick else max(5, options.repeat)
    clock = time.perf_counter if options.wall else time.process_time
    warnings.simplefilter("ignore")  # the loop warning would fire: one place makes them all
    print(f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}")
    print(f"`{' '.join(['python benchmarks/trace_warnings.py', *argv])}`\n")
    print("| first call of a new Function | checks on (ms) | checks off (ms) | ratio |")
    print("| --- | ---: | ---: | ---: |")
    for name, (func, args) in WORKLOADS.items():
        on, off = [], []
        for _ in range(repeat):
            on.append(first_call(func, args, clock))
            with checks_off():
                off.append(first_call(func, args, clock))
        m_on, m_off = statistics.median(on), statistics.median(off)
        print(f"| {name} | {m_on * 1e3:.2f} | {m_off * 1e3:.2f} | {m_on / m_off:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
