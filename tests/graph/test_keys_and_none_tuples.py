"""Two classes a probe of everyday programs found (issue 24):

- A `key=` lambda of `max`, `min` or `sorted` calling `math` on its item (`key=lambda p:
  math.hypot(p.x, p.y)`): the runtime called the lambda unconverted, so `math.hypot` met a
  Tensor ("float() ... needs its value while tracing"). It is called converted now, as any
  call converted code makes.
- A lambda given to library code (`functools.reduce(lambda a, b: a if a > b else b, xs)`,
  `pairs.sort(key=lambda p: ...)`) is passed through `ac.converted`, so the library calls its
  converted form (its `x if c else y` was a Tensor used as a bool), and so does a `math`
  function given so (`functools.reduce(math.gcd, xs)`).
- A helper returning a tuple or a tuple of Nones (`return i, j` in nested loops, `return None,
  None` after them), unpacked by the caller (`i, j = find_pair(x, t)`): the items are
  values-or-None inside a value-or-None, and unpacking it failed while tracing.
Each runs eagerly and as a graph on every input, on both backends."""

import functools
import math
from collections import namedtuple

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule

Point = namedtuple("Point", "x y")
INPUTS = [np.array([1.0, 4.0, 2.0]), np.array([]), np.array([3.0, -4.0]), np.array([2.5, 2.5])]


def farthest_point(x):
    pts = [Point(float(a), float(b)) for a, b in zip(x, x[::-1])]
    return max(pts, key=lambda p: math.hypot(p.x, p.y)) if pts else None


def by_magnitude(x):
    return sorted([float(v) for v in x], key=lambda v: math.fabs(v))


def smallest_magnitude(x):
    return min([float(v) for v in x], key=lambda v: math.fabs(v - 1.0), default=None)


def reduced_max(x):
    xs = [float(v) for v in x]
    return functools.reduce(lambda a, b: a if a > b else b, xs) if xs else None


def sorted_in_place(x):
    pairs = [(float(v), i) for i, v in enumerate(x)]
    pairs.sort(key=lambda p: -p[0] if p[0] > 0 else p[0])
    return [i for _, i in pairs]


def reduced_gcd(x):
    ints = [int(abs(v)) for v in x]
    return functools.reduce(math.gcd, ints, 0)


def _find_pair(x, target):
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            if x[i] + x[j] == target:
                return i, j
    return None, None


def pair_unpacked(x):
    i, j = _find_pair(x, 5.0)
    return i, j


def pair_reported(x):
    i, j = _find_pair(x, 5.0)
    if i is None:
        return "none"
    return f"{i}-{j}"


PROGRAMS = [
    farthest_point,
    by_magnitude,
    smallest_magnitude,
    reduced_max,
    reduced_gcd,
    sorted_in_place,
    pair_unpacked,
    pair_reported,
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_program(f, backend):
    for x in INPUTS:
        follows_the_rule(f, x, backend=backend)
