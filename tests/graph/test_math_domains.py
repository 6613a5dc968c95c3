"""`math` functions of run-time numbers raise where eager Python raises (ValueError "math domain
error", OverflowError "math range error"), on both backends (XLA gives a NaN or an infinity
there), and a staged `try` that handles the error takes its handler where the argument fails
(graph/math_domains.py)."""

import math

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule

FUNCS = [
    (math.sqrt, [4.0, -1.0, 0.0, -math.inf, math.nan]),
    (math.log, [2.0, 0.0, -3.0, math.inf]),
    (math.log2, [8.0, 0.0]),
    (math.log10, [100.0, -1.0]),
    (math.log1p, [0.5, -1.0, -2.0]),
    (math.acos, [0.5, 1.0, 1.5, -2.0]),
    (math.asin, [-1.0, 1.01]),
    (math.atanh, [0.5, 1.0, -1.0]),
    (math.acosh, [1.0, 0.5]),
    (math.exp, [1.0, 709.0, 710.0, math.inf, -math.inf]),
    (math.expm1, [1.0, 800.0]),
    (math.cosh, [2.0, -711.0, 711.0]),
    (math.sinh, [2.0, -711.0]),
]
CASES = [(f, v) for f, values in FUNCS for v in values]


def _call(func):
    def apply(x):
        return func(x[0])

    apply.__name__ = f"apply_{func.__name__}"
    return apply


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("func,value", CASES, ids=lambda v: getattr(v, "__name__", repr(v)))
def test_math_raises_where_eager_raises(func, value, backend):
    fn, x = _call(func), np.array([value])
    try:
        want = fn(x)
    except (ValueError, OverflowError):
        follows_the_rule(fn, x, backend=backend, text=True)
        return
    got = autoconv.function(fn, backend=backend)(x)
    # XLA's functions may round differently in the last place (docs/backends.md).
    assert type(got) is float
    assert got == want or math.isclose(got, want, rel_tol=1e-14) or want != want and got != got


def guarded_means(x):
    try:
        g = math.exp(sum(math.log(v) for v in x) / len(x))
    except ValueError:
        g = float("nan")
    return g


def per_item(x):
    out = []
    for v in x:
        try:
            out.append(math.exp(v))
        except OverflowError:
            out.append(-1.0)
        try:
            r = math.acos(v)
        except ValueError:
            r = None  # None in the handler, a number in the body
        out.append(r)
    return out


def last_good_log(x):
    last = None
    for v in x:
        try:
            r = math.log(v)
        except ValueError:
            r = None
        last = r if r is not None else last
    return last


def unbound_after_empty_loop(x):
    n = 0
    for v in x:
        try:
            r = math.acos(v)
        except ValueError:
            r = None
        if r is not None:
            n += 1
    return r, n


def appended_in_try_then_maybe_none(x):
    out = []
    for v in x:
        try:
            out.append(1.0 / float(v))
        except ZeroDivisionError:
            out.append(-1.0)
        out.append(float(v) if v > 0 else None)  # the list's rows widen to values-or-None
    return out


TRIES = [
    (appended_in_try_then_maybe_none, np.array([0.5, 0.0, -2.0])),
    (guarded_means, np.array([1.0, 1.0, 1.0])),
    (guarded_means, np.array([-1.0, 2.0])),
    (per_item, np.array([0.0, 800.0, -2.0])),
    (per_item, np.zeros(0)),
    (last_good_log, np.array([2.0, -1.0])),
    (last_good_log, np.array([-2.0, 0.0])),
    (unbound_after_empty_loop, np.array([0.5, -2.0])),
    (unbound_after_empty_loop, np.zeros(0)),  # UnboundLocalError, as eagerly
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,x", TRIES, ids=lambda v: getattr(v, "__name__", ""))
def test_try_around_math(fn, x, backend):
    follows_the_rule(fn, x, backend=backend)
