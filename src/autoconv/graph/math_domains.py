"""Where the functions of `math` raise: eager Python raises ValueError ("math domain error") or
OverflowError ("math range error") for an argument where NumPy's and XLA's functions give a NaN
or an infinity.

The NumPy backend calls Python's own function when the graph runs, so it raises as eagerly; the
JAX backend tests the argument with `fails` and raises after the call (backends/jax/lowering.py),
and a staged `try` that handles the error takes its handler where `fails` holds
(trace/tensors/staged_try.py). A NaN argument fails no test: Python returns a NaN for it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

_EXP_MAX = 709.782712893384  # the largest float whose math.exp (and expm1) is finite
_COSH_MAX = 710.4758600739439  # the same for math.cosh and math.sinh
_INF = math.inf


class Domain(NamedTuple):
    """`fails(x)`: true where `func(x)` raises `kind` (operators only: it takes our Tensors and
    JAX arrays alike); `safe`: an argument that cannot fail; `bad`: one that does."""

    kind: type
    fails: Callable
    safe: float
    bad: float


DOMAINS = {
    math.sqrt: Domain(ValueError, lambda x: x < 0, 1.0, -1.0),
    math.log: Domain(ValueError, lambda x: x <= 0, 1.0, 0.0),
    math.log2: Domain(ValueError, lambda x: x <= 0, 1.0, 0.0),
    math.log10: Domain(ValueError, lambda x: x <= 0, 1.0, 0.0),
    math.log1p: Domain(ValueError, lambda x: x <= -1, 0.0, -1.0),
    math.acos: Domain(ValueError, lambda x: abs(x) > 1, 0.0, 2.0),
    math.asin: Domain(ValueError, lambda x: abs(x) > 1, 0.0, 2.0),
    math.atanh: Domain(ValueError, lambda x: abs(x) >= 1, 0.0, 1.0),
    math.acosh: Domain(ValueError, lambda x: x < 1, 1.0, 0.0),
    math.exp: Domain(OverflowError, lambda x: (x > _EXP_MAX) & (x < _INF), 0.0, 1000.0),
    math.expm1: Domain(OverflowError, lambda x: (x > _EXP_MAX) & (x < _INF), 0.0, 1000.0),
    math.cosh: Domain(OverflowError, lambda x: (abs(x) > _COSH_MAX) & (abs(x) < _INF), 0.0, 1e3),
    math.sinh: Domain(OverflowError, lambda x: (abs(x) > _COSH_MAX) & (abs(x) < _INF), 0.0, 1e3),
    # (of an integer: its arguments are ints)
    math.isqrt: Domain(ValueError, lambda x: x < 0, 1, -1),
}


def domain(func, args) -> Domain | None:
    """The domain of `func(*args)` when it is one of DOMAINS called on one argument."""
    try:
        found = DOMAINS.get(func)
    except TypeError:  # unhashable
        return None
    return found if found is not None and len(args) == 1 else None


def error(func, x) -> Exception:
    """The exception eager Python raises for `func(x)` (`x` a failing float), its message
    included."""
    try:
        func(x)
    except (ValueError, OverflowError) as e:
        return e.with_traceback(None)
    found = DOMAINS[func]
    return found.kind("math domain error" if found.kind is ValueError else "math range error")
