"""Grouping, segments and lists of lists in staged loops (issue 24, groups9): the programs of
tests/graph/groups9_programs.py run as eagerly on each backend, or give their documented error
(docs/graph-mode.md, docs/backends.md) at the user's line; the mechanisms directly."""

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule, message
from tests.graph.groups9_programs import PROGRAMS

# A list grown in a staged loop appended to another as an item (`runs.append(cur)`, then `cur
# = []`): a run-time list of lists on NumPy, a documented LoweringError on JAX.
RUNS_OF_RUNS = "holds lists whose lengths are known only when the graph runs"
CHANGED_ITEM = "and it is changed in place later to another length"

# name -> {backend: a fragment of its documented error}; a program not here runs as eagerly.
ERRORS = {
    "split_on_zeros": {"jax": RUNS_OF_RUNS},
    "split_on_zeros_lengths": {"jax": RUNS_OF_RUNS},
    "increasing_runs": {"jax": RUNS_OF_RUNS},
    "sentence_split": {"jax": RUNS_OF_RUNS},
    "segments_above_threshold": {"jax": RUNS_OF_RUNS},
    "chunk_by_running_sum": {"jax": RUNS_OF_RUNS},
    "runs_of_equal": {"jax": RUNS_OF_RUNS},
    "batches_of_three": {"jax": RUNS_OF_RUNS},
    # an inner list changed in place (`fields[-1].append(v)`, batch 7's E4)
    "group_equal_labels": {"numpy": CHANGED_ITEM, "jax": CHANGED_ITEM},
    "csv_fields": {"numpy": CHANGED_ITEM, "jax": CHANGED_ITEM},
    "csv_fields_raw": {"numpy": CHANGED_ITEM, "jax": CHANGED_ITEM},
    "csv_numbers": {"numpy": CHANGED_ITEM, "jax": CHANGED_ITEM},
    "groups_append_empty": {"numpy": CHANGED_ITEM, "jax": CHANGED_ITEM},
    "groups_max_each": {"numpy": CHANGED_ITEM, "jax": CHANGED_ITEM},
    "group_rows_by_key": {"numpy": CHANGED_ITEM, "jax": CHANGED_ITEM},
    "group_equal_labels_counts": {
        b: "must all have the same dtype: got list() after list(int)" for b in BACKENDS
    },
    "paragraphs_of_words": {b: "it reached code that uses it as a Python list" for b in BACKENDS},
    "bucket_by_mod": {b: "holds lists and is indexed at a key known only" for b in BACKENDS},
    "bucket_by_range": {b: "holds lists and is indexed at a key known only" for b in BACKENDS},
    # (runs on NumPy since this stop; on JAX the documented strings-in-a-buffer limit)
    "tokenize_digits_ops": {"jax": "holds strings made when the graph runs"},
    # (JAX only: documented in docs/backends.md)
    "mixed_shapes_appended": {"jax": "have a shape known"},
}


def _cases():
    for name in PROGRAMS:
        for backend in BACKENDS:
            yield pytest.param(name, backend, id=f"{name}-{backend}")


@pytest.mark.parametrize("name, backend", list(_cases()))
def test_program(name, backend):
    fn, inputs = PROGRAMS[name]
    fragment = ERRORS.get(name, {}).get(backend)
    if fragment is None:
        for args in inputs:
            follows_the_rule(fn, *args, backend=backend)
        return
    with pytest.raises(autoconv.AutoconvError) as info:
        autoconv.function(fn, backend=backend)(*inputs[0])
    text = str(info.value)
    assert "groups9_programs.py:" in text and fragment in text, text


def test_counts():
    """The programs run as eagerly (numpy: 24 of 35 now, 12 before the change)."""
    numpy_ok = [n for n in PROGRAMS if "numpy" not in ERRORS.get(n, {})]
    assert len(PROGRAMS) >= 35 and len(numpy_ok) == 24


# --- the mechanisms, directly -------------------------------------------------------------


def runs_with_copies(xs):
    runs = []
    cur = []
    for v in xs:
        if v == 0:
            runs.append(list(cur))
            runs.append(cur + [99])
        else:
            cur.append(int(v))
    return runs


def kept_after_an_iteration(xs):
    out = []
    cur = []
    for v in xs:
        cur.append(int(v))
        out.append(cur)  # eagerly every item is `cur` (a wrong result before groups9)
    return out


def changed_after_the_loop(xs):
    runs = []
    cur = []
    for v in xs:
        if v == 0:
            runs.append(cur)
        else:
            cur.append(int(v))
    cur.append(7)
    return runs


def changed_in_the_branch(xs):
    out = []
    cur = []
    for v in xs:
        if v == 0:
            cur.append(99)
            out.append(cur)
            cur = []
        else:
            cur.append(int(v))
    return out


def flat_and_sizes(xs):
    flat = []
    sizes = []
    cur = []
    for v in xs:
        if v == 0:
            flat.extend(cur)
            sizes.append(len(cur))
            cur = []
        else:
            cur.append(int(v))
    return flat, sizes


def groups_read_back(xs):
    runs = []
    cur = []
    for v in xs:
        if v == 0:
            runs.append(cur)
            cur = []
        else:
            cur.append(v * 1.5)
    total = 0
    for r in runs:
        for x in r:
            total += x
    return total, [len(r) for r in runs], runs, [np.array(r) for r in runs]


def max_min_of_runs(xs):
    highs = []
    lows = []
    cur = []
    for v in xs:
        cur.append(int(v))
        if v == 0:
            highs.append(max(cur))
            lows.append(min(cur))
            cur = []
    return highs, lows


X = np.array([1, 2, 0, 3, 0, 0, 4])


def sums_of_runs(xs):
    # (`max`, `min` and `sum` of a run appended to another list: the items' Python type on
    # JAX too; it was np.int64 there for Python ints)
    highs, lows, totals, cur = [], [], [], []
    for v in xs:
        cur.append(int(v))
        if v == 0:
            highs.append(max(cur))
            lows.append(min(cur))
            totals.append(sum(cur))
            cur = []
    return highs, lows, totals


def sums_of_empty_runs(xs):
    out = []
    cur = []
    for v in xs:
        if v == 0:
            out.append(sum(cur))  # of no items Python's int 0, else np.int64
            cur = []
        else:
            cur.append(v)
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_sums_of_runs_keep_python_types(backend):
    for x in (X, np.array([0]), np.array([5, 6])):
        follows_the_rule(sums_of_runs, x, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_sum_of_an_empty_run_of_numpy_values(backend):
    follows_the_rule(sums_of_empty_runs, X, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [flat_and_sizes, max_min_of_runs])
def test_the_suggested_fix_and_reductions_run_on_both_backends(fn, backend):
    for x in (X, np.array([0]), np.array([5, 6])):
        follows_the_rule(fn, x, backend=backend)


@pytest.mark.parametrize("fn", [runs_with_copies, groups_read_back])
def test_lists_of_run_time_lists_on_numpy(fn):
    for x in (X, np.array([0]), np.array([5, 6])):
        follows_the_rule(fn, x)


@pytest.mark.parametrize(
    "fn, fragment",
    [
        (kept_after_an_iteration, "is still held after an iteration of this `for` loop"),
        (changed_after_the_loop, "is changed later"),
        (changed_in_the_branch, "is changed and appended to list `out` in the same branch"),
    ],
)
def test_a_list_changed_after_it_is_appended_is_refused(fn, fragment):
    # Eagerly the item is the list itself and shows the change; the graph's item is a copy.
    text = message(fn, X)
    assert "test_groups9.py:" in text and fragment in text, text


def first_is_three(lst):
    return lst[0] == 3


def helper_reads_a_grown_list(xs):
    lst = []
    for v in xs:
        if v > 0:
            lst.append(int(v))
    return first_is_three(lst), first_is_three(lst[1:])


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_helper_reads_a_grown_list_given_to_it(backend):
    follows_the_rule(helper_reads_a_grown_list, np.array([3, 0, 3, 4]), backend=backend)
    follows_the_rule(helper_reads_a_grown_list, np.array([2, 3, 5]), backend=backend)


def test_a_helper_reads_its_parameter_through_the_runtime():
    assert "ac.list_item(lst, 0)" in autoconv.to_code(first_is_three)
