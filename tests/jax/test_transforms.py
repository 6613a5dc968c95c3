"""`jax.grad` and `jax.vmap` of converted functions whose control flow is staged."""

import numpy as np
import pytest

import autoconv

jax = pytest.importorskip("jax")
jnp = jax.numpy


def piecewise(x):
    if x > 1.0:
        y = x * x
    elif x > -1.0:
        y = jnp.sin(x)
    else:
        y = -3.0 * x
    return y


def discounted(x, xs):
    total = 0.0
    for v in xs:
        if v * x > 4.0:
            break
        total = total * 0.9 + jnp.tanh(v * x)
    return total


def steps_then_return(x, xs):
    for v in xs:
        if v > 5.0:
            return x * v
        x = x + jnp.sin(v * x)
    return x


def bounded_while(x):
    i = 0
    while i < 4 and x < 10.0:  # the bound makes the trip count known at most 4
        x = x * 1.5 + 0.1
        i += 1
    return x


def _finite_difference(f, x, h=1e-6):
    return (float(f(x + h)) - float(f(x - h))) / (2 * h)


XS = np.array([0.5, 1.0, 2.0, 3.0, 7.0])
POINTS = [-2.0, -0.3, 0.7, 1.4, 2.5]


@pytest.mark.parametrize("x", POINTS)
@pytest.mark.parametrize("order", ["grad_of_jit", "jit_of_grad"])
def test_grad_through_staged_if(x, order):
    f = autoconv.convert(piecewise)
    g = jax.grad(jax.jit(f)) if order == "grad_of_jit" else jax.jit(jax.grad(f))
    assert float(g(x)) == pytest.approx(_finite_difference(piecewise, x), rel=1e-6, abs=1e-8)


@pytest.mark.parametrize("func", [discounted, steps_then_return], ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", [0.3, 0.9, 1.7])
def test_grad_through_scanned_loop_with_break_or_return(func, x):
    """A `for` over an array is a lax.scan: reverse mode works, `break`/`return` included."""
    xs = jnp.asarray(XS)
    g = jax.jit(jax.grad(autoconv.convert(func)))(x, xs)
    expected = _finite_difference(lambda t: func(t, XS), x)
    assert float(g) == pytest.approx(expected, rel=1e-6, abs=1e-8)


@pytest.mark.parametrize("x", [0.5, 3.0, 20.0])
def test_forward_mode_through_while_loop(x):
    """A `while` on a tracer is a lax.while_loop, which JAX differentiates in forward mode."""
    g = jax.jit(jax.jacfwd(autoconv.convert(bounded_while)))(x)
    assert float(g) == pytest.approx(_finite_difference(bounded_while, x), rel=1e-6)


def test_reverse_mode_through_while_loop_is_jaxs_error():
    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work"):
        jax.grad(jax.jit(autoconv.convert(bounded_while)))(0.5)


def test_vmap_of_staged_if_takes_each_examples_branch():
    batch = jnp.asarray(POINTS)
    got = jax.vmap(autoconv.convert(piecewise))(batch)
    expected = [piecewise(float(x)) for x in POINTS]
    np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=1e-12)


def test_vmap_of_staged_loop_with_break():
    batch = jnp.asarray([0.3, 0.9, 1.7, 5.0])
    got = jax.jit(jax.vmap(autoconv.convert(discounted), in_axes=(0, None)))(batch, jnp.asarray(XS))
    expected = [discounted(float(x), XS) for x in batch]
    np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=1e-12)


def test_vmap_of_grad():
    batch = jnp.asarray(POINTS)
    got = jax.vmap(jax.grad(autoconv.convert(piecewise)))(batch)
    expected = [_finite_difference(piecewise, x) for x in POINTS]
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-6, atol=1e-8)
