"""Quotients of numbers read from run-time dicts and lists (`tot[k] / n[k]`): a NumPy value
where either read is one, else a Python float that raises ZeroDivisionError for a zero
divisor, on every backend (the JAX program checks the divisor where the quotient's Python type
may be a Python number: backends/jax/lists.py's `zero_checks`)."""

import numpy as np
import pytest
from agreement import BACKENDS, follows_the_rule

import autoconv


def python_means(keys, vals):
    tot, n = {}, {}
    for k, v in zip(keys, vals):
        k = int(k)
        tot[k] = tot.get(k, 0.0) + float(v)
        n[k] = n.get(k, 0) + 1
    return {k: tot[k] / n[k] for k in tot}


def numpy_means(keys, vals):
    tot, n = {}, {}
    for k, v in zip(keys, vals):
        k = int(k)
        tot[k] = tot.get(k, 0.0) + v
        n[k] = n.get(k, 0) + 1
    return [tot[k] / n[k] for k in sorted(tot)]


def best_mean(keys, vals):
    tot, n = {}, {}
    for k, v in zip(keys, vals):
        k = int(k)
        tot[k] = tot.get(k, 0) + v * 2
        n[k] = n.get(k, 0) + 1
    best = None
    for k in tot:
        m = tot[k] / n[k]
        if best is None or m > best:
            best = m
    return best


def ratios(keys, vals):
    # Python floats over Python floats that are 0.0 where a key's values cancel
    num, den = {}, {}
    for k, v in zip(keys, vals):
        k = int(k)
        num[k] = num.get(k, 0.0) + 1.0
        den[k] = den.get(k, 0.0) + float(v)
    return [num[k] / den[k] for k in sorted(num)]


def shares(keys, vals):
    tot = {}
    for k, v in zip(keys, vals):
        tot[int(k)] = tot.get(int(k), 0.0) + v
    s = sum(tot.values())
    return {k: t / s for k, t in tot.items()} if s else {}


KEYS = np.array([3, 1, 3, 2])
EMPTY = np.zeros(0, dtype=np.int64)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn", [python_means, numpy_means, best_mean, shares], ids=lambda f: f.__name__
)
@pytest.mark.parametrize("keys", [KEYS, EMPTY], ids=["keys", "empty"])
def test_quotients_of_reads(backend, fn, keys):
    follows_the_rule(fn, keys, np.arange(len(keys)) * 0.5, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_zero_python_divisor_raises_as_eager(backend):
    follows_the_rule(ratios, KEYS, np.array([1.0, 2.0, -1.0, 4.0]), backend=backend)  # raises
    follows_the_rule(ratios, KEYS, np.array([1.0, 2.0, 3.0, 4.0]), backend=backend)


# --- quotients of numbers: XLA's reciprocal of a constant divisor is not NumPy's division -----


def number_quotients(x):
    total = 0
    for v in x:
        total += int(v)
    vals = [float(v) for v in x]
    return total / max(len(x), 1), sum(vals) / len(vals) if vals else 0.0, total / 3


def whole_means(x):
    return np.mean(x), x.mean(), float(np.sum(x)) / len(x)


@pytest.mark.parametrize("backend", BACKENDS)
def test_number_quotients_are_numpys_to_the_last_bit(backend):
    # integer-valued floats: the sums are exact, so only the division could differ (compared
    # by repr: the differential tests allow JAX's float64 a relative 1e-9)
    rng = np.random.default_rng(12)
    for fn in (number_quotients, whole_means):
        graph = autoconv.function(fn, backend=backend)
        for _ in range(8):
            x = rng.integers(0, 100, int(rng.integers(1, 12))).astype(float)
            assert repr(graph(x)) == repr(fn(x))
