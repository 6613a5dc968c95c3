"""What the tenth fresh batch found (tools/fresh_batch10.py, tools/fresh_batch10_findings.md):
each wrong-result and crash class's minimal program, run eagerly and as `autoconv.function(f)`
on NumPy and on JAX where it is installed. Each open class is a strict xfail naming the class,
checked to fail; a fix turns it into a plain test.
"""

import heapq
from collections import Counter

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule


def runs_or_clear_error(fn, *args, backend):
    """Eager's answer, or an AutoconvError at this file's line (a limit the JAX backend may
    have where the NumPy backend runs)."""
    try:
        follows_the_rule(fn, *args, backend=backend)
    except autoconv.AutoconvError as e:
        assert "test_batch10_findings.py:" in str(e), str(e)


# W1 (wrong, exp_smooth_skip_nan): a list appended in a staged loop with `s if s is not None
# else 0.0`, `s` a value-or-None, given to np.array: the graph's array has an extra axis (the
# value and a flag), [[0., 1.], [2., 1.]] where eager gives [0., 2.]. On JAX: a LoweringError.
def value_or_none_items(x):
    s = None
    out = []
    for v in x:
        if v > 1:
            s = v
        out.append(s if s is not None else 0.0)
    return np.array(out)


def test_array_of_value_or_none_items():
    follows_the_rule(value_or_none_items, np.array([1.0, 2.0]), backend="numpy")


@pytest.mark.skipif("jax" not in BACKENDS, reason="jax not installed")
def test_array_of_value_or_none_items_on_jax_is_right_or_clear():
    runs_or_clear_error(value_or_none_items, np.array([1.0, 2.0]), backend="jax")


# W2 (wrong, found minimizing C7 / reorder_needed): a comprehension formatting each item of a
# run-time list a helper returns gives one string of the placeholder, ['<items appended in a
# staged loop: int64[] each>'], where eager gives ['0', '2'].
def _small_indices(s):
    out = []
    for i, q in enumerate(s):
        if q < 5:
            out.append(i)
    return out


def format_helper_items(s):
    return [f"{i}" for i in _small_indices(s)]


def str_helper_items(s):
    return len([str(i) for i in _small_indices(s)])


@pytest.mark.parametrize("backend", BACKENDS)
def test_format_items_of_a_helpers_run_time_list(backend):
    follows_the_rule(format_helper_items, np.array([4, 6, 1]), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_len_of_formatted_helper_items(backend):
    follows_the_rule(str_helper_items, np.array([4, 6, 1]), backend=backend)


# W3 (wrong, found minimizing E1): np.array of a list of lists each grown in a staged loop has
# shape (2, 1, 2) where eager's is (2, 2). On JAX: a LoweringError naming the append.
def rows_of_grown_lists(tiles):
    rows = []
    for r in tiles:
        new = []
        for v in r:
            new.append(v * 2)
        rows.append(new)
    return np.array(rows)


def test_array_of_lists_grown_in_a_staged_loop():
    # (W3, no longer a wrong shape: a clear error naming the line and what to append instead)
    runs_or_clear_error(rows_of_grown_lists, np.array([[2, 4], [0, 1]]), backend="numpy")


@pytest.mark.skipif("jax" not in BACKENDS, reason="jax not installed")
def test_array_of_grown_lists_on_jax_is_right_or_clear():
    runs_or_clear_error(rows_of_grown_lists, np.array([[2, 4], [0, 1]]), backend="jax")


# E1 (crash, game2048_move_score): the same list of lists, made by a helper, given to
# np.array and compared with an int array: the stand-in is a string array while tracing, and
# NumPy's UFuncTypeError escapes from autoconv's shape inference.
def _doubled(r):
    out = []
    for v in r:
        out.append(v * 2)
    return out


def compare_helper_rows(tiles):
    rows = []
    for r in tiles:
        rows.append(_doubled(r))
    return np.array(rows) != tiles


@pytest.mark.parametrize("backend", BACKENDS)
def test_compare_array_of_helper_lists(backend):
    runs_or_clear_error(compare_helper_rows, np.array([[2, 4], [0, 1]]), backend=backend)


# E2 (crash, split_stats_unpack): an f-string of a value-or-None raises a plain TypeError
# ("the conditional expression's value is None here") where eager formats None.
def format_value_or_none(x):
    lo = x[x < 1.0]
    m = float(lo.mean()) if lo.size else None
    return f"mean {m}"


@pytest.mark.parametrize("backend", BACKENDS)
def test_fstring_of_value_or_none(backend):
    runs_or_clear_error(format_value_or_none, np.array([5.0, 6.0]), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_fstring_of_value_or_none_when_a_value(backend):
    follows_the_rule(format_value_or_none, np.array([0.5, 6.0]), backend=backend)


# JW1 (wrong on JAX, heap_kth_largest_stream): a list appended with a value-or-None whose
# value is a Python int: on JAX its items are np.int64 where eager's are ints.
def heap_top_or_none(a):
    heap = []
    out = []
    for v in a:
        heapq.heappush(heap, int(v))
        if len(heap) > 2:
            heapq.heappop(heap)
        out.append(heap[0] if len(heap) == 2 else None)
    return out


def test_python_int_or_none_items():
    follows_the_rule(heap_top_or_none, np.array([5, 3, 9, 1]), backend="numpy")


@pytest.mark.skipif("jax" not in BACKENDS, reason="jax not installed")
def test_python_int_or_none_items_on_jax():
    follows_the_rule(heap_top_or_none, np.array([5, 3, 9, 1]), backend="jax")


# JW2 (wrong on JAX, counter_arithmetic): Counter + Counter of run-time keys gives np.int64
# counts on JAX where eager's are ints.
def counter_sum(a):
    return dict(Counter(a.tolist()) + Counter({2: 1}))


def test_counter_sum_counts_are_ints():
    follows_the_rule(counter_sum, np.array([2, 2, 3]), backend="numpy")


@pytest.mark.skipif("jax" not in BACKENDS, reason="jax not installed")
def test_counter_sum_counts_are_ints_on_jax():
    follows_the_rule(counter_sum, np.array([2, 2, 3]), backend="jax")


# JE1 (crash on JAX, roc_points_sorted): `zip(pts, pts[1:])` of a list grown in a staged loop
# raises IndexError from the JAX backend's read check where eager returns.
def shifted_pairs(y):
    pts = [0.0]
    for v in y:
        pts.append(float(v))
    s = 0.0
    for a, b in zip(pts, pts[1:]):
        s += b - a
    return s


def test_zip_with_shifted_run_time_list():
    follows_the_rule(shifted_pairs, np.array([1, 0, 1]), backend="numpy")


@pytest.mark.skipif("jax" not in BACKENDS, reason="jax not installed")
def test_zip_with_shifted_run_time_list_on_jax():
    runs_or_clear_error(shifted_pairs, np.array([1, 0, 1]), backend="jax")
