"""The tracer of autoconv's symbolic Tensors: NumPy calls, operators, indexing and methods on
them record graph nodes; staged `if`/`while`/`for` become `cond` and `while` nodes.

Importing it makes Tensors complete and registers the tracer with `autoconv.runtime.staging`.
"""

# Modules that register themselves with a lower one, which imports them not: Tensor's operations
# (`tensor.uses`: arraylike, mutation, numpy_dispatch, printing), the staged forms of calls that
# need values (staged_calls), np.random and random (random) and the tracer (staging).
import autoconv.graph  # noqa: F401 - the IR and its views
from autoconv.trace.tensors import arraylike as _arraylike  # noqa: F401
from autoconv.trace.tensors import mutation as _mutation  # noqa: F401
from autoconv.trace.tensors import numpy_dispatch as _numpy_dispatch  # noqa: F401
from autoconv.trace.tensors import printing as _printing  # noqa: F401
from autoconv.trace.tensors import random as _random  # noqa: F401
from autoconv.trace.tensors import staged_calls as _staged_calls
from autoconv.trace.tensors import tracer as _tracer  # noqa: F401

_staged_calls.register()
