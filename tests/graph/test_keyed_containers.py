"""Sets and dicts whose keys are known only when the graph runs (issue 24, class 3): each
program runs eagerly and as a graph (NumPy backend, with and without the optimizing passes),
and must give eager's values with eager's Python types (the keys' and values' too), or raise
eager's exception; what cannot be staged is an AutoconvError naming the user's line."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import autoconv
from autoconv.errors import AutoconvError
from autoconv.graph import passes

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

HERE = __file__
BACKENDS = ["numpy", "numpy-unoptimized", "jax"]

try:
    import jax
except ImportError:  # jax is optional
    jax = None


def same(expected, got) -> bool:
    """Equal values of the same Python types, all the way down (dict keys included, and a
    dict's insertion order)."""
    if type(expected) is not type(got):
        return False
    if isinstance(expected, (tuple, list)):
        return len(expected) == len(got) and all(map(same, expected, got))
    if isinstance(expected, dict):
        return same(list(expected), list(got)) and same(list(expected.values()), list(got.values()))
    if isinstance(expected, set):
        return same(sorted(expected), sorted(got))
    if isinstance(expected, np.ndarray):
        return expected.dtype == got.dtype and np.array_equal(expected, got)
    return expected == got


_GRAPHS: dict = {}


def run(fn, backend, args):
    key = (fn, backend)
    if key not in _GRAPHS:
        # "numpy-any-length": one trace serves arrays of every length (the random inputs)
        _GRAPHS[key] = autoconv.function(
            fn,
            backend="jax" if backend == "jax" else "numpy",
            reduce_retracing=backend == "numpy-any-length",
        )
    if backend == "numpy-unoptimized":
        with passes.options(passes.Settings.none()):
            return _GRAPHS[key](*args)
    return _GRAPHS[key](*args)


def check(fn, backend, *inputs):
    for args in inputs:
        try:
            expected = fn(*args)
        except Exception as e:
            with pytest.raises(type(e)):
                run(fn, backend, args)
            continue
        got = run(fn, backend, args)
        assert same(expected, got), (fn.__name__, args, expected, got)


def refused(fn, backend, args, *words, eager_type=AutoconvError):
    with pytest.raises(AutoconvError) as info:
        run(fn, backend, args)
    assert isinstance(info.value, eager_type), type(info.value).__mro__
    message = str(info.value)
    assert HERE in message, message
    for word in words:
        assert word in message, message


# --- programs -----------------------------------------------------------------------------


def first_duplicate(a):
    seen = set()
    for i, v in enumerate(a):
        if int(v) in seen:
            return i
        seen.add(int(v))
    return -1


def mode_with_dict(a):
    counts = {}
    for v in a.tolist():
        counts[v] = counts.get(v, 0) + 1
    best = max(counts, key=counts.get)
    return best, counts[best]


def histogram(a):
    counts = {}
    for v in a:
        counts[int(v)] = counts.get(int(v), 0) + 1
    return counts


def distinct(a):
    seen = set()
    for v in a:
        seen.add(int(v) % 4)
    return len(seen), sorted(seen), seen, 2 in seen, 7 not in seen


def memo_squares(a):
    memo = {}
    total = 0
    hits = 0
    for v in a:
        k = int(v)
        if k in memo:
            hits += 1
        else:
            memo[k] = k * k
        total += memo[k]
    return total, hits, len(memo)


def degree_report(adj):
    deg = adj.sum(axis=1)
    report = {}
    for node, d in enumerate(deg):
        report[node] = int(d)
    hubs = [k for k, v in report.items() if v == max(report.values())]
    return report, hubs


def running_sums(a):
    sums = {}
    for v in a:
        k = int(v) % 3
        sums.setdefault(k, 0.0)
        sums[k] += float(v)
    keys = []
    for k in sums:
        keys.append(k)
    return sums, keys, sorted(sums.values()), min(sums, key=sums.get)


def pair_keys(codes):
    pairs = {}
    for a, b in zip(codes[:-1], codes[1:]):
        key = (int(a), int(b))
        pairs[key] = pairs.get(key, 0) + 1
    return pairs, len(pairs)


def toggles(a):
    on = set()
    for v in a:
        k = int(v)
        if k in on:
            on.discard(k)
        else:
            on.add(k)
    return sorted(on)


def float_keys(a):
    seen = set()
    for v in a:
        seen.add(float(v))
    return seen, max(seen)


def missing_key(a):
    d = {}
    for v in a:
        d[int(v)] = 1
    return d[7]


def remove_missing(a):
    s = set()
    for v in a:
        s.add(int(v))
    s.remove(7)
    return len(s)


def popped(a):
    d = {}
    for v in a:
        d[int(v)] = float(v) * 2
    return d.pop(int(a[0])), d


def chosen_in_branch(a):
    s = set()
    if a[0] > 0:
        s.add(int(a[0]))
    return s, len(s)


def truth_when_run(a):
    d = {}
    for v in a:
        if v > 0:
            d[int(v)] = 1
    r = 0
    if d:
        r = 1
    if not d:
        r += 10
    return r, d


INTS = np.array([5, 2, 9, 1, 5, 6])
FLOATS = np.array([1.0, 2.5, 1.0, 3.0])
ADJ = np.array(
    [[0, 1, 1, 0, 0], [1, 0, 0, 1, 0], [1, 0, 0, 1, 0], [0, 1, 1, 0, 1], [0, 0, 0, 1, 0]]
)
PROGRAMS = [
    (first_duplicate, [(INTS,), (np.array([2, 2, 2]),), (np.array([1, 2, 3]),)]),
    (mode_with_dict, [(np.array([3, 1, 3, 2, 1, 3]),), (np.array([4]),)]),
    (histogram, [(INTS,), (FLOATS,), (np.zeros(0, dtype=np.int64),)]),
    (distinct, [(INTS,), (np.array([2]),)]),
    (memo_squares, [(INTS,), (np.array([3, 3, 3]),)]),
    (degree_report, [(ADJ,), (np.eye(3, dtype=np.int64),)]),
    (running_sums, [(FLOATS,), (np.array([4.0, 7.0, 5.0]),)]),
    (pair_keys, [(np.array([120, 120, 121, 120, 120]),), (np.array([1, 2]),)]),
    (toggles, [(np.array([1, 2, 1, 3, 2, 2]),), (np.zeros(0, dtype=np.int64),)]),
    (float_keys, [(FLOATS,), (np.array([-1.5]),)]),
    (missing_key, [(np.array([1, 7]),), (np.array([1, 2]),)]),
    (remove_missing, [(np.array([1, 7]),), (np.array([1, 2]),)]),
    (popped, [(np.array([1, 7, 1]),), (np.array([3]),)]),
    (chosen_in_branch, [(np.array([1.0]),), (np.array([-1.0]),)]),
    (truth_when_run, [(np.array([1, 2]),), (np.array([-1, -2]),)]),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,inputs", PROGRAMS, ids=[p[0].__name__ for p in PROGRAMS])
def test_programs_match_eager(fn, inputs, backend):
    check(fn, backend, *inputs)


def test_a_missing_key_raises_key_error_when_the_graph_runs():
    graph = autoconv.function(missing_key)
    assert graph(np.array([7, 1])) == 1  # traced once: the key is looked up when it runs
    with pytest.raises(KeyError, match="7"):
        graph(np.array([1, 2]))


# --- refused, with the user's line -----------------------------------------------------------


def mixed_keys(a):
    seen = {"a", 2}  # (number keys known now become run-time ones: tests/graph/test_dict_paths)
    for v in a:
        seen.add(int(v))
    return len(seen)


def iterate_set(a):
    s = set()
    for v in a:
        s.add(int(v))
    total = 0
    for k in s:  # a set's order is its hashes': not reproduced
        total = total * 10 + k
    return total


def string_key_after(a):
    d = {}
    for v in a:
        d[int(v)] = 1
    d["x"] = 2
    return d


def pop_with_default(a):
    d = {}
    for v in a:
        d[int(v)] = 1
    return d.pop(7, 0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_what_cannot_be_staged_names_the_line(backend):
    refused(pop_with_default, backend, (INTS,), "`return d.pop(7, 0)`", "`.pop()` with 2")
    refused(mixed_keys, backend, (INTS,), "`seen.add(int(v))`", "set `seen`", "one sort")
    refused(mixed_keys, backend, (INTS,), eager_type=TypeError)
    refused(iterate_set, backend, (INTS,), "`for k in s:", "sorted(s)")
    refused(string_key_after, backend, (INTS,), '`d["x"] = 2`', "dict `d`", "numbers")


@pytest.mark.skipif(jax is None, reason="jax is not installed")
def test_the_jax_backend_keeps_them_in_device_buffers():
    # (backends/jax/keyed.py; more cases in tests/jax/test_jax_lists.py)
    for fn in (mode_with_dict, first_duplicate, histogram):
        check(fn, "jax", (INTS,))


# --- random int arrays ---------------------------------------------------------------------

small_ints = hnp.arrays(np.int64, st.integers(0, 8), elements=st.integers(-3, 5))


@settings(max_examples=30, deadline=None)
@given(small_ints)
def test_random_int_arrays_match_eager(a):
    for fn in (histogram, first_duplicate, distinct, memo_squares, toggles):
        check(fn, "numpy-any-length", (a,))
