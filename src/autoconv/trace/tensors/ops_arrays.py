"""Shape and dtype rules for more NumPy functions on Tensors: comparisons of whole arrays,
searching and counting, reordering, building and padding arrays, histograms, quantiles,
convolutions and products. Registered with `ops.rule`, like the rules in `ops`.

Sizes NumPy takes from data (`np.bincount`, `np.histogram` with `bins="auto"`) are run-time
sizes (None): the NumPy backend runs them; the JAX backend raises its LoweringError.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph.shapes import fail, norm_axis, shape_of
from autoconv.graph.tensor import Tensor
from autoconv.trace.tensors.ops import _given, _record, rule, spec_of
from autoconv.trace.tensors.recording import emit

_INTP = np.dtype(np.intp)
_BOOL = np.dtype(bool)


def _dtypes(func, args, kwargs) -> list:
    """The dtype of each output of `func` on stand-ins of its operands."""
    result = shapes.standin_result(func, args, kwargs)
    results = result if isinstance(result, (tuple, list)) else (result,)
    return [np.asarray(r).dtype for r in results]


def _dtype(p, args, kwargs):
    return _dtypes(p["__func__"], args, kwargs)[0]


def _static_int(value):
    """`value` as a Python int when known while tracing, else None (a run-time size)."""
    if isinstance(value, Tensor):
        return None
    return int(value)


def _plus(*dims):
    return None if None in dims else sum(dims)


def _times(a, b):
    return None if a is None or b is None else a * b


def _record_tuple(func, args, kwargs):
    """Records a call whose NumPy result is a tuple, even of one array (`np.meshgrid(x)`)."""
    return tuple(emit("call", func.__name__, func, args, kwargs, spec_of(func, args, kwargs)))


def _arrays(value):
    # A list of numbers as the array NumPy makes of it (jax.numpy takes no lists).
    if type(value) is list and not any(isinstance(v, Tensor) for v in value):
        return np.asarray(value)
    return value


def _record_arrays(func, args, kwargs):
    """Records a call with its constant list operands (`q=[0.1, 0.9]`) made arrays."""
    args = tuple(_arrays(a) for a in args)
    kwargs = {k: _arrays(v) for k, v in kwargs.items()}
    return _record(func, args, kwargs)


# --- comparisons of whole arrays: Python bools ----------------------------------------------


@rule("allclose")
def _allclose(p, args, kwargs):
    shapes.broadcast(shape_of(p["a"]), shape_of(p["b"]), what="operands of numpy.allclose")
    return [((), _BOOL, True)]  # NumPy returns a Python bool


@rule("array_equal", "array_equiv")
def _array_equal(p, args, kwargs):
    return [((), _BOOL, True)]  # a Python bool; False, not an error, for other shapes


@rule("isin", handler=_record_arrays)
def _isin(p, args, kwargs):
    return [(shape_of(p["element"]), _BOOL)]


# --- searching, counting and evaluating -----------------------------------------------------


@rule("polyval", handler=_record_arrays)
def _polyval(p, args, kwargs):
    shape = shapes.broadcast(shape_of(p["x"]), shape_of(p["p"])[1:], what="numpy.polyval")
    return [(shape, _dtype(p, args, kwargs))]


@rule("unravel_index", handler=_record_tuple)
def _unravel_index(p, args, kwargs):
    dims = p["shape"]
    dims = (dims,) if isinstance(dims, (int, np.integer, Tensor)) else tuple(dims)
    return [(shape_of(p["indices"]), _INTP)] * len(dims)


@rule("searchsorted")
def _searchsorted(p, args, kwargs):
    if len(shape_of(p["a"])) != 1:
        fail("numpy.searchsorted: object too deep for desired array (`a` must be 1-D)")
    return [(shape_of(p["v"]), _INTP)]


@rule("interp", handler=_record_arrays)
def _interp(p, args, kwargs):
    return [(shape_of(p["x"]), _dtype(p, args, kwargs))]


@rule("bincount")
def _bincount(p, args, kwargs):
    if len(shape_of(p["x"])) != 1:
        fail("numpy.bincount: object too deep for desired array (`x` must be 1-D)")
    return [((None,), _dtype(p, args, kwargs))]  # its length is the largest value + 1


# --- reordering -----------------------------------------------------------------------------


@rule("flip", "fliplr", "flipud", "roll")
def _reorder(p, args, kwargs):
    func = p["__func__"]
    a = p["m"] if "m" in p else p["a"]
    shape = shape_of(a)
    least = {np.fliplr: 2, np.flipud: 1}.get(func, 0)
    if len(shape) < least:
        fail(f"numpy.{func.__name__}: input must be >= {least}-d.")
    axis = p.get("axis")
    if axis is not None:
        shapes.norm_axes(axis, len(shape))
    return [(shape, shapes.result_dtype(a))]


@rule("rot90")
def _rot90(p, args, kwargs):
    m, k, axes = p["m"], p["k"], p["axes"]
    if isinstance(k, Tensor):
        fail("numpy.rot90: `k` is known only when the graph runs; pass a Python int")
    shape = shape_of(m)
    # NumPy's own checks (axes given, distinct, in range) on an array of this rank
    np.rot90(np.empty((1,) * len(shape)), k, axes)
    a, b = (norm_axis(axis, len(shape)) for axis in axes)
    out = list(shape)
    if int(k) % 2:
        out[a], out[b] = out[b], out[a]
    return [(tuple(out), shapes.result_dtype(m))]


@rule("select")
def _select(p, args, kwargs):
    conds, choices = list(p["condlist"]), list(p["choicelist"])
    # NumPy's own checks (as many cases as conditions, at least one, boolean conditions)
    np.select(
        [np.ones((1,) * len(shape_of(c)), shapes.result_dtype(c)) for c in conds],
        [np.ones((1,) * len(shape_of(c))) for c in choices],
    )
    shape = shapes.broadcast(
        *(shape_of(v) for v in (*conds, *choices, p["default"])), what="numpy.select"
    )
    return [(shape, _dtype(p, args, kwargs))]


@rule("partition", "argpartition")
def _partition(p, args, kwargs):
    a, axis = p["a"], p.get("axis", -1)
    shape = shape_of(a)
    if axis is None:
        shape = (shapes.size(shape),)
    else:
        n = shape[norm_axis(axis, len(shape))]
        for k in np.ravel(p["kth"]) if not isinstance(p["kth"], Tensor) else ():
            if n is not None and not -n <= int(k) < n:
                fail(f"numpy.{p['__func__'].__name__}: kth(={int(k)}) out of bounds ({n})")
    dtype = _INTP if p["__func__"] is np.argpartition else shapes.result_dtype(a)
    return [(shape, dtype)]


# --- building arrays ------------------------------------------------------------------------


@rule("tile")
def _tile(p, args, kwargs):
    shape, reps = shape_of(p["A"]), p["reps"]
    reps = (reps,) if isinstance(reps, (int, np.integer, Tensor)) else tuple(reps)
    reps = tuple(_static_int(r) for r in reps)
    n = max(len(shape), len(reps))
    shape = (1,) * (n - len(shape)) + tuple(shape)
    reps = (1,) * (n - len(reps)) + reps
    return [(tuple(_times(d, r) for d, r in zip(shape, reps)), shapes.result_dtype(p["A"]))]


@rule("diag")
def _diag(p, args, kwargs):
    v, k = p["v"], int(p.get("k", 0))
    shape = shape_of(v)
    if len(shape) == 1:
        n = _plus(shape[0], abs(k))
        return [((n, n), shapes.result_dtype(v))]
    if len(shape) != 2:
        fail("numpy.diag: Input must be 1- or 2-d.")
    rows, cols = shape
    if rows is None or cols is None:
        n = None
    else:
        n = max(0, min(rows, cols - k) if k >= 0 else min(rows + k, cols))
    return [((n,), shapes.result_dtype(v))]


@rule("trace")
def _trace(p, args, kwargs):
    shape = shape_of(p["a"])
    axes = {norm_axis(p.get("axis1", 0), len(shape)), norm_axis(p.get("axis2", 1), len(shape))}
    if len(axes) != 2:
        fail("numpy.trace: axis1 and axis2 cannot be the same")
    out = tuple(d for i, d in enumerate(shape) if i not in axes)
    return [(out, _dtype(p, args, kwargs))]


@rule("tril", "triu")
def _tri(p, args, kwargs):
    shape = shape_of(p["m"])
    if not shape:
        fail(f"numpy.{p['__func__'].__name__}: input must be at least 1-d")
    if len(shape) == 1:  # NumPy broadcasts a row against the (n, n) mask
        shape = (shape[0], shape[0])
    return [(shape, shapes.result_dtype(p["m"]))]


@rule("cross")
def _cross(p, args, kwargs):
    a, b = p["a"], p["b"]
    if any(p.get(k, -1) != -1 for k in ("axisa", "axisb", "axisc")) or p.get("axis") is not None:
        fail("numpy.cross: only vectors along the last axis are supported (no axis= arguments)")
    sa, sb = shape_of(a), shape_of(b)
    if not sa or not sb or sa[-1] not in (2, 3) or sb[-1] not in (2, 3):
        fail(
            "numpy.cross: incompatible dimensions for cross product (dimension must be 2 or 3, "
            f"and known while tracing); got shapes {shapes.fmt(sa)} and {shapes.fmt(sb)}"
        )
    batch = shapes.broadcast(sa[:-1], sb[:-1], what="operands of numpy.cross")
    dtype = np.cross(np.ones(3, shapes.result_dtype(a)), np.ones(3, shapes.result_dtype(b))).dtype
    return [(batch if sa[-1] == sb[-1] == 2 else batch + (3,), dtype)]


@rule("linspace", "logspace", "geomspace")
def _linspace(p, args, kwargs):
    num = p.get("num", 50)
    n = None if isinstance(num, Tensor) else int(num)
    if n is not None and n < 0:
        fail(f"numpy.{p['__func__'].__name__}: Number of samples, {n}, must be non-negative.")
    batch = shapes.broadcast(shape_of(p["start"]), shape_of(p["stop"]), what="start and stop")
    axis = norm_axis(p.get("axis", 0), len(batch) + 1)
    shape = batch[:axis] + (n,) + batch[axis:]
    dtypes = _dtypes(p["__func__"], args, kwargs)
    if p.get("retstep"):
        return [(shape, dtypes[0]), (batch, dtypes[1])]
    return [(shape, dtypes[0])]


def _record_meshgrid(func, args, kwargs):
    if len(args) == 1:
        # One array: NumPy gives a copy of it raveled, in a tuple; a graph node's single
        # output is its whole result, so it is recorded as that copy.
        return (_record(np.copy, (_record(np.ravel, args, {}),), {}),)
    return _record_tuple(func, args, kwargs)


@rule("meshgrid", handler=_record_meshgrid)
def _meshgrid(p, args, kwargs):
    xs = p["xi"]
    sizes = [shapes.size(shape_of(x)) for x in xs]
    if p.get("indexing", "xy") not in ("xy", "ij"):
        fail("numpy.meshgrid: Valid values for `indexing` are 'xy' and 'ij'.")
    swap = p.get("indexing", "xy") == "xy" and len(xs) > 1
    order = list(range(len(xs)))
    if swap:
        order[0], order[1] = 1, 0
    full = tuple(sizes[i] for i in order)
    out = []
    for i, x in enumerate(xs):
        if p.get("sparse"):
            shape = tuple(sizes[i] if order[j] == i else 1 for j in range(len(xs)))
        else:
            shape = full
        out.append((shape, shapes.result_dtype(x)))
    return out


@rule("column_stack")
def _column_stack(p, args, kwargs):
    arrays = list(p["tup"])
    if not arrays:
        fail("numpy.column_stack: need at least one array to concatenate")
    cols = []
    for a in arrays:
        s = shape_of(a)
        cols.append(s if len(s) >= 2 else (shapes.size(s), 1))
    nd = len(cols[0])
    if any(len(s) != nd for s in cols):
        fail("numpy.column_stack: all the input arrays must have the same number of dimensions")
    out = list(cols[0])
    for s in cols[1:]:
        for i, d in enumerate(s):
            if i != 1:
                out[i] = shapes.unify(out[i], d, f"numpy.column_stack: dimension {i}:")
    out[1] = _plus(*(s[1] for s in cols))
    return [(tuple(out), _dtype(p, (arrays,), {}))]


@rule("atleast_1d", "atleast_2d", "atleast_3d")
def _atleast(p, args, kwargs):
    func = p["__func__"]
    n = int(func.__name__[-2])
    out = []
    for a in p["arys"]:
        s = tuple(shape_of(a))
        if len(s) < n:
            if n == 3 and len(s) == 2:
                s = (*s, 1)
            elif n == 3 and len(s) == 1:
                s = (1, *s, 1)
            else:
                s = (1,) * (n - len(s)) + s
        out.append((s, shapes.result_dtype(a)))
    return out


# Padding modes whose result has the padded shape in NumPy and in jax.numpy alike.
_PAD_MODES = ("constant", "edge", "reflect", "symmetric", "wrap", "maximum", "minimum", "mean")


@rule("pad")
def _pad(p, args, kwargs):
    array, width, mode = p["array"], p["pad_width"], p.get("mode", "constant")
    if mode not in _PAD_MODES:
        fail(f"numpy.pad: mode={mode!r} is not supported in graph mode; use one of {_PAD_MODES}")
    if _g.tensors_in(width):
        fail("numpy.pad: give pad_width as Python ints, known while tracing")
    shape = shape_of(array)
    try:
        widths = np.broadcast_to(np.asarray(width, dtype=np.intp), (len(shape), 2))
    except ValueError:
        fail(f"numpy.pad: unable to create correctly shaped tuple from {width!r}")
    if (widths < 0).any():
        fail("numpy.pad: index can't contain negative values")
    out = tuple(_plus(d, int(lo), int(hi)) for d, (lo, hi) in zip(shape, widths))
    return [(out, shapes.result_dtype(array))]


@rule("histogram")
def _histogram(p, args, kwargs):
    bins = p.get("bins", 10)
    if isinstance(bins, str) or isinstance(bins, Tensor) and not bins.shape:
        n = None  # NumPy picks the count from the data
    elif isinstance(bins, (int, np.integer)):
        n = int(bins)
    else:
        n = shape_of(bins)[0]
        n = None if n is None else n - 1
    counts, edges = _dtypes(np.histogram, args, kwargs)
    return [((n,), counts), ((_plus(n, 1),), edges)]


@rule("percentile", "quantile", "nanpercentile", "nanquantile", handler=_record_arrays)
def _quantile(p, args, kwargs):
    keepdims = bool(_given(p, "keepdims", False))
    shape = shapes.reduce_shape(shape_of(p["a"]), p.get("axis"), keepdims)
    return [(tuple(shape_of(p["q"])) + tuple(shape), _dtype(p, args, kwargs))]


@rule("ediff1d", handler=_record_arrays)
def _ediff1d(p, args, kwargs):
    n = shapes.size(shape_of(p["ary"]))
    ends = [shapes.size(shape_of(p[k])) for k in ("to_begin", "to_end") if p.get(k) is not None]
    return [((_plus(None if n is None else max(n - 1, 0), *ends),), _dtype(p, args, kwargs))]


@rule("convolve", "correlate")
def _convolve(p, args, kwargs):
    func = p["__func__"]
    a, v = shape_of(p["a"]), shape_of(p["v"])
    if len(a) > 1 or len(v) > 1:
        fail(f"numpy.{func.__name__}: object too deep for desired array (1-D arrays only)")
    n, m = shapes.size(a), shapes.size(v)
    mode = p.get("mode", "full" if func is np.convolve else "valid")
    if mode not in ("full", "same", "valid"):
        fail(f"numpy.{func.__name__}: mode must be 'full', 'same' or 'valid', not {mode!r}")
    if n is None or m is None:
        size = None
    elif mode == "full":
        size = n + m - 1
    elif mode == "same":
        size = max(n, m)
    else:
        size = max(n, m) - min(n, m) + 1
    return [((size,), _dtype(p, args, kwargs))]


@rule("kron")
def _kron(p, args, kwargs):
    a, b = shape_of(p["a"]), shape_of(p["b"])
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    return [(tuple(_times(x, y) for x, y in zip(a, b)), _dtype(p, args, kwargs))]


@rule("lexsort", handler=_record_arrays)
def _lexsort(p, args, kwargs):
    keys, axis = p["keys"], p.get("axis", -1)
    if isinstance(keys, Tensor):  # a 2-d array: its rows are the keys
        shape = shape_of(keys)[1:]
    else:
        keys = list(keys)
        if not keys:
            fail("numpy.lexsort: need sequence of keys with len > 0 in lexsort")
        shape = shapes.broadcast(*(shape_of(k) for k in keys), what="numpy.lexsort keys")
    if not shape:
        fail("numpy.lexsort: cannot lexsort 0-d keys (an axis is needed)")
    norm_axis(axis, len(shape))
    return [(shape, _INTP)]
