"""Run-time lists the JAX backend keeps on the device beyond appends and reads (issue 24):
slices (`losses[-3:]`), `in`, the list methods pop/insert/remove/sort/reverse/index/count,
lists of tuples (`log.append((t, pop))`), lists of strings a staged condition chooses, and an
item write whose key is a Python list holding a Tensor (`A[[k, p]] = A[[p, k]]`).

Each program runs eagerly, as `autoconv.function(f, backend="jax")` and with the NumPy backend:
the same values, dtypes and Python types, or the same exception (type and message)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autoconv
from autoconv.backends.jax.errors import LoweringError
from tests.jax.test_run_time_lists import outcome, same

# Each Python int key makes a new trace, on purpose (the key's cases are the point).
pytestmark = pytest.mark.filterwarnings("ignore::autoconv.RetracingWarning")

_COMPILED: dict = {}


def check(f, *args):
    """Eager, JAX and NumPy backends give the same outcome (the NumPy backend's exception
    message adds the user's line: its type is compared)."""
    expected = outcome(f, *args)
    for backend in ("jax", "numpy"):
        graph = _COMPILED.setdefault((f, backend), autoconv.function(f, backend=backend))
        got = outcome(graph, *args)
        if backend == "numpy" and expected[0] == got[0] == "raise":
            assert isinstance(got[1], type(expected[1])), (f.__name__, args, expected, got)
            continue
        assert expected[0] == got[0] and same(expected[1], got[1]), (
            f.__name__,
            backend,
            args,
            expected,
            got,
        )


X = np.array([1.5, -2.0, 3.0, 0.5, 3.0])
INPUTS = [
    X,
    -X,
    np.zeros(5),
    np.array([2.0, 2.0, -0.0, 0.0, 1.0]),
    np.array([-0.5, 0.5, 1.0, -3.0, 4.0]),
    np.array([5.0, 4.0, 3.0, 2.0, 1.0]),
]
floats = st.floats(-4, 4, allow_nan=False).map(lambda v: float(round(v)))
arrays = st.lists(floats, min_size=1, max_size=7).map(np.array)  # (a loop over no items is
# not staged: the list stays a Python list, which a run-time index cannot slice)


# --- slices -----------------------------------------------------------------------------------


def last_three(x):
    losses = []
    for v in x:
        losses.append(v * v)
    recent = losses[-3:]
    return len(recent), np.array(recent), recent


def positive_tail(x):
    kept = []
    for v in x:
        if v > 0:
            kept.append(v)
    return kept[1:]


def slices(x, k):
    kept = [np.float64(0.5)]
    for v in x:
        if v > 0:
            kept.append(v)
    kept.append(np.float64(9.0))
    return kept[k:], kept[:k], kept[::-1], kept[k::2], kept[-2:k:-1], kept[1:-1]


@pytest.mark.parametrize("x", INPUTS)
def test_slices(x):
    check(last_three, x)
    check(positive_tail, x)
    for k in (-7, -2, 0, 1, 3, 9):
        check(slices, x, k)


@settings(max_examples=25, deadline=None)
@given(arrays, st.integers(-8, 8))
def test_slices_any(x, k):
    check(slices, x, np.int64(k))


def test_mixed_kinds_are_refused_with_the_list_named():
    def f(x):
        kept = [0.5]  # a Python float, then NumPy values
        for v in x:
            kept.append(v)
        return kept[1:]

    with pytest.raises(LoweringError, match="list `kept` holds items of several Python types"):
        autoconv.function(f, backend="jax")(X)
    assert same(autoconv.function(f, backend="numpy")(X), f(X))  # (the NumPy backend runs it)


# --- list methods -----------------------------------------------------------------------------


def stack_machine(x):
    stack = []
    total = 0.0
    for v in x:
        if v > 0:
            stack.append(v)
        elif len(stack) > 0:
            total += stack.pop()
    return total, stack


def pop_at(x, k):
    kept = []
    for v in x:
        if v != 0:
            kept.append(v)
    got = kept.pop(k)
    return got, kept


def changes(x, k):
    kept = [np.float64(1.0)]
    for v in x:
        if v != 0:
            kept.append(v)
    kept.insert(k, np.float64(7.0))
    n = kept.count(np.float64(3.0))
    has = np.float64(-2.0) in kept
    kept.reverse()
    backwards = kept[:]
    kept.sort()
    up = kept[:]
    kept.sort(reverse=True)
    return n, has, backwards, up, kept, kept.index(np.float64(7.0))


def remove_three(x):
    kept = []
    for v in x:
        kept.append(v)
    kept.remove(np.float64(3.0))
    return kept


def index_of(x, v):
    kept = []
    for u in x:
        kept.append(u)
    return kept.index(v)


def ints(x):
    kept = []
    for v in x:
        kept.append(int(v))
    kept.sort(reverse=True)
    kept.insert(-1, 5)
    return kept, kept.pop(0), kept.count(5)


@pytest.mark.parametrize("x", INPUTS)
def test_methods(x):
    check(stack_machine, x)
    check(remove_three, x)
    check(index_of, x, np.float64(2.0))
    check(ints, x)
    for k in (-9, -1, 0, 2, 9):
        check(pop_at, x, k)
        check(changes, x, k)


@settings(max_examples=25, deadline=None)
@given(arrays, st.integers(-8, 8))
def test_methods_any(x, k):
    check(stack_machine, x)
    check(changes, x, k)  # (a Tensor key of insert: see test_insert_at_a_run_time_key)
    check(pop_at, x, np.int64(k))
    check(remove_three, x)


def insert_at(x, k):
    kept = []
    for v in x:
        kept.append(int(v))
    kept.insert(k, 7)
    return kept


@pytest.mark.parametrize("k", [-9, -1, 0, 2, 9])
def test_insert_at_a_run_time_key(k):
    check(insert_at, X, np.int64(k))


def test_pop_of_an_empty_list_is_eager_index_error():
    graph = autoconv.function(pop_at, backend="jax")
    with pytest.raises(IndexError, match="^pop from empty list"):
        graph(np.zeros(3), -1)
    with pytest.raises(IndexError, match="^pop index out of range"):
        graph(np.ones(3), 3)


def test_sort_of_nan_is_refused_when_it_runs():
    def f(x):
        kept = []
        for v in x:
            kept.append(v)
        kept.sort()
        return kept

    graph = autoconv.function(f, backend="jax")
    assert same(graph(np.array([2.0, 1.0])), f(np.array([2.0, 1.0])))
    with pytest.raises(LoweringError, match="found a NaN"):
        graph(np.array([2.0, np.nan]))


def unbounded_stack(x, tol):
    """A list grown in a loop with no bound (its buffer grows by running again)."""
    stack = []
    v = 1.0
    while v > tol:
        stack.append(v)
        v = v / 2
        if len(stack) > 3:
            stack.pop(0)
    return stack[-2:], stack


def test_growable_lists():
    for tol in (0.5, 1e-3, 1e-30, 1e-200):
        check(unbounded_stack, X, tol)


# --- tuples and strings -----------------------------------------------------------------------


def population(p0, rate, years):
    pop = p0
    log = []
    for y in range(years):
        pop = pop * (1 + rate)
        if pop > 150:
            pop = 150.0
            log.append(("cap", y))
        elif pop < 10:
            log.append(("low", y))
            break
    return pop, len(log), log


def rows(x):
    out = []
    for i in range(len(x)):
        out.append((i, x[i], x[i] * 2.0, "big" if x[i] > 1 else "small"))
    total = 0.0
    for i, a, b, _ in out:
        total += a * b + i
    return total, out, out[-2:]


def labels(x):
    names = []
    for v in x:
        names.append("pos" if v > 0 else ("zero" if v == 0 else None))
    return names, names[::-1]


def flood(x):
    todo = [(0, 0)]
    seen = 0
    steps = 0
    while len(todo) > 0 and steps < 20:
        r, c = todo.pop()
        seen += r * 10 + c
        steps += 1
        if r < len(x) - 1 and x[r] > 0:
            todo.append((r + 1, c))
            todo.append((r + 1, c + 1))
    return seen, todo


def test_tuples_and_strings():
    for args in ((np.float64(100.0), 0.05, 12), (np.float64(0.0), 0.1, 3), (50.0, -0.2, 5)):
        check(population, *args)
    for x in INPUTS:
        check(rows, x)
        check(labels, x)
        check(flood, x[:3])


def popped_strings(x, k):
    names = []
    rows = []
    for v in x:
        names.append("pos" if v > 0 else "neg")
        rows.append(("big" if v > 1 else "small", v))
    name = names.pop(k)
    tag, v = rows.pop()
    return name, names, tag, v, rows


def test_popped_strings():
    for x in INPUTS:
        for k in (-1, 0, 3, 7):
            check(popped_strings, x, k)


# --- an item write keyed by a list ------------------------------------------------------------


def swap_rows(A):
    A = A.astype(float)
    for k in range(A.shape[0]):
        p = k + np.argmax(np.abs(A[k:, k]))
        if p != k:
            A[[k, p]] = A[[p, k]]
    return A


def test_list_key_is_an_array_index():
    for A in (np.eye(3), np.array([[0.0, 1.0], [2.0, 3.0]]), np.arange(16.0).reshape(4, 4)):
        check(swap_rows, A)


# --- strings a staged condition chooses (a tag on the device, the string on the host) -----------


def verdict(x):
    s = x.sum()
    label = "high" if s > 1 else ("low" if s < -1 else None)
    if s > 5:
        mode = "warn"
    else:
        mode = "ok"
    autoconv.print(label, mode)
    return label, (mode, s)


@pytest.mark.parametrize("x", [np.array([3.0, 4.0]), np.array([-3.0]), np.zeros(2)])
def test_chosen_strings(x, capsys):
    expected = verdict(x)
    printed = capsys.readouterr().out
    for backend in ("jax", "numpy"):
        assert same(autoconv.function(verdict, backend=backend)(x), expected)
        assert capsys.readouterr().out == printed


def membership(x, v):
    kept = []
    for u in x:
        kept.append(int(u))
    return v in kept, kept.count(v)


@pytest.mark.parametrize("v", [2.5, 2.0, 2, np.float64(3.0), True, -1])
def test_membership_compares_in_the_common_type(v):
    check(membership, np.array([1.0, 2.0, 3.0]), v)


def test_looking_for_a_nan_in_a_list_holding_one_is_refused_when_it_runs():
    def f(x, v):
        kept = []
        for u in x:
            kept.append(u)
        return v in kept, kept.count(v)

    graph = autoconv.function(f, backend="jax")
    for x, v in [(np.array([1.0, np.nan]), 1.0), (np.array([1.0, 2.0]), np.nan)]:
        assert same(graph(x, v), f(x, v))  # a NaN on one side only: `==` is Python's answer
    with pytest.raises(LoweringError, match="looked for a NaN in a list holding a NaN"):
        graph(np.array([1.0, np.nan]), np.nan)
