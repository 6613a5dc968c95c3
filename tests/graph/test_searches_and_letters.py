"""`bisect` of a sorted list of Python numbers at a value known only when the graph runs (a grade
cut-off table), and a character of a string written in the code at such an index
(`"FDCBA"[i]`): a search of the numbers (a Python int, as eagerly) and a choice among the
characters. Before, the list was made a run-time list of the other kind ("holds items a staged
statement appended (int64[] each) and others of another kind") and the string index needed a
Python int (batch 9's `bisect_grade_letters`). Each program runs eagerly and as one graph
function, on both backends, and under `jax.jit(convert(f))` where JAX is installed."""

import bisect
from collections import Counter

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_or_jax_limit, same

INPUTS = [
    np.array([55.0, 95.0, 71.0, 80.0]),
    np.array([60.0]),
    np.zeros(0),
    np.array([90.5]),
    np.array([np.nan, 70.0]),  # bisect_left puts a NaN first, bisect_right last
]


def grade_letters(scores):
    cuts = [60, 70, 80, 90]
    letters = "FDCBA"
    out = [letters[bisect.bisect(cuts, s)] for s in scores]
    return "".join(out), Counter(out)


def both_sides(scores):
    cuts = (0.5, 60, 60, 90.25)
    return [(bisect.bisect_left(cuts, s), bisect.bisect_right(cuts, s)) for s in scores]


def bucket_counts(scores):
    edges = [50, 75, 100]
    counts = [0, 0, 0, 0]
    for s in scores:
        counts[bisect.bisect(edges, s)] += 1
    return counts


def letter_of_a_code(scores):
    out = ""
    for s in scores:
        out += "abcdefghij"[int(s) % 10]
    return out


PROGRAMS = [grade_letters, both_sides, bucket_counts, letter_of_a_code]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_program(f, backend):
    for x in INPUTS:
        follows_or_jax_limit(f, x, backend=backend)


def test_bisect_under_jax_jit():
    jax = pytest.importorskip("jax")

    def f(s):
        return bisect.bisect([60, 70, 80, 90], s) * 2

    g = jax.jit(autoconv.convert(f))
    for s in (55.0, 70.0, 95.0):
        assert same(np.asarray(g(s)).item(), f(s))


def test_an_unsorted_list_is_not_searched():
    def f(x):
        return bisect.bisect([3, 1, 2], x[0])

    with pytest.raises(autoconv.AutoconvError):
        autoconv.function(f)(np.array([2.0]))
