"""Common-subexpression elimination: an operation that repeats an earlier one (same function,
same inputs, same constant arguments) reuses the earlier result.

An operation may reuse a result computed before it in its own block or in an enclosing one (a
value computed before an `if` or a loop serves inside it); never one from a sibling branch.
Variable reads merge only within one block with no Variable update (or control flow holding
one) in between. Prints, updates, control flow and run-time lists are never merged. Escaping
results stay distinct when merging them would hand the caller one array twice (see
`analysis.may_stand_for`).
"""

from __future__ import annotations

import math

import numpy as np

from autoconv.graph.graph import Block, Graph
from autoconv.graph.passes.analysis import Uses, may_stand_for
from autoconv.graph.passes.rewrite import Replacements
from autoconv.graph.tensor import Tensor

NAME = "cse"
_PURE_KINDS = ("call", "binop", "unop", "getitem", "method", "attr", "helper", "const")
_SMALL = 64  # constant arrays up to this many elements are compared by value


class _Unhashable(Exception):
    pass


def value_key(v):
    """A hashable key equal for two call arguments exactly when they are the same value of the
    same type (`1`, `1.0`, `True`, `0.0` and `-0.0` all differ)."""
    t = type(v)
    if t is Tensor:
        return ("t", v.id)
    if t is tuple or t is list:
        return (t, tuple([value_key(x) for x in v]))
    if v is None or v is Ellipsis or t in (bool, int, str, bytes):
        return (t, v)
    if t is float:
        return (t, v.hex() if not math.isnan(v) else "nan")
    if t is complex:
        return (t, value_key(v.real), value_key(v.imag))
    if t is dict:
        return (t, tuple([(k, value_key(x)) for k, x in v.items()]))
    if t is np.ndarray:
        return _array_key(v, t)
    if isinstance(v, Tensor):
        return ("t", v.id)
    if t is slice:
        return (t, value_key(v.start), value_key(v.stop), value_key(v.step))
    if isinstance(v, np.generic):
        return ("np", t, v.dtype.str, v.tobytes())
    if isinstance(v, np.dtype):
        return ("dtype", v.str, v.descr.__repr__())
    if isinstance(v, np.ndarray):
        return _array_key(v, t)
    if isinstance(v, type):
        return ("type", v)
    return ("obj", id(v))


def _array_key(v, t):
    if v.size <= _SMALL and v.dtype.kind in "biufcSU":
        return ("arr", t, v.dtype.str, v.shape, v.tobytes())
    return ("obj", id(v))


def node_key(node):
    """The key of a pure operation, or None if it must not be merged."""
    kind = node.kind
    if kind not in _PURE_KINDS or node.effect or node.blocks or not node.outputs:
        return None
    if kind == "const":
        return ("const", value_key(node.attrs.get("value")), _spec(node))
    if kind == "helper" and any(type(a) is list for a in node.args):
        return None  # stacks a run-time list: its contents depend on when it runs
    fn = node.fn
    fn_key = fn if isinstance(fn, str) else ("fn", id(fn))
    try:
        return (
            kind,
            fn_key,
            value_key(node.args),
            value_key(node.kwargs),
            bool(node.attrs.get("tuple")),
            bool(node.attrs.get("rows")),  # the `roll` pass's stack, read only by rows
            _spec(node),
        )
    except TypeError:
        return None


def _spec(node):
    return tuple([(t.shape, t.dtype.str, t.weak) for t in node.outputs])


def run(graph: Graph, settings=None) -> int:
    """Merges repeated operations; returns how many were merged (DCE removes them)."""
    uses = Uses(graph)
    repl = Replacements()
    claimed: set = set()
    merged = 0
    epoch = [0]

    # One table for the block being visited and those enclosing it: a key is added only where
    # no enclosing block has it, so nothing is shadowed, and a block's keys are removed when it
    # is left (its siblings must not see them). A chain of one table per block cost a lookup per
    # level for every operation: 50 levels deep under a `break` in a Python loop.
    table: dict = {}

    def visit(block: Block):
        nonlocal merged
        added: list = []
        reads: dict = {}
        for node in block.nodes:
            repl.node(node)
            kind = node.kind
            if kind == "assign" or (node.effect and node.blocks):
                epoch[0] += 1
            if kind == "read":
                key = (id(node.attrs["variable"]), epoch[0], node.outputs[0].shape)
                found = reads.get(key)
                if not uses.count[node.outputs[0].id]:
                    continue
                if found is None:
                    reads[key] = node
                else:
                    merged += _merge(found, node, uses, repl, claimed)
                continue
            for sub in node.blocks:
                if kind == "while":
                    epoch[0] += 1
                visit(sub)
                if kind == "while":
                    epoch[0] += 1
            outputs = node.outputs
            if not (uses.count[outputs[0].id] if len(outputs) == 1 else _any_used(outputs, uses)):
                continue  # unused: nothing to merge (DCE drops it)
            key = node_key(node)
            if key is None:
                continue
            found = table.get(key)
            if found is None:
                table[key] = node
                added.append(key)
            else:
                merged += _merge(found, node, uses, repl, claimed)
        for key in added:
            del table[key]

    visit(graph.block)
    repl.apply(graph)
    return merged


def _any_used(outputs, uses) -> bool:
    return any(uses.count[t.id] for t in outputs)


def _merge(keep, drop, uses, repl, claimed) -> int:
    """Replaces `drop`'s results by `keep`'s; returns 1 if that changed any use."""
    changed = 0
    for x, y in zip(keep.outputs, drop.outputs):
        full = may_stand_for(x, y, uses, claimed)
        if not full and uses.count[y.id] == uses.escapes[y.id]:
            continue  # every use escapes: `y` stays as it is
        changed = 1
        if full and uses.escapes[y.id]:
            claimed.add(x.id)
            uses.escapes[x.id] += uses.escapes[y.id]
        uses.readers[x.id].extend(uses.readers[y.id])
        uses.count[x.id] += uses.count[y.id]
        repl.add(y, x, full)
    return changed
