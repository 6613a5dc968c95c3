"""Lists grown in staged loops, planned as preallocated buffers for the JAX lowering.

A run-time list (the `list_new` / `list_append` values a staged loop or a branch carries) is a
pair `(buffer, count)` on the device: `buffer` holds `capacity x item shape` items of the list's
dtype, `count` how many are in use. XLA needs the capacity when it compiles, so `ListPlan`
bounds every list's length from the graph alone:

- an append adds its items; a branch yields the longer of its two lists;
- a `while` loop runs at most T times, where its test counts a loop variable up to a constant
  (`i < N` with `i` starting at a constant and growing by a constant each iteration: the loop of
  a `for` over a range or an axis of static length) or measures a list that grows every
  iteration (`len(lst) < N`); a `break` or a raise only ends it sooner.

Each list's *count* is exact (known while compiling) when every path appends the same number of
items and every loop runs exactly its bound (no `break`). Lists connected by appends, branches
and loops share one buffer size (a "family": the largest bound among them).

A list used after the loop with an exact count is sliced statically on the device. One whose
count is known only when the graph runs has a shape XLA cannot compile: its stack either
leaves the program (returned, or printed) and is sliced on the host, so results are exactly
eager's, or is used only on the device as a mask selection of the buffer's first `count` rows
(`masked_stacks`, lowered by `masks.py`: reductions, counts, indexing). Its items, `sum` /
`max` / `min` and a loop over it are read on the device over the first `count` rows
(`reads.py`); two lists joined in a branch (`list_concat`)
share their family's buffer size, which holds both. A slice or a list method (`changes.py`)
gives a new list of the same family, whose bounds hold the items known while tracing too.
Anything else raises a `LoweringError` that names the list and the line.

A list of tuples (`rows.py` in the tracer: a structured dtype) has a buffer per item of the
tuples; strings, alone or in tuples, are held as indices into the family's `objects` (the
strings the code names or a staged condition chooses among), given back on the host.

A list grown in a loop the graph does not bound (`while loss > tol: history.append(loss)`) is
*growable*: its family gets a starting capacity (`start_capacity`), and `append` keeps counting
past it without writing. The host sees every overflow, a count larger than its buffer:
where the list leaves the program, and where the device reads it (the read's check calls the
host, `reads.Check`). The program then compiles again
with a larger capacity and runs again from the same inputs (`program.py`); nothing the
overflowed attempt did is kept (`host.Overflow`, `Pending`).
"""

from __future__ import annotations

import builtins
import math

import numpy as np

from autoconv.backends.jax import branch_stacks as _branch_stacks
from autoconv.backends.jax import item_kinds as _item_kinds
from autoconv.backends.jax import keyed_plan as _keyed_plan
from autoconv.backends.jax import kind_combos as _kind_combos
from autoconv.backends.jax import read_pairs as _read_pairs
from autoconv.backends.jax import repeats as _repeats
from autoconv.backends.jax import string_handles as _string_handles
from autoconv.backends.jax import tagged as _tagged
from autoconv.backends.jax.errors import lowering_error
from autoconv.backends.jax.trips import const_int as _const_int
from autoconv.backends.jax.trips import times as _times
from autoconv.backends.jax.trips import trips as _trips
from autoconv.graph import helpers as _helpers
from autoconv.graph.eager_types import eager_type
from autoconv.graph.graph import Graph, tensors_in
from autoconv.graph.record_layout import layout_of, leaf_kinds, leaf_place
from autoconv.graph.tensor import Tensor

_PY_NUMBERS = frozenset((bool, int, float, complex))

# np.array(lst) and np.stack(lst) of one list are its buffer's first `count` rows.
PLAIN_STACKERS = (np.array, np.asarray, np.stack)
# Changes of run-time lists (`changes.py`): the list methods and slices, and how many items
# each adds (None: a slice, at most as many as it had).
_CHANGES = {
    _helpers.slice_list: None,
    _helpers.LIST_METHODS["pop"]: -1,
    _helpers.LIST_METHODS["remove"]: -1,
    _helpers.LIST_METHODS["insert"]: 1,
    **{_helpers.LIST_METHODS[m]: 0 for m in ("sort", "reverse", "index", "count", "setitem")},
    _helpers.contains_list: 0,
    **{_helpers.LIST_METHODS[m]: 1 for m in ("heappush", "insort_right", "insort_left")},
    _helpers.LIST_METHODS["heappop"]: -1,
    **{
        _helpers.LIST_METHODS[m]: 0
        for m in ("heappushpop", "heapreplace", "heapify", "bisect_left", "bisect_right")
    },
}
# (the ones that add an item take it first, not after an index as `insert`)
_PUSHES = frozenset(
    _helpers.LIST_METHODS[m]
    for m in ("heappush", "insort_right", "insort_left", "heappushpop", "heapreplace")
)
# The most items a list grown in an unbounded loop may hold: no bound known while compiling.
UNBOUNDED = math.inf
_PROBE = 1 << 20  # items a loop's list holds when its body is traced again (`_resets`)
# A growable list starts with room for 16 items, or for 4 KiB of items where they are smaller
# (512 float64 scalars): most loops that run until a test fails (a loss history, a parser's
# tokens) stay under that, and never pay a second compile, while zeroing 4 KiB costs nothing
# next to one. Larger items start at 16: memory grows with the item.
START_ITEMS = 16
START_BYTES = 4096


def start_capacity(elem: tuple, dtype) -> int:
    """The starting number of items of a growable list of items of shape `elem`."""
    if any(d is None for d in elem):
        return START_ITEMS  # no buffer is allocated (`buffer_shape` raises)
    size = max(int(np.prod(elem, dtype=np.int64)) * np.dtype(dtype).itemsize, 1)
    return max(START_ITEMS, START_BYTES // size)


def grown_capacity(capacity: int, count: int) -> int:
    """The capacity to compile again with after a list of `capacity` items counted `count`:
    at least double (so at most log2(n) compiles) and a power of two that holds `count`."""
    return max(2 * capacity, 1 << (count - 1).bit_length())


class Pending:
    """Prints of a program that may run again: kept during an attempt, printed after the one
    that counts (`flush`), dropped for one that overflowed (`restore`). Its `save`/`restore`
    is the protocol every host callback with state follows (see `JaxProgram`)."""

    def __init__(self):
        self.items: list = []

    def save(self) -> int:
        return len(self.items)

    def restore(self, token: int) -> None:
        del self.items[token:]

    def flush(self) -> None:
        items, self.items = self.items, []
        for args, kwargs in items:
            builtins.print(*args, **kwargs)


def stacker_func(node):
    """The NumPy function (np.stack, np.array, ...) of a node stacking lists, or None."""
    if node.kind != "helper":
        return None
    for func, made in _helpers.STACKERS.items():
        if made is node.fn:
            return func
    return None


class _Family:
    """Lists that share one buffer: joined by appends, branches and loops."""

    __slots__ = (
        *("parent", "elem", "dtype", "cap", "kinds", "sources", "name", "origin", "index"),
        *("objects", "fields", "mapped", "untaggable"),
    )

    def __init__(self, t: Tensor, node):
        self.parent = self
        self.elem = tuple(t.shape[1:])
        self.dtype = t.dtype
        self.cap = 0
        self.kinds: set = set()
        self.sources: list = []  # families whose items were read back and appended here
        self.mapped: list = []  # kinds chosen by a branch from a read's (item_kinds.py)
        self.name = node.attrs.get("list") if node is not None else None
        self.origin = node.origin if node is not None else None
        self.index = None  # its place among the growable families (None: bounded)
        # Strings (and other Python atoms) the items may be: the buffer holds their indices.
        self.objects: list = []
        # Of a list of tuples (rows): the Python types of each item of the tuples.
        self.fields = [set() for _ in t.dtype.names] if t.dtype.names else None
        # Whether an item's Python type is not known on the device (tagged.py)
        self.untaggable = False

    def root(self) -> _Family:
        f = self
        while f.parent is not f:
            f = f.parent
        return f


class ListPlan:
    """Bounds and counts of a graph's run-time lists; see the module docstring."""

    def __init__(self, graph: Graph, capacities=None):
        """`capacities`: the buffer sizes of the growable families, in order (None: each
        family's `start_capacity`)."""
        self.bounds: dict = {}  # tensor id -> (fewest items, most items)
        self._family: dict = {}  # tensor id -> _Family
        self.uses: dict = {}  # tensor id -> nodes using it
        self.shrunk: set = set()  # the families a pop or remove takes items from
        self._changed: list = []  # (node, family) of each slice or list method
        self._spans: list = []  # (family, most items) of the whole lists they work on
        self.handle_items: list = []  # strings made when the graph runs, appended
        self._sums: list = []  # (family, the read) of each `sum(lst)` appended (`_item`)
        self._block(graph.block)
        for fam, read in self._sums:
            fam, kinds = fam.root(), _tagged.sum_kinds(self, read)
            if kinds is not None:  # the device tags each sum with its type (tagged.py)
                fam.kinds |= kinds
            else:  # of the items' kinds, as any read's
                fam.sources.append(self._family[read.args[1].id])
                fam.untaggable = True
        self._check_divisions()
        # Lists of Python and NumPy numbers by path: a tag per item (tagged.py)
        self.tagged = _tagged.plan(self)
        for node, fam in self._changed:
            if not self._numbers_only(node.outputs[0]):
                _one_kind(node, fam.root(), self._text(fam.root()))
        for tid, (_, hi) in self.bounds.items():
            fam = self._family[tid].root()
            fam.cap = max(fam.cap, hi)
        for fam, hi in self._spans:  # a slice or method's whole list, in one buffer
            fam.root().cap = max(fam.root().cap, hi)
        self.growable: list[_Family] = []  # families grown in loops with no bound, in order
        for fam in dict.fromkeys(f.root() for f in self._family.values()):
            if fam.cap == UNBOUNDED:
                fam.index = len(self.growable)
                self.growable.append(fam)
                given = capacities[fam.index] if capacities else None
                fam.cap = given or start_capacity(fam.elem, fam.dtype)
        self.overflow: dict = {}  # growable family index -> the most items counted (an attempt)
        self.host_nodes = self._host_stackers(graph)
        self.strings = _string_handles.Table()
        self.handles = _string_handles.plan(graph, self)

    def _check_divisions(self) -> None:
        """The quotients of reads (`a / b` of two `stack.pop()`s) that are Python numbers on
        some path: Python raises ZeroDivisionError there, where the device divides by zero
        silently, so the lowering checks the divisor on those paths (`zero_checks`: id of the
        division -> its tag and, for each of the tag's values, whether it is such a path)."""
        self.zero_checks: dict = {}
        for fam in dict.fromkeys(f.root() for f in self._family.values()):
            for m in fam.mapped:
                if not isinstance(m, _kind_combos.Combo) or m.division is None:
                    continue
                if m.resolve([_all_kinds(f) for f in m.families]) & _PY_NUMBERS:
                    python = tuple(k in _PY_NUMBERS for k in m.kinds)
                    self.zero_checks[id(m.division)] = (m.tag, python)

    def _numbers_only(self, t: Tensor) -> bool:
        """Whether list `t` is only stacked (`np.mean(gains[-3:])`) or measured: its items'
        Python types are then not seen, and may differ."""
        users = self.uses.get(t.id, ())
        return all(stacker_func(u) is not None or u.fn is builtins.len for u in users)

    # --- queries --------------------------------------------------------------------------
    def is_list(self, v) -> bool:
        return isinstance(v, Tensor) and v.id in self.bounds

    def family(self, t: Tensor) -> _Family:
        return self._family[t.id].root()

    def count(self, t: Tensor):
        """The number of items of list `t`, where it is known while compiling (else None)."""
        lo, hi = self.bounds[t.id]
        return lo if lo == hi else None

    def capacities(self) -> list:
        return [fam.cap for fam in self.growable]

    def overflowed(self, t: Tensor, value) -> bool:
        """Whether the `(buffer, count)` value of list `t` counted more items than its buffer
        holds (recorded in `overflow`, for the next compile)."""
        fam = self.family(t)
        if fam.index is None:
            return False
        count = int(np.asarray(value[1]))
        if count <= max(fam.cap, 1):
            return False
        self.overflow[fam.index] = max(self.overflow.get(fam.index, 0), count)
        return True

    def describe(self, t: Tensor) -> str:
        fam = self.family(t)
        return f"list `{fam.name}`" if fam.name else "a list"

    def buffer_shapes(self, t: Tensor, node) -> list:
        """`(shape, dtype)` of each buffer of list `t` (one per field of a list of tuples)."""
        fam = self.family(t)
        dtypes = self.device_dtype(t)
        if fam.fields is None:
            return [(self.buffer_shape(t, node), dtypes)]
        rows = max(fam.cap, 1)
        return [((rows, *fam.dtype[name].shape), dt) for name, dt in zip(fam.dtype.names, dtypes)]

    def buffer_shape(self, t: Tensor, node) -> tuple:
        fam = self.family(t)
        if any(d is None for d in fam.elem):
            raise lowering_error(
                node,
                f"the items of {self.describe(t)} have a shape known only when the graph runs, "
                "so no buffer can be allocated for them",
            )
        return (max(fam.cap, 1), *fam.elem)

    def item_kind(self, t: Tensor):
        """The Python type eager code gives each item (None when the items differ)."""
        kinds = self.all_kinds(t)
        return next(iter(kinds)) if len(kinds) == 1 else None

    def tags(self, t: Tensor):
        """The kinds of tagged list `t`'s items (tagged.py), or None where it is not one."""
        return self.tagged.get(id(self.family(t)))

    @staticmethod
    def all_kinds_of(fam) -> set:
        return _all_kinds(fam)

    def all_kinds(self, t: Tensor) -> set:
        """The Python types of list `t`'s items: its own, and those of the lists items were
        read back from (`order.append(queue.pop(0))`: whatever the queue held)."""
        return _all_kinds(self.family(t))

    def device_dtype(self, t: Tensor):
        """The dtype of list `t`'s buffer: a tuple of one per field for a list of tuples; an
        index into the family's `objects` for strings."""
        fam = self.family(t)
        if fam.fields is None:
            return np.dtype(np.int64) if fam.dtype.kind == "O" else fam.dtype
        return tuple(
            np.dtype(np.int64) if fam.dtype[name].base.kind == "O" else fam.dtype[name].base
            for name in fam.dtype.names
        )

    def object_index(self, t: Tensor, v) -> int:
        """The index of Python atom `v` (a string) among the objects list `t` may hold."""
        for i, o in enumerate(self.family(t).objects):
            if type(o) is type(v) and (o is v or o == v):
                return i
        raise AssertionError(f"{v!r} was not planned")  # pragma: no cover

    def eager_items(self, t: Tensor, buffer, count: int):
        """The items of a list of tuples or strings (its buffer from the device) as eager code
        holds them, else None."""
        fam = self.family(t)
        if fam.fields is None and fam.dtype.kind != "O":
            return None
        if fam.fields is None:
            return [self._object(fam, i) for i in np.asarray(buffer)[:count].tolist()]
        columns = []
        for name, kinds, column in zip(fam.dtype.names, fam.fields, buffer):
            column = np.asarray(column)[:count]
            if fam.dtype[name].base.kind == "O":
                columns.append([self._object(fam, i) for i in column.tolist()])
            else:
                columns.append(_eager_column(next(iter(kinds), None), column))
        return list(zip(*columns)) if columns else [()] * count

    def _object(self, fam, i: int):
        """An item of a list of strings: one of its objects, or (`-1 - handle`) a string made
        when the graph runs (string_handles.py)."""
        return fam.objects[i] if i >= 0 else self.strings.get(-1 - i)

    # --- the bounds -----------------------------------------------------------------------
    def _item(self, fam, item, node):
        """Records an item added to a list of family `fam`: its Python type, and for strings
        the objects it may be."""
        summed = _tagged.summed(item)
        source = self._read_from(as_kind_value(item)) if summed is None else None
        derived = _derived(self, item) if source is None and summed is None else None
        if not _tagged.taggable(item, _kinds) or source is not None or derived is not None:
            fam.untaggable = True
        if summed is not None:  # `sum(cur)`: its kinds follow from `cur`'s (`_sums`)
            self._sums.append((fam, summed))  # (known once every pass has bounded `cur`)
        elif source is not None:
            prefix, lst, tail = source
            fam.sources.append(self._family[lst.id])
            fam.kinds.update(k for v in (*prefix, *tail) for k in _kinds(v))
        elif derived is not None:  # `lst[i] * 2`: a read's kind, kept by the arithmetic
            fam.sources.append(self._family[derived[0].id])
            fam.kinds.update(derived[1])
        elif (chosen := _item_kinds.path_kinds(self, item)) is not None:
            fam.kinds.update(chosen[0])  # `1 if ... else lst[-1]`: the kinds of each path
            fam.mapped += [
                m if isinstance(m, _kind_combos.Combo) else (self._family[m[0].id], *m[1:])
                for m in chosen[1]
            ]
        else:
            fam.kinds.update(_kinds(item))
        if fam.fields is None:
            if fam.dtype.kind == "O":
                self._objects(fam, item, node)
            return
        leaves = leaf_kinds(layout_of(fam.dtype) or ("t", ("x",) * len(item)))
        if "r" in leaves:  # (the item, or a list in its tuple, dict or list)
            raise lowering_error(
                node,
                f"{self._text(fam)} holds lists whose lengths are known only when the graph "
                "runs (`runs.append(cur)` of a list a staged loop grew), which one device "
                "buffer does not keep. Append the values to one flat list and each group's "
                "length to another (`flat.extend(cur); sizes.append(len(cur))`)",
            )
        for j, (name, v) in enumerate(zip(fam.dtype.names, item)):
            if fam.dtype[name].base.kind == "O":
                self._objects(fam, v, node)
            else:
                value_of = j + 1 < len(item) and leaves[j : j + 1] == ["v"]
                flag = item[j + 1] if value_of else None  # (a value-or-None's)
                fam.fields[j] |= _item_kinds.field_kinds(self, v, flag=flag)
                if len(fam.fields[j]) > 1:
                    place = leaf_place(layout_of(fam.dtype), j)
                    raise lowering_error(
                        node,
                        f"{place} appended to {self._text(fam)} "
                        f"{'are' if place == 'the items' else 'is'} of several Python types "
                        f"({_kinds_text(fam.fields[j])}, by the path each took), which one "
                        "buffer does not keep; append one kind of number (int(u), np.int64(u))",
                    )

    def _read_from(self, item):
        """`(prefix, list, tail)` where `item` is an item read back from a run-time list (an
        item at a key, a pop), else None."""
        node = item.node if isinstance(item, Tensor) else None
        if node is None or node.kind != "helper" or len(node.args) < 3:
            return None
        if node.fn is not _helpers.list_item and node.fn not in _helpers.POPS:
            return None
        prefix, lst, tail = node.args[:3]
        if not (type(prefix) is list and type(tail) is list and self.is_list(lst)):
            return None
        return prefix, lst, tail

    def _objects(self, fam, v, node):
        options = _options(v)
        if options is None and isinstance(v, Tensor) and v.dtype.kind == "O" and not v.shape:
            self.handle_items.append(v)  # made when the graph runs: kept as its handle
            return
        if options is None:
            raise lowering_error(
                node,
                f"{self._text(fam)} holds strings made when the graph runs, which this backend "
                "cannot keep in a device buffer (only strings written in the code, or chosen "
                "among such by a condition)",
            )
        for o in options:
            if not any(type(o) is type(x) and (o is x or o == x) for x in fam.objects):
                fam.objects.append(o)

    @staticmethod
    def _text(fam) -> str:
        return f"list `{fam.name}`" if fam.name else "a list"

    def _new(self, t, node):
        self._family[t.id] = _Family(t, node)

    def _join(self, a: Tensor, b: Tensor):
        fa, fb = self._family[a.id].root(), self._family[b.id].root()
        if fa is not fb:
            fb.parent = fa
            fa.kinds |= fb.kinds
            fa.sources += fb.sources
            fa.mapped += fb.mapped
            fa.untaggable = fa.untaggable or fb.untaggable
            for o in fb.objects:
                if not any(type(o) is type(x) and (o is x or o == x) for x in fa.objects):
                    fa.objects.append(o)
            if fa.fields is not None and fb.fields is not None:
                for mine, theirs in zip(fa.fields, fb.fields):
                    mine |= theirs
            fa.name = fa.name or fb.name
            fa.origin = fa.origin or fb.origin

    def _block(self, block):
        for node in block.nodes:
            self._node(node)

    def _node(self, node):
        for t in (*node.inputs, *tensors_in([sub.outputs for sub in node.blocks])):
            self.uses.setdefault(t.id, []).append(node)  # a branch or loop yielding it uses it
        kind = node.kind
        if kind == "helper" and node.fn in _CHANGES and self.is_list(node.args[1]):
            self._change(node)
        elif _keyed_plan.is_keyed(node) and _keyed_plan.plan(self, node):
            pass  # a set or dict with run-time keys (keyed_plan.py)
        elif _repeats.is_repeat(node):
            _repeats.plan(self, node, UNBOUNDED)  # `[0] * n` (repeats.py)
        elif kind == "list_new":
            (t,) = node.outputs
            self.bounds[t.id] = (0, 0)
            self._new(t, node)
        elif kind == "list_append":
            acc, *items = node.args
            out = node.outputs[0]
            lo, hi = self.bounds[acc.id]
            self.bounds[out.id] = (lo + len(items), hi + len(items))
            self._family[out.id] = self._family[acc.id]
            fam = self.family(acc)
            for item in items:
                self._item(fam, item, node)
        elif kind == "cond":
            for sub in node.blocks:
                self._block(sub)
            for i, out in enumerate(node.outputs):
                ys = [sub.outputs[i] for sub in node.blocks]
                lists = [y for y in ys if self.is_list(y)]
                if not lists:
                    continue
                if len(lists) != len(ys):
                    raise lowering_error(node, "a branch yields a list where the other does not")
                self.bounds[out.id] = (
                    min(self.bounds[y.id][0] for y in ys),
                    max(self.bounds[y.id][1] for y in ys),
                )
                self._family[out.id] = self._family[ys[0].id]
                for y in ys[1:]:
                    self._join(ys[0], y)
        elif kind == "while":
            self._while(node)
        elif kind == "helper" and node.fn is _helpers.concat_lists:
            # Two lists one after the other (a staged loop's items joined in a branch): the
            # counts add, and the three share one buffer size, which holds the longest.
            a, b = node.args
            (out,) = node.outputs
            if not (self.is_list(a) and self.is_list(b)):
                # One made by an operation whose length this backend does not plan (`[0] * n`).
                raise lowering_error(
                    node,
                    "one of the joined lists is made by an operation (such as `[0] * n` "
                    "with a run-time n) that this backend does not keep on the device",
                )
            (alo, ahi), (blo, bhi) = self.bounds[a.id], self.bounds[b.id]
            self.bounds[out.id] = (alo + blo, ahi + bhi)
            self._family[out.id] = self._family[a.id]
            self._join(a, b)

    def _change(self, node):
        """A slice or list method: a new list of the same family, holding the items known
        while tracing (`prefix`, `tail`) too."""
        prefix, acc, tail, *args = node.args
        lo, hi = self.bounds[acc.id]
        known = len(prefix) + len(tail)
        fam = self.family(acc)
        if node.fn is _helpers.contains_list:
            return
        added = _CHANGES[node.fn]
        out = node.outputs[0]
        if added is None:  # a slice: exact where the count and the slice are
            exact = _slice_count(lo, hi, known, args)
            bound = (exact, exact) if exact is not None else (0, hi + known)
        else:
            if added < 0:
                self.shrunk.add(fam)
            bound = (max(lo + known + added, 0), max(hi + known + added, 0))
        if node.fn in _PUSHES:
            self._item(fam, args[0], node)  # (an item pushed)
        elif added == 1 or node.fn is _helpers.LIST_METHODS["setitem"]:
            self._item(fam, args[1], node)  # (an item inserted or written)
        # The list after it is one run-time list: its items known while tracing join it.
        for v in (*prefix, *tail):
            fam.kinds.add(eager_type(v) if isinstance(v, Tensor) else type(v))
        self._changed.append((node, fam))
        # It works on the items known while tracing and the run-time ones in one buffer
        # (`listops.list_full`), which must hold them all, even where it gives fewer.
        self._spans.append((fam, hi + known))
        self.bounds[out.id] = bound
        self._family[out.id] = self._family[acc.id]

    def _while(self, node):
        test_block, body = node.blocks
        slots = [i for i, a in enumerate(node.args) if self.is_list(a)]
        for i in slots:
            self._family[body.params[i].id] = self._family[node.args[i].id]
            self.bounds[body.params[i].id] = (0, 0)
        # First pass: each list's growth in one iteration (its parameter holding no items).
        self._block(test_block)
        self._block(body)
        growth = {}
        for i in slots:
            out = body.outputs[i]
            if not self.is_list(out):
                raise lowering_error(node, "the loop replaces a list it carries")
            self._join(node.args[i], out)
            growth[i] = self.bounds[out.id]
        shrunk = {f.root() for f in self.shrunk}
        reset = self._resets(node, slots, growth)
        for i in slots:
            if self.family(node.args[i]) in shrunk or i in reset:
                # A pop, or a list made anew on some path (`cur = []`): the loop may also
                # take items, so an iteration's end holds at least none of them.
                growth[i] = (0, growth[i][1])
        found = _trips(node, growth, self)
        # No bound: the lists that grow here are growable (buffers that grow by re-running).
        trips, exact = found if found is not None else (UNBOUNDED, False)
        finals = {}
        for i in slots:
            lo, hi = self.bounds[node.args[i].id]
            if self.family(node.args[i]) in shrunk or i in reset:
                lo = 0
            glo, ghi = growth[i]
            finals[i] = (lo + (trips * glo if exact else 0), hi + _times(trips, ghi))
            # Second pass: the most items the list holds when an iteration starts (the last
            # one starts with trips - 1 iterations' worth), for the buffer size.
            self.bounds[body.params[i].id] = (lo, hi + _times(max(trips - 1, 0), ghi))
        if slots:
            self._block(test_block)
            self._block(body)
        for i in slots:
            self.bounds[node.outputs[i].id] = finals[i]
            self._family[node.outputs[i].id] = self._family[node.args[i].id]

    def _resets(self, node, slots, growth) -> set:
        """The slots whose list the body makes anew on some path (`cur = []` in a branch, then
        appended to): traced again from a parameter holding many items, such a list's fewest
        items at the iteration's end do not follow them (its growth is not an addition)."""
        if not slots:
            return set()
        test_block, body = node.blocks
        for i in slots:
            self.bounds[body.params[i].id] = (_PROBE, _PROBE)
        self._block(test_block)
        self._block(body)
        found = {i for i in slots if self.bounds[body.outputs[i].id][0] < _PROBE + growth[i][0]}
        for i in slots:
            self.bounds[body.params[i].id] = (0, 0)
        return found

    # --- lists leaving the device ---------------------------------------------------------
    def _host_stackers(self, graph) -> set:
        """The stacking nodes (np.stack(lst), ...) of lists whose counts are known only when
        the graph runs: they run on the host, so their results may only leave the program."""
        host: set = set()
        self.plain_stacks: set = set()  # of those, np.stack(lst) / np.array(lst) of one list
        # Plain stacks only used on the device (reduced, counted, indexed): selections of the
        # buffer's first `count` rows, lowered as masks (`masks.py`): id(node) -> the list.
        self.masked_stacks: dict = {}
        # Stacks only returned from inside a staged branch (branch_stacks.py): id(node) -> the
        # list; and the branch results they make: tensor id -> the list.
        self.branch_stacks: dict = {}
        self.branch_results: dict = {}
        if not self.bounds:
            return host  # no lists at all
        for node in graph.walk():
            if stacker_func(node) is None:
                continue
            lists = [t for t in node.inputs if self.is_list(t)]
            if all(self.count(t) is not None for t in lists):
                continue
            t = next(t for t in lists if self.count(t) is None)
            template = node.args[0]
            plain = (
                stacker_func(node) in PLAIN_STACKERS
                and len(node.args) == 1
                and not node.kwargs
                and type(template) is list
                and len(template) == 1
                and self.is_list(template[0])
            )
            users = [u for out in node.outputs for u in self.uses.get(out.id, ())]
            on_device = users and not any(map(_host_use, users))
            if _branch_stacks.find(self, graph, node, t, stacker_func, PLAIN_STACKERS):
                continue  # returned from inside a staged branch (branch_stacks.py)
            # (np.array_equal and np.argsort of an empty list do not see the dtype NumPy gives
            # it: `sorted(idx, key=...)` is an argsort of its keys)
            compared = all(u.kind == "call" and u.fn in _DTYPE_BLIND for u in users)
            if on_device and (
                self._maskable(node, t) or (compared and self._maskable(node, t, empty=True))
            ):
                self.masked_stacks[id(node)] = t
                continue
            for user in users:
                if not _host_use(user):
                    empty = on_device and self._maskable(node, t, empty=True)
                    raise self.stack_error(node, t, user, empty)
            host.add(id(node))
            if plain:
                self.plain_stacks.add(id(node))
        return host

    def stack_error(self, node, t, user, empty=False):
        """The LoweringError for a use of a stack of list `t` that needs its shape (`empty`:
        a reduction refused only because the list may hold no items)."""
        if self.device_dtype(t) != self.family(t).dtype:
            return lowering_error(
                user,
                f"it uses {_stack_text(node)} of {self.describe(t)}, which holds tuples or "
                "strings and whose length depends on the data: this backend stacks such a list "
                "only where the result leaves the program (return it), or keep the numbers in "
                "lists of their own",
            )
        if empty:
            return lowering_error(
                user,
                f"it uses {_stack_text(node)} of {self.describe(t)}, which may hold no items "
                "when the graph runs: eager NumPy's np.stack([]) raises and np.array([]) is a "
                "float64 array of shape (0,), which this backend does not follow in an array "
                "operation. Start the list with an item (`[first]`), or return it",
            )
        return lowering_error(
            user,
            f"it uses {_stack_text(node)} of {self.describe(t)}, whose length depends on the "
            "data (a loop that can end early, a `while` loop or appends in a branch), so its "
            "shape is known only when the graph runs, and XLA compiles fixed shapes. Return "
            "the stacked list (it is sliced after the call), reduce it (np.sum, np.mean, "
            "np.max, ... over all of it or its first axis), or keep a fixed-size array and a "
            "count instead",
        )

    def _maskable(self, node, t, empty=False) -> bool:
        """Whether a stack (np.stack, np.array) of one run-time list `t` and items known while
        tracing (`[first, *lst]`) is rows of its buffer and those items, also when it holds
        none: it never does, or np.array([]) is the float64 array of shape (0,) it gives.
        `empty`: whether it is refused for that reason only."""
        template = node.args[0]
        elem = tuple(self.family(t).elem)
        if self.device_dtype(t) != self.family(t).dtype:
            return False  # tuples or strings: not rows of one array
        if (
            stacker_func(node) not in PLAIN_STACKERS
            or len(node.args) != 1
            or node.kwargs
            or type(template) is not list
            or any(d is None for d in elem)
            or [v for v in template if self.is_list(v)] != [t]
        ):
            return False
        for v in template:
            shape = tuple(v.shape) if isinstance(v, Tensor) else np.shape(v)
            if v is not t and shape != elem:
                return False
        never_empty = self.bounds[t.id][0] > 0 or len(template) > 1
        out = node.outputs[0]
        as_empty = stacker_func(node) is not np.stack and out.dtype == np.float64 and out.ndim == 1
        if empty:  # refused only because it may hold no items
            return not never_empty and not as_empty
        return never_empty or as_empty


_DTYPE_BLIND = frozenset((np.array_equal, np.argsort))


def _kinds(item) -> list:
    """The Python types an appended item has on the paths that reach it: a number read back
    from a run-time list (`u = q.pop(0)`) is a Python int or a NumPy value, known at run time."""
    if not isinstance(item, Tensor):
        return [type(item)]
    value = as_kind_value(item)
    if value is not item:
        tag, kinds = item.node.args[1:]
        tag_node = tag.node if isinstance(tag, Tensor) else None
        if tag_node is None or tag_node.fn is not _helpers.kind_index:
            # `100.0 if l == 0 else g / l`: the kinds its paths give (a graph copy keeps them
            # here, not on the Tensor)
            return [eager_type(value) if k is None else k for k in kinds]
        item = value  # a number read back from a list: its type is that list's (`reads`)
    tagged = getattr(item, "py_kinds", None)
    if tagged is None:
        return [eager_type(item)]
    return [eager_type(item) if k is None else k for k in tagged[1]]


def _derived(plan, item):
    """`keyed_plan.read_back` of `item`, or of the number behind it where its Python type is
    that of a run-time list's item it was computed from (its tag is the read's)."""
    value = as_kind_value(item)
    if value is not item:
        tag = item.node.args[1]
        node = tag.node if isinstance(tag, Tensor) else None
        if node is None or node.kind != "helper" or node.fn is not _helpers.kind_index:
            return _read_pairs.read_pair(plan, value)  # `stack.pop() + stack.pop()`
    return _keyed_plan.read_back(plan, value)


def as_kind_value(item):
    """The number behind `item` where a node made it its path's Python type (`as_kind`, a host
    node: the device computes with the number, the list's kinds say which types it had)."""
    node = item.node if isinstance(item, Tensor) else None
    if node is not None and node.kind == "helper" and node.fn is _helpers.mixed_output:
        return node.args[0]
    return item


def _all_kinds(fam, visiting=frozenset()) -> set:
    """`fam`'s items' Python types, with those of the families its items were read from (and
    those a branch maps from a read's, `item_kinds.py`: to a fixed point, as a list may map
    its own items)."""
    found, seen, todo, mapped = set(), set(), [fam], []
    while todo:
        f = todo.pop().root()
        if id(f) not in seen:
            seen.add(id(f))
            found |= f.kinds
            todo.extend(f.sources)
            mapped += f.mapped
    outer = visiting | seen
    while mapped:
        more = set(found)
        for m in mapped:
            if isinstance(m, _kind_combos.Combo):  # `a / b` of two reads (kind_combos.py)
                more |= m.resolve([_kinds_of(f, found, seen, visiting, outer) for f in m.families])
                continue
            kinds = _kinds_of(m[0], found, seen, visiting, outer)
            more |= _item_kinds.resolve(m, kinds)
        if more == found:
            break
        found = more
    return found


def _kinds_of(fam, found, seen, visiting, outer) -> set:
    """The kinds of family `fam` read by a mapping of `_all_kinds`: those found so far where it
    is among the families walked, none where it is being resolved further out."""
    src = fam.root()
    if id(src) in seen:
        return found
    return set() if id(src) in visiting else _all_kinds(src, outer)


def _one_kind(node, fam, text):
    """Raises where the items of a list that a slice or method made one run-time list are of
    several Python types (Python numbers and NumPy values): one buffer keeps one."""
    kinds = {k if k in (bool, int, float, complex) else "NumPy value" for k in _all_kinds(fam)}
    if len(kinds) > 1:
        shown = ", ".join(sorted(k if isinstance(k, str) else k.__name__ for k in kinds))
        raise lowering_error(
            node,
            f"{text} holds items of several Python types ({shown}), which one buffer does not "
            "keep after this slice or method; make every item one kind of number (start the "
            "list with np.float64(0.0) rather than 0.0, or the other way round)",
        )


def _options(v):
    """The Python atoms an object item may be (a constant, or a staged condition's choice),
    else None."""
    if not isinstance(v, Tensor):
        return [v] if v is None or type(v) in (str, bytes, bool, int, float) else None
    node = v.node
    if node is not None and node.kind == "const":
        return _options(node.attrs["value"])
    if node is not None and node.kind == "helper" and node.fn is _helpers.choose:
        options = list(node.args[1])
        return options if all(_options(o) is not None for o in options) else None
    return None


def _kinds_text(kinds) -> str:
    """`a Python int or a NumPy int64`: the types of a field, as messages name them."""
    names = {
        "a NumPy value"
        if not isinstance(k, type)
        else f"a Python {k.__name__}"
        if k in (bool, int, float, complex)
        else f"a NumPy {k.__name__}"
        for k in kinds
    }
    return " or ".join(sorted(names))


def _eager_column(kind, column) -> list:
    """The numbers of one item of a list's tuples as eager code holds them."""
    if kind in (bool, int, float, complex):
        return [kind(x) for x in column.tolist()]
    if kind is np.ndarray:
        return [np.array(x) for x in column]
    return list(column)


def _slice_count(lo, hi, known, args):
    """The number of items of a slice of a list of exactly `lo` run-time items, where its
    bounds are constants (else None)."""
    if lo != hi or lo == UNBOUNDED:
        return None
    if not all(v is None or _const_int(v) is not None for v in args):
        return None
    start, stop, step = (None if v is None else _const_int(v) for v in args)
    if step == 0:
        return None
    return len(range(lo + known)[start:stop:step])


def _host_use(node) -> bool:
    from autoconv.backends.jax.host import is_host

    return node.kind == "print" or is_host(node)


def _stack_text(node) -> str:
    func = stacker_func(node)
    return f"np.{func.__name__}()" if func is not None else "the stacking"
