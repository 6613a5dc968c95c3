"""The user's objects among a staged loop's state.

- A list an object holds (`self.free_at`), with items written in place by the body and its
  length as it was, is carried item by item as a loop variable (`list_ref`), as a local list
  the converter names is, not as one run-time list whose length is known only then.
- A variable that a staged `if` sets to an object made in a branch, of one class on both paths
  with the same attributes (`v = Vec2(a, b) if c else Vec2(b, a)`), is joined by its fields
  into a new object of that class (`fields_of`).
- A variable rebound to a new object of the same class each iteration (`pos = pos + step`
  with `Vec2.__add__` returning `Vec2(...)`) is carried by its fields: the loop reads it as a
  named tuple of its attributes (`Fields`), and sets it to a new object of its class holding
  the fields the loop gives. Eager code's object after the loop is also one the last
  iteration made (or, after no iteration, the one before the loop: the graph's holds the same
  values).
"""

from __future__ import annotations

import collections

from autoconv.runtime.staging import read_state
from autoconv.trace.tensors.accumulated import ListAccum
from autoconv.trace.tensors.unions import is_object


class CarryHidden(Exception):  # noqa: N818 - a signal between two traces of a loop
    """Hidden state changed while the loop was traced: `refs` to carry (`HiddenState`), or an
    object's list (`list_ref`)."""

    def __init__(self, refs):
        super().__init__()
        self.refs = refs


class CarryFields(Exception):  # noqa: N818 - a signal between two traces of a loop
    """A loop variable (`index` of `names`) rebound to another object of its class: carry it
    by its fields (`state`)."""

    def __init__(self, index: int, names):
        super().__init__()
        self.index, self.names = index, names

    def state(self, get_state, set_state):
        """The loop's `(get_state, set_state)`, carrying the variable by its fields."""
        names = self.names
        obj = read_state(get_state, names)[self.index]
        return carrying_fields(
            lambda: read_state(get_state, names), set_state, self.index, type(obj), tuple(vars(obj))
        )


# --- an object's list, written in place ----------------------------------------------------


def items_written(lst, before, name, names) -> bool:
    """Whether `lst`, a list the loop does not carry (an object's, or one a function the loop
    calls writes into: `best[0] = v` of a closure's `best = [None]`), only had items replaced:
    its length is the same, and it holds no run-time items."""
    return (
        len(lst) == len(before)
        and name not in names
        and not any(isinstance(v, ListAccum) for v in (*lst, *before))
    )


def carried_name(name: str) -> str:
    """The loop's state name for list `name` carried by its items: `best[:]` for a plain name
    (a path such as `self.free_at` is its own)."""
    return name if _reached(name) else f"{name}[:]"


def _reached(name: str) -> bool:
    """Whether a list's name is an attribute or an item (`self.free_at`, `m2[1]`): a list
    reached through an object or another list, which the loop carries by its path."""
    return "." in name or "[" in name


def not_carried(lists, names) -> list:
    """`(list, name)` of `lists` (those a loop's functions reach) but the objects' lists the
    loop carries as its variables (`list_ref`)."""
    return [(lst, n) for lst, n in lists if carried_name(n) not in names]


def held_items(state, names) -> list:
    """`(list, name, items)` of the loop's variables that are lists carried by their items
    (`list_ref`), as `appends._snapshot` gives: the loop's state holds the list itself, so
    setting that state again does not give it its items back (`appends._restore` does)."""
    return [(v, n, list(v)) for v, n in zip(state, names) if type(v) is list and _reached(n)]


def list_ref(name, lst):
    """`(state name, read, write)` of a list carried by its items (`HiddenState.carried`)."""

    def write(value):
        if value is not lst:
            lst[:] = value

    # (read as a copy: the items before an iteration stay as they were while the body writes
    # the list, so an item None before it and a number after it is carried as an Optional)
    return (name, lambda: list(lst), write)


# --- an object rebound each iteration, by its fields ----------------------------------------


def by_fields(before, after) -> bool:
    """Whether a loop variable that is object `before` and then `after` can be carried by its
    fields: two objects of one plain class (a `__dict__`, no `__slots__`) with the same
    attributes."""
    if before is after or type(before) is not type(after) or not is_object(before):
        return False
    cls = type(before)
    if "__slots__" in vars(cls) or not hasattr(before, "__dict__"):
        return False
    keys = list(vars(before))
    return keys == list(vars(after)) and all(k.isidentifier() for k in keys) and bool(keys)


_FIELDS: dict = {}  # (class, attribute names) -> its named tuple class


def _fields_type(cls, keys: tuple):
    """A named tuple class of `keys` whose construction from fields (as `leaves._rebuild`
    makes a structure again) gives a new object of `cls` holding them."""
    found = _FIELDS.get((cls, keys))
    if found is None:
        base = collections.namedtuple(f"{cls.__name__}Fields", keys, rename=True)

        def made(kind, *values):
            obj = object.__new__(cls)
            vars(obj).update(zip(keys, values))
            return obj

        found = _FIELDS[(cls, keys)] = type(
            base.__name__, (base,), {"__slots__": (), "__new__": made}
        )
    return found


def fields_of(obj):
    """`obj`'s attributes as its class's named tuple (see `_fields_type`)."""
    keys = tuple(vars(obj))
    kind = _fields_type(type(obj), keys)
    attrs = vars(obj)
    return tuple.__new__(kind, [attrs[k] for k in keys])


def made_in(obj, blocks) -> bool:
    """Whether `obj` holds graph values computed in `blocks` (a staged statement's branches):
    an object made there, which a Union (the objects before the statement, by identity) cannot
    hold."""
    from autoconv.graph import graph as _g

    held = _g.tensors_in(list(vars(obj).values()))
    inside = {id(n) for block in blocks for n in _g.walk(block)}
    return any(t.node is not None and id(t.node) in inside for t in held)


def carrying_fields(get_state, set_state, index: int, cls, keys: tuple):
    """`(get_state, set_state)` reading variable `index` (an object of `cls`) as its fields,
    and setting it to a new object of `cls` holding the fields given."""
    kind = _fields_type(cls, keys)

    def get():
        values = list(get_state())
        obj = values[index]
        if type(obj) is cls:
            attrs = vars(obj)
            values[index] = tuple.__new__(kind, [attrs[k] for k in keys])
        return tuple(values)

    def put(values):
        values = list(values)
        fields = values[index]
        if type(fields) is kind:
            obj = object.__new__(cls)
            vars(obj).update(zip(keys, fields))
            values[index] = obj
        set_state(tuple(values))

    return get, put
