"""Drop-in conformance: CPython's own tests, run against converted copies of stdlib modules.

    python tools/stdlib_conformance.py                 # every module below
    python tools/stdlib_conformance.py --ci            # the CI subset (five modules)
    python tools/stdlib_conformance.py --ci --always-converted   # functional forms everywhere
    python tools/stdlib_conformance.py --modules heapq,json -v
    python tools/stdlib_conformance.py --update-docs docs/cli.md

Converts the pure-Python modules with `autoconv convert` into a temporary folder, then runs each
module's test suite from CPython's `test` package twice, each in its own subprocess with a
timeout: once against the original module, once with the converted folder first on `sys.path`.
Both runs block the same C accelerators (`sys.modules['_heapq'] = None`, ...), so the pure-Python
code is what runs; test modules that test both variants through `import_fresh_module` then pick
up the converted copy for each. Each run checks that the module objects under test (in
`sys.modules` and in the test module's namespace) come from the expected folder.

Per module: functions found, converted and left as Python (generators and coroutines stay Python
by design and are not counted in the rate); tests run, failed and errored for both runs; and the
ratio of the converted run's test time to the original's (the suite alone, not interpreter start).

Exit status 1 on any regression: a test that passes on the original and not on the converted
copy, a converted module that is not the one under test, a file the CLI could not convert, a
conversion rate under --min-rate, or (only when --max-ratio is given) a total time ratio over it.
"""

import argparse
import ast
import dataclasses
import json
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time


@dataclasses.dataclass(frozen=True)
class Module:
    """A stdlib module or package, its CPython test module, and the C accelerators to block."""

    name: str
    test: str
    blocked: tuple = ()

    @property
    def source(self) -> str:
        """The module's file or package folder in the installed standard library."""
        stdlib = sysconfig.get_paths()["stdlib"]
        folder = os.path.join(stdlib, self.name)
        return folder if os.path.isdir(folder) else folder + ".py"


MODULES = [
    # The CI subset.
    Module("heapq", "test.test_heapq", ("_heapq",)),
    Module("bisect", "test.test_bisect", ("_bisect",)),
    Module("colorsys", "test.test_colorsys"),
    Module("textwrap", "test.test_textwrap"),
    Module("graphlib", "test.test_graphlib"),
    # Small pure-Python modules.
    Module("fnmatch", "test.test_fnmatch"),
    Module("shlex", "test.test_shlex"),
    Module("string", "test.test_string"),
    Module("statistics", "test.test_statistics", ("_statistics",)),
    Module("json", "test.test_json", ("_json",)),
    Module("difflib", "test.test_difflib"),
    Module("tomllib", "test.test_tomllib"),
    Module("base64", "test.test_base64"),
    Module("calendar", "test.test_calendar"),
    Module("ipaddress", "test.test_ipaddress"),
    Module("fractions", "test.test_fractions"),
    Module("getopt", "test.test_getopt"),
    Module("glob", "test.test_glob"),
    Module("pprint", "test.test_pprint"),
    Module("reprlib", "test.test_reprlib"),
    Module("quopri", "test.test_quopri"),
    Module("netrc", "test.test_netrc"),
    Module("configparser", "test.test_configparser"),
    Module("copy", "test.test_copy"),
    Module("random", "test.test_random"),
    Module("csv", "test.test_csv"),
    Module("tokenize", "test.test_tokenize"),
    Module("gettext", "test.test_gettext"),
    Module("html", "test.test_htmlparser"),
    # Pure-Python variants that the tests select with import_fresh_module.
    Module("operator", "test.test_operator", ("_operator",)),
    Module("functools", "test.test_functools", ("_functools",)),
    Module("_pydecimal", "test.test_decimal", ("_decimal",)),
    Module("pickle", "test.test_pickle", ("_pickle",)),
    # Large modules; most are also used by unittest itself while the tests run.
    Module("collections", "test.test_collections"),
    Module("dataclasses", "test.test_dataclasses"),
    Module("enum", "test.test_enum"),
    Module("argparse", "test.test_argparse"),
    Module("optparse", "test.test_optparse"),
    Module("pathlib", "test.test_pathlib"),
    Module("zipfile", "test.test_zipfile"),
    Module("tarfile", "test.test_tarfile"),
    Module("email", "test.test_email"),
    Module("re", "test.test_re"),
    Module("inspect", "test.test_inspect"),
    Module("typing", "test.test_typing"),
]
# Not listed: `ast` (test_ast reads the stdlib's test files next to ast.__file__) and `datetime`
# (test_datetime imports its tests through import_fresh_module and drops them from sys.modules,
# so the module under test cannot be checked).
CI_MODULES = ["heapq", "bisect", "colorsys", "textwrap", "graphlib"]

# Runs in a fresh interpreter, importing nothing before the path is set up and the accelerators
# are blocked (any stdlib import could pull in the module under test from the wrong place).
# argv: folder ("" for the original), module, test module, result path, blocked accelerators...
# The result is written as a Python literal, so that no module under test is needed to write it.
RUNNER = r"""
import sys
folder, name, test_name, result_path, *blocked = sys.argv[1:]
if folder:
    sys.path.insert(0, folder)
for accelerator in blocked:
    sys.modules[accelerator] = None
import importlib, os, time, types, unittest

class Result(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.outcomes = {}
    def _set(self, test, outcome, err=None):
        key = test.id()
        if self.outcomes.get(key, ("pass",))[0] in ("pass", "skip"):
            detail = self._exc_info_to_string(err, test)[-4000:] if err else ""
            self.outcomes[key] = (outcome, detail)
    def addSuccess(self, test):
        super().addSuccess(test)
        self.outcomes.setdefault(test.id(), ("pass", ""))
    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._set(test, "fail", err)
    def addError(self, test, err):
        super().addError(test, err)
        self._set(test, "error", err)
    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self._set(test, "fail" if failed else "error", err)
    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.outcomes.setdefault(test.id(), ("skip", ""))
    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.outcomes.setdefault(test.id(), ("pass", ""))
    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._set(test, "fail")

start = time.perf_counter()
suite = unittest.defaultTestLoader.loadTestsFromName(test_name)
loaded = time.perf_counter()
result = Result()
suite.run(result)
finished = time.perf_counter()

under_test = set()
def note(module):
    # The spec's name, not __name__: _pydecimal calls itself 'decimal'.
    if isinstance(module, types.ModuleType) and getattr(module.__spec__, "name", None) == name:
        under_test.add(getattr(module, "__file__", None) or "<no file>")
if sys.modules.get(name) is not None:
    note(sys.modules[name])
for key, module in list(sys.modules.items()):
    if module is not None and (key == test_name or key.startswith(test_name + ".")):
        for value in list(vars(module).values()):
            note(value)
with open(result_path, "w") as f:
    f.write(repr({
        "run": result.testsRun,
        "failed": len(result.failures) + len(result.unexpectedSuccesses),
        "errored": len(result.errors),
        "skipped": len(result.skipped),
        "outcomes": result.outcomes,
        "load_s": loaded - start,
        "run_s": finished - loaded,
        "under_test": sorted(under_test),
        "runtime_loaded": "autoconv.runtime" in sys.modules,
    }))
"""


@dataclasses.dataclass
class Run:
    """One test-suite run (original or converted)."""

    run: int = 0
    failed: int = 0
    errored: int = 0
    skipped: int = 0
    seconds: float = 0.0
    outcomes: dict = dataclasses.field(default_factory=dict)
    problem: str = ""
    """Why the run gave no result (a crash or timeout), or why its module is the wrong one."""
    output: str = ""


@dataclasses.dataclass
class Row:
    """Everything measured for one module."""

    module: Module
    functions: int = 0
    converted: int = 0
    generators: int = 0
    conversion_errors: list = dataclasses.field(default_factory=list)
    original: Run = dataclasses.field(default_factory=Run)
    copy: Run = dataclasses.field(default_factory=Run)

    @property
    def counted(self) -> int:
        return self.functions - self.generators

    @property
    def ratio(self) -> float:
        return self.copy.seconds / self.original.seconds if self.original.seconds else 0.0

    @property
    def regressions(self) -> list:
        """Test ids that pass on the original and not on the converted copy."""
        return sorted(
            test
            for test, (outcome, _) in self.original.outcomes.items()
            if outcome == "pass" and self.copy.outcomes.get(test, ("missing",))[0] != "pass"
        )

    @property
    def problems(self) -> list:
        found = [f"conversion: {e}" for e in self.conversion_errors]
        found += [f"original run: {self.original.problem}"] if self.original.problem else []
        found += [f"converted run: {self.copy.problem}"] if self.copy.problem else []
        found += [f"regression: {t}" for t in self.regressions]
        return found


def convert(modules: list, folder: str, report_path: str) -> dict:
    """Runs the CLI over the modules; returns the report's entries by input path."""
    command = [
        sys.executable,
        "-m",
        "autoconv",
        "convert",
        *[m.source for m in modules],
        "-o",
        folder,
        "--report",
        report_path,
        "--quiet",
    ]
    completed = subprocess.run(command, capture_output=True, text=True)
    if completed.returncode not in (0, 1) or not os.path.exists(report_path):
        sys.exit(
            f"stdlib_conformance: `{' '.join(command)}` failed with status "
            f"{completed.returncode}:\n{completed.stderr}"
        )
    with open(report_path) as f:
        return {entry["path"]: entry for entry in json.load(f)["files"]}


def fill_conversion(row: Row, entries: dict) -> None:
    """Adds up the report entries of the row's module (one file, or a package's files)."""
    source = row.module.source
    for path, entry in entries.items():
        if path == source or path.startswith(source + os.sep):
            row.functions += entry["functions"]
            row.converted += entry["converted"]
            row.generators += sum(item["generator_or_coroutine"] for item in entry["left"])
            if entry["error"]:
                row.conversion_errors.append(
                    f"{path}:{entry['error']['line']}: {entry['error']['message']}"
                )


ALWAYS_CONVERTED = False  # --always-converted


def _autoconv_root() -> str:
    """The folder that holds the `autoconv` package `python -m autoconv` runs here."""
    import importlib.util

    return os.path.dirname(os.path.dirname(importlib.util.find_spec("autoconv").origin))


def run_tests(module: Module, folder: str, use_copy: bool, timeout: float) -> Run:
    """Runs the module's test suite in a subprocess: on the converted copy in `folder` (first on
    the path) when `use_copy`, else on the original."""
    with tempfile.TemporaryDirectory(prefix="autoconv-conformance-") as scratch:
        result_path = os.path.join(scratch, "result.json")
        cwd = os.path.join(scratch, "cwd")
        os.mkdir(cwd)
        env = dict(os.environ, AUTOCONV_STRICT="1", PYTHONHASHSEED="0")
        if ALWAYS_CONVERTED:
            env["AUTOCONV_ALWAYS_CONVERTED"] = "1"
        # Nothing of the caller's path but the autoconv under test (a checkout's `src` need not
        # be the installed one): the converted copy imports its runtime.
        env["PYTHONPATH"] = _autoconv_root()
        command = [
            sys.executable,
            "-c",
            RUNNER,
            folder if use_copy else "",
            module.name,
            module.test,
            result_path,
            *module.blocked,
        ]
        try:
            completed = subprocess.run(
                command,
                cwd=cwd,
                env=env,
                capture_output=True,
                text=True,
                errors="replace",
                timeout=timeout,
            )
        except subprocess.TimeoutExpired as e:
            output = (e.stdout or b"")[-4000:]
            return Run(problem=f"timed out after {timeout:.0f} s", output=str(output))
        output = (completed.stdout + completed.stderr)[-8000:]
        if not os.path.exists(result_path):
            return Run(
                problem=f"the test process exited with status {completed.returncode} "
                "before reporting",
                output=output,
            )
        with open(result_path) as f:
            data = ast.literal_eval(f.read())
    run = Run(
        data["run"],
        data["failed"],
        data["errored"],
        data["skipped"],
        data["run_s"],
        {test: tuple(v) for test, v in data["outcomes"].items()},
        output=output,
    )
    run.problem = _check_under_test(module, folder, use_copy, data)
    return run


def _check_under_test(module: Module, folder: str, use_copy: bool, data: dict) -> str:
    """'' if the run used the converted copy in `folder` (`use_copy`) or the original, else
    what it used instead."""
    files = data["under_test"]
    if not files:
        return f"no module named {module.name} was found in the test's namespace"
    root = os.path.realpath(folder) + os.sep
    inside = [f for f in files if os.path.realpath(f).startswith(root)]
    if use_copy and len(inside) != len(files):
        return f"the tests used {sorted(set(files) - set(inside))}, not the converted copy"
    if use_copy and not data["runtime_loaded"]:
        return "autoconv.runtime was never imported: the converted copy did not run"
    if not use_copy and inside:
        return f"the original run used the converted copy {inside}"
    return ""


def table(rows: list) -> str:
    """The results as a Markdown table, with a totals row."""
    head = (
        "| module | functions | converted | left (generators) | rate | tests | "
        "failed / errored (original) | failed / errored (converted) | regressions | "
        "time original | time converted | ratio |"
    )
    lines = [head, "|" + " --- |" * head.count(" | ") + " --- |"]
    for r in rows:
        lines.append(
            f"| {r.module.name} | {r.functions} | {r.converted} | "
            f"{r.functions - r.converted} ({r.generators}) | {_rate(r.converted, r.counted)} | "
            f"{_tests(r)} | {r.original.failed} / {r.original.errored} | "
            f"{r.copy.failed} / {r.copy.errored} | {_regressions(r)} | "
            f"{_seconds(r.original.seconds)} | {_seconds(r.copy.seconds)} | {r.ratio:.2f}× |"
        )
    functions = sum(r.functions for r in rows)
    converted = sum(r.converted for r in rows)
    generators = sum(r.generators for r in rows)
    original = sum(r.original.seconds for r in rows)
    copy = sum(r.copy.seconds for r in rows)
    lines.append(
        f"| **total** | {functions} | {converted} | {functions - converted} ({generators}) | "
        f"{_rate(converted, functions - generators)} | {sum(r.original.run for r in rows)} | "
        f"{sum(r.original.failed for r in rows)} / {sum(r.original.errored for r in rows)} | "
        f"{sum(r.copy.failed for r in rows)} / {sum(r.copy.errored for r in rows)} | "
        f"{sum(len(r.regressions) for r in rows)} | {_seconds(original)} | {_seconds(copy)} | "
        f"{copy / original if original else 0:.2f}× |"
    )
    return "\n".join(lines) + "\n"


def _tests(row: Row) -> str:
    """Tests run on the original, and on the copy when that differs."""
    if row.copy.run == row.original.run:
        return str(row.original.run)
    return f"{row.original.run} / {row.copy.run}"


def _regressions(row: Row) -> str:
    """The regression count, or what kept a run from giving one."""
    if row.copy.problem or row.original.problem:
        return "run failed"
    return str(len(row.regressions))


def _seconds(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds >= 1 else f"{1000 * seconds:.0f} ms"


def _rate(converted: int, counted: int) -> str:
    return f"{100 * converted / counted:.1f}%" if counted else "n/a"


def update_docs(path: str, text: str) -> None:
    """Replaces the text between the conformance markers of `path` with `text` (the
    `conformance-always` markers with --always-converted)."""
    marker = "conformance-always" if ALWAYS_CONVERTED else "conformance"
    begin, end = f"<!-- {marker}:begin -->", f"<!-- {marker}:end -->"
    with open(path) as f:
        document = f.read()
    if begin not in document or end not in document:
        sys.exit(f"stdlib_conformance: {path} has no {begin} ... {end} markers")
    head, rest = document.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(f"{head}{begin}\n{text}{end}{tail}")


def measure(modules: list, folder: str, entries: dict, args) -> list:
    """Runs each module's tests on the original and on the converted copy; returns the rows."""
    rows = []
    for module in modules:
        row = Row(module)
        fill_conversion(row, entries)
        row.original = run_tests(module, folder, False, args.timeout)
        row.copy = run_tests(module, folder, True, args.timeout)
        for _ in range(args.repeat - 1):  # timing only: the fastest of the runs counts
            if row.original.problem or row.copy.problem or row.original.seconds > 2:
                break  # long suites time steadily enough in one run
            for run, again in (
                (row.original, run_tests(module, folder, False, args.timeout)),
                (row.copy, run_tests(module, folder, True, args.timeout)),
            ):
                if not again.problem:
                    run.seconds = min(run.seconds, again.seconds)
        rows.append(row)
        status = "ok" if not row.problems else f"{len(row.problems)} problem(s)"
        print(
            f"{module.name}: {row.original.run} tests, {row.ratio:.2f}× time, {status}",
            file=sys.stderr,
        )
    return rows


def verdict(rows: list, args) -> tuple:
    """(summary line, failures) over all rows."""
    functions = sum(r.counted for r in rows)
    rate = sum(r.converted for r in rows) / functions if functions else 1.0
    original = sum(r.original.seconds for r in rows)
    total_ratio = sum(r.copy.seconds for r in rows) / original if original else 0.0
    ratios = [r.ratio for r in rows if r.original.seconds] or [0.0]
    regressions = sum(len(r.regressions) for r in rows)
    line = (
        f"{len(rows)} modules; {regressions} regressions; conversion rate {100 * rate:.1f}% "
        "(generators and coroutines not counted); time ratio: total "
        f"{total_ratio:.2f}×, median {statistics.median(ratios):.2f}×"
    )
    failures = [f"{r.module.name}: {p}" for r in rows for p in r.problems]
    if rate < args.min_rate:
        failures.append(f"conversion rate {100 * rate:.1f}% is under {100 * args.min_rate:.0f}%")
    if args.max_ratio is not None and total_ratio > args.max_ratio:
        failures.append(f"time ratio {total_ratio:.2f}× is over {args.max_ratio}×")
    return line, failures


def write_json(path: str, rows: list) -> None:
    """The results as JSON, one entry per module."""
    runs = ("run", "failed", "errored", "skipped", "seconds")
    with open(path, "w") as f:
        json.dump(
            [
                {
                    "module": r.module.name,
                    "functions": r.functions,
                    "converted": r.converted,
                    "generators_and_coroutines": r.generators,
                    "original": {k: getattr(r.original, k) for k in runs},
                    "converted_copy": {k: getattr(r.copy, k) for k in runs},
                    "ratio": r.ratio,
                    "regressions": r.regressions,
                    "problems": r.problems,
                }
                for r in rows
            ],
            f,
            indent=1,
        )


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ci", action="store_true", help="only " + ", ".join(CI_MODULES))
    parser.add_argument("--modules", help="comma-separated module names (default: all)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per test run")
    parser.add_argument(
        "--min-rate",
        type=float,
        default=0.95,
        help="least share of functions converted, over all modules",
    )
    parser.add_argument(
        "--max-ratio",
        type=float,
        default=None,
        help="fail when the total time ratio, converted / original, is above this (off by "
        "default: timings on a shared machine are not a verdict on correctness)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="runs of each suite under 2 s; the fastest counts for the time (default 3)",
    )
    parser.add_argument(
        "--always-converted",
        action="store_true",
        help="run the converted copies in the always-converted mode (AUTOCONV_ALWAYS_CONVERTED=1): "
        "their functions run the functional form instead of the original statements",
    )
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument(
        "--update-docs",
        metavar="PATH",
        help="write the table between the conformance markers of PATH",
    )
    parser.add_argument("--keep", metavar="DIR", help="convert into DIR and keep it")
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="show the tracebacks of regressions"
    )
    args = parser.parse_args(argv)
    global ALWAYS_CONVERTED
    ALWAYS_CONVERTED = args.always_converted

    names = CI_MODULES if args.ci else [m.name for m in MODULES]
    if args.modules:
        names = [n.strip() for n in args.modules.split(",") if n.strip()]
    known = {m.name: m for m in MODULES}
    unknown = [n for n in names if n not in known]
    if unknown:
        parser.error(f"unknown modules {unknown}; known: {', '.join(known)}")
    modules = [known[n] for n in names]

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="autoconv-stdlib-") as scratch:
        folder = os.path.abspath(args.keep) if args.keep else os.path.join(scratch, "lib")
        entries = convert(modules, folder, os.path.join(scratch, "report.json"))
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", folder], check=False, capture_output=True
        )
        rows = measure(modules, folder, entries, args)

    text = table(rows)
    line, failures = verdict(rows, args)
    print(text)
    print(f"{line}; {time.perf_counter() - started:.0f} s in all")
    for failure in failures:
        print("FAIL " + failure)
    if args.verbose:
        for r in rows:
            for test in r.regressions:
                detail = r.copy.outcomes.get(test, ("missing", "(not run)"))[1]
                print(f"\n=== {r.module.name}: {test}\n{detail}")
            for run in (r.original, r.copy):
                if run.problem and run.output:
                    print(f"\n=== {r.module.name}: output\n{run.output}")
    if args.json:
        write_json(args.json, rows)
    if args.update_docs:
        command = "python tools/stdlib_conformance.py" + (" --ci" if args.ci else "")
        command += " --always-converted" if ALWAYS_CONVERTED else ""
        stamp = f"Produced by `{command}` on Python {sys.version.split()[0]}: {line}.\n\n"
        update_docs(args.update_docs, stamp + text)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
