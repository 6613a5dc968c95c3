"""Reading a list a staged loop appended to, past items and `sum`: slices (`losses[-3:]`),
`in`, and the methods other than `append` (pop, sort, reverse, insert, remove, index, count)
give eager's results; a key that is None on some paths is checked as eagerly. Before, a slice
or a method silently worked on the stand-in for the appended items (`kept[1:]` was all of
them)."""

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule
from tests.graph.test_staged_writes_and_appends import same

INPUTS = [
    np.array([1.0, -2.0, 3.0, 0.5]),
    np.array([-1.0, -2.0]),
    np.zeros(0),
    np.array([2.0, 2.0, -1.0]),
]


def last_three(x):
    losses = []
    for v in x:
        losses.append(v * v)
    recent = losses[-3:]
    return len(recent), np.array(recent)


def all_but_first(x):
    kept = []
    for v in x:
        if v > 0:
            kept.append(v)
    return kept[1:]


def middle_on(x):
    kept = []
    for v in x:
        if v > 0:
            kept.append(v)
    return kept[len(kept) // 2 :], kept[::2], kept[:1]


def early_return_or_tail(x):
    seen = []
    for i in range(len(x)):
        if x[i] < -1.5:
            return i, seen
        seen.append(x[i])
    return -1, seen[-2:]


def methods(x):
    out = [0.5]
    for v in x:
        if v > 0:
            out.append(v)
    last = out.pop()
    out.sort(reverse=True)
    out.insert(0, 9.0)
    out.reverse()
    return last, out, out.index(9.0), out.count(0.5)


def membership(x):
    seen = []
    for v in x:
        if v > 1:
            seen.append(v)
    return 3.0 in seen, 2.0 not in seen, len(seen)


def optional_key(img):
    means = []
    brightest = None
    for r in range(img.shape[0]):
        m = np.mean(img[r])
        means.append(m)
        if brightest is None or m > means[brightest]:
            brightest = r
    return means, brightest


PROGRAMS = [last_three, all_but_first, middle_on, early_return_or_tail, methods, membership]


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_reads_of_a_run_time_list_match_eager(f):
    g = autoconv.function(f)
    for x in INPUTS:
        same(g(x), f(x))


def test_a_key_none_on_some_paths_reads_the_run_time_list():
    g = autoconv.function(optional_key)
    for img in (np.arange(6.0).reshape(3, 2), np.array([[3.0], [1.0], [2.0]])):
        same(g(img), optional_key(img))


def test_pop_of_an_empty_run_time_list_raises_index_error_when_it_runs():
    def pop_one(x):
        out = []
        for v in x:
            if v > 0:
                out.append(v)
        return out.pop()

    g = autoconv.function(pop_one)
    assert g(np.array([1.0, 2.0, -1.0])) == pop_one(np.array([1.0, 2.0, -1.0]))
    with pytest.raises(IndexError):
        g(np.array([-1.0, -2.0, -3.0]))


def grown_compared(row):
    out = []
    for v in row:
        out.append(int(v))
    return np.array_equal(out, row), np.array_equal(row, out), np.allclose(out, row)


@pytest.mark.parametrize("backend", BACKENDS)
def test_numpy_functions_take_a_grown_list_as_the_array_it_makes(backend):
    # `np.array_equal(out, row)` was False: NumPy got the list's run-time value as it is
    # (batch 7 W2, game2048_move_left).
    for row in (np.array([2, 4]), np.array([1])):
        follows_the_rule(grown_compared, row, backend=backend)
