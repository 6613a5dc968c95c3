"""Third-party packages, converted by the CLI, against their own test suites.

    python tools/third_party.py                              # every package below, both modes
    python tools/third_party.py --packages toolz,pyparsing -v
    python tools/third_party.py --autoconv-src /work/main/src --out /tmp/third_party.md
    python tools/third_party.py --update-docs docs/cli.md  # rewrites the table there
    python tools/third_party.py --from-json /tmp/third_party.json  # render again, run nothing

Not run by CI: it needs PyPI (pip) and minutes per package. For each package it works in a
scratch folder (--work, default /tmp/third_party/): it downloads the pinned sdist (`pip download
--no-binary :all: --no-deps`) or, where the sdist ships no tests, takes the tagged tree from a
local git mirror; it installs pytest and the package's test dependencies into one venv
(/tmp/third_party/venv, made once). It then lays out two copies of the source tree that differ
only in the package itself: the original, and one where each package folder is replaced by
`python -m autoconv convert` output (test folders and conftest.py files are excluded from the
conversion and copied back as they are, so the tests are the package's own). The suite runs with
the tree's import root first on PYTHONPATH: once on the original, then on the converted copy in
the default mode and with AUTOCONV_ALWAYS_CONVERTED=1. A pytest plugin written next to the venv
checks in each run that every package under test was imported from the expected tree (its
`__file__`) and, for the converted copy, that `autoconv.runtime` was loaded.

Times are the CPU time of pytest's session (collection and tests, not interpreter start; CPU
time leaves out the waits for a core on a shared machine), with the ratio of wall times beside
it: the median of 3 runs where a suite's first run takes under 20 s, else that one run. Every
package runs in the default mode first, then every package again always converted. A regression
is a test that passes on the original and fails, errors or is missing on the converted copy.
Exit status 1 on any regression, a package imported from the wrong place, a run that gave no
result, or a file the CLI could not convert.
"""

import argparse
import dataclasses
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SRC = os.path.join(os.path.dirname(HERE), "src")
SHORT_SUITE_S = 20.0
REPEATS_FOR_SHORT = 3
MODES = ("original", "converted", "always")
MODE_TITLES = {
    "original": "original",
    "converted": "converted (default)",
    "always": "converted, AUTOCONV_ALWAYS_CONVERTED=1",
}
# Names never converted: the package's own tests stay as written (copied back after conversion).
TEST_NAMES = ("tests", "conftest.py")


@dataclasses.dataclass(frozen=True)
class Package:
    """A pinned PyPI package, where its import packages live, and how to run its test suite."""

    dist: str
    version: str
    packages: tuple
    """Top-level import packages (folders) to convert, relative to `root`."""
    pytest_args: tuple = ()
    root: str = ""
    """The import root inside the source tree ("" or "src")."""
    deps: tuple = ()
    git: tuple = ()
    """(owner/name, tag) when the sdist ships no tests: the tree is taken from a git mirror."""
    note: str = ""


PACKAGES = [
    Package(
        "sortedcontainers",
        "2.4.0",
        ("sortedcontainers",),
        git=("grantjenks/python-sortedcontainers", "v2.4.0"),
        note="tox.ini's suite: tests/, doctests of the package and docs/*.rst",
    ),
    Package(
        "pyparsing",
        "3.3.3",
        ("pyparsing",),
        ("tests", "examples/tiny/tests"),
        deps=("railroad-diagrams", "jinja2"),
        note="tox.ini's unit suite (matplotlib cases skip)",
    ),
    Package(
        "networkx",
        "3.6.1",
        ("networkx",),
        (
            "networkx/classes",
            "networkx/algorithms/shortest_paths",
            "networkx/algorithms/traversal",
            "networkx/algorithms/components",
            "networkx/generators",
        ),
        deps=("numpy",),
        note="five test folders of ~300 (the whole suite takes ~12 min here); numpy, no scipy",
    ),
    Package("more-itertools", "11.2.1", ("more_itertools",), ("tests",)),
    Package("toolz", "1.2.0", ("toolz", "tlz")),
    Package(
        "attrs",
        "26.1.0",
        ("attr", "attrs"),
        root="src",
        deps=("hypothesis", "pympler", "cloudpickle"),
        note="the tests dependency group without pytest-xdist",
    ),
]

# A pytest plugin, loaded with `-p _autoconv_third_party` in each run. It records every test's
# outcome and checks where the packages under test came from. Written as text so that the venv
# needs nothing of autoconv's.
PLUGIN = r"""
import importlib.util, json, os, sys, time

RESULT = os.environ["THIRD_PARTY_RESULT"]
ROOT = os.path.realpath(os.environ["THIRD_PARTY_ROOT"])
NAMES = os.environ["THIRD_PARTY_PACKAGES"].split(",")
outcomes, details, where = {}, {}, {}
started = [0.0, 0.0]

def _inside(path):
    return bool(path) and os.path.realpath(path).startswith(ROOT + os.sep)

def pytest_configure(config):
    for name in NAMES:
        spec = importlib.util.find_spec(name)
        where[name] = spec.origin if spec else None

def pytest_sessionstart(session):
    started[:] = [time.perf_counter(), time.process_time()]

def _record(nodeid, outcome, report):
    # A test's outcome is its worst report (a passing call with a failing teardown is an error).
    rank = {"skip": 0, "pass": 1, "fail": 2, "error": 3}
    if rank[outcome] >= rank[outcomes.get(nodeid, "skip")]:
        outcomes[nodeid] = outcome
        if outcome in ("fail", "error") and nodeid not in details:
            details[nodeid] = str(getattr(report, "longreprtext", ""))[-3000:]

def pytest_runtest_logreport(report):
    if report.when == "call":
        outcome = {"passed": "pass", "failed": "fail", "skipped": "skip"}[report.outcome]
        if hasattr(report, "wasxfail"):
            outcome = "pass"
        _record(report.nodeid, outcome, report)
    elif report.failed:
        _record(report.nodeid, "error", report)
    elif report.skipped and report.when == "setup":
        _record(report.nodeid, "skip", report)

def pytest_collectreport(report):
    if report.failed:
        _record(report.nodeid or "<collection>", "error", report)

def pytest_sessionfinish(session, exitstatus):
    wall, cpu = time.perf_counter() - started[0], time.process_time() - started[1]
    imported = {}
    for name in NAMES:
        module = sys.modules.get(name)
        imported[name] = getattr(module, "__file__", None) if module is not None else None
    with open(RESULT, "w") as f:
        json.dump({
            "outcomes": outcomes, "details": details, "seconds": cpu, "wall": wall,
            "found": where, "imported": imported,
            "wrong": sorted(n for n in NAMES if not _inside(imported[n] or where[n])),
            "runtime_loaded": "autoconv.runtime" in sys.modules,
            "exitstatus": int(exitstatus),
        }, f)
"""


@dataclasses.dataclass
class Run:
    """One mode's result: outcomes of the first run, session times of every run."""

    outcomes: dict = dataclasses.field(default_factory=dict)
    details: dict = dataclasses.field(default_factory=dict)
    times: list = dataclasses.field(default_factory=list)
    """CPU seconds of each run's session."""
    walls: list = dataclasses.field(default_factory=list)
    problem: str = ""

    def count(self, outcome: str) -> int:
        """How many tests ended with `outcome` ('pass', 'fail', 'error', 'skip')."""
        return sum(1 for value in self.outcomes.values() if value == outcome)

    @property
    def seconds(self) -> float:
        """The median CPU time of the session, or nan when there was none."""
        return statistics.median(self.times) if self.times else float("nan")

    @property
    def wall(self) -> float:
        """The median wall time of the session, or nan when there was none."""
        return statistics.median(self.walls) if self.walls else float("nan")


@dataclasses.dataclass
class Result:
    """A package's conversion totals and its three runs."""

    package: Package
    totals: dict = dataclasses.field(default_factory=dict)
    failed_files: list = dataclasses.field(default_factory=list)
    runs: dict = dataclasses.field(default_factory=dict)
    problem: str = ""

    def regressions(self, mode: str) -> list:
        """Test ids that pass on the original and fail or error in `mode`."""
        original, other = self.runs.get("original"), self.runs.get(mode)
        if original is None or other is None or other.problem:
            return []
        return sorted(
            test
            for test, outcome in original.outcomes.items()
            if outcome == "pass"
            and other.outcomes.get(test, "missing") in ("fail", "error", "missing")
        )


def sh(args: list, **kwargs) -> subprocess.CompletedProcess:
    """Runs a command, capturing its output as text."""
    return subprocess.run(args, capture_output=True, text=True, **kwargs)


def write_plugin(work: str) -> None:
    """Writes the pytest plugin into WORK/plugin, the folder each run puts last on PYTHONPATH."""
    os.makedirs(os.path.join(work, "plugin"), exist_ok=True)
    with open(os.path.join(work, "plugin", "_autoconv_third_party.py"), "w") as f:
        f.write(PLUGIN)


def ensure_venv(work: str, python: str, packages: list) -> str:
    """Makes the test venv once, and installs pytest and every package's test dependencies."""
    venv = os.path.join(work, "venv")
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        done = sh([python, "-m", "venv", venv])
        if done.returncode:
            raise SystemExit(f"cannot make the venv {venv}: {done.stderr}")
    # gast: the always-converted mode converts callees as they are called (the default mode
    # needs only `autoconv.runtime`, which imports nothing).
    wanted = ["pytest", "gast", *sorted({dep for package in packages for dep in package.deps})]
    done = sh(["nice", py, "-m", "pip", "install", "-q", *wanted])
    if done.returncode:
        raise SystemExit(f"pip install {' '.join(wanted)} failed:\n{done.stderr[-3000:]}")
    return py


def fetch_source(package: Package, work: str, py: str, mirrors: str) -> str:
    """Returns the pristine source tree of `package`, downloading or extracting it once."""
    tree = os.path.join(work, "src", f"{package.dist}-{package.version}")
    if os.path.isdir(tree):
        return tree
    os.makedirs(tree + ".tmp", exist_ok=True)
    if package.git:
        repo, tag = package.git
        git_dir = os.path.join(mirrors, repo.replace("/", "+"), "repo")
        if not os.path.isdir(git_dir):
            git_dir = os.path.join(work, "git", repo.replace("/", "+"))
            if not os.path.isdir(git_dir):
                url = f"https://github.com/{repo}.git"
                done = sh(["git", "clone", "--bare", "--branch", tag, "--depth", "1", url, git_dir])
                if done.returncode:
                    raise RuntimeError(f"no mirror of {repo} and cannot clone it: {done.stderr}")
        archive = subprocess.Popen(
            ["git", "--git-dir", git_dir, "archive", tag], stdout=subprocess.PIPE
        )
        sh(["tar", "x", "-C", tree + ".tmp"], stdin=archive.stdout, check=True)
        archive.wait()
    else:
        downloads = os.path.join(work, "sdist")
        spec = f"{package.dist}=={package.version}"
        done = sh(
            [
                py,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-binary",
                ":all:",
                "--no-deps",
                spec,
                "-d",
                downloads,
            ]
        )
        if done.returncode:
            raise RuntimeError(f"pip download {spec} failed: {done.stderr[-2000:]}")
        stem = f"{package.dist}-{package.version}".lower().replace("-", "_")
        names = [
            n
            for n in os.listdir(downloads)
            if n.endswith((".tar.gz", ".zip")) and n.lower().replace("-", "_").startswith(stem)
        ]
        sh(
            [
                "tar",
                "xzf",
                os.path.join(downloads, names[0]),
                "-C",
                tree + ".tmp",
                "--strip-components=1",
            ],
            check=True,
        )
    os.rename(tree + ".tmp", tree)
    # Installed without dependencies only for its metadata (entry points, importlib.metadata);
    # the runs import the package from their own tree, which comes first on the path.
    sh([py, "-m", "pip", "install", "-q", "--no-deps", tree])
    return tree


def copy_tests_back(original: str, converted: str) -> None:
    """Copies the test folders and conftest.py files of `original` into `converted`."""
    for folder, dirs, files in os.walk(original):
        relative = os.path.relpath(folder, original)
        for name in list(dirs):
            if name in TEST_NAMES:
                dirs.remove(name)
                target = os.path.join(converted, relative, name)
                shutil.rmtree(target, ignore_errors=True)
                shutil.copytree(os.path.join(folder, name), target)
        for name in files:
            if name in TEST_NAMES:
                shutil.copy2(os.path.join(folder, name), os.path.join(converted, relative, name))


def lay_out(package: Package, tree: str, work: str, autoconv_src: str, result: Result) -> dict:
    """Makes the original and converted copies of `tree`; returns mode -> tree copy."""
    base = os.path.join(work, "runs", package.dist)
    shutil.rmtree(base, ignore_errors=True)
    copies = {
        "original": os.path.join(base, "original"),
        "converted": os.path.join(base, "converted"),
    }
    for copy in copies.values():
        shutil.copytree(tree, copy, symlinks=True)
    out, report = os.path.join(base, "out"), os.path.join(base, "report.json")
    sources = [os.path.join(tree, package.root, name) for name in package.packages]
    excludes = [arg for name in TEST_NAMES for arg in ("--exclude", name)]
    env = dict(os.environ, PYTHONPATH=autoconv_src)
    done = sh(
        [
            sys.executable,
            "-m",
            "autoconv",
            "convert",
            *sources,
            "-o",
            out,
            "-q",
            "--report",
            report,
            *excludes,
        ],
        env=env,
        cwd=base,
    )
    if not os.path.exists(report):
        raise RuntimeError(
            f"autoconv convert gave no report (status {done.returncode}): {done.stderr[-2000:]}"
        )
    with open(report) as f:
        summary = json.load(f)
    result.totals = summary["totals"]
    result.failed_files = [
        f"{entry['path']}:{entry['error']['line']}: {entry['error']['message']}"
        for entry in summary["files"]
        if entry.get("error")
    ]
    for name in package.packages:
        target = os.path.join(copies["converted"], package.root, name)
        shutil.rmtree(target)
        shutil.move(os.path.join(out, name), target)
        copy_tests_back(os.path.join(tree, package.root, name), target)
    return {
        "original": copies["original"],
        "converted": copies["converted"],
        "always": copies["converted"],
    }


def run_suite(
    package: Package, copy: str, mode: str, py: str, work: str, autoconv_src: str, timeout: float
) -> dict:
    """Runs the suite once in `copy`; returns what the plugin wrote (or a 'problem')."""
    result_path = os.path.join(work, "runs", package.dist, f"result-{mode}.json")
    if os.path.exists(result_path):
        os.remove(result_path)
    root = os.path.join(copy, package.root)
    path = [root] + ([autoconv_src] if mode != "original" else []) + [os.path.join(work, "plugin")]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AUTOCONV_", "PYTHON"))}
    env.update(
        PYTHONPATH=os.pathsep.join(path),
        THIRD_PARTY_RESULT=result_path,
        THIRD_PARTY_ROOT=root,
        THIRD_PARTY_PACKAGES=",".join(package.packages),
        PYTHONHASHSEED="0",
    )
    if mode == "always":
        env["AUTOCONV_ALWAYS_CONVERTED"] = "1"
    args = [
        "nice",
        py,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "_autoconv_third_party",
    ]
    try:
        done = sh([*args, *package.pytest_args], cwd=copy, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"problem": f"timed out after {timeout:.0f} s"}
    if not os.path.exists(result_path):
        return {
            "problem": f"pytest exited {done.returncode} with no result: "
            + (done.stdout + done.stderr)[-1500:]
        }
    with open(result_path) as f:
        data = json.load(f)
    if data["exitstatus"] not in (0, 1):
        data["problem"] = f"pytest exited {data['exitstatus']}: {done.stdout[-1500:]}"
    elif data["wrong"]:
        data["problem"] = (
            f"imported from the wrong place: {data['imported']} (expected under {root})"
        )
    elif mode != "original" and not data["runtime_loaded"]:
        data["problem"] = "autoconv.runtime was never imported: the converted copy did not run"
    return data


def prepare(package: Package, args, py: str) -> tuple:
    """Fetches and converts one package; returns its Result and its copies (mode -> tree)."""
    result = Result(package)
    try:
        tree = fetch_source(package, args.work, py, args.mirrors)
        return result, lay_out(package, tree, args.work, args.autoconv_src, result)
    except (RuntimeError, OSError, subprocess.CalledProcessError) as error:
        result.problem = str(error)
        return result, {}


def run_mode(result: Result, copy: str, mode: str, args, py: str, log) -> None:
    """Runs the suite of `result`'s package in `mode`: three times if a run is short, else once."""
    package = result.package
    run = result.runs[mode] = Run()
    repeats = 1
    while len(run.times) < repeats:
        data = run_suite(package, copy, mode, py, args.work, args.autoconv_src, args.timeout)
        if data.get("problem"):
            run.problem = data["problem"]
            log(f"  {package.dist} {mode}: {run.problem}")
            return
        if not run.times:
            run.outcomes, run.details = data["outcomes"], data["details"]
            if data["seconds"] < SHORT_SUITE_S:
                repeats = REPEATS_FOR_SHORT
        run.times.append(data["seconds"])
        run.walls.append(data["wall"])
        log(
            f"  {package.dist} {mode}: {data['seconds']:.2f} s CPU, {data['wall']:.2f} s wall, "
            f"{run.count('pass')} passed"
        )


def seconds(value: float) -> str:
    """'1.23 s' or '456 ms'."""
    if value != value:
        return "-"
    return f"{value:.2f} s" if value >= 1 else f"{value * 1000:.0f} ms"


def counts(run: Run | None) -> str:
    """'passed / failed / errors' of one run, or its problem."""
    if run is None:
        return "-"
    if run.problem:
        return "no result"
    return f"{run.count('pass')} / {run.count('fail')} / {run.count('error')}"


def table(results: list, modes: tuple) -> list:
    """Markdown lines: one row per package and converted mode."""
    nan = float("nan")
    lines = [
        "| package | version | mode | functions converted / left as Python (generators) "
        "| passed / failed / errors original | passed / failed / errors converted | regressions "
        "| CPU original | CPU converted | ratio | wall ratio | runs timed (original / converted) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for result in results:
        package = result.package
        if result.problem:
            lines.append(
                f"| {package.dist} | {package.version} | - | no result: {result.problem[:200]} |"
                + " - |" * 8
            )
            continue
        totals = result.totals
        generators = totals.get("generators_and_coroutines", 0)
        functions = f"{totals.get('converted', 0)} / {totals.get('left', 0)} ({generators})"
        original = result.runs.get("original")
        for mode in modes:
            if mode == "original":
                continue
            run = result.runs.get(mode)
            timed = run and original and original.times and run.times
            ratio = run.seconds / original.seconds if timed else None
            walls = run.wall / original.wall if timed else None
            lines.append(
                f"| {package.dist} | {package.version} | {MODE_TITLES[mode]} | {functions} "
                f"| {counts(original)} | {counts(run)} | {len(result.regressions(mode))} "
                f"| {seconds(original.seconds if original else nan)} "
                f"| {seconds(run.seconds if run else nan)} | {f'{ratio:.2f}×' if ratio else '-'} "
                f"| {f'{walls:.2f}×' if walls else '-'} "
                f"| {len(original.times) if original else 0} / {len(run.times) if run else 0} |"
            )
    return lines


def failures(results: list, modes: tuple, limit: int, verbose: bool) -> list:
    """Markdown lines naming the first `limit` regressions of each package and mode."""
    lines = []
    for result in results:
        for mode in modes:
            if mode == "original":
                continue
            run = result.runs.get(mode)
            if run is not None and run.problem:
                lines.append(
                    f"- **{result.package.dist}, {MODE_TITLES[mode]}**: "
                    f"no result: {run.problem[:500]}"
                )
                continue
            lost = result.regressions(mode)
            if not lost:
                continue
            lines.append(
                f"- **{result.package.dist}, {MODE_TITLES[mode]}**: {len(lost)} regressions"
            )
            for test in lost[:limit]:
                detail = run.details.get(test, "").strip().splitlines()
                # pytest's first `E ` line is the exception; -v adds the end of the report.
                first = next((line[1:].strip() for line in detail if line.startswith("E ")), "")
                lines.append(f"  - `{test}`" + (f": `{first[:160]}`" if first else ""))
                if verbose:
                    lines.extend(f"    {line}" for line in detail[-6:])
        for path in result.failed_files:
            lines.append(f"- {result.package.dist}: the CLI failed on {path}")
    return lines


def update_docs(path: str, text: str) -> None:
    """Replaces what lies between the third-party markers of the page `path` with `text`."""
    begin, end = "<!-- third-party:begin -->", "<!-- third-party:end -->"
    with open(path, encoding="utf-8") as f:
        page = f.read()
    if page.count(begin) != 1 or page.count(end) != 1:
        raise SystemExit(f"third_party: {path} needs one {begin} and one {end} marker")
    head, rest = page.split(begin)
    tail = rest.split(end)[1]
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"{head}{begin}\n{text}\n{end}{tail}")


def write_json(path: str, results: list) -> None:
    """Writes every outcome, failure detail and time of `results` to `path`."""
    with open(path, "w") as f:
        json.dump(
            [
                {
                    "package": r.package.dist,
                    "version": r.package.version,
                    "spec": dataclasses.asdict(r.package),
                    "totals": r.totals,
                    "problem": r.problem,
                    "failed_files": r.failed_files,
                    "runs": {mode: dataclasses.asdict(run) for mode, run in r.runs.items()},
                    "regressions": {m: r.regressions(m) for m in r.runs if m != "original"},
                }
                for r in results
            ],
            f,
            indent=1,
        )


def read_json(path: str) -> list:
    """The Results that `write_json` wrote to `path`."""
    with open(path) as f:
        entries = json.load(f)
    results = []
    for entry in entries:
        spec = {key: tuple(v) if isinstance(v, list) else v for key, v in entry["spec"].items()}
        result = Result(Package(**spec), entry["totals"], entry["failed_files"])
        result.problem = entry["problem"]
        result.runs = {mode: Run(**run) for mode, run in entry["runs"].items()}
        results.append(result)
    return results


def load() -> str:
    """The load averages, for the report's header."""
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


def report(results: list, args, header: list) -> int:
    """Prints the tables and regressions, writes the files asked for; returns the exit status."""
    lines = header + table(results, args.modes) + [""]
    listed = failures(results, args.modes, args.failures, args.verbose)
    if listed:
        lines += [f"Regressions (first {args.failures} per package and mode):", ""] + listed + [""]
    text = "\n".join(lines)
    print(text)
    if args.update_docs:
        update_docs(args.update_docs, "\n".join(header + table(results, args.modes)))
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    if args.json:
        write_json(args.json, results)
    bad = any(
        r.problem
        or r.failed_files
        or any(run.problem or r.regressions(m) for m, run in r.runs.items())
        for r in results
    )
    return 1 if bad else 0


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packages", help="comma-separated PyPI names (default: all)")
    parser.add_argument(
        "--autoconv-src", default=DEFAULT_SRC, help="the autoconv src folder to convert with"
    )
    parser.add_argument("--work", default="/tmp/third_party", help="scratch folder")
    parser.add_argument("--mirrors", default="/work/.mirror", help="git mirrors (owner+name/repo)")
    parser.add_argument(
        "--python", default=None, help="interpreter for the venv (default: this one's base)"
    )
    parser.add_argument(
        "--modes", default=",".join(MODES), help="comma-separated: " + ", ".join(MODES)
    )
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per pytest run")
    parser.add_argument("--failures", type=int, default=10, help="regressions listed per package")
    parser.add_argument("--out", help="also write the Markdown report to this file")
    parser.add_argument(
        "--update-docs", metavar="PAGE", help="rewrite the table in PAGE (docs/cli.md)"
    )
    parser.add_argument("--from-json", metavar="PATH", help="only render a --json file again")
    parser.add_argument("--json", help="write every outcome and failure detail as JSON here")
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="show the end of each regression's report"
    )
    args = parser.parse_args(argv)
    args.autoconv_src = os.path.abspath(args.autoconv_src)
    args.modes = tuple(mode for mode in MODES if mode in args.modes.split(","))
    if "original" not in args.modes:
        parser.error("--modes must include original (the baseline)")
    wanted = args.packages.split(",") if args.packages else [p.dist for p in PACKAGES]
    unknown = set(wanted) - {p.dist for p in PACKAGES}
    if unknown:
        parser.error(f"unknown packages {sorted(unknown)}; known: {[p.dist for p in PACKAGES]}")
    packages = [p for name in wanted for p in PACKAGES if p.dist == name]
    write_plugin(args.work)
    python = args.python or os.path.join(sys.base_prefix, "bin", "python3")

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    if args.from_json:
        results = read_json(args.from_json)
        header = [f"Rendered from {args.from_json} (`--from-json`): no suite was run.", ""]
        return report(results, args, header)
    py = ensure_venv(args.work, python, packages)
    started, load_before = time.time(), load()
    prepared = []
    for package in packages:
        log(f"{package.dist} {package.version}: fetching and converting")
        prepared.append(prepare(package, args, py))
    results = [result for result, _ in prepared]
    # Every package in the default mode first, then every package always converted: a run cut
    # short still has the first table whole (--json is rewritten after each suite).
    for phase in (("original", "converted"), ("always",)):
        for result, copies in prepared:
            for mode in phase:
                if mode in args.modes and copies:
                    run_mode(result, copies[mode], mode, args, py, log)
                    if args.json:
                        write_json(args.json, results)
    revision = (
        sh(["git", "-C", args.autoconv_src, "rev-parse", "--short", "HEAD"]).stdout.strip()
        or "unknown"
    )
    command = "python tools/third_party.py " + " ".join(argv if argv is not None else sys.argv[1:])
    header = [
        f"Measured {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC "
        f"by `{command.strip()}`, autoconv {args.autoconv_src} at {revision}; "
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, "
        f"load {load_before} before and {load()} after; {time.time() - started:.0f} s in all.",
        "",
    ]
    return report(results, args, header)


if __name__ == "__main__":
    sys.exit(main())
