"""Conversion time per function, over every function of large standard-library modules.

    python benchmarks/conversion_speed.py            # full run (about a minute)
    python benchmarks/conversion_speed.py --quick    # a few small modules, one repeat

For each module: imports it, collects every function and method it defines (module-level
functions, methods of its classes and nested classes, static and class methods, property
accessors; decorated functions are unwrapped through `__wrapped__`), and times
`autoconv.conversion.functions.converted_code(func, recursive=True)` on each with the
conversion cache cleared first; "convert() median ms" is what `autoconv.convert(func)` itself
costs (the original's statements compiled behind a guard; the functional form above is made at
the function's first trace). Generators and coroutines stay Python by design: they are counted
apart and not timed. The time per function is the median of `--repeat` conversions, in process
CPU time (`--wall` for wall-clock time); the module's source file is parsed once before timing
(every function of a file shares that parse, so it is reported apart, as "parse ms").
`--modules` takes any importable modules, e.g. to look for conversion crashes in more code.

An exception other than `ConversionError` raised by a conversion is a converter bug: those are
listed at the end, and the exit status is then 1.

Reference point: TensorFlow 2.21's AutoGraph takes about 50 ms per function on the same kind of
code. Target: a median of at most 1 ms per function.
"""

import argparse
import ast
import collections
import importlib
import inspect
import os
import platform
import re
import statistics
import sys
import time
import traceback
import types

from autoconv.conversion import functions as conversion
from autoconv.conversion import guarded
from autoconv.errors import ConversionError

MODULES = [
    "textwrap",
    "argparse",
    "json.decoder",
    "json.encoder",
    "tomllib._parser",
    "difflib",
    "configparser",
    "inspect",
    "pydoc",
    "email._header_value_parser",
    "email.message",
    "email.utils",
    "email.feedparser",
    "email._parseaddr",
    "email.headerregistry",
    "email.generator",
    "email.charset",
    "shlex",
    "tokenize",
    "dataclasses",
]
QUICK_MODULES = ["textwrap", "json.decoder", "tomllib._parser"]

# CPU time of this process by default: shared machines run other jobs, and CPU time leaves out
# the time spent waiting for a core. `--wall` switches to `time.perf_counter`.
timer = time.process_time

TARGET_MS = 1.0
TENSORFLOW_MS = 50.0


def machine() -> str:
    return (
        f"{platform.platform()}, {platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, {os.cpu_count()} CPUs"
        + (f" ({platform.processor()})" if platform.processor() else "")
    )


# -- collecting functions --


def _unwrap(obj):
    seen = set()
    while hasattr(obj, "__wrapped__") and id(obj) not in seen:
        seen.add(id(obj))
        obj = obj.__wrapped__
    return obj


def collect(module) -> list:
    """Every Python function `module` defines, each code object once, in definition order."""
    name = module.__name__
    seen, out = set(), []

    def add(obj):
        obj = _unwrap(obj)
        if isinstance(obj, (staticmethod, classmethod)):
            obj = _unwrap(obj.__func__)
        if not isinstance(obj, types.FunctionType) or obj.__module__ != name:
            return
        if obj.__code__ in seen:
            return
        seen.add(obj.__code__)
        out.append(obj)

    def walk_class(cls, visited):
        if cls in visited:
            return
        visited.add(cls)
        for value in vars(cls).values():
            if isinstance(value, property):
                for accessor in (value.fget, value.fset, value.fdel):
                    if accessor is not None:
                        add(accessor)
            elif inspect.isclass(value):
                if value.__module__ == name:
                    walk_class(value, visited)
            else:
                add(value)

    visited = set()
    for value in list(vars(module).values()):
        if inspect.isclass(value) and value.__module__ == name:
            walk_class(value, visited)
        else:
            add(value)
    out.sort(key=lambda f: f.__code__.co_firstlineno)
    return out


def python_only_kind(func):
    """'generator', 'coroutine' or 'async generator' for functions that stay Python by design."""
    if inspect.isasyncgenfunction(func):
        return "async generator"
    if inspect.iscoroutinefunction(func):
        return "coroutine"
    if inspect.isgeneratorfunction(func):
        return "generator"
    return None


_REASON = re.compile(r"stays Python: the (.+?) at ")


def reason_of(error: ConversionError) -> str:
    match = _REASON.search(str(error))
    if match:
        return match.group(1)
    if "cannot convert" in str(error):
        return "no source"
    return str(error)[:60]


# -- timing --


def convert_once(func) -> float:
    conversion._caches[True].clear()
    start = timer()
    conversion.converted_code(func, recursive=True)
    return timer() - start


def guard_once(func) -> float:
    """What `autoconv.convert(func)` costs: compiling the original's statements behind the
    guard (the functional form is made at the first trace)."""
    guarded._guards[True].clear()
    start = timer()
    guarded.guard(func, recursive=True)
    return timer() - start


class ModuleResult:
    def __init__(self, name):
        self.name = name
        self.functions = 0
        self.converted = 0
        self.with_kept = 0  # converted, with a statement (match) left as Python inside
        self.left = collections.Counter()  # reason -> count (ConversionError)
        self.python_only = collections.Counter()  # generator / coroutine -> count
        self.times = []  # (seconds, qualname), for every function conversion was tried on
        self.guard_times = []  # seconds of `convert` (the guarded original), per function
        self.bugs = []  # (qualname, location, exception text, traceback)
        self.parse_s = 0.0


def bench_module(name, repeat) -> ModuleResult:
    result = ModuleResult(name)
    module = importlib.import_module(name)
    funcs = collect(module)
    result.functions = len(funcs)
    filename = inspect.getsourcefile(module)
    if filename:
        with open(filename, encoding="utf-8") as f:
            text = f.read()
        start = timer()
        ast.parse(text, filename)
        result.parse_s = timer() - start
    for func in funcs:
        kind = python_only_kind(func)
        if kind:
            result.python_only[kind] += 1
            continue
        where = f"{func.__code__.co_filename}:{func.__code__.co_firstlineno}"
        # Untimed first conversion: parses the file (cached for every function in it) and
        # finds the outcome.
        conversion._caches[True].clear()
        try:
            entry = conversion.converted_code(func, recursive=True)
        except Exception as e:  # noqa: BLE001 - anything but ConversionError is a bug
            result.bugs.append(
                (func.__qualname__, where, f"{type(e).__name__}: {e}", traceback.format_exc())
            )
            continue
        if isinstance(entry, ConversionError):
            result.left[reason_of(entry)] += 1
        else:
            result.converted += 1
            if entry.kept:
                result.with_kept += 1
        runs = [convert_once(func) for _ in range(repeat)]
        result.times.append((statistics.median(runs), func.__qualname__))
        result.guard_times.append(statistics.median(guard_once(func) for _ in range(repeat)))
    conversion._caches[True].clear()
    return result


# -- reporting --


def _median_ms(times) -> str:
    return f"{statistics.median(times) * 1000:.2f}" if times else "-"


def percentile(sorted_values, q):
    if not sorted_values:
        return float("nan")
    k = (len(sorted_values) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (k - lo)


def stats_ms(times):
    values = sorted(t * 1000 for t, _ in times)
    if not values:
        return ("-",) * 4
    return (
        f"{statistics.median(values):.2f}",
        f"{statistics.fmean(values):.2f}",
        f"{percentile(values, 0.9):.2f}",
        f"{values[-1]:.1f}",
    )


def table(headers, rows) -> str:
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows)]
    right = [i > 0 for i in range(len(headers))]

    def line(cells):
        parts = [str(c).rjust(w) if r else str(c).ljust(w) for c, w, r in zip(cells, widths, right)]
        return "| " + " | ".join(parts) + " |"

    sep = (
        "|"
        + "|".join(("-" * (w + 1) + ":") if r else ("-" * (w + 2)) for w, r in zip(widths, right))
        + "|"
    )
    return "\n".join([line(headers), sep, *(line(r) for r in rows)])


def left_text(result):
    items = [f"{n} {reason}" for reason, n in result.left.most_common()]
    return ", ".join(items) if items else "-"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few modules, one repeat")
    parser.add_argument(
        "--repeat",
        type=int,
        default=None,
        help="conversions per function (median taken); default 5, 1 with --quick",
    )
    parser.add_argument("--modules", nargs="+", help="modules to convert (default: a fixed list)")
    parser.add_argument("--slowest", type=int, default=10, help="slowest functions to list")
    parser.add_argument(
        "--wall",
        action="store_true",
        help="time wall-clock (time.perf_counter) instead of process CPU time",
    )
    args = parser.parse_args(argv)
    global timer
    if args.wall:
        timer = time.perf_counter
    repeat = args.repeat or (1 if args.quick else 5)
    names = args.modules or (QUICK_MODULES if args.quick else MODULES)

    print("# autoconv conversion speed")
    print(f"machine: {machine()}")
    print(f"command: python benchmarks/{os.path.basename(__file__)} {' '.join(sys.argv[1:])}")
    clock = "wall-clock time" if args.wall else "process CPU time"
    print(
        f"timing: {clock} of converted_code(func, recursive=True), cache cleared, median of "
        f"{repeat} conversion(s) per function"
    )
    print()

    results, skipped = [], []
    start = time.perf_counter()
    for name in names:
        try:
            results.append(bench_module(name, repeat))
        except ImportError as e:
            skipped.append(f"{name} ({e})")
    elapsed = time.perf_counter() - start

    rows = []
    for r in results:
        rows.append(
            [
                r.name,
                r.functions,
                r.converted,
                sum(r.left.values()),
                sum(r.python_only.values()),
                len(r.bugs),
                *stats_ms(r.times),
                _median_ms(r.guard_times),
                f"{r.parse_s * 1000:.1f}",
            ]
        )
    all_times = [t for r in results for t in r.times]
    total_left = collections.Counter()
    total_only = collections.Counter()
    for r in results:
        total_left.update(r.left)
        total_only.update(r.python_only)
    rows.append(
        [
            "**all**",
            sum(r.functions for r in results),
            sum(r.converted for r in results),
            sum(total_left.values()),
            sum(total_only.values()),
            sum(len(r.bugs) for r in results),
            *stats_ms(all_times),
            _median_ms([t for r in results for t in r.guard_times]),
            f"{sum(r.parse_s for r in results) * 1000:.1f}",
        ]
    )
    print(
        table(
            [
                "module",
                "functions",
                "converted",
                "left as Python",
                "generators/coroutines",
                "bugs",
                "median ms",
                "mean ms",
                "p90 ms",
                "max ms",
                "convert() median ms",
                "parse ms",
            ],
            rows,
        )
    )
    print()
    print("Left as Python (ConversionError), by reason:")
    if total_left:
        for r in results:
            if r.left:
                print(f"  {r.name}: {left_text(r)}")
    else:
        print("  none")
    only = ", ".join(f"{n} {kind}s" for kind, n in total_only.most_common()) or "none"
    print(f"Generators and coroutines (stay Python by design, not timed): {only}")
    kept = sum(r.with_kept for r in results)
    print(f"Converted with a statement left as Python inside (match): {kept}")
    print()

    overall = statistics.median(t for t, _ in all_times) * 1000 if all_times else float("nan")
    verdict = "meets" if overall <= TARGET_MS else "MISSES"
    print(
        f"Overall median: {overall:.2f} ms per function over {len(all_times)} functions "
        f"({verdict} the {TARGET_MS:g} ms target; TensorFlow's AutoGraph: about "
        f"{TENSORFLOW_MS:g} ms)."
    )
    print(f"Benchmark wall time: {elapsed:.1f} s")

    if args.slowest and all_times:
        print()
        print(f"Slowest {args.slowest} functions:")
        by_name = {id(t): r.name for r in results for t in r.times}
        for t in sorted(all_times, reverse=True)[: args.slowest]:
            print(f"  {t[0] * 1000:8.1f} ms  {by_name[id(t)]}:{t[1]}")

    if skipped:
        print()
        print("Skipped (not importable here): " + ", ".join(skipped))

    bugs = [(r.name, *b) for r in results for b in r.bugs]
    print()
    if bugs:
        print(f"BUGS: {len(bugs)} conversion(s) raised something other than ConversionError:")
        for module, qualname, where, message, _ in bugs:
            print(f"  {module}:{qualname} ({where}): {message}")
        return 1
    print("No conversion raised anything but ConversionError.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
