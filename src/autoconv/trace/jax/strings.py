"""Strings of JAX tracers in converted code (`jax.jit(autoconv.convert(f))`, issue 24).

Under JAX a string cannot hold a value known only when the program runs: Python would format
the tracer itself (`'JitTracer(float64[]) coins left'`), a made-up string. So converted code
formats a tracer in an f-string as a marker (`ac.formatted`, converters/strings.py) that stands
for its run-time value: Python's `print` of such a string (`ac.print`) prints the run-time
values with their format specs (an ordered `jax.debug.callback`); any other use of it
(`ac.text`: returned, stored, joined), and `str()`, `repr()` or `format()` of a tracer, is an
`AutoconvError` naming the user's line and what to write instead.
"""

from __future__ import annotations

import builtins
import linecache
import re

import jax
import numpy as np

from autoconv.graph.helpers import render
from autoconv.locations import describe, user_frame
from autoconv.trace.jax.state import _SKIP, JaxStagingError

_MARK = re.compile("\ue002(\\d+)\ue003")
_PENDING: dict = {}  # marker number -> (tracer, conversion and spec), until a print takes it
_count = [0]


class Deferred:
    """A tracer in an f-string: formats as a marker of its run-time value and spec."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __format__(self, spec):
        return _marker(self.value, spec)

    def __str__(self):
        return _marker(self.value, "!s")

    def __repr__(self):
        return _marker(self.value, "!r")


class Markers:
    """The markers of `%`-formatting and `str.format` of JAX tracers (runtime/formats.py):
    `make(value, spec)` is `value` formatted now, or its tracer's marker; a tracer inside a
    list, tuple or dict is refused."""

    @staticmethod
    def any(values) -> bool:
        from autoconv.runtime.printing import _holds_jax

        return _holds_jax(values)

    @staticmethod
    def make(value, spec: str) -> str:
        if isinstance(value, jax.core.Tracer):
            return _marker(value, spec)
        if type(value) in (list, tuple, dict) and Markers.any((value,)):
            refuse(f"a container holding {shown(jax.tree_util.tree_leaves(value))}")
        return render(((0, spec),), value)


def _marker(value, spec: str) -> str:
    if len(_PENDING) >= 4096:  # strings made and dropped (refused before any print took them)
        _PENDING.clear()
    n = _count[0] = _count[0] + 1
    _PENDING[n] = (value, spec)
    return f"\ue002{n}\ue003"


def marked(value) -> bool:
    """Whether `value` is a string holding markers of tracers (an f-string of one)."""
    return type(value) is str and "\ue002" in value


def user_line() -> tuple:
    """`(file:line, source line)` of the user's statement running now."""
    frame = user_frame(_SKIP)
    if frame is None:
        return "<unknown location>", ""
    where = describe(frame.f_code.co_filename, frame.f_lineno)
    return where, linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()


def refuse(what: str):
    """Raises the error for a string made of a value JAX knows only when the program runs."""
    where, line = user_line()
    shown = f"`{line}` " if line else ""
    raise JaxStagingError(
        f"{where}: {shown}makes a string of {what}, a value JAX knows only when the program "
        "runs: under `jax.jit` (and the other JAX transformations) a Python string cannot "
        "hold it. Return the number and format it outside the JAX function, or print it "
        "(`print(f'... {v}')` and `autoconv.print` print the run-time value)."
    )


def text(s: str):
    """`ac.text(s)` of an f-string holding tracers' markers: refused (see the module)."""
    values = [_PENDING.pop(int(m.group(1)), (None, ""))[0] for m in _MARK.finditer(s)]
    refuse(shown(values))


def shown(values) -> str:
    for v in values:
        aval = getattr(v, "aval", None)
        if aval is not None:
            return f"a traced {aval.str_short()}"
    return "a traced value"


def print_marked(values, kwargs) -> None:
    """Python's `print` of values among which strings hold tracers' markers (and tracers, also
    inside lists, tuples and dicts): printed when the computation runs, in program order."""
    from autoconv.trace.tensors.printing import _swap

    options = dict(sep=" ", end="\n", file=None, flush=False)
    options.update(kwargs)
    traced: list = []

    def slot(v):
        if marked(v):
            pieces, at = [], 0
            for m in _MARK.finditer(v):
                pieces.append(v[at : m.start()])
                value, spec = _PENDING.pop(int(m.group(1)))
                traced.append(value)
                pieces.append((len(traced) - 1, spec))
                at = m.end()
            pieces.append(v[at:])
            return _Text(pieces)
        if isinstance(v, jax.core.Tracer):
            traced.append(v)
            return _Text([(len(traced) - 1, None)])
        return v

    template = _swap(tuple(values), slot)

    def show(*arrays):
        def fill(v):
            return v.made(arrays) if type(v) is _Text else v

        builtins.print(*_swap(template, fill), **options)

    jax.debug.callback(show, *traced, ordered=True)


class _Text:
    """A printed value made when the computation runs: strings and `(index, spec)` pieces (spec
    None: the value itself, as `print` shows it)."""

    __slots__ = ("pieces",)

    def __init__(self, pieces):
        self.pieces = pieces

    def made(self, arrays):
        if len(self.pieces) == 1 and type(self.pieces[0]) is tuple:
            return _plain(arrays[self.pieces[0][0]])
        out = []
        for piece in self.pieces:
            if type(piece) is str:
                out.append(piece)
                continue
            out.append(render(((0, piece[1]),), _plain(arrays[piece[0]])))
        return "".join(out)


def _plain(array):
    """A run-time value as eager NumPy code holds it: a NumPy scalar for a 0-d array."""
    array = np.asarray(array)  # the callback gets JAX arrays, whose repr is not NumPy's
    return array[()] if array.ndim == 0 else array
