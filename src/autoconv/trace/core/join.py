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
    (None), how a weak (Python) number is promoted meeting an array or another weak number,
    whether that may change its kind, and whether the array's dtype must hold it exactly."""

    dynamic_sizes: bool = True
    promotion: Callable[[np.dtype, np.dtype], np.dtype] = numpy_promotion
    weak_join: Callable[[np.dtype, np.dtype], np.dtype] = numpy_weak_join
    # Whether a weak number may take a dtype that changes its kind (JAX: a Python float next
    # to an int32 array is a float32; NumPy: a float64, which is not the int32 a loop carries).
    kind_may_change: bool = False
    # Whether the strong dtype must hold the weak side's number exactly (graph mode returns it
    # as that dtype on the weak path: `np.float32(0.1)` is not 0.1). `holds(dtype, value)`.
    exact: Callable | None = None


GRAPH = Policy()


def join(
    a: tuple, b: tuple, fail: Callable[[str], None], policy: Policy = GRAPH, values=None
) -> tuple:
    """The spec covering spec `a` on one path and `b` on another; `fail(what)` raises for a
    disagreement in "dtype", "number of dimensions" or "shape". `values`: the two values, for
    the policy's exactness check."""
    (sa, da, wa), (sb, db, wb) = a, b
    da, db = np.dtype(da), np.dtype(db)
    if wa and wb:
        dtype = np.dtype(policy.weak_join(da, db))
    elif wa or wb:
        strong, weak = (db, da) if wa else (da, db)
        dtype = np.dtype(policy.promotion(strong, weak))
        if dtype != strong and not policy.kind_may_change:
            fail("dtype")
        if policy.exact is not None and values is not None:
            if not policy.exact(dtype, values[0 if wa else 1]):
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


@dataclass(frozen=True)
class Leaves:
    """How a tracer describes its leaves to `plan_leaf`."""

    numeric: Callable  # an array or a number (of this tracer, or concrete)
    same: Callable  # two values interchangeable as constants of a trace
    spec: Callable  # `(shape, dtype, weak)` of a numeric leaf
    policy: Policy = GRAPH


SAME = "same"  # one value serves every path: it stays outside the staged statement
JOIN = "join"  # an output of the staged statement, of the joined spec


def plan_leaf(a, b, leaves: Leaves, fail: Callable[[str], None]) -> tuple:
    """How leaf `a` (one path) and `b` (another) merge: `(SAME,)`, or `(JOIN, spec)`.
    `fail(what)` raises: "value" for values that are not arrays or numbers and differ, else
    the disagreement `join` names."""
    if a is b:
        return (SAME,)
    if not (leaves.numeric(a) and leaves.numeric(b)):
        if leaves.same(a, b):
            return (SAME,)
        fail("value")
    if leaves.same(a, b):
        return (SAME,)
    return (JOIN, join(leaves.spec(a), leaves.spec(b), fail, leaves.policy, (a, b)))


def holds(dtype: np.dtype, number) -> bool:
    """Whether `dtype` holds the Python number `number` exactly (`np.float32` does not hold
    0.1): only then may a path's Python number stand as a value of that dtype."""
    try:
        with np.errstate(all="ignore"):
            held = np.dtype(dtype).type(number)
        return type(held) is not type(number) and held.item() == number
    except (OverflowError, ValueError, TypeError):
        return False
