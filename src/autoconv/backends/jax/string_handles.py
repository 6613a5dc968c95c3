"""Strings made when the graph runs, kept on the device as handles (issue 24).

An f-string, `%`-formatting or `str()` of run-time values is made on the host (`host.py`). Where
only the outputs and prints read it, the host makes it after the XLA program from the numbers
the program returns. Where the program itself must keep it (appended to a list grown in a
staged loop, chosen by a staged branch, carried by a loop), the string is made while the
program runs, by an ordered host callback, and the device holds its handle: an int32 index
into this call's `Table` of strings. The strings the code writes that such a value meets are
in the table from the start. Outputs, prints and reads of lists give the strings back from the
table, exactly the strings eager code makes.

A list's buffer of strings holds an index into the list's own objects (strings written in the
code, `lists.py`), or `-1 - handle` for a string made when the graph runs.
"""

from __future__ import annotations

import numpy as np

from autoconv.backends.jax.errors import lowering_error
from autoconv.graph.tensor import Tensor
from autoconv.locks import new_lock

DTYPE = np.dtype(np.int32)  # a handle (32 bits: see draws.py on 64-bit callback results)


class Table:
    """The strings of one call: those the code writes (`static`, fixed when lowering) first,
    then those made while the program runs, in order."""

    def __init__(self):
        self.static: list = []
        self._made: list = []
        self._lock = new_lock()
        self.failed: list = []  # (exception, node) of a string that could not be made

    def constant(self, s) -> int:
        for i, o in enumerate(self.static):
            if type(o) is type(s) and o == s:
                return i
        self.static.append(s)
        return len(self.static) - 1

    def add(self, s) -> int:
        with self._lock:
            self._made.append(s)
            return len(self.static) + len(self._made) - 1

    def get(self, handle):
        h = int(handle)
        return self.static[h] if h < len(self.static) else self._made[h - len(self.static)]

    def reset(self) -> None:
        """Before each run of the program (a call, or its attempt again after an overflow)."""
        self._made.clear()
        self.failed.clear()

    def raise_failed(self) -> None:
        """After a run: the first error making a string (`"%d" % s` of a str), as eager code
        raises it."""
        if self.failed:
            exc, node = self.failed[0]
            from autoconv.graph.errors import where

            if hasattr(exc, "add_note"):
                exc.add_note(f"raised by the graph at {where(node.origin)}")
            raise exc


def plan(graph, list_plan) -> set:
    """The ids of the string Tensors the device keeps as handles: items appended to run-time
    lists that are not strings written in the code, and strings that staged branches and loops
    give or carry (with the values their blocks give for them)."""
    found: set = set()
    work = [t for t in list_plan.handle_items if isinstance(t, Tensor)]
    for node in graph.walk():
        if node.kind in ("cond", "while"):
            for t in node.outputs:
                if _string(t) and not list_plan.is_list(t):
                    work.append(t)
    while work:
        t = work.pop()
        if t.id in found:
            continue
        found.add(t.id)
        node = t.node
        if node is None or node.kind not in ("cond", "while"):
            continue
        j = next(i for i, o in enumerate(node.outputs) if o is t)
        if node.kind == "cond":
            work += [b.outputs[j] for b in node.blocks if isinstance(b.outputs[j], Tensor)]
        else:
            body = node.blocks[1]
            for v in (node.args[j], body.outputs[j], body.params[j]):
                if isinstance(v, Tensor):
                    work.append(v)
    return found


def _string(t) -> bool:
    return isinstance(t, Tensor) and t.dtype.kind == "O" and not t.shape


class MakeString:
    """The host side of a node making a string the device keeps: `(*arrays) -> handle`."""

    def __init__(self, node, values, table: Table):
        self.node = node
        self.values = values  # host.HostValues of the node's inputs
        self.table = table

    def __call__(self, *arrays):
        from autoconv.backends.jax.host import Overflow

        t = self.node.outputs[0]
        try:
            env = self.values.env(arrays)
            made = self.values.value(t, env)
        except Overflow:
            return np.int32(0)  # the call runs again with larger buffers
        except Exception as e:  # noqa: BLE001 - the user's error, raised after the call
            self.table.failed.append((e, self.node))
            return np.int32(0)
        return np.int32(self.table.add(made))


def make(fn, *arrays):
    """The handle of the string `fn` makes on the host, in program order."""
    import jax
    from jax.experimental import io_callback

    return io_callback(fn, jax.ShapeDtypeStruct((), DTYPE), *arrays, ordered=True)


def lower(w, node, indent) -> None:
    """Writes the callback making `node`'s string (a host node whose result the device keeps)."""
    from autoconv.backends.jax.host import HostValues

    if len(node.outputs) != 1:
        raise lowering_error(node, "a string made when the graph runs comes with other results")
    (t,) = node.outputs
    values = HostValues([t], w.plan, through=True)
    fn = MakeString(node, values, w.plan.strings)
    w.callbacks.append(fn)
    cb = w.bind(fn, f"string_{t.id}")
    maker = w.bind(make, "make_string")
    args = "".join(", " + w.ref(x) for x in values.device)
    w.emit(indent, f"v{t.id} = {maker}({cb}{args})", node)
    w.names[t.id] = f"v{t.id}"


def decode_reads(w, node, indent) -> None:
    """A string read from a run-time list (an item, a pop) that the device keeps: the buffer's
    entry (an index into the list's objects, or `-1 - handle`) as a handle."""
    plan = w.plan
    for t in node.outputs:
        if t.id not in plan.handles or t.dtype.kind != "O":
            continue
        lst = next((a for a in node.args if plan.is_list(a)), None)
        if lst is None:
            raise lowering_error(node, "a string read from a list is chosen by a staged branch")
        table = [plan.strings.constant(o) for o in plan.family(lst).objects] or [0]
        v, dt = f"v{t.id}", w.dtype(DTYPE)
        w.emit(
            indent,
            f"{v} = jnp.where({v} < 0, -1 - {v}, jnp.asarray({table!r})[jnp.maximum({v}, 0)])"
            f".astype({dt})",
            node,
        )


_KEEPERS = frozenset(("cond", "while", "print", "list_append"))


def check_use(w, node) -> None:
    """Refuses an operation of the device on a string it keeps as a handle (`s == "none"`,
    `s + t`): the device has no string to compare or join."""
    if node.kind in _KEEPERS:
        return
    handles = w.plan.handles
    if any(t.id in handles for t in node.inputs):
        raise lowering_error(
            node,
            "it compares or computes with a string made when the graph runs, which this "
            "backend keeps on the device as a handle to a string made on the host; compare "
            "the numbers the string was made from instead",
        )
