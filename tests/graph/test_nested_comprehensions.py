"""Comprehensions with several `for`s and a filter or a computed `range` (issue 24, batch 9's
C7): `[(i, j) for i in range(n) for j in range(i + 1, n) if a[i] > a[j]]`,
`{int(v) for r in rows for v in r if v % 2}`, `sum(... for ... for ... if ...)`. Each `for`
is a staged loop and each filter a staged `if` while tracing, as the nested statements with
an append are; outside traces the comprehension is Python's. Each program runs eagerly, as
converted code outside traces, and as one graph function on every backend."""

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule, same

P = []


def prog(*inputs):
    def add(f):
        P.append((f, inputs))
        return f

    return add


M = np.array([[1, 2, 3], [4, 5, 6]])
A = np.array([3.0, 1.0, 2.0, 5.0])
E = np.zeros(0)


@prog((M,), (np.zeros((0, 3), dtype=np.int64),))
def odd_set(rows):
    return sorted({int(v) for r in rows for v in r if v % 2})


@prog(
    (M,),
)
def odd_list(rows):
    return [int(v) for r in rows for v in r if v % 2]


@prog(
    (M,),
)
def odd_sum(rows):
    return sum(int(v) for r in rows for v in r if v % 2)


@prog((A,), (E,), (np.array([1.0, 2.0]),))
def inversions(a):
    n = len(a)
    return [(i, j) for i in range(n) for j in range(i + 1, n) if a[i] > a[j]]


@prog((A,), (E,))
def count_close_pairs(a):
    return sum(1 for i in range(len(a)) for j in range(i) if abs(a[i] - a[j]) < 1.5)


@prog(
    (A,),
)
def any_pair_sums_to(a):
    return any(a[i] + a[j] == 7.0 for i in range(len(a)) for j in range(i + 1, len(a)))


@prog(
    (M,),
)
def filter_outer_only(rows):
    return [float(v) * 2 for r in rows if r.sum() > 6 for v in r]


@prog((np.array([[1.0, 2.0], [3.0, -4.0], [0.5, 0.5]]),))
def tuple_targets(pts):
    return [(x, y) for x, y in pts if x > 0 for _k in range(2) if y > 0]


@prog(
    (np.array([2, 3]),),
)
def three_levels(sizes):
    return [
        (i, j, k)
        for i in range(int(sizes[0]))
        for j in range(int(sizes[1]))
        for k in range(2)
        if (i + j + k) % 3 == 0
    ]


@prog(
    (A,),
)
def max_of_products(a):
    return max(a[i] * a[j] for i in range(len(a)) for j in range(len(a)) if i != j)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f,inputs", P, ids=[f.__name__ for f, _ in P])
def test_program(f, inputs, backend):
    for args in inputs:
        follows_the_rule(f, *args, backend=backend)


@pytest.mark.parametrize("f,inputs", P, ids=[f.__name__ for f, _ in P])
def test_converted_code_outside_traces(f, inputs):
    converted = autoconv.convert(f)
    for args in inputs:
        assert same(f(*args), converted(*args))


def pairs_of(items):
    return [a * b for a, b in items for _ in range(2) if a > 0]


def test_a_wrong_unpacking_count_is_pythons_error():
    with pytest.raises(ValueError, match="too many values to unpack"):
        autoconv.convert(pairs_of)([(1, 2, 3)])
    with pytest.raises(ValueError, match="not enough values to unpack"):
        autoconv.convert(pairs_of)([(1,)])
    assert autoconv.convert(pairs_of)([(1, 2), (-1, 3)]) == pairs_of([(1, 2), (-1, 3)])
