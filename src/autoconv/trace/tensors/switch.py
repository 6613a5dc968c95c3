"""A key known only when the graph runs, drawn from a finite set known now, is a switch over
that set.

A Python list of fixed length read or written at an index that is a Tensor (`pos[turn] +=
roll`, `seen[u] = True`, `names[np.argmax(x)]`), or a dict at a key a staged condition chose
among constants (`d["pos" if v > 0 else "neg"] += 1`, a `Choice`):

    lst[i]          ->  item 0, then for each k > 0 `item k if i == k else the value so far`
    lst[i] = v      ->  item k becomes `v if i == k else item k`, for every k, in place

Each `x if c else y` is `pick`: a `np.where` per array or number (with the Python type each
side has, `path_types`), a tag per string or other constant (a `Choice`), a flag per value
that is None on one side (an `Optional`). The list stays the same object, so other names see
the write, and staged loops and branches carry its items as any item change. An index past
either end raises Python's IndexError when the graph runs (a staged raise, as the user's
`raise` is), a key not in the dict its KeyError.

A list longer than `LIMIT` items, or a graph whose switches would choose among more than
`BUDGET` items in all (a switch in a loop that Python unrolls over the list: its square),
keeps the error that asks for an array.
"""

from __future__ import annotations

import weakref

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph.eager_types import eager_type
from autoconv.graph.errors import StagingError, where
from autoconv.graph.origin import user_origin
from autoconv.graph.tensor import PY_TYPES, Tensor
from autoconv.trace.core.join import SAME, plan_leaf
from autoconv.trace.tensors import loop_texts
from autoconv.trace.tensors.accumulated import ListAccum, list_name
from autoconv.trace.tensors.choices import _TAG, Choice, atom, options_of, tag_of
from autoconv.trace.tensors.leaves import (
    LEAVES,
    _as_tensor,
    _cast,
    _rebuild,
    _spec_text,
    _struct,
    _tag_for,
)
from autoconv.trace.tensors.optionals import lift_pair, raise_node
from autoconv.trace.tensors.path_types import kinds_of, tagged

LIMIT = 64
"""The most items a list (or options a key) may have for a switch over them: each read or
write of a longer one would add that many operations to the graph."""

BUDGET = 4096
"""The most items all the switches of one graph may choose among (a switch in a Python loop
that unrolls over the list's own length grows as its square)."""

_SPENT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # graph -> items switched


def key_of(key):
    """`key` as a list index known only when the graph runs (a 0-d integer Tensor, or a
    Python bool or int standing for one), or None where this module does not take it."""
    if not isinstance(key, Tensor) or key.shape or key.dtype.kind not in "iub":
        return None
    if key.dtype.kind == "b" and not key.weak:
        return None  # a NumPy bool is no list index eagerly either: Python's TypeError
    return key


def list_read(lst: list, key, origin=None):
    """`lst[key]` at a key known only when the graph runs: the item then, or `NOT_MINE` when
    the list (or tuple) is not one this module can switch over (the caller keeps its own
    error)."""
    if not _switchable(lst):
        return NOT_MINE
    origin = origin or user_origin(1)
    name = _name(lst)
    error = IndexError(f"{type(lst).__name__} index out of range")
    index = _checked(key, len(lst), error, origin)
    stacked = _stacked(lst, index)
    if stacked is not None:
        return stacked
    value = lst[0]
    for k in range(1, len(lst)):
        value = pick(index == k, lst[k], value, f"{name}[{k}]", origin, "read")
    return value


def list_write(lst: list, key, value, origin=None) -> bool:
    """`lst[key] = value` at a key known only when the graph runs, in place: False when the
    list is not one this module can switch over (the caller keeps its own error)."""
    if not _switchable(lst):
        return False
    origin = origin or user_origin(1)
    name = _name(lst)
    _plain(value, name, origin)
    index = _checked(key, len(lst), IndexError("list assignment index out of range"), origin)
    new = [pick(index == k, value, item, f"{name}[{k}]", origin) for k, item in enumerate(lst)]
    lst[:] = new  # the same list: every name that holds it sees the write, as eagerly
    return True


def dict_read(d: dict, key: Choice, origin=None):
    """`d[key]` with `key` a Choice: the item of the option the graph picks; KeyError then
    for an option that is not a key of `d`."""
    origin = origin or user_origin(1)
    options = _dict_options(d, key, origin)
    missing = [j for j, o in enumerate(options) if o not in d]
    for j in missing:
        _raise_if(key.tag == j, KeyError(options[j]), origin)
    _READ[0] = (d, key) if missing else None
    present = [j for j in range(len(options)) if j not in missing]
    if not present:
        raise StagingError(
            f"{where(origin)}: `{key.ac_name}` is {_options_text(options)}, and none of them is a "
            "key of this dict: eager code raises KeyError here."
        )
    value = d[options[present[0]]]
    for j in present[1:]:
        value = pick(key.tag == j, d[options[j]], value, f"{_name(d)}[{options[j]!r}]", origin)
    return value


def dict_write(d: dict, key: Choice, value, origin=None) -> None:
    """`d[key] = value` with `key` a Choice: each option's item becomes `value` where the
    graph picks that option. Every option must be a key of `d` already (else the dict's keys
    would be known only when the graph runs)."""
    origin = origin or user_origin(1)
    options = _dict_options(d, key, origin)
    missing = [o for o in options if o not in d]
    read, _READ[0] = _READ[0], None
    if missing and read is not None and read[0] is d and read[1] is key:
        # `d[key] += 1`: the read raised KeyError for these options already, as eagerly.
        options = tuple(o for o in options if o in d)
        missing = []
    if missing:
        raise StagingError(
            f"{where(origin)}: this stores into a dict at `{key.ac_name}`, which is "
            f"{_options_text(options)}, chosen by a condition known only when the graph runs, "
            f"and {_options_text(missing)} is not a key of the dict yet, so its keys would be "
            "known only then. Give the dict every key first (`d = {"
            + ", ".join(f"{o!r}: 0" for o in options)
            + "}`)."
        )
    _plain(value, "the dict's item", origin)
    for o in options:
        j = key.options.index(o)
        d[o] = pick(key.tag == j, value, d[o], f"{_name(d)}[{o!r}]", origin)


def pick(cond, a, b, name: str, origin, what: str = "write"):
    """`a if cond else b` (a bool Tensor `cond`) without a staged statement: leaf by leaf, a
    `np.where` for arrays and numbers, a tag for strings and other constants, a flag for a
    value that is None on one side."""
    if a is b:
        return a
    a, b = lift_pair(name, a, b, origin)
    la, lb = [], []
    sa, sb = _struct(a, la), _struct(b, lb)
    if sa != sb:
        _fail(origin, name, a, b, what, "has another structure")
    leaves = [_leaf(cond, x, y, name, origin, what) for x, y in zip(la, lb)]
    return _rebuild(sa, leaves, (a, b))


def _leaf(cond, x, y, name, origin, what):
    if x is y:
        return x
    x, y = loop_texts.texts(x, y)
    if isinstance(x, Choice) or isinstance(y, Choice) or (atom(x) and atom(y)):
        if not all(isinstance(v, Choice) or atom(v) for v in (x, y)):
            _fail(origin, name, x, y, what, "is another kind of value")
        if atom(x) and atom(y) and type(x) is type(y) and x == y:
            return x
        options = options_of(x, y)
        tag = np.where(cond, _as_tensor(tag_of(x, options), _TAG), tag_of(y, options))
        return Choice(tag, options, name)

    def fail(kind):
        _fail(origin, name, x, y, what, f"differs in {kind}")

    plan = plan_leaf(x, y, LEAVES, fail)
    if plan[0] == SAME:
        return x
    spec = plan[1]
    if None in spec[0]:
        fail("shape")
    value = np.where(cond, _as_tensor(x, spec), _as_tensor(y, spec))
    if spec[2] and not value.weak:
        value = _cast(value, PY_TYPES[spec[1].kind])
    elif not spec[0] and np.ndarray not in (_numpy_type(x), _numpy_type(y)):
        value = _cast(value, spec[1].type)  # a NumPy scalar, as the items are (not 0-d)
    kx, ky = kinds_of(x), kinds_of(y)
    if kx != ky or len(kx) > 1:
        # A Python number on one side, a NumPy value (or another Python type) on the other:
        # the value in the joined dtype, and a tag for the type each side gives it.
        kinds = tuple(dict.fromkeys(kx + ky))
        tag = np.where(cond, _as_tensor(_tag_for(x, kinds), _TAG), _tag_for(y, kinds))
        value = tagged(value, tag, kinds, name)
    return value


def _numpy_type(v):
    """`np.ndarray` for a 0-d array (a Tensor that is one when the graph runs), else None."""
    if isinstance(v, Tensor):
        return None if v.weak else eager_type(v)
    return np.ndarray if isinstance(v, np.ndarray) else None


def _stacked(lst: list, index):
    """`lst[index]` for items that are arrays or numbers of one spec and Python type: one
    stack and one take, or None."""
    if any(isinstance(v, (Tensor, ListAccum)) and getattr(v, "py_kinds", None) for v in lst):
        return None
    if not all(LEAVES.numeric(v) for v in lst):
        return None
    specs = {LEAVES.spec(v) for v in lst}
    kinds = {kinds_of(v) for v in lst}
    if len(specs) != 1 or len(kinds) != 1 or any(_numpy_type(v) is np.ndarray for v in lst):
        return None
    spec = specs.pop()
    stack = np.stack([_as_tensor(v, (spec[0], spec[1], False)) for v in lst])
    value = stack[index]
    if spec[2]:
        value = _cast(value, PY_TYPES[spec[1].kind])
    return value


def _checked(key, n: int, exc: Exception, origin):
    """The index `key` wrapped into `0..n-1` as Python wraps a negative one; past either end
    the graph raises `exc` when it runs."""
    from autoconv.trace.tensors import staged_try

    bad = (key < -n) | (key >= n)
    if staged_try.failure_point(type(exc), exc, bad):
        key = np.where(bad, 0, key)  # a `try` around it takes its handler there
    else:
        _raise_if(bad, exc, origin)
    return np.where(key < 0, key + n, key)


def _raise_if(bad, exc: Exception, origin) -> None:
    """Records that the graph raises `exc` where `bad` (a bool Tensor) is true when it runs."""
    from autoconv.trace.tensors.merge import _Merger

    with _g.sub_block() as fails:
        raise_node(exc, origin)
    with _g.sub_block() as passes:
        pass
    _Merger(("failing", "passing"), [fails, passes], origin, "index check").finish(bad)


def _switchable(lst) -> bool:
    if not 0 < len(lst) <= LIMIT or any(_container(v) for v in lst):
        return False
    graph = _g.current().graph
    spent = _SPENT.get(graph, 0) + len(lst)
    if spent > BUDGET:
        return False  # the caller's error: make the list an array
    _SPENT[graph] = spent
    return True


def _container(v) -> bool:
    """A list, dict or set (or a tuple holding one), or a list a staged loop appended to: an
    item read through a switch would be a new object, and a write into it (`grid[i][j] = v`)
    would not reach the list's own item."""
    t = type(v)
    if t is tuple:
        return any(_container(x) for x in v)
    return t in (list, dict, set) or isinstance(v, ListAccum)


def _plain(value, name, origin) -> None:
    """A value written at a key known only when the graph runs must be one a `np.where` or a
    tag can choose: a list or dict would be copied, where eager code stores the object."""
    for v in value if type(value) is tuple else (value,):
        if type(v) in (list, dict, set) or isinstance(v, ListAccum):
            raise StagingError(
                f"{where(origin)}: this stores a {type(v).__name__} into `{name}` at an index "
                "known only when the graph runs, which can choose numbers, arrays and "
                "strings, not a container other names may share. Store numbers or arrays "
                "(a row of a 2-d array rather than a list)."
            )


def _dict_options(d, key: Choice, origin) -> tuple:
    if len(key.options) > LIMIT:
        raise StagingError(
            f"{where(origin)}: `{key.ac_name}` has {len(key.options)} values, more than {LIMIT}: "
            "index the dict with a value known now."
        )
    return key.options


def _name(container) -> str:
    """The user's name for a list or dict (`groups`), else "the list" / "the dict"."""
    text = list_name(container)
    if text.startswith("list `"):
        return text[len("list `") : -1]
    return "the dict" if type(container) is dict else "the list"


def _options_text(options) -> str:
    return " or ".join(repr(o) for o in options)


def _fail(origin, name, x, y, what, why):
    if type(x) in (list, dict) or type(y) in (list, dict):
        # `groups[label].append(v)`: the list picked is changed, which a value of the graph
        # standing for one of several lists cannot pass on to the one picked
        advice = (
            "A list or dict picked at a key known only when the graph runs cannot be changed "
            "in place: write an `if` per key (`if label == 'low': groups['low'].append(v)`), "
            "or keep counts or arrays as the items."
        )
    else:
        advice = (
            "Keep the items one kind (numbers or arrays of one dtype and shape, or strings), or "
            "make the list a NumPy array."
        )
    raise StagingError(
        f"{where(origin)}: `{name}` is {_spec_text(y if what == 'write' else x)}, and the "
        f"value {'written' if what == 'write' else 'read'} at an index known only when the graph "
        f"runs is {_spec_text(x if what == 'write' else y)}; it {why}, so one value of the "
        f"graph cannot stand for both. {advice}"
    )


_READ: list = [None]
"""`(dict, key)` of the last `dict_read` that raised KeyError for some options: the write of
the same `d[key] op= value` that follows leaves those options out."""

NOT_MINE = object()
"""What `list_read` gives for a list it does not switch over."""
