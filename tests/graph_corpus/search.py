"""Searches written by hand: argmax, first index where, binary search, best so far."""

import numpy as np

from tests.graph_corpus import case

A = np.array([3.0, -1.0, 7.0, 7.0, 2.0])
NEG = np.array([-4.0, -2.5, -9.0])
SORTED = np.array([1, 3, 5, 7, 9, 11], dtype=np.int64)


@case((A,), (NEG,), (np.array([5.0]),), cls=(4, 5))
def argmax_by_hand(x):
    best_i = 0
    best = x[0]
    for i in range(1, len(x)):
        if x[i] > best:
            best = x[i]
            best_i = i
    return best_i, best


@case((A, 6.0), (A, 100.0), (NEG, -3.0), cls=(5,))
def first_index_above(x, threshold):
    for i in range(len(x)):
        if x[i] > threshold:
            return i
    return -1


@case((A,), (np.array([1.0, 2.0]),), (NEG,), cls=(2, 5))
def first_negative(x):
    for i, v in enumerate(x):
        if v < 0:
            return i
    return None


@case(
    (SORTED, np.int64(7)),
    (SORTED, np.int64(1)),
    (SORTED, np.int64(4)),
    (SORTED, np.int64(12)),
    cls=(5, 4),
)
def binary_search(a, target):
    lo, hi = 0, len(a) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if a[mid] == target:
            return mid
        elif a[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


@case((SORTED, np.int64(6)), (SORTED, np.int64(0)), (SORTED, np.int64(100)), cls=(1, 5))
def lower_bound(a, target):
    lo = 0
    hi = a.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo


@case((A,), (NEG,), (np.array([0.0]),), cls=(2,))
def best_so_far(xs):
    best = None
    for v in xs:
        if best is None or v > best:
            best = v
    return best


@case((A,), (np.zeros(0),), cls=(2,))
def best_so_far_empty_ok(xs):
    best = None
    for v in xs:
        if best is None or v > best:
            best = v
    if best is None:
        return 0.0
    return best


@case((A, 7.0), (A, 8.0), (NEG, -9.0), cls=(2, 5))
def contains(x, target):
    for v in x:
        if v == target:
            found = True
            break
    else:
        found = False
    return found


@case((A, 7.0), (A, 0.5), cls=(5,))
def last_index_of(x, value):
    idx = -1
    for i in range(x.shape[0]):
        if x[i] == value:
            idx = i
    return idx


@case((np.array([1.0, 3.0, 2.0, 5.0, 4.0]),), (np.array([5.0, 4.0, 3.0]),), cls=(2, 5))
def find_peak(x):
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] > x[i + 1]:
            return i
    return None


@case((SORTED, np.int64(12)), (SORTED, np.int64(100)), (SORTED, np.int64(4)), cls=(2, 4, 5))
def two_sum_sorted(a, target):
    i, j = 0, len(a) - 1
    while i < j:
        s = a[i] + a[j]
        if s == target:
            return i, j
        elif s < target:
            i += 1
        else:
            j -= 1
    return None


@case((np.array([[1, 2], [3, 4]]), 3), (np.array([[1, 2], [3, 4]]), 9), cls=(2, 5))
def find_in_grid(grid, value):
    position = None
    for r in range(grid.shape[0]):
        for c in range(grid.shape[1]):
            if grid[r, c] == value:
                position = (r, c)
                break
        if position is not None:
            break
    return position


@case((np.array([1.0, 2.0, -1.0, 3.0, 4.0, 5.0, -2.0]),), (NEG,), (np.ones(4),), cls=(1, 4))
def longest_positive_run(x):
    best = 0
    current = 0
    for v in x:
        if v > 0:
            current += 1
            if current > best:
                best = current
        else:
            current = 0
    return best


@case((A,), (NEG,), cls=(5, 4))
def min_with_index_while(x):
    i = 0
    best_i = 0
    n = x.shape[0]
    while i < n:
        if x[i] < x[best_i]:
            best_i = i
        i += 1
    return best_i, x[best_i]


@case((SORTED, np.int64(8)), (SORTED, np.int64(-3)), cls=(5,))
def count_less_than(a, t):
    count = 0
    for v in a:
        if v >= t:
            break
        count += 1
    return count


@case((A, 2.5), (NEG, 0.0), (np.array([2.0, 2.0]), 2.0), cls=(2,))
def closest_value(x, target):
    best = None
    best_dist = np.inf
    for v in x:
        d = abs(v - target)
        if d < best_dist:
            best_dist = d
            best = v
    return best, best_dist


@case(
    (np.array([0.1, 0.5, 0.9, 1.0]), np.float64(0.6)),
    (np.array([0.3, 1.0]), np.float64(0.0)),
    cls=(1, 5),
)
def sample_index(cdf, u):
    i = 0
    while cdf[i] < u:
        i += 1
    return i
