"""Catalyst's `TestJaxIndexAssignment` and `TestJaxIndexOperatorUpdate`: `x[i] = v`,
`x[i] op= v` and slices on JAX arrays, each against `x.at[...]` written by hand and eager NumPy,
and the cases Catalyst leaves unsupported (several indices, `%=`, an array of indices)."""

import numpy as np
import pytest

import autoconv
from tests.jax.catalyst_port.common import assert_same, eager, jit, same

jax = pytest.importorskip("jax")
jnp = jax.numpy


def zero_last(x):
    last = x.shape[0] - 1
    x[last] = 0
    return x


def zero_last_by_hand(x):
    last = x.shape[0] - 1
    return x.at[last].set(0)


@pytest.mark.parametrize("x", [[5, 3, 4], [1.5], [0, 0, 7, 9]])
def test_one_item_set(x):
    x = jnp.array(x)
    got = same(zero_last, x)
    assert_same(got, jit(zero_last_by_hand)(x))


def doubled(x):
    n = x.shape[0]
    out = jnp.empty((n,), dtype=x.dtype)
    for i in range(n):
        out[i] = x[i] * 2
    return out


def doubled_by_hand(x):
    n = x.shape[0]
    out = jnp.empty((n,), dtype=x.dtype)
    for i in range(n):
        out = out.at[i].set(x[i] * 2)
    return out


@pytest.mark.parametrize("x", [[5, 3, 4], [1.0, -2.5]])
def test_every_item_set_in_a_loop(x):
    x = jnp.array(x)
    got = jit(doubled)(x)
    np.testing.assert_array_equal(got, np.array(x) * 2)
    assert_same(got, jit(doubled_by_hand)(x))


def zero_last_of_list(x):
    last = len(x) - 1
    x[last] = 0
    return x


def double_last_of_list(x):
    last = len(x) - 1
    x[last] *= 2
    return x


@pytest.mark.parametrize("fn", [zero_last_of_list, double_last_of_list])
def test_items_of_a_python_list(fn):
    same(fn, [5, 3, 4])


def into_slice(x, key):
    out = jnp.zeros((x.shape[0] * 2, *x.shape[1:]), dtype=x.dtype)
    out[key] = x[: len(out[key])]
    return out


@pytest.mark.parametrize(
    "key, want",
    [
        (slice(1, 4), [0, 5, 3, 4, 0, 0]),
        (slice(1, 5, 2), [0, 5, 0, 3, 0, 0]),
        (slice(3, None), [0, 0, 0, 5, 3, 4]),
        (slice(None, 3), [5, 3, 4, 0, 0, 0]),
        (slice(None, None, 2), [5, 0, 3, 0, 4, 0]),
        (slice(-2, None), [0, 0, 0, 0, 5, 3]),
        (slice(None, None, -2), [0, 4, 0, 3, 0, 5]),
    ],
)
def test_slices_set(key, want):
    x = jnp.array([5, 3, 4])
    f = jit(lambda x: into_slice(x, key))
    np.testing.assert_array_equal(f(x), want)
    np.testing.assert_array_equal(eager(lambda x: into_slice_np(x, key), x), want)


def into_slice_np(x, key):
    out = np.zeros((x.shape[0] * 2, *x.shape[1:]), dtype=x.dtype)
    out[key] = x[: len(out[key])]
    return out


def add_each(x):
    for i in range(x.shape[0]):
        x[i] += 1
    return x


def sub_each(x):
    for i in range(x.shape[0]):
        x[i] -= 1
    return x


def mul_each(x):
    for i in range(x.shape[0]):
        x[i] *= 2
    return x


def div_each(x):
    for i in range(x.shape[0]):
        x[i] /= 2
    return x


def pow_each(x):
    for i in range(x.shape[0]):
        x[i] **= 2
    return x


def floordiv_each(x):
    for i in range(x.shape[0]):
        x[i] //= 2
    return x


def mod_each(x):
    for i in range(x.shape[0]):
        x[i] %= 2
    return x


BY_HAND = {
    add_each: lambda x: x.at[:].add(1),
    sub_each: lambda x: x.at[:].add(-1),
    mul_each: lambda x: x.at[:].multiply(2),
    div_each: lambda x: x.at[:].divide(2),
    pow_each: lambda x: x.at[:].power(2),
}


@pytest.mark.parametrize("fn", list(BY_HAND), ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", [[5.0, 3.0, 4.0], [-1.5, 0.0, 2.5, 8.0]])
def test_operator_on_every_item(fn, x):
    x = jnp.array(x)
    got = same(fn, x)
    np.testing.assert_allclose(got, BY_HAND[fn](x))


@pytest.mark.parametrize("fn", [add_each, sub_each, mul_each, pow_each, floordiv_each, mod_each])
def test_operator_on_every_int_item(fn):
    # On ints NumPy keeps the dtype; `x[i] /= 2` on ints is NumPy's casting error.
    same(fn, jnp.array([5, 3, 4]))


def test_true_division_into_ints():
    # `x[i] /= 2` on an int item: NumPy computes the float and stores it truncated, as
    # Catalyst's `.at[i].divide(2)` does.
    np.testing.assert_array_equal(same(div_each, jnp.array([5, 3, 4])), [2, 1, 2])


def double_first(x):
    x[0] *= 2
    return x


def double_last(x):
    last = x.shape[0] - 1
    x[last] *= 2
    return x


def double_every_other(x):
    n = x.shape[0]
    x[0:n:2] *= 2
    return x


@pytest.mark.parametrize("fn", [double_first, double_last, double_every_other])
@pytest.mark.parametrize("x", [[5, 3, 4], [5, 4, 3, 2, 1]])
def test_operator_on_one_item_or_a_slice(fn, x):
    same(fn, jnp.array(x))


def called_inside(x):
    def inner(y):
        y[0] *= 2
        return y

    return inner(x)


def test_an_item_updated_in_a_nested_function():
    # Catalyst's tests write the update in a function nested in the jitted one.
    same(called_inside, jnp.array([5, 3, 4]))


def two_indices(x):
    x[0, 1] += 5
    return x


def index_array(x):
    x[np.array([1, 2])] += 3
    return x


def mask_update(x):
    x[x > 3] = 0
    return x


@pytest.mark.parametrize(
    "fn, x",
    [
        (two_indices, [[1, 2], [3, 4]]),
        (mod_each, [4, 2, 3]),
        (index_array, [4, 2, 3]),
        (mask_update, [4, 2, 3]),
    ],
)
def test_cases_catalyst_leaves_unsupported(fn, x):
    # Catalyst: "JAX arrays are immutable" for `x[0, 1] += 5`, `x[1] %= 2` and
    # `x[np.array([1, 2])] += 3`; eager NumPy's values here.
    same(fn, jnp.array(x))


def zero_first_if_positive(x):
    if x[0] > 0:
        x[0] = 0.0
    return x


def scale_first_in_loop(x, n):
    for _ in range(n):
        x[0] *= 2.0
    return x


def clip_while(x):
    while x[0] > 1.0:
        x[0] = x[0] / 2
    return x


@pytest.mark.parametrize("x", [[1.0, 2.0, 3.0], [-1.0, 2.0, 3.0]])
def test_a_constant_index_of_a_parameter_in_a_branch(x):
    same(zero_first_if_positive, jnp.array(x))


@pytest.mark.parametrize("n", [0, 1, 3])
def test_a_constant_index_of_a_parameter_in_a_traced_loop(n):
    same(scale_first_in_loop, jnp.array([1.0, 2.0]), n)


@pytest.mark.parametrize("x", [[0.5, 1.0], [9.0, 1.0]])
def test_a_constant_index_of_a_parameter_in_a_while_loop(x):
    same(clip_while, jnp.array(x))


def grad_through_updates(x):
    y = x * 1.0
    for i in range(1, y.shape[0]):
        y[i] += y[i - 1] * 0.5
    if y[0] > 0:
        y[0] = y[0] ** 2
    return y.sum()


def test_grad_through_item_updates():
    x = jnp.array([0.3, -1.0, 2.0])
    g = jax.grad(autoconv.convert(grad_through_updates))(x)
    eps = 1e-6
    fd = [
        (
            eager(grad_through_updates, x.at[k].add(eps))
            - eager(grad_through_updates, x.at[k].add(-eps))
        )
        / (2 * eps)
        for k in range(3)
    ]
    np.testing.assert_allclose(g, fd, rtol=1e-6)
