"""Algebraic simplification: operations that give back their input unchanged are dropped.

Each rule holds bit for bit, including for -0.0, inf and NaN, so it is applied only where that
is true:

| pattern | applies to |
| --- | --- |
| `x * 1`, `1 * x` | integer and float arrays |
| `x + 0`, `0 + x` | integer arrays; float arrays only for `-0.0` (`-0.0 + 0` is `+0.0`) |
| `x - 0` | integer and float arrays |
| `x / 1` | float arrays |
| `x ** 1` | integer and float arrays |
| `-(-x)` | integer, float and complex arrays |
| a transpose of a transpose | any array: dropped, or one transpose with the composed axes |
| `x.reshape(s)` with `s` the shape of `x` | arrays of fully known shape |
| `x.astype(t)` with `t` the dtype of `x` | any array |

Every rule needs the result to have the dtype and shape of `x`, and at least one dimension (a
0-d result may be a NumPy scalar where `x` is a 0-d array). Where `x` stands for a new array
that the caller receives, the caller still gets a new array (see `rewrite`).
"""

from __future__ import annotations

import math

import numpy as np

from autoconv.graph.graph import Graph, set_args, walk
from autoconv.graph.passes.analysis import Uses, may_stand_for
from autoconv.graph.passes.rewrite import Replacements
from autoconv.graph.tensor import Tensor

NAME = "simplify"
_ARITH_UFUNCS = {
    np.add: "+",
    np.subtract: "-",
    np.multiply: "*",
    np.true_divide: "/",
    np.power: "**",
}


def run(graph: Graph, settings=None) -> int:
    """Simplifies in place; returns how many operations were simplified."""
    uses = Uses(graph)
    repl = Replacements()
    claimed: set = set()
    changed = 0
    for node in walk(graph.block):
        repl.node(node)
        if len(node.outputs) != 1:
            continue
        y = node.outputs[0]
        if y.weak or not y.shape or not uses.count[y.id]:
            continue
        x = None
        for rule in _RULES.get(node.kind, ()):
            x = rule(node)
            if x is not None:
                break
        if x is None:
            if node.kind in _TRANSPOSE_KINDS and _compose_transposes(node, repl, uses):
                changed += 1
            continue
        if not isinstance(x, Tensor) or x.weak or x.dtype != y.dtype or x.shape != y.shape:
            continue
        full = may_stand_for(x, y, uses, claimed, dropping=node)
        if not full and uses.count[y.id] == uses.escapes[y.id]:
            continue  # every use of `y` escapes: nothing to simplify
        if full and uses.escapes[y.id]:
            claimed.add(x.id)
            uses.escapes[x.id] += uses.escapes[y.id]
        uses.readers[x.id].extend(uses.readers[y.id])
        repl.add(y, x, full)
        changed += 1
    repl.apply(graph)
    return changed


# --- operands ---------------------------------------------------------------------------------


def _scalar(v):
    """The value of a scalar operand (a number, a NumPy scalar, a scalar constant), or None."""
    if isinstance(v, Tensor):
        node = v.node
        if node is None or node.kind != "const" or v.shape != ():
            return None
        v = node.attrs.get("value")
    if type(v) in (int, float):
        return v
    if isinstance(v, np.ndarray) and v.shape == ():
        v = v[()]
    if isinstance(v, np.generic) and v.dtype.kind in "iuf":
        return v.item()
    return None


def _is(v, target, kind) -> bool:
    """`v` equals `target` (0 or 1), with a sign check for float zeros: `sign` +1 / -1."""
    if v is None or isinstance(v, bool):
        return False
    if target == "1":
        return v == 1
    if v != 0:
        return False
    if kind == "+0":
        return not (isinstance(v, float) and math.copysign(1.0, v) < 0)
    return isinstance(v, float) and math.copysign(1.0, v) < 0  # "-0"


def _arith(node):
    """`(symbol, a, b)` of a binary arithmetic operation without extra arguments, or None."""
    if node.kind == "binop":
        return node.fn, node.args[0], node.args[1]
    if node.kind == "call" and node.fn in _ARITH_UFUNCS and len(node.args) == 2 and not node.kwargs:
        return _ARITH_UFUNCS[node.fn], node.args[0], node.args[1]
    return None


def _identity_operand(node):
    found = _arith(node)
    if found is None:
        return None
    symbol, a, b = found
    y = node.outputs[0]
    kind = y.dtype.kind
    for x, other, left in ((a, b, False), (b, a, True)):
        if not isinstance(x, Tensor):
            continue
        v = _scalar(other)
        if v is None:
            continue
        if symbol == "*" and kind in "iuf" and _is(v, "1", None):
            return x
        if symbol == "+":
            if kind in "iu" and _is(v, "0", "+0"):
                return x
            if kind == "f" and _is(v, "0", "-0"):
                return x
        if left:
            continue  # 0 - x, 1 / x, 1 ** x are not x
        if symbol == "-" and kind in "iuf" and _is(v, "0", "+0"):
            return x
        if symbol == "/" and kind == "f" and _is(v, "1", None):
            return x
        if symbol == "**" and kind in "iuf" and _is(v, "1", None):
            return x
    return None


def _negation_of(node):
    if node.kind == "unop" and node.fn == "-":
        return node.args[0]
    if node.kind == "call" and node.fn is np.negative and len(node.args) == 1 and not node.kwargs:
        return node.args[0]
    return None


def _double_negation(node):
    inner = _negation_of(node)
    if not isinstance(inner, Tensor) or inner.node is None:
        return None
    x = _negation_of(inner.node)
    if isinstance(x, Tensor) and x.dtype.kind in "iufc":
        return x
    return None


# --- shapes -----------------------------------------------------------------------------------


def _reshape_target(node):
    if node.kind == "method" and node.fn == "reshape":
        shape = node.args[1:]
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return node.args[0], shape
    if node.kind == "call" and node.fn is np.reshape:
        shape = node.args[1] if len(node.args) > 1 else node.kwargs.get("shape")
        if shape is None:
            shape = node.kwargs.get("newshape")
        return node.args[0], shape
    return None, None


def _same_reshape(node):
    x, shape = _reshape_target(node)
    if not isinstance(x, Tensor) or shape is None or None in x.shape or not x.shape:
        return None
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    if not all(type(d) is int or isinstance(d, np.integer) for d in shape):
        return None
    shape = [int(d) for d in shape]
    if shape.count(-1) == 1:
        rest = math.prod(d for d in shape if d != -1)
        if rest == 0:
            return None
        shape[shape.index(-1)] = math.prod(x.shape) // rest
    return x if tuple(shape) == x.shape else None


def _same_astype(node):
    if node.kind == "method" and node.fn == "astype":
        x = node.args[0]
        dtype = node.args[1] if len(node.args) > 1 else node.kwargs.get("dtype")
    elif node.kind == "call" and node.fn is getattr(np, "astype", None):
        x = node.args[0]
        dtype = node.args[1] if len(node.args) > 1 else node.kwargs.get("dtype")
    else:
        return None
    if not isinstance(x, Tensor) or x.weak or dtype is None or isinstance(dtype, Tensor):
        return None
    try:
        same = np.dtype(dtype) == x.dtype
    except TypeError:
        return None
    return x if same else None


# The rules that can apply to each kind of node, in order (the others return None for it).
_RULES = {
    "binop": (_identity_operand,),
    "unop": (_double_negation,),
    "call": (_identity_operand, _double_negation, _same_reshape, _same_astype),
    "method": (_same_reshape, _same_astype),
}
_TRANSPOSE_KINDS = ("attr", "method", "call")


def _transpose_of(node):
    """`(x, perm)` when the node transposes `x` by `perm` (result axis i is axis perm[i])."""
    kind = node.kind
    if kind == "attr" and node.fn == "T":
        x = node.args[0]
        axes = None
    elif kind == "method" and node.fn == "transpose":
        x = node.args[0]
        axes = tuple(node.args[1:]) or None
    elif kind == "call" and node.fn is np.transpose:
        x = node.args[0]
        axes = node.args[1] if len(node.args) > 1 else node.kwargs.get("axes")
    else:
        return None
    if not isinstance(x, Tensor):
        return None
    n = len(x.shape)
    if axes is None:
        return x, tuple(range(n - 1, -1, -1))
    if not all(type(a) is int for a in axes) or len(axes) != n:
        return None
    return x, tuple(a % n for a in axes)


def _compose_transposes(node, repl, uses) -> bool:
    outer = _transpose_of(node)
    if outer is None:
        return False
    z, q = outer
    if z.node is None:
        return False
    inner = _transpose_of(z.node)
    if inner is None:
        return False
    x, p = inner
    perm = tuple(p[i] for i in q)
    y = node.outputs[0]
    if perm == tuple(range(len(perm))):
        if (
            x.dtype == y.dtype
            and x.shape == y.shape
            and not x.weak
            and uses.count[y.id] > uses.escapes[y.id]
        ):
            repl.add(y, x, False)  # the caller still gets a view, as eagerly
            return True
        return False
    node.kind = "call"
    node.op = "transpose"
    node.fn = np.transpose
    set_args(node, (x, perm), {})
    return True
