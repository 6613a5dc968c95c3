"""`type(v)` of a JAX tracer in converted code (`ac.type`, runtime/py_builtins.py), issue 24.

Python would name JAX's tracer class (`'DynamicJaxprTracer'`). Eager NumPy code holds an
`np.ndarray` where the tracer has one or more dimensions; a 0-d value is a NumPy scalar, a 0-d
array or a Python number eagerly, which the tracer does not tell, so `type()` of it is an
`AutoconvError` naming the line and what to test instead. Graph mode answers from the operation
that made the value (graph/eager_types.py); JAX's trace keeps no such record.
"""

from __future__ import annotations

import jax
import numpy as np

from autoconv.trace.jax import choices, strings
from autoconv.trace.jax.state import JaxStagingError


def type_of(value):
    """`type(value)` as eager NumPy code would give it, for a JAX tracer or a stand-in."""
    if isinstance(value, jax.core.Tracer):
        if np.ndim(value) > 0:
            return np.ndarray
        _refuse(
            f"a traced {value.aval.str_short()}",
            "is a NumPy scalar, a 0-d array or a Python number when the program runs eagerly, "
            "and JAX's tracer does not say which",
        )
    if isinstance(value, choices.Choice):
        kinds = {type(o) for o in value.options}
        if len(kinds) == 1:
            return kinds.pop()
    _refuse(
        f"a {type(value).__name__} of autoconv's JAX client",
        "stands for a value whose type is known only when the program runs",
    )


def _refuse(what: str, why: str):
    where, line = strings.user_line()
    shown = f"`{line}` " if line else ""
    raise JaxStagingError(
        f"{where}: {shown}asks for `type()` of {what}, which {why}. Test what the code needs "
        "instead: `np.ndim(v) == 0`, `v.dtype`, or `isinstance(v, (int, float))` before "
        "`jax.jit`."
    )
