"""A fork while other threads convert, trace, save, load or update Variables leaves the child
able to do all of those.

A lock held at the fork by a thread that does not exist in the child would make its next
acquire wait forever: every lock of the package is made by `autoconv.locks`, which releases
them all in the child. Each child here runs under a time limit and is killed if it hangs, so
these tests fail instead of hanging.
"""

import os
import pathlib
import random
import re
import threading
import time
import types
import warnings

import numpy as np
import pytest

import autoconv
from autoconv import locks
from autoconv.conversion import functions
from autoconv.runtime import staging

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the platform has no fork()")

LIMIT_S = 20


def _fork_and_check(check) -> None:
    """Runs `check()` in a forked child; asserts it returns within LIMIT_S and does not raise."""
    with warnings.catch_warnings():
        # Forking with threads running is what this test does on purpose: Python 3.12 warns
        # (DeprecationWarning), and JAX, once imported, warns that fork may deadlock it
        # (RuntimeWarning); the children here never touch JAX.
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.filterwarnings("ignore", "os.fork", RuntimeWarning)
        pid = os.fork()
    if pid == 0:  # the child: never return into pytest
        status = 1
        try:
            check()
            status = 0
        except BaseException:
            import traceback

            traceback.print_exc()
        finally:
            os._exit(status)
    deadline = time.monotonic() + LIMIT_S
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail(f"the forked child did not finish within {LIMIT_S} s (a lock held?)")
        time.sleep(0.01)
    assert os.WIFEXITED(status), status
    assert os.WEXITSTATUS(status) == 0, "the child's check failed (its traceback is above)"


def _branchy(x):
    if x > 0:
        return x * 2
    return -x


def _loopy(n):
    total = 0
    for i in range(n):
        if i % 2:
            total += i
    return total


def test_fork_while_another_thread_converts(monkeypatch):
    entered, release = threading.Event(), threading.Event()
    original = functions._convert

    def slow_convert(func, recursive):
        if func is _loopy:
            entered.set()  # the conversion lock is held now
            release.wait(LIMIT_S)
        return original(func, recursive)

    monkeypatch.setattr(functions, "_convert", slow_convert)
    worker = threading.Thread(target=autoconv.to_code, args=(_loopy,))
    worker.start()
    try:
        assert entered.wait(LIMIT_S)

        def child():
            assert "if_stmt" in autoconv.to_code(_branchy)
            release.set()  # the child's copy of the event: its own conversion need not wait
            assert "for_stmt" in autoconv.to_code(_loopy)  # converted afresh in the child

        _fork_and_check(child)
    finally:
        release.set()
        worker.join()
    assert autoconv.convert(_loopy)(6) == 9  # the parent's conversion finished as usual


def test_fork_while_another_thread_traces():
    entered, release = threading.Event(), threading.Event()

    def pause():  # runs at trace time, inside the worker's trace
        entered.set()
        release.wait(LIMIT_S)

    @autoconv.function
    def slow(x):
        pause()
        return x + 1

    worker = threading.Thread(target=slow, args=(np.ones(2),))
    worker.start()
    try:
        assert entered.wait(LIMIT_S)
        assert staging.traces  # the worker's trace is open

        def child():
            assert staging.traces == []  # the worker does not exist here

            @autoconv.function
            def double(x):
                return x * 2 if x.sum() > 0 else x

            assert np.array_equal(double(np.ones(3)), np.full(3, 2.0))
            assert autoconv.convert(_branchy)(4) == 8

        _fork_and_check(child)
    finally:
        release.set()
        worker.join()
    assert slow.tracing_count == 1


def test_every_lock_of_the_package_is_released_in_a_forked_child():
    v = autoconv.Variable(0.0)  # a lock of its own
    held = locks.registered()
    assert v._lock in held and functions._lock in held
    acquired, release = threading.Event(), threading.Event()

    def hold_all():
        for lock in held:
            lock.acquire()
        acquired.set()
        release.wait(LIMIT_S)
        for lock in reversed(held):
            lock.release()

    worker = threading.Thread(target=hold_all)
    worker.start()
    try:
        assert acquired.wait(LIMIT_S)

        def child():
            for lock in locks.registered():
                assert lock.acquire(timeout=1), lock
            v.assign_add(1.0)

        _fork_and_check(child)
    finally:
        release.set()
        worker.join()


def test_the_package_makes_locks_only_through_autoconv_locks():
    src = pathlib.Path(autoconv.__file__).parent
    made = re.compile(
        r"\b(threading\.(Lock|RLock|Condition|Semaphore|BoundedSemaphore|Event|Barrier)|_thread\.(allocate_lock|allocate|RLock))\("
    )
    found = [
        f"{path.relative_to(src)}:{n}"
        for path in sorted(src.rglob("*.py"))
        if path.name != "locks.py"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if made.search(line)
    ]
    assert found == []


# --- forks at many points while other threads work --------------------------------------

FORKS = 12
V = autoconv.Variable(0.0, name="counter")


def _traced(x):
    if np.sum(x) > 0:
        return x * 2
    return -x


def _step(x):
    V.assign_add(np.sum(x))
    for _ in range(3):
        V.assign_sub(1.0)
    return V.read_value() + x


def _fresh(fn):
    """`fn` with a code object of its own: converted and traced afresh, as a new function is."""
    code = fn.__code__.replace()
    return types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)


class _Jobs:
    """The work of the threads, and of each child: each job makes what it uses afresh."""

    def __init__(self, folder):
        self.folder = folder
        self.step = autoconv.function(_step)
        self.saves = 0

    def convert(self):
        assert autoconv.convert(_fresh(_loopy))(6) == 9

    def to_code(self):
        assert "for_stmt" in autoconv.to_code(_fresh(_loopy))

    def trace(self):
        assert np.array_equal(autoconv.function(_fresh(_traced))(np.ones(2)), np.full(2, 2.0))

    def save_and_load(self):
        self.saves += 1
        path = self.folder / f"step-{os.getpid()}-{self.saves}.acg"
        step = autoconv.function(_fresh(_step))
        step(np.ones(2))
        step.save(path)
        loaded = autoconv.load(path)
        loaded(np.ones(2))
        assert loaded.variables[0].name == "counter"

    def update(self):
        V.assign_add(1.0)
        self.step(np.ones(2))

    def all(self):
        for job in (self.convert, self.to_code, self.trace, self.save_and_load, self.update):
            job()


@pytest.mark.filterwarnings("ignore::autoconv.RetracingWarning")
def test_fork_at_many_points_while_threads_convert_trace_save_load_and_update(tmp_path):
    """One thread per job, each holding one of the package's locks much of the time (the
    conversion locks, a Variable's), and forks at varied points of their loops."""
    jobs = _Jobs(tmp_path)
    # Every job once first: lazy imports are done before any fork (an import cut short by a
    # fork would leave a module half made in the child).
    jobs.all()
    stop = threading.Event()
    errors: list = []

    def work(job):
        try:
            while not stop.is_set():
                job()
        except BaseException as e:  # noqa: BLE001 - reported by the test
            errors.append(e)

    kinds = (jobs.convert, jobs.to_code, jobs.trace, jobs.save_and_load, jobs.update)
    workers = [threading.Thread(target=work, args=(job,), daemon=True) for job in kinds]
    for w in workers:
        w.start()
    delays = random.Random(0)
    try:
        for _ in range(FORKS):
            time.sleep(delays.uniform(0.0, 0.03))
            _fork_and_check(jobs.all)
    finally:
        stop.set()
        for w in workers:
            w.join(LIMIT_S)
    assert not errors, errors
