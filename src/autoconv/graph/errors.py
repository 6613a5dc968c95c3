"""Errors and warnings of the graph backend.

Every error names the construct, the user's file and line, and what to do next.
"""

import os
import warnings

from autoconv.errors import (
    AutoconvError,
    StagingError,  # noqa: F401 - one class for every tracer
)
from autoconv.locations import cell_label, describe


class GraphExecutionError(AutoconvError):
    """An operation failed while a traced graph ran.

    The raised exception also derives from the type of the original error (e.g. `ValueError`),
    so `except ValueError` keeps working; its message starts with the user's file and line.
    """


class RetracingWarning(UserWarning):
    """An `autoconv.function` is traced again and again (more than 5 times), or has more
    signatures than its `max_traces` and drops graphs, or is made anew and traced at the same
    line again and again (in a loop); attributed to the user's line."""


class TraceEffectWarning(UserWarning):
    """Python code in a traced function has an effect that happens only while tracing, never
    when the graph runs: Python's `print` of values known while tracing, outside staged
    branches and loops (other prints are staged), or a change to a global or closure-held list,
    dict or set. Given once per trace, at the user's line, with what to write instead."""


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def raised_by_autoconv(e: BaseException) -> bool:
    """Whether the innermost frame of `e`'s traceback is in autoconv's own source (true when
    there is no traceback to tell)."""
    tb = e.__traceback__
    if tb is None:
        return True
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code.co_filename.startswith(_PACKAGE)


_COMBINED: dict = {}


def execution_error(exc: BaseException, message: str) -> BaseException:
    """A GraphExecutionError that is also of `exc`'s type (so `except ValueError` still
    catches it), with `message` and `exc` as its cause."""
    cls = type(exc)
    made = _COMBINED.get(cls)
    if made is None:
        made = _COMBINED[cls] = type(
            cls.__name__, (cls, GraphExecutionError), {"__module__": cls.__module__}
        )
    try:
        new = made(message)
    except Exception:  # a type whose constructor wants other arguments
        new = GraphExecutionError(message)
    new.__cause__ = exc
    return new


def where(origin) -> str:
    """`file:line` (`Cell In[3], line 5` in IPython) of an origin tuple, or a placeholder when
    it is unknown."""
    if origin is None:
        return "<unknown location>"
    return describe(origin[0], origin[1])


def warn_at(message: str, category, filename: str, line: int, module_globals: dict) -> None:
    """Warns as if from `filename:line` of the module whose globals are `module_globals`
    (its registry, so the default filter shows it once per line; its loader, so notebooks
    find the source line)."""
    # `warn_explicit` drops a warning whose module is None: code exec'd in a namespace with
    # no `__name__` still gets one, from its file name (as `warnings.warn` does).
    module = module_globals.get("__name__") or os.path.splitext(os.path.basename(filename))[0]
    cell = cell_label(filename)
    if cell is not None and cell not in str(message):
        # Python shows the cell's compiled file name (`ipykernel_<pid>/<hash>.py:6`); say
        # which cell it is, as IPython's tracebacks and our errors do.
        message = f"{describe(filename, line)}: {message}"
    warnings.warn_explicit(
        message,
        category,
        filename,
        line,
        module=module,
        registry=module_globals.setdefault("__warningregistry__", {}),
        module_globals=module_globals,
    )
