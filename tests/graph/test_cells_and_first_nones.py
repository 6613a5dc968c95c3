"""State a loop cannot see by name, and a first None.

- A list that a function the loop calls writes into (`best[0] = v` of the enclosing function's
  `best = [None]`, the usual mutable cell of a closure), keeping its length, is carried item by
  item as the loop's variable `best[:]`, as an object's list is: its items may start as None
  (carried as values-or-None). Before, it was carried as one run-time list, which cannot hold
  None ("changed by a method other than append()").
- A list appended only None in the first attempt of a loop (`d = None if prev is None else v -
  prev` while `prev` is still the None before the loop) is traced again once the loop's
  variables settle, when its items are values-or-None. Before, the first None was refused.
Each program runs eagerly and as a graph on each input, on both backends."""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule

INPUTS = [np.array([4.0, 1.0, 5.0]), np.array([]), np.array([-2.0, 0.0])]


def running_max_cell(a):
    best = [None]

    def update(v):
        if best[0] is None or v > best[0]:
            best[0] = v

    for v in a:
        update(int(v))
    return best[0]


def argmax_cell(x):
    best = [None, -1]

    def see(i, v):
        if best[0] is None or v > best[0]:
            best[0] = v
            best[1] = i

    for i, v in enumerate(x):
        see(i, float(v))
    return best


def mean_of_positives_cell(x):
    stats = [0, 0.0]

    def add(v):
        stats[0] += 1
        stats[1] += v

    for v in x:
        if v > 0:
            add(float(v))
    return stats[1] / stats[0] if stats[0] else None


class Tracker:
    def __init__(self):
        self.last = [None]
        self.n = 0

    def push(self, v):
        self.last[0] = v
        self.n += 1


def object_cell(x):
    t = Tracker()
    for v in x:
        t.push(float(v))
    return t.last[0], t.n


def flags_cell(x):
    seen = [False] * 3

    def mark(k):
        seen[k] = True

    for v in x:
        mark(int(abs(v)) % 3)
    return seen


def histogram_cell(x):
    hist = [0] * 4

    def bump(v):
        hist[min(int(abs(v)), 3)] += 1

    for v in x:
        bump(v)
    return hist


def differences_cell(x):
    prev = [None]
    out = []

    def step(v):
        d = None if prev[0] is None else v - prev[0]
        prev[0] = v
        return d

    for v in x:
        out.append(step(float(v)))
    return out


def differences(x):
    prev = None
    out = []
    for v in x:
        d = None if prev is None else float(v) - prev
        prev = float(v)
        out.append(d)
    return out


def always_none(x):
    out = []
    for _ in x:
        out.append(None)
    return out


PROGRAMS = [
    running_max_cell,
    argmax_cell,
    mean_of_positives_cell,
    object_cell,
    flags_cell,
    histogram_cell,
    differences_cell,
    differences,
    always_none,
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_program(f, backend):
    for x in INPUTS:
        follows_the_rule(f, x, backend=backend)
