"""Static shape and dtype inference helpers.

Shapes are tuples whose entries are ints or None (known only at run time). Dtypes come from
NumPy itself, by running the operation on stand-ins: arrays with the operands' dtypes and ranks
but every dimension 1. A stand-in has one element whatever the real size, so inference never
computes on full-size data and tracing time does not grow with array sizes.
"""

from __future__ import annotations

import warnings

import numpy as np

from autoconv.caches import register_cache
from autoconv.graph.errors import StagingError, where
from autoconv.graph.origin import user_origin
from autoconv.graph.tensor import Tensor


def shape_of(value) -> tuple:
    if isinstance(value, Tensor):
        return value.shape
    return np.shape(value)


class IndexOutOfBounds(StagingError, IndexError):
    """An integer index outside a size known while tracing: eager NumPy raises `IndexError`
    there, so this is one too (`try: v = x[5] except IndexError:` behaves as eagerly)."""


class ShapeValueError(StagingError, ValueError):
    """Shapes that NumPy rejects, known while tracing: eager NumPy raises ValueError there."""


def fail(message: str, origin=None, cls=StagingError):
    """Raises a StagingError (or `cls`, a subclass) at the user's current line."""
    raise cls(f"{where(origin or user_origin(2))}: {message}")


def fmt(shape) -> str:
    return (
        "("
        + ", ".join("None" if d is None else str(d) for d in shape)
        + ("," if len(shape) == 1 else "")
        + ")"
    )


def broadcast(*shapes, what="operands") -> tuple:
    """NumPy broadcasting of static shapes. An unknown dimension against a known one other than
    1 gives the known one (NumPy checks it at run time); against 1 or unknown, it stays unknown."""
    same = _all_same(shapes)
    if same is not None:
        return same
    ndim = max((len(s) for s in shapes), default=0)
    result = []
    for k in range(ndim, 0, -1):
        known = None
        unknown = False
        for s in shapes:
            if len(s) < k:
                continue
            d = s[len(s) - k]
            if d is None:
                unknown = True
            elif d != 1:
                if known is not None and known != d:
                    fail(
                        f"{what} could not be broadcast together with shapes "
                        + " ".join(fmt(s) for s in shapes)
                    )
                known = d
        result.append(known if known is not None else (None if unknown else 1))
    return tuple(result)


def _all_same(shapes):
    """The broadcast when every shape is () or one same tuple of ints and Nones (most
    operations: an array with a scalar or with an array of its own shape), else None."""
    found = ()
    for s in shapes:
        if s:
            if found and s != found:
                return None
            found = s
    if type(found) is not tuple:
        return None
    for d in found:
        if type(d) is not int and d is not None:
            return None
    return found


def unify(a, b, what="dimension"):
    """Two dimensions that must be equal at run time: the known one wins."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    fail(f"{what} mismatch: {a} vs {b}")


def generalize(a: tuple, b: tuple) -> tuple:
    """The most specific shape covering both (same rank): differing dimensions become None."""
    return tuple(x if x == y else None for x, y in zip(a, b))


def norm_axis(axis, ndim: int, what="axis") -> int:
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        fail(f"{what} must be a Python int while tracing, got {axis!r}")
    axis = int(axis)
    if not -ndim <= axis < ndim:
        fail(f"{what} {axis} is out of bounds for an array of dimension {ndim}")
    return axis % ndim


def norm_axes(axis, ndim: int) -> tuple:
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(norm_axis(a, ndim) for a in axis)
        if len(set(axes)) != len(axes):
            fail("repeated axis")
        return axes
    return (norm_axis(axis, ndim),)


def reduce_shape(shape: tuple, axis, keepdims: bool) -> tuple:
    axes = norm_axes(axis, len(shape))
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def size(shape: tuple):
    n = 1
    for d in shape:
        if d is None:
            return None
        n *= d
    return n


_PY_STANDIN = {"b": True, "i": 1, "f": 1.0, "c": 1.0 + 0j}


def _standin(value):
    if isinstance(value, Tensor) and value.weak:
        return _PY_STANDIN[value.dtype.kind]
    if isinstance(value, (Tensor, np.ndarray)):
        dtype = value.dtype
        ones = (1,) * value.ndim
        if dtype.kind in "iub":
            return np.zeros(ones, dtype)
        return np.ones(ones, dtype)
    if type(value) in (list, tuple):
        return type(value)(_standin(v) for v in value)
    if type(value) is dict:
        return {k: _standin(v) for k, v in value.items()}
    return value


def standin_result(func, args, kwargs):
    """Runs `func` on stand-ins of its operands (same dtypes and ranks, all dimensions 1)."""
    args = _standin(tuple(args))
    kwargs = _standin(dict(kwargs))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


def standin_dtype(func, args, kwargs) -> np.dtype:
    """The dtype NumPy gives `func(*args, **kwargs)` (see `standin_result`)."""
    key = _standin_key(func, args, kwargs)
    if key is not None:
        try:
            found = _STANDIN_DTYPES.get(key)
        except TypeError:  # (a callable that cannot be hashed)
            found = key = None
        if found is not None:
            return found
    dtype = np.asarray(standin_result(func, args, kwargs)).dtype
    if key is not None:
        if len(_STANDIN_DTYPES) >= 4096:
            _STANDIN_DTYPES.clear()
        _STANDIN_DTYPES[key] = dtype
    return dtype


# `standin_dtype`'s answers by what the stand-ins depend on: a loop unrolled while tracing asks
# the same question at every step (k-means' `np.sum`, `np.argmin` and `np.max` of each of its
# 50 steps), and running NumPy on the stand-ins costs about 20 us (`np.errstate`, the warnings
# filter, NumPy's dispatch). Bounded; cleared with autoconv.clear_caches().
_STANDIN_DTYPES: dict = {}
register_cache("stand-in result dtypes", _STANDIN_DTYPES)
_KEYED_VALUES = frozenset((bool, int, float, complex, str, type(None)))
_ModuleType = type(np)


def _standin_key(func, args, kwargs):
    """A key for `standin_dtype(func, args, kwargs)`: what `_standin` makes of each operand (a
    Tensor's or array's dtype, rank and weakness; a Python number, a dtype or a tuple of ints
    as it is), or None where an operand is anything else (a list, a slice) or `func` may draw
    random numbers or hold state (a method of an object, `rng.exponential`: each call draws)."""
    owner = getattr(func, "__self__", None)
    if (owner is not None and not isinstance(owner, (_ModuleType, np.ufunc))) or "random" in (
        getattr(func, "__module__", None) or ""
    ):
        return None
    key = [func, tuple(kwargs)]
    for v in (*args, *kwargs.values()):
        tv = type(v)
        if tv is Tensor:
            key.append((v.dtype, len(v._shape), v.weak))
        elif isinstance(v, Tensor):
            key.append((v.dtype, v.ndim, v.weak))
        elif tv is np.ndarray:
            key.append((v.dtype, v.ndim, None))
        elif tv in _KEYED_VALUES or tv is type or isinstance(v, (np.dtype, np.generic)):
            key.append((tv, v))
        elif tv is tuple and all(type(i) is int for i in v):
            key.append((tv, v))
        else:
            return None
    return tuple(key)


def result_dtype(value) -> np.dtype:
    """The dtype of a traced or concrete operand (Python scalars as NumPy would store them)."""
    if isinstance(value, Tensor):
        return value.dtype
    return np.asarray(value).dtype
