"""`jax.jit(convert(f))` of an `if` whose `else` holds a staged `if` with an early `return`
(the converter's `elif` chain): a local the chain's branches rebind but nothing reads after the
statement (`t`, dead there) gets its value from before the statement back, as in the other
branches, instead of keeping a tracer of the branch JAX traced (an UnexpectedTracerError when
the next statement was traced; found by tests/jax/test_generated.py)."""

import numpy as np
import pytest

import autoconv

jax = pytest.importorskip("jax")
jnp = jax.numpy


def dead_after_the_chain(a, p):
    t = 0
    if p > 0:
        t = 0
    else:
        if jnp.any(a < 0):
            return a
        t = jnp.sum(a) + jnp.abs(t)
    t = 0
    return a + t


@pytest.mark.parametrize("a", [np.array([-2.0, -2.0]), np.array([2.0, 3.0])])
@pytest.mark.parametrize("p", [-1.0, 1.0])
def test_a_local_dead_after_an_elif_chain(a, p):
    got = jax.jit(autoconv.convert(dead_after_the_chain))(a, p)
    assert np.array_equal(np.asarray(got), dead_after_the_chain(a, p))
