"""The graph IR: `Graph` (nodes in blocks), `Tensor` (a node's output, with a static shape and
dtype), `TensorSpec` and `Variable`; its passes (`graph.passes`) and views (listing, dot,
display). Tracing builds graphs (`autoconv.trace`); backends run them (`autoconv.backends`).
"""

# Graph's views register themselves with `graph.views` (graph.py imports them not).
from autoconv.graph import display as _display  # noqa: F401
from autoconv.graph import dot as _dot  # noqa: F401
from autoconv.graph import listing as _listing  # noqa: F401
from autoconv.graph.graph import Graph
from autoconv.graph.signature import TensorSpec
from autoconv.graph.tensor import Tensor
from autoconv.graph.variables import Variable

__all__ = ["Graph", "Tensor", "TensorSpec", "Variable"]
