"""Graph mode's API: `autoconv.function` (`Function`, `ConcreteFunction`), the write-backs of
changed arguments, profiles, and saving and loading graphs (`functions.saving`)."""

import autoconv.trace.tensors  # noqa: F401 - Tensors complete, the tracer registered
from autoconv.functions.function import (
    ConcreteFunction,
    Function,
    function,
    functions_run_eagerly,
    run_functions_eagerly,
)

__all__ = [
    "ConcreteFunction",
    "Function",
    "function",
    "functions_run_eagerly",
    "run_functions_eagerly",
]
