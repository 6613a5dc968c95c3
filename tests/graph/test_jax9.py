"""Task jax9 (issue 24): programs the NumPy backend runs that the JAX backend refused with its
own LoweringError (tools/jax9_findings.md), each checked against eager NumPy on both backends:
`np.unique` / `np.nonzero` of data-dependent size (lowered as mask selections, sized.py),
`np.array_equal` and `np.argmin` of lists of data-dependent length (mask_equal.py, masks.py),
and the Python types of items appended to run-time lists (kind_combos.py, tagged lists)."""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule, message

# --- J-size: np.unique / np.nonzero / np.argwhere of data-dependent size ---------------------


def nonzero_loop(A):
    c = 0
    for v in np.nonzero(A[0])[0]:
        c += v
    return c, len(np.unique(A[1]))


def unique_loop(X):
    best = 0.0
    for t in np.unique(X):
        best += float(t) * 2
    return best, np.unique(X).sum()


def unique_flags(X):
    u, idx, inv, cnt = np.unique(X, return_index=True, return_inverse=True, return_counts=True)
    return u.sum(), idx.max(), inv, cnt.max(), len(u)


def nonzero_2d(M):
    r, c = np.nonzero(M)
    s = 0
    for i in range(len(r)):
        s += r[i] * 10 + c[i]
    return s, np.argwhere(M).sum(axis=0), np.flatnonzero(M).size


def bfs_levels(A, src):
    n = len(A)
    level = np.full(n, -1)
    level[src] = 0
    frontier = [src]
    while frontier:
        nxt = []
        for u in frontier:
            for v in np.nonzero(A[u])[0]:
                if level[v] == -1:
                    level[v] = level[u] + 1
                    nxt.append(v)
        frontier = nxt
    return level


def distinct_blocks(b):
    for r in range(0, 4, 2):
        if len(np.unique(b[r : r + 2])) != 4:
            return False
    return True


def stump(X, y):
    best = (1.0, None, None)
    for f in range(X.shape[1]):
        for t in np.unique(X[:, f]):
            err = np.mean((X[:, f] >= t).astype(int) != y)
            if err < best[0]:
                best = (err, f, float(t))
    return best


def unique_empty_min(x):
    return np.unique(x).min(), np.unique(x * 2).mean()


ADJ = np.array([[0, 1, 1, 0], [1, 0, 0, 1], [1, 0, 0, 0], [0, 1, 0, 0]])
SIZED = [
    (nonzero_loop, (np.array([[0, 1, 2], [3, 3, 1]]),)),
    (nonzero_loop, (np.zeros((2, 0), int),)),
    (unique_loop, (np.array([3.0, np.nan, 1.0, np.nan, 3.0]),)),
    (unique_loop, (np.zeros(0),)),
    (unique_flags, (np.array([[4, 1], [4, 2]]),)),
    (unique_flags, (np.array([2.0, np.nan, 2.0, np.nan]),)),
    (nonzero_2d, (np.array([[0, 1], [2, 0]]),)),
    (nonzero_2d, (np.zeros((2, 2)),)),
    (bfs_levels, (ADJ, 0)),
    (bfs_levels, (ADJ, 3)),
    (distinct_blocks, (np.array([[1, 2], [3, 4], [5, 6], [7, 8]]),)),
    (distinct_blocks, (np.array([[1, 2], [3, 4], [5, 5], [7, 8]]),)),
    (stump, (np.array([[1.0, 5.0], [2.0, 3.0], [3.0, 3.0]]), np.array([0, 1, 1]))),
    (stump, (np.array([[1.0, 5.0]]), np.array([0]))),
    (unique_empty_min, (np.zeros(0),)),
    (unique_empty_min, (np.array([9.0, 7.0, 9.0]),)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn,args", SIZED, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(SIZED)]
)
def test_sized_results(fn, args, backend):
    follows_the_rule(fn, *args, backend=backend)


def unique_returned(x):
    return np.unique(x)


@pytest.mark.skipif("jax" not in BACKENDS, reason="the JAX backend is optional")
def test_a_returned_unique_names_the_call():
    text = message(unique_returned, np.array([1, 2, 1]), backend="jax")
    assert "np.unique() gives as many elements as the data says" in text
    assert "result of the function" in text


# --- J-stack: np.array_equal and np.argmin of lists of data-dependent length -----------------


def palindrome(codes):
    letters = [c for c in codes if c != 32]
    return letters == letters[::-1], letters != [1, 2]


def equal_to_row(row):
    out = [v for v in row if v != 0]
    return np.array_equal(out, row), np.array_equal(np.array(out), np.array([2.0, 4.0]))


def two_lists(x):
    a = [v for v in x if v > 0]
    b = [v * 1.0 for v in x if v > 0]
    return a == b, np.array_equal(a, [v for v in x if v < 0])


def order_by_min(x):
    done = [False] * len(x)
    order = []
    for _ in range(len(x)):
        u = min((k for k in range(len(x)) if not done[k]), key=lambda k: x[k])
        done[u] = True
        order.append(u)
    return order


def arg_of_kept(x):
    kept = [v for v in x if v > 0]
    return np.argmax(np.array(kept)), np.array(kept).argmin()


def arg_of_mask(x):
    return int(np.argmin(x[x > 1])), np.argmax(x[x > 1])


STACKS = [
    (palindrome, (np.array([97, 32, 98, 97]),)),
    (palindrome, (np.array([97, 98]),)),
    (palindrome, (np.array([32]),)),
    (palindrome, (np.array([1, 2]),)),
    (equal_to_row, (np.array([2.0, 0.0, 4.0]),)),
    (equal_to_row, (np.array([2.0, 4.0]),)),
    (equal_to_row, (np.array([0.0]),)),
    (two_lists, (np.array([1, -1]),)),
    (two_lists, (np.array([0, 0]),)),
    (order_by_min, (np.array([3.0, 1.0, 2.0, 1.0]),)),
    (arg_of_kept, (np.array([1.0, -1.0, 5.0, 5.0, 0.5]),)),
    (arg_of_kept, (np.array([-1.0]),)),
    (arg_of_mask, (np.array([3, 0, 2, 9, 9]),)),
    (arg_of_mask, (np.array([np.nan, 2.0, 5.0, np.nan]),)),
    (arg_of_mask, (np.array([0.0]),)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn,args", STACKS, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(STACKS)]
)
def test_lists_compared_and_searched(fn, args, backend):
    follows_the_rule(fn, *args, backend=backend)


# --- J-mixed: the Python types of items appended to run-time lists ----------------------------


def rpn(tokens):
    stack = []
    for t in tokens:
        if t >= 0:
            stack.append(float(t))
        else:
            b = stack.pop()
            a = stack.pop()
            if t == -1:
                stack.append(a + b)
            else:
                stack.append(a * b)
    return stack[-1], stack


def rpn_divide(tokens):
    stack = []
    for t in tokens:
        if t >= 0:
            stack.append(float(t))
        else:
            b = stack.pop()
            a = stack.pop()
            stack.append(a / b)
    return stack[-1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_quotient_of_two_reads_divides_by_zero_as_eager(backend):
    # Python floats divided by a zero one: eager's ZeroDivisionError, which the JAX program
    # checks on the paths where the quotient is a Python number (lists.py's `zero_checks`)
    follows_the_rule(rpn_divide, np.array([5, 0, -4]), backend=backend)
    follows_the_rule(rpn_divide, np.array([5, 2, -4]), backend=backend)


def halves(x):
    low = [1.0]
    out = []
    for v in x:
        low.append(float(v))
        out.append(low[-1] if v > 2 else (low[-1] + low[0]) / 2)
    return out


def widen(x):
    m = [[x[0], x[0]]]
    for v in x:
        if v > 2:
            m[-1][1] = max(m[-1][1], v)
        else:
            m.append([v, v])
    return m


def union_find(pairs):
    parent = list(range(4))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for k in range(len(pairs)):
        i, j = int(pairs[k, 0]), int(pairs[k, 1])
        ri, rj = find(i), find(j)
        if ri != rj:
            parent[ri] = rj
    return parent


KINDS = [
    (rpn, (np.array([3, 4, -1, 2, -3]),)),
    (rpn, (np.array([5]),)),
    (halves, (np.array([3.0, 1.0]),)),
    (widen, (np.array([1, 3, 2, 5]),)),
    (union_find, (np.array([[0, 1], [1, 2], [3, 0]]),)),
    (union_find, (np.zeros((0, 2), int),)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn,args", KINDS, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(KINDS)]
)
def test_item_types_followed(fn, args, backend):
    follows_the_rule(fn, *args, backend=backend)


def backlog(arr):
    backlog = 0
    handled = []
    for a in arr:
        backlog += a
        take = min(backlog, 1)
        backlog -= take
        handled.append(take)
    return sum(handled), backlog, handled, len(handled)


def reciprocals(x):
    out = []
    errors = 0
    for v in x:
        try:
            if v == 0:
                raise ZeroDivisionError
            out.append(1.0 / v)
        except ZeroDivisionError:
            errors += 1
            out.append(float("inf"))
    return out, errors


def taxes(incomes):
    taxes = []
    for income in incomes:
        tax = 0.0
        lower = 0
        for upper, rate in [(10000, 0.0), (40000, 0.2), (np.inf, 0.4)]:
            if income > lower:
                tax += (min(income, upper) - lower) * rate
            lower = upper
        taxes.append(tax)
    return taxes


def mixed_sums(x):
    out = [1]
    for v in x:
        out.append(v if v > 2 else 2)
    return sum(out), sum(out, 0.5), out


def branch_appends(x):
    out = [0.5]
    for v in x:
        if v > 1:
            out.append(v * 1.0)
        else:
            out.append(1.5)
    if x[0] > 0:
        out.append(2)
    return out, sum(out)


def while_appends(x):
    out = []
    i = 0
    while i < len(x) and x[i] != 0:
        out.append(x[i] if x[i] > 2 else 1)
        i += 1
    return out, sum(out)


TAGGED = [
    (backlog, (np.array([1, 0, 2, 1, 0, 3]),)),
    (backlog, (np.array([0, 0]),)),
    (backlog, (np.array([5]),)),
    (reciprocals, (np.array([4.0, 0.0, 2.0]),)),
    (reciprocals, (np.zeros(0),)),
    (taxes, (np.array([50000.0, 12000.0, 90000.0]),)),
    (taxes, (np.array([0.0]),)),
    (mixed_sums, (np.array([1, 3]),)),
    (mixed_sums, (np.array([1]),)),
    (branch_appends, (np.array([2.0, 0.5]),)),
    (branch_appends, (np.array([-2.0]),)),
    (while_appends, (np.array([3, 1, 0, 5]),)),
    (while_appends, (np.array([0]),)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn,args", TAGGED, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(TAGGED)]
)
def test_python_and_numpy_numbers_in_one_list(fn, args, backend):
    follows_the_rule(fn, *args, backend=backend)


def last_of_mixed(x):
    out = []
    for v in x:
        out.append(v if v > 0 else 0)
    return out[-1]


@pytest.mark.skipif("jax" not in BACKENDS, reason="the JAX backend is optional")
def test_an_item_read_from_a_mixed_list_stays_a_clear_error():
    text = message(last_of_mixed, np.array([1, -1]), backend="jax")
    assert "list `out`" in text and "several Python types" in text


# --- np.polyfit of int data: NumPy fits in float64 (jax.numpy refused int operands) -------


def trend(x):
    t = np.arange(len(x))
    return np.polyfit(t, x, 1)[0] > 0.05, np.polyfit(t, x * 1.0, 2).shape


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("x", [np.array([1, 2, 4, 8]), np.array([1.0, 0.5, 0.2])])
def test_polyfit_of_ints(x, backend):
    follows_the_rule(trend, x, backend=backend)
