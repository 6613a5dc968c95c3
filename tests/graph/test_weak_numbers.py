"""A Python number that meets NumPy values by path (`s = 0; for v in arr: s = s * 10 + v`):
NumPy's weak-scalar rule, on both backends. Never an error for it, never a placeholder that
escapes into NumPy or Python, and the eager values; the Python type of each path where the
value is returned, printed or rounded, also after operations on numbers (the documented rule:
`docs/graph-mode.md`, "Python numbers")."""

import math

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import follows_the_rule

try:
    import jax  # noqa: F401 - the JAX backend is an optional extra

    BACKENDS = ["numpy", "jax"]
except ImportError:
    BACKENDS = ["numpy"]


def digits(arr):
    s = 0
    for v in arr:
        s = s * 10 + v
    return s


def pair_of_sums(x):
    s = 0.0
    for v in x:
        s += v
    return np.array([s, s])


def rounded_balance(x):
    balance = 100.0
    for r in x:
        balance = balance * (1 + r)
    return round(balance, 2)


def first_big(x):
    for v in x:
        if v > 2:
            return v
    return 0.0


def centered(x):
    return x - first_big(x)


def count_positive(x):
    n = 0
    for v in x:
        if v > 0:
            n = n + 1
    return n, n * 2


def mean_or_zero(x):
    total = 0
    count = 0
    for v in x:
        total = total + v
        count += 1
    if count > 0:
        return total / count
    return 0


def scaled(x):
    scale = 1
    if np.sum(x) > 0:
        scale = np.sum(x) / 2
    return 0.5 * scale, scale


def product_int32(x):
    p = 1
    for v in x:
        p *= v
    return p


def horner(coeffs, t):
    acc = 0.0
    for c in coeffs:
        acc = acc * t + c
    return acc


def max_abs(x):
    m = 0
    for v in x:
        m = max(m, abs(v))
    return m, [m, 1]


def printed(x):
    s = 0
    for v in x:
        s = s + v
    autoconv.print(s, repr(s), f"{s:.1f}")
    return s


I32, F64 = np.int32, np.float64
CASES = [
    (digits, (np.array([1, 2, 3], I32),)),
    (digits, (np.array([], I32),)),
    (digits, (np.array([4, 5], np.int64),)),
    (pair_of_sums, (np.array([1.5, 2.0]),)),
    (pair_of_sums, (np.zeros(0),)),
    (rounded_balance, (np.array([0.01, 0.02, -0.005]),)),
    (rounded_balance, (np.zeros(0),)),
    (centered, (np.array([1.0, 3.0, 5.0]),)),
    (centered, (np.array([1.0, 2.0]),)),
    (count_positive, (np.array([1.0, -1.0, 2.0]),)),
    (count_positive, (np.zeros(0),)),
    (mean_or_zero, (np.array([1.0, 2.0]),)),
    (mean_or_zero, (np.zeros(0),)),
    (scaled, (np.array([1.0, 2.0]),)),
    (scaled, (np.array([-1.0]),)),
    (product_int32, (np.array([2, 3], I32),)),
    (product_int32, (np.array([], I32),)),
    (horner, (np.array([1.0, 2.0, 3.0]), F64(2.0))),
    (horner, (np.zeros(0), F64(2.0))),
    (max_abs, (np.array([-3.0, 2.0]),)),
    (max_abs, (np.zeros(0),)),
    (printed, (np.array([1, 2], I32),)),
    (printed, (np.array([], I32),)),
]


def same(expected, got) -> bool:
    if isinstance(expected, (tuple, list)):
        return (
            type(expected) is type(got)
            and len(expected) == len(got)
            and all(map(same, expected, got))
        )
    if type(expected) is not type(got):
        return False
    if isinstance(expected, (np.ndarray, np.generic)):
        return expected.dtype == got.dtype and np.array_equal(expected, got)
    return expected == got


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn,args", CASES, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(CASES)]
)
def test_python_numbers_meeting_numpy_values_by_path(fn, args, backend, capsys):
    expected = fn(*args)
    printed_eagerly = capsys.readouterr().out
    got = autoconv.function(fn, backend=backend)(*args)
    assert same(expected, got), (expected, got)
    assert capsys.readouterr().out == printed_eagerly


def in_a_branch(x):
    y = 0.5
    if np.sum(x) > 0:
        y = np.sum(x)
    return y * 2, y


def test_operations_keep_each_paths_python_type_where_the_paths_differ_in_dtype():
    """`s * 10` is a Python int on the zero-trip path and an int32 on the others: the result
    is each path's, a Python int after no iteration, as eagerly."""

    def times_ten(arr):
        s = 0
        for v in arr:
            s = v
        return s * 10

    # A length known only when the graph runs: the loop is staged and may run no iteration.
    staged = autoconv.function(times_ten, input_signature=[autoconv.TensorSpec([None], I32)])
    got = staged(np.array([], I32))
    assert type(got) is int and got == 0
    got = staged(np.array([3], I32))
    assert type(got) is np.int32 and got == 30
    # A length of 0 known while tracing: no iteration, as eagerly (a Python int).
    got = autoconv.function(times_ten)(np.array([], I32))
    assert type(got) is int and got == 0

    def negated(x):
        scale = 1  # a Python int here, a float64 below: `-scale` is each path's
        if np.sum(x) > 0:
            scale = np.sum(x) / 2
        return -scale

    for x in (np.array([-1.0]), np.array([3.0])):
        assert same(autoconv.function(negated)(x), negated(x))
    assert type(autoconv.function(negated)(np.array([-1.0]))) is int
    assert same(in_a_branch(np.array([-1.0])), autoconv.function(in_a_branch)(np.array([-1.0])))


def test_an_array_operation_whose_dtype_differs_by_path_is_an_error_naming_the_variable():
    def scaled_by_total(arr, x):
        s = 0  # after no iteration eager gives x * 0 in float32, after others float64
        for v in arr:
            s = s + v
        return x * s

    x = np.array([1.5], np.float32)
    assert scaled_by_total(np.array([], I32), x).dtype == np.float32
    assert scaled_by_total(np.array([1, 2], I32), x).dtype == np.float64
    spec = [autoconv.TensorSpec([None], I32), autoconv.TensorSpec([1], np.float32)]
    staged = autoconv.function(scaled_by_total, input_signature=spec)  # run-time lengths
    with pytest.raises(autoconv.AutoconvError, match=r"`s` is a Python int .*np\.int32\(0\)"):
        staged(np.array([1, 2], I32), x)
    empty = autoconv.function(scaled_by_total)(np.array([], I32), x)  # no iteration, known now
    assert empty.dtype == np.float32 and empty.tolist() == [0.0]


def test_np_stack_of_a_value_that_is_a_python_float_on_one_path_is_an_error():
    def helper(v, w):
        if v > w:
            return v - w
        return w * 0.5

    def stacked(s):
        return np.stack([helper(s, 0)])

    with pytest.raises(autoconv.AutoconvError, match=r"float32 or float64"):
        autoconv.function(stacked)(np.float32(-2.0))


def test_an_int_on_one_path_and_a_float_on_another_in_an_array_operation_is_an_error():
    def signed(x):
        scale = 1.0 if x.mean() > 0 else -1
        return x * scale  # int32 on one path, float64 on the other: eagerly both happen

    with pytest.raises(autoconv.AutoconvError, match=r"Python float or a Python int.*-1\.0"):
        autoconv.function(signed)(np.array([1, 2], I32))


def test_a_python_number_the_numpy_dtype_cannot_hold_is_an_error():
    def starts_at_a_tenth(x):
        s = 0.1
        for v in x:
            s = s + v
        return s

    with pytest.raises(autoconv.AutoconvError, match=r"`s` is float .*float32\[\]"):
        autoconv.function(starts_at_a_tenth)(np.zeros(3, np.float32))


def test_a_max_whose_items_disagree_is_named_as_max():
    def running_max(x):
        m = -np.inf  # a float against int32 items: eager gives float or int32 by path
        for v in x:
            m = max(m, v)
        return m

    with pytest.raises(autoconv.AutoconvError, match=r"the `max\(\)` choice's value is int32"):
        autoconv.function(running_max)(np.array([1, 2], I32))


def close_checks(x):
    s = float(x.sum())
    right = math.isclose(x[0] + x[1], x[2])
    return math.isclose(s, 1.0), math.isclose(s, 1.0, rel_tol=0.2), right, math.ldexp(s, 2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_math_isclose_of_run_time_numbers_is_a_python_bool(backend):
    # It was "float() of `s` needs its value while tracing" (batch 7 C6).
    for x in (
        np.array([0.5, 0.5, 1.0]),
        np.array([0.45, 0.6, 3.0]),
        np.array([np.inf, 0.0, np.inf]),
        np.array([np.nan, 0.0, 1.0]),
    ):
        follows_the_rule(close_checks, x, backend=backend)
