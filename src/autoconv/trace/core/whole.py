"""Items with an int key of an array that cannot change in place, carried whole.

In a staged branch or loop the converter writes `x[0] = v` as `x = ac.setitem_path(x, 0, v)`
and carries the item by its path, `x[0]`: right for a list or a NumPy array, which change in
place. A traced array (our Tensor, a JAX tracer) cannot: the name gets a new array. So a
statement carries such an `x` whole, in place of its item: read from the variable's closure
cell, and set there after the statement (the item's own write-back then leaves it alone).
Both tracers use this, each with its own test of what cannot change.
"""

from __future__ import annotations

from collections.abc import Callable

from autoconv.runtime import staging
from autoconv.runtime.items import CARRIED


def whole_items(get_state, names, immutable: Callable[[object], bool]) -> dict:
    """`{index: (cell, key)}` for the names among `names` that are an item with an int key
    (`x[0]`) of a value `immutable` accepts, held by a variable of the converted function."""
    found = {}
    cells = None
    for i, name in enumerate(names):
        if not name.endswith("]"):
            continue
        root, accessors = staging._parse(name)
        if len(accessors) != 1 or accessors[0][0] or type(accessors[0][1]) is not int:
            continue
        if cells is None:
            cells = dict(zip(get_state.__code__.co_freevars, get_state.__closure__ or ()))
        cell = cells.get(root)
        try:
            value = cell.cell_contents if cell is not None else None
        except ValueError:  # unbound
            continue
        if immutable(value):
            found[i] = (cell, accessors[0][1])
    return found


def read_whole(get_state, names, immutable) -> tuple:
    """The values of `names` (`staging.read_state`), with each item of `whole_items` as the
    whole array that holds it."""
    values = staging.read_state(get_state, names)
    whole = whole_items(get_state, names, immutable)
    if not whole:
        return values
    values = list(values)
    for i, (cell, _) in whole.items():
        values[i] = cell.cell_contents
    return tuple(values)


def write_whole(get_state, names, values, immutable) -> tuple:
    """Sets each array carried whole (`read_whole`) in its variable's cell; returns `values`
    with `CARRIED` in its place, for `set_state` (whose write-back then leaves it as it is)."""
    whole = whole_items(get_state, names, immutable)
    if not whole:
        return values
    values = list(values)
    for i, (cell, _) in whole.items():
        if immutable(values[i]) and getattr(values[i], "ndim", 0):
            cell.cell_contents = values[i]
            values[i] = CARRIED  # `ac.store_item` then leaves the new array as it is
    return tuple(values)


def carried_whole(get_state, set_state, names, immutable):
    """`(get_state, set_state)` of a statement, reading and setting the arrays of `whole_items`
    whole (the same functions when there are none)."""
    if not names or not whole_items(get_state, names, immutable):
        return get_state, set_state

    def get():
        return read_whole(get_state, names, immutable)

    def put(values):
        set_state(write_whole(get_state, names, values, immutable))

    return get, put


def removing_undefined(get_state, set_state, names):
    """`set_state`, then each item or attribute among `names` (`d['k']`, `o.attr`) whose value
    is undefined (it did not exist before the statement: `staging.read_state`) removed again,
    so that the statement's first reads find it missing, as eagerly (`d.get('k', 0)`), not a
    stand-in. The same function where no name is an item or attribute."""
    paths = [(i, name) for i, name in enumerate(names) if staging._parse(name)[1]]
    if not paths:
        return set_state

    def put(values):
        set_state(values)
        gone = [name for i, name in paths if staging.is_undefined(values[i])]
        if gone:
            cells = dict(zip(get_state.__code__.co_freevars, get_state.__closure__ or ()))
            for name in gone:
                root, accessors = staging._parse(name)
                remove_path(cells, get_state.__globals__, root, accessors)

    return put


def remove_path(cells, globals_, root, accessors) -> None:
    """Deletes the item or attribute `root` + `accessors` names, where it exists."""
    try:
        value = cells[root].cell_contents if root in cells else globals_[root]
        for is_attr, key in accessors[:-1]:
            value = getattr(value, key) if is_attr else value[key]
        is_attr, key = accessors[-1]
        if is_attr:
            delattr(value, key)
        elif isinstance(value, dict):
            dict.__delitem__(value, key)
    except (ValueError, LookupError, AttributeError, TypeError):
        pass
