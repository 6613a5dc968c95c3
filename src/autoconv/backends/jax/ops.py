"""The JAX form of each NumPy operation a graph can hold.

`lookup(fn)` gives `(name, jax_callable)` for a node's callable: NumPy functions and ufuncs map
to the `jax.numpy` function of the same name (`np.linalg.norm` -> `jnp.linalg.norm`, ufunc
methods like `np.add.reduce` -> `jnp.add.reduce`), Python conversions (`int`, `float`, `bool`)
and autoconv's own helpers to small functions below. None means the operation has no JAX form.
Dtypes are not fixed here: the lowering casts each result to the dtype NumPy gives (`fix`).
"""

from __future__ import annotations

import builtins
import math

import jax
import jax.numpy as jnp
import numpy as np

from autoconv.graph import helpers as _helpers
from autoconv.graph.passes import lower

# Array methods that give a new value (methods that write in place or leave the array, like
# `.item()`, `.tolist()`, `.fill()`, `.sort()`, have no JAX form).
METHODS = frozenset(
    "astype sum mean max min prod std var any all argmax argmin cumsum cumprod reshape ravel "
    "flatten transpose swapaxes squeeze copy dot clip round conj conjugate diagonal trace "
    "repeat take nonzero searchsorted ptp view".split()
)
ATTRS = frozenset("shape ndim size dtype T mT real imag itemsize nbytes".split())

COMPARISONS = frozenset(("<", "<=", ">", ">=", "==", "!="))


def fix(x, dtype):
    """`x` as a JAX value of NumPy's `dtype` (a no-op, at trace time, when it already is)."""
    if isinstance(x, jax.Array) or hasattr(x, "aval"):
        return x if x.dtype == dtype else x.astype(dtype)
    if isinstance(x, (bool, int, float, complex, np.generic)) and np.dtype(dtype).kind in "biufc":
        # Known while JAX traces (a count, a constant): a NumPy scalar keeps it known, so a
        # branch on it stays a Python `if` and only the path taken is traced.
        return np.asarray(x).astype(dtype)[()]
    return jnp.asarray(x, dtype=dtype)


def truth(x):
    """A scalar bool, as Python's `bool(x)` on a one-element value."""
    if isinstance(x, (bool, int, float, np.generic)):
        return bool(x)
    x = jnp.asarray(x)
    if x.shape != ():
        x = x.reshape(())
    return x if x.dtype == jnp.bool_ else x != 0


def _to_int(x):
    x = jnp.asarray(x)
    return x if x.dtype.kind in "iu" else x.astype(jnp.int64)


def _to_float(x):
    return jnp.asarray(x).astype(jnp.float64)


def _to_bool(x):
    return truth(x)


def _to_complex(x):
    return jnp.asarray(x).astype(jnp.complex128)


def nonempty(a, axes):
    """`a`, or zeros with each of `axes` one long where `a` has none: JAX refuses to trace an
    index known only when it runs into an empty axis, where such a read never runs (a loop of
    no iterations) or fails the run-time bounds check (`bounds`), as NumPy's IndexError."""
    shape = jnp.shape(a)
    if all(shape[axis] for axis in axes):
        return a
    return jnp.zeros(tuple(1 if i in axes and not d else d for i, d in enumerate(shape)), a.dtype)


def list_key(key):
    """An index as NumPy reads it: a Python list of ints and integer arrays (`A[[i, p]]`) is
    one integer array index, which JAX takes only as an array."""
    if type(key) is list and all(isinstance(k, int) or hasattr(k, "dtype") for k in key):
        return jnp.asarray(key)
    return key


def _leading_mask(a, key, value) -> bool:
    """Whether `a[key] = value` is a boolean mask over `a`'s leading axes, storing one value
    (or a row of the selected items' shape) at each place it selects."""
    if getattr(key, "dtype", None) != jnp.bool_ or not 0 < jnp.ndim(key) <= a.ndim:
        return False
    if tuple(key.shape) != tuple(a.shape[: jnp.ndim(key)]):
        return False
    item = tuple(a.shape[jnp.ndim(key) :])
    vshape = tuple(jnp.shape(value))
    return len(vshape) <= len(item) and all(v in (1, d) for v, d in zip(vshape[::-1], item[::-1]))


def _set_copy(a, key, value):
    a = jnp.asarray(a)  # `a` may be a NumPy constant
    key = list_key(key)
    if _leading_mask(a, key, value):
        # `x[x < 0] = 0`, `rows[mins == 0] = 0.0`: a mask over the leading axes and one value
        # (or one row) for every place it selects (JAX's `.at` needs a mask known while
        # tracing; values as many as it selects have a count known only at run time).
        mask = jnp.reshape(key, key.shape + (1,) * (a.ndim - key.ndim))
        return jnp.where(mask, jnp.asarray(value).astype(a.dtype), a)
    # NumPy casts what it stores to the array's dtype (`int[i] = 2.7` stores 2): so does this,
    # explicitly (JAX's own cast in `.set` warns that it will become an error).
    return a.at[key].set(jnp.asarray(value).astype(a.dtype))


def _flat_items(a):
    items = list(jnp.ravel(a))
    return items[0] if len(items) == 1 else items


def _round(x, ndigits=None):
    return jnp.round(x) if ndigits is None else np_round(x, ndigits)


def np_round(a, decimals=0, out=None):
    """`np.round(a, decimals)` as NumPy computes it: `rint(a * 10**d) / 10**d` (`rint(a /
    10**-d) * 10**-d` for a negative `d`). jax.numpy multiplies by the inverse power, which is
    not exact: it gave 2.4000000000000004 for NumPy's 2.4."""
    if out is not None:
        raise TypeError("np.round(..., out=) has no JAX form")
    return _helpers.decimal_round(a, decimals, jnp, jax.lax.optimization_barrier)


def _dim(a, i):
    return jnp.shape(a)[i]


def _size(a, axis=None):
    return jnp.size(a, axis)


def _mean_all(x, count, dtype=None):
    # NumPy's `_mean`: the sum (float64 for integers and bools), divided in float64, cast back.
    # (The count behind a barrier: XLA divides by a constant as a multiplication by its
    # reciprocal, one unit in the last place off NumPy's quotient a third of the time.)
    s = jnp.sum(x, dtype=dtype)
    count = jax.lax.optimization_barrier(jnp.float64(count))
    return (s.astype(jnp.float64) / count).astype(s.dtype)


def _lstsq(a, b, rcond=None):
    # NumPy's residuals: empty when `a` has no more rows than columns, one per column of `b`
    # (shape (1,) for a vector) otherwise. NumPy also leaves them empty for a rank-deficient
    # tall `a`, a size known only when it runs: there JAX's are given (docs/graph-mode.md).
    x, residuals, rank, s = jnp.linalg.lstsq(a, b, rcond)
    m, n = jnp.shape(a)
    k = jnp.shape(b)[1:]
    if m <= n:
        return x, jnp.zeros((0,), residuals.dtype), rank, s
    return x, jnp.reshape(residuals, k or (1,)), rank, s


def _tril(m, k=0):
    # NumPy takes a vector as the rows of an (n, n) matrix; jax.numpy wants a matrix.
    return jnp.tril(jnp.broadcast_to(m, m.shape * 2) if jnp.ndim(m) == 1 else m, k)


def _triu(m, k=0):
    return jnp.triu(jnp.broadcast_to(m, m.shape * 2) if jnp.ndim(m) == 1 else m, k)


def _traced(v) -> bool:
    return hasattr(v, "aval")


def _delete(arr, obj, axis=None):
    # jnp.delete wants its index while tracing; one known only when it runs (a loop's `j`)
    # is a gather of every other item (its bounds are checked as an index's: `bounds`).
    if not _traced(obj):
        return jnp.delete(arr, obj, axis)
    if axis is None:
        arr, axis = jnp.ravel(arr), 0
    n = jnp.shape(arr)[axis]
    k = jnp.where(obj < 0, obj + n, obj)
    pos = jnp.arange(n - 1)
    return jnp.take(arr, pos + (pos >= k), axis=axis)


def _eigh(a, UPLO="L"):  # noqa: N803 (NumPy's name)
    # NumPy reads one triangle (`UPLO`) only; jax.numpy averages `a` with its transpose unless
    # told not to, which differs for a matrix that is not symmetric.
    return jnp.linalg.eigh(a, UPLO=UPLO, symmetrize_input=False)


def _eigvalsh(a, UPLO="L"):  # noqa: N803
    return _eigh(a, UPLO)[0]


_AT = {"add": "add", "multiply": "multiply", "maximum": "max", "minimum": "min"}


def _ufunc_at(a, indices, values, name):
    # `np.add.at(a, i, v)`: JAX's indexed update (indices checked when it runs: `bounds`).
    a = jnp.asarray(a)
    if name == "subtract":
        return a.at[indices].add(-jnp.asarray(values))
    if name not in _AT:
        raise TypeError(
            f"np.{name}.at has no JAX form here (add, subtract, multiply, maximum and minimum have)"
        )
    return getattr(a.at[indices], _AT[name])(values)


def _sort(a, axis=-1, kind=None, order=None, *, stable=None):
    # jax.numpy sorts stably whatever `kind` says; NumPy's kinds give the same sorted values,
    # and the same order of ties where it is stable (`kind="stable"`).
    return jnp.sort(a, axis=axis)


def _argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    if stable or kind in ("stable", "mergesort"):
        return jnp.argsort(a, axis=axis, stable=True)
    # NumPy's default sort is not stable (it orders ties its own way in arrays of more than a
    # few items): its own argsort, run on the host, gives its order.
    out = jax.ShapeDtypeStruct(jnp.shape(a), np.dtype(np.intp))
    return jax.pure_callback(lambda v: np.argsort(np.asarray(v), axis=axis, kind=kind), out, a)


def _insert(arr, obj, values, axis=None):
    if _traced(obj):
        raise TypeError(
            "np.insert at an index known only when the graph runs has no JAX form here (NumPy "
            "raises IndexError for one out of bounds, which XLA cannot check); use an index "
            "known while tracing, or the NumPy backend"
        )
    return jnp.insert(arr, obj, values, axis)


def _stacker(func):
    target = lookup(func)
    if target is None:
        return None
    jfunc = target[1]

    def made(arrays, *args, **kwargs):
        return jfunc(_helpers.expand_lists(arrays), *args, **kwargs)

    return (target[0] + "_lists", made)


def _abs(x):
    return jnp.abs(x)


def _math_isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0):
    """`math.isclose`: equal, or within `max(rel_tol * max(|a|, |b|), abs_tol)` (an infinity
    only equals itself; a NaN nothing)."""
    a, b = jnp.asarray(a, jnp.float64), jnp.asarray(b, jnp.float64)
    near = jnp.abs(a - b) <= jnp.maximum(rel_tol * jnp.maximum(jnp.abs(a), jnp.abs(b)), abs_tol)
    return (a == b) | (near & jnp.isfinite(a) & jnp.isfinite(b))


def _math_isqrt(n):
    """`math.isqrt`: the floor of the square root, exactly (the float root's floor corrected
    by one either way; divisions, not squares, so that no product overflows). A negative
    argument raises where the lowering checks `math_domains`; here it gives 0."""
    m = jnp.maximum(jnp.asarray(n), 0).astype(jnp.int64)
    r = jnp.floor(jnp.sqrt(m.astype(jnp.float64))).astype(jnp.int64)
    r = jnp.where((r > 0) & (m // jnp.maximum(r, 1) < r), r - 1, r)
    return jnp.where(m // (r + 1) >= r + 1, r + 1, r)


_SPECIAL = {
    builtins.int: ("int_", _to_int),
    builtins.float: ("float_", _to_float),
    builtins.bool: ("bool_", _to_bool),
    builtins.complex: ("complex_", _to_complex),
    builtins.len: ("len", builtins.len),
    builtins.abs: ("abs_", _abs),
    math.isclose: ("math_isclose", _math_isclose),
    math.isqrt: ("math_isqrt", _math_isqrt),
    builtins.round: ("round_", _round),
    np.round: ("np_round", np_round),
    np.around: ("np_round", np_round),
    builtins.min: ("jnp_minimum", jnp.minimum),
    builtins.max: ("jnp_maximum", jnp.maximum),
    np.asarray: ("jnp_asarray", jnp.asarray),
    np.array: ("jnp_array", jnp.array),
    np.linalg.lstsq: ("lstsq", _lstsq),
    np.delete: ("delete", _delete),
    np.sort: ("sort", _sort),
    np.argsort: ("argsort", _argsort),
    np.linalg.eigh: ("eigh", _eigh),
    np.linalg.eigvalsh: ("eigvalsh", _eigvalsh),
    np.insert: ("insert", _insert),
    np.tril: ("tril", _tril),
    np.triu: ("triu", _triu),
    _helpers.set_copy: ("set_item", _set_copy),
    _helpers.ufunc_at: ("ufunc_at", _ufunc_at),
    _helpers.flat_items: ("flat_items", _flat_items),
    _helpers.dim: ("dim", _dim),
    _helpers.size: ("size", _size),
    lower.mean_all: ("mean_all", _mean_all),
}


# NumPy functions whose jax.numpy namesake gives other values: jnp.partition orders the
# elements on each side of the k-th its own way (NumPy's order is its introselect's).
REFUSED = {
    np.partition: "jax.numpy.partition orders the other elements unlike NumPy; use np.sort",
    np.argpartition: "jax.numpy.argpartition orders the other elements unlike NumPy; use "
    "np.argsort",
    # NumPy raises IndexError for an index out of range; compiled JAX code can only clip or wrap.
    np.choose: "jax.numpy.choose cannot check its indices as NumPy does; use np.where or "
    "indexing (`np.stack(choices)[a, np.arange(n)]`)",
    np.ravel_multi_index: "jax.numpy.ravel_multi_index cannot check its indices as NumPy "
    "does; compute `i * ncols + j` instead",
}


# NumPy functions that cast int and bool operands to their float (or complex) result dtype
# before computing, where jax.numpy would compute an int32's in float32: the lowering casts them.
_IN_RESULT_DTYPE = frozenset(
    f
    for f in [
        getattr(np, n, None)
        for n in (
            "kron convolve correlate polyval polyfit interp outer dot tensordot einsum percentile "
            "quantile "
            "nanpercentile nanquantile median nanmedian"
        ).split()
    ]
    + [
        getattr(np.linalg, n, None)
        for n in (
            "solve inv det slogdet eigh eigvalsh cholesky qr svd lstsq pinv matrix_power norm"
        ).split()
    ]
    if f is not None
)


def in_result_dtype(fn) -> bool:
    """Whether NumPy computes `fn` in its result dtype (see `_IN_RESULT_DTYPE`)."""
    try:
        return fn in _IN_RESULT_DTYPE
    except TypeError:  # unhashable
        return False


# Running sums and products (functions and array methods): NumPy accumulates small ints and
# bools in the platform int it returns, jax.numpy in the operand's dtype (lowering casts them).
_ACCUMULATORS = frozenset((np.cumsum, np.cumprod, np.nancumsum, np.nancumprod))


def accumulates(fn) -> bool:
    """Whether `fn` (a NumPy function or a method name) is a running sum or product."""
    if isinstance(fn, str):
        return fn in ("cumsum", "cumprod")
    try:
        return fn in _ACCUMULATORS
    except TypeError:  # unhashable
        return False


def refused(fn):
    """Why `fn` is not lowered to its jax.numpy namesake, or None."""
    try:
        return REFUSED.get(fn)
    except TypeError:  # unhashable
        return None


_UFUNC_METHODS: dict = {}  # (ufunc name, method name) -> lookup's answer


def lookup(fn):
    """`(name, callable)`: the JAX form of the NumPy or Python callable `fn`, or None."""
    try:
        special = _SPECIAL.get(fn)
    except TypeError:  # unhashable
        special = None
    if special is not None:
        return special
    for func, made in _helpers.STACKERS.items():
        if made is fn:
            return _stacker(func)
    owner = getattr(fn, "__self__", None)
    if isinstance(owner, np.ufunc):  # np.add.reduce, np.maximum.accumulate, ...
        key = (owner.__name__, fn.__name__)
        if key not in _UFUNC_METHODS:
            # Kept: each `getattr` makes a new bound method, which the program would bind
            # under a name of its own per operation (a k-means of 50 steps bound 150).
            target = getattr(getattr(jnp, owner.__name__, None), fn.__name__, None)
            _UFUNC_METHODS[key] = None if target is None else (f"jnp_{key[0]}_{key[1]}", target)
        return _UFUNC_METHODS[key]
    name = getattr(fn, "__name__", None)
    if name is None:
        return None
    if isinstance(fn, np.ufunc):
        target = getattr(jnp, name, None)
        return None if target is None else ("jnp_" + name, target)
    module = getattr(fn, "__module__", None) or ""
    if module == "math" or fn is getattr(math, name, None):
        target = getattr(jnp, name, None)
        return None if target is None else ("jnp_" + name, target)
    if not (module == "numpy" or module.startswith("numpy.")):
        return None
    if module.startswith("numpy.random"):
        return None
    for sub in ("linalg", "fft"):
        if getattr(getattr(np, sub), name, None) is fn:
            target = getattr(getattr(jnp, sub), name, None)
            return None if target is None else (f"jnp_{sub}_{name}", target)
    if getattr(np, name, None) is not fn:
        return None
    target = getattr(jnp, name, None)
    return None if target is None else ("jnp_" + name, target)
