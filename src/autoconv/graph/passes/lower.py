"""Lowering: NumPy calls rewritten into cheaper calls that compute the same thing, using what
the graph knows (dtypes, ranks, sizes).

Reductions over arrays of known rank call the ufunc's `reduce` directly, and a full `mean`
divides the sum by the size the graph already knows. A Python number next to an array in an
elementwise operation becomes a 0-d array of the array's dtype.

`np.sum(x, axis)` and `x.sum(axis)` are, for an ndarray, `np.add.reduce(x, axis, ...)` after
a few layers of Python dispatch (`_wrapreduction`, `_methods._sum`); the same holds for `prod`,
`max` / `amax`, `min` / `amin`, `any` and `all`. The lowered call is the one NumPy makes, so
results are identical. `np.mean(x)` / `x.mean()` of a float32, float64, integer or bool array of
fully known shape becomes `mean_all(x, n)`: the sum, then the division NumPy's `_mean` does
(in float64, rounded to the result type), without counting elements at run time. This needs
NumPy 2 (its scalar promotion rules); with NumPy 1 `mean` is left as it is.

Only Tensors with at least one dimension are lowered: their run-time value is always an ndarray
(a 0-d value may be a NumPy scalar, which NumPy reduces through its own method).

Scalar operands: in `x + 1.0`, `np.maximum(0.0, x)`, ... NumPy converts the Python number to
`x`'s dtype before it runs the loop of that dtype (NEP 50), at every call; a 0-d array of that
dtype, made once, selects the same loop with the same value and is cheaper to convert. Applied
when `x` has at least one dimension, the result has `x`'s dtype (integer or float), the number
converts without error or overflow, and the operation is `+ - * / // % & | ^ << >>` or a
two-input ufunc without keywords (not `**`, whose scalar fast paths NumPy picks by type).
"""

from __future__ import annotations

import math

import numpy as np

from autoconv.graph.graph import Graph, set_args, walk
from autoconv.graph.listing import _op_text
from autoconv.graph.tensor import Tensor

NAME = "lower"
_NUMPY2 = int(np.__version__.split(".")[0]) >= 2

# function or method name -> (ufunc, the dtype NumPy passes, whether `dtype=` is accepted)
_FUNCS = {
    np.sum: (np.add, None, True),
    np.prod: (np.multiply, None, True),
    np.max: (np.maximum, None, False),
    np.amax: (np.maximum, None, False),
    np.min: (np.minimum, None, False),
    np.amin: (np.minimum, None, False),
    np.any: (np.logical_or, bool, False),
    np.all: (np.logical_and, bool, False),
}
_METHODS = {
    "sum": (np.add, None, True),
    "prod": (np.multiply, None, True),
    "max": (np.maximum, None, False),
    "min": (np.minimum, None, False),
    "any": (np.logical_or, np.dtype(bool), False),
    "all": (np.logical_and, np.dtype(bool), False),
}
_REDUCE = {uf: uf.reduce for uf in (np.add, np.multiply, np.maximum, np.minimum)}
_REDUCE.update({uf: uf.reduce for uf in (np.logical_or, np.logical_and)})
_ADD_REDUCE = _REDUCE[np.add]


def mean_all(x, count, dtype=None):
    """`np.mean(x)` of an ndarray with `count` elements, as NumPy's `_mean` computes it: the
    sum (in float64 for integer and bool arrays), divided in float64, as the sum's type."""
    s = _ADD_REDUCE(x, None, dtype)
    return s.dtype.type(float(s) / count)


def run(graph: Graph, settings=None) -> int:
    """Lowers the reductions and scalar operands it can; returns how many."""
    changed = 0
    made: dict = {}  # one 0-d array per value and dtype
    for node in walk(graph.block):
        changed += _scalar_operands(node, made)
        if node.kind == "call" and node.fn in _FUNCS:
            changed += _lower(node, node.args[1:], _FUNCS[node.fn])
        elif node.kind == "call" and node.fn is np.mean:
            changed += _lower_mean(node)
        elif node.kind == "method" and node.fn in _METHODS:
            changed += _lower(node, node.args[1:], _METHODS[node.fn])
        elif node.kind == "method" and node.fn == "mean":
            changed += _lower_mean(node)
    return changed


def _array(x) -> bool:
    return isinstance(x, Tensor) and not x.weak and len(x.shape) >= 1


def _lower(node, rest, entry) -> int:
    x = node.args[0] if node.args else None
    uf, dtype, takes_dtype = entry
    if not _array(x) or len(node.outputs) != 1:
        return 0
    allowed = {"axis", "keepdims"} | ({"dtype"} if takes_dtype else set())
    if len(rest) > 1 or set(node.kwargs) - allowed:
        return 0
    axis = rest[0] if rest else node.kwargs.get("axis")
    if isinstance(axis, Tensor):
        return 0
    if takes_dtype:
        dtype = node.kwargs.get("dtype")
    kwargs = {}
    if "keepdims" in node.kwargs:
        kwargs["keepdims"] = node.kwargs["keepdims"]
    _remember(node)
    node.kind = "call"
    node.op = f"{uf.__name__}.reduce"
    node.fn = _REDUCE[uf]
    set_args(node, (x, axis, dtype, None), kwargs)
    return 1


def _remember(node) -> None:
    """Keeps the call's text as the user wrote it, so that a profile's rows say `%2.sum()`
    rather than `add.reduce(%2, None, None, None)` (no later pass renames its operands)."""
    node.attrs.setdefault("written", _op_text(node))


def _lower_mean(node) -> int:
    if not _NUMPY2 or len(node.outputs) != 1:
        return 0
    x = node.args[0] if node.args else None
    if not _array(x) or None in x.shape or len(node.args) != 1 or node.kwargs:
        return 0
    kind = x.dtype.kind
    if kind == "f" and x.dtype.itemsize in (4, 8):
        dtype = None
    elif kind in "iub":
        dtype = np.dtype(np.float64)
    else:
        return 0
    count = math.prod(x.shape)
    if count == 0 or count >= 2**53:
        return 0
    _remember(node)
    node.kind = "helper"
    node.op = "mean"
    node.fn = mean_all
    set_args(node, (x, count) if dtype is None else (x, count, dtype), {})
    return 1


_SCALAR_BINOPS = ("+", "-", "*", "/", "//", "%", "&", "|", "^", "<<", ">>")


def _scalar_operands(node, made: dict) -> int:
    if node.kind == "binop":
        if node.fn not in _SCALAR_BINOPS:
            return 0
    elif node.kind == "call":
        fn = node.fn
        if not isinstance(fn, np.ufunc) or fn.nin != 2 or fn.nout != 1 or fn.signature:
            return 0
        if node.kwargs or len(node.args) != 2:
            return 0
    else:
        return 0
    if len(node.outputs) != 1:
        return 0
    out = node.outputs[0]
    arrays = [a for a in node.args if _array(a) and a.dtype == out.dtype]
    if out.weak or out.dtype.kind not in "iuf" or not arrays:
        return 0
    args = list(node.args)
    changed = 0
    for k, v in enumerate(args):
        if type(v) is Tensor:
            continue  # (isinstance on a Tensor asks its `__class__`, which looks at the caller)
        if type(v) not in (int, float) and not (isinstance(v, np.generic) and v.dtype == out.dtype):
            continue
        key = (type(v), repr(v), out.dtype)
        converted = made.get(key)
        if converted is None:
            converted = made[key] = _as_0d(v, out.dtype)
        if converted is not None:
            args[k] = converted
            changed = 1
    if changed:
        set_args(node, args, node.kwargs)
    return changed


def _as_0d(value, dtype):
    """`value` as a read-only 0-d array of `dtype` if it converts exactly as NumPy converts a
    Python number next to an array of that dtype (no error, no warning, no overflow)."""
    import warnings

    try:
        with np.errstate(all="raise"), warnings.catch_warnings():
            warnings.simplefilter("error")
            array = np.asarray(value, dtype=dtype)
    except Exception:
        return None
    item = array.item()
    if dtype.kind in "iu" and item != value:
        return None
    if dtype.kind == "f" and math.isfinite(float(value)) and not math.isfinite(item):
        return None
    array = array.reshape(())
    array.flags.writeable = False
    return array
