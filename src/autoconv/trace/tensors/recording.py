"""`emit`: records one operation in the graph being traced, the step every op rule ends with.

It sits below `numpy_dispatch` (which picks the rule for a NumPy call, operator or method) and
`ops` (the rules for NumPy functions), so both import it and neither imports the other late.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph.errors import StagingError, where
from autoconv.graph.origin import user_origin
from autoconv.graph.tensor import PY_TYPES
from autoconv.trace.tensors import staged_try

# Set by `mutation`, which marks a graph stale when an in-place operator rebinds a Tensor: then
# every later operation checks that its inputs were not changed in place behind its back.
check_live = None


def emit(kind, op, fn, args, kwargs, specs, attrs=None):
    """Records one node in the graph being built and returns its output Tensors."""
    stack = _g._SCOPES.stack  # (`_g.building()` and `_g.current()`, read once)
    if not stack:
        raise StagingError(
            f"{where(user_origin(2))}: a symbolic Tensor was used outside the trace that made "
            "it. Tensors only exist while autoconv.function traces; return them as outputs."
        )
    node = _g.Node(kind, op, fn, args, kwargs, attrs)
    if getattr(stack[-1].graph, "_stale", False):
        check_live(node.inputs)
    _g.add_node(node, specs, user_origin(2))
    return node.outputs


def cast(value, to):
    """`to(value)` of a 0-d Tensor when the graph runs: a Python number (a weak Tensor) for
    bool/int/float/complex, else a NumPy scalar of that type."""
    weak = to in PY_TYPES.values()
    staged = None
    if to is int and value.dtype.kind == "f":
        value, staged = staged_try.int_operand(value)
    out = emit("helper", to.__name__, to, (value,), {}, [((), np.dtype(to), weak)])[0]
    if to is int and value.dtype.kind in "fc":
        may_raise(out)
    if staged:
        staged_try.past(staged)
    return out


def may_raise(out) -> None:
    """Keeps the node of `out` even when nothing reads `out`: it checks the value (`int()` of a
    NaN raises ValueError, of an infinity OverflowError), and eager code raises there whether
    or not it uses the result."""
    out.node.effect = True


def one(outputs):
    """The single output of a node, or the tuple of its outputs."""
    return outputs[0] if len(outputs) == 1 else tuple(outputs)
