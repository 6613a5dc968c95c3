"""Conversion is thread-safe: threads converting (and calling) the same fresh functions at
once, threads running one converted function at once, and threads whose traces overlap and
convert the user functions they call on first call, all get correct results."""

import sys
import threading

import numpy as np
import pytest

import autoconv

N_THREADS = 8

SOURCE = "\n\n".join(
    f"""
def helper_{k}(x):
    if x > {k}:
        return x - {k}
    return x + {k}


def func_{k}(xs):
    total = 0
    for i, x in enumerate(xs):
        if i % 2:
            continue
        while x > 10:
            x //= 2
        total += helper_{k}(x) if x else -1
    return total
"""
    for k in range(12)
)

TRACED = """
import threading

import numpy as np

inside = {}  # thread name -> Event, set by the test
a_done = threading.Event()


def rendezvous():
    # Threads A and B both get inside their traces; then A goes on while B waits for A to
    # finish. A backend that serialises traces never lets them meet: the waits then time out
    # and each trace goes on alone.
    me = threading.current_thread().name
    if me not in inside:
        return
    inside[me].set()
    inside["B" if me == "A" else "A"].wait(timeout=1)
    if me == "B":
        a_done.wait(timeout=1)


def scale(x, k):
    for _ in range(k):
        x = x * 2.0
    return x


def shift(x):
    if np.sum(x) > 0:
        x = x - 1.0
    else:
        x = x + 1.0
    return x


def model(x):
    y = scale(x, 2)
    rendezvous()
    z = shift(y)
    return z if z.shape else -z
"""


def _run_threads(target):
    """Runs `target(index)` in N_THREADS threads released together; returns their errors."""
    barrier = threading.Barrier(N_THREADS)
    errors = []

    def run(index):
        try:
            barrier.wait()
            target(index)
        except BaseException as e:  # noqa: BLE001 - reported by the test
            errors.append(e)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=run, args=(i,)) for i in range(N_THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    finally:
        sys.setswitchinterval(interval)
    return errors


def test_concurrent_first_conversion(user_module):
    module = user_module(SOURCE)
    names = [f"func_{k}" for k in range(12)]
    inputs = [[], [0, 5, 3, 40, 7], [100, 1, 2, 3, 0, 9]]
    expected = {n: [getattr(module, n)(list(xs)) for xs in inputs] for n in names}
    results = {}

    def work(index):
        order = names[index % len(names) :] + names[: index % len(names)]
        for name in order:
            converted = autoconv.convert(getattr(module, name))
            assert converted.__autoconv_original__ is getattr(module, name)
            results[index, name] = (
                [converted(list(xs)) for xs in inputs],
                autoconv.to_code(getattr(module, name)),
            )

    errors = _run_threads(work)
    assert errors == []
    assert len(results) == N_THREADS * len(names)
    for (_, name), (got, code) in results.items():
        assert got == expected[name], name
        assert code == results[0, name][1]  # every thread sees the same conversion


@pytest.mark.parametrize("repeat", range(3))
def test_concurrent_calls_of_one_converted_function(user_module, repeat):
    """Converted code keeps its state in each call's own closures: threads running one
    converted function at once do not see each other's variables."""
    module = user_module(
        """
        def collatz_steps(n):
            steps = 0
            while n != 1:
                if n % 2:
                    n = 3 * n + 1
                else:
                    n //= 2
                steps += 1
            return steps
        """
    )
    converted = autoconv.convert(module.collatz_steps)
    results = {}

    def work(index):
        results[index] = [converted(n) for n in range(1, 200)]

    assert _run_threads(work) == []
    expected = [module.collatz_steps(n) for n in range(1, 200)]
    assert all(results[i] == expected for i in range(N_THREADS))


def test_overlapping_traces_convert_callees_on_first_call(user_module):
    """Two threads trace at the same time (each its own `Function`), the second starting while
    the first is inside its trace; the traced code converts the functions it calls on their
    first call, in whichever thread gets there first."""
    module = user_module(TRACED)
    x = np.arange(3, dtype=np.float32) - 1
    expected = module.model(x)
    module.inside.update(A=threading.Event(), B=threading.Event())
    outputs, errors = {}, []

    def work():
        name = threading.current_thread().name
        try:
            outputs[name] = autoconv.function(module.model)(x)
        except BaseException as e:  # noqa: BLE001 - reported by the test
            errors.append(e)
        finally:
            if name == "A":
                module.a_done.set()

    threads = [threading.Thread(target=work, name=name) for name in "AB"]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    for name in "AB":
        np.testing.assert_array_equal(outputs[name], expected)
        assert outputs[name].dtype == expected.dtype
