"""`w -= x` on an array the function made is recorded as `np.subtract(w, x, dtype=w.dtype,
casting="same_kind")`: the JAX backend casts the operands to that dtype and computes in it, as
NumPy does (jax.numpy's ufuncs take no `dtype`). Eager vs `backend="jax"`: values, dtypes and
Python types, or the same exception type."""

import numpy as np
import pytest

import autoconv
from tests.jax.test_run_time_lists import outcome, same


def descend(w0, x, k):
    w = np.zeros(w0.shape, w0.dtype)  # (a new array: its in-place updates are recorded)
    w += w0
    for _ in range(3):
        w -= x * 0.5
        w *= 2
        k += 1
    return w, k


@pytest.mark.parametrize(
    "args",
    [
        (np.ones(2), np.arange(2.0), 1),
        (np.ones(2, np.float32), np.array([0.1, 0.3]), np.int32(2)),
        (np.ones(3, np.float32), np.float32(0.7), 2.5),
        (np.ones(2, np.int64), np.array([1, 3]), 3),  # same_kind: eager raises
    ],
)
def test_in_place_operators_keep_the_array_dtype(args):
    expected = outcome(descend, *args)
    got = outcome(autoconv.function(descend, backend="jax"), *args)
    assert expected[0] == got[0], (expected, got)
    if expected[0] == "raise":
        assert isinstance(got[1], TypeError) and isinstance(expected[1], TypeError)
    else:
        assert same(expected[1], got[1]), (expected, got)
