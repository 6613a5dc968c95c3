"""What a staged `for` iterates: a Tensor's rows, Python ranges and sequences, staged
`range`, `enumerate` and `zip`.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph.errors import StagingError, execution_error, where
from autoconv.graph.helpers import range_bound
from autoconv.graph.origin import user_origin
from autoconv.graph.tensor import PY_TYPES, Tensor
from autoconv.runtime import staging as rt
from autoconv.trace.tensors.leaves import (
    _cast,
    _const,
    _numeric,
    _rebuild,
    _struct,
    _weak,
    grown_len,
)
from autoconv.trace.tensors.optionals import Optional, raise_node
from autoconv.trace.tensors.recording import emit


def _length(t):
    if isinstance(t, Tensor):
        if not t.shape:
            shapes.fail(f"iteration over a 0-d Tensor ({t!r})")
        n = t.shape[0]
        return n if n is not None else np.shape(t)[0]
    return len(t)


class _Source:
    def length(self):
        raise NotImplementedError

    def item(self, i):
        raise NotImplementedError


class _TensorSource(_Source):
    def __init__(self, t):
        self.t = t

    def length(self):
        return _length(self.t)

    def item(self, i):
        return self.t[i]


class _PyRangeSource(_Source):
    """A Python `range` iterated by a staged loop: items are Python ints (weak int Tensors)."""

    def __init__(self, r):
        self.r = r

    def length(self):
        return len(self.r)

    def item(self, i):
        start, step = self.r.start, self.r.step
        if step != 1:
            i = i * step
        return i + start if start else i


class _Settled(_PyRangeSource):
    """The steps left of a Python `range` loop whose state settled (`runtime.pure_steps`):
    each item is the one `Index` of them, which answers only comparisons alike for all."""

    def __init__(self, r, index):
        self.r, self.index = r, index

    def item(self, i):
        return self.index


def _weak_item(value):
    """`value` as the Python number kind eager iteration would give (a weak Tensor)."""
    if isinstance(value, Tensor) and not value.weak:
        return _cast(value, PY_TYPES[value.dtype.kind])
    return value


class _StackedSource(_Source):
    """The items of a Python sequence of arrays and numbers (all alike), stacked per leaf."""

    def __init__(self, items, origin):
        self.structs, columns = None, []
        for item in items:
            leaves = []
            struct = _struct(item, leaves)
            if self.structs is None:
                self.structs = struct
                columns = [[] for _ in leaves]
            elif struct != self.structs:
                raise StagingError(
                    f"{where(origin)}: this loop meets a Tensor condition and must be staged, "
                    "but its items do not all have the same structure, so they cannot be "
                    "iterated by a staged loop. Iterate over an array (or a range) instead."
                )
            for column, leaf in zip(columns, leaves):
                column.append(leaf)
        self.n = len(items)
        self.columns = []
        for column in columns:
            if not all(_numeric(v) for v in column):
                raise StagingError(
                    f"{where(origin)}: this loop meets a Tensor condition and must be staged, "
                    "but its items are not all arrays or numbers. Iterate over an array (or "
                    "a range) instead."
                )
            weak = all(_weak(v) for v in column)
            stacked = np.stack(column) if _g.tensors_in(column) else _const_stack(column)
            self.columns.append((stacked, weak))

    def length(self):
        return self.n

    def item(self, i):
        leaves = [_weak_item(t[i]) if weak else t[i] for t, weak in self.columns]
        return _rebuild(self.structs, leaves)


class _GrownSource(_Source):
    """The items of a list that a staged statement appended to, read by index when the graph
    runs (`for loss in losses` after a loop with a data-dependent `break`)."""

    def __init__(self, lst):
        self.lst = lst

    def length(self):
        return grown_len(self.lst)

    def item(self, i):
        from autoconv.trace.tensors.accumulated import list_item

        return list_item(self.lst, i)


def _const_stack(column):
    array = np.asarray(column)
    return _const(array, array.dtype)


def _remaining(iterable, items, item, origin):
    """The items a Python loop has not reached yet, as a staged source (None if none)."""
    if type(iterable) is range:
        r = iterable
        rest = range(item + r.step, r.stop, r.step)
        return _PyRangeSource(rest) if len(rest) else None
    rest = list(items)
    return _StackedSource(rest, origin) if rest else None


def _int_by_path(arg):
    """A range() bound that is a Python int on some paths and a float on others (`c += t` in a
    loop that may not run): an int when the graph runs, eager's TypeError on the float paths."""
    kinds = getattr(arg, "py_kinds", None)
    if type(arg) is not Tensor or arg.dtype.kind in "biu" or kinds is None or int not in kinds[1]:
        return arg
    tag, options, _ = kinds
    out = [((), np.dtype(np.int64), True)]
    return emit("helper", "range_bound", range_bound, (arg, tag, options), {}, out)[0]


class StagedRange(_Source):
    """`range(...)` with a symbolic bound; iterated by a staged `for` loop."""

    def __init__(self, *args):
        if not 1 <= len(args) <= 3:
            raise TypeError(f"range expected 1 to 3 arguments, got {len(args)}")
        args = tuple(_int_by_path(a) for a in args)
        checked = []
        for arg in args:
            value = arg.value if isinstance(arg, Optional) else arg
            if isinstance(value, Tensor) and (value.dtype.kind not in "biu" or value.shape):
                # As eagerly (`range(np.mean(x))`): the type is known now, the value is not.
                # Raised where this code runs (the data may never reach it), as eagerly; the
                # loop after it never runs.
                kind = "float" if value.weak else f"numpy.{value.dtype.name}"
                text = (
                    f"'{kind}' object cannot be interpreted as an integer"
                    if not value.shape
                    else "only integer scalar arrays can be converted to a scalar index"
                )
                origin = user_origin(3)
                advice = f"{text} (eager Python raises this TypeError too): give range() an int"
                raise_node(execution_error(TypeError(text), f"{where(origin)}: {advice}"), origin)
                arg = 0
            checked.append(arg)
        args = tuple(checked)
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
        if isinstance(step, (int, np.integer)) and step == 0:
            raise ValueError("range() arg 3 must not be zero")
        self.start, self.stop, self.step = start, stop, step

    def length(self):
        start, stop, step = self.start, self.stop, self.step
        if isinstance(step, Tensor):
            up = np.maximum((stop - start + step - 1) // step, 0)
            down = np.maximum((start - stop - step - 1) // (-step), 0)
            return np.where(step > 0, up, down)
        if step > 0:
            span = stop if _is_int(start, 0) else stop - start
            if not _is_int(step, 1):
                span = (span + (step - 1)) // step
            return np.maximum(span, 0)
        return np.maximum((start - stop + (-step - 1)) // (-step), 0)

    def item(self, i):
        # Python's range gives Python ints: a Tensor bound must not make the index int64.
        if isinstance(self.step, int) and self.step == 1:
            if isinstance(self.start, int) and self.start == 0:
                return i
            return _weak_item(i + self.start)
        return _weak_item(self.start + i * self.step)

    def __iter__(self):
        raise StagingError(
            f"{where(user_origin(2))}: a range() with a symbolic bound can only be iterated by a "
            "`for` loop in converted code"
        )


def _is_int(v, n) -> bool:
    return type(v) is int and v == n


class StagedEnumerate(_Source):
    """`enumerate(...)` over a Tensor or staged range."""

    def __init__(self, iterable, start=0):
        self.source = _iteration(iterable, None)
        self.start = start

    def length(self):
        return self.source.length()

    def item(self, i):
        index = i if isinstance(self.start, int) and self.start == 0 else i + self.start
        return (index, self.source.item(i))


class StagedZip(_Source):
    """`zip(...)` over Tensors (and staged ranges): as long as the shortest. Where an iterable
    cannot be staged (a list of strings) and every length is known now, `items` holds the
    zipped items for a Python loop (`sources` is None)."""

    def __init__(self, *iterables):
        self.items = None
        try:
            self.sources = [_iteration(it, None) for it in iterables]
        except StagingError:
            if not all(_known_length(it) for it in iterables):
                raise
            self.sources = None
            self.items = list(zip(*iterables))

    def length(self):
        if self.sources is None:
            return len(self.items)
        lengths = [s.length() for s in self.sources]
        if all(isinstance(n, int) for n in lengths):
            return min(lengths)
        n = lengths[0]
        for m in lengths[1:]:
            n = np.minimum(n, m)
        return n

    def item(self, i):
        if self.sources is None:
            return self.items[i]
        return tuple(s.item(i) for s in self.sources)


class StagedNdenumerate(_Source):
    """`np.ndenumerate(a)` of a Tensor of known shape: `(index tuple, item)` pairs in C order,
    the index of Python ints (weak int Tensors in a staged loop)."""

    def __init__(self, a):
        self.shape = tuple(a.shape)
        self.flat = a.reshape(-1)

    def length(self):
        return int(np.prod(self.shape, dtype=np.int64))

    def item(self, i):
        index, rest = [], i
        for d in reversed(self.shape[1:]):
            index.append(rest % d if isinstance(rest, Tensor) or d != 1 else 0)
            rest = rest // d
        index.append(rest)
        return tuple(_weak_item(k) for k in reversed(index)), self.flat[i]


def _known_length(iterable) -> bool:
    if isinstance(iterable, Tensor):
        return bool(iterable.shape) and iterable.shape[0] is not None
    return type(iterable) in (list, tuple, range, str)


def _iteration(iterable, origin) -> _Source:
    if isinstance(iterable, _Source):
        return iterable
    if isinstance(iterable, Tensor):
        return _TensorSource(iterable)
    if type(iterable) is range:
        return _PyRangeSource(iterable)
    if isinstance(iterable, np.ndarray):
        return _TensorSource(_const(iterable, iterable.dtype))
    if rt.grown_list(iterable):
        return _GrownSource(iterable)
    if isinstance(iterable, (list, tuple)) and iterable:
        return _StackedSource(list(iterable), origin or user_origin(2))
    raise StagingError(
        f"{where(origin or user_origin(2))}: cannot stage iteration over {type(iterable).__name__} "
        "together with Tensors; use Tensors, NumPy arrays or staged range()s."
    )
