"""How autoconv names a place in the user's code in messages, listings, pictures and profiles.

Code typed into an IPython or Jupyter cell is compiled under a file name such as
`/tmp/ipykernel_4711/2817406218.py`, which means nothing to the person who typed it. IPython's
own tracebacks call it `Cell In[12], line 5`: its compiler remembers which execution count each
such file name belongs to and answers `format_code_name(filename)`. We ask the same question of
the running shell, so our locations read like IPython's; elsewhere a location is `file:line`.
"""

from __future__ import annotations

import os
import sys


def cell_label(filename: str) -> str | None:
    """Returns `Cell In[12]` when `filename` is the compiled name of a cell of the running
    IPython shell, else None (no IPython imported, no shell running, or another file)."""
    ipython = sys.modules.get("IPython")  # never import it: only a running shell has cells
    if ipython is None:
        return None
    try:
        shell = ipython.get_ipython()
        named = shell.compile.format_code_name(filename) if shell is not None else None
    except Exception:  # an old or unusual shell without the mapping: plain file names
        return None
    if not named:
        return None
    label, name = named
    return f"{label} {name}"


def describe(filename: str, line: int | None = None, *, short: bool = False) -> str:
    """Returns the user-facing name of `filename` at `line`: `Cell In[12], line 5` for an IPython
    cell, else `file:line` (`short=True`: the file's base name, for listings and pictures)."""
    cell = cell_label(filename)
    if cell is not None:
        return cell if line is None else f"{cell}, line {line}"
    name = os.path.basename(filename) if short and not filename.startswith("<") else filename
    return name if line is None else f"{name}:{line}"


def describe_code(code) -> str:
    """Returns `describe` of where a code object (a function's `__code__`) starts."""
    return describe(code.co_filename, code.co_firstlineno)


def user_frame(skip: tuple, depth: int = 1):
    """The innermost frame, `depth` frames up from the caller and outward, whose file name starts
    with none of `skip` (autoconv's own folder, and the library that called back into it): the
    user's code that asked for the operation. None when there is none."""
    frame = sys._getframe(depth + 1)
    while frame is not None and frame.f_code.co_filename.startswith(skip):
        frame = frame.f_back
    return frame
