"""The user's file and line that caused an operation.

Converted code is compiled with the user's own filename and line numbers, so the first frame
outside autoconv (and outside NumPy, which calls back into us from its dispatchers) is the user
code that asked for the operation.
"""

import contextlib
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
    # `user_frame(_SKIP, depth)`, with each file's verdict kept: every traced operation asks.
    frame = sys._getframe(depth)
    while frame is not None:
        code = frame.f_code
        filename = code.co_filename
        ours = _OURS.get(filename)
        if ours is None:
            if len(_OURS) >= 4096:
                _OURS.clear()
                _ORIGINS.clear()
                _AT.clear()
            ours = _OURS[filename] = filename.startswith(_SKIP)
        if ours:
            if _PINNED:
                to = _PINNED.get(frame)
                if to is not None:
                    frame = to  # (see `pinned`)
                    continue
            frame = frame.f_back
            continue
        # By the instruction: `f_lineno` decodes the code's line table from its start
        # (about 1 us in a converted loop body), the same answer at every step of a loop.
        # (The entry holds the code object, so its id is not reused while there.)
        at = (id(code), frame.f_lasti)
        found = _AT.get(at)
        if found is not None and found[0] is code:
            return found[1]
        # One tuple per line, shared by the operations recorded there (a loop's steps).
        lines = _ORIGINS.get(filename)
        if lines is None:
            lines = _ORIGINS[filename] = {}
        line = frame.f_lineno
        origin = lines.get(line)
        if origin is None:
            if len(lines) >= 4096:
                lines.clear()
            origin = lines[line] = (filename, line)
        if len(_AT) >= 4096:
            _AT.clear()
        _AT[at] = (code, origin)
        return origin
    return None


def user_frame(frame):
    """The innermost frame from `frame` outward that is outside autoconv and NumPy, or None."""
    while frame is not None and frame.f_code.co_filename.startswith(_SKIP):
        if _PINNED:
            to = _PINNED.get(frame)
            if to is not None:
                return to
        frame = frame.f_back
    return frame


@contextlib.contextmanager
def pinned(frame):
    """While `frame` (one of ours) runs, a walk out to the user's frame that reaches it
    continues at the user frame found from it once: the same frame the walk would reach (the
    frames between are suspended in calls), found without walking them again.

    A staged `break` nests the rest of a Python `range` loop in an `if` per step, called after
    the step's own frame has returned: without this an origin asked at depth d walked about 5d
    of our frames down to the user's function, quadratic in the steps (k-means' 50)."""
    found = user_frame(frame.f_back)
    if found is None:
        yield
        return
    _PINNED[frame] = found
    try:
        yield
    finally:
        _PINNED.pop(frame, None)


_OURS: dict = {}  # file name -> whether it is autoconv's or NumPy's (`_SKIP`)
_ORIGINS: dict = {}  # file name -> {line: (file name, line)}
_AT: dict = {}  # (id of a user code object, instruction offset) -> (that code, its origin)
_PINNED: dict = {}  # a frame of ours, while it runs -> the user's frame a walk from it reaches


class SavedOrigin(tuple):
    """An origin read from a saved file: `(path, line)` as text, with the user's source line
    as it was when the file was saved (`text`). It names a place for messages; the path is
    never opened (a file's path could name any file on the loading machine, a FIFO or a
    device)."""

    text: str

    def __new__(cls, path: str, line: int, text: str = ""):
        self = super().__new__(cls, (path, line))
        self.text = text
        return self


def source_text(origin) -> str:
    """The user's source line at `origin`, stripped, or '' when unknown: a saved origin's stored
    text, else the line of the user's own file (from linecache, as tracebacks read it)."""
    if origin is None:
        return ""
    if isinstance(origin, SavedOrigin):
        return origin.text
    import linecache

    return linecache.getline(origin[0], origin[1]).strip()
