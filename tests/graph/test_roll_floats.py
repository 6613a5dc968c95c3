"""The `roll` pass over steps whose operators take Python floats that differ from step to step
(a learning rate computed from the index): the loop reads them from an array of them, with eager
NumPy's results (bit for bit on each backend) and dtypes."""

import numpy as np
import pytest

from autoconv.runtime import pure_steps
from tests.graph.agreement import BACKENDS
from tests.graph.test_roll import _check, _loops

RNG = np.random.default_rng(5)
X = RNG.normal(size=(40, 4))
Y = X @ RNG.normal(size=4)


def warm_up(x, y, w):
    for i in range(60):
        if i < 10:  # a Python `if` on the step: its own rate for each of the first ten
            lr = 0.001 * (i + 1)
        else:
            lr = 0.01
        w = w - lr * (-2.0 * (x.T @ (y - x @ w)) / x.shape[0])
    return w


def decay(x, y, w):
    for i in range(80):
        lr = 0.05 * 0.99**i  # a different float in every step
        w = w - lr * (x.T @ (x @ w - y))
    return w


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [warm_up, decay])
def test_a_rate_computed_from_the_step_rolls(backend, fn, monkeypatch):
    # The pass's own loop: staged while traced (test_roll12.py) a settled loop never reaches it.
    monkeypatch.setattr(pure_steps, "MIN_LEFT", 10**9)
    concrete = _check(fn, X, Y, np.zeros(4), backend=backend, loops=1)
    assert len(list(concrete.optimized_graph.walk())) < 20
    got = concrete(X, Y, np.zeros(4))
    if backend == "numpy":
        assert np.array_equal(got, fn(X, Y, np.zeros(4)))


def test_float32_steps_keep_their_dtype_and_stay_unrolled():
    # `lr * g` of a float32 `g` is float32 with a Python float, float64 with a float64 array:
    # those steps cannot read the rate from an array and stay as they are.
    def f(w):
        for i in range(6):
            w = w - (0.1 * i) * w
        return w

    concrete = _check(f, np.ones(3, dtype=np.float32), loops=0)
    assert concrete(np.ones(3, dtype=np.float32)).dtype == np.float32


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_operation_on_values_from_before_the_loop_is_not_run_once(backend):
    # `x * c` reads only `x`, from before the loop, but `c` differs per step.
    def f(x):
        s = np.zeros_like(x)
        for i in range(12):
            s = s + x * float(i * i)
        return s

    _check(f, RNG.random(5), backend=backend, loops=1)


def test_signed_zeros_nans_and_equal_floats():
    def f(x):
        s = x
        for i in range(8):
            z = -0.0 if i % 2 else 0.0
            nan = float("nan") if i == 5 else 1.0
            s = s * 0.5 + (x * z) / nan + 0.25
        return s

    got = _check(f, RNG.random(3) - 0.5, loops=1)(RNG.random(3))
    assert np.isnan(got).all()
    assert _loops(_check(f, np.array([-1.0, 0.0, 2.0]))) == 1


def test_python_float_results_stay_python_floats():
    # `float(x[0]) * c` is a Python float eagerly: the steps stay unrolled, and it is returned
    # as a float.
    def f(x):
        s = float(x[0])
        for i in range(6):
            s = s * (0.5 + i) + 1.0
        return s

    concrete = _check(f, RNG.random(3), loops=0)
    assert type(concrete(RNG.random(3))) is float
