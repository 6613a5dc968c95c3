"""A helper that hands back its argument (the check of a value bound on one path, `np.asarray`)
gives no new array: an in-place operation on its result must not write into the caller's array
(it did: `y = x` on one path, then `y * 2.0`, doubled the caller's `x`)."""

import numpy as np

import autoconv


def test_optional_value_is_not_written_in_place():
    @autoconv.function
    def f(x):
        y = None
        if np.sum(x) > 0:
            y = x
        return y * 2.0 + 1.0

    x = np.ones(3)
    assert np.array_equal(f(x), [3.0, 3.0, 3.0])
    assert np.array_equal(x, np.ones(3))
    assert "*=" not in f.get_concrete_function(x).code


def test_helpers_that_allocate_still_run_in_place():
    @autoconv.function
    def f(x):
        y = np.zeros(3)
        y[0] = x[0]
        return y * 2.0 + 1.0

    x = np.array([4.0, 5.0, 6.0])
    assert np.array_equal(f(x), [9.0, 1.0, 1.0])
    assert np.array_equal(x, [4.0, 5.0, 6.0])
