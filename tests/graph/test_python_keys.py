"""Python arguments key their traces exactly: by type and, for floats, by bit pattern.

Differential: each traced call gives what the Python function gives eagerly with NumPy (value,
sign, type), whatever was traced before it.
"""

import math
import warnings

import numpy as np
import pytest

import autoconv
from autoconv.graph import signature as sig


def same(a, b) -> bool:
    """Equal values of the same type, telling 0.0 from -0.0 and treating NaN as equal."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (float, np.floating)):
        return np.array_equal(a, b, equal_nan=True) and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def reciprocal(x):
    with np.errstate(divide="ignore"):
        return np.float64(1.0) / x


@pytest.mark.parametrize(
    "first, second", [(0.0, -0.0), (-0.0, 0.0)], ids=["+0-then-0", "-0-then+0"]
)
def test_signed_zeros_trace_apart(first, second):
    f = autoconv.function(reciprocal)
    with np.errstate(divide="ignore"):
        for x in (first, second, first, second):
            assert same(f(x), reciprocal(x)), x
    assert f(-0.0) == -np.inf  # what NumPy gives; the 0.0 graph would give +inf
    assert f.tracing_count == 2


def test_signed_zero_inside_a_tuple():
    @autoconv.function
    def f(pair):
        with np.errstate(divide="ignore"):
            return np.float64(1.0) / pair[0], np.float64(1.0) / pair[1]

    assert f((0.0, 1.0)) == (np.inf, 1.0)
    assert f((-0.0, 1.0)) == (-np.inf, 1.0)
    assert f.tracing_count == 2


def test_a_fresh_nan_does_not_retrace():
    @autoconv.function
    def f(x, y):
        return np.float64(x) + y

    for _ in range(10):
        result = f(float("nan"), np.float64(1))
        assert np.isnan(result) and type(result) is np.float64
    assert f.tracing_count == 1


def test_nans_with_other_bits_are_other_keys():
    quiet = float("nan")
    other = np.frombuffer(np.uint64(0x7FF8000000000001).tobytes(), np.float64)[0].item()
    assert math.isnan(other)
    assert sig.flatten(quiet, []) == sig.flatten(float("nan"), [])
    assert sig.flatten(quiet, []) != sig.flatten(other, [])


def kind_of(x):
    return np.asarray(x).dtype.name, type(x).__name__, x * 3


@pytest.mark.parametrize("order", [(1, True, 1.0), (1.0, True, 1), (True, 1.0, 1)], ids=str)
def test_one_true_and_one_point_zero_are_three_keys(order):
    f = autoconv.function(kind_of)
    for x in order + order:
        got = f(x)
        expected = kind_of(x)
        assert got[:2] == expected[:2], x
        assert np.asarray(got[2]).dtype == np.asarray(expected[2]).dtype, x
        assert got[2] == expected[2], x
    assert f.tracing_count == 3


def test_complex_keys_are_exact():
    f = autoconv.function(reciprocal)
    with np.errstate(divide="ignore", invalid="ignore"):
        for x in (complex(0.0, 1.0), complex(-0.0, 1.0), complex(0.0, 1.0)):
            got, expected = f(x), reciprocal(x)
            assert same(got.real, expected.real) and same(got.imag, expected.imag), x
    assert f.tracing_count == 2


def test_concrete_function_checks_the_exact_value():
    f = autoconv.function(reciprocal)
    concrete = f.get_concrete_function(0.0)
    assert concrete(0.0) == np.inf
    with pytest.raises(TypeError, match=r"traced with the Python value 0\.0, got -0\.0"):
        concrete(-0.0)
    with pytest.raises(TypeError, match="traced with the Python value 0.0, got False"):
        concrete(False)


def test_signature_text_shows_the_value():
    f = autoconv.function(reciprocal)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f(-0.0)
        f(2.5)
    text = f.pretty_printed_concrete_signatures()
    assert "x: -0.0" in text and "x: 2.5" in text
