"""perf11: more shapes of a Python `range` loop that a staged `break` or `return` may end, rolled
into one `while` by `roll_break` (test_roll_break.py has k-means and the first programs):
`continue`, a `return` inside, nested loops, lists appended before and after the loop, zero
steps, and the stop on the first, a middle and the last step, or never. Each is checked
against eager NumPy and, bit for bit, against the unrolled graph, on both backends."""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS
from tests.graph.test_roll_break import _check, _depth


def with_continue(x):
    for _ in range(12):
        if np.max(x) > 100.0:
            break
        if x[0] > 2.0:
            x = x + 1.0
            continue
        x = x * 1.5
    return x


def return_inside(x):
    for _ in range(10):
        x = x * 1.3
        if np.sum(x) > 20.0:
            return x
    return -x


def two_returns(x):
    for _ in range(8):
        x = x * 1.5
        if x[0] > 10.0:
            return x[0]
        if x[1] < -10.0:
            return x[1]
    return 0.5


def nested(x):
    for _ in range(3):
        for _ in range(8):
            if np.sum(x) > 40.0:
                break
            x = x * 1.2
        x = x - 5.0
    return x


def appended_in_the_steps(x):
    out = []
    for _ in range(8):
        out.append(x.sum())  # a Python-side effect of each step: the steps stay nested
        if x.sum() > 10:
            break
        x = x * 2
    return x, out[0]


def appended_around(x):
    seen = [x]
    for _ in range(8):
        if x.sum() > 10:
            break
        x = x * 2
    seen.append(x)
    return seen


def halve(x, n):
    for _ in range(n):
        if x < 1.0:
            break
        x = x / 2.0
    return x


def counted(x):
    k = 0
    for _ in range(9):
        if np.sum(x) > 30.0:
            break
        x = x + x
        k = k + 1
    return x, k


CASES = [
    (with_continue, (np.array([1.0, 2.0]),), 1),
    (with_continue, (np.array([3.0, 2.0]),), 1),
    # (each "stopped" else yields the return flag as a constant True, the innermost passes
    # it on: the loop's flag, or the constant where it stopped before the innermost level)
    (return_inside, (np.array([1.0, 2.0]),), 1),
    (return_inside, (np.array([0.01, 0.0]),), 1),  # never returns inside
    (return_inside, (np.array([1.6, 0.0]),), 1),  # at the last step
    (return_inside, (np.array([2.2, 0.0]),), 1),  # at the one before
    (return_inside, (np.array([17.0, 0.0]),), 1),  # at the first
    (two_returns, (np.array([1.0, 2.0]),), 1),  # (the constants in the outer levels only)
    (two_returns, (np.array([1.0, -2.0]),), 1),
    (two_returns, (np.array([0.1, 0.1]),), 1),
    (nested, (np.array([1.0, 2.0]),), None),
    (appended_in_the_steps, (np.array([1.0, 2.0]),), 0),
    (appended_around, (np.array([1.0, 2.0]),), 1),
    (halve, (np.float64(0.5), 8), 1),  # stops at the first step
    (halve, (np.float64(20.0), 8), 1),  # a middle step
    (halve, (np.float64(2.0**7 * 0.99), 8), 1),  # the last step
    (halve, (np.float64(1000.0), 8), 1),  # never
    (halve, (np.float64(5.0), 0), 0),  # no steps
    (halve, (np.float64(5.0), 1), 0),  # one step: nothing to roll
    (counted, (np.array([1.0]),), 1),
    (counted, (np.array([100.0]),), 1),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn, args, whiles", CASES, ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(CASES)]
)
def test_shapes_of_a_staged_break(fn, args, whiles, backend):
    _check(fn, *args, backend=backend, whiles=whiles)


@pytest.mark.parametrize("backend", BACKENDS)
def test_nested_loops_roll_inside_and_out(backend):
    concrete = _check(nested, np.array([1.0, 2.0]), backend=backend)
    assert _depth(concrete) <= 3  # not 3 x 8 nested conds
