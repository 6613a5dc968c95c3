"""Robustness over the whole installed standard library: `autoconv convert` on every `.py` file.

    python benchmarks/stdlib_robustness.py              # --jobs 2, the reference setting
    python benchmarks/stdlib_robustness.py --jobs 8 --keep /tmp/stdlib-converted

Runs the CLI once over the standard-library folder (site-packages excluded) into a temporary
folder and times it. Then checks, from the `--report` JSON and the written files:

- every output compiles (`compile()`, in parallel over --jobs processes);
- every function left as Python has a reason;
- every file the CLI reported as failed is one that Python itself cannot compile (CPython's test
  data holds Python 2 files, bad encodings and deliberate syntax errors), so no failure is the
  converter's.

Prints the time, the counts, and the most common reasons functions stay Python. Exit status 1 if
a check fails, or if the conversion took longer than --max-seconds (when given).
Target: under 60 s with --jobs 2.
"""

import argparse
import collections
import json
import os
import resource
import subprocess
import sys
import sysconfig
import tempfile
import time
import warnings
from concurrent.futures import ProcessPoolExecutor


def _children_cpu() -> float:
    """User and system time of the finished child processes so far (their workers included)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def compiles(path: str) -> str:
    """'' if the file at `path` compiles, else why not."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(data, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, UnicodeDecodeError, OSError) as e:
        return f"{type(e).__name__}: {e}"
    return ""


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="processes for the CLI (default 2)")
    parser.add_argument(
        "--stdlib",
        default=sysconfig.get_paths()["stdlib"],
        help="the standard-library folder (default: this Python's)",
    )
    parser.add_argument("--keep", metavar="DIR", help="convert into DIR and keep it")
    parser.add_argument(
        "--max-seconds", type=float, help="fail when the conversion takes longer than this"
    )
    parser.add_argument(
        "--update-docs",
        metavar="PATH",
        help="write the results between the robustness markers of PATH",
    )
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="autoconv-stdlib-") as scratch:
        out = os.path.abspath(args.keep) if args.keep else os.path.join(scratch, "out")
        report_path = os.path.join(scratch, "report.json")
        command = [
            sys.executable,
            "-m",
            "autoconv",
            "convert",
            args.stdlib,
            "-o",
            out,
            "--jobs",
            str(args.jobs),
            "--exclude",
            "site-packages",
            "--report",
            report_path,
            "--quiet",
        ]
        started, before = time.perf_counter(), _children_cpu()
        completed = subprocess.run(command, capture_output=True, text=True)
        seconds, cpu = time.perf_counter() - started, _children_cpu() - before
        if completed.returncode not in (0, 1) or not os.path.exists(report_path):
            print(completed.stderr[-4000:])
            print(f"FAIL the CLI exited with status {completed.returncode}")
            return 1
        with open(report_path) as f:
            document = json.load(f)

        entries = document["files"]
        written = [e for e in entries if not e["error"]]
        failed = [e for e in entries if e["error"]]
        started = time.perf_counter()
        with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            output_errors = list(pool.map(compiles, [e["output"] for e in written], chunksize=16))
            input_errors = list(pool.map(compiles, [e["path"] for e in failed], chunksize=4))
        check_seconds = time.perf_counter() - started

    problems = []
    for entry, error in zip(written, output_errors):
        if error:
            problems.append(f"{entry['output']} (from {entry['path']}) does not compile: {error}")
    for entry, error in zip(failed, input_errors):
        if not error:
            problems.append(
                f"{entry['path']}:{entry['error']['line']}: the CLI failed on a file "
                f"that compiles: {entry['error']['message']}"
            )
    reasons = collections.Counter()
    for entry in entries:
        for item in entry["left"]:
            if not item["reason"].strip():
                problems.append(
                    f"{entry['path']}:{item['line']}: {item['name']} was left as "
                    "Python without a reason"
                )
            elif not item["generator_or_coroutine"]:
                reasons[item["reason"]] += 1

    totals = document["totals"]
    lines = []
    say = lines.append  # the summary, shown at the end and maybe stored in the docs
    say(f"standard library: {args.stdlib} (Python {sys.version.split()[0]})")
    say(
        f"conversion: {seconds:.1f} s with --jobs {args.jobs} "
        f"(target 60 s with --jobs 2), {cpu:.0f} s of CPU time; compile check "
        f"{check_seconds:.1f} s"
    )
    say(
        f"files: {totals['files']} .py files, {len(written)} converted and compiled, "
        f"{len(failed)} rejected as invalid Python (Python cannot compile them either)"
    )
    say(
        f"functions: {totals['functions']}, converted {totals['converted']}, left as Python "
        f"{totals['left']} ({totals['generators_and_coroutines']} generators or coroutines); "
        f"rate {100 * totals['rate']:.2f}% without generators and coroutines"
    )
    if reasons:
        say("why the others stay Python:")
        for reason, count in reasons.most_common(8):
            say(f"  {count:5d}  {reason}")
    if args.max_seconds is not None and seconds > args.max_seconds:
        problems.append(
            f"the conversion took {seconds:.1f} s, over --max-seconds {args.max_seconds:g}"
        )
    for problem in problems:
        say("FAIL " + problem)
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.update_docs:
        update_docs(args.update_docs, f"```\n$ python benchmarks/stdlib_robustness.py\n{text}```\n")
    return 1 if problems else 0


def update_docs(path: str, text: str) -> None:
    """Replaces the text between the robustness markers of `path` with `text`."""
    begin, end = "<!-- robustness:begin -->", "<!-- robustness:end -->"
    with open(path) as f:
        document = f.read()
    head, rest = document.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(f"{head}{begin}\n{text}{end}{tail}")


if __name__ == "__main__":
    sys.exit(main())
