"""Counted loops on the JAX backend: a `for` over an array's first axis and a Python `range`
loop re-rolled by the `roll` pass index with a counter that stays in bounds, so the lowered
loop carries no index check (no error flag, no host callback); other indices keep theirs."""

import numpy as np
import pytest

import autoconv

RNG = np.random.default_rng(1)


def _same(fn, *args):
    want = fn(*args)
    f = autoconv.function(fn, backend="jax")
    got = f(*args)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_allclose(got, want, rtol=1e-12)
    return f.get_concrete_function(*args).code


def test_a_loop_over_an_array_argument_has_no_index_check():
    def layers(x, ws):
        for w in ws:
            x = np.maximum(x @ w, 0.0)
        return x

    code = _same(layers, RNG.random((8, 16)), RNG.random((20, 16, 16)) * 0.1)
    assert "while_loop" in code and "index_error" not in code and "err" not in code


def test_a_rolled_range_with_strided_and_negative_indices_has_no_index_check():
    def f(x):
        s = x[0] * 0
        for i in range(2, 20, 3):
            s = s * 0.5 + x[i] - x[-i] + x[i + 1]
        return s

    code = _same(f, RNG.random((22, 3)))
    assert "while_loop" in code and "index_error" not in code


def test_an_index_the_counter_does_not_bound_is_still_checked():
    def f(x, n):
        s = x[0] * 0
        for i in range(n):  # a bound known only when the graph runs
            s = s + x[i]
        return s

    x = RNG.random((4, 2))
    f_jax = autoconv.function(f, backend="jax")
    np.testing.assert_allclose(f_jax(x, np.int64(3)), f(x, np.int64(3)))
    assert "index_error" in f_jax.get_concrete_function(x, np.int64(3)).code


def test_an_index_past_the_end_still_raises():
    def f(x, k):
        s = x[0] * 0
        for w in x:
            s = s + w + x[k]
        return s

    x = RNG.random((3, 2))
    with pytest.raises(IndexError, match="out of bounds"):
        f(x, np.int64(5))
    with pytest.raises(IndexError, match="out of bounds"):
        autoconv.function(f, backend="jax")(x, np.int64(5))
