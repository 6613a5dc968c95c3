"""The user's file and line that caused an operation.

Converted code is compiled with the user's own filename and line numbers, so the first frame
outside autoconv (and outside NumPy, which calls back into us from its dispatchers) is the user
code that asked for the operation.
"""

import os
import sys

import numpy as np

import autoconv

_SKIP = (
    os.path.dirname(os.path.abspath(autoconv.__file__)) + os.sep,
    os.path.dirname(os.path.abspath(np.__file__)) + os.sep,
    "<frozen ",
)


def user_origin(depth: int = 1):
    """Returns `(filename, lineno)` of the innermost user frame, or None."""
    frame = sys._getframe(depth)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(_SKIP):
            return (filename, frame.f_lineno)
        frame = frame.f_back
    return None
