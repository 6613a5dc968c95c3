"""Errors and warnings of the graph backend.

Every error names the construct, the user's file and line, and what to do next.
"""

from autoconv.errors import AutoconvError
from autoconv.locations import describe


class StagingError(AutoconvError):
    """Control flow or a value could not be staged into a graph while tracing."""


class GraphExecutionError(AutoconvError):
    """An operation failed while a traced graph ran.

    The raised exception also derives from the type of the original error (e.g. `ValueError`),
    so `except ValueError` keeps working; its message starts with the user's file and line.
    """


class RetracingWarning(UserWarning):
    """An `autoconv.function` is traced again and again (more than 5 times), or has more
    signatures than its `max_traces` and drops graphs; attributed to the caller's line."""


def where(origin) -> str:
    """`file:line` (`Cell In[3], line 5` in IPython) of an origin tuple, or a placeholder when
    it is unknown."""
    if origin is None:
        return "<unknown location>"
    return describe(origin[0], origin[1])
