"""A fork while another thread converts or traces leaves the child able to convert and trace.

Before the fix the child inherited the converter's lock held by a thread that does not exist
there, and its first conversion waited forever. Each child here runs under a time limit and is
killed if it hangs, so these tests fail instead of hanging.
"""

import os
import threading
import time
import warnings

import numpy as np
import pytest

import autoconv
from autoconv.conversion import functions
from autoconv.runtime import staging

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the platform has no fork()")

LIMIT_S = 20


def _fork_and_check(check) -> None:
    """Runs `check()` in a forked child; asserts it returns within LIMIT_S and does not raise."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # 3.12: fork with threads running
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
