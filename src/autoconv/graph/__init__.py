"""The NumPy graph backend: symbolic Tensors, staged control flow and `autoconv.function`.

Importing it registers the backend with `autoconv.runtime.staging`, so converted code stages
`if`/`while`/`for` on Tensors into graph control flow.
"""

# Tensor's operations: each of these registers itself with `tensor.uses` (see tensor.py).
from autoconv.graph import arraylike as _arraylike  # noqa: F401
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
