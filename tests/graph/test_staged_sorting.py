"""`sorted()` and `.sort()` of plain lists whose keys are compared when the graph runs, and
`np.lexsort` of Tensors: the order, values and Python types eager code gives, on both backends
(issue 24). Keys with ties are drawn often: Python's sort is stable, and `reverse=True` keeps
equal items in their first order (not the reverse of an ascending sort)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autoconv
from autoconv import AutoconvError
from tests.graph.agreement import BACKENDS, follows_the_rule, same

# Few distinct values, so that ties are common.
TIED = st.lists(st.integers(0, 3), min_size=0, max_size=6).map(lambda v: np.array(v, float))


def tuples_by_default_key(x):
    pairs = [(float(v), i % 2, i) for i, v in enumerate(x)]
    return sorted(pairs)


def rows_by_second_reversed(m):
    rows = [tuple(float(v) for v in r) for r in m]
    return sorted(rows, key=lambda r: r[1], reverse=True)


def reverse_keeps_ties_in_order(x):
    tagged = [(float(v), i) for i, v in enumerate(x)]
    return sorted(tagged, key=lambda p: p[0], reverse=True)


def mixed_ints_and_floats(x):
    vals = [int(v) if i % 2 else float(v) + 0.5 * (i % 3 == 0) for i, v in enumerate(x)]
    return sorted(vals)


def names_by_score(x):
    scores = {f"item{i}": int(v) for i, v in enumerate(x)}
    ranking = sorted(scores, key=lambda k: scores[k], reverse=True)
    return ranking, [scores[k] for k in ranking]


def tuple_keys_with_strings(x):
    events = [(float(v), "leave" if i % 2 else "arrive", i) for i, v in enumerate(x)]
    events.sort()
    return [kind for _, kind, _ in events], events


def key_of_two_parts_descending(x):
    idx = list(range(len(x)))
    idx.sort(key=lambda i: (-x[i], i % 2))
    return idx


def sort_in_a_branch(x, flag):
    vals = [(float(v), -i) for i, v in enumerate(x)]
    if flag > 0:
        vals = sorted(vals, key=lambda p: p[1])
    else:
        vals.sort(reverse=True)
    return vals


def sort_in_a_loop(x):
    best = []
    for k in range(2):
        best = sorted([(float(v) * (k + 1), i) for i, v in enumerate(x)], reverse=k == 1)
    return best


def arrays_carried_by_their_norm(x):
    parts = [x[i : i + 2] for i in range(0, len(x) - 1, 2)]
    return sorted(parts, key=lambda p: p[0] + p[1])


def lexsort_two_keys(x):
    return np.lexsort((x, np.floor(x / 2)))


def lexsort_rows(m):
    return np.lexsort(m)


PROGRAMS = [
    tuples_by_default_key,
    reverse_keeps_ties_in_order,
    mixed_ints_and_floats,
    names_by_score,
    tuple_keys_with_strings,
    key_of_two_parts_descending,
    sort_in_a_loop,
    arrays_carried_by_their_norm,
    lexsort_two_keys,
]


@pytest.mark.parametrize("f", PROGRAMS, ids=[f.__name__ for f in PROGRAMS])
@settings(max_examples=40)
@given(x=TIED)
def test_sorting_with_ties_matches_eager(f, x):
    follows_the_rule(f, x)


# The JAX backend compiles each trace: a few inputs with ties, each length once.
JAX_INPUTS = [np.array([2.0, 1.0, 2.0, 0.0, 1.0]), np.array([1.0, 1.0]), np.zeros(0)]


@pytest.mark.skipif("jax" not in BACKENDS, reason="jax is not installed")
@pytest.mark.parametrize("f", PROGRAMS, ids=[f.__name__ for f in PROGRAMS])
def test_sorting_with_ties_matches_eager_on_jax(f):
    for x in JAX_INPUTS:
        follows_the_rule(f, x, backend="jax")


ROWS = st.lists(st.tuples(*[st.integers(0, 2)] * 3), max_size=5)


@settings(max_examples=40)
@given(m=ROWS)
def test_rows_sorted_by_a_component_match_eager(m):
    follows_the_rule(rows_by_second_reversed, np.array(m, float).reshape(len(m), 3))


def test_rows_sorted_by_a_component_match_eager_on_jax():
    if "jax" not in BACKENDS:
        pytest.skip("jax is not installed")
    m = np.array([[1.0, 2.0, 0.0], [0.0, 1.0, 1.0], [2.0, 2.0, 2.0], [1.0, 1.0, 1.0]])
    follows_the_rule(rows_by_second_reversed, m, backend="jax")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("flag", [1, -1])
def test_sorting_in_a_staged_branch_matches_eager(backend, flag):
    for x in (np.array([2.0, 1.0, 2.0, 0.0]), np.array([1.0])):
        follows_the_rule(sort_in_a_branch, x, np.float64(flag), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_lexsort_of_a_2d_array_matches_numpy(backend):
    m = np.array([[1, 0, 1, 0, 1], [2, 2, 1, 1, 2], [0, 0, 0, 0, 0]])
    follows_the_rule(lexsort_rows, m, backend=backend)
    follows_the_rule(lexsort_rows, m.astype(float), backend=backend)


def test_the_results_keep_their_python_types():
    g = autoconv.function(mixed_ints_and_floats)
    got = g(np.array([3.0, 1.0, 2.0, 1.0]))
    assert got == mixed_ints_and_floats(np.array([3.0, 1.0, 2.0, 1.0]))
    assert [type(v) for v in got] == [
        type(v) for v in mixed_ints_and_floats(np.array([3.0, 1.0, 2.0, 1.0]))
    ]


def test_a_nan_key_raises_when_the_graph_runs_naming_the_line(tmp_path):
    def by_value(x):
        return sorted([float(v) for v in x])

    g = autoconv.function(by_value)
    assert same(g(np.array([2.0, 1.0])), [1.0, 2.0])
    with pytest.raises(ValueError) as info:  # Python's own: a saved graph raises it too
        g(np.array([np.nan, 1.0]))
    assert "NaN" in str(info.value) and "test_staged_sorting.py:" in str(info.value)
    g.save(tmp_path / "by_value.acg")  # the check is one a saved graph can hold
    loaded = autoconv.load(tmp_path / "by_value.acg")
    assert same(loaded(np.array([2.0, 1.0])), [1.0, 2.0])
    with pytest.raises(ValueError, match="NaN"):
        loaded(np.array([np.nan, 1.0]))


def test_keys_that_are_arrays_are_an_error_saying_what_to_write():
    def by_rows(m):
        return sorted([m[0], m[1]], key=lambda r: r)

    with pytest.raises(AutoconvError) as info:
        autoconv.function(by_rows)(np.ones((2, 3)))
    assert "key component is an array" in str(info.value)
    assert "test_staged_sorting.py:" in str(info.value)


def big_ints_among_floats(x):
    n = int(x[0])
    return sorted([n + 1, float(x[1]), n])


def test_ints_and_floats_at_one_place_are_exact_or_an_error_when_the_graph_runs():
    g = autoconv.function(big_ints_among_floats)
    small = np.array([3.0, 3.5])
    assert same(g(small), big_ints_among_floats(small))
    with pytest.raises(ValueError, match=r"past 2\*\*53") as info:
        g(np.array([2.0**60, 1.0]))
    assert "test_staged_sorting.py:" in str(info.value)


def test_keys_mixing_numbers_and_strings_at_one_place_are_an_error_naming_the_line():
    def mixed_keys(x):
        return sorted([(float(x[0]), 1), (float(x[1]), "a")])

    with pytest.raises(AutoconvError) as info:
        autoconv.function(mixed_keys)(np.array([1.0, 1.0]))
    assert "a number in some keys and a string" in str(info.value)
    assert "test_staged_sorting.py:" in str(info.value)


def test_items_holding_lists_are_an_error_saying_what_to_write():
    def lists(x):
        return sorted([[float(v), i] for i, v in enumerate(x)])

    with pytest.raises(AutoconvError, match="Sort tuples"):
        autoconv.function(lists)(np.array([2.0, 1.0]))
