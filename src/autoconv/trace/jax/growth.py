"""Lists that a staged `for` over an array grows with `append`: `lax.scan`'s stacked outputs.

A loop with a static trip count N whose body appends k items to a list in every iteration
appends N * k items, whatever the data: the body's appended items become outputs of the scan
(stacked, N first), and the list gets them, in order, after the loop. The first trace finds the
lists that grow (`effects` reports it); later traces run the body with a stand-in `Appends` in
their place that records the appended items and refuses any other use, since inside the body
the list's other items (those of the earlier iterations) do not exist as values.
"""

from __future__ import annotations

import contextlib

import jax

from autoconv.trace.core.closures import closure_cells
from autoconv.trace.jax import state as st


class Appends(list):
    """Stands for list `name` in the body of the loop that grows it: `append` and `extend`
    record items; any other use is a `JaxStagingError`."""

    __slots__ = ("name", "origin", "items")

    def __init__(self, name, origin):
        super().__init__()
        self.name, self.origin, self.items = name, origin, []

    def append(self, item):
        self.items.append(item)

    def extend(self, items):
        self.items.extend(items)

    def _fail(self, *args, **kwargs):
        st.fail(
            self.origin,
            f"list `{self.name}` grows in this `for` loop (staged by JAX as a scan, which stacks "
            "what each iteration appends), and the body uses it otherwise: there, the items "
            "earlier iterations appended are not values yet. Only `append` and `extend` it in "
            "the loop, and read it after the loop.",
        )

    def __repr__(self):
        return f"<autoconv: list `{self.name}`, grown by a loop staged by JAX>"


for _name in (
    "__len__ __getitem__ __setitem__ __delitem__ __iter__ __reversed__ __contains__ __bool__ "
    "__eq__ __ne__ __lt__ __le__ __gt__ __ge__ __add__ __radd__ __iadd__ __mul__ __rmul__ "
    "__imul__ __array__ __jax_array__ insert pop remove clear sort reverse index count copy"
).split():
    setattr(Appends, _name, Appends._fail)
Appends.__hash__ = None


@contextlib.contextmanager
def standing_in(fns, growing, origin):
    """Runs the body `fns` with an `Appends` in place of each list in `growing`
    (`{id(list): (name, list)}`); yields `{id(list): Appends}`."""
    stand_ins, swapped = {}, []
    for _name, cell, value in list(closure_cells(fns)):
        if id(value) in growing and growing[id(value)][1] is value:
            if id(value) not in stand_ins:
                stand_ins[id(value)] = Appends(growing[id(value)][0], origin)
            cell.cell_contents = stand_ins[id(value)]
            swapped.append((cell, value))
    try:
        yield stand_ins
    finally:
        for cell, value in swapped:
            cell.cell_contents = value


def outputs(growing, stand_ins, origin):
    """The items appended in one iteration, per growing list (the scan's `ys`)."""
    ys = []
    for key, (name, _) in growing.items():
        items = stand_ins[key].items if key in stand_ins else []
        for item in items:
            for leaf in jax.tree_util.tree_leaves(item, is_leaf=lambda x: x is None):
                if not (st.is_array(leaf) or type(leaf) in (int, float, complex, bool)):
                    st.fail(
                        origin,
                        f"list `{name}` grows in this `for` loop (staged by JAX) by "
                        f"{st.spec(leaf)}; only arrays and numbers (and tuples of them) can be "
                        "appended there.",
                    )
        ys.append(tuple(items))
    return tuple(ys)


def extend(growing, ys, length):
    """Appends the stacked items `ys` (from `outputs`, N first) to the real lists, in order."""
    for (_, lst), stacked in zip(growing.values(), ys):
        for t in range(length):
            for item in stacked:
                lst.append(jax.tree_util.tree_map(lambda a, t=t: a[t], item))
