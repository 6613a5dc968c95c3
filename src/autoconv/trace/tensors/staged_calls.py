"""Calls that need a value while tracing, staged when an argument is a Tensor.

`np.arange(n)`, `np.zeros(n)`, `np.take(table, i)` with a constant `table`, `float(t)`,
`int(t)` and `type(t)` do not reach a Tensor through NumPy's protocols (NumPy dispatches them
on other arguments or not at all; Python checks that `float()` returns a real float). `STAGED`
maps each such callable to a form that records a graph operation when an argument is a
Tensor and calls the original otherwise. Converted code reaches them through `call` (the
converter routes these callables through the runtime while tracing); the results are what
eager code gets: an array of a run-time size (an unknown dimension, None), a Python number
(a weak Tensor), the eager type.
"""

from __future__ import annotations

import builtins
import collections
import math

import numpy as np

from autoconv.conversion.resolve import MATH_NAMES, STACKED, numpy_callable
from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph.tensor import Tensor
from autoconv.runtime import tallies
from autoconv.trace.tensors import staged_try
from autoconv.trace.tensors.iteration import StagedNdenumerate


def _symbolic(args, kwargs) -> bool:
    return _g.building() and bool(_g.tensors_in((args, kwargs)))


def call(func, *args, **kwargs):
    """`func(*args, **kwargs)`, staged when `func` is in `STAGED` and an argument is a Tensor."""
    staged = STAGED.get(func) if _g.building() else None
    if staged is None:
        return func(*args, **kwargs)
    return staged(*args, **kwargs)


def _emit(name, fn, args, kwargs, specs):
    from autoconv.trace.tensors.numpy_dispatch import emit, operand

    args = tuple(operand(a) for a in args)
    kwargs = {k: operand(v) for k, v in kwargs.items()}
    return emit("call", name, fn, args, kwargs, specs)[0]


def _size(d):
    """A static size, or None for a Tensor (known when the graph runs)."""
    if isinstance(d, Tensor):
        if d._shape or d.dtype.kind not in "iub":
            shapes.fail(f"an array size must be an integer scalar, got {d!r}")
        return None
    return int(d)


def _shape(shape) -> tuple:
    if isinstance(shape, (tuple, list)):
        return tuple(_size(d) for d in shape)
    return (_size(shape),)


def arange(*args, **kwargs):
    """`np.arange` with Tensor bounds: a 1-d array of run-time length."""
    if not _symbolic(args, kwargs):
        return np.arange(*args, **kwargs)
    dtype = shapes.standin_dtype(np.arange, args, kwargs)
    return _emit("arange", np.arange, args, kwargs, [((None,), dtype)])


def _filled(func, default_dtype):
    def staged(shape, *args, **kwargs):
        if not _symbolic((shape,), {}):
            return func(shape, *args, **kwargs)
        p = dict(kwargs)
        dtype = args[0] if args else p.get("dtype", default_dtype)
        return _emit(func.__name__, func, (shape, *args), kwargs, [(_shape(shape), dtype)])

    staged.__name__ = func.__name__
    staged.__doc__ = f"`np.{func.__name__}` with a Tensor size: an array of a run-time shape."
    return staged


def full(shape, fill_value, dtype=None, **kwargs):
    """`np.full` with a Tensor size or fill value."""
    if not _symbolic((shape, fill_value, dtype), kwargs):
        return np.full(shape, fill_value, dtype, **kwargs)
    if dtype is None:
        dtype = shapes.standin_dtype(np.asarray, (fill_value,), {})
    args = (shape, fill_value, dtype)
    return _emit("full", np.full, args, kwargs, [(_shape(shape), np.dtype(dtype))])


def take(a, indices, axis=None, **kwargs):
    """`np.take` with a Tensor index into a constant array."""
    if not _symbolic((a, indices, axis), kwargs) or isinstance(a, Tensor):
        return np.take(a, indices, axis=axis, **kwargs)
    from autoconv.trace.tensors import ops

    specs = ops.spec_of(np.take, (a, indices, axis), kwargs)
    return _emit("take", np.take, (a, indices, axis), kwargs, specs)


def _as_array(func):
    def staged(a, *args, **kwargs):
        if _g.building() and not args and _rows_of_symbolic(a):
            # `np.array([[a, b], [c, d]])` of Tensors: each row an array, then the rows
            # stacked, as NumPy builds a rectangular nested list.
            rows = [staged(row, **kwargs) for row in a]
            return staged(rows, **kwargs)
        if _g.building() and type(a) in (list, tuple) and not args and _holds_symbolic(a):
            # `np.array(lst)` of Tensors, or of a list grown in a staged loop: the items
            # stacked when the graph runs (np.array itself runs then, on the run-time list).
            from autoconv.trace.tensors.accumulated import stack_items

            dtype = kwargs.pop("dtype", None)
            if kwargs:
                shapes.fail(f"numpy.{func.__name__} of a list of Tensors takes only dtype=")
            # np.array(lst, dtype=...) itself: an empty list gets that dtype, not float64.
            return stack_items(func, list(a), dtype)
        if not (_g.building() and isinstance(a, Tensor)):
            return func(a, *args, **kwargs)
        from autoconv.graph.eager_types import eager_type

        if func in (np.asarray, np.asanyarray) and not args and not kwargs:
            if eager_type(a) is np.ndarray:
                return a  # the same array, as eagerly
        dtype = shapes.standin_dtype(func, (a, *args), kwargs)
        shape = a._shape
        ndmin = kwargs.get("ndmin", 0)
        if ndmin > len(shape):
            shape = (1,) * (ndmin - len(shape)) + shape
        return _emit(func.__name__, func, (a, *args), kwargs, [(shape, dtype)])

    staged.__name__ = func.__name__
    staged.__doc__ = f"`np.{func.__name__}` of a Tensor: an array when the graph runs."
    return staged


def _of_stacked(func):
    def staged(*args, **kwargs):
        if _g.building() and args and (_rows_of_symbolic(args[0]) or _symbolic_list(args[0])):
            # `np.mean(parts)` of a list of Tensors: NumPy makes an array of the list first
            # (np.asanyarray: np.array of a list), so the items are stacked, then `func`
            # applies to the stack.
            return func(_as_array(np.array)(args[0]), *args[1:], **kwargs)
        return func(*args, **kwargs)

    staged.__name__ = func.__name__
    staged.__doc__ = f"`np.{func.__name__}` of a list of Tensors: of their stack."
    return staged


# NumPy functions whose list arguments are sequences of arrays, not one array (`np.stack`):
# they keep NumPy's own handling.
_SEQUENCES = frozenset(
    "concatenate stack vstack hstack dstack column_stack row_stack block append insert "
    "broadcast_arrays meshgrid einsum select piecewise choose".split()
)
_OF_LISTS: dict = {}


def numpy_of_lists(func):
    """For one of NumPy's functions (not a staged one): `func` called with each list or tuple
    argument that holds Tensors or a staged loop's run-time items made the array NumPy makes
    of it (`np.array_equal(kept, ref)`); None for anything else."""
    module = getattr(func, "__module__", None)
    if type(module) is not str or not (module == "numpy" or module.startswith("numpy.")):
        return None  # (asked of every call converted code makes while tracing: kept cheap)
    if module.startswith("numpy.random"):
        return None  # draws: staged by `random_stage`
    try:
        found = _OF_LISTS.get(func)
    except TypeError:  # unhashable
        return None
    if found is None:
        name = getattr(func, "__name__", None)
        usable = type(name) is str and name not in _SEQUENCES and numpy_callable(func)
        found = _OF_LISTS[func] = _of_lists(func) if usable else False
    return found or None


def _of_lists(func):
    def staged(*args, **kwargs):
        if _g.building():
            args = tuple(_array_of(a) for a in args)
            kwargs = {k: _array_of(v) for k, v in kwargs.items()}
        return func(*args, **kwargs)

    staged.__name__ = getattr(func, "__name__", "numpy_function")
    staged.__doc__ = f"`np.{staged.__name__}` of lists of Tensors: of their arrays."
    return staged


def _array_of(a):
    if _rows_of_symbolic(a) or _symbolic_list(a):
        return _as_array(np.array)(a)
    return a


def _symbolic_list(a) -> bool:
    return type(a) in (list, tuple) and _holds_symbolic(a)


def _rows_of_symbolic(items) -> bool:
    """Whether `items` is a list or tuple of rows (lists or tuples), each holding Tensors at
    some depth."""
    if type(items) not in (list, tuple) or not items:
        return False
    return all(
        type(row) in (list, tuple) and (_holds_symbolic(row) or _rows_of_symbolic(row))
        for row in items
    )


def _holds_symbolic(items) -> bool:
    from autoconv.trace.tensors.accumulated import ListAccum

    return any(isinstance(x, (Tensor, ListAccum)) for x in items)


def _python_number(kind):
    def staged(*args, **kwargs):
        if len(args) != 1 or kwargs or not isinstance(args[0], Tensor):
            return kind(*args, **kwargs)
        x = args[0]
        if x._shape and None not in x._shape and shapes.size(x._shape) != 1:
            shapes.fail(
                f"{kind.__name__}() of {x!r}: only an array of one element can be converted to a "
                "Python number"
            )
        from autoconv.trace.tensors.numpy_dispatch import emit

        dtype = np.asarray(kind()).dtype
        return emit("helper", kind.__name__, kind, (x,), {}, [((), dtype, True)])[0]

    staged.__name__ = kind.__name__
    staged.__doc__ = f"`{kind.__name__}(t)`: a Python {kind.__name__} when the graph runs."
    return staged


def _math(func):
    """`math.sqrt(t)` and the like: Python's own function of the run-time number (its result
    type and its errors, `math domain error` included), a Python number when the graph runs."""

    def staged(*args, **kwargs):
        if not _symbolic(args, kwargs):
            return func(*args, **kwargs)
        for x in args if func is not math.dist else ():  # (two points: sequences)
            if isinstance(x, Tensor) and x._shape and shapes.size(x._shape) != 1:
                shapes.fail(
                    f"math.{func.__name__}() of {x!r}: only an array of one element is a "
                    "Python number; use np." + func.__name__ + " for arrays"
                )
        args = staged_try.math_args(func, args)
        standins = {k: _standin_number(v) for k, v in kwargs.items()}
        numbers = [_standin_number(x) for x in args]
        try:  # the result's type, from numbers of the arguments' kinds
            kind = builtins.type(func(*numbers, **standins))
        except (ValueError, OverflowError):
            kind = float
        except TypeError as e:
            if func is math.dist or not all(
                isinstance(v, (bool, int, float, complex, np.generic)) for v in numbers
            ):
                kind = float  # (`math.dist` of points: sequences, which stand-ins are not)
            else:
                # Of the arguments' kinds (`math.isqrt` of a float): eager's error on any
                # value, raised where the user's call runs (in a staged branch: when taken).
                error = TypeError(str(e))
                error.as_written = True
                raise error from None
        from autoconv.trace.tensors.numpy_dispatch import emit

        dtype = np.asarray(kind()).dtype
        spec = [((), dtype, True)]
        return emit("helper", f"math.{func.__name__}", func, args, kwargs, spec)[0]

    staged.__name__ = func.__name__
    staged.__doc__ = f"`math.{func.__name__}` of Tensors: a Python number when the graph runs."
    return staged


def _standin_number(x):
    """A number of `x`'s kind: a Python number for a weak Tensor, a NumPy scalar otherwise
    (whose type an error message names, as eagerly)."""
    if isinstance(x, Tensor):
        value = 1 if x.dtype.kind in "iub" else 0.5
        return value if x.weak or x.shape else x.dtype.type(value)
    return x


# The functions of `math` of numbers that give a number (or a bool), staged on Tensors.
MATH = tuple(getattr(math, name) for name in MATH_NAMES)


def _scalar_type(kind):
    """`np.int64(t)`, `np.float32(t)`: `t` in that dtype when the graph runs (a NumPy scalar of
    a 0-d value, as eagerly; an array of an array)."""

    def staged(*args, **kwargs):
        if len(args) != 1 or kwargs or not isinstance(args[0], Tensor):
            return kind(*args, **kwargs)
        x = args[0]
        return _emit(kind.__name__, kind, (x,), {}, [(x._shape, np.dtype(kind))])

    staged.__name__ = kind.__name__
    staged.__doc__ = f"`np.{kind.__name__}(t)`: `t` as {kind.__name__} when the graph runs."
    return staged


# NumPy's scalar types, called on a Tensor.
SCALAR_TYPES = tuple(
    getattr(np, name)
    for name in (
        "bool_ int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64 "
        "complex64 complex128 intp"
    ).split()
)


def type_(*args):
    """`type(t)`: the type eager NumPy's value would have (`type(t) is np.ndarray`)."""
    if len(args) == 1 and isinstance(args[0], Tensor) and _g.building():
        from autoconv.trace.tensors.arraylike import eager_class

        return eager_class(args[0])
    return builtins.type(*args)


def len_(obj):
    """`len(t)`: the first size of a Tensor, a run-time int when it is unknown while tracing."""
    if isinstance(obj, Tensor) and _g.building() and obj._shape and obj._shape[0] is None:
        from autoconv.trace.tensors.arraylike import runtime_shape

        return runtime_shape(obj)[0]
    return builtins.len(obj)


def ndenumerate(a):
    """`np.ndenumerate(a)`: of a Tensor, a staged source of its `(index, item)` pairs (its
    shape must be known while tracing, as the indices are Python tuples)."""
    if not isinstance(a, Tensor):
        return np.ndenumerate(a)
    if any(d is None for d in a.shape):
        shapes.fail(
            f"np.ndenumerate of an array of shape {shapes.fmt(a.shape)}: its index tuples need "
            "the shape while tracing. Loop over np.ndindex of a known shape, or over the flat "
            "array (`for k, v in enumerate(a.ravel())`)."
        )
    return StagedNdenumerate(a)


STAGED = {
    np.arange: arange,
    np.ndenumerate: ndenumerate,
    np.zeros: _filled(np.zeros, float),
    np.ones: _filled(np.ones, float),
    np.empty: _filled(np.empty, float),
    np.full: full,
    np.take: take,
    np.asarray: _as_array(np.asarray),
    np.asanyarray: _as_array(np.asanyarray),
    np.array: _as_array(np.array),
    np.ascontiguousarray: _as_array(np.ascontiguousarray),
    **{getattr(np, name): _of_stacked(getattr(np, name)) for name in STACKED},
    builtins.float: _python_number(builtins.float),
    builtins.int: _python_number(builtins.int),
    builtins.complex: _python_number(builtins.complex),
    builtins.type: type_,
    builtins.len: len_,
    **{func: _math(func) for func in MATH},
    **{kind: _scalar_type(kind) for kind in SCALAR_TYPES},
}


def register() -> None:
    """Makes converted code route the calls in `STAGED` through the runtime while tracing."""
    from autoconv.runtime import calls

    calls.staged.update(STAGED)
    calls.staged[collections.Counter] = tallies.made  # `Counter(xs)` of run-time items
    calls.numpy_of_lists = numpy_of_lists
