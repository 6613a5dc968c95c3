"""The steps of a Python loop unrolled while tracing, keyed to be compared: what the `roll`
pass (`roll.py`, a plain unrolled loop) and `roll_break.py` (the nested conds of a loop a staged
`break` may end) both use to decide which steps are the same computation.

A step is keyed in one walk over its operations (those of its conds' and loops' blocks too):
each operation by its kind, function, constant arguments, attributes and result types, each
value it reads by where it comes from (the same step, the step before, or before the loop).
Integer indices (`x[i]`) are set aside, to be compared by their stride.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph.graph import Node, new_tensor, set_args, walk
from autoconv.graph.helpers import set_copy
from autoconv.graph.passes.cse import value_key
from autoconv.graph.passes.rewrite import Replacements
from autoconv.graph.tensor import Tensor

_PURE_KINDS = frozenset(("call", "binop", "unop", "getitem", "method", "attr", "helper", "const"))


_INT = ("int",)  # the key of an integer index that may advance from step to step


class Plan:
    """The rolls `plan` decided, made by `run` or by the graph copy the passes work on
    (`graph.copy(plan.blocks, plan.replace)`, which then copies only what is left): `blocks`,
    id(block) -> its new nodes; `repl`, the loops' results in place of their last steps';
    `steps`, how many steps were rolled away; `stacked_min`, the fewest operations a run of
    steps reading a list's items must hold to roll over their stack (`roll.plan`)."""

    __slots__ = ("blocks", "repl", "steps", "stacked_min")

    def __init__(self, stacked_min: int = 0):
        self.blocks: dict = {}
        self.repl = Replacements()
        self.steps = 0
        self.stacked_min = stacked_min

    def replace(self, t):
        return self.repl.resolve(t, True)


class _Step:
    """One iteration's operations, keyed: `key` compares steps; `reads` are the Tensors the
    step reads from outside itself, in order, each with its slot (`("prev", j, o)`: result `o`
    of operation `j` of the step before; `("ext", id)`: a value from before the loop);
    `ints` the integer indices; `floats` the Python floats its operators take (`lr * grad`,
    `lr` made by Python code from the step's index: they may differ from step to step). `nodes`
    are all its operations, those of the blocks of its conds and loops too (in `walk` order:
    positions in the step index them); `top` its own."""

    __slots__ = ("nodes", "top", "key", "reads", "ints", "floats", "pure")

    def __init__(self, top):
        self.top = top
        self.nodes = _flat(top)
        self.reads: list = []
        self.ints: list = []
        self.floats: list = []
        self.pure = True
        self.key = None


def _flat(top: list) -> list:
    """`top` with the operations of their blocks after each, in `walk` order."""
    for node in top:
        if node.blocks:
            break
    else:
        return top
    out = []
    for node in top:
        out.append(node)
        for sub in node.blocks:
            out.extend(walk(sub))
    return out


def _places(steps: list) -> dict:
    """id(node) -> (step number, position in the step), for each operation of the steps and
    each parameter of their loops' blocks (placed by their loop and number)."""
    at: dict = {}
    for k, step in enumerate(steps):
        for j, node in enumerate(step.nodes):
            at[id(node)] = (k, j)
            for sub in node.blocks:
                for i, p in enumerate(sub.params):
                    at[id(p.node)] = (k, (j, i))
    return at


def _key_steps(steps: list, at: dict, floats: bool = False) -> None:
    """Keys each step. `at`: id(node) -> (step number, position in the step). A cond or loop
    in a step is keyed with the shape of its blocks (their operations follow it in `nodes`).
    `floats`: the Python floats of operators that `varying_floats` accepts are set aside (in
    `step.floats`), as integer indices are, for the loop to read from a stack of them."""
    at_get = at.get
    for k, step in enumerate(steps):
        parts = []
        reads = step.reads
        float_slots = floats and step.nodes is step.top  # (not inside a step's conds and loops)

        def slot(t, k=k, reads=reads):
            # (written out again in the loop below for an operation's Tensor arguments)
            place = at_get(id(t.node))
            if place is None:
                reads.append((("ext", t.id), t))
                return _EXT  # which value: compared by the reads (it may be a per-step item)
            elif place[0] == k:
                return ("in", place[1], t.index)
            elif place[0] == k - 1:
                s = ("prev", place[1], t.index)
            else:
                s = ("far", t.id)  # an older step's value: no loop variable holds it
            reads.append((s, t))
            return s

        for node in step.nodes:
            kind = node.kind
            attrs = node.attrs
            random = attrs and attrs.get("random")
            if (
                (kind not in _PURE_KINDS and kind != "cond" and kind != "while")
                or (node.effect and not random and not node.blocks)  # (blocks: checked inside)
                or not node.outputs
                or (random and any(t.dtype == object for t in node.outputs))
                or (
                    kind == "helper"
                    and any(type(a) is list and _runtime_list(a) for a in node.args)
                )
            ):
                step.pure = False
                break
            args = node.args
            fl = None  # (`varying_floats(node)`, asked at the node's first float)
            if kind == "getitem" or (kind == "helper" and node.fn is set_copy):
                args = (args[0], _mark_ints(args[1], step.ints), *args[2:])
            try:
                # Most operations read Tensors and plain numbers, with no keywords or
                # attributes: keyed here without the general walks (a 1,000-step loop keys
                # thousands of them).
                read = len(reads)
                keys = []
                for a in args:
                    ta = type(a)
                    if ta is Tensor:
                        place = at_get(id(a.node))
                        if place is None:
                            reads.append((("ext", a.id), a))
                            keys.append(_EXT)
                        elif place[0] == k:
                            keys.append(("in", place[1], a.index))
                        else:
                            s = ("prev", place[1], a.index) if place[0] == k - 1 else ("far", a.id)
                            reads.append((s, a))
                            keys.append(s)
                    elif ta in _SCALARS:
                        keys.append((ta, a))
                    elif ta is float:
                        if fl is None:
                            fl = float_slots and varying_floats(node)
                        if fl:
                            step.floats.append(a)
                            keys.append(_FLOAT)
                        else:
                            # (-0.0 and NaN by `value_key`: 0.0 == -0.0, and NaN != NaN)
                            keys.append((ta, a) if a == a and a != 0.0 else value_key(a))
                    elif a is _INT_SLOT:  # an index set aside above (`out[i] = v`'s `i`)
                        keys.append(_INT)
                    else:  # the general walk, from the first argument again
                        del reads[read:]
                        keys = None
                        break
                outs = node.outputs
                parts.append(
                    (
                        kind,
                        node.op,
                        node.fn if type(node.fn) is str else id(node.fn),
                        tuple(keys) if keys is not None else _template_key(args, slot),
                        _template_key(node.kwargs, slot) if node.kwargs else (),
                        value_key(sorted(attrs.items())) if attrs else (),
                        ((outs[0]._shape, outs[0].dtype, outs[0].weak),)
                        if len(outs) == 1
                        else tuple([(t._shape, t.dtype, t.weak) for t in outs]),
                    )
                )
                if node.blocks:
                    # The blocks' own operations follow in the list: their counts and results
                    # place them.
                    parts.append(
                        tuple(
                            [
                                (len(b.nodes), len(b.params), _template_key(b.outputs, slot))
                                for b in node.blocks
                            ]
                        )
                    )
            except TypeError:
                step.pure = False
                break
        step.key = tuple(parts) if step.pure else None


def _runtime_list(items: list) -> bool:
    """Whether a list a helper takes (`np.array([a, b])`) may hold a run-time list (the items
    a staged loop appended, of a length known when the graph runs), which a step must not roll
    over; items of known shapes and plain numbers do not."""
    for a in items:
        if type(a) is list:
            if _runtime_list(a):
                return True
        elif isinstance(a, Tensor) and None in a._shape:
            return True
    return False


_EXT = ("ext",)
# Numbers keyed as `(type, value)` (`value_key` of an int, bool or str: 1, 1.0 and True differ).


_SCALARS = frozenset((int, bool, str, type(None)))


class _IntSlot:
    """Stands for an integer index in a step's key."""

    __slots__ = ()


_INT_SLOT = _IntSlot()


_FLOAT = ("float",)  # the key of a float that may differ from step to step
_F64 = np.dtype(np.float64)


def varying_floats(node) -> bool:
    """Whether the Python floats `node` takes may be read from a float64 array instead (one
    row per step): an operator whose result is float64 whatever the float is (a float64
    scalar gives the same dtype as a Python float there, and the same value)."""
    return (
        node.kind == "binop"
        and len(node.outputs) == 1
        and node.outputs[0].dtype == _F64
        and not node.outputs[0].weak  # (a Python float's result stays a Python float)
        and all(type(a) is Tensor or type(a) in _PLAIN_ARGS for a in node.args)
    )


_PLAIN_ARGS = frozenset((float, int, bool))  # (keyed without the general walk)


def indexed(node) -> bool:
    """Whether `node` reads or writes an array at a key (`x[i]`, `out[i] = v`): its integer
    indices may advance from step to step (the key is its second argument)."""
    return node.kind == "getitem" or (node.kind == "helper" and node.fn is set_copy)


def _mark_ints(index, ints: list):
    if type(index) is int:
        ints.append(index)
        return _INT_SLOT
    if type(index) is tuple:
        return tuple(_mark_ints(i, ints) if type(i) is int else i for i in index)
    return index


def _template_key(v, slot):
    t = type(v)
    if t is Tensor:
        return slot(v)
    if v is _INT_SLOT:
        return _INT
    if t is tuple or t is list:
        return (t, tuple([_template_key(x, slot) for x in v]))
    if t is dict:
        return (t, tuple([(k, _template_key(x, slot)) for k, x in v.items()]))
    if t is slice:
        return (t, _template_key(v.start, slot), _template_key(v.stop, slot), v.step)
    return value_key(v)


def _starts_run(first: _Step, second: _Step):
    """Whether `second` repeats `first` with the values `second` reads of `first` carried:
    `(carried, items)`, the loop variables `{(j, o): initial Tensor}` and the positions in the
    reads where each step reads its own value from before the loop (the items of a Python list
    of arrays: the loop reads them from their stack), or None."""
    if not (first.pure and second.pure) or len(first.nodes) != len(second.nodes):
        return None
    if len(first.reads) != len(second.reads) or len(first.ints) != len(second.ints):
        return None
    if len(first.floats) != len(second.floats):
        return None
    carried: dict = {}
    items: list = []
    for r, ((s1, t1), (s2, t2)) in enumerate(zip(first.reads, second.reads)):
        if s2[0] == "prev":
            if s1[0] not in ("ext", "prev"):
                return None
            init = carried.setdefault(s2[1:], t1)
            out = first.nodes[s2[1]].outputs[s2[2]]
            if init is not t1 or (t1.shape, t1.dtype, t1.weak) != (out.shape, out.dtype, out.weak):
                return None
        elif s1[0] == s2[0] == "ext" and s1 != s2 and _stackable(t1, t2):
            items.append(r)
        elif s1 != s2 or s2[0] == "far":
            return None
    if items:
        # The body reads an item where the second step read it: not also as a shared value.
        mine = {second.reads[r][1].id for r in items}
        shared = [t.id for r, (slot, t) in enumerate(second.reads) if r not in items]
        if mine.intersection(shared):
            return None
    if _relabel(first.key, second.key):
        return carried, items
    return None


def _stackable(t1, t2) -> bool:
    """Two arrays of one shape and dtype, known while tracing, that `np.stack` can join."""
    return (
        not t1.weak
        and not t2.weak
        and t1.py_kinds is None
        and t2.py_kinds is None
        and t1.dtype == t2.dtype
        and t1.dtype != object
        and t1._shape == t2._shape
        and None not in t1._shape
    )


def _relabel(k1, k2) -> bool:
    """Whether two step keys are equal once the slots of values read from outside are
    ignored (they are compared by `_starts_run`)."""
    if type(k1) is not type(k2):
        return False
    if type(k1) is tuple:
        if k1 and k1[0] in _OUTSIDE and k2 and k2[0] in _OUTSIDE and len(k1) <= 3:
            return True
        return len(k1) == len(k2) and all(_relabel(a, b) for a, b in zip(k1, k2))
    return k1 == k2


_OUTSIDE = frozenset(("ext", "prev", "far"))


def _same(step, before, template, stride, items) -> bool:
    """Whether `step` repeats `template` (a run's second step), its indices `stride` past the
    step `before` it, reading the same values from outside but its own `items`."""
    if not step.pure or step.key != template.key:
        return False
    if not all(b - a == d for a, b, d in zip(before.ints, step.ints, stride)):
        return False
    reads, want = step.reads, template.reads
    for r, ((s1, t1), (s2, t2)) in enumerate(zip(reads, want)):
        if s1 != s2 and not (r in items and s1[0] == "ext" and _stackable(t1, t2)):
            return False
    return True


def advance(node, ints, indices: dict) -> None:
    """Puts counters in place of the integer indices of `node`, a copy of a getitem (or an
    item write) of a step: `ints` gives each index's (first value, stride) in turn, `indices`
    the counter of each that advances."""

    def index(i):
        base, d = next(ints)
        return indices[(base, d)] if d else i

    key = node.args[1]
    if type(key) is int:
        key = index(key)
    elif type(key) is tuple:
        key = tuple(index(i) if type(i) is int else i for i in key)
    else:
        return
    set_args(node, (node.args[0], key, *node.args[2:]))


def int_const(graph, value: int, origin):
    """A weak int constant of `graph` (a rolled loop's counter start or bound), not yet placed
    in a block: the caller adds `t.node` where the loop's inputs go."""
    node = Node("const", "const", attrs={"value": value, "owned": True}, origin=origin)
    node.outputs.append(new_tensor(graph, node, 0, (), np.dtype(np.int64), True))
    return node.outputs[0]


def param_like(graph, name: str, like):
    """A parameter of a rolled loop's blocks, of `like`'s shape and dtype."""
    node = Node("param", "param", attrs={"name": name})
    t = new_tensor(graph, node, 0, like.shape, like.dtype, like.weak)
    node.outputs.append(t)
    return t


def while_node(graph, inits, test, body, origin) -> Node:
    """The `while` of a rolled loop: `test` and `body` share `body.params`; its outputs are
    the carried values. Marked an effect when the body draws (kept, in order, by every pass)."""
    test.params = body.params
    loop = Node("while", "while", args=inits, attrs={"stop": False}, origin=origin)
    loop.blocks = [test, body]
    loop.effect = any(n.effect for n in walk(body))
    for i, p in enumerate(body.params):
        loop.outputs.append(new_tensor(graph, loop, i, p.shape, p.dtype, p.weak))
    return loop
