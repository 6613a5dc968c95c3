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
from autoconv.graph.graph import views as _views


def _graph_as_dict(graph) -> dict:
    from autoconv.functions.saving.encode import graph_as_dict  # only when asked

    return graph_as_dict(graph)


_views.as_dict = _graph_as_dict

__all__ = [
    "ConcreteFunction",
    "Function",
    "function",
    "functions_run_eagerly",
    "run_functions_eagerly",
]
