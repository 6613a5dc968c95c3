"""`sorted(items, key=..., reverse=...)` and `lst.sort(...)` of a plain Python list whose keys
are compared when the graph runs: the order Python's stable sort gives, staged.

    keys    ->  columns: one per number or constant of a key (a tuple key: one per component,
                the first the most significant), a stable `np.argsort` of one column or an
                `np.lexsort` of several
    items   ->  leaf by leaf: numbers and arrays of one spec and Python type gathered by the
                order (one stack, one take); objects of the user's classes as a `Union` of
                them, the order its tag (the very objects, `sorted_objects`); other leaves
                (strings, mixed Python types, values None on some paths) chosen by
                `switch.pick`, as `lst[i]` with a run-time `i`

A column of Python ints and floats compares as Python does, exactly: float64 first, then the
amount an int differs from its float64. A column of strings (or other constants known while
tracing, or `Choice`s among them) is the rank of each in Python's order of them. A float key
that is NaN when the graph runs raises there: Python's sort of it depends on which items it
happened to compare, which no argsort reproduces (a ValueError, as a saved graph can raise
only Python's own exceptions). With `reverse`, Python sorts the reversed list
and reverses the result, so equal keys keep their first order: done so here.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph.errors import StagingError, where
from autoconv.graph.tensor import PY_TYPES, Tensor
from autoconv.trace.core.optional import Optional
from autoconv.trace.tensors.accumulated import ListAccum
from autoconv.trace.tensors.choices import Choice
from autoconv.trace.tensors.leaves import LEAVES, _as_tensor, _cast, _const, _rebuild, _struct
from autoconv.trace.tensors.path_types import kinds_of
from autoconv.trace.tensors.sorted_objects import chosen_objects
from autoconv.trace.tensors.switch import BUDGET, _numpy_type, _raise_if, pick
from autoconv.trace.tensors.unions import is_object

_NUMBERS = (bool, int, float)


class SortError(StagingError, TypeError):
    """A sort whose keys or items autoconv cannot order or carry when the graph runs."""


def sort(items: list, keys: list, reverse: bool, origin) -> list:
    """The items as `sorted(items, key=..., reverse=reverse)` places them, given each item's key
    (some compared only when the graph runs)."""
    if len(items) < 2:
        return list(items)
    if reverse:
        items, keys = items[::-1], keys[::-1]
    columns = _columns(keys, origin)
    if not columns:
        out = list(items)  # all keys equal: the stable order is the given one
    else:
        order = _order(columns)
        out = _gathered(items, order, origin)
    if reverse:
        out.reverse()
    return out


# --- keys: columns, most significant first ----------------------------------------------------


def _structures(values: list) -> tuple:
    """The set of `values`' structures, and each one's leaves."""
    structs, leaves = set(), []
    for value in values:
        found: list = []
        structs.add(_struct(value, found))
        leaves.append(found)
    return structs, leaves


def _columns(keys: list, origin) -> list:
    structs, leaves = _structures(keys)
    if len(structs) != 1:
        _fail(
            origin,
            "its keys differ in structure (tuples of other lengths, or a tuple against a number)",
            "Make every key a tuple of the same length, or a number.",
        )
    if not _plain_struct(next(iter(structs))):
        _fail(origin, "a key holds a dict or a value None on some paths", "Key by numbers.")
    columns = []
    for j in range(len(leaves[0])):
        columns.extend(_column([found[j] for found in leaves], origin))
    return columns


def _plain_struct(struct) -> bool:
    if struct == "*":
        return True
    kind, parts = struct
    return kind in (tuple, list) and all(_plain_struct(p) for p in parts)


def _number(v) -> bool:
    if isinstance(v, Tensor):
        return v.shape == () and v.dtype.kind in "biuf"
    return type(v) in _NUMBERS


def _constant(v) -> bool:
    return isinstance(v, Choice) or not isinstance(v, (Tensor, ListAccum, Optional, np.ndarray))


def _column(values: list, origin) -> list:
    """The columns (0, 1 or 2) that order `values`, one component of every key, as Python
    compares them."""
    if all(_number(v) for v in values):
        return _numbers(values, origin)
    if all(_constant(v) and not _number(v) for v in values):
        return _ranks(values, origin)
    shown = next((v for v in values if not _number(v) and not _constant(v)), None)
    if isinstance(shown, Tensor):
        what = f"an array of shape {shown.shape}" if shown.shape else f"a {shown.dtype} value"
    elif shown is None:
        what = "a number in some keys and a string (or another value) in others"
    else:
        what = type(shown).__name__
    _fail(
        origin,
        f"a key component is {what}",
        "Key by numbers, strings, or tuples of them (one kind at each place of the tuple).",
    )
    return []  # unreachable


def _numbers(values: list, origin) -> list:
    integer = [_kind(v) in "biu" for v in values]
    if all(not isinstance(v, Tensor) for v in values):
        if len(set(values)) == 1:
            return []
    if any(integer) and not all(integer):
        # Python compares an int with a float exactly: float64 first, then what the int loses.
        wide = [_as_tensor(v, ((), np.dtype(np.float64), False)) for v in values]
        rest = [
            _as_tensor(v, ((), np.dtype(np.int64), False)) - _cast(w, np.int64)
            if i
            else _const(0, np.int64)
            for v, w, i in zip(values, wide, integer)
        ]
        first = np.stack(wide)
        _no_nan(first, values, origin)
        return [first, np.stack(rest)]
    dtype = np.result_type(*(_stand_in(v) for v in values))
    column = np.stack([_as_tensor(v, ((), dtype, False)) for v in values])
    if dtype.kind == "f":
        _no_nan(column, values, origin)
    return [column]


def _kind(v) -> str:
    return v.dtype.kind if isinstance(v, Tensor) else np.dtype(type(v)).kind


def _stand_in(v):
    """What `np.result_type` takes for `v`: a NumPy dtype, or a Python number (weak)."""
    if isinstance(v, Tensor):
        return PY_TYPES[v.dtype.kind](0) if v.weak else v.dtype
    return v


def _no_nan(column, values, origin) -> None:
    if not any(isinstance(v, Tensor) and v.dtype.kind == "f" for v in values):
        if any(v != v for v in values):
            _nan_error(origin, now=True)
        return
    _raise_if(np.any(np.isnan(column)), _nan_error(origin), origin)


def _nan_error(origin, now=False):
    # A ValueError when the graph runs: a saved graph raises only Python's own exceptions.
    exc = (SortError if now else ValueError)(
        f"{where(origin)}: `sorted()` (or `.sort()`) gets a key that is NaN. Python's order of "
        "a list with NaN keys depends on which items its sort happened to compare, which a "
        "graph does not reproduce. Drop the NaNs first, or sort an array with `np.argsort`."
    )
    if now:
        raise exc
    return exc


def _ranks(values: list, origin) -> list:
    """Strings and other constants (or Choices among them): each one's rank in Python's order."""
    options: list = []
    for v in values:
        for o in v.options if isinstance(v, Choice) else (v,):
            if not any(type(o) is type(p) and o == p for p in options):
                options.append(o)
    if len(options) == 1:
        return []
    try:
        ranked = sorted(options)
    except StagingError:
        # Objects whose `__lt__` compares values known only when the graph runs (a class's
        # own `<`): the graph has no order of them to follow.
        kind = next((type(o).__name__ for o in options if is_object(o)), "value")
        _fail(
            origin,
            f"its keys are {kind} objects whose `<` compares values known only when the graph runs",
            "Give a key of numbers (`key=lambda t: (t.priority, t.cost)`), or make the class "
            "a `@dataclass(order=True)`.",
        )
    except TypeError as e:
        _fail(origin, f"its keys hold values Python cannot compare ({e})", "Key by one kind.")
    rank = {id(o): next(r for r, p in enumerate(ranked) if p is o) for o in options}

    def of(o):
        return rank[id(next(p for p in options if type(o) is type(p) and o == p))]

    column = []
    for v in values:
        if isinstance(v, Choice):
            table = _const(np.asarray([of(o) for o in v.options], np.int64), np.int64)
            column.append(table[v.tag])
        else:
            column.append(_const(of(v), np.int64))
    return [np.stack(column)]


def _order(columns: list):
    if len(columns) == 1:
        return np.argsort(columns[0], stable=True)
    return np.lexsort(tuple(reversed(columns)))  # lexsort's last key is the first compared


# --- items, carried by the order --------------------------------------------------------------


def _gathered(items: list, order, origin) -> list:
    structs, leaves = _structures(items)
    if len(structs) != 1:
        _fail(
            origin,
            "its items differ in structure",
            "Make the items one kind (numbers, arrays of one shape, or tuples of one length).",
        )
    struct = next(iter(structs))
    if any(_holds_container(item) for item in items):
        _fail(
            origin,
            "its items are (or hold) lists, dicts or sets, which the sorted list would hold as "
            "copies where eager code holds the same objects",
            "Sort tuples, or sort indices (`sorted(range(len(items)), key=...)`).",
        )
    n = len(items)
    columns = [[found[j] for found in leaves] for j in range(len(leaves[0]))]
    out_leaves = [_leaf_column(values, order, n, origin) for values in columns]
    return [_rebuild(struct, [c[k] for c in out_leaves]) for k in range(n)]


def _holds_container(v) -> bool:
    t = type(v)
    if t is tuple or isinstance(v, tuple):
        return any(_holds_container(x) for x in v)
    return t in (list, dict, set) or isinstance(v, ListAccum)


def _leaf_column(values: list, order, n: int, origin) -> list:
    """The leaves at one place of every item, in the sorted order."""
    first = values[0]
    if all(v is first or LEAVES.same(v, first) for v in values):
        return [first] * n
    objects = chosen_objects(values, order)
    if objects is not None:
        return objects
    taken = _taken(values, order)
    if taken is not None:
        return taken
    if n * n > BUDGET:
        _fail(
            origin,
            f"its {n} items hold strings, values None on some paths or numbers of several Python "
            "types, each chosen among all the items when the graph runs",
            "Sort an array (`np.argsort` of the keys), or make those values numbers of one type.",
        )
    _exact_in_float(values, origin)
    out = []
    for k in range(n):
        value = values[0]
        for j in range(1, n):
            value = pick(
                order[k] == j, values[j], value, f"item {k} of the sorted list", origin, "read"
            )
        out.append(value)
    return out


def _exact_in_float(values: list, origin) -> None:
    """Python ints and floats at one place of the items are carried as float64 with a tag of
    their type (`path_types`): an int past 2**53 would lose digits, so the graph raises then."""
    kinds = {k for v in values if _number(v) for k in kinds_of(v)}
    if float not in kinds or not kinds & {int, bool}:
        return
    ints = [v for v in values if isinstance(v, Tensor) and v.dtype.kind in "iu"]
    if not ints:
        return
    big = np.any(
        np.abs(np.stack([_as_tensor(v, ((), np.dtype(np.int64), False)) for v in ints])) > 2**53
    )
    exc = ValueError(
        f"{where(origin)}: `sorted()` (or `.sort()`) of items that are Python ints and floats "
        "at one place: an int past 2**53 cannot be carried exactly through the choice of its "
        "place. Convert them to one type first (`float(v)`, or `int(v)`)."
    )
    _raise_if(big, exc, origin)


def _taken(values: list, order):
    """Numbers or arrays of one spec and Python type: one stack, one take by the order."""
    if any(isinstance(v, Tensor) and v.py_kinds for v in values):
        return None
    if not all(LEAVES.numeric(v) for v in values) or any(
        isinstance(v, (ListAccum, Optional)) for v in values
    ):
        return None
    specs = {LEAVES.spec(v) for v in values}
    kinds = {kinds_of(v) for v in values}
    if len(specs) != 1 or len(kinds) != 1 or any(_numpy_type(v) is np.ndarray for v in values):
        return None
    shape, dtype, weak = specs.pop()
    if None in shape:
        return None
    stack = np.stack([_as_tensor(v, (shape, dtype, False)) for v in values])
    table = np.take(stack, order, axis=0)
    out = [table[k] for k in range(len(values))]
    if weak:
        out = [_cast(v, PY_TYPES[dtype.kind]) for v in out]
    return out


def _fail(origin, why: str, instead: str) -> None:
    raise SortError(
        f"{where(origin)}: `sorted()` (or `.sort()`) of items compared when the graph runs: "
        f"{why}. {instead}"
    )
