"""Sets and dicts keyed by data, read back by comprehensions and set algebra (issue 24, the
dict/set classes of batch 6): each program runs eagerly and as a graph on every backend and
must give eager's values, key order and Python types (tests/graph/agreement.py)."""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule, message

INTS = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5])
OTHER = np.array([5, 8, 1, 8, 0])
EMPTY = np.zeros(0, dtype=np.int64)
FLOATS = np.array([1.5, -2.0, 1.5, 0.25])


# --- comprehensions over a dict holding run-time keys ----------------------------------------


def means_by_key(keys, vals):
    sums = {}
    counts = {}
    for k, v in zip(keys, vals):
        k = int(k)
        sums[k] = sums.get(k, 0.0) + v
        counts[k] = counts.get(k, 0) + 1
    return {k: sums[k] / counts[k] for k in sorted(sums)}


def doubled_items(x):
    h = {}
    for v in x:
        h[int(v)] = h.get(int(v), 0) + 1
    return {k: 2 * c for k, c in h.items() if c > 1}


def listed_values(x):
    h = {}
    for v in x:
        h[int(v) % 4] = h.get(int(v) % 4, 0) + 1
    return [c * 10 for c in h.values()], sum(c for c in h.values())


def distinct_halves(x):
    h = {}
    for v in x:
        h[int(v)] = True
    return {k // 2 for k in h}


def inverted(x):
    last = {}
    for i, v in enumerate(x):
        last[int(v)] = i
    return {i: k for k, i in last.items()}


def copied_then_changed(x):
    d = {}
    for v in x:
        d[int(v)] = d.get(int(v), 0) + 1
    e = d.copy()
    for v in x:
        e[int(v)] = 0
    return d, e


COMPREHENSIONS = [doubled_items, listed_values, distinct_halves, inverted, copied_then_changed]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", COMPREHENSIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", [INTS, EMPTY, FLOATS], ids=["ints", "empty", "floats"])
def test_comprehensions_over_run_time_dicts(backend, fn, x):
    follows_the_rule(fn, x, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("x", [INTS, EMPTY])
def test_dict_comprehension_over_sorted_keys_of_two_dicts(backend, x):
    # `sums[k] / counts[k]`: NumPy sums over Python int counts, a NumPy float64 on every path
    # (on JAX, once refused as "of several Python types")
    follows_the_rule(means_by_key, x, np.arange(len(x)) * 0.5, backend=backend)


# --- set algebra ------------------------------------------------------------------------------


def overlap(a, b):
    sa = set(a.tolist())
    sb = set(b.tolist())
    return sorted(sa & sb), sorted(sa - sb), len(sa | sb), sorted(sa ^ sb)


def compared(a, b):
    s = set()
    for v in a:
        s.add(int(v))
    t = set()
    for v in b:
        t.add(int(v))
    return s == t, s != t, s <= t, s < t, s >= t, s > t, s.isdisjoint(t)


def grown_in_place(a, b):
    s = set()
    for v in a:
        s.add(int(v))
    t = set(b.tolist())
    s |= t
    u = s.copy()
    u -= {1, 5}
    w = s.intersection(b.tolist())
    return sorted(s), sorted(u), sorted(w), s.issubset(t), len(s.union(t, {100}))


def repeats_in_draws(seed):
    g = np.random.default_rng(seed)
    hits = 0
    for _ in range(4):
        days = g.integers(0, 6, size=5)
        if len(set(days.tolist())) < 5:
            hits += 1
    return hits


SETS = [overlap, compared, grown_in_place]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", SETS, ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    "a, b", [(INTS, OTHER), (EMPTY, OTHER), (OTHER, EMPTY), (EMPTY, EMPTY), (OTHER, OTHER)]
)
def test_set_algebra_on_run_time_sets(backend, fn, a, b):
    follows_the_rule(fn, a, b, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_set_of_a_tensors_items(backend):
    follows_the_rule(repeats_in_draws, 3, backend=backend)


def cleared(x):
    d = {}
    for v in x:
        d[int(v)] = 1
    d.clear()
    return d


def test_a_method_not_staged_is_refused_naming_the_dict():
    text = message(cleared, INTS)
    assert "dict `d`" in text and "`.clear()` is not staged" in text and __file__ in text


# --- a closure's memo dict, set.update, dict.update, sets bound in a branch ------------------


def memo_in_closure(x):
    memo = {}

    def cost(k):
        if k in memo:
            return memo[k]
        memo[k] = k * k + 1
        return memo[k]

    total = 0
    for v in x:
        total += cost(int(v))
    return total, memo


def missing_digits(x):
    present = set(x.tolist())
    return sorted(set(range(10)) - present), sorted({1, 4, 11} & present)


def jaccard(x):
    a = set()
    b = set()
    for i, v in enumerate(x):
        if i % 2 == 0:
            a.add(int(v))
        else:
            b.add(int(v))
    union = a | b
    if not union:
        return 0.0
    return len(a & b) / len(union)


def updated_in_branch(x):
    s = set()
    if x.sum() > 3:
        s.update(x.tolist())
    return len(s)


def dicts_updated(x):
    d = {}
    d.update(zip(x.tolist(), range(len(x))))
    e = {0: 5}
    e.update(d)
    return d, e


UPDATES = [memo_in_closure, missing_digits, jaccard, updated_in_branch, dicts_updated]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", UPDATES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", [INTS, EMPTY, np.array([1, 1, 1])], ids=["ints", "empty", "ones"])
def test_memo_dicts_updates_and_set_algebra_with_python_sets(backend, fn, x):
    follows_the_rule(fn, x, backend=backend)


def made_in_a_branch(x):
    s = set()
    if x.sum() > 3:
        s = set(x.tolist())
    return len(s)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_run_time_set_made_in_a_branch_runs(backend):
    # (refused before: the `if` now chooses between its paths' run-time lists of keys)
    for x in (INTS, EMPTY, np.array([1, 1, 1])):
        follows_the_rule(made_in_a_branch, x, backend=backend)


def dicts_compared(x):
    d = {}
    for v in x:
        d[int(v)] = 1
    return d == {}, d != {}, d == {3: 1}, d == dict.fromkeys([3, 1, 4, 5, 9, 2, 6], 1)


def dicts_merged(x):
    d = {}
    for v in x:
        d[int(v)] = 1
    return d | {}


def test_a_run_time_dict_compared_is_staged_and_merged_is_refused_naming_it():
    # `==` and `!=` compare the items when the graph runs (task tally9); `|` is refused
    follows_the_rule(dicts_compared, INTS)
    text = message(dicts_merged, INTS)
    assert "dict `d`" in text and "operand of `|`" in text and __file__ in text
