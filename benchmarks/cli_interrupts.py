"""How fast `autoconv convert --jobs 2` stops: Ctrl-C, `kill -TERM` and `kill -9` of the main
process, against a baseline checkout.

    python benchmarks/cli_interrupts.py                              # this checkout only
    python benchmarks/cli_interrupts.py --baseline /path/to/old/src  # and an older one
    python benchmarks/cli_interrupts.py --quick                      # one run of each

Each run converts a generated package (120 modules of 40 functions, about 15 s of work with two
workers), waits until two files are written, then sends the signal: SIGINT to the process group
(what Ctrl-C does), or SIGTERM / SIGKILL to the main process alone. Figures are wall-clock
seconds from the signal until the main process exited and until the last worker ended (read from
/proc, Linux only), the median over `--repeat` runs; a wait is cut at `--cap` seconds. Also
shown: files written before the stop, and temporary files left behind.
"""

import argparse
import os
import pathlib
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.cli.test_interrupts import (  # noqa: E402
    alive,
    children,
    converted,
    default_sigint,
    make_package,
)

SIGNALS = [
    ("Ctrl-C (SIGINT to the group)", signal.SIGINT, True),
    ("kill -TERM main", signal.SIGTERM, False),
    ("kill -9 main", signal.SIGKILL, False),
]


def one_run(src: str, pkg: pathlib.Path, out: pathlib.Path, number, group: bool, cap: float):
    """(seconds until the main process exited, until its workers ended, files written,
    temporaries left)."""
    env = dict(os.environ, PYTHONPATH=src)
    process = subprocess.Popen(
        [sys.executable, "-m", "autoconv", "convert", str(pkg), "-o", str(out), "-q", "-j", "2"],
        env=env,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=default_sigint,
    )
    while len(converted(out)) < 2:
        time.sleep(0.01)
    workers = [pid for pid in children(process.pid) if pid != process.pid]
    sent = time.monotonic()
    if group:
        os.killpg(process.pid, number)
    else:
        os.kill(process.pid, number)
    try:
        process.wait(cap)
    except subprocess.TimeoutExpired:
        pass
    main_s = time.monotonic() - sent
    while any(map(alive, workers)) and time.monotonic() - sent < cap:
        time.sleep(0.01)
    workers_s = time.monotonic() - sent
    for pid in [process.pid, *workers]:  # leave nothing running for the next run
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    process.wait()
    written = len(converted(out))
    left = sum(n.endswith(".tmp") for _, _, names in os.walk(out) for n in names)
    return main_s, workers_s, written, left


def measure(label: str, src: str, repeat: int, cap: float, modules: int) -> list:
    rows = []
    for name, number, group in SIGNALS:
        runs = []
        for _ in range(repeat):
            with tempfile.TemporaryDirectory() as folder:
                pkg = make_package(pathlib.Path(folder), modules)
                runs.append(one_run(src, pkg, pathlib.Path(folder) / "out", number, group, cap))
        main_s = statistics.median(r[0] for r in runs)
        workers_s = statistics.median(r[1] for r in runs)
        rows.append(
            f"| {label} | {name} | {_seconds(main_s, cap)} | {_seconds(workers_s, cap)} | "
            f"{statistics.median(r[2] for r in runs):.0f} / {modules + 1} | "
            f"{max(r[3] for r in runs)} |"
        )
    return rows


def _seconds(value: float, cap: float) -> str:
    return f"> {cap:.0f}" if value >= cap else f"{value:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="SRC", help="src folder of an older autoconv")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cap", type=float, default=60.0, help="longest wait, in seconds")
    parser.add_argument("--modules", type=int, default=120)
    parser.add_argument("--quick", action="store_true", help="one run of each, 20 s cap")
    args = parser.parse_args()
    if args.quick:
        args.repeat, args.cap = 1, 20.0
    print(
        f"# `convert --jobs 2` stopped by a signal ({platform.python_version()}, "
        f"{os.cpu_count()} CPUs)\n"
    )
    print(f"`{' '.join(['python', *sys.argv])}`; median of {args.repeat} runs, seconds\n")
    print(
        "| autoconv | signal | main process ended | last worker ended | files written | "
        "temporaries left |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    if args.baseline:
        for row in measure("baseline", args.baseline, args.repeat, args.cap, args.modules):
            print(row, flush=True)
    for row in measure("this checkout", str(ROOT / "src"), args.repeat, args.cap, args.modules):
        print(row, flush=True)


if __name__ == "__main__":
    main()
