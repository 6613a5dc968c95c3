"""A Variable's updates are atomic across threads: N threads each adding M times leave exactly
N * M, eagerly, through `autoconv.function` (NumPy and JAX), and through a saved and loaded
function; threads updating two Variables in opposite orders do not deadlock."""

import copy
import pickle
import sys
import threading

import numpy as np
import pytest

import autoconv

N_THREADS = 8
M_UPDATES = 1000
JOIN_S = 60


@pytest.fixture(autouse=True)
def frequent_switches():
    """Threads switch every few bytecodes, so that an update without a lock loses counts."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def _hammer(*steps, m=M_UPDATES) -> None:
    """Runs each of `steps` m times in each of N_THREADS threads (the steps spread over them)."""
    errors = []

    def work(step):
        try:
            for _ in range(m):
                step()
        except BaseException as e:  # noqa: BLE001 - reported by the test
            errors.append(e)

    threads = [
        threading.Thread(target=work, args=(steps[i % len(steps)],)) for i in range(N_THREADS)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(JOIN_S)
    assert not any(t.is_alive() for t in threads), "threads still running: a deadlock?"
    assert not errors, errors


def test_eager_updates():
    v = autoconv.Variable(0, dtype=np.int64)
    w = autoconv.Variable(np.zeros(3))
    _hammer(lambda: v.assign_add(1), lambda: (v.assign_add(3), v.assign_sub(2)))
    assert v.numpy() == N_THREADS * M_UPDATES
    _hammer(lambda: w.assign_sub(np.ones(3)))
    assert w.numpy().tolist() == [-N_THREADS * M_UPDATES] * 3


def _counting(v):
    @autoconv.function
    def add(x):
        v.assign_add(x)

    @autoconv.function
    def add_twice_in_a_loop(x, n):
        y = v * 2.0  # a read the update does not depend on
        for _ in range(n):
            v.assign(v + x)  # a read-modify-write of one Variable is atomic too
        return y

    return add, add_twice_in_a_loop


def test_graph_updates_numpy():
    v = autoconv.Variable(0.0)
    add, loop = _counting(v)
    one, two = np.float64(1.0), np.int64(2)
    add(one), loop(one, two)  # traced before the threads start: they all run at once
    _hammer(lambda: add(one), lambda: loop(one, two), lambda: v.assign_add(1.0))
    # 8 threads: three run `add`, three `loop` (2 each), two eager
    assert v.numpy() == 3 + (3 + 3 * 2 + 2) * M_UPDATES
    code = add.get_concrete_function(one).code
    assert "with var._lock:" in code


def test_graph_updates_of_a_loaded_function(tmp_path):
    v = autoconv.Variable(np.zeros(2), name="total")

    @autoconv.function
    def step(x):
        v.assign_add(x)
        return v.read_value()

    x = np.ones(2)
    step(x)
    step.save(tmp_path / "step.acg")
    loaded = autoconv.load(tmp_path / "step.acg")
    (var,) = loaded.variables
    _hammer(lambda: loaded(x), lambda: var.assign_sub(-x))
    assert var.numpy().tolist() == [1.0 + N_THREADS * M_UPDATES] * 2
    assert v.numpy().tolist() == [1.0, 1.0]  # the loaded copy is its own


def test_graph_updates_jax():
    pytest.importorskip("jax")
    v = autoconv.Variable(0, dtype=np.int64)
    read_only = autoconv.Variable(5, dtype=np.int64)

    @autoconv.function(backend="jax")
    def add(x):
        v.assign_add(x + read_only * 0)
        return read_only + 1

    one = np.int64(1)
    add(one)
    m = 200  # a JAX call costs more
    _hammer(lambda: add(one), lambda: read_only.assign_add(1), lambda: v.assign_add(1), m=m)
    # 8 threads: three run `add`, three update the Variable `add` only reads, two add eagerly
    assert v.numpy() == 1 + 5 * m
    assert read_only.numpy() == 5 + 3 * m  # not overwritten by a JAX call's stale copy


def test_updates_of_two_variables_in_opposite_orders():
    v = autoconv.Variable(0.0)
    w = autoconv.Variable(0.0)

    @autoconv.function
    def v_then_w(x):
        t = v + w
        v.assign(t - w + x)
        w.assign_add(x)

    @autoconv.function
    def w_then_v(x):
        t = w + v
        w.assign(t - v + x)
        v.assign_add(x)

    one = np.float64(1.0)
    v_then_w(one), w_then_v(one)
    _hammer(lambda: v_then_w(one), lambda: w_then_v(one))
    assert v.numpy() == w.numpy() == 2 + N_THREADS * M_UPDATES


def test_variables_copy_and_pickle_with_locks_of_their_own():
    v = autoconv.Variable(np.arange(3.0), name="v")
    for other in (copy.deepcopy(v), copy.copy(v), pickle.loads(pickle.dumps(v))):
        assert other.name == "v" and other.numpy().tolist() == [0.0, 1.0, 2.0]
        assert other._lock is not v._lock
        other.assign_add(1.0)
    assert v.numpy().tolist() == [0.0, 1.0, 2.0]
