"""The NumPy functions a Tensor supports, each with its shape and dtype rule.

`SPECS[func](p, args, kwargs)` returns the `(shape, dtype)` of each output, where `p` holds the
arguments bound to NumPy's own parameter names (defaults included). `RULES[func]` is what
`__array_function__` calls; most entries record one call node with that spec. Dtypes come from
`shapes.standin_dtype` (NumPy on one-element stand-ins) unless the rule states them. More
families register here with `rule` from `ops_arrays` and `ops_linalg` (which `numpy_dispatch`
imports).
"""

from __future__ import annotations

import inspect
import string

import numpy as np

from autoconv.graph import shapes
from autoconv.graph.helpers import dim as _dim
from autoconv.graph.helpers import size as _size
from autoconv.graph.shapes import fail, norm_axis, shape_of
from autoconv.graph.tensor import Tensor
from autoconv.trace.tensors.recording import emit
from autoconv.trace.tensors.recording import one as _one

SPECS: dict = {}
RULES: dict = {}
_SIGNATURES: dict = {}
_NOVALUE = np._NoValue


def _given(p, name, default=None):
    value = p.get(name, default)
    return default if value is _NOVALUE else value


def _bind(func, args, kwargs) -> dict:
    plan = _POSITIONAL.get(func)
    if plan is None:
        plan = _POSITIONAL[func] = _positional(_signature(func))
    count, names, rest = plan
    if len(args) <= count:
        # What `bind` + `apply_defaults` give, without their general walk (a rule runs for
        # every NumPy call traced, 1,000 times in a loop); anything unusual (a keyword that
        # is not a parameter's, a missing argument) is left to `bind`.
        bound = dict(zip(names, args))
        taken = 0
        for name, default, keyword in rest[len(args) :]:
            if keyword and name in kwargs:
                bound[name] = kwargs[name]
                taken += 1
            elif default is _REQUIRED:
                break
            else:
                bound[name] = (
                    () if default is _VAR_ARGS else {} if default is _VAR_KWARGS else default
                )
        else:
            if taken == len(kwargs):
                return bound
    try:
        bound = _signature(func).bind(*args, **kwargs)
    except TypeError as e:
        fail(f"numpy.{func.__name__}: {e}")
    bound.apply_defaults()
    return bound.arguments


def _signature(func):
    sig = _SIGNATURES.get(func)
    if sig is None:
        sig = _SIGNATURES[func] = inspect.signature(func)
    return sig


_POSITIONAL: dict = {}
_REQUIRED, _VAR_ARGS, _VAR_KWARGS = object(), object(), object()


def _positional(sig):
    """`(count, names, rest)` for binding: how many arguments the leading positional
    parameters take, their names, and each parameter's `(name, default, keyword)` in order
    (`_REQUIRED` where it has no default; `*args` and `**kwargs` bind to `()` and `{}`;
    `keyword`: it may be passed by name)."""
    names, rest = [], []
    count = 0
    for p in sig.parameters.values():
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and len(rest) == count:
            names.append(p.name)
            count += 1
        keyword = p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        if p.kind is p.VAR_POSITIONAL:
            rest.append((p.name, _VAR_ARGS, False))
        elif p.kind is p.VAR_KEYWORD:
            rest.append((p.name, _VAR_KWARGS, False))
        elif p.default is p.empty:
            rest.append((p.name, _REQUIRED, keyword))
        else:
            rest.append((p.name, p.default, keyword))
    return count, names, rest


def rule(*names, module=np, handler=None):
    """Registers a spec rule for the functions `names` of `module` (`np`, `np.linalg`; those
    this NumPy has). `handler` records the call (default: one call node with the spec)."""

    def register(spec):
        for name in names:
            func = getattr(module, name, None)
            if func is not None:
                SPECS[func] = spec
                RULES[func] = handler or _record
        return spec

    return register


def _record(func, args, kwargs):
    specs = spec_of(func, args, kwargs)
    return _one(emit("call", func.__name__, func, args, kwargs, specs))


def _std_dtype(func, args, kwargs):
    return shapes.standin_dtype(func, args, kwargs)


# --- reductions and scans -------------------------------------------------------------------


@rule(
    "sum",
    "mean",
    "prod",
    "max",
    "min",
    "amax",
    "amin",
    "any",
    "all",
    "std",
    "var",
    "nansum",
    "nanmean",
    "nanmax",
    "nanmin",
    "nanprod",
    "nanstd",
    "nanvar",
    "nanargmax",
    "nanargmin",
    "nanmedian",
    "argmax",
    "argmin",
    "median",
    "count_nonzero",
    "ptp",
)
def _reduction(p, args, kwargs):
    a = p.get("a")
    keepdims = bool(_given(p, "keepdims", False))
    shape = shapes.reduce_shape(shape_of(a), p.get("axis"), keepdims)
    return [(shape, _std_dtype(p["__func__"], args, kwargs))]


@rule("cumsum", "cumprod", "nancumsum", "nancumprod")
def _scan(p, args, kwargs):
    shape = shape_of(p["a"])
    axis = p.get("axis")
    out = (shapes.size(shape),) if axis is None else shape
    if axis is not None:
        norm_axis(axis, len(shape))
    return [(out, _std_dtype(p["__func__"], args, kwargs))]


# --- linear algebra -------------------------------------------------------------------------


@rule("dot")
def _dot(p, args, kwargs):
    a, b = shape_of(p["a"]), shape_of(p["b"])
    if not a or not b:
        shape = shapes.broadcast(a, b)
    else:
        k_b = b[0] if len(b) == 1 else b[-2]
        shapes.unify(a[-1], k_b, "numpy.dot: shapes not aligned:")
        shape = a[:-1] + (b[:-2] + b[-1:] if len(b) > 1 else ())
    return [(shape, _std_dtype(np.dot, (p["a"], p["b"]), {}))]


@rule("outer")
def _outer(p, args, kwargs):
    return [
        (
            (shapes.size(shape_of(p["a"])), shapes.size(shape_of(p["b"]))),
            _std_dtype(np.outer, (p["a"], p["b"]), {}),
        )
    ]


@rule("tensordot")
def _tensordot(p, args, kwargs):
    a, b, axes = shape_of(p["a"]), shape_of(p["b"]), p["axes"]
    if isinstance(axes, (int, np.integer)):
        axes_a = list(range(len(a) - axes, len(a)))
        axes_b = list(range(axes))
    else:
        axes_a, axes_b = axes
        axes_a = [axes_a] if isinstance(axes_a, int) else list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, int) else list(axes_b)
    axes_a = [norm_axis(x, len(a)) for x in axes_a]
    axes_b = [norm_axis(x, len(b)) for x in axes_b]
    for i, j in zip(axes_a, axes_b):
        shapes.unify(a[i], b[j], "numpy.tensordot: shape-mismatch for sum:")
    shape = tuple(d for i, d in enumerate(a) if i not in axes_a) + tuple(
        d for j, d in enumerate(b) if j not in axes_b
    )
    return [(shape, _std_dtype(np.dot, (p["a"], p["b"]), {}))]


@rule("einsum")
def _einsum(p, args, kwargs):
    subscripts, *operands = args
    if not isinstance(subscripts, str):
        fail("numpy.einsum: give the subscripts as a string first (einsum('ij,jk->ik', a, b))")
    spec = subscripts.replace(" ", "")
    if "->" in spec:
        ins, out = spec.split("->")
    else:
        ins, out = spec, None
    terms = ins.split(",")
    if len(terms) != len(operands):
        fail(f"numpy.einsum: {len(terms)} subscript terms for {len(operands)} operands")
    dims: dict = {}
    counts: dict = {}
    ell_shapes = []
    for term, op in zip(terms, operands):
        shape = shape_of(op)
        if "..." in term:
            left, right = term.split("...")
            n_ell = len(shape) - len(left) - len(right)
            ell_shapes.append(shape[len(left) : len(left) + n_ell])
            pairs = list(zip(left, shape[: len(left)])) + list(
                zip(right, shape[len(shape) - len(right) :])
            )
        else:
            if len(term) != len(shape):
                fail(
                    f"numpy.einsum: operand has {len(shape)} dimensions but subscripts {term!r} "
                    f"name {len(term)}"
                )
            pairs = list(zip(term, shape))
        for letter, d in pairs:
            counts[letter] = counts.get(letter, 0) + 1
            if letter in dims and dims[letter] != 1 and d != 1:
                dims[letter] = shapes.unify(dims[letter], d, f"numpy.einsum: dimension {letter!r}")
            elif letter not in dims or dims[letter] == 1:
                dims[letter] = d
    ellipsis = shapes.broadcast(*ell_shapes) if ell_shapes else ()
    if out is None:
        letters = sorted((c for c, n in counts.items() if n == 1), key=string.ascii_letters.index)
        shape = ellipsis + tuple(dims[c] for c in letters)
    else:
        left, _, right = out.partition("...")
        shape = (
            tuple(dims[c] for c in left)
            + (ellipsis if "..." in out else ())
            + tuple(dims[c] for c in right)
        )
    return [
        (shape, _std_dtype(np.einsum, args, {k: v for k, v in kwargs.items() if k != "optimize"}))
    ]


# --- shape manipulation ---------------------------------------------------------------------


@rule("reshape")
def _reshape(p, args, kwargs):
    a = p["a"]
    new = p.get("shape")
    if new is None:
        new = p.get("newshape")
    if isinstance(new, (int, np.integer, Tensor)):
        new = (new,)
    new = list(new)
    unknown = [i for i, d in enumerate(new) if isinstance(d, Tensor)]
    for i in unknown:
        new[i] = None
    new = [int(d) if d is not None else None for d in new]
    if new.count(-1) > 1:
        fail("numpy.reshape: can only specify one unknown dimension (-1)")
    total = shapes.size(shape_of(a))
    if -1 in new:
        i = new.index(-1)
        rest = shapes.size(tuple(d for j, d in enumerate(new) if j != i))
        if total is not None and rest is not None and rest:
            if total % rest:
                fail(f"numpy.reshape: cannot reshape array of size {total} into shape {tuple(new)}")
            new[i] = total // rest
        else:
            new[i] = None
    elif total is not None and shapes.size(tuple(new)) not in (None, total):
        fail(f"numpy.reshape: cannot reshape array of size {total} into shape {tuple(new)}")
    return [(tuple(new), shapes.result_dtype(a))]


@rule("ravel")
def _ravel(p, args, kwargs):
    return [((shapes.size(shape_of(p["a"])),), shapes.result_dtype(p["a"]))]


@rule("copy", "negative", "positive")
def _same(p, args, kwargs):
    a = p["a"]
    return [(shape_of(a), shapes.result_dtype(a))]


@rule("astype")
def _astype(p, args, kwargs):
    return [(shape_of(p["x"]), np.dtype(p["dtype"]))]


@rule("transpose")
def _transpose(p, args, kwargs):
    shape = shape_of(p["a"])
    axes = p.get("axes")
    if axes is None or axes == ():
        return [(shape[::-1], shapes.result_dtype(p["a"]))]
    axes = [norm_axis(x, len(shape)) for x in axes]
    if sorted(axes) != list(range(len(shape))):
        fail(f"numpy.transpose: axes {tuple(axes)} don't match array of dimension {len(shape)}")
    return [(tuple(shape[i] for i in axes), shapes.result_dtype(p["a"]))]


@rule("swapaxes")
def _swapaxes(p, args, kwargs):
    shape = list(shape_of(p["a"]))
    i, j = norm_axis(p["axis1"], len(shape)), norm_axis(p["axis2"], len(shape))
    shape[i], shape[j] = shape[j], shape[i]
    return [(tuple(shape), shapes.result_dtype(p["a"]))]


@rule("moveaxis")
def _moveaxis(p, args, kwargs):
    shape = shape_of(p["a"])
    src = shapes.norm_axes(p["source"], len(shape))
    dst = shapes.norm_axes(p["destination"], len(shape))
    order = [n for n in range(len(shape)) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return [(tuple(shape[i] for i in order), shapes.result_dtype(p["a"]))]


@rule("expand_dims")
def _expand_dims(p, args, kwargs):
    shape = shape_of(p["a"])
    axis = p["axis"]
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    ndim = len(shape) + len(axes)
    axes = shapes.norm_axes(tuple(axes), ndim)
    it = iter(shape)
    return [(tuple(1 if i in axes else next(it) for i in range(ndim)), shapes.result_dtype(p["a"]))]


@rule("squeeze")
def _squeeze(p, args, kwargs):
    shape = shape_of(p["a"])
    axis = p.get("axis")
    if axis is None:
        if None in shape:
            fail(
                f"numpy.squeeze of an array of shape {shapes.fmt(shape)} with unknown "
                "dimensions: say which axes to drop with axis=..."
            )
        axes = [i for i, d in enumerate(shape) if d == 1]
    else:
        axes = shapes.norm_axes(axis, len(shape))
        for i in axes:
            if shape[i] not in (1, None):
                fail(
                    "numpy.squeeze: cannot select an axis to squeeze out which has size not equal "
                    "to one"
                )
    return [(tuple(d for i, d in enumerate(shape) if i not in axes), shapes.result_dtype(p["a"]))]


@rule("broadcast_to")
def _broadcast_to(p, args, kwargs):
    shape = p["shape"]
    shape = (shape,) if isinstance(shape, (int, Tensor)) else tuple(shape)
    shape = tuple(None if isinstance(d, Tensor) else int(d) for d in shape)
    shapes.broadcast(shape_of(p["array"]), shape)
    return [(shape, shapes.result_dtype(p["array"]))]


def _merge_shapes(shapes_, axis, what):
    ndim = len(shapes_[0])
    for s in shapes_:
        if len(s) != ndim:
            fail(
                f"{what}: all the input arrays must have the same number of dimensions, got "
                f"{', '.join(shapes.fmt(s) for s in shapes_)}"
            )
    out = list(shapes_[0])
    for s in shapes_[1:]:
        for i, d in enumerate(s):
            if i != axis:
                out[i] = shapes.unify(
                    out[i],
                    d,
                    f"{what}: input array dimensions except for the concatenation axis must match "
                    f"exactly; dimension {i}:",
                )
    return out


@rule("concatenate")
def _concatenate(p, args, kwargs):
    arrays = list(p["arrays"])
    if not arrays:
        fail("numpy.concatenate: need at least one array to concatenate")
    axis = p.get("axis", 0)
    shapes_ = [shape_of(a) for a in arrays]
    if axis is None:
        total = [shapes.size(s) for s in shapes_]
        shape = (None if None in total else sum(total),)
    else:
        axis = norm_axis(axis, len(shapes_[0]))
        out = _merge_shapes(shapes_, axis, "numpy.concatenate")
        lengths = [s[axis] for s in shapes_]
        out[axis] = None if None in lengths else sum(lengths)
        shape = tuple(out)
    return [
        (
            shape,
            _std_dtype(np.concatenate, (arrays,), {k: v for k, v in kwargs.items() if k != "axis"}),
        )
    ]


@rule("append")
def _append(p, args, kwargs):
    arr, values, axis = p["arr"], p["values"], p.get("axis")
    dtype = shapes.standin_dtype(np.append, (arr, values), {})
    if axis is None:  # both flattened, one after the other
        sizes = [shapes.size(shape_of(a)) for a in (arr, values)]
        return [((None if None in sizes else sum(sizes),), dtype)]
    a, b = shape_of(arr), shape_of(values)
    if len(a) != len(b):
        fail(
            "numpy.append: all the input arrays must have same number of dimensions, but the "
            f"array at index 0 has {len(a)} dimension(s) and the array at index 1 has {len(b)} "
            "dimension(s) (eager NumPy raises this too)",
            cls=shapes.ShapeValueError,
        )
    axis = norm_axis(axis, len(a))
    out = _merge_shapes([a, b], axis, "numpy.append")
    out[axis] = None if None in (a[axis], b[axis]) else a[axis] + b[axis]
    return [(tuple(out), dtype)]


@rule("stack")
def _stack(p, args, kwargs):
    arrays = list(p["arrays"])
    if not arrays:
        fail("numpy.stack: need at least one array to stack")
    shapes_ = [shape_of(a) for a in arrays]
    out = _merge_shapes(shapes_, -1, "numpy.stack: all input arrays must have the same shape")
    axis = norm_axis(p.get("axis", 0), len(out) + 1)
    out.insert(axis, len(arrays))
    return [
        (
            tuple(out),
            _std_dtype(np.stack, (arrays,), {k: v for k, v in kwargs.items() if k != "axis"}),
        )
    ]


@rule("vstack", "hstack")
def _vhstack(p, args, kwargs):
    func = p["__func__"]
    arrays = list(p["tup"])
    if not arrays:
        fail(f"numpy.{func.__name__}: need at least one array to concatenate")
    shapes_ = [tuple(shape_of(a)) for a in arrays]
    if func is np.vstack:
        shapes_ = [s if len(s) >= 2 else (1, *s) if s else (1, 1) for s in shapes_]
        axis = 0
    else:
        shapes_ = [s or (1,) for s in shapes_]
        axis = 0 if len(shapes_[0]) == 1 else 1
    out = _merge_shapes(shapes_, axis, f"numpy.{func.__name__}")
    lengths = [s[axis] for s in shapes_]
    out[axis] = None if None in lengths else sum(lengths)
    return [(tuple(out), _std_dtype(func, (arrays,), {}))]


@rule("diff")
def _diff(p, args, kwargs):
    shape = list(shape_of(p["a"]))
    n = p.get("n", 1)
    if not shape:
        fail("numpy.diff: diff requires input that is at least one dimensional")
    if not isinstance(n, int) or n < 0:
        fail(f"numpy.diff: order must be a non-negative int, got {n!r}")
    if p.get("prepend", _NOVALUE) is not _NOVALUE or p.get("append", _NOVALUE) is not _NOVALUE:
        fail("numpy.diff: prepend= and append= are not supported; np.concatenate first")
    axis = norm_axis(p.get("axis", -1), len(shape))
    if shape[axis] is not None:
        shape[axis] = max(shape[axis] - n, 0)
    return [(tuple(shape), _std_dtype(np.diff, (p["a"],), {}))]


def _norm(p, args, kwargs):
    x = p["x"]
    shape = tuple(shape_of(x))
    order = p.get("ord")
    if not (order is None or order in ("fro", "nuc") or isinstance(order, (int, float))):
        # The result's shape is the same for every order NumPy takes; it must be known now.
        fail(f"numpy.linalg.norm: ord must be a number, 'fro' or 'nuc' known now, got {order!r}")
    axis, keepdims = p.get("axis"), bool(p.get("keepdims", False))
    if axis is None and len(shape) > 2:
        fail("numpy.linalg.norm: give axis= for arrays of more than 2 dimensions")
    out = shapes.reduce_shape(shape, axis, keepdims)
    return [(out, _std_dtype(np.linalg.norm, (x,), {}))]


rule("norm", module=np.linalg)(_norm)


# --- elementwise and selection --------------------------------------------------------------


def _where_record(func, args, kwargs):
    if len(args) + len(kwargs) == 1:  # `np.where(cond)`: np.nonzero's tuple
        cond = args[0] if args else next(iter(kwargs.values()))
        return _indices("where", cond)
    return _record(func, args, kwargs)


@rule("where", handler=_where_record)
def _where(p, args, kwargs):
    cond, x, y = p["condition"], p.get("x"), p.get("y")
    if x is None and y is None:
        return _nonzero({"a": cond}, (cond,), {})
    shape = shapes.broadcast(
        shape_of(cond), shape_of(x), shape_of(y), what="operands of numpy.where"
    )
    return [(shape, _std_dtype(np.where, args, kwargs))]


@rule("nonzero")
def _nonzero(p, args, kwargs):
    """A tuple of one index array per dimension (a tuple of one for a 1-d array)."""
    ndim = len(shape_of(p["a"]))
    return [((None,), np.dtype(np.intp))] * max(ndim, 1)


def _nonzero_record(func, args, kwargs):
    return _indices(func.__name__, args[0] if args else next(iter(kwargs.values())))


def _indices(name, a) -> tuple:
    """`np.nonzero(a)` recorded as `name`: NumPy's tuple of index arrays. One output holds one
    array, not a tuple of one, so a 1-d `a`'s is np.flatnonzero's array in a tuple."""
    specs = _nonzero({"a": a}, (a,), {})
    if len(specs) == 1:
        return (emit("call", name, np.flatnonzero, (a,), {}, specs)[0],)
    return tuple(emit("call", name, np.nonzero, (a,), {}, specs))


rule("nonzero", handler=_nonzero_record)(_nonzero)


@rule("argwhere")
def _argwhere(p, args, kwargs):
    return [((None, max(len(shape_of(p["a"])), 1)), np.dtype(np.intp))]


@rule("flatnonzero")
def _flatnonzero(p, args, kwargs):
    return [((None,), np.dtype(np.intp))]


@rule("unique")
def _unique(p, args, kwargs):
    """`np.unique(ar, return_index=, return_inverse=, return_counts=)`: the distinct values (a
    size known only when the graph runs), and the arrays the flags ask for."""
    x = p["ar"]
    if p.get("axis") is not None:
        fail("numpy.unique: axis= is not supported on Tensors; use it on one axis at a time")
    shape = tuple(shape_of(x))
    flags = ("return_index", "return_inverse", "return_counts")
    asked = {k: bool(p.get(k, False)) for k in flags}
    standin = np.zeros(tuple(1 if d is None else d for d in shape), shapes.result_dtype(x))
    outs = np.unique(standin, **asked)
    outs = outs if isinstance(outs, tuple) else (outs,)
    specs = [((None,), outs[0].dtype)]
    for name, out in zip([k for k in flags if asked[k]], outs[1:]):
        if name == "return_inverse":  # one index per item of `ar` (flat, or `ar`'s shape)
            flat = (None if None in shape else int(np.prod(shape, dtype=np.int64)),)
            specs.append((shape if out.ndim == len(shape) else flat, out.dtype))
        else:
            specs.append(((None,), out.dtype))
    return specs


@rule("clip")
def _clip(p, args, kwargs):
    bounds = [v for k in ("a_min", "a_max", "min", "max") if (v := _given(p, k)) is not None]
    shape = shapes.broadcast(
        shape_of(p["a"]), *(shape_of(b) for b in bounds), what="operands of numpy.clip"
    )
    return [(shape, _std_dtype(np.clip, args, kwargs))]


@rule("round", "around")
def _round(p, args, kwargs):
    return [(shape_of(p["a"]), _std_dtype(np.round, args, kwargs))]


@rule("isclose")
def _isclose(p, args, kwargs):
    return [(shapes.broadcast(shape_of(p["a"]), shape_of(p["b"])), np.dtype(bool))]


@rule("zeros_like", "ones_like", "empty_like", "full_like")
def _like(p, args, kwargs):
    a = p["prototype"] if "prototype" in p else p["a"]  # np.empty_like names it `prototype`
    shape = p.get("shape")
    if shape is None:
        shape = shape_of(a)
    else:
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
    dtype = p.get("dtype")
    if dtype is None:
        dtype = shapes.result_dtype(a)
    return [(shape, np.dtype(dtype))]


@rule("take")
def _take(p, args, kwargs):
    a, indices, axis = p["a"], p["indices"], p.get("axis")
    shape, ind = shape_of(a), shape_of(indices)
    if axis is None:
        out = ind
    else:
        axis = norm_axis(axis, len(shape))
        out = shape[:axis] + ind + shape[axis + 1 :]
    return [(out, shapes.result_dtype(a))]


@rule("sort", "argsort")
def _sort(p, args, kwargs):
    a, axis = p["a"], p.get("axis", -1)
    shape = shape_of(a)
    if axis is None:
        shape = (shapes.size(shape),)
    else:
        norm_axis(axis, len(shape))
    dtype = np.dtype(np.intp) if p["__func__"] is np.argsort else shapes.result_dtype(a)
    return [(shape, dtype)]


@rule("repeat")
def _repeat(p, args, kwargs):
    a, repeats, axis = p["a"], p["repeats"], p.get("axis")
    shape = shape_of(a)
    n = repeats if isinstance(repeats, int) else None
    if axis is None:
        size = shapes.size(shape)
        return [((None if size is None or n is None else size * n,), shapes.result_dtype(a))]
    axis = norm_axis(axis, len(shape))
    d = shape[axis]
    out = shape[:axis] + ((None if d is None or n is None else d * n),) + shape[axis + 1 :]
    return [(out, shapes.result_dtype(a))]


# --- shape and size: Python ints where known, run-time values where not ---------------------


def _shape_rule(func, args, kwargs):
    (a,) = args
    if not isinstance(a, Tensor):
        return np.shape(a)
    return tuple(
        d if d is not None else emit("helper", "dim", _dim, (a, i), {}, [((), np.intp, True)])[0]
        for i, d in enumerate(a.shape)
    )


def _size_rule(func, args, kwargs):
    p = _bind(np.size, args, kwargs)
    a, axis = p["a"], p.get("axis")
    shape = shape_of(a)
    n = shapes.size(shape) if axis is None else shape[norm_axis(axis, len(shape))]
    if n is not None:
        return n
    return emit("helper", "size", _size, args, kwargs, [((), np.intp, True)])[0]


RULES[np.shape] = _shape_rule
RULES[np.size] = _size_rule
if hasattr(np, "ndim"):
    RULES[np.ndim] = lambda func, args, kwargs: len(shape_of(args[0]))


def spec_of(func, args, kwargs) -> list:
    """The `(shape, dtype)` of each output of `func(*args, **kwargs)`; shared rules find the
    function itself in `p["__func__"]`."""
    p = _bind(func, args, kwargs)
    p["__func__"] = func
    return SPECS[func](p, args, kwargs)
