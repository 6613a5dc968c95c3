"""Tuples appended to a list in a staged loop (`rows.append((month, interest, balance))`):
returning the list, `np.array(rows)`, `rows[-1]`, `for a, b in rows` and `max(rows)` give
eager's tuples, each item with its Python or NumPy type; what cannot be staged is a clear error.
"""

import numpy as np
import pytest

import autoconv
from autoconv import AutoconvError
from tests.graph.test_staged_writes_and_appends import same

INPUTS = [
    np.array([1.0, -2.0, 3.0]),
    np.array([-1.0, -2.0]),
    np.zeros(0),
    np.array([2.0, 0.5, 3.0, -1.0]),
]


def amortization(x):
    rows = []
    balance = np.sum(x) * 10
    month = 0
    while balance > 0 and month < 50:
        month += 1
        interest = balance * 0.01
        balance = balance - 3.0 + interest
        rows.append((month, interest, balance))
    return rows


def as_array(x):
    pairs = []
    for i in range(len(x)):
        if x[i] > 0:
            pairs.append((x[i], x[i] * 2))
    return np.array(pairs) if pairs else np.zeros((0, 2))


def last_row(x):
    hist = []
    for v in x:
        if v > 0:
            hist.append((v, v * v))
    if len(hist) == 0:
        return None
    a, b = hist[-1]
    return a + b


def iterate_rows(x):
    hist = []
    for v in x:
        if v > 0:
            hist.append((v, 1))
    s = 0.0
    for a, b in hist:
        s += a * b
    return s, len(hist)


def uneven_branches(x):
    out = [(0.0, 0)]
    for k, v in enumerate(x):
        if v > 1:
            out.append((v, k))
            out.append((v * 2, k))
        elif v < 0:
            out.append((-v, k))
    return out


def largest_row(x):
    out = []
    for v in x:
        if v > 0:
            out.append((v, -v))
    return max(out) if out else None


def inversions(x):
    out = []
    i = 0
    while i < len(x):
        j = 0
        while j < i:
            if x[j] > x[i]:
                out.append((i, j))
            j += 1
        i += 1
    return out


def array_items(x):
    out = []
    for v in x:
        if v > 0:
            out.append((v, np.array([v, 2 * v])))
    return out


PROGRAMS = [
    amortization,
    as_array,
    last_row,
    iterate_rows,
    uneven_branches,
    largest_row,
    inversions,
    array_items,
]


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_tuples_appended_in_staged_loops_match_eager(f):
    g = autoconv.function(f)
    for x in INPUTS:
        same(g(x), f(x))


def summed(x):
    out = []
    for v in x:
        if v > 0:
            out.append((v, v))
    return sum(out)


def python_then_numpy(x):
    out = []
    for v in x:
        if v > 0:
            out.append((v, 1))
        else:
            out.append((v, np.int64(2)))
    return out


@pytest.mark.parametrize(
    "f, words",
    [
        (summed, ["`sum` of a list of tuples", "Sum each field"]),
        (python_then_numpy, ["list `out`", "tuple(float64, int64) after tuple(float64, int)"]),
    ],
    ids=["sum", "item kinds differ"],
)
def test_what_a_list_of_tuples_cannot_do_is_a_clear_error(f, words):
    with pytest.raises(AutoconvError) as info:
        autoconv.function(f)(INPUTS[0])
    message = str(info.value)
    assert "test_appended_tuples.py:" in message
    for w in words:
        assert w in message


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_the_jax_backend_keeps_a_list_of_tuples(f):
    """A buffer per item of the tuples on the device: eager's tuples, or (a stack used in a
    branch, `max` of tuples) a LoweringError naming the list and the line."""
    jax = pytest.importorskip("jax")
    from autoconv.backends.jax import LoweringError

    g = autoconv.function(f, backend="jax")
    old = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    try:
        for x in INPUTS:
            try:
                got = g(x)
            except LoweringError as e:
                assert f in (as_array, largest_row), e
                assert "test_appended_tuples.py:" in str(e) and "list `" in str(e)
                continue
            same(got, f(x))
    finally:
        jax.config.update("jax_enable_x64", old)


def largest_by_key(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    return max(out, key=abs)


def test_max_with_a_key_of_a_run_time_list():
    # (keys that are numbers: staged, lists7; others stay a clear error, test_lists7.py)
    for x in INPUTS:
        try:
            want = largest_by_key(x)
        except ValueError:
            with pytest.raises(ValueError):
                autoconv.function(largest_by_key)(x)
            continue
        same(autoconv.function(largest_by_key)(x), want)
