"""A loop variable that starts as a Python number and becomes a NumPy value in a `for` loop
whose items are known to be at least one: after the loop it is the NumPy value on every path
(`c = 0; for v in x: c += v > 1` gives an `np.int64`), so its type can be asked."""

import numpy as np
import pytest
from agreement import BACKENDS, follows_the_rule, message

INPUTS = [np.array([1.0, 4.0, 2.0]), np.array([-1.0, 3.0]), np.zeros(0)]


def counted(x):
    c = 0
    for v in x:
        c += v > 1
    return c, type(c).__name__


def summed_then_typed(x):
    c = 0.0
    n = 0
    for v in x:
        c += v
        n += 1
    return c, n, type(c), type(n)


def skipped_some(x):
    c = 0
    for v in x:
        if v < 0:
            continue
        c = c + v
    return c


def first_or_max(x):
    m = None
    for v in x:
        m = v if m is None else max(m, v)
    return m


def left_by_break(x):
    c = 0
    for v in x:
        if v < 0:
            break
        c += v > 1
    return c, type(c).__name__


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn", [counted, summed_then_typed, skipped_some, first_or_max], ids=lambda f: f.__name__
)
@pytest.mark.parametrize("x", INPUTS, ids=["three", "negative", "empty"])
def test_type_after_a_loop_that_surely_runs(backend, fn, x):
    follows_the_rule(fn, x, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_type_left_by_a_break_depends_on_the_data(backend):
    # `break` before the first change leaves the Python int: the type is known only when the
    # graph runs, a clear error naming `c` (the empty input's graph runs: no iteration)
    assert "`c`" in message(left_by_break, INPUTS[0], backend=backend)
    follows_the_rule(left_by_break, INPUTS[2], backend=backend)
