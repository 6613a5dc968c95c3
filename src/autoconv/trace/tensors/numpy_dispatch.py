"""How NumPy calls, Python operators, indexing and methods on Tensors become graph nodes.

Each entry point infers the output shape and dtype (see `shapes` and `ops`), records a node
whose call template is the very call eager NumPy would make, and returns the output Tensor(s).
Because the executor replays the same call (`x + 1` stays `x + 1`, `np.sum(x, axis=0)` stays
that), values, dtypes and NumPy-scalar-versus-array results match eager NumPy exactly.
"""

from __future__ import annotations

import functools
import sys

import numpy as np

from autoconv.caches import register_cache
from autoconv.graph import graph as _g
from autoconv.graph import helpers as _helpers
from autoconv.graph import shapes
from autoconv.graph import tensor as _tensor
from autoconv.graph.eager_types import eager_type
from autoconv.graph.errors import StagingError, where
from autoconv.graph.operators import BINARY_OPERATORS, UNARY_OPERATORS
from autoconv.graph.origin import user_origin
from autoconv.graph.tensor import Tensor
from autoconv.trace.tensors import (
    ops,
    ops_arrays,  # noqa: F401 (fills ops.RULES)
    ops_linalg,  # noqa: F401 (fills ops.RULES)
    ops_more,  # noqa: F401 (fills ops.RULES)
    optional_args,
    staged_try,
)
from autoconv.trace.tensors.path_types import retag
from autoconv.trace.tensors.recording import emit, may_raise
from autoconv.trace.tensors.recording import one as _one

# Tensor methods that are recorded as method calls; value: the NumPy function whose shape and
# dtype rule applies, with the array as its first argument.
ARRAY_METHODS = {
    name: getattr(np, name)
    for name in (
        "sum mean prod max min any all argmax argmin cumsum cumprod std var clip round "
        "squeeze swapaxes take argsort ravel dot nonzero repeat diagonal trace searchsorted"
    ).split()
}
ARRAY_METHODS["flatten"] = np.ravel
ARRAY_METHODS["copy"] = np.copy
ARRAY_METHODS["conj"] = ARRAY_METHODS["conjugate"] = np.copy  # (its shape and dtype)
ARRAY_METHODS["view"] = np.copy  # `a.view()`: the same array (as a view: not a new one)


_LATE: list = []  # (Optional, Variable), imported on first use (they import this module)


class SequenceTypeError(StagingError, TypeError):
    """`list * v` with `v` a float known while tracing to be a number: eager Python raises
    TypeError there, so this is one too."""


def _int_item(v) -> bool:
    """Whether `v` is an integer that is a Python int or a NumPy integer by path (`c` read
    from a run-time list): `lst * v` repeats `lst` either way."""
    kinds = getattr(v, "py_kinds", None) if isinstance(v, Tensor) and not v.shape else None
    return kinds is not None and v.dtype.kind in "iu" and set(kinds[1]) <= {None, int}


def _sequence_count(v) -> bool:
    """Whether `list * v` repeats the list, as eagerly: `v` a Python int or a NumPy integer
    scalar (a 0-d array multiplies elementwise instead; a float number raises TypeError)."""
    if not isinstance(v, Tensor) or v.shape:
        return False
    kind = eager_type(v)
    if kind is None or kind is np.ndarray:
        return False
    if v.dtype.kind not in "iu":
        raise SequenceTypeError(
            f"{where(user_origin(4))}: can't multiply sequence by non-int of type "
            f"'{'float' if v.weak else 'numpy.' + v.dtype.name}' (eager Python raises this "
            "TypeError too): repeat a list an int number of times, e.g. int(...)"
        )
    return True


def _late() -> list:
    """`[Optional, Variable]`, imported on first use."""
    if not _LATE:
        from autoconv.graph.variables import Variable
        from autoconv.trace.tensors.optionals import Optional

        _LATE.extend((Optional, Variable))
    return _LATE


def operand(value):
    """A value as an operation sees it: Variables are read (at run time, in program order),
    Optionals are read behind their run-time check."""
    t = type(value)
    if t is Tensor or t is np.ndarray:
        return value  # the common case, without the imports below
    Optional, Variable = _late()
    if isinstance(value, Variable):
        return value._read_tensor()
    if type(value) is Optional:
        return value.unwrap()
    if type(value) in (list, tuple):
        if any(isinstance(v, (Variable, Optional)) for v in value):
            return type(value)(operand(v) for v in value)
    return value


# --- ufuncs --------------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _cores(signature):
    """A gufunc signature's core dimensions: `(n?,k),(k,m?)->(n?,m?)` as name lists."""
    ins, outs = signature.replace(" ", "").split("->")

    def parse(part):
        groups = part[1:-1].split("),(")
        return tuple(tuple(d for d in g.split(",") if d) for g in groups)

    return parse(ins), parse(outs)


def _gufunc_shape(ufunc, in_shapes):
    if _plain_shapes(in_shapes):
        key = (ufunc, tuple(in_shapes))
        found = _GUFUNC_SHAPES.get(key)
        if found is None:
            found = tuple(_gufunc_shape_of(ufunc, in_shapes))
            if len(_GUFUNC_SHAPES) >= _DTYPES_MAX:
                _GUFUNC_SHAPES.clear()
            _GUFUNC_SHAPES[key] = found
        return list(found)
    return _gufunc_shape_of(ufunc, in_shapes)


# The result shapes of a gufunc (matmul) by its operands' shapes, when those are tuples of
# ints and Nones (never NumPy integers, which compare equal to ints but print differently):
# a 100-layer model works them out once. Only shapes that fit are cached (mismatches raise).
_GUFUNC_SHAPES: dict = {}
register_cache("gufunc result shapes", _GUFUNC_SHAPES)


def _plain_shapes(in_shapes) -> bool:
    for shape in in_shapes:
        if type(shape) is not tuple:
            return False
        for d in shape:
            if type(d) is not int and d is not None:
                return False
    return True


def _gufunc_shape_of(ufunc, in_shapes):
    signature = ufunc.signature
    in_cores, out_cores = _cores(signature)
    dims: dict = {}
    missing = set()
    loops = []
    for core, shape in zip(in_cores, in_shapes):
        names = [d.rstrip("?") for d in core]
        if len(shape) < len(core):
            optional = [d.rstrip("?") for d in core if d.endswith("?")]
            if len(shape) != len(core) - len(optional):
                shapes.fail(
                    f"{ufunc.__name__}: operand of shape {shapes.fmt(shape)} has too few "
                    f"dimensions for signature {signature}"
                )
            missing.update(optional)
            names = [n for n in names if n not in optional]
        core_shape = shape[len(shape) - len(names) :] if names else ()
        loops.append(shape[: len(shape) - len(names)])
        for name, d in zip(names, core_shape):
            if name in dims and dims[name] is not None and d is not None and dims[name] != d:
                shapes.fail(
                    f"{ufunc.__name__}: core dimension {name!r} mismatch: {dims[name]} vs {d} "
                    f"(shapes {', '.join(shapes.fmt(s) for s in in_shapes)}, signature {signature})"
                )
            if dims.get(name) is None:
                dims[name] = d
    loop = shapes.broadcast(*loops, what=f"{ufunc.__name__} operands")
    return [
        loop + tuple(dims.get(n.rstrip("?")) for n in core if n.rstrip("?") not in missing)
        for core in out_cores
    ]


def _ufunc_specs(ufunc, inputs, kwargs):
    key = _spec_key(ufunc, inputs) if not kwargs else None
    if key is not None:
        found = _SPECS.get(key)
        if found is not None:
            return list(found)
    specs = _compute_specs(ufunc, inputs, kwargs)
    if key is not None:
        if len(_SPECS) >= _DTYPES_MAX:
            _SPECS.clear()
        _SPECS[key] = tuple(specs)
    return specs


# The result specs of a ufunc or operator by its operands' shapes and dtypes (numbers by type
# and value, as `_DTYPES`): a Python loop unrolled while tracing asks the same question at every
# step, and the shapes, broadcast and dtype key took a third of recording an operator.
_SPECS: dict = {}
register_cache("ufunc result specs", _SPECS)


def _spec_key(ufunc, inputs):
    key = [ufunc]
    for v in inputs:
        tv = type(v)
        if tv is Tensor:
            shape = v._shape
            if None in shape:
                return None  # sizes known at run time: `shape_of` may record operations
            key.append((shape, v.dtype, v.weak))
        elif tv is np.ndarray:
            key.append((v.shape, v.dtype, None))
        elif tv in _NUMBERS:
            key.append((tv, v))
        else:
            return None
    return tuple(key)


def _compute_specs(ufunc, inputs, kwargs):
    in_shapes = [shapes.shape_of(x) for x in inputs]
    if ufunc.signature:
        out_shapes = _gufunc_shape(ufunc, in_shapes)
    else:
        extra = [shapes.shape_of(kwargs["where"])] if "where" in kwargs else []
        out_shapes = [
            shapes.broadcast(*in_shapes, *extra, what=f"operands of {ufunc.__name__}")
        ] * ufunc.nout
    key = _dtype_key(ufunc, inputs) if not kwargs else None
    dtypes = _DTYPES.get(key) if key is not None else None
    if dtypes is None:
        result = shapes.standin_result(ufunc, inputs, kwargs)
        dtypes = [np.asarray(r).dtype for r in (result if ufunc.nout > 1 else (result,))]
        if key is not None:
            if len(_DTYPES) >= _DTYPES_MAX:
                _DTYPES.clear()
            _DTYPES[key] = dtypes
    return list(zip(out_shapes, dtypes))


# The result dtypes of a ufunc by what its stand-ins depend on (`shapes.standin_result`): each
# array's dtype and rank, a weak Tensor's kind, a number's type and value (NumPy may reject a
# value, an int out of range, and NumPy 1 typed by value). A 100-layer model computes each
# once instead of once per layer. Bounded; cleared with autoconv.clear_caches().
_DTYPES: dict = {}
_DTYPES_MAX = 4096
register_cache("ufunc result dtypes", _DTYPES)
_NUMBERS = (bool, int, float, complex)


def _dtype_key(ufunc, inputs):
    key = [ufunc]
    for v in inputs:
        if isinstance(v, Tensor):
            key.append((v.dtype, len(v._shape), v.weak))
        elif type(v) is np.ndarray:
            key.append((v.dtype, v.ndim, None))
        elif type(v) in _NUMBERS or isinstance(v, np.generic):
            key.append((type(v), v))
        else:
            return None
    return tuple(key)


def _check_out(kwargs, name):
    if kwargs.get("out") is not None:
        shapes.fail(
            f"{name}(..., out=...) writes into an array in place, which a graph cannot do; drop "
            "`out=` and use the result"
        )


def ufunc(uf, method, inputs, kwargs):
    """`Tensor.__array_ufunc__`: every ufunc and its methods reduce, accumulate and outer."""
    out = kwargs.get("out")
    if type(out) is tuple and len(out) == 1 and type(out[0]) is np.ndarray and method == "__call__":
        if any(x is out[0] for x in inputs):
            from autoconv.trace.tensors.mutation import inplace_concrete

            return inplace_concrete(uf, inputs, kwargs, out[0])
    _check_out(kwargs, f"numpy.{uf.__name__}")
    inputs = tuple(_const_list(operand(x)) for x in inputs)
    kwargs = {k: operand(v) for k, v in kwargs.items()}
    if method == "__call__":
        specs = _ufunc_specs(uf, inputs, kwargs)
        return retag(uf, inputs, kwargs, _one(emit("call", uf.__name__, uf, inputs, kwargs, specs)))
    fn = getattr(uf, method)
    op = f"{uf.__name__}.{method}"
    if method in ("reduce", "accumulate"):
        (a,) = inputs[:1]
        axis = inputs[1] if len(inputs) > 1 else kwargs.get("axis", 0)
        shape = shapes.shape_of(a)
        if method == "reduce":
            out = shapes.reduce_shape(shape, axis, bool(kwargs.get("keepdims", False)))
        else:
            shapes.norm_axis(axis, len(shape))
            out = shape
    elif method == "outer":
        out = shapes.shape_of(inputs[0]) + shapes.shape_of(inputs[1])
    else:
        shapes.fail(
            f"numpy.{uf.__name__}.{method} is not supported on symbolic Tensors (it works in "
            "place or needs values); compute it with other NumPy functions"
        )
    dtype = shapes.standin_dtype(fn, inputs, kwargs)
    return _one(emit("call", op, fn, inputs, kwargs, [(out, dtype)]))


def _const_list(value):
    # NumPy turns a list operand into an array; do it once at trace time.
    if type(value) is list and not _g.tensors_in(value):
        return np.asarray(value)
    return value


_PY_NUMBERS = (bool, int, float, complex)


def _python_result(op, operands):
    """The spec of `op(*operands)` when every operand is a Python number at run time (a weak
    Tensor or a constant): Python computes it, so the result is a Python number too."""
    for x in operands:  # (a loop, not all(...): this runs for every operator traced)
        tx = type(x)
        if tx in _PY_NUMBERS:
            continue
        if tx is Tensor or isinstance(x, Tensor):
            if x.weak:
                continue
        return None
    standins = [shapes._standin(x) if isinstance(x, Tensor) else x for x in operands]
    try:
        result = op(*standins)
    except RecursionError:
        raise  # the trace reports it (autoconv.trace.tensors.recursion)
    except Exception:
        return None
    if type(result) not in _PY_NUMBERS:
        return None
    return [((), np.asarray(result).dtype, True)]


def binop(symbol, uf, a, b):
    """`a <symbol> b` with a Tensor operand, recorded as the Python operator."""
    a, b = operand(a), operand(b)
    ta, tb = type(a), type(b)
    if (symbol == "+" or symbol == "*") and (
        (ta is Tensor and a.dtype.kind == "O")
        or (tb is Tensor and b.dtype.kind == "O")
        or ta is str
        or tb is str
    ):  # (inline: the operands of numbers, which almost every traced `+` and `*` has)
        text = _text_operator(symbol, a, b)
        if text is not None:
            return text
    if ta is list or tb is list:
        if symbol == "*":
            items, count = (a, b) if type(a) is list else (b, a)
            if _sequence_count(count) or (items is a and _int_item(count)):
                return _tensor.uses.accumulated.repeated(items, count)
        return ufunc(uf, "__call__", (a, b), {})
    op = BINARY_OPERATORS[symbol]
    python = _python_result(op, (a, b))
    divisor = b
    if python and symbol in ("/", "//", "%") and isinstance(b, Tensor):
        # Python numbers: a zero divisor raises ZeroDivisionError when the graph runs (or,
        # inside a `try` that handles it, takes the handler: staged_try).
        b = staged_try.divisor(symbol, a, b)
    elif python and symbol == "**":
        a = staged_try.power_base(a, b)  # 0.0 ** -1 raises ZeroDivisionError too
    specs = python or _ufunc_specs(uf, (a, b), {})
    out = emit("binop", symbol, symbol, (a, b), {}, specs)[0]
    if symbol in ("/", "//", "%") and b is divisor and _may_divide_by_zero(python, a, b):
        # (`b is divisor`: a `try` that handles the error has a divisor that cannot fail)
        may_raise(out)  # Python's ZeroDivisionError, whether or not the quotient is used
    return retag(op, (a, b), {}, out)


def _may_divide_by_zero(python, a, b) -> bool:
    """Whether `a / b` (`//`, `%`) of Python numbers may raise ZeroDivisionError: a divisor
    known only when the graph runs, or a zero written in the code."""
    if isinstance(b, Tensor):
        return bool(python)
    return type(b) in (int, float) and b == 0 and _weak_tensor(a)


def _weak_tensor(value) -> bool:
    """A Python number known only when the graph runs."""
    return type(value) is Tensor and value.weak


def _text_operator(symbol, a, b):
    """`a <symbol> b` where an operand is a string or a Tensor of Python objects: the string
    made when the graph runs, or None for the operator's other rules."""
    if symbol == "+" and (_object(a) or _object(b)):
        printing = _tensor.uses.printing
        if printing.is_text(a) or printing.is_text(b):
            return printing.concat(a, b)  # strings made when the graph runs (f-strings)
    if symbol == "*" and _text_times_count(a, b):
        # `"#" * int(c)`: a string made when the graph runs (eager Python's own repetition)
        text, count = (a, b) if _text(a) else (b, a)
        spec = [((), np.dtype(object))]
        return emit("helper", "repeat", _helpers.repeat_text, (text, count), {}, spec)[0]
    return None


def _text(value) -> bool:
    return type(value) is str or _tensor.uses.printing.is_text(value)


def _text_times_count(a, b) -> bool:
    """A string (written in the code or made when the graph runs) and an int, one of them a
    Tensor."""
    for text, count in ((a, b), (b, a)):
        if _text(text) and (
            type(count) is int
            or type(count) is Tensor
            and not count.shape
            and count.dtype.kind in "iu"
        ):
            return isinstance(a, Tensor) or isinstance(b, Tensor)
    return False


def _object(value) -> bool:
    return type(value) is Tensor and value.dtype.kind == "O"


def unop(symbol, uf, a):
    op = UNARY_OPERATORS[symbol]
    specs = _python_result(op, (a,)) or _ufunc_specs(uf, (a,), {})
    return retag(op, (a,), {}, emit("unop", symbol, symbol, (a,), {}, specs)[0])


# --- functions ------------------------------------------------------------------------------


def function(func, args, kwargs):
    """`Tensor.__array_function__`: the NumPy functions in `ops.RULES`."""
    accumulated = _tensor.uses.accumulated
    if (
        func in accumulated.STACKERS
        and args
        and type(args[0]) in (list, tuple)
        and any(isinstance(a, accumulated.ListAccum) for a in args[0])
    ):
        # `np.stack([first, *appended])`: items before those a staged loop appended.
        return accumulated._stack_lists(func, args, kwargs)
    handler = ops.RULES.get(func)
    if handler is None:
        name = getattr(func, "__qualname__", getattr(func, "__name__", repr(func)))
        module = getattr(func, "__module__", "numpy") or "numpy"
        if module.startswith("numpy"):
            module = "numpy" + module[len("numpy") :].replace("._core", "").replace(".lib", "")
            module = module.split("._")[0]
        shapes.fail(
            f"{module}.{name} is not supported on symbolic Tensors in graph mode. Use one of "
            "the supported NumPy functions (see docs/graph-mode.md), or call it outside "
            "autoconv.function on concrete arrays."
        )
    if "out" in kwargs:
        _check_out(kwargs, f"numpy.{func.__name__}")
    # A list a staged loop appended to, among the operands (`np.array_equal(out, row)`): as
    # the array NumPy makes of it (not the list's run-time value as it is).
    args = tuple(_grown_as_array(a, accumulated) for a in args)
    random = "random" in (getattr(func, "__module__", None) or "")
    if not random:
        chosen = optional_args.by_presence(function, func, args, kwargs, _late()[0])
        if chosen is not optional_args.NOT_CHOSEN:
            return chosen  # a value-or-None argument: the call with each, chosen by its flag
    args = tuple(operand(a) for a in args)
    kwargs = {k: operand(v) for k, v in kwargs.items()}
    if random:
        return handler(func, args, kwargs)  # trying it on stand-ins would draw numbers
    return retag(func, args, kwargs, handler(func, args, kwargs))


def _grown_as_array(value, accumulated):
    if type(value) in (list, tuple) and any(isinstance(v, accumulated.ListAccum) for v in value):
        return accumulated._stack_lists(np.stack, (value,), {})
    return value


def method(tensor, name, args, kwargs, attr=False):
    """`tensor.name(*args, **kwargs)` (or the attribute `tensor.name`), recorded as itself."""
    args = tuple(operand(a) for a in args)
    kwargs = {k: operand(v) for k, v in kwargs.items()}
    if name == "T":
        specs = ops.spec_of(np.transpose, (tensor,), {})
        return emit("attr", ".T", "T", (tensor,), {}, specs)[0]
    if name == "astype":
        dtype = np.dtype(args[0] if args else kwargs["dtype"])
        return emit(
            "method", ".astype", "astype", (tensor, *args), kwargs, [(tensor.shape, dtype)]
        )[0]
    if name == "argsort":
        # The same as np.argsort(a, ...), which each backend runs as NumPy orders ties.
        return function(np.argsort, (tensor, *args), kwargs)
    if name == "take" and args and type(args[0]) is list and not _g.tensors_in(args[0]):
        args = (np.asarray(args[0]), *args[1:])  # (jax.numpy's take wants an array)
    if name == "view" and (args or kwargs):
        shapes.fail(
            "a.view(dtype) reads the array's bytes as another dtype, which graph mode does not "
            "stage; use a.astype(dtype) for a conversion of the values"
        )
    if name == "reshape":
        shape = args[0] if len(args) == 1 and isinstance(args[0], tuple) else args
        specs = ops.spec_of(np.reshape, (tensor, shape), kwargs)
    elif name == "transpose":
        specs = ops.spec_of(np.transpose, (tensor, args or None), {})
    else:
        func = ARRAY_METHODS[name]
        specs = ops.spec_of(func, (tensor, *args), kwargs)
    return _one(emit("method", "." + name, name, (tensor, *args), kwargs, specs))


# --- indexing -------------------------------------------------------------------------------


def _key_item(item):
    from autoconv.graph.variables import Variable

    if isinstance(item, Variable):
        return item._read_tensor()
    if type(item) is list:
        from autoconv.trace.tensors.optionals import index_value

        # (`M[[rank, pivot]]` with `pivot` a value or None by the path: its value, checked)
        item = [index_value(i) for i in item]
        if _g.tensors_in(item):
            if all(isinstance(i, Tensor) and not i.shape or _index_number(i) for i in item):
                # `A[[k, p]]` with `p` a Tensor: the index array made when the graph runs.
                return _tensor.uses.accumulated.stack_items(np.array, list(item))
            shapes.fail(
                "an index list containing Tensors other than single numbers; use np.stack(...) "
                "to build the index array"
            )
        return np.asarray(item)
    if isinstance(item, np.integer):
        return int(item)
    return item


def _index_number(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def index_shape(shape: tuple, key: tuple) -> tuple:
    """The result shape of `x[key]` for `x` of static `shape`, following NumPy's rules for
    basic and advanced indexing (ints count as advanced indices next to arrays)."""
    kinds = []
    consumed = 0
    for item in key:
        if item is None:
            kinds.append(("new", None))
        elif item is Ellipsis:
            kinds.append(("ellipsis", None))
        elif type(item) is slice:
            kinds.append(("slice", item))
            consumed += 1
        elif isinstance(item, bool):
            shapes.fail("a Python bool as an index is not supported; use a boolean array")
        elif isinstance(item, int):
            kinds.append(("int", item))
            consumed += 1
        elif isinstance(item, (Tensor, np.ndarray)):
            dtype = item.dtype
            if dtype == np.bool_:
                kinds.append(("bool", item))
                consumed += item.ndim
            elif dtype.kind in "iu":
                if item.ndim == 0:
                    kinds.append(("int", item))
                else:
                    kinds.append(("array", item))
                consumed += 1
            else:
                shapes.fail(
                    f"arrays used as indices must be of integer or boolean type, got {dtype}"
                )
        else:
            shapes.fail(
                f"unsupported index {item!r}: use ints, slices, None, ..., or integer/boolean "
                "arrays"
            )
    ellipses = sum(1 for k, _ in kinds if k == "ellipsis")
    if ellipses > 1:
        shapes.fail("an index can only have a single ellipsis ('...')")
    if consumed > len(shape):
        shapes.fail(
            f"too many indices for array: array is {len(shape)}-dimensional, but {consumed} were "
            "indexed"
        )
    fill = [("slice", slice(None))] * (len(shape) - consumed)
    if ellipses:
        i = next(i for i, (k, _) in enumerate(kinds) if k == "ellipsis")
        kinds = kinds[:i] + fill + kinds[i + 1 :]
    else:
        kinds = kinds + fill
    has_array = any(k in ("array", "bool") for k, _ in kinds)
    out = []  # entries: list of dims, or the marker "ADV"
    adv_shapes = []
    adv_positions = []
    dim = 0
    for pos, (k, item) in enumerate(kinds):
        if k == "new":
            out.append([1])
        elif k == "slice":
            n = shape[dim]
            dim += 1
            if item.start is None and item.stop is None and item.step is None:
                out.append([n])
            elif n is not None and all(
                v is None or (isinstance(v, int) and not isinstance(v, bool))
                for v in (item.start, item.stop, item.step)
            ):
                if item.step == 0:
                    shapes.fail("slice step cannot be zero")
                out.append([len(range(*item.indices(n)))])
            else:
                out.append([None])
        elif k == "int":
            n = shape[dim]
            dim += 1
            if isinstance(item, int) and n is not None and not -n <= item < n:
                shapes.fail(
                    f"index {item} is out of bounds for axis {dim - 1} with size {n}",
                    cls=shapes.IndexOutOfBounds,
                )
            if has_array:
                adv_shapes.append(())
                adv_positions.append(pos)
                out.append("ADV")
        elif k == "array":
            dim += 1
            adv_shapes.append(item.shape)
            adv_positions.append(pos)
            out.append("ADV")
        elif k == "bool":
            mask_shape = item.shape
            for j, m in enumerate(mask_shape):
                n = shape[dim + j]
                if m is not None and n is not None and m != n:
                    shapes.fail(
                        f"boolean index did not match indexed array along axis {dim + j}; size of "
                        f"axis is {n} but size of boolean index is {m}"
                    )
            dim += item.ndim
            count = int(np.count_nonzero(item)) if isinstance(item, np.ndarray) else None
            adv_shapes.append((count,))
            adv_positions.append(pos)
            out.append("ADV")
    if not has_array:
        return tuple(d for part in out if part != "ADV" for d in part)
    adv = shapes.broadcast(*adv_shapes, what="index arrays")
    adjacent = adv_positions == list(range(adv_positions[0], adv_positions[-1] + 1))
    result = []
    placed = False
    if not adjacent:
        result.extend(adv)
        placed = True
    for part in out:
        if part == "ADV":
            if not placed:
                result.extend(adv)
                placed = True
        else:
            result.extend(part)
    return tuple(result)


def getitem(tensor, key):
    """`tensor[key]`, recorded as the same subscript."""
    from autoconv.trace.tensors.optionals import Optional, index_value

    if isinstance(key, Optional) or (
        type(key) is tuple and any(isinstance(k, Optional) for k in key)
    ):
        # An index known per path: its value (checked where it may be None or unbound).
        key = tuple(map(index_value, key)) if type(key) is tuple else index_value(key)
    if not tensor.shape and _tensor.uses.printing.is_text(tensor):
        return _tensor.uses.printing.text_item(tensor, key)  # `s[::-1]` of a string made then
    is_tuple = type(key) is tuple
    if not is_tuple and isinstance(key, Tensor) and key.shape == () and tensor.shape:
        if key.dtype.kind in "iu" and isinstance(tensor.shape[0], int):
            key = staged_try.index_key(key, tensor.shape[0])  # a `try` may handle IndexError
    items = tuple(_key_item(k) for k in (key if is_tuple else (key,)))
    shape = index_shape(tensor.shape, items)
    template = items if is_tuple else items[0]
    return emit(
        "getitem",
        "getitem",
        None,
        (tensor, template),
        {},
        [(shape, tensor.dtype)],
        {"tuple": is_tuple},
    )[0]


_tensor.uses.dispatch = sys.modules[__name__]  # Tensor calls this module; tensor.py imports it not
