"""How one variable's values on two paths join, leaf by leaf.

A leaf's spec is `(shape, dtype, weak)`: `weak` for a Python number (or a traced value standing
for one), which takes the dtype of the array it meets, as NumPy's weak-scalar rule (NEP 50) and
JAX's weak types do. Two specs join when their dtypes do and their ranks agree; sizes that
differ become None where the tracer allows sizes known only at run time (graph mode), and are an
error where it needs static shapes (XLA).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

# A Python number of each dtype kind, to ask a promotion rule what it gives.
STAND_IN = {"b": True, "i": 1, "u": 1, "f": 1.0, "c": 1.0 + 0j}


def numpy_promotion(strong: np.dtype, weak: np.dtype) -> np.dtype:
    """NumPy's dtype for an array of dtype `strong` meeting a Python number of `weak`'s kind."""
    return np.result_type(strong, STAND_IN[weak.kind])


def numpy_weak_join(a: np.dtype, b: np.dtype) -> np.dtype:
    """The dtype of two Python numbers' kinds joined (an int on one path, a float on another)."""
    return np.result_type(a, b)


@dataclass(frozen=True)
class Policy:
    """What differs by design between tracers: whether sizes may be known only at run time
    (None), and the promotion of a weak (Python) number meeting an array."""

    dynamic_sizes: bool = True
    promotion: Callable[[np.dtype, np.dtype], np.dtype] = numpy_promotion
    weak_join: Callable[[np.dtype, np.dtype], np.dtype] = numpy_weak_join
    # Whether a weak number may take a dtype that changes its kind (JAX: a Python float next
    # to an int32 array is a float32; NumPy: a float64, which is not the int32 a loop carries).
    kind_may_change: bool = False


GRAPH = Policy()


def join(a: tuple, b: tuple, fail: Callable[[str], None], policy: Policy = GRAPH) -> tuple:
    """The spec covering spec `a` on one path and `b` on another; `fail(what)` raises for a
    disagreement in "dtype", "number of dimensions" or "shape"."""
    (sa, da, wa), (sb, db, wb) = a, b
    da, db = np.dtype(da), np.dtype(db)
    if wa and wb:
        dtype = np.dtype(policy.weak_join(da, db))
    elif wa or wb:
        strong, weak = (db, da) if wa else (da, db)
        dtype = np.dtype(policy.promotion(strong, weak))
        if dtype != strong and not policy.kind_may_change:
            fail("dtype")
    else:
        if da != db:
            fail("dtype")
        dtype = da
    if len(sa) != len(sb):
        fail("number of dimensions")
    if tuple(sa) != tuple(sb) and not policy.dynamic_sizes:
        fail("shape")
    shape = tuple(x if x == y else None for x, y in zip(sa, sb))
    return (shape, dtype, wa and wb)


def holds(dtype: np.dtype, number) -> bool:
    """Whether `dtype` holds the Python number `number` exactly (`np.float32` does not hold
    0.1): only then may a path's Python number stand as a value of that dtype."""
    try:
        with np.errstate(all="ignore"):
            return np.dtype(dtype).type(number).item() == number
    except (OverflowError, ValueError, TypeError):
        return False
