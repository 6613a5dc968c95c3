"""Graph mode: symbolic Tensors, staged control flow and `autoconv.function`.

Importing it registers the backend with `autoconv.runtime.staging`, so converted code stages
`if`/`while`/`for` on Tensors into graph control flow.
"""

# Modules that register themselves with a lower one, which imports them not: Tensor's operations
# (`tensor.uses`: arraylike, mutation, numpy_dispatch, printing) and Graph's views (`graph.views`:
# display, dot, listing). Importing them here makes both complete before any trace.
from autoconv.graph import arraylike as _arraylike  # noqa: F401
from autoconv.graph import display as _display  # noqa: F401
from autoconv.graph import dot as _dot  # noqa: F401
from autoconv.graph import listing as _listing  # noqa: F401
from autoconv.graph import mutation as _mutation  # noqa: F401
from autoconv.graph import numpy_dispatch as _numpy_dispatch  # noqa: F401
from autoconv.graph import printing as _printing  # noqa: F401
from autoconv.graph import random as _random  # noqa: F401 - stages np.random and random calls
from autoconv.graph import staged_calls as _staged_calls
from autoconv.graph import staging as _staging  # noqa: F401 - registers the backend
from autoconv.graph.function import (
    ConcreteFunction,
    Function,
    function,
    functions_run_eagerly,
    run_functions_eagerly,
)
from autoconv.graph.graph import Graph
from autoconv.graph.printing import print  # noqa: A004
from autoconv.graph.signature import TensorSpec
from autoconv.graph.tensor import Tensor
from autoconv.graph.variables import Variable

_staged_calls.register()

__all__ = [
    "ConcreteFunction",
    "Function",
    "Graph",
    "Tensor",
    "TensorSpec",
    "Variable",
    "function",
    "functions_run_eagerly",
    "print",
    "run_functions_eagerly",
]
