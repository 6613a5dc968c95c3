"""NumPy calls that change an array in place, on a local name (converters/inplace_calls.py
makes each a statement that rebinds the name: `d = ac.inplace_call(np, 'fill_diagonal', d, 0)`).

While a graph is traced, where a Tensor or a staged generator is involved, the name gets the
array the call leaves behind, written as an item assignment of the whole array (or of the items
the call writes): `mutation.assign_item` checks, as for `d[i] = v`, that nothing else (another
name, a view, the caller) sees the array, and raises a clear error otherwise.

    np.fill_diagonal(d, v)   d[rows, cols] = v (the diagonal's indices, known from the shape)
    np.copyto(dst, src)      dst[...] = src (NumPy's `casting=` rule checked while tracing)
    rng.shuffle(x)           x[...] = rng.permutation(x): the same draws from the generator
    a.sort(axis, kind)       a[...] = np.sort(a, axis, kind)
    a.fill(v)                a[...] = v
    np.add.at(a, i, v)       a[...] = a copy with `np.add.at` applied (graph.helpers.ufunc_at)

Anything else runs as written.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph.helpers import ufunc_at
from autoconv.graph.tensor import Tensor
from autoconv.trace.tensors import mutation, random
from autoconv.trace.tensors.numpy_dispatch import operand
from autoconv.trace.tensors.recording import emit
from autoconv.trace.tensors.user_code import fail, source_line, user_frame

_GENERATORS = (np.random.Generator, np.random.RandomState)


def call(owner, name, target, args, kwargs):
    """`owner.name(target, *args, **kwargs)` (`owner` None: `target.name(*args, **kwargs)`);
    gives what `target`'s name holds afterwards."""
    target = operand(target)
    args = tuple(operand(a) for a in args)
    kwargs = {k: operand(v) for k, v in kwargs.items()}
    rule = _rule(owner, name, target)
    staged = rule is not None and (
        isinstance(target, Tensor)
        or _g.tensors_in((args, kwargs))
        or isinstance(owner, random.StagedRandom)
        or (isinstance(target, np.ndarray) and len(_g._SCOPES.stack) > 1)
    )
    if not staged:
        from autoconv.runtime.calls import converted  # (a user's own method is converted)

        if owner is None:
            converted(getattr(target, name))(*args, **kwargs)
        else:
            converted(getattr(owner, name))(target, *args, **kwargs)
        return target
    return rule(owner, target, *args, **kwargs)


def _name(method: str):
    """The name the in-place call on the user's line changes (`d` in `np.fill_diagonal(d, 0)`,
    `a` in `a.sort()`), for messages and for telling that name from others holding the array."""
    import ast

    try:
        tree = ast.parse(source_line(user_frame()).strip())
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr != method:
                continue
            if method in _METHODS and isinstance(node.func.value, ast.Name):
                return node.func.value.id
            if node.args and isinstance(node.args[0], ast.Name):
                return node.args[0].id
    return None


def _write(method, target, key, value):
    return mutation.assign_item(target, key, value, name=_name(method))


def _rule(owner, name, target):
    if not isinstance(target, (Tensor, np.ndarray)):
        return None
    if owner is None:
        return _METHODS.get(name)
    if owner is np and name in _FUNCTIONS:
        return _FUNCTIONS[name]
    if name == "at" and isinstance(owner, np.ufunc):
        return _ufunc_at
    if name == "shuffle" and _generator(owner):
        return _shuffle
    return None


def _generator(owner) -> bool:
    if isinstance(owner, random.StagedRandom):
        return owner.family in ("generator", "legacy")
    return isinstance(owner, _GENERATORS) or owner is np.random


def _static_shape(target, what):
    shape = tuple(target.shape)
    if None in shape:
        fail(
            user_frame(),
            f"`{source_line(user_frame())}`: {what} of an array whose shape is known only when "
            "the graph runs is not supported in graph mode; give it an array of a shape known "
            "while tracing",
        )
    return shape


def _fill_diagonal(owner, a, val, wrap=False):
    shape = _static_shape(a, "np.fill_diagonal")
    if len(shape) < 2:
        fail(user_frame(), "np.fill_diagonal: array must be at least 2-d", ValueError)
    if len(shape) == 2:
        step = shape[1] + 1
        end = None if wrap else shape[1] * shape[1]
    else:
        if len(set(shape)) != 1:
            fail(
                user_frame(),
                "np.fill_diagonal: All dimensions of input must be of equal length",
                ValueError,
            )
        step = 1 + int(np.cumprod(shape[:-1]).sum())
        end = None
    flat = np.arange(int(np.prod(shape)))[:end:step]
    key = tuple(np.unravel_index(flat, shape))
    if isinstance(val, Tensor) and val.shape or np.ndim(val) > 0:
        # `a.flat[...] = val` repeats (or cuts) the values to the number of items written.
        val = np.resize(np.ravel(val), len(flat))
    return _write("fill_diagonal", a, key, val)


def _copyto(owner, dst, src, casting="same_kind", where=True):
    dtype = shapes.result_dtype(src)
    if not np.can_cast(dtype, dst.dtype, casting):
        fail(
            user_frame(),
            f"np.copyto: Cannot cast array data from dtype('{dtype}') to dtype('{dst.dtype}') "
            f"according to the rule '{casting}' (eager NumPy raises this too)",
            TypeError,
        )
    if where is not True:
        src = np.where(where, src, dst)
    return _write("copyto", dst, Ellipsis, src)


def _shuffle(owner, x, axis=0):
    if isinstance(owner, random.StagedRandom):
        permutation = owner.permutation
    else:
        permutation = random.stage(owner.permutation)
    # `shuffle` and `permutation` make the same draws (Fisher-Yates over the axis) and leave
    # the generator in the same state; a RandomState's takes no axis.
    shuffled = permutation(x) if axis == 0 else permutation(x, axis=axis)
    return _write("shuffle", x, Ellipsis, shuffled)


def _ufunc_at(ufunc, a, indices, b=None):
    """`np.add.at(a, indices, b)`: unbuffered, so repeated indices add up."""
    name = ufunc.__name__
    if b is None or ufunc.nin != 2:
        fail(user_frame(), f"np.{name}.at: graph mode stages binary ufuncs' `at` with a value")
    if type(indices) is list and not _g.tensors_in(indices):
        indices = np.asarray(indices)
    if not (
        isinstance(indices, (Tensor, np.ndarray, int, np.integer))
        and shapes.result_dtype(indices).kind in "iu"
    ):
        fail(
            user_frame(),
            f"np.{name}.at in graph mode takes one integer index or index array (along the "
            "first axis); for several axes write a loop of item assignments",
        )
    dtype = shapes.result_dtype(b)
    if not np.can_cast(dtype, a.dtype, "same_kind"):
        fail(
            user_frame(),
            f"np.{name}.at: Cannot cast ufunc '{name}' output from dtype('{dtype}') to "
            f"dtype('{a.dtype}') with casting rule 'same_kind' (eager NumPy raises this too)",
            TypeError,
        )
    spec = [(tuple(a.shape), a.dtype)]
    new = emit("helper", f"{name}.at", ufunc_at, (a, indices, b, name), {}, spec)[0]
    return _write("at", a, Ellipsis, new)


def _sort(owner, a, axis=-1, kind=None, order=None):
    if order is not None:
        fail(user_frame(), "a.sort(order=...) sorts structured arrays, which graphs do not hold")
    return _write("sort", a, Ellipsis, np.sort(a, axis=axis, kind=kind))


def _fill(owner, a, value):
    return _write("fill", a, Ellipsis, value)


_FUNCTIONS = {"fill_diagonal": _fill_diagonal, "copyto": _copyto}
_METHODS = {"sort": _sort, "fill": _fill}
