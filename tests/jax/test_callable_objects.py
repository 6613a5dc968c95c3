"""`autoconv.convert(model)` and `autoconv.function(model, backend="jax")` of an object with a
`__call__` convert its bound `__call__` (as `tf.function(model)` and Catalyst do)."""

import numpy as np
import pytest

import autoconv

jax = pytest.importorskip("jax")
jnp = jax.numpy


class Clipper:
    def __init__(self, limit):
        self.limit = limit

    def __call__(self, x):
        total = 0.0
        for v in x:
            if v > self.limit:
                v = self.limit
            total += v
        return total


def clipper_eager(x, limit):
    return float(sum(min(v, limit) for v in x))


X = np.array([0.5, 3.0, -1.0, 2.5])


def test_jit_of_a_converted_model():
    model = Clipper(2.0)
    f = jax.jit(autoconv.convert(model))
    assert float(f(X)) == clipper_eager(X, 2.0)
    assert float(jax.grad(autoconv.convert(model))(jnp.asarray(X)).sum()) == 2.0


def test_function_of_a_model_on_the_jax_backend():
    for limit in (2.0, 1.0):
        f = autoconv.function(Clipper(limit), backend="jax")
        assert float(f(X)) == clipper_eager(X, limit)
        assert float(f(-X)) == clipper_eager(-X, limit)
