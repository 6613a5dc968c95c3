"""Structured items appended to lists in staged loops: `records.append({"id": i, "sum": s})`,
`rows.append([a, b])`, `spans.append((start, i))` with `start` None on some paths.

Such an item is kept as a row (trace/tensors/rows.py): its leaves, flattened in order, are the
row's fields, and its *layout* (graph/record_layout.py: dict keys, list and tuple positions,
values-or-None) rides in the row dtype. A leaf is an array or a number (a field of its dtype),
a string written in the code or one a staged condition chose (a field of Python objects, an
index into the list's strings on the JAX backend), or a value-or-None (`Optional`: the value's
field and a bool flag). Reads rebuild the structure (`rebuilt`): an item read while tracing
holds Tensors in eager's dicts, lists and tuples; the list returned from the function is
rebuilt when the graph runs (`returned`), so the caller gets real dicts, lists, strs and None.
Every item of one list has one layout; another is an error that names both.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import record_layout as rl
from autoconv.graph import shapes
from autoconv.graph.errors import StagingError, where
from autoconv.graph.helpers import inner_list, inner_list_copy
from autoconv.graph.origin import user_origin
from autoconv.graph.record_layout import layout_of as layout_of
from autoconv.graph.tensor import Tensor
from autoconv.trace.tensors.choices import Choice, atom, output
from autoconv.trace.tensors.optionals import RUN_LISTS, Optional, as_its_kind
from autoconv.trace.tensors.recording import emit

_PY_NUMBERS = (bool, int, float, complex)
_KEYS = (str, int, bool)


def _weak(v) -> bool:
    return type(v) in _PY_NUMBERS or (isinstance(v, Tensor) and v.weak)


def _numeric(v) -> bool:
    return (
        isinstance(v, (Tensor, np.ndarray, np.generic))
        and not (isinstance(v, Tensor) and v.dtype.kind == "O")
        or type(v) in _PY_NUMBERS
    )


def _text(v) -> bool:
    return atom(v) or isinstance(v, Choice) or (isinstance(v, Tensor) and v.dtype.kind == "O")


def flatten(item, like=None):
    """`(layout, leaves)` of `item`, or None where it is not a structure of leaves. `like`: the
    layout of the list it goes into: a number (or None) where that layout has a value-or-None
    becomes one (flag true, or false with a stand-in zero)."""
    leaves: list = []
    layout = _flat(item, like, leaves)
    return None if layout is None else (layout, leaves)


def _flat(v, like, leaves):
    if like == ("o",) and not isinstance(v, Optional):
        if v is None:  # None where the list's items hold a value-or-None
            leaves.append(None)  # (its value: a stand-in zero, `_specs`)
            leaves.append(False)
            return like
        if _numeric(v):
            leaves.extend((v, True))
            return like
    if _inner_run(v):  # `runs.append(cur)`: the list itself, a field of Python objects
        t = v[0].tensor
        leaves.append(t)
        return ("r", tuple(t.shape[1:]), t.dtype.str)
    if isinstance(v, Optional):
        if v.missing is not None or not _numeric(v.value):
            return None
        leaves.extend((v.value, v.flag))
        return ("o",)
    if _numeric(v) or _text(v):
        leaves.append(v)
        return "x"
    t = type(v)
    if t is dict:
        if not all(type(k) in _KEYS for k in v):
            return None
        keys = tuple(v)
        subs = like[2] if _kind(like) == "d" and like[1] == keys else (None,) * len(keys)
        parts = tuple(_flat(x, s, leaves) for x, s in zip(v.values(), subs))
        return None if None in parts else ("d", keys, parts)
    if t is tuple or t is list:
        kind = "t" if t is tuple else "l"
        subs = like[1] if _kind(like) == kind and len(like[1]) == len(v) else (None,) * len(v)
        parts = tuple(_flat(x, s, leaves) for x, s in zip(v, subs))
        return None if None in parts else (kind, parts)
    return None


def _inner_run(v) -> bool:
    """A list of run-time length (one run-time list, of plain items) an item may hold."""
    if type(v) is not list or len(v) != 1 or type(v[0]) not in RUN_LISTS:
        return False
    dtype = v[0].tensor.dtype
    return dtype.fields is None and dtype.kind != "O"


def _kind(layout):
    return layout[0] if type(layout) is tuple else layout


def plain(layout) -> bool:
    """A tuple of plain leaves: a row as trace/tensors/rows.py has always made it."""
    return _kind(layout) == "t" and all(p == "x" for p in layout[1])


def record_dtype(item):
    """The row dtype of a structured item (its layout in the first field's name), or None."""
    found = flatten(item)
    if found is None or found[0] == "x" or plain(found[0]):
        return None  # not a structure, a leaf, or a tuple of leaves: rows.py's own
    return _dtype(*found)


def _dtype(layout, leaves, like=None):
    """The row dtype of `leaves` of `layout`; `like` (the list's dtype) gives the field of a
    missing value (None where the list holds a value-or-None)."""
    kinds: list = []
    _leaf_kinds(layout, kinds)
    fields = []
    for j, (v, kind) in enumerate(zip(leaves, kinds)):
        name = rl.field_name("n", j, layout)
        if kind == "f":
            fields.append((name, np.dtype(bool), ()))
        elif kind == "r":
            fields.append((name, np.dtype(object), ()))
        elif kind == "v" and v is None:
            field = like.fields[like.names[j]][0]
            fields.append((like.names[j], field.base, field.shape))
        elif _text(v):
            fields.append((name, np.dtype(object), ()))
        else:
            shape = tuple(shapes.shape_of(v))
            if None in shape:
                return None
            prefix = "p" if _weak(v) else "n"
            fields.append((rl.field_name(prefix, j, layout), shapes.result_dtype(v), shape))
    if not fields:  # (`[]`: no field's name to carry the layout in)
        return np.dtype(fields, metadata={rl.MARK: layout})
    return np.dtype(fields)


def _leaf_kinds(layout, out):
    out.extend(rl.leaf_kinds(layout))


def optional_dtype(items):
    """The row dtype of a value-or-None that each of `items` fits (None, a value-or-None, or a
    number or array of the others' shape and dtype), where some is None or a value-or-None and
    the rest are such values; else None. (A list `ratios.append(a / b if b else None)` fills,
    or one that gets `x` on one path and `None` on another.)"""
    if not any(it is None or isinstance(it, Optional) for it in items):
        return None
    made = None
    for it in items:
        if it is None:
            continue
        found = flatten(it, ("o",))
        if found is None or found[0] != ("o",):
            return None
        dtype = _dtype(("o",), found[1])
        if dtype is None or made is not None and dtype != made:
            return None
        made = dtype
    return made


def spec_against(item, dtype):
    """`(shape, dtype)` of `item` as it goes into a run-time list of `dtype` (a record takes
    the list's layout where it fits: a number or None where it holds a value-or-None), or
    None where `dtype` holds no records."""
    layout = rl.layout_of(dtype)
    if layout is None:
        return None
    found = flatten(item, layout)
    if found is None or found[0] != layout:
        mine = record_dtype(item)
        return None if mine is None else ((), mine)
    made = _dtype(layout, found[1], dtype)
    return None if made is None else ((), made)


def row_of(item, dtype) -> tuple:
    """`item` as the flat row a run-time list of `dtype` holds (a Choice as the value it
    picks, a value-or-None as its value and flag, a missing value as a zero)."""
    layout = rl.layout_of(dtype)
    leaves = flatten(item, layout)[1]
    kinds: list = []
    _leaf_kinds(layout, kinds)
    out = []
    for j, (v, name) in enumerate(zip(leaves, dtype.names)):
        if isinstance(v, Choice):
            v = output(v)
        elif isinstance(v, Tensor) and v.py_kinds is not None:
            v = as_its_kind(v)  # a number whose Python type is its path's (`v or int(v)`)
        elif kinds[j] == "r":  # the list as it is now (a copy when the graph runs)
            v = emit("helper", "inner_list_copy", inner_list_copy, (v,), {}, [_spec(v)])[0]
        elif v is None and kinds[j] == "v":
            field = dtype.fields[name][0]
            v = np.zeros(field.shape, field.base) if field.shape else field.base.type(0)
            if name[0] == "p":
                v = v.item()
        out.append(v)
    return tuple(out)


LAYOUT_HINT = (
    ". Append items of one layout: the same keys, lengths and kinds of leaves (a string "
    "field holds strings or None, chosen by staged branches; a number that is None on some "
    "paths is one variable, `v if cond else None`, or a separate list of flags)"
)


def rebuilt(dtype, leaves: tuple):
    """The item eager code has, from a row's fields read while tracing (`rows.fields`)."""
    layout = rl.layout_of(dtype)
    if layout is None:
        return leaves
    item = rl.rebuild(layout, iter(leaves), _optional, _inner)
    if type(item) is not tuple or any(type(v) in (dict, list) for v in item):
        graph = _g.current().graph
        if len(_READS) > 4096 or (_READS and _READS[0][0] is not graph):
            _READS.clear()  # (reads of an earlier trace)
        _READS.append((graph, item, _parts(item), user_origin(), layout))
    return item


# The dicts and lists read from run-time lists of records in the trace being made, with what
# they held: eager code changes the list's item when one of them is changed in place, which a
# graph cannot do (the item is made when it runs), so `check_reads` refuses such a change.
_READS: list = []


def _parts(v):
    t = type(v)
    if t is dict:
        return (dict, tuple(v), tuple((id(x), _parts(x)) for x in v.values()))
    if t is list or t is tuple:
        return (t, tuple((id(x), _parts(x)) for x in v))
    return None


def written_back(item) -> None:
    """Forgets the read of `item`, changed in place and put back into its run-time list
    (`runtime.items.put_back`)."""
    _READS[:] = [e for e in _READS if e[1] is not item]


def check_reads(clear: bool = True) -> None:
    """Raises where a dict or list read from a run-time list of records was changed in place
    (`r["v"] = 0` for `r` in `out`): the list's item would not change, as it does eagerly.
    `clear`: forget the reads (the trace ends); else they stay checked at its end."""
    graph = _g.current().graph
    found = [e for e in _READS if e[0] is graph and _parts(e[1]) != e[2]]
    if clear or found:
        _READS.clear()
    if found:
        _, item, parts, origin, layout = found[0]
        kind = type(item).__name__
        if len(item) != len(parts[1]):  # `fields[-1].append(v)`: the layout would change
            raise StagingError(
                f"{where(origin)}: the {kind} read here is an item of a list a staged loop "
                f"appended to ({rl.describe(layout, iter(_leaf_texts(layout)))} each; its items "
                "are made when the graph runs, all of one layout), and it is changed in place "
                f"later to another length, which such an item cannot have. Append the values to "
                "one flat list with another list of which group each is in "
                "(`vals.append(v); group.append(k)`), or use an array per group."
            )
        raise StagingError(
            f"{where(origin)}: the {kind} read here is an item of a list a staged loop appended "
            f"to ({rl.describe(layout, iter(_leaf_texts(layout)))} each; its items are made "
            f"when the graph runs), and it is changed in place later: the list's item would "
            f"not change, as it does eagerly. Make a new {kind} and put it back "
            f"(`out[k] = {{**r, 'v': new}}`), or append the values you want in the first place."
        )


def _leaf_texts(layout):
    kinds: list = []
    _leaf_kinds(layout, kinds)
    return ["value" if k in "xv" else "flag" for k in kinds]


def _optional(flag, value):
    return Optional(flag, value, None, "the list's item")


def _spec(t) -> tuple:
    return (tuple(t.shape), t.dtype, False)


def _inner(layout, value):
    """An item's list of run-time length, read while tracing: that run-time list."""
    spec = [((None, *layout[1]), np.dtype(layout[2]), False)]
    return [RUN_LISTS[0](emit("helper", "inner_list", inner_list, (value,), {}, spec)[0])]


def describe(dtype, texts) -> str | None:
    """A record dtype as messages show it (`texts`: each field's text), or None."""
    layout = rl.layout_of(dtype)
    if layout is None:
        return None
    return rl.describe(layout, iter("str or None" if t == "str" else t for t in texts))


def returned_list(value: list):
    """A list the function returns: one holding only a run-time list of records is rebuilt
    when the graph runs (dicts, lists, strs, None: a Python list, as eagerly)."""
    if len(value) != 1 or type(value[0]).__name__ != "ListAccum":
        return value
    tensor = value[0].tensor
    layout = rl.layout_of(tensor.dtype)
    if layout is None:
        return value
    out = emit("helper", "records_out", rl.records_out, (tensor, layout), {}, [((), object)])
    return out[0]


def fix_for(item, name: str) -> str:
    """What to append instead of `item`, which a run-time list cannot hold."""
    if type(item) in (tuple, list, dict):
        return (
            f"append each field to a list of its own, or one array of them "
            f"(`{name}.append(np.array([...]))` when they share a dtype)"
        )
    if isinstance(getattr(item, "__dict__", None), dict) and not isinstance(item, type):
        kind = type(item).__name__
        return (
            f"append the {kind} object's fields as a dict or tuple (`{name}.append({{'kind': "
            f"'{kind}', ...}})`) and compute from them after the loop (a run-time list cannot "
            "keep objects, whose identity and methods eager code keeps)"
        )
    return "append arrays or numbers"


def as_row(value, dtype, op: str, origin):
    """`value`, compared with the items of a run-time list of `dtype` by `op` (`in`,
    `.index()`, `.count()`, `.remove()`) or put in it (`.insert()`, an item set), as the list
    holds it: a record as its row. A record of another layout is refused (eager code would
    compare it with each item; the graph's rows cannot tell)."""
    layout = rl.layout_of(dtype)
    if layout is None:
        return value
    found = flatten(value, layout)
    if found is None or found[0] != layout:
        raise StagingError(
            f"{where(origin)}: {op} with a value that is not an item of the list's layout "
            f"({rl.describe(layout, iter(_leaf_texts(layout)))}, the items a staged loop "
            "appended): give a value of that layout, or compare one field "
            "(`any(r['id'] == k for r in out)`)."
        )
    return row_of(value, dtype)


def refuse_order(op: str, dtype, origin) -> None:
    """`max`, `min`, `sum` or `.sort()` of a run-time list of records: refused (eager code
    compares dicts, lists and None by rules the rows do not keep)."""
    layout = rl.layout_of(dtype)
    if layout is None:
        return
    raise StagingError(
        f"{where(origin)}: {op} of a list whose items a staged loop appended as "
        f"{rl.describe(layout, iter(_leaf_texts(layout)))}: only lists of arrays, numbers "
        "and tuples of them are compared or added when the graph runs. Use one field "
        "(`max(r['v'] for r in out)`, `sorted(out, key=...)` on an array of keys: "
        "`np.argsort(np.array([r['v'] for r in out]))`)."
    )
