"""Input validation: `raise` and `assert` in branches that depend on the data, run-time checks
after loops, and recursion."""

import numpy as np

from tests.graph_corpus import case, limit

GOOD = np.array([1.0, 4.0, 9.0])
BAD = np.array([1.0, -4.0, 9.0])


@case((GOOD,), (BAD,), cls=(6,))
def safe_sqrt(x):
    if np.any(x < 0):
        raise ValueError("negative input")
    return np.sqrt(x)


@case((GOOD,), (np.array([1.0, np.nan]),), cls=(6,))
def assert_finite(x):
    assert np.all(np.isfinite(x)), "input has NaN or inf"
    return x * 2


@case((np.array([0.2, 0.3, 0.5]),), (np.array([0.2, 0.2]),), cls=(6,))
def check_probabilities(p):
    if abs(np.sum(p) - 1.0) > 1e-6:
        raise ValueError(f"probabilities sum to {np.sum(p)}")
    return -np.sum(p * np.log(p))


@case((GOOD,), (np.zeros(3),), cls=(6,))
def unit_vector(x):
    norm = np.sqrt(np.sum(x * x))
    if norm == 0:
        raise ZeroDivisionError("cannot normalise the zero vector")
    return x / norm


@case((GOOD,), (BAD,), cls=(6, 5))
def validate_each(x):
    total = 0.0
    for v in x:
        if v < 0:
            raise ValueError(f"bad value {v}")
        total += v
    return total


@case((np.int64(1),), (np.int64(2),), (np.int64(7),), cls=(6, 4))
def level_name(code):
    if code == 1:
        name = 10
    elif code == 2:
        name = 20
    else:
        raise KeyError(code)
    return name


@case((np.int64(5),), (np.int64(1),), cls=(6,), expect="error")
def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)


@case((np.int64(6),), (np.int64(0),), cls=(6,), expect="error")
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@case((GOOD, 3), (GOOD, 0), cls=(6,))
def halve_repeatedly(x, depth):
    if depth == 0:
        return x
    return halve_repeatedly(x * 0.5, depth - 1) + x


@case((GOOD,), (GOOD.astype(np.float32),), cls=(6,))
def require_float64(x):
    if x.dtype != np.float64:
        raise TypeError(f"expected float64, got {x.dtype}")
    return x + 1


@case((GOOD, GOOD), (GOOD, np.ones(2)), cls=(6,))
def require_same_shape(x, y):
    if x.shape != y.shape:
        raise ValueError("shapes differ")
    return x - y


@case((GOOD,), (BAD,), cls=(6,))
def assert_nonnegative(x):
    assert np.all(x >= 0)
    return np.log1p(x)


@case((np.float64(2.0), 100), (np.float64(2.0), 3), cls=(6, 1))
def sqrt_or_fail(a, max_iter):
    x = a
    delta = 1.0
    it = 0
    while delta > 1e-12 and it < max_iter:
        new = 0.5 * (x + a / x)
        delta = np.abs(new - x)
        x = new
        it += 1
    if delta > 1e-12:
        raise RuntimeError("did not converge")
    return x


@case((GOOD, np.float64(0.5)), (GOOD, np.float64(1.5)), (GOOD, np.float64(-0.1)), cls=(6,))
def dropout_scale(x, rate):
    if rate < 0 or rate >= 1:
        raise ValueError(f"rate must be in [0, 1), got {rate}")
    return x / (1 - rate)


@case((np.array([3, 1, 2]),), (np.array([3, 3, 2]),), cls=(6, 5))
def assert_unique(labels):
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            assert labels[i] != labels[j], "duplicate label"
    return np.sort(labels)


@case((GOOD,), (BAD,), cls=(6,))
def clip_or_warn(x):
    if np.min(x) < 0:
        raise ArithmeticError("negative values cannot be log-scaled")
    else:
        y = np.log(x + 1)
    return y


@case(
    (np.array([1.0, 2.0]), np.array([0.5, 0.5])),
    (np.array([1.0, 2.0]), np.array([0.0, 0.0])),
    (np.array([1.0, 2.0]), np.array([-1.0, 2.0])),
    cls=(6,),
)
def weighted_mean(x, w):
    total = np.sum(w)
    if total <= 0:
        raise ValueError("weights must have a positive sum")
    if np.any(w < 0):
        raise ValueError("weights must be non-negative")
    return np.sum(x * w) / total


@case((GOOD, 2), (GOOD, 5), cls=(6,))
def check_index(x, i):
    if i >= len(x):
        raise IndexError(f"index {i} out of range for length {len(x)}")
    return x[i]


@case((np.array([0.5, 0.5]),), (np.array([1.5, -0.5]),), cls=(6, 5))
def assert_in_loop(p):
    for v in p:
        assert 0 <= v <= 1, "probability out of range"
    return np.sum(p)


@case((GOOD, np.float64(2.0)), (GOOD, np.float64(0.0)), (GOOD, np.float64(-1.0)), cls=(6, 4))
def divide_checked(x, d):
    if d == 0:
        raise ZeroDivisionError("division by zero")
    elif d < 0:
        raise ValueError("negative divisor")
    else:
        y = x / d
    return y


@case((GOOD,), (np.array([1.0, 1e9]),), (np.array([1e12]),), cls=(6, 1))
def converge_or_raise(x):
    scale = 1.0
    for _ in range(10):
        if np.max(x) * scale < 10:
            return x * scale
        scale = scale / 10
    raise RuntimeError("values too large to rescale")


class Counter:
    def __init__(self):
        self.failures = 0

    @case((GOOD,), (BAD,), (GOOD,), cls=(6, 3), bind=lambda: Counter())
    @limit("an attribute changed before a staged raise")
    def checked_log(self, x):
        if np.any(x <= 0):
            self.failures += 1
            raise ValueError("non-positive input")
        return np.log(x)


@case((GOOD,), (BAD,), cls=(4,))
def clipped_in_finally(x):
    try:
        y = x * 2.0
        return y
    finally:
        if np.any(x < 0):
            return np.maximum(x, 0.0)  # noqa: B012 - overrides the body's return


@case((GOOD,), (BAD,), cls=(5,))
def steps_until_finally_breaks(x):
    t = x
    for i in range(4):
        try:
            t = t + 1.0
        finally:
            if i == 1:
                break  # noqa: B012
    return t


@case((GOOD,), (BAD,), cls=(4,))
def scaled_in_finally(x):
    t = x
    try:
        t = t * 3.0
    finally:
        return t - 1.0  # noqa: B012
