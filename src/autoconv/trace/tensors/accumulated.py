"""Python lists a staged loop appended to (`ListAccum`), `np.stack` and friends on them, and
the check of what a traced function returns.
"""

from __future__ import annotations

import os
import sys

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph import tensor as _tensor
from autoconv.graph.errors import StagingError, where
from autoconv.graph.helpers import ARRAY_MAKERS as _ARRAY_MAKERS
from autoconv.graph.helpers import LIST_CALLS, repeat_list
from autoconv.graph.helpers import expand_lists as _expand
from autoconv.graph.helpers import kind_index as _kind_index
from autoconv.graph.helpers import list_item as _list_item
from autoconv.graph.helpers import stacker as _bind_stack
from autoconv.graph.origin import source_text, user_origin
from autoconv.graph.tensor import PY_TYPES, Tensor, format_spec
from autoconv.runtime import staging as rt
from autoconv.trace.core.values import Undefined
from autoconv.trace.tensors import arraylike, item_kinds
from autoconv.trace.tensors.optionals import RUN_LISTS, Optional, index_value, materialized
from autoconv.trace.tensors.path_types import tagged
from autoconv.trace.tensors.recording import cast, emit, may_raise
from autoconv.trace.tensors.recording import one as _one
from autoconv.trace.tensors.records import flatten, layout_of, refuse_order
from autoconv.trace.tensors.rows import (
    _weak,
    describe,
    fields,
    is_row,
    item_spec,
    parts,
    stand_in,
)
from autoconv.trace.tensors.user_code import statement_at, user_frame

_PY_NUMBERS = (bool, int, float, complex)


class ListAccum:
    """Stands, inside a Python list, for the items that a staged loop appended to it.

    At run time the items are collected in a list; `np.stack(lst)` and `np.concatenate(lst)`
    expand it. Other uses raise an error that says so.
    """

    __slots__ = ("tensor",)

    def __init__(self, tensor):
        self.tensor = tensor

    def __repr__(self):
        spec = format_spec(self.tensor.shape[1:], self.tensor.dtype)
        return f"<items appended in a staged loop: {spec} each>"

    def _fail(self, *args, **kwargs):
        origin = user_origin(2)
        line = statement_at(*origin) if origin else ""
        raise StagingError(
            f"{where(origin)}: {f'`{line}`: ' if line else ''}a list holds items a staged loop "
            "appended (known only when the graph runs), and it reached code that uses it as a "
            "Python list (a "
            "library's function, NumPy's reductions, or code autoconv does not convert). In "
            "converted code, len(), items, slices, `in`, `for` loops, sum/max/min and "
            "np.stack/np.array of it are staged: pass np.stack(lst) to other code."
        )

    __bool__ = __iter__ = __len__ = __getitem__ = __array__ = __float__ = __int__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = _fail
    __rtruediv__ = __lt__ = __le__ = __gt__ = __ge__ = __index__ = _fail
    # (`groups[-1][-1].append(v)` of a list read as a Python list: a list's methods)
    append = extend = insert = pop = remove = sort = reverse = index = count = _fail
    copy = clear = _fail

    def __eq__(self, other):
        # `lst[0] == 3` in code that reads the list as a Python list (a helper that indexes
        # its parameter): never an answer by identity. autoconv's own comparisons are.
        if _from_user():
            self._fail()
        return self is other

    def __ne__(self, other):
        if _from_user():
            self._fail()
        return self is not other

    __hash__ = object.__hash__

    def __format__(self, spec):
        # `f"{i}"` of an item of such a list read as a Python list: never the placeholder.
        if _from_user():
            self._fail()
        return repr(self)

    def __array_ufunc__(self, *args, **kwargs):
        self._fail()

    def __array_function__(self, func, types, args, kwargs):
        if func in STACKERS:
            return _stack_lists(func, args, kwargs)
        if func is np.column_stack and not kwargs and len(args) == 1:
            # `np.column_stack(cols)`: 1-d items side by side (a stack along axis 1), 2-d
            # ones joined along it, as NumPy's own definition of it.
            ndim = {len(_item_shape(a)) for a in args[0]}
            if ndim == {1}:
                return _stack_lists(np.stack, (args[0], 1), {})
            if ndim == {2}:
                return _stack_lists(np.concatenate, (args[0], 1), {})
        self._fail()


def _item_shape(a) -> tuple:
    return tuple(a.tensor.shape[1:]) if isinstance(a, ListAccum) else tuple(np.shape(a))


STACKERS = (np.stack, np.concatenate, np.vstack, np.hstack)
_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep


def _from_user() -> bool:
    """Whether the comparison asking is the user's code (not autoconv's)."""
    try:
        return not sys._getframe(2).f_code.co_filename.startswith(_PACKAGE)
    except ValueError:
        return False


_g.HOLDERS[ListAccum] = (lambda v: (v.tensor,), lambda v, new: ListAccum(new[0]))
RUN_LISTS.append(ListAccum)
arraylike.RUN_LIST.append(ListAccum)


def _run_stack(func, arrays, *args, **kwargs):
    return func(_expand(arrays), *args, **kwargs)


def _stack_lists(func, args, kwargs):
    arrays, *rest = args
    for a in arrays:
        if isinstance(a, ListAccum) and _nested_kinds(layout_of(a.tensor.dtype)) & {"r", "o", "d"}:
            # (its rows hold an inner list, a value-or-None or a dict, which NumPy would read
            # as eager code's items only once rebuilt: refused rather than a wrong shape)
            raise StagingError(
                f"{where(user_origin(3))}: numpy.{func.__name__} of a list a staged loop "
                "appended lists, dicts or values that may be None to (a list of lists grown in "
                "the loop): its items' layout is known only when the graph runs. Append arrays "
                "instead (`rows.append(np.array(new))`), then np.array(rows) or np.stack(rows)."
            )
    p = dict(kwargs)
    axis = rest[0] if rest else p.get("axis", 0)
    template = [a.tensor if isinstance(a, ListAccum) else a for a in arrays]
    if any(isinstance(a, ListAccum) and is_row(a.tensor.dtype) for a in arrays):
        spec = _rows_result(func, arrays, rest, kwargs)
        return _may_be_empty(
            func,
            arrays,
            emit("helper", func.__name__, _bind_stack(func), (template, *rest), kwargs, [spec]),
        )
    elems = [a.tensor.shape[1:] if isinstance(a, ListAccum) else shapes.shape_of(a) for a in arrays]
    dtype = np.result_type(
        *[a.tensor.dtype if isinstance(a, ListAccum) else shapes.result_dtype(a) for a in arrays]
    )
    if p.get("dtype") is not None:
        dtype = np.dtype(p["dtype"])
    ndim = len(elems[0])
    if any(len(e) != ndim for e in elems):
        shapes.fail(
            f"numpy.{func.__name__}: all the input arrays must have the same number of dimensions"
        )
    merged = list(elems[0])
    for e in elems[1:]:
        merged = [
            shapes.unify(a, b, f"numpy.{func.__name__}: item sizes differ:")
            for a, b in zip(merged, e)
        ]
    # The new axis holds one entry per item: known unless a staged loop appended some.
    count = None if any(isinstance(a, ListAccum) for a in arrays) else len(arrays)
    if func in _ARRAY_MAKERS:
        shape = [count, *merged]  # np.array(lst): the items along a new first axis
    elif func is np.stack:
        axis = shapes.norm_axis(axis, ndim + 1)
        shape = merged[:axis] + [count] + merged[axis:]
    elif func is np.concatenate or func is np.vstack:
        if func is np.vstack and ndim == 1:
            shape = [None, merged[0]]
        else:
            axis = shapes.norm_axis(axis if func is np.concatenate else 0, ndim)
            shape = merged[:axis] + [None] + merged[axis + 1 :]
    else:
        axis = 0 if ndim == 1 else 1
        shape = merged[:axis] + [None] + merged[axis + 1 :]
    return _may_be_empty(
        func,
        arrays,
        emit(
            "helper",
            func.__name__,
            _bind_stack(func),
            (template, *rest),
            kwargs,
            [(tuple(shape), dtype)],
        ),
    )


def _may_be_empty(func, arrays, outputs):
    """The result of `func(arrays)`; where every item is one a staged statement appended, the
    list may hold none when the graph runs, and np.stack and np.concatenate of no arrays raise
    ValueError: the node is then kept even when its result is unused, as eager code raises
    there (and an error met later while tracing is raised after it: raising.raises_when_run)."""
    if func not in _ARRAY_MAKERS and all(isinstance(a, ListAccum) for a in arrays):
        for out in outputs:
            may_raise(out)
    return _one(outputs)


def _nested_kinds(layout) -> set:
    """The kinds of the parts of a run-time list's row layout (`records.layout_of`)."""
    if layout is None or layout == "x":
        return set()
    kinds = {layout[0]}
    if layout[0] in "tld":
        for part in layout[-1]:
            kinds |= _nested_kinds(part)
    return kinds


def _rows_result(func, arrays, rest, kwargs) -> tuple:
    """The spec of `func(arrays, ...)` where a staged loop appended tuples (rows) to `arrays`:
    what NumPy gives for stand-ins of one and of two rows per run of them, with the sizes that
    differ between the two known only when the graph runs."""

    def standin(a):
        if isinstance(a, Tensor):
            return np.zeros(tuple(0 if d is None else d for d in a.shape), a.dtype)
        if type(a) is tuple:
            return tuple(standin(x) for x in a)
        return a

    results = []
    for copies in (1, 2):
        items = []
        for a in arrays:
            if isinstance(a, ListAccum):
                items.extend([stand_in(a.tensor.dtype)] * copies)
            else:
                items.append(standin(a))
        results.append(np.asarray(func(items, *rest, **kwargs)))
    one, two = results
    if one.ndim != two.ndim:
        shapes.fail(f"numpy.{func.__name__} of this list of tuples has no one shape")
    shape = tuple(a if a == b else None for a, b in zip(one.shape, two.shape))
    return (shape, one.dtype)


def stack_items(func, items, dtype=None):
    """`func(items, dtype=dtype)` (np.array and friends) for a list holding Tensors or the items
    a staged loop appended: one array when the graph runs."""
    return _stack_lists(func, (items,), {} if dtype is None else {"dtype": dtype})


_TAG_SPEC = ((), np.dtype(np.int64), True)


def accum_index(lst: list):
    """The index of the stand-in for the items a staged statement appended to `lst`, or None.
    A list holding two such runs (`up + down` of two filtered lists) becomes one run first,
    where its items allow (`JOIN`)."""
    found = None
    for k, v in enumerate(lst):
        if isinstance(v, ListAccum):
            if found is not None:
                return JOIN[0](lst, found)
            found = k
    return found


def _unjoined(lst: list, first: int) -> int:
    return first


# `appends.join_runs(lst, first)`: makes `lst`'s runs and the items between them one run, in
# place, giving its index (`first` where its items cannot be one). Set by `appends`, which
# imports this module.
JOIN = [_unjoined]


def one_kind(items, what: str, origin, stacked: bool = False) -> None:
    """Raises if an item is a number whose Python type depends on the path taken, and `what`
    (a list whose items are known only when the graph runs, or a read of one) cannot keep it.
    `stacked`: the items are only ever stacked, where a Python float stands for a float64 as
    eagerly (a Python int for a float64 would not: `np.array([0])` is an int64 array)."""
    for item in _flat(items):
        kinds = getattr(item, "py_kinds", None)
        if not isinstance(item, Tensor) or kinds is None:
            continue
        if stacked and all(k is None or PY_TYPES[item.dtype.kind] is k for k in kinds[1]):
            continue
        shown = " or ".join(  # each kind once, however many paths give it
            dict.fromkeys(
                "a NumPy value" if k is None else f"a Python {k.__name__}" for k in kinds[1]
            )
        )
        raise StagingError(
            f"{where(origin)}: `{kinds[2]}` is {shown}, depending on the path taken, and "
            f"{what}, whose items are known only when the graph runs: the result cannot keep "
            f"each path's type. Give `{kinds[2]}` one kind on every path (start it as "
            f"`np.{item.dtype.name}(0)` rather than `0`)."
        )


def list_name(lst: list) -> str:
    """`list `losses`` (the user's name for `lst` in the nearest frame of theirs that has
    one), or "this list"."""
    frame = user_frame()
    while frame is not None:
        for name, value in frame.f_locals.items():
            if value is lst and name.isidentifier():
                return f"list `{name}`"
        frame = frame.f_back
    return "this list"


def _item_text(item) -> str:
    spec = item_spec(item)
    if spec is None:
        return type(item).__name__
    return describe(spec[1]) if is_row(spec[1]) else format_spec(*spec)


def _flat(items):
    """The items, with the leaves of each tuple, dict or list (a row, see `rows` and
    `records`) in its place: a value-or-None as its value (a read of it would check it)."""
    for item in items:
        found = flatten(item) if type(item) in (tuple, list, dict) else None
        for leaf in found[1] if found is not None else (item,):
            yield leaf.value if isinstance(leaf, Optional) else leaf


def list_item(lst: list, key):
    """`lst[key]` in converted code: an item that a staged statement appended (`ListAccum`) is
    read from the whole list when the graph runs; the items before and after them as they are
    when the key reaches them now."""
    n = accum_index(lst)
    if n is None:
        key = index_value(key)
        if isinstance(key, Tensor) and lst:
            return _item_at_run_time(lst, key)
        try:
            return lst[key]
        except LookupError as e:
            e.as_written = True  # the user's `lst[key]`: Python's error at their line (raising)
            raise
    tail = lst[n + 1 :]
    if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
        if 0 <= key < n:
            return lst[key]
        if key < 0 and -key <= len(tail):
            return tail[key]
    return _run_time("list_item", _list_item, lst, n, (key,), ())


def _item_at_run_time(lst: list, key):
    """`lst[key]` of a Python list of arrays and numbers at a key known only when the graph
    runs (`means[best]`): the item then, with Python's IndexError past either end."""
    origin = user_origin(3)
    specs = [item_spec(item) for item in lst]
    dtypes = {spec[1] for item, spec in zip(lst, specs) if spec is not None and not _weak(item)}
    # (a list of dicts or lists: an item read would be a new one, which a write into it
    # would not reach)
    records = None not in specs and any(layout_of(spec[1]) is not None for spec in specs)
    held = next((item for item in lst if type(item) in (list, dict, set)), None)
    if held is not None:
        raise StagingError(
            f"{where(origin)}: {list_name(lst)} holds {type(held).__name__}s and is indexed at "
            "a key known only when the graph runs: the item read would be a new "
            f"{type(held).__name__}, which a change (`.append`, an item written) would not "
            "reach. Keep one array per kind of item (`counts = np.zeros(n)`), or a NumPy "
            "array with a row per item, and index that."
        )
    if records or None in specs or len({len(spec[0]) for spec in specs}) > 1 or len(dtypes) > 1:
        raise StagingError(
            f"{where(origin)}: {list_name(lst)} is indexed at a key known only when "
            "the graph runs, and its items are not all arrays or numbers of one dtype and "
            "number of dimensions, so the item's kind would be known only then. Keep items of "
            "one kind, or index an array (np.take(np.stack(lst), i))."
        )
    elem = specs[0][0]
    for spec in specs[1:]:
        elem = shapes.generalize(elem, spec[0])
    dtype = dtypes.pop() if dtypes else np.result_type(*(spec[1] for spec in specs))
    # An item whose Python type depends on the path is read as that type (`materialized`):
    # the item taken then tells its own type.
    items = [materialized(v) if getattr(v, "py_kinds", None) else v for v in lst]
    value = emit("helper", "list_item", _list_item, (items, [], [], key), {}, [(elem, dtype)])
    return run_time_item(value[0])


def list_call(fn, lst: list, *args):
    """`fn(lst, *args)` (Python's sum, max or min) of a list holding the items a staged
    statement appended: Python's own function on the whole list when the graph runs."""
    n = accum_index(lst)
    if fn in (any, all):  # a Python bool of the items' truth (their kind is any)
        prefix, acc, tail = parts(lst, n)
        refuse_order(f"`{fn.__name__}`", acc.dtype, user_origin(2))
        spec = [((), np.dtype(bool), True)]
        return emit("helper", fn.__name__, LIST_CALLS[fn], (prefix, acc, tail), {}, spec)[0]
    return _run_time(fn.__name__, LIST_CALLS[fn], lst, n, args, args)


def _run_time(op, fn, lst, n, args, more_items):
    """One item of `lst` (or a value of its items' kind), computed by `fn(prefix, run, tail,
    *args)` when the graph runs."""
    acc = lst[n].tensor
    args = tuple(index_value(a) for a in args)  # a key that is None on some paths: its value
    more_items = tuple(index_value(a) for a in more_items)
    if op in ("sum", "max", "min"):
        refuse_order(f"`{op}`", acc.dtype, user_origin(3))  # records: refused
    if op == "sum" and is_row(acc.dtype):
        raise StagingError(
            f"{where(user_origin(3))}: `sum` of a list of tuples ({describe(acc.dtype)} each, "
            "appended in a staged loop): Python cannot add tuples to 0. Sum each field "
            "(`sum(r[1] for r in rows)`, or np.array(rows).sum(axis=0))."
        )
    more = [a for a in more_items if a is not None]
    elem, dtype = item_kind(lst, n, f"`{op}`", user_origin(3), more)
    if op == "sum":  # Python's sum starts from `start`: 0 + float64 items is a float64
        dtype = np.result_type(dtype, *(a.dtype if isinstance(a, Tensor) else a for a in args))
    prefix, _, tail = parts(lst, n)
    value = emit("helper", op, fn, (prefix, acc, tail, *args), {}, [(elem, dtype, False)])[0]
    if op != "sum":
        # `lst[k]` past the end (IndexError), `max()` of no items (ValueError): eager code
        # raises there whether or not it uses the item.
        may_raise(value)
    known = item_kinds.of_items([*prefix, *tail, *more_items])
    known = item_kinds.union(known, item_kinds.of_list(acc))
    return run_time_item(value, tuple(type(a) for a in args), known)


def item_kind(lst: list, n: int, op: str, origin, more=()) -> tuple:
    """`(elem shape, dtype)` of the items of `lst`, whose item `n` stands for the ones a
    staged statement appended, for `op` reading them all when the graph runs: the items known
    now (and `more`, values the read adds) must be of the same kind."""
    acc = lst[n].tensor
    known = [*lst[:n], *lst[n + 1 :], *more]
    one_kind(known, f"{op} reads it with items a staged statement appended", origin)
    elem = tuple(acc.shape[1:])
    for item in known:
        spec = item_spec(item)
        shape, dtype = spec if spec is not None else ((), None)
        if (
            spec is None
            or len(shape) != len(elem)
            or (dtype != acc.dtype and (not _weak(item) or is_row(acc.dtype)))
        ):
            shown = describe(acc.dtype) if is_row(acc.dtype) else format_spec(elem, acc.dtype)
            raise StagingError(
                f"{where(origin)}: {list_name(lst)} holds items a staged statement appended "
                f"({shown} each) "
                f"and others of another kind ({_item_text(item)}), so what {op} gives has a "
                "kind known only when the graph runs. Append items of one kind (dtype and "
                "number of dimensions)."
            )
        elem = shapes.generalize(elem, shape)
    return elem, acc.dtype


def run_time_item(value, extra=(), known=None):
    """An item read from a run-time list (`value`): a row as its tuple; a number as a Python
    number or a NumPy scalar as the run-time item is, which a tag made when the graph runs
    records (`extra`: Python types the read may give besides, as `sum`'s start of no items;
    `known`: the kinds the read can give, `item_kinds`, None if untold)."""
    if is_row(value.dtype):
        return fields(value)  # a tuple, as eagerly
    if value.shape or value.dtype.kind == "O":  # (a string: the value the graph picks)
        return value
    dtype = value.dtype
    if known is not None:
        one = item_kinds.one_python_kind(known, dtype)
        if one is not None:  # every item a Python number of one type: the read is one too
            return cast(value, one)
    kinds = [None, PY_TYPES[dtype.kind]]
    for kind in (int if dtype.kind in "fc" else None, *extra):
        if kind in _PY_NUMBERS and kind not in kinds:
            kinds.append(kind)
    kinds = tuple(kinds)
    tag = emit("helper", "kind_index", _kind_index, (value, kinds), {}, [_TAG_SPEC])[0]
    return tagged(value, tag, kinds, "the list's item")


def repeated(items: list, count):
    """`items * count` (or `count * items`) with `count` an integer known only when the graph
    runs: a list of that many copies of the items, made when it runs."""
    specs = [item_spec(v) for v in items]
    if not items or any(spec is None or len(spec[0]) != len(specs[0][0]) for spec in specs):
        origin = user_origin(3)
        held = ", ".join(
            dict.fromkeys(
                "None" if v is None else type(v).__name__ for v, s in zip(items, specs) if not s
            )
        )
        raise StagingError(
            f"{where(origin)}: `{source_text(origin)}` repeats a list a number of times known "
            "only when the graph runs, which must hold arrays or numbers of one kind (`[0] * "
            f"n`){f', not {held}' if held else ''}; make an array instead (`np.zeros(n)`), "
            "with a number standing for None (`np.full(n, -1)`)."
        )
    elem = specs[0][0]
    for spec in specs[1:]:
        elem = shapes.generalize(elem, spec[0])
    strong = [spec[1] for v, spec in zip(items, specs) if not _weak(v)]
    dtype = strong[0] if strong else specs[0][1]
    spec = [((None, *elem), dtype, False)]
    out = emit("helper", "list_repeat", repeat_list, (index_value(count), *items), {}, spec)
    return [ListAccum(out[0])]


class UnboundReturn(StagingError, UnboundLocalError):
    """A returned name no path binds: an AutoconvError of the type eager code raises."""

    def eager(self) -> UnboundLocalError:
        """The error eager code raises at the `return`."""
        return UnboundLocalError(
            f"cannot access local variable '{self.name}' where it is not associated with a value"
        )


def check_output(value, path="output"):
    """Raises if a function's outputs hold something a graph cannot return."""
    if isinstance(value, Undefined):
        value.fail()
    if rt.is_undefined(value):
        # Unbound on every path the trace took: eager code raises UnboundLocalError there.
        error = UnboundReturn(
            f"the returned value `{value.name}` is not bound on any path through the function "
            f"(eager Python raises UnboundLocalError: cannot access local variable "
            f"'{value.name}' where it is not associated with a value)"
        )
        error.name = value.name
        raise error
    if isinstance(value, ListAccum):
        raise StagingError(
            "the items that a staged loop appended to a list are known only when the graph "
            "runs, and this result holds them as a Python value (an item taken with `lst[i]`, "
            "the list inside another value, or items appended after the loop). Return "
            "np.stack(lst) (np.stack(lst)[i] for one item), or the list itself as the loop "
            "left it."
        )
    if type(value) is list and value and isinstance(value[-1], ListAccum):
        value = value[:-1]  # the list is built when the graph runs (see executor.output)
    if isinstance(value, Optional):
        check_output(value.value, path)
    elif isinstance(value, (tuple, list)):
        for v in value:
            check_output(v, path)
    elif isinstance(value, dict):
        for v in value.values():
            check_output(v, path)
    elif isinstance(getattr(value, "__dict__", None), dict) and not isinstance(value, type):
        held = [k for k, v in vars(value).items() if _g.tensors_in([v]) or _symbolic(v)]
        if held:
            raise StagingError(
                f"the function returns a {type(value).__name__} object whose attribute "
                f"`{held[0]}` holds a value computed by the graph; a graph returns arrays, "
                "numbers and tuples, lists, dicts or namedtuples of them. Return the values "
                "(e.g. `return o.v`, or a namedtuple) instead."
            )


def _symbolic(v) -> bool:
    return isinstance(v, (Optional, ListAccum, Undefined))


_tensor.uses.accumulated = sys.modules[__name__]  # numpy_dispatch calls it; imports it not
