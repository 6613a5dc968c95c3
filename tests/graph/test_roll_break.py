"""The `roll` pass on a Python `range` loop that a staged `break` or `return` may end: its nested
conds become one staged `while`, with the results of the unrolled graph and of eager NumPy."""

import numpy as np
import pytest

import autoconv
from autoconv.runtime import pure_steps
from tests.graph.agreement import BACKENDS, same

UNROLLED = {"roll": False}


def _whiles(concrete) -> int:
    return sum(1 for n in concrete.optimized_graph.walk() if n.kind == "while")


def _depth(concrete) -> int:
    """How deep conds nest in the optimized graph."""

    def depth(block):
        return max((1 + max(map(depth, n.blocks)) for n in block.nodes if n.blocks), default=0)

    return depth(concrete.optimized_graph.block)


def _check(fn, *args, backend="numpy", whiles=None):
    """Eager, rolled and unrolled: equal values and types (rolled and unrolled bit for bit on
    one backend). Returns the rolled concrete function."""
    want = fn(*args)
    rolled = autoconv.function(fn, backend=backend)
    unrolled = autoconv.function(fn, backend=backend, optimize=UNROLLED)
    got, plain = rolled(*args), unrolled(*args)
    assert same(want, got), (want, got)
    assert same(plain, got), (plain, got)
    for a, b in zip(
        np.atleast_1d(np.asarray(plain, object)), np.atleast_1d(np.asarray(got, object))
    ):
        assert np.array_equal(a, b)  # bit for bit: the loop runs the same operations
    concrete = rolled.get_concrete_function(*args)
    if whiles is not None:
        assert _whiles(concrete) == whiles
    return concrete


def kmeans(x, c, iters):
    k = c.shape[0]
    for _ in range(iters):
        d = np.sum((x[:, None, :] - c[None, :, :]) ** 2, axis=2)
        labels = np.argmin(d, axis=1)
        onehot = (labels[:, None] == np.arange(k)[None, :]).astype(x.dtype)
        new = (onehot.T @ x) / np.maximum(np.sum(onehot, axis=0), 1.0)[:, None]
        if np.max(np.abs(new - c)) < 1e-9:
            break
        c = new
    return c


RNG = np.random.default_rng(0)
PTS = RNG.normal(size=(60, 2))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("iters", [0, 1, 2, 3, 4, 20])
def test_kmeans_break_rolls(backend, iters, monkeypatch):
    # The pass's own loop: staged while traced (test_roll12.py) a settled loop never reaches it.
    monkeypatch.setattr(pure_steps, "MIN_LEFT", 10**9)
    for c in (PTS[:4].copy(), PTS[[0, 0, 1, 2]].copy()):
        concrete = _check(kmeans, PTS, c, iters, backend=backend)
    if iters >= 4:
        assert _whiles(concrete) == 1 and _depth(concrete) <= 2
        assert "while" in concrete.optimized_graph.as_text()
        assert concrete.pass_summary().splitlines()[0].startswith("roll")
        assert "digraph" in concrete.optimized_graph.to_dot()
        if backend == "numpy":
            assert "while " in concrete.code


def test_fifty_steps_are_one_loop_and_the_graph_does_not_grow(monkeypatch):
    # The pass's own loop: staged while traced (test_roll12.py) a settled loop never reaches it.
    monkeypatch.setattr(pure_steps, "MIN_LEFT", 10**9)
    sizes = []
    for iters in (10, 30, 50):
        concrete = _check(kmeans, PTS, PTS[:4].copy(), iters, whiles=1)
        sizes.append(len(list(concrete.optimized_graph.walk())))
    assert sizes[0] == sizes[1] == sizes[2]


def newton_sqrt(a):
    x = a
    for _ in range(30):
        new = 0.5 * (x + a / x)
        if np.abs(new - x) < 1e-12:
            break
        x = new
    return x


def break_on_index(x):
    total = x[0] * 0
    for i in range(12):
        if x[i] < 0:
            break
        total = total + x[i] * x[i]
    return total


def early_return(v, t):
    for _ in range(15):
        v = v * 0.5
        if np.all(v < t):
            return v
    return -v


def float32_halving(v):
    for _ in range(25):
        v = v * np.float32(0.75) + np.float32(0.01)
        if np.max(v) < 0.1:
            break
    return v


def int_collatz(n):
    for _ in range(40):
        if n == 1:
            break
        n = np.where(n % 2 == 0, n // 2, 3 * n + 1)
    return n + 0  # (a 0-d array: the JAX backend returns np.where's as a NumPy scalar)


def in_a_branch(x, flag):
    if flag > 0:
        for _ in range(10):
            x = x * 1.5 - 0.25
            if np.sum(x) > 40:
                break
    return x


def two_in_a_python_loop(x):
    out = []
    for row in range(2):
        y = x[row]
        for _ in range(8):
            y = y * 2.0
            if np.max(y) > 10:
                break
        out.append(y)
    return out[0] + out[1]


def with_a_counter_of_steps(x):
    n = np.int64(0)
    for _ in range(20):
        x = x - 0.3
        n = n + 1
        if x.sum() < 0:
            break
    return x, n


def with_a_staged_count(x):
    n = x[0] * 0
    for _ in range(20):
        x = x - 0.3
        n = n + 1
        if x.sum() < 0:
            break
    return x, n


def return_from_the_loop(x):
    out = 0.0
    for i in range(5):
        if x[i] > 2:
            return x[i] * 10
        out = out + x[i]
    return out  # a Python float or a NumPy value, by the path: its tag stays nested


def path_typed(x):
    v = 0
    for _ in range(5):
        if x.sum() > 3:
            v = 1
        else:
            v = np.int64(2)
        x = x + v
    return x, v


def twins(x):
    a = x * 1.0
    b = x * 2.0
    for _ in range(6):
        n = a + b
        if n.sum() > 50:
            break
        a = n  # both set to one value in every step, from two different values
        b = n
    return a, b


PROGRAMS = [
    (newton_sqrt, (np.float64(2.0),), 1),
    (newton_sqrt, (np.array(9.0),), 1),
    (break_on_index, (np.array([1.0, 2, 3, 4, 5, -1, 2, 3, 4, 5, 6, 7]),), 1),
    (break_on_index, (np.arange(1, 13, dtype=np.int32),), 1),
    (early_return, (np.array([4.0, 8.0]), 0.3), 1),
    (early_return, (np.array([4.0, 8.0]), 1e-9), 1),
    (float32_halving, (np.ones(3, np.float32) * 5,), 1),
    (int_collatz, (np.int64(27),), 1),
    (in_a_branch, (np.ones(2), 1), 1),
    (in_a_branch, (np.ones(2), -1), None),
    (two_in_a_python_loop, (np.array([[0.5, 1.0], [3.0, 0.1]]),), 2),
    # `n + 1` of a NumPy scalar is worked out while tracing: each step adds another constant,
    # so the steps differ and stay nested.
    (with_a_counter_of_steps, (np.array([1.0, 2.0]),), 0),
    (with_a_counter_of_steps, (np.array([100.0, 2.0]),), 0),
    (with_a_staged_count, (np.array([1.0, 2.0]),), 1),
    (return_from_the_loop, (np.array([1.0, 1.5, 0.2, 3, 1]),), None),
    (return_from_the_loop, (np.zeros(5),), None),
    (path_typed, (np.array([1.0, 1.0]),), None),
    (twins, (np.ones(2) * 100,), None),
    (twins, (np.ones(2) * 0.1,), None),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn, args, whiles", PROGRAMS, ids=[f"{p[0].__name__}-{i}" for i, p in enumerate(PROGRAMS)]
)
def test_programs_with_a_staged_break(fn, args, whiles, backend):
    _check(fn, *args, backend=backend, whiles=whiles)


def test_a_print_in_the_steps_keeps_them_nested(capsys):
    def f(x):
        for i in range(6):
            print("step", i)
            x = x * 2.0
            if np.sum(x) > 20:
                break
        return x

    f(np.ones(2))
    want = capsys.readouterr().out
    concrete = _check(f, np.ones(2), whiles=0)
    capsys.readouterr()
    autoconv.function(f)(np.ones(2))
    assert capsys.readouterr().out == want
    assert _depth(concrete) > 2


def test_steps_that_differ_stay_nested():
    def f(x):
        for i in range(6):
            x = x * float(i + 1)  # a different constant in each step
            if np.sum(x) > 1e4:
                break
        return x

    _check(f, np.ones(2), whiles=0)
