"""`collections.deque(maxlen=k)` used as a sliding window in staged loops and branches: a list
while the graph is traced, whose `maxlen` the converter keeps by the statements the deque runs
itself (converters/deques.py)."""

from collections import deque

import numpy as np
import pytest
from agreement import BACKENDS, follows_the_rule

import autoconv


def moving_average(x):
    w = deque(maxlen=2)
    out = []
    for v in x:
        w.append(v)
        out.append(sum(w) / len(w))
    return out


def kept_when_large(x):
    w = deque(maxlen=3)
    for v in x:
        if v > 1:
            w.append(v)
    return list(w), len(w)


def pushed_left(x, k=2):
    w = deque([0.0, 0.5, 1.0], maxlen=k)
    best = []
    for v in x:
        w.appendleft(float(v))
        best.append(max(w))
    return best, list(w)


def extended(x):
    w = deque(maxlen=4)
    for v in x:
        w.extend([v, -v])
    return np.mean(w) if w else None, list(w)


def no_room(x):
    w = deque(maxlen=0)
    for v in x:
        w.append(v)
    return len(w)


def unbounded_by_argument(x, k=None):
    w = deque(maxlen=k)
    for v in x:
        if v > 0:
            w.append(v)
    return sum(w)


def first_drop(x):
    w = deque(maxlen=2)
    for v in x:
        w.append(v)
        if len(w) == 2 and w[0] > w[-1]:
            return float(w[0])
    return None


PROGRAMS = [
    moving_average,
    kept_when_large,
    pushed_left,
    extended,
    no_room,
    unbounded_by_argument,
    first_drop,
]
INPUTS = [np.array([1.0, 4.0, 2.0, 5.0]), np.array([2.0, 3.0, 4.0, 1.0]), np.zeros(0)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", PROGRAMS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", INPUTS, ids=["up", "down", "empty"])
def test_window_deques(backend, fn, x):
    follows_the_rule(fn, x, backend=backend)


def test_the_window_is_a_deque_outside_graphs():
    # converted code run as Python keeps the deque itself, which never grows past maxlen
    x = np.array([1.0, 4.0, 2.0, 5.0])
    assert autoconv.convert(moving_average)(x) == moving_average(x)
    code = autoconv.to_code(moving_average)
    assert "maxlen_w = 2" in code and "ac.deque((), maxlen_w)" in code


def test_a_window_read_as_a_deque_stays_one():
    def reads_maxlen(x):
        w = deque(maxlen=2)
        for v in x:
            w.append(v)
        return w.maxlen

    assert "ac.deque" not in autoconv.to_code(reads_maxlen)
