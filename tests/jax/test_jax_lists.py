"""Sets and dicts whose keys are known only when the graph runs, on the JAX backend (issue
24): their shadow key and value lists are device buffers bounded by the loops' trip counts
(`backends/jax/keyed_plan.py`), lookups compare with the keys held, insertion order is kept,
and Python's KeyError / ValueError come after the call. Also: a number computed from a list's
item keeps the item's Python type (`lst[i] * 2` of Python ints is a Python int); `[0] * n`
with a run-time `n` is a run-time list (`repeats.py`); a slice only stacked (`np.mean(
gains[-3:])`) may hold Python and NumPy numbers; a stack of a run-time list returned from
inside a staged branch (`if not rows: return np.zeros((0, k))`, else `np.stack(rows)`) is the
list's buffer, sliced after the call (`branch_stacks.py`); an item a branch chooses from a
list's item or a number (`i + 1 if not stack else i - stack[-1]`) has the types the list's
items give it (`item_kinds.py`).

Each program runs eagerly, as `autoconv.function(f, backend="jax")` and with the NumPy backend:
the same values, Python types (keys too) and dict order, or the same exception."""

import copy

import numpy as np
import pytest

import autoconv

pytestmark = pytest.mark.filterwarnings("ignore::autoconv.RetracingWarning")


def same(a, b) -> bool:
    """The same Python types all the way down (dict keys and order too), arrays of the same
    dtype, shape and values; exceptions of the same type and message."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return same(list(a), list(b)) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, set):
        return same(sorted(a), sorted(b))
    if isinstance(a, BaseException):
        return str(a) == str(b)
    if isinstance(a, (np.ndarray, np.generic)):
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
    return a == b


def outcome(f, *args):
    try:
        return "value", f(*copy.deepcopy(args))
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        return "raise", e


def check(f, *args):
    expected = outcome(f, *args)
    for backend in ("jax", "numpy"):
        got = outcome(autoconv.function(f, backend=backend), *args)
        if backend == "numpy" and expected[0] == got[0] == "raise":
            assert isinstance(got[1], type(expected[1])), (f.__name__, args, got)
            continue
        assert expected[0] == got[0] and same(expected[1], got[1]), (
            f.__name__,
            backend,
            args,
            expected,
            got,
        )


def distinct_count(a):
    seen = set()
    for v in a:
        seen.add(int(v))
    return len(seen), seen


def float_histogram(x):
    counts = {}
    for v in x:
        k = float(np.round(v))
        counts[k] = counts.get(k, 0) + 1
    return counts


def first_repeat_pair(a, b):
    seen = set()
    for i in range(len(a)):
        p = (int(a[i]), int(b[i]))
        if p in seen:
            return i
        seen.add(p)
    return -1


def extreme_bucket(x):
    total = {}
    for v in x:
        k = int(v) % 3
        total[k] = total.get(k, np.float64(0.0)) + v
    return max(total, key=total.get), min(total, key=total.get)


def lookup(a, k):
    d = {}
    for i, v in enumerate(a):
        d[int(v)] = i
    return d[k]


def remove(a, k):
    s = set()
    for v in a:
        s.add(int(v))
    s.remove(k)
    return s


def collatz_seen(n):
    seen = set()
    while n != 1:  # no bound known while compiling: the buffers grow by running again
        seen.add(n)
        n = n // 2 if n % 2 == 0 else 3 * n + 1
    return len(seen), n in seen


def branch_store(x, limit):
    d = {}
    for i, v in enumerate(x):
        if v > limit:
            d[i] = float(v)
        else:
            d[i] = -1.0
    return d


def count_then_pop(a):
    d = {}
    for v in a:
        d.setdefault(int(v), 0)
        d[int(v)] += 1
    first = d.pop(int(a[0])) if len(a) else 0
    return d, first


def weighted_items(a):
    d = {}
    for v in a:
        d[int(v) % 4] = d.get(int(v) % 4, 0) + int(v)
    total = 0
    for k, v in d.items():
        total += k * v
    return total


def toggle(a):
    s = set()
    for v in a:
        if int(v) in s:
            s.discard(int(v))
        else:
            s.add(int(v))
    return len(s)


def doubled_keys(a):
    d = {}
    for i, v in enumerate(a):
        d[int(v)] = i
    out = []
    for k in d:
        out.append(k * 2)
    return out


def doubled_items(a):
    items = []
    for v in a:
        items.append(int(v))
    out = []
    for k in items:
        out.append(k * 2 + 1)
    return out


def float_values(x):
    d = {}
    for v in x:
        d[int(v > 0)] = v  # np.float64 values, Python int keys
    return d


EMPTY_I = np.array([], dtype=np.int64)
CASES = [
    (distinct_count, (np.array([3, 1, 3, 2]),)),
    (distinct_count, (EMPTY_I,)),
    (float_histogram, (np.array([0.4, 1.6, 2.1, 0.1, -0.2]),)),
    (float_histogram, (np.zeros(0),)),
    (first_repeat_pair, (np.array([1, 2, 1]), np.array([5, 6, 5]))),
    (first_repeat_pair, (np.array([1, 2]), np.array([1, 1]))),
    (extreme_bucket, (np.array([1.0, 2.0, 3.0, 4.0, 5.0]),)),
    (extreme_bucket, (np.zeros(0),)),  # max() of an empty dict: ValueError
    (lookup, (np.array([4, 5, 6]), 5)),
    (lookup, (np.array([4, 5, 6]), 7)),  # KeyError: 7
    (remove, (np.array([4, 5, 6]), 5)),
    (remove, (np.array([4, 5]), 9)),  # KeyError: 9
    (collatz_seen, (6,)),
    (collatz_seen, (27,)),
    (branch_store, (np.array([1.0, -2.0, 3.0]), 0.0)),
    (count_then_pop, (np.array([2, 3, 2, 2]),)),
    (count_then_pop, (np.array([7]),)),
    (weighted_items, (np.array([1, 5, 2, 7, 8]),)),
    (weighted_items, (EMPTY_I,)),
    (toggle, (np.array([1, 2, 1, 3, 1]),)),
    (doubled_keys, (np.array([3, 1, 3, 2]),)),
    (doubled_items, (np.array([3, 1, 2]),)),
    (float_values, (np.array([1.5, -2.0, 3.0]),)),
]


@pytest.mark.parametrize(
    "f, args", CASES, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(CASES)]
)
def test_keyed_sets_and_dicts_follow_eager(f, args):
    check(f, *args)


def pad_to_width(x):
    kept = []
    for v in x:
        if v > 0:
            kept.append(float(v))
    kept += [0.0] * (len(x) - len(kept))
    return kept


def pad_ints(row):
    tiles = [int(v) for v in row if v != 0]
    return tiles + [0] * (len(row) - len(tiles))


def repeat_run_time(n):
    out = [1, 2] * n  # no bound while compiling: grows by running again
    return out, len(out)


def pad_to_two(x):
    kept = []
    for v in x:
        kept.append(int(v))
    kept += [7] * (2 - len(kept))  # a negative count: no items, as Python
    return kept


def repeated_sum(n):
    return sum([3] * n)


def repeated_arrays(x, n):
    return [x[0]] * n


def mean_of_mixed_window(p):
    gains = []
    for a, b in zip(p[:-1], p[1:]):
        gains.append(max(b - a, 0.0))  # np.float64 or the Python float 0.0, by the path
    return [np.mean(gains[t - 2 : t]) for t in range(2, len(gains) + 1)]


REPEATS = [
    (pad_to_width, (np.array([1.0, -2.0, 3.0]),)),
    (pad_to_width, (np.zeros(0),)),
    (pad_ints, (np.array([2, 0, 4, 0]),)),
    (pad_ints, (np.array([0, 0]),)),
    (repeat_run_time, (3,)),
    (repeat_run_time, (-2,)),
    (repeat_run_time, (40,)),
    (pad_to_two, (np.array([1, 2, 3]),)),
    (pad_to_two, (np.array([5]),)),
    (repeated_sum, (4,)),
    (repeated_sum, (0,)),
    (repeated_arrays, (np.array([1.5, 2.0]), 3)),
    (mean_of_mixed_window, (np.array([1.0, 2.0, 1.5, 3.0, 2.5]),)),
]


@pytest.mark.parametrize(
    "f, args", REPEATS, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(REPEATS)]
)
def test_repeats_and_stacked_slices_follow_eager(f, args):
    check(f, *args)


def drop_nan_rows(m):
    rows = []
    for row in m:
        if not np.any(np.isnan(row)):
            rows.append(row)
    if not rows:
        return np.zeros((0, m.shape[1]))
    return np.stack(rows)


def stack_or_raise(x, flag):
    kept = []
    for v in x:
        if v > 0:
            kept.append(v)
    if flag > 0:
        return np.stack(kept)  # np.stack([]) raises ValueError eagerly
    return np.zeros((0,))


def positives_array(x):
    kept = []
    for v in x:
        if v > 0:
            kept.append(v)
    if len(kept) == 0:
        return np.zeros(0)
    return np.array(kept)


def int_rows(m):
    rows = []
    for row in m:
        if row.sum() > 0:
            rows.append(row)
    if rows:
        return np.stack(rows)
    return np.zeros((0, 2), dtype=np.int64)


def halving_history(loss, tol):
    history = []
    while loss > tol:
        history.append(loss)
        loss = loss * 0.5
    if not history:
        return np.zeros(0)
    return np.stack(history)


def two_outputs(x):
    kept = []
    for v in x:
        if v > 0:
            kept.append(v * 2)
    n = len(kept)
    if n == 0:
        return np.zeros(0), n
    return np.array(kept), n


BRANCH_STACKS = [
    (drop_nan_rows, (np.array([[1.0, np.nan], [3.0, 4.0], [np.nan, np.nan]]),)),
    (drop_nan_rows, (np.full((2, 2), np.nan),)),
    (drop_nan_rows, (np.ones((2, 2)),)),
    (stack_or_raise, (np.array([1.0, -1.0]), 1)),
    (stack_or_raise, (np.array([-1.0]), 1)),  # ValueError: need at least one array to stack
    (stack_or_raise, (np.array([-1.0]), 0)),
    (positives_array, (np.array([1.0, -2.0, 3.0]),)),
    (positives_array, (np.array([-1.0]),)),
    (int_rows, (np.array([[1, 2], [-3, 0]]),)),
    (int_rows, (np.zeros((2, 2), dtype=np.int64),)),
    (halving_history, (np.float64(1.0), np.float64(0.1))),
    (halving_history, (np.float64(1.0), np.float64(1e-100))),  # past the first buffer
    (halving_history, (np.float64(0.01), np.float64(0.1))),
    (two_outputs, (np.array([1.0, -2.0]),)),
    (two_outputs, (np.array([-1.0]),)),
]


@pytest.mark.parametrize(
    "f, args", BRANCH_STACKS, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(BRANCH_STACKS)]
)
def test_stacks_returned_from_branches_follow_eager(f, args):
    check(f, *args)


def test_a_branch_stack_used_in_the_graph_stays_a_lowering_error():
    def summed(m):
        rows = []
        for row in m:
            if row.sum() > 0:
                rows.append(row)
        if rows:
            r = np.stack(rows)
        else:
            r = np.zeros((0, 2))
        return r.sum(axis=0)  # a run-time shape used on the device: not only returned

    with pytest.raises(autoconv.AutoconvError, match="list `rows`"):
        autoconv.function(summed, backend="jax")(np.array([[1.0, 2.0], [-3.0, 0.0]]))


def stock_span(prices):
    span = []
    stack = []
    for i, p in enumerate(prices):
        while stack and prices[stack[-1]] <= p:
            stack.pop()
        span.append(i + 1 if not stack else i - stack[-1])
        stack.append(i)
    return span


def carry_last(x):
    out = [0]
    for v in x:
        out.append(out[-1] if v < 0 else int(v))
    return out


def carry_last_numpy(x):
    out = [np.int64(0)]
    for v in x:
        out.append(out[-1] if v < 0 else v)
    return out


def rsi_like(p):
    gains = []
    for a, b in zip(p[:-1], p[1:]):
        gains.append(max(b - a, 0.0))
    out = []
    for t in range(2, len(gains) + 1):
        g = np.mean(gains[t - 2 : t])
        out.append(100.0 if g == 0 else float(100 / (1 + g)))
    return out


def prev_or_index(x):
    seen = []
    out = []
    for i, v in enumerate(x):
        out.append(i if not seen else seen[-1] + i)
        if v > 0:
            seen.append(i)
    return out


CHOSEN = [
    (stock_span, (np.array([100.0, 80.0, 60.0, 70.0, 60.0, 75.0, 85.0]),)),
    (stock_span, (np.array([1.0]),)),
    (stock_span, (np.zeros(0),)),
    (carry_last, (np.array([1.0, -1.0, 3.0]),)),
    (carry_last, (np.zeros(0),)),
    (carry_last_numpy, (np.array([1, -1, 3]),)),
    (rsi_like, (np.array([1.0, 2.0, 1.5, 3.0, 3.0]),)),
    (prev_or_index, (np.array([1.0, -1.0, 3.0, 2.0]),)),
    (prev_or_index, (np.array([-1.0, -2.0]),)),
]


@pytest.mark.parametrize(
    "f, args", CHOSEN, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(CHOSEN)]
)
def test_items_chosen_by_branches_keep_their_types(f, args):
    check(f, *args)


def test_items_of_two_types_by_path_keep_their_types():
    # a Python float or an np.float64 by path: each item's type is tagged (tagged.py); read
    # back by item it stays the LoweringError
    def ratios(p):
        out = []
        for a, b in zip(p[:-1], p[1:]):
            out.append(100.0 if a == 0 else b / a)
        return out

    def last_ratio(p):
        out = []
        for a, b in zip(p[:-1], p[1:]):
            out.append(100.0 if a == 0 else b / a)
        return out[-1]

    check(ratios, np.array([0.0, 1.0, 2.0]))
    with pytest.raises(autoconv.AutoconvError, match="several Python types"):
        autoconv.function(last_ratio, backend="jax")(np.array([0.0, 1.0, 2.0]))
