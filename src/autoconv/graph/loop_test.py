"""A staged `while` loop evaluates its test as often as Python does.

Converted code calls a `while` loop's test once in Python to learn whether the loop is staged
(`autoconv.runtime.control_flow.while_stmt`); that first evaluation is traced into the
enclosing block, just before the loop, exactly where Python evaluates it. The staged loop then
tests again before its first iteration. For a pure test that only costs time, but a test with
effects (`autoconv.print`, a Variable update) would run them once too often.

`reuse_first_test` rewrites such a loop so that its first test takes the value computed before
it: a loop variable `first` (True on entry, False after each iteration) selects, in the loop's
condition block, either that value or a fresh evaluation of the test.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph.tensor import Tensor

_BOOL = np.dtype(np.bool_)


def _spec(t: Tensor) -> tuple:
    return (tuple(t.shape), t.dtype, t.weak)


def _const(graph, value: bool, origin) -> _g.Node:
    node = _g.Node("const", "const", attrs={"value": value, "owned": True}, origin=origin)
    node.outputs.append(_g.new_tensor(graph, node, 0, (), _BOOL, weak=True))
    return node


def reuse_first_test(block: _g.Block, first_cond) -> None:
    """Rewrites the `while` node just recorded at the end of `block` (if its test has effects)
    so that its first test is `first_cond`, the test's value traced before the loop."""
    if not block.nodes or not isinstance(first_cond, Tensor):
        return
    loop = block.nodes[-1]
    if loop.kind != "while":
        return
    cond, body = loop.blocks
    test = cond.outputs[0] if cond.outputs else None
    if not any(node.effect for node in cond.nodes) or not isinstance(test, Tensor):
        return
    if _spec(test) != _spec(first_cond) or first_cond.graph is not test.graph:
        return
    graph, origin, n = test.graph, loop.origin, len(body.params)

    # The loop variable `first`: True on entry, False after every iteration.
    start = _const(graph, True, origin)
    block.nodes.insert(len(block.nodes) - 1, start)
    param = _g.Node("param", "param", attrs={"name": "<first test>"}, origin=origin)
    first = _g.new_tensor(graph, param, 0, (), _BOOL, weak=True)
    param.outputs.append(first)
    after = _const(graph, False, origin)
    body.nodes.append(after)

    # The condition block: `first_cond if first else <the test, as traced>`.
    reused = _g.Block()
    reused.outputs = [first_cond]
    pick = _g.Node("cond", "cond", args=(first,), origin=origin)
    cond.params = []  # now a branch, which takes no parameters
    pick.blocks = [reused, cond]
    pick.effect = True
    pick.outputs.append(_g.new_tensor(graph, pick, 0, test.shape, test.dtype, test.weak))
    selected = _g.Block()
    selected.nodes = [pick]
    selected.outputs = [pick.outputs[0]]

    body.params.append(first)
    selected.params = body.params
    body.outputs.insert(n, after.outputs[0])
    loop.blocks = [selected, body]
    _g.set_args(loop, (*loop.args, start.outputs[0]))
    loop.outputs.append(_g.new_tensor(graph, loop, n, (), _BOOL, weak=True))
