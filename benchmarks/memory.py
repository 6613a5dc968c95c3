"""Memory: RSS and cache sizes in the scenarios where caches used to grow without bound.

Scenarios (issue 15): a converted function that defines and calls a helper, called N times;
N converted lambdas, dropped, then `autoconv.clear_caches()`; N instances of a class with an
`@autoconv.function` method, dropped; one `autoconv.function` called with N input shapes
(`max_traces` bounds the graphs it keeps; first and last trace times are compared).

RSS is the resident set size from /proc/self/statm (ru_maxrss, the peak, where there is no
/proc). Memory freed inside Python's allocator is not always given back to the system, so RSS
after freeing can stay above RSS before: the cache sizes and live-object counts say what is
actually kept. Run each scenario in a fresh process (the default), so that they do not share
allocator state. Nothing here asserts; tests/test_caches.py checks the same scenarios, smaller.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import weakref

import numpy as np

import autoconv
from autoconv import caches

HELPER = """
def outer(x):
    def helper(y):
        return y + 1 if y > 0 else y - 1
    if x > 2:
        return helper(x)
    return x
"""


def rss_mib() -> float:
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / (2**20 if sys.platform == "darwin" else 2**10)


def entries() -> int:
    return sum(caches.sizes().values())


def load(source: str, folder: str, name: str):
    """Imports `source` as module `name` from a real file (autoconv reads the source)."""
    import importlib.util

    path = os.path.join(folder, name + ".py")
    with open(path, "w") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def helper_calls(n: int, folder: str) -> dict:
    mod = load(HELPER, folder, "helper_mod")
    f = autoconv.convert(mod.outer)
    f(3)
    gc.collect()
    before, e0 = rss_mib(), entries()
    for i in range(n):
        f(i % 5)
    gc.collect()
    return {"rss": (before, rss_mib(), None), "entries": (e0, entries(), None), "note": ""}


def lambdas(n: int, folder: str) -> dict:
    source = "fs = [\n" + "".join(f"    lambda x: x + {i} if x > 0 else -x,\n" for i in range(n))
    mod = load(source + "]\n", folder, "lambda_mod")
    gc.collect()
    before, e0 = rss_mib(), entries()
    converted = [autoconv.convert(f) for f in mod.fs]
    assert converted[1](1) == 2
    gc.collect()
    peak, e1 = rss_mib(), entries()
    watch = weakref.ref(converted[-1])
    del converted, mod.fs
    gc.collect()
    freed = watch() is None
    e_dropped = entries()
    autoconv.clear_caches()
    gc.collect()
    note = f"freed on del: {'yes' if freed else 'NO'}; entries after del {e_dropped}"
    return {"rss": (before, peak, rss_mib()), "entries": (e0, e1, entries()), "note": note}


class Model:
    def __init__(self, k):
        self.k = k

    @autoconv.function
    def call(self, x):
        return x * self.k


def instances(n: int, folder: str) -> dict:
    import warnings

    warnings.simplefilter("ignore")  # the RetracingWarning for many instances
    Model.call(Model(0.0), np.ones(2))
    gc.collect()
    before, e0 = rss_mib(), entries()
    models = [Model(float(i)) for i in range(n)]
    for m in models:
        m.call(np.ones(2))
    refs = [weakref.ref(m) for m in models]
    peak, e1 = rss_mib(), entries()
    del models, m
    gc.collect()
    alive = sum(r() is not None for r in refs)
    note = (
        f"instances alive after del: {alive}/{n}; traces {Model.call.tracing_count}; "
        f"graphs kept {len(Model.call._concretes)}"
    )
    return {"rss": (before, peak, rss_mib()), "entries": (e0, e1, entries()), "note": note}


def shapes(n: int, folder: str) -> dict:
    import warnings

    warnings.simplefilter("ignore")

    @autoconv.function
    def f(x):
        return (x * 2 + 1).sum()

    gc.collect()
    before, e0 = rss_mib(), entries()
    times = []
    for k in range(1, n + 1):
        start = time.process_time()
        f(np.ones(k))
        times.append(time.process_time() - start)
    first, last = np.median(times[:20]) * 1e3, np.median(times[-20:]) * 1e3
    note = (
        f"graphs kept {len(f._concretes)} (max_traces={f.max_traces}); trace CPU ms, median "
        f"of the first 20 {first:.2f}, of the last 20 {last:.2f} ({last / first:.2f}x)"
    )
    return {"rss": (before, rss_mib(), None), "entries": (e0, entries(), None), "note": note}


SCENARIOS = {
    "helper defined per call": (helper_calls, 100_000, "calls"),
    "converted lambdas, then clear_caches()": (lambdas, 20_000, "lambdas"),
    "instances with an @function method": (instances, 2_000, "instances"),
    "input shapes of one Function": (shapes, 2_000, "shapes"),
}


def run_one(name: str, n: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        sys.path.insert(0, folder)
        return SCENARIOS[name][0](n, folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of each size")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a scenario, in this process
    parser.add_argument("--n", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, args.n)))
        return
    rows = []
    for name, (_, n, unit) in SCENARIOS.items():
        n = n // 10 if args.quick else n
        out = subprocess.run(
            [sys.executable, __file__, "--one", name, "--n", str(n)],
            capture_output=True,
            text=True,
            check=True,
        )
        rows.append((f"{name} ({n:,} {unit})", json.loads(out.stdout.splitlines()[-1])))

    def fmt(v):
        return "" if v is None else f"{v:.1f}"

    print(
        "| scenario | RSS before MiB | RSS after MiB | after del / clear MiB | cache entries "
        "before -> after -> after del / clear | notes |"
    )
    print("| --- | ---: | ---: | ---: | --- | --- |")
    for name, r in rows:
        e = r["entries"]
        counts = f"{e[0]} -> {e[1]}" + ("" if e[2] is None else f" -> {e[2]}")
        print(
            f"| {name} | {fmt(r['rss'][0])} | {fmt(r['rss'][1])} | {fmt(r['rss'][2])} | "
            f"{counts} | {r['note']} |"
        )
    print()
    print(
        f"machine: {platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, NumPy {np.__version__}, {platform.system()}"
    )
    print("command: python benchmarks/memory.py" + (" --quick" if args.quick else ""))


if __name__ == "__main__":
    main()
