"""Library code that needs the exact value of a number known only when the graph runs.

`statistics.mean(x.tolist())`, `fractions.Fraction(v)`: the standard library computes exactly,
asking each number for `as_integer_ratio()`; a Tensor has no value while tracing. The error
names the user's call and says what to write (NumPy's forms, which are staged).
"""

from __future__ import annotations

import os
import sys

from autoconv.graph.errors import StagingError, where
from autoconv.trace.tensors.user_code import source_line

_STDLIB = os.path.dirname(os.path.abspath(os.__file__)) + os.sep


def exact_ratio(t) -> None:
    """`t.as_integer_ratio()` while tracing: a StagingError at the user's call of the library."""
    library_needs_value("computes with its exact value (`as_integer_ratio()`)")


def in_library(frame) -> bool:
    """Whether `frame` runs the standard library's Python code (`statistics`)."""
    return frame is not None and frame.f_code.co_filename.startswith(_STDLIB)


def library_needs_value(what: str) -> None:
    """A StagingError at the user's line that called standard-library code which `what` (needs
    the value of a number known only when the graph runs)."""
    from autoconv.conversion.library import generated_codes

    frame = sys._getframe(2)
    library = None
    while frame is not None and id(frame.f_code) not in generated_codes:
        if library is None and frame.f_code.co_filename.startswith(_STDLIB):
            library = os.path.basename(frame.f_code.co_filename).removesuffix(".py")
        frame = frame.f_back
    origin = None if frame is None else (frame.f_code.co_filename, frame.f_lineno)
    line = source_line(frame)
    gives = f"`{line}` gives" if line else "this gives"
    by = f"`{library}`" if library else "library code"
    raise StagingError(
        f"{where(origin)}: {gives} a number known only when the graph runs to {by}, which "
        f"{what}, needed while tracing. Use "
        "NumPy's forms, which are staged: np.mean, np.median, np.std(..., ddof=1), np.var "
        "of np.array(values) (`float(...)` of the result for a Python float)."
    )
