"""The runtime operators on JAX tracers: converted code under `jax.jit`, `jax.grad`, `jax.vmap`.

This package is a tracer of `autoconv.runtime.staging` (its functions are the protocol listed
there): the operators in `autoconv.runtime` come here when a condition, an iterable or an
operand is a JAX tracer or a stand-in of ours (`Maybe`, `Iteration`), which `staging` claims
for this package without importing it; it is imported the first time that happens. `if` and
conditional expressions stage to `lax.cond`, loops to `lax.while_loop` or `lax.scan` (see
`loops`), and the logical operators to `lax.cond` on the path that needs their second operand.
"""

from autoconv.trace.jax.cond import if_exp, if_stmt
from autoconv.trace.jax.frames import hide_from_jax_tracebacks, outermost
from autoconv.trace.jax.iterables import enumerate, len, range, zip
from autoconv.trace.jax.keyed import item as keyed_item
from autoconv.trace.jax.keyed import setitem as keyed_setitem
from autoconv.trace.jax.logical import and_, not_, or_
from autoconv.trace.jax.loops import for_rest, for_stmt, while_rest, while_stmt
from autoconv.trace.jax.plain import (
    extreme,
    item_op,
    mark,
    masked_item,
    math_call,
    np_round,
    sequence_item,
    setitem,
)
from autoconv.trace.jax.plain import np_round as round  # noqa: A004 - `ac.round(t, d)`
from autoconv.trace.jax.state import JaxStagingError, in_staged_block
from autoconv.trace.jax.tracing import assert_, is_none, is_same, tracing

hide_from_jax_tracebacks()
# The statements that run user code: an error leaving them shows the user's frames only.
if_stmt, if_exp, and_, or_ = map(outermost, (if_stmt, if_exp, and_, or_))
for_stmt, for_rest, while_stmt, while_rest = map(
    outermost, (for_stmt, for_rest, while_stmt, while_rest)
)

__all__ = [
    "JaxStagingError",
    "and_",
    "assert_",
    "enumerate",
    "extreme",
    "for_rest",
    "for_stmt",
    "if_exp",
    "if_stmt",
    "in_staged_block",
    "is_none",
    "is_same",
    "item_op",
    "keyed_item",
    "keyed_setitem",
    "len",
    "mark",
    "masked_item",
    "math_call",
    "np_round",
    "not_",
    "or_",
    "range",
    "round",
    "sequence_item",
    "setitem",
    "tracing",
    "while_rest",
    "while_stmt",
    "zip",
]
