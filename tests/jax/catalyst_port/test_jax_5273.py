"""The examples of jax-ml/jax#5273 ("Compile Python control flow syntax") and the thread it
points to (the binary search of jax-ml/jax#1706): conditions on traced values become JAX
control flow, conditions on Python values run as Python (only the chosen branch is traced, a
loop over a Python range unrolls), and a new Python value retraces."""

import numpy as np
import pytest

import autoconv
from tests.jax.catalyst_port.common import jit, same

jax = pytest.importorskip("jax")
jnp = jax.numpy


def bisect(func, low=0.0, high=100.0, tolerance=1e-6):
    while high - low > tolerance:
        mid = 0.5 * (low + high)
        if func(mid) > 0:
            high = mid
        else:
            low = mid
    return low


def cube_root_squared(x):
    return bisect(lambda y: y**2 - x**3)


@pytest.mark.parametrize("x", [1.0, 2.0, 9.0, 20.0])
def test_binary_search_with_a_function_argument(x):
    got = float(jit(cube_root_squared)(x))
    assert got == pytest.approx(x**1.5, abs=1e-5)
    assert got == pytest.approx(cube_root_squared(x), abs=1e-9)


def layer(x, training):
    if training == "train":  # a Python value: only this branch is traced
        x = x * 0.5
    for _ in range(3):  # a Python range: unrolled
        x = jnp.tanh(x)
    if x.sum() > 0:  # a traced value: lax.cond
        x = x - 1
    return x


@pytest.mark.parametrize("mode", ["train", "eval"])
@pytest.mark.parametrize("x", [[0.5, 1.0], [-2.0, 0.1]])
def test_python_conditions_and_traced_conditions(mode, x):
    f = jax.jit(autoconv.convert(layer), static_argnums=1)
    want = layer(np.array(x), mode)
    np.testing.assert_allclose(f(jnp.array(x), mode), want, rtol=1e-12)


def test_a_new_python_value_retraces():
    traces = []

    def f(x, n):
        traces.append(n)
        for _ in range(n):
            x = x * 2
        return x

    g = jax.jit(autoconv.convert(f), static_argnums=1)
    assert float(g(1.0, 2)) == 4.0 and float(g(3.0, 2)) == 12.0 and float(g(1.0, 3)) == 8.0
    assert traces == [2, 3]


def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@pytest.mark.parametrize("n", [1, 6, 7, 27])
def test_a_while_loop_whose_body_branches(n):
    same(collatz_steps, n)


def newton_sqrt(a):
    x = a
    for _ in range(20):
        x = 0.5 * (x + a / x)
        if abs(x * x - a) < 1e-12:
            break
    return x


@pytest.mark.parametrize("a", [2.0, 10.0, 1e4])
def test_newton_iteration_with_break(a):
    same(newton_sqrt, a)
