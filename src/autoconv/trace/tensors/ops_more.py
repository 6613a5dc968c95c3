"""Shape and dtype rules found by example: NumPy functions whose result shapes follow from
their operands' shapes (and the arguments known while tracing) alone, whatever the values.

Each rule runs the NumPy function itself on stand-ins of its Tensor operands (arrays of their
full shape and dtype, zeros or ones) and takes its results' shapes and dtypes: the node the
graph records is the very call, so eager NumPy's values follow when the graph runs. A result
that is a list or tuple of arrays (`np.split`, `np.broadcast_arrays`) is that list or tuple of
Tensors. Functions whose sizes come from values (`np.extract`, `np.setdiff1d`, ...) give
run-time sizes (None): the NumPy backend runs them, the JAX backend raises its LoweringError.
"""

from __future__ import annotations

import warnings

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph.shapes import fail
from autoconv.graph.tensor import Tensor
from autoconv.trace.tensors.ops import RULES, rule
from autoconv.trace.tensors.recording import emit


class _RunTimeShape(Exception):
    """An operand's shape is known only when the graph runs."""


def _standin(value):
    if isinstance(value, Tensor):
        if value.weak or not value._shape:
            return shapes._standin(value)  # a number: its value never sets a result's shape
        if None in value._shape:
            raise _RunTimeShape
        zero = value.dtype.kind in "iub"
        return (np.zeros if zero else np.ones)(value._shape, value.dtype)
    if type(value) in (list, tuple):
        return type(value)(_standin(v) for v in value)
    return value


def _example(func, args, kwargs):
    """NumPy's own result of `func` on full-size stand-ins."""
    name = func.__name__
    try:
        args, kwargs = _standin(tuple(args)), {k: _standin(v) for k, v in kwargs.items()}
    except _RunTimeShape:
        fail(
            f"numpy.{name} of an array whose size is known only when the graph runs is not "
            "supported in graph mode; give it an array of a size known while tracing"
        )
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return func(*args, **kwargs)
        except (TypeError, ValueError, IndexError, np.linalg.LinAlgError) as e:
            # A wrong shape or argument: eager NumPy raises it for any values of these shapes.
            fail(f"numpy.{name}: {e}", cls=_error_class(e))


_ERRORS: dict = {}


def _error_class(e):
    """A StagingError that is also `e`'s type, so `except ValueError` sees it as eagerly."""
    from autoconv.graph.errors import StagingError

    base = type(e)
    if base not in _ERRORS:
        _ERRORS[base] = type(f"Staging{base.__name__}", (StagingError, base), {})
    return _ERRORS[base]


def _outputs(result) -> list:
    return list(result) if type(result) in (list, tuple) else [result]


def _specs(result, run_time=False) -> list:
    specs = []
    for r in _outputs(result):
        r = np.asarray(r)
        shape = (None,) * r.ndim if run_time else r.shape
        specs.append((shape, r.dtype))
    return specs


def _by_example(p, args, kwargs):
    return _specs(_example(p["__func__"], args, kwargs))


def _arrays(value):
    # A list of numbers as the array NumPy makes of it (jax.numpy takes no lists).
    if type(value) is list and not _g.tensors_in(value):
        return np.asarray(value)
    return value


def _record(func, args, kwargs):
    args = tuple(_arrays(a) for a in args)
    kwargs = {k: _arrays(v) for k, v in kwargs.items()}
    result = _example(func, args, kwargs)
    outs = emit("call", func.__name__, func, args, kwargs, _specs(result))
    return type(result)(outs) if type(result) in (list, tuple) else outs[0]


def _index_arrays(p, args, kwargs):
    """`np.delete` / `np.insert`: an index array known only when the graph runs may repeat or
    fall outside, which sets the result's size: a clear error (a scalar index is fine)."""
    func = p["__func__"]
    obj = p.get("obj")
    if isinstance(obj, Tensor) and obj.shape:
        fail(
            f"numpy.{func.__name__} with an index array computed in the graph (`obj`) is not "
            "supported: the result's size depends on its values. Give it one index at a time, "
            "or a list or range known while tracing"
        )
    if isinstance(obj, Tensor) and obj.dtype.kind not in "iu":
        fail(f"numpy.{func.__name__}: `obj` must be an integer index (it is {obj.dtype})")
    return _by_example(p, args, kwargs)


# Shapes from shapes: copies and new arrays.
rule(
    "diagflat",
    "vander",
    "dstack",
    "average",
    "cov",
    "corrcoef",
    "gradient",
    "trapezoid",
    "trapz",
    "take_along_axis",
    "digitize",
    "choose",
    "inner",
    "vdot",
    "ravel_multi_index",
    "nan_to_num",
    "angle",
    "resize",
    "polyfit",
    handler=_record,
)(_by_example)
# Shapes from shapes: views in eager NumPy (read-only ones for `diagonal`).
rule(
    "diagonal",
    "split",
    "array_split",
    "hsplit",
    "vsplit",
    "dsplit",
    "broadcast_arrays",
    "real",
    "imag",
    handler=_record,
)(_by_example)
rule("cond", module=np.linalg, handler=_record)(_by_example)
rule("delete", "insert", handler=_record)(_index_arrays)


def _run_time_sized(p, args, kwargs):
    """One-dimensional results whose lengths come from the values."""
    return _specs(_example(p["__func__"], args, kwargs), run_time=True)


def _record_run_time(func, args, kwargs):
    result = _example(func, args, kwargs)
    outs = emit("call", func.__name__, func, args, kwargs, _specs(result, run_time=True))
    return tuple(outs) if type(result) is tuple else outs[0]


def _compress(p, args, kwargs):
    result = _example(np.compress, args, kwargs)
    axis = p.get("axis")
    if axis is None:
        return [((None,), result.dtype)]
    shape = list(result.shape)
    shape[shapes.norm_axis(axis, len(shape))] = None
    return [(tuple(shape), result.dtype)]


rule(
    "extract",
    "intersect1d",
    "union1d",
    "setdiff1d",
    "setxor1d",
    "trim_zeros",
    handler=_record_run_time,
)(_run_time_sized)
rule("compress")(_compress)


def _lists_as_arrays(func):
    """`func`'s rule, given its constant list operands as arrays (`np.take(x, [0, 2])`), which
    jax.numpy wants (NumPy makes the same array of them)."""
    record = RULES[func]

    def recorded(f, args, kwargs):
        args = tuple(_arrays(a) for a in args)
        kwargs = {k: _arrays(v) for k, v in kwargs.items()}
        return record(f, args, kwargs)

    RULES[func] = recorded


for _func in (np.take, np.convolve, np.correlate):
    _lists_as_arrays(_func)
