"""What Python type a Tensor's value has when the graph runs, as eager NumPy would give it.

A Tensor of one or more dimensions is an `ndarray`; a weak Tensor is a Python `bool`, `int`,
`float` or `complex`. A 0-d Tensor is either a NumPy scalar (`np.float64`, the result of
`np.sum`, `x[0]`, `a + b` on scalars) or a 0-d `ndarray` (`np.asarray(3.0)`, `x[...]`, a
Variable's value). Which one follows from the operation that made it: `eager_type` replays the
operation on stand-ins that have the right kinds (a NumPy scalar, a 0-d array, an array of the
same rank) and looks at the type of the result, exactly as eager NumPy decides it. The answer is
None where it depends on the path taken at run time (a branch yielding a scalar or an array).
"""

from __future__ import annotations

import warnings

import numpy as np

from autoconv.graph.operators import BINARY_OPERATORS, UNARY_OPERATORS
from autoconv.graph.tensor import PY_TYPES, Tensor

_UNKNOWN = object()
_STANDIN = {"b": True, "i": 1, "u": 1, "f": 1.0, "c": 1.0 + 0j}


def eager_type(t: Tensor):
    """The type of `t`'s run-time value (`np.ndarray`, a NumPy scalar type, or a Python number
    type for a weak Tensor), or None when it is only known at run time."""
    cached = getattr(t, "_etype", _UNKNOWN)
    if cached is not _UNKNOWN:
        return cached
    found = _infer(t)
    try:
        t._etype = found
    except AttributeError:  # a Tensor made without the slot (never expected)
        pass
    return found


def _infer(t: Tensor):
    if t.weak:
        return PY_TYPES.get(t.dtype.kind)
    if len(t._shape) > 0:
        return np.ndarray
    node = t.node
    if node is None:
        return None
    kind = node.kind
    if kind == "placeholder":
        scalar = node.attrs.get("scalar")
        return None if scalar is None else (t.dtype.type if scalar else np.ndarray)
    if kind == "const":
        return type(node.attrs.get("value"))
    if kind == "read":
        return np.ndarray  # a Variable keeps its value as an array
    if kind in ("cond", "while"):
        return _merged(t, node)
    if "random" in node.attrs:
        # Replaying a draw would draw: trace/tensors/random.py notes whether `size=` was given.
        return np.ndarray if node.attrs.get("sized") else t.dtype.type
    if kind in ("call", "helper", "binop", "unop", "method", "attr", "getitem"):
        return _replayed(t, node)
    return None


def _merged(t, node):
    """A branch or loop result: the type every path gives it, if they agree."""
    values = []
    if node.kind == "cond":
        values = [b.outputs[t.index] for b in node.blocks if t.index < len(b.outputs)]
    else:
        body = node.blocks[1] if len(node.blocks) > 1 else None
        if t.index < len(node.args):
            values.append(node.args[t.index])
        if body is not None and t.index < len(body.outputs):
            values.append(body.outputs[t.index])
    found = {_type_of(v) for v in values}
    return found.pop() if len(found) == 1 else None


def _type_of(v):
    return eager_type(v) if isinstance(v, Tensor) else type(v)


def _replayed(t, node):
    """Runs the node's operation on stand-ins of its operands' kinds. Operands whose kind is
    unknown are tried both ways; the answer stands only if both agree."""
    unknown = any(eager_type(x) is None for x in node.inputs)
    guesses = (np.ndarray, "scalar") if unknown else (None,)
    answers = {_replay(t, node, guess) for guess in guesses}
    answers.discard(_FAILED)
    return answers.pop() if len(answers) == 1 else None


_FAILED = object()


def _standin(x, guess, sized=False):
    """A value of `x`'s kind: all sizes 1, or (`sized`, for indexing) the static sizes, as a
    broadcast view that holds one element."""
    if not isinstance(x, Tensor):
        return x
    kind = eager_type(x)
    if kind is None:
        kind = np.ndarray if guess is np.ndarray else x.dtype.type
    if x.weak or kind in (bool, int, float, complex):
        if sized and x.dtype.kind in "iu":
            return 0  # an index: in range of any axis that has an item (1 is not, of size 1)
        return _STANDIN.get(x.dtype.kind, 1)
    fill = 0 if x.dtype.kind in "iub" else 1
    if kind is np.ndarray:
        if sized and x._shape:
            shape = tuple(1 if d is None else d for d in x._shape)
            return np.broadcast_to(np.full((), fill, x.dtype), shape)
        return np.full((1,) * len(x._shape), fill, x.dtype)
    return x.dtype.type(fill)


def _replay(t, node, guess):
    sized = node.kind == "getitem"

    def sub(v):
        from autoconv.graph.graph import map_tensors

        return map_tensors(v, lambda x: _standin(x, guess, sized))

    args, kwargs = sub(node.args), sub(node.kwargs)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            kind = node.kind
            if kind in ("call", "helper"):
                result = node.fn(*args, **kwargs)
            elif kind == "binop":
                result = BINARY_OPERATORS[node.fn](*args)
            elif kind == "unop":
                result = UNARY_OPERATORS[node.fn](args[0])
            elif kind == "method":
                result = getattr(args[0], node.fn)(*args[1:], **kwargs)
            elif kind == "attr":
                result = getattr(args[0], node.fn)
            else:  # getitem
                result = args[0][args[1]]
    except Exception:
        return _FAILED
    if len(node.outputs) > 1 or type(result) is tuple and node.kind in ("call", "method"):
        try:
            result = result[t.index]
        except Exception:
            return _FAILED
    return type(result)
