"""The Python type of an operation on numbers read from run-time lists, where the tracer
tagged it by a table over the reads' types (`helpers.mixed_output` of a tag computed from each
read's `kind_index`): in

    b = stack.pop(); a = stack.pop(); stack.append(a / b)

the quotient is a Python float where both are, an `np.float64` where either is NumPy's. Which
types the reads have is known once the whole graph is planned (the list gets items later in
the loop), so the appended item's types are kept as a `Combo` of the lists read, resolved
with their kinds (`lists._all_kinds`, to a fixed point)."""

from __future__ import annotations

import itertools
import operator

import numpy as np

from autoconv.backends.jax.keyed_plan import read_back
from autoconv.graph import helpers as _helpers
from autoconv.graph.eager_types import eager_type
from autoconv.graph.tensor import Tensor

_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv}


class Combo:
    """An item's kinds: `kinds[tag]` for each value the tag may have (None in `kinds`: the
    item's own NumPy type). The tag is followed through constants, `+ - * //`, constant
    tables, and the branches and loops that carry it (`a = parent[a]` in a `while`)."""

    __slots__ = ("families", "leaves", "tag", "kinds", "numpy_kind", "params", "division")

    def __init__(self, families, leaves, tag, kinds, numpy_kind, params, division=None):
        self.families = families  # each read's list family
        self.leaves = leaves  # each read's (kind_index Tensor, other kinds, read kinds)
        self.tag = tag
        self.kinds = kinds
        self.numpy_kind = numpy_kind
        self.params = params  # id of a loop's parameter -> (its initial value, its next)
        # A division (or power) whose Python-number paths may raise ZeroDivisionError, which
        # the device does not check: `ListPlan` refuses it where such a path is possible.
        self.division = division

    def resolve(self, list_kinds: list) -> set:
        """The kinds the item has, each read's list holding `list_kinds[i]`."""
        env = {}
        for (t, extra, read_kinds), kinds in zip(self.leaves, list_kinds):
            env[id(t)] = {read_kinds.index(k) if k in read_kinds else 0 for k in {*kinds, *extra}}
        for p in self.params:
            env[p] = set()
        for _ in range(16):  # the loops' parameters, to a fixed point
            before = {p: set(env[p]) for p in self.params}
            for p, (first, nxt) in self.params.items():
                env[p] |= _values(first, env) | _values(nxt, env)
            if all(env[p] == before[p] for p in self.params):
                break
        out = set()
        for index in _values(self.tag, env):
            kind = self.kinds[index] if 0 <= index < len(self.kinds) else None
            out.add(self.numpy_kind if kind is None else kind)
        return out


def combo(plan, value, tag, kinds):
    """A Combo for `mixed_output(value, tag, kinds)` where `tag` is computed from the
    `kind_index` of numbers read from run-time lists (`Combo`), else None."""
    node, division = value.node, None
    if node is not None and node.kind == "binop" and node.op in ("/", "//", "%", "**"):
        if node.op == "**" or isinstance(node.args[1], Tensor):
            # Python raises ZeroDivisionError where both are Python numbers, NumPy gives an
            # infinity: the device does not check which, so such a path is refused once the
            # reads' kinds are known (`sums[k] / counts[k]` of NumPy sums is never one).
            division = node
    leaves, params = [], {}
    if not _leaves(tag, leaves, params, {}, depth=24) or not leaves:
        return None
    families, found = [], []
    for t in dict.fromkeys(leaves):
        read, read_kinds = t.node.args
        source = read_back(plan, read, depth=1)
        if source is None or not plan.is_list(source[0]):
            return None
        families.append(plan._family[source[0].id])
        found.append((t, set(source[1]), tuple(read_kinds)))
    return Combo(families, found, tag, tuple(kinds), eager_type(value), params, division)


def _leaves(t, out, params, loops, depth) -> bool:
    """Collects the `kind_index` Tensors `t` is computed from (and in `params`, the loop
    parameters it goes through, of those in `loops`); False where it is computed otherwise
    than `_values` follows."""
    if not isinstance(t, Tensor):
        return isinstance(t, (int, np.integer)) and not isinstance(t, (bool, np.bool_))
    if id(t) in params:
        return True
    if id(t) in loops:  # a loop's parameter: its initial value, or what an iteration yields
        params[id(t)] = loops[id(t)]
        return all(_leaves(v, out, params, loops, depth - 1) for v in loops[id(t)])
    node = t.node
    if node is None or depth == 0:
        return False
    if node.kind == "const":
        return True
    if node.kind == "helper" and node.fn is _helpers.kind_index:
        out.append(t)
        return True
    if node.kind == "binop" and node.op in _OPS and len(node.args) == 2:
        return all(_leaves(a, out, params, loops, depth - 1) for a in node.args)
    if node.kind == "helper" and node.fn is int and len(node.args) == 1:
        return _leaves(node.args[0], out, params, loops, depth - 1)
    if node.kind == "getitem" and len(node.args) == 2 and _const(node.args[0]) is not None:
        return _leaves(node.args[1], out, params, loops, depth - 1)
    j = node.output_index(t)
    if node.kind == "cond" and j is not None:
        return all(_leaves(b.outputs[j], out, params, loops, depth - 1) for b in node.blocks)
    if node.kind == "while" and j is not None and len(node.blocks) == 2:
        body = node.blocks[1]
        if len(body.params) != len(node.outputs) or len(body.outputs) != len(node.outputs):
            return False
        for i, p in enumerate(body.params):
            loops.setdefault(id(p), (node.args[i], body.outputs[i]))
        first, nxt = node.args[j], body.outputs[j]
        return all(_leaves(v, out, params, loops, depth - 1) for v in (first, nxt))
    return False


def _const(t):
    if isinstance(t, Tensor) and t.node is not None and t.node.kind == "const":
        return t.node.attrs["value"]
    return None


def _values(t, env) -> set:
    """The values tag expression `t` may have (`env`: those of the `kind_index` leaves and the
    loops' parameters)."""
    if not isinstance(t, Tensor):
        return {int(t)}  # (`_leaves` let only ints through)
    if id(t) in env:
        return env[id(t)]
    node = t.node
    if node is None:
        return set()
    if node.kind == "const":
        return {int(node.attrs["value"])}
    if node.kind == "binop" and node.op in _OPS:
        a, b = (_values(v, env) for v in node.args)
        found = set()
        for x, y in itertools.product(a, b):
            try:
                found.add(_OPS[node.op](x, y))
            except ZeroDivisionError:
                pass
        return found
    if node.kind == "helper":  # int()
        return _values(node.args[0], env)
    j = node.output_index(t)
    if node.kind == "cond":
        return set().union(*(_values(b.outputs[j], env) for b in node.blocks))
    if node.kind == "while":
        return _values(node.args[j], env) | _values(node.blocks[1].outputs[j], env)
    table = np.asarray(_const(node.args[0]))
    return {int(table[i]) for i in _values(node.args[1], env) if -len(table) <= i < len(table)}
