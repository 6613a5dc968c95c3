"""None sentinels, `return None`, for/else flags and variables bound only inside loops or
branches (an empty loop or an untaken branch leaves them unbound: UnboundLocalError)."""

import numpy as np

from tests.graph_corpus import case, limit

A = np.array([2.0, -1.0, 5.0, 0.5])
NEG = np.array([-3.0, -1.0, -2.0])
EMPTY = np.zeros(0)


@case((A,), (NEG,), cls=(2,))
def smallest_positive(x):
    result = None
    for v in x:
        if v > 0 and (result is None or v < result):
            result = v
    return result


@case((A,), (np.zeros(3),), cls=(2, 4))
def normalize_or_none(x):
    if np.all(x == 0):
        return None
    return x / np.max(np.abs(x))


@case((A,), (NEG,), (EMPTY,), cls=(2,))
def last_element(x):
    for v in x:
        last = v
    return last


@case((A,), (NEG,), cls=(2,))
def defined_in_branch(x):
    if np.sum(x) > 0:
        y = x * 2
    return y


@case((A,), (NEG,), cls=(2, 7))
def successive_differences(x):
    prev = None
    diffs = []
    for v in x:
        if prev is not None:
            diffs.append(v - prev)
        prev = v
    return np.array(diffs)


@case((A,), (A, 2.0), (NEG, None), cls=(2,))
def standardize(x, scale=None):
    if scale is None:
        scale = np.std(x)
    return (x - np.mean(x)) / scale


@case((A, 4.0), (A, 10.0), (NEG, -1.5), cls=(2, 5))
def first_crossing(x, level):
    index = None
    i = 0
    while i < len(x):
        if x[i] >= level:
            index = i
            break
        i += 1
    return index


@case((A,), (NEG,), cls=(2, 5))
def found_flag_for_else(x):
    for i in range(len(x)):
        if x[i] < 0:
            where = i
            break
    else:
        where = -1
    return where


@case((A,), (np.array([1.0, 2.0]),), cls=(2,))
def flag_set_in_loop(x):
    seen_negative = False
    for v in x:
        if v < 0:
            seen_negative = True
    if seen_negative:
        return np.abs(x)
    return x


@case((A, 3), (A, 0), cls=(2,))
def loop_variable_after_loop(x, n):
    total = 0.0
    for i in range(n):
        total += x[i]
    return total, i


@case((A,), (NEG,), cls=(2, 4))
def maybe_threshold(x):
    threshold = None
    if np.max(x) > 1.0:
        threshold = np.max(x) / 2
    if threshold is None:
        return x
    return np.where(x > threshold, x, 0.0)


@case((A, {}), (A, {"mean": np.float64(1.0)}), cls=(2, 3))
def cached_mean(x, cache):
    value = cache.get("mean")
    if value is None:
        value = np.mean(x)
        cache["mean"] = value
    return x - value


@case((A,), (NEG,), (EMPTY,), cls=(2, 4))
def max_or_none(x):
    if x.shape[0] == 0:
        return None
    m = x[0]
    for v in x[1:]:
        if v > m:
            m = v
    return m


@case((np.array([1.0, 2.0, 3.0, 10.0]),), (np.array([1.0, 1.1, 1.2]),), cls=(2,))
@limit("Python strings that differ by path")
def first_outlier(x):
    mean = np.mean(x)
    std = np.std(x)
    outlier = None
    for v in x:
        if np.abs(v - mean) > 1.5 * std:
            outlier = v
            break
    if outlier is None:
        return "none", mean
    return "found", outlier


@case((A,), (NEG,), cls=(2,))
def bound_on_every_path(x):
    for v in x:
        if v > 0:
            sign = 1
            break
    else:
        sign = -1
    return sign * x


@case((A,), (NEG,), cls=(2,))
def result_or_raise(x):
    result = None
    for v in x:
        if v > 1:
            result = v
    if result is None:
        raise ValueError("no value above 1")
    return result


@case((A, 1), (A, 0), (NEG, 2), cls=(2, 5))
def nth_positive(x, n):
    count = 0
    for v in x:
        if v > 0:
            if count == n:
                return v
            count += 1
    return None


@case((A,), (NEG,), cls=(2, 4))
def argmin_positive_or_none(x):
    best_i = None
    for i in range(len(x)):
        if x[i] > 0 and (best_i is None or x[i] < x[best_i]):
            best_i = i
    return best_i


@case((A, None), (A, np.float64(1.0)), cls=(2,))
def optional_clip(x, limit=None):
    if limit is not None:
        x = np.minimum(x, limit)
    return x


@case((A,), (np.zeros(4),), cls=(2, 4))
def ratio_or_none(x):
    denom = np.sum(np.abs(x))
    ratio = None if denom == 0 else x / denom
    return ratio
