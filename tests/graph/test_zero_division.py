"""Division of Python numbers by a zero known only when the graph runs (`1.0 / v` with
`v = float(x[0])`, a loop counter) raises eager Python's ZeroDivisionError on both backends
(on JAX: a check when the graph runs, raised after the call); NumPy scalars divide to an
infinity as eager NumPy does. Each program runs eagerly and traced on both backends, and the
outcomes (value and Python type, or the exception's type and message) must agree."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autoconv

try:
    import jax  # noqa: F401 - the JAX backend is an optional extra

    BACKENDS = ["numpy", "jax"]
except ImportError:
    BACKENDS = ["numpy"]


def outcome(fn, *args):
    """("value", value) or ("raises", type, message), warnings silenced (NumPy's warning for
    a NumPy scalar divided by zero is not what is compared)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return "value", fn(*args)
        except Exception as e:  # noqa: BLE001 - the outcome is the error
            return "raises", type(e), str(e)


def same(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (np.ndarray, np.generic)):
        return a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True)
    return a == b or (a != a and b != b)


def check(fn, *args):
    """Runs `fn` eagerly and on each backend; returns the eager outcome."""
    expected = outcome(fn, *args)
    for backend in BACKENDS:
        got = outcome(autoconv.function(fn, backend=backend), *args)
        assert got[0] == expected[0], (backend, got, expected)
        if got[0] == "raises":
            assert issubclass(got[1], expected[1]), (backend, got, expected)
            assert expected[2] in got[2], (backend, got, expected)  # Python's own message
        else:
            assert same(got[1], expected[1]), (backend, got, expected)
    return expected


def float_true(x):
    v = float(x[0])
    return 1.0 / v


def int_true(x):
    n = int(x[0])
    return 3 / n


def int_floor(x):
    n = int(x[0])
    return 7 // n


def int_mod(x):
    n = int(x[0])
    return 7 % n


def float_floor(x):
    v = float(x[0])
    return 7.5 // v


def float_mod(x):
    v = float(x[0])
    return 7.5 % v


def float_by_int(x):
    n = int(x[0])
    return float(x[1]) / n


def int_divmod(x):
    n = int(x[0])
    q, r = divmod(7, n)
    return q, r


def negative_power(x):
    v = float(x[0])
    return v**-1


def power_of_a_run_time_exponent(x):
    k = int(x[1])
    return 0.0**k


def in_a_branch(x):
    v = float(x[0])
    if x[1] > 0:
        r = 1.0 / v
    else:
        r = -1.0
    return r


def loop_counter(x):
    total = 0
    for i in range(int(x[1])):
        total += 12 // (i - int(x[0]))
    return total


def in_a_while_loop(x):
    v = float(x[0])
    n = 0
    total = 0.0
    while n < 3:
        total += 1.0 / (v - n)
        n += 1
    return total


def numpy_scalars(x):
    return np.float64(x[0]) / np.float64(x[1]), x[0] / x[1]


def numpy_scalar_by_a_python_number(x):
    n = int(x[1])
    return np.sum(x) / n, np.float64(x[0]) // float(n)


PROGRAMS = [
    (float_true, [[2.0], [0.0], [-0.0]]),
    (int_true, [[4.0], [0.0]]),
    (int_floor, [[3.0], [0.0], [-2.0]]),
    (int_mod, [[3.0], [0.0]]),
    (float_floor, [[2.0], [0.0]]),
    (float_mod, [[2.0], [0.0]]),
    (float_by_int, [[2.0, 1.0], [0.0, 1.0]]),
    (int_divmod, [[3.0], [0.0]]),
    (negative_power, [[2.0], [0.0]]),
    (power_of_a_run_time_exponent, [[0.0, 2.0], [0.0, -1.0], [0.0, 0.0]]),
    (in_a_branch, [[0.0, 1.0], [0.0, -1.0], [2.0, 1.0]]),
    (loop_counter, [[5.0, 3.0], [1.0, 3.0], [2.0, 2.0]]),
    (in_a_while_loop, [[0.5, 0.0], [1.0, 0.0], [2.0, 0.0]]),
    (numpy_scalars, [[1.0, 0.0], [0.0, 0.0], [1.0, 2.0]]),
    (numpy_scalar_by_a_python_number, [[1.0, 0.0], [1.0, 2.0]]),
]


@pytest.mark.parametrize("fn, inputs", PROGRAMS, ids=[fn.__name__ for fn, _ in PROGRAMS])
def test_like_eager_code(fn, inputs):
    outcomes = {check(fn, np.array(x))[0] for x in inputs}
    assert outcomes == ({"value"} if fn.__name__.startswith("numpy") else {"value", "raises"})


def test_numpy_scalars_stay_infinite():
    for backend in BACKENDS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = autoconv.function(numpy_scalars, backend=backend)(np.array([1.0, 0.0]))
        assert got == (np.inf, np.inf) and type(got[0]) is np.float64, (backend, got)


def test_the_error_names_the_users_line():
    line = float_true.__code__.co_firstlineno + 2
    for backend in BACKENDS:
        with pytest.raises(ZeroDivisionError) as info:
            autoconv.function(float_true, backend=backend)(np.array([0.0]))
        text = str(info.value) + "".join(getattr(info.value, "__notes__", []))
        assert f"test_zero_division.py:{line}" in text, (backend, text)


def printing_loop(x):
    total = 0
    for i in range(int(x[1])):  # a staged loop: its print runs with the graph
        print("step", i)
        total += 6 // (int(x[0]) - i)
    return total


def test_prints_before_the_error_only(capsys):
    expected = outcome(printing_loop, np.array([1.0, 3.0]))
    eager = capsys.readouterr().out
    assert expected[0] == "raises" and eager == "step 0\nstep 1\n"
    for backend in BACKENDS:
        got = outcome(autoconv.function(printing_loop, backend=backend), np.array([1.0, 3.0]))
        assert got[0] == "raises" and issubclass(got[1], expected[1]), backend
        assert capsys.readouterr().out == eager, backend


@settings(max_examples=25, deadline=None)
@given(
    st.integers(-3, 3),
    st.sampled_from([0.0, -0.0, 1.5, -2.0]),
)
def test_run_time_numbers(n, v):
    x = np.array([float(n), v])
    for fn in (int_floor, int_mod, float_by_int, int_divmod):
        check(fn, x)
    check(float_mod, np.array([v]))
