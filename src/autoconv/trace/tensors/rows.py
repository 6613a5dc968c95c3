"""Tuples appended to a list inside a staged loop: `rows.append((month, interest, balance))`.

A run-time list holds items of one spec. A tuple of arrays and numbers is one item, a *row*,
whose dtype is a NumPy structured dtype with a field per tuple item: its dtype and shape, and
in the field's name whether it is a Python number (`p0`) or a NumPy value (`n0`). Every part of
the tracer that carries, joins or checks a run-time list's spec carries rows unchanged; when the
graph runs, the list holds the tuples themselves, so returning it, `np.array(rows)` and
`for m, i, b in rows` give exactly what eager code gives. Reading one (`rows[-1]`, an item of
an iteration) gives the tuple's items as Tensors (`fields`).
"""

from __future__ import annotations

import numpy as np

from autoconv.graph import shapes
from autoconv.graph import tensor as _tensor
from autoconv.graph.helpers import row_field
from autoconv.graph.tensor import PY_TYPES, Tensor
from autoconv.trace.tensors import records
from autoconv.trace.tensors.choices import Choice, atom, output
from autoconv.trace.tensors.optionals import Optional, as_its_kind
from autoconv.trace.tensors.recording import emit

_PY_NUMBERS = (bool, int, float, complex)


def _weak(v) -> bool:
    """A Python number, or a Tensor whose run-time value is one."""
    return type(v) in _PY_NUMBERS or (isinstance(v, Tensor) and v.weak)


def _leaf(v) -> bool:
    return isinstance(v, (Tensor, np.ndarray, np.generic)) or type(v) in _PY_NUMBERS


def _text(v) -> bool:
    """A string (or None, ...) as a run-time list holds it: a constant, a Choice, or the
    value one picks (an object Tensor)."""
    return atom(v) or isinstance(v, Choice) or (isinstance(v, Tensor) and v.dtype.kind == "O")


def row_dtype(item) -> np.dtype | None:
    """The row dtype of a tuple of arrays, numbers and strings whose shapes are known (a
    string's field holds Python objects), else None. A dict, a list, a nested tuple or a
    value-or-None is a record: a row whose dtype carries its layout (`records`)."""
    if type(item) is not tuple or not item or not all(_leaf(v) or _text(v) for v in item):
        return records.record_dtype(item)
    fields = []
    for j, v in enumerate(item):
        if _text(v):
            fields.append((f"n{j}", np.dtype(object), ()))
            continue
        shape = tuple(shapes.shape_of(v))
        if None in shape:
            return None
        fields.append((f"{'p' if _weak(v) else 'n'}{j}", shapes.result_dtype(v), shape))
    return np.dtype(fields)


def is_row(dtype) -> bool:
    return np.dtype(dtype).fields is not None


def item_spec(item) -> tuple | None:
    """`(shape, dtype)` of an item a run-time list can hold (an array, a number, a string a
    staged condition chose, or a row)."""
    if isinstance(item, Optional) and item.flag is not True:
        pass  # XXX
    if _text(item) and (not atom(item) or type(item) in (str, bytes)):
        return (), np.dtype(object)  # (a string written in the code too)
    if _leaf(item):
        return tuple(shapes.shape_of(item)), shapes.result_dtype(item)
    dtype = row_dtype(item)
    return None if dtype is None else ((), dtype)


def field_specs(dtype) -> list:
    """`(shape, dtype, weak)` of each item of a row of `dtype`."""
    specs = []
    for name in dtype.names:
        field = dtype.fields[name][0]
        specs.append((tuple(field.shape), field.base, name[0] == "p"))
    return specs


def fields(row: Tensor) -> tuple:
    """The items of `row` (a Tensor of a row dtype), as the tuple eager code has (a record
    as its dict, list, tuple or value-or-None)."""
    items = tuple(
        emit("helper", "row_field", row_field, (row, j), {}, [spec])[0]
        for j, spec in enumerate(field_specs(row.dtype))
    )
    return records.rebuilt(row.dtype, items)


def as_items(items, dtype=None) -> list:
    """`items` as a run-time list's node holds them: a Choice as the value it picks, a record
    as its flat row (`dtype`: the list's, whose layout it takes)."""
    out = []
    for item in items:
        item = _made_text(item)
        spec = item_spec(item) if records.spec_against(item, dtype) is None else ((), dtype)
        if spec is not None and records.rl.layout_of(spec[1]) is not None:
            item = records.row_of(item, spec[1])
        elif isinstance(item, Choice):
            item = output(item)
        elif type(item) is tuple:  # (a number whose Python type is its path's: a node)
            item = tuple(output(v) if isinstance(v, Choice) else as_its_kind(v) for v in item)
        out.append(item)
    return out


def _made_text(item):
    """A string that stands for one made when the graph runs (`str(e)` of an f-string's
    exception: it holds the printing module's markers) as that string, a graph value; tuples
    of such too. Anything else as it is."""
    if type(item) is str and "\ue000" in item:
        return _tensor.uses.printing._formatted(item)
    if type(item) is tuple and any(type(v) is str and "\ue000" in v for v in item):
        return tuple(_made_text(v) for v in item)
    return item


def stand_in(dtype):
    """A concrete row of `dtype` (zeros, Python numbers where the row has them)."""
    items = []
    for shape, base, weak in field_specs(dtype):
        if weak:
            items.append(PY_TYPES[base.kind](0))
        elif base.kind == "O":
            items.append("")
        else:
            items.append(np.zeros(shape, base) if shape else base.type(0))
    return tuple(items)


def describe(dtype) -> str:
    """`tuple(int, float64, float64[3])`: a row dtype as messages show it (a record:
    `dict('id': int, 'sum': float64)`)."""
    parts = []
    for shape, base, weak in field_specs(dtype):
        if weak:
            parts.append(PY_TYPES[base.kind].__name__)
        elif base.kind == "O":
            parts.append("str")
        else:
            parts.append(base.name + (f"[{', '.join(map(str, shape))}]" if shape else ""))
    return records.describe(dtype, parts) or f"tuple({', '.join(parts)})"


def parts(lst: list, n: int) -> tuple:
    """`(prefix, run-time list, tail)` of `lst`, whose item `n` stands for a staged
    statement's items: the items known now as the run-time list holds them (`as_items`)."""
    acc = lst[n].tensor
    return as_items(lst[:n], acc.dtype), acc, as_items(lst[n + 1 :], acc.dtype)
