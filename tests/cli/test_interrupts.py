"""`convert --jobs 2` under Ctrl-C, `kill -TERM` and `kill -9`: it stops at once, its workers
die with it, it writes only whole files, and a re-run leaves no temporary file.

Each test starts a real `python -m autoconv convert --jobs 2` on a generated package that takes
several seconds to convert, and signals it once the first files are written. The time bounds are
functional (a stop that takes effect), generous for a loaded machine; benchmarks/cli_interrupts.py
prints the measured latencies.
"""

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.cli.helpers import PYTHON, run_cli

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="finds the workers through /proc"
)

STOP_BOUND_S = 5.0
FUNCTION = """
def f{i}(xs, n):
    total = 0
    for x in xs:
        if x > n:
            total += x
        elif x < -n:
            total -= x
        else:
            while n > 0 and total < 100:
                n -= 1
                total += 1
    return total if total > 0 else -total
"""


def default_sigint():
    """In the child: SIGINT as a terminal's foreground command gets it. A shell starts
    background jobs with SIGINT ignored, and an ignored signal stays ignored across exec."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def make_package(root, modules: int):
    """A package of `modules` modules of 40 functions each (about 0.1 s each to convert)."""
    pkg = root / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for m in range(modules):
        (pkg / f"mod_{m:03d}.py").write_text("".join(FUNCTION.format(i=i) for i in range(40)))
    return pkg


def start(pkg, out):
    """The running convert, once it has written its first two files, and its workers' ids."""
    process = subprocess.Popen(
        [PYTHON, "-m", "autoconv", "convert", str(pkg), "-o", str(out), "-q", "--jobs", "2"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        start_new_session=True,  # its own process group, as a shell gives a command
        preexec_fn=default_sigint,
    )
    deadline = time.monotonic() + 60
    while len(converted(out)) < 2:
        assert process.poll() is None, process.stderr.read()
        assert time.monotonic() < deadline, "no output after 60 s"
        time.sleep(0.02)
    workers = children(process.pid)
    assert len(workers) == 2
    return process, workers


def converted(out):
    folder = out / "pkg"
    return [n for n in os.listdir(folder) if n.endswith(".py")] if folder.is_dir() else []


def children(pid: int) -> list:
    found = []
    for entry in os.listdir("/proc"):
        stat = _stat(int(entry)) if entry.isdigit() else None  # once: it may end meanwhile
        if stat and int(stat[1]) == pid:
            found.append(int(entry))
    return found


def _stat(pid: int):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"  # a zombie has ended


def wait_gone(pids: list, since: float) -> float:
    """Seconds from `since` until every process in `pids` has ended (at most 30)."""
    while any(map(alive, pids)) and time.monotonic() - since < 30:
        time.sleep(0.01)
    return time.monotonic() - since


def temporaries(out) -> list:
    return [n for _, _, names in os.walk(out) for n in names if n.endswith(".tmp")]


def assert_whole_files(out):
    for name in converted(out):
        compile((out / "pkg" / name).read_text(), name, "exec")


def test_ctrl_c_stops_everything_within_a_second_or_so(tmp_path):
    pkg, out = make_package(tmp_path, 100), tmp_path / "out"
    process, workers = start(pkg, out)
    sent = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C at a terminal does
    process.wait(30)
    stopped = time.monotonic() - sent
    gone = wait_gone(workers, sent)
    assert process.returncode == 130
    assert process.stderr.read() == "autoconv convert: interrupted\n"  # no traceback
    assert stopped < STOP_BOUND_S and gone < STOP_BOUND_S, (stopped, gone)
    assert len(converted(out)) < 101  # it was stopped, not finished
    assert_whole_files(out)
    assert temporaries(out) == []


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGKILL], ids=["TERM", "KILL"])
def test_the_workers_die_with_the_main_process(tmp_path, number):
    pkg, out = make_package(tmp_path, 100), tmp_path / "out"
    process, workers = start(pkg, out)
    sent = time.monotonic()
    os.kill(process.pid, number)
    process.wait(30)
    gone = wait_gone(workers, sent)
    assert process.returncode == -number
    assert gone < STOP_BOUND_S, gone
    assert len(converted(out)) < 101
    assert_whole_files(out)
    again = run_cli("convert", pkg, "-o", out, "--exclude", "mod_*")  # rewrites out/pkg/
    assert again.returncode == 0, again.stderr
    assert temporaries(out) == []


def test_a_worker_that_dies_does_not_lose_its_file(tmp_path):
    pkg, out = make_package(tmp_path, 24), tmp_path / "out"
    process, workers = start(pkg, out)
    os.kill(workers[0], signal.SIGKILL)
    process.wait(120)
    assert process.returncode == 0, process.stderr.read()
    assert len(converted(out)) == 25
    assert_whole_files(out)
    assert temporaries(out) == []
