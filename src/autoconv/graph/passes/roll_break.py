"""Re-rolling a Python `range` loop that a staged `break` (or `return`) may end.

When a step of a Python loop returns a staged stop, the tracer nests each remaining step in a
staged `if` on "not stopped" (up to `_UNROLL_REST` of them): step 0, then
`cond(not stop0) { step 1; cond(not stop1) { step 2; ... } } else { the state after step 0 }`.
This module finds such chains of conds, checks that the steps they hold are the same
computation (keyed as `roll` keys the steps of a plain unrolled loop, with the conds inside a
step keyed with their blocks) up to the values each step reads of the step before and integer
indices that advance by a fixed stride, and replaces the chain by one `while` node that carries
the step counter, the "not stopped" flag, the indices and the loop's variables:

    while counter < steps and not_stopped:
        <one step>; not_stopped = <the step's own flag>; counter += 1

Each iteration runs the operations of one nested step, in their order, and the loop stops after
the same step as the nested conds, with the same values: the results are those of the unrolled
trace. Steps with effects (prints, appends, random draws, Variable updates) or with staged loops
inside stay nested.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph.graph import Block, Node, _Copier, new_tensor, walk
from autoconv.graph.passes import roll_steps as rs
from autoconv.graph.passes.cse import value_key
from autoconv.graph.tensor import Tensor

_MIN_LEVELS = 3  # the conds a chain needs before it is rolled


def plan(graph, done) -> None:
    """Adds the rolls of the graph's cond chains to `done` (a `roll.Plan`)."""
    tried: set = set()
    stack = [graph.block]
    while stack:
        block = stack.pop()
        for node in list(done.blocks.get(id(block), block.nodes)):
            if node.kind == "cond" and id(node) not in tried:
                levels = _levels(node)
                if len(levels) >= _MIN_LEVELS:
                    tried.update(id(c) for c in levels)
                    if _roll_chain(graph, block, levels, done):
                        continue  # its steps are gone (the template was copied)
                    # Where the `else`s change what they make as constants (the flag of a
                    # `return`, folded in the outer levels only), the chain may roll from
                    # the first level that makes other ones.
                    first = _constants(levels[0])
                    other = next(
                        (c for c in levels[1:] if not _same_constants(first, _constants(c))),
                        None,
                    )
                    if other is not None:
                        tried.discard(id(other))
            stack.extend(node.blocks)


def _level(node) -> bool:
    """A cond that may be one level of a chain: one Tensor test, an `else` that only passes
    the state on."""
    if node.kind != "cond" or len(node.blocks) != 2 or node.kwargs:
        return False
    then, other = node.blocks
    n = len(node.outputs)
    return (
        len(node.args) == 1
        and type(node.args[0]) is Tensor
        and all(c.kind == "const" and not c.args and not c.effect for c in other.nodes)
        and not then.params
        and not other.params
        and len(then.outputs) == n == len(other.outputs)
        and n > 0
        and all(type(t) is Tensor for t in other.outputs)
    )


def _levels(node) -> list:
    """The conds of the chain that starts at `node`, outermost first (the innermost may be a
    cond of the last step itself: `_roll_chain` finds where the steps end)."""
    levels = []
    while _level(node):
        levels.append(node)
        then = node.blocks[0]
        if not then.nodes:
            break
        inner = then.nodes[-1]
        if len(inner.outputs) != len(then.outputs) or any(
            a is not b for a, b in zip(inner.outputs, then.outputs)
        ):
            break
        node = inner
    return levels


def _steps(levels, full_last: bool) -> list:
    """Each level's step: its `then` block's operations but the next level's cond (all of them
    for the last level with `full_last`), in `walk` order."""
    steps = []
    for k, c in enumerate(levels):
        nodes = c.blocks[0].nodes
        if not (full_last and k == len(levels) - 1):
            nodes = nodes[:-1]
        steps.append(rs._Step(nodes))
    return steps


def _keyed(steps) -> None:
    rs._key_steps(steps, rs._places(steps))


def _positions(step, values):
    """Where in `step` each of `values` is made: `[(j, o)]`, or None if one is not."""
    where = {id(n): j for j, n in enumerate(step.nodes)}
    out = []
    for t in values:
        if type(t) is not Tensor:
            return None
        j = where.get(id(t.node))
        if j is None:
            return None
        out.append((j, t.index))
    return out


def _spec(t):
    return (t._shape, t.dtype, t.weak)


def _constants(level) -> dict:
    """The results that a level's `else` makes as constants instead of passing them on (the
    flag of a `return`, True wherever the loop stopped): position -> the const node."""
    other = level.blocks[1]
    made = {id(c) for c in other.nodes}
    return {i: t.node for i, t in enumerate(other.outputs) if id(t.node) in made}


def _same_constants(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        _spec(a[i].outputs[0]) == _spec(b[i].outputs[0])
        and value_key(a[i].attrs.get("value")) == value_key(b[i].attrs.get("value"))
        for i in a
    )


def _roll_chain(graph, block, levels, done) -> bool:
    m = len(levels)
    steps = _steps(levels[: m - 1], full_last=False)
    _keyed(steps)
    started = rs._starts_run(steps[0], steps[1])
    if started is None or started[1]:
        return False
    carried, _items = started
    tmpl = steps[1]
    stride = [b - a for a, b in zip(steps[0].ints, tmpl.ints)]
    r = 1
    while r + 1 < len(steps) and rs._same(steps[r + 1], steps[r], tmpl, stride, ()):
        r += 1
    # The innermost step: level r + 1, all of its `then` block (it has no next level).
    last_pred = tmpl.nodes[-1] if tmpl.nodes else None
    if (
        last_pred is None
        or last_pred.blocks
        or levels[2].args[0].node is not last_pred
        or r + 1 >= m
    ):
        return False
    pair = _steps([levels[r], levels[r + 1]], full_last=True)
    _keyed(pair)
    inner = pair[1]
    if not inner.pure or inner.key != tmpl.key[:-1] or len(inner.reads) != len(tmpl.reads):
        return False
    if any(s1 != s2 for (s1, _), (s2, _) in zip(inner.reads, tmpl.reads)):
        return False
    if len(inner.ints) != len(tmpl.ints) or any(
        b - a != d for a, b, d in zip(pair[0].ints, inner.ints, stride)
    ):
        return False
    # The loop's variables: the state each level's `else` passes on (the chain's results), at
    # the same place in every step, then the values a step reads of the one before. A result
    # that the `else`s make as one constant (a `return`'s flag) is the constant where the loop
    # stopped after at most `last` steps, else the loop's value (a choice after the loop).
    consts = _constants(levels[0])
    inner_consts = _constants(levels[r + 1])
    if any(not _same_constants(consts, _constants(c)) for c in levels[1 : r + 1]):
        return False
    if inner_consts and not _same_constants(consts, inner_consts):
        return False
    state = None
    for k in range(r + 1):
        outs = levels[k + 1].blocks[1].outputs
        where = _positions(steps[k], [t for i, t in enumerate(outs) if i not in consts])
        if where is None or (state is not None and where != state):
            return False
        state = where
    full = _positions(inner, levels[r + 1].blocks[0].outputs)
    if full is None or [w for i, w in enumerate(full) if i not in consts] != state:
        return False
    if consts and not inner_consts:
        # The innermost `else` passes the value on: the loop's own, where it stops there.
        passed = levels[r + 1].blocks[1].outputs
        if _positions(steps[r], [passed[i] for i in consts]) != [full[i] for i in consts]:
            return False
    last = r + 1 if inner_consts else r
    state = full
    inits = list(levels[0].blocks[1].outputs)
    made = []
    for i, c in consts.items():
        # A value the steps read of the one before starts as they read it; else its start is
        # never read (a stop before any step takes the constant).
        inits[i] = carried.get(state[i])
        if inits[i] is None:
            inits[i] = _constant_like(graph, c)
            made.append(inits[i].node)
    variables: dict = {}
    # (two variables that every step sets to one value must also start from one)
    for place, init in [*zip(state, inits), *carried.items()]:
        if variables.setdefault(place, init) is not init:
            return False
    first = steps[0]
    for (j, o), init in variables.items():
        out = first.nodes[j].outputs[o]
        # (a value whose Python type depends on the path holds its tag: left nested)
        if _spec(init) != _spec(out) or init.py_kinds is not None or out.py_kinds is not None:
            return False
    pred0 = levels[0].args[0]
    pred = levels[2].args[0]
    if _spec(pred0)[:2] != ((), np.dtype(np.bool_)) or _spec(pred)[:2] != _spec(pred0)[:2]:
        return False
    if any(t.py_kinds is not None for t in levels[0].outputs):
        return False
    outer = made
    chosen = (consts, last)
    outer += _build(graph, levels, steps, r + 2, variables, stride, pred0, state, done, chosen)
    nodes = list(done.blocks.get(id(block), block.nodes))
    at = next(i for i, n in enumerate(nodes) if n is levels[0])
    nodes[at : at + 1] = outer
    done.blocks[id(block)] = nodes
    done.steps += r + 1
    return True


def _constant_like(graph, const) -> Tensor:
    """A new constant node with the value of `const`, outside the chain."""
    node = Node("const", "const", attrs=dict(const.attrs), origin=const.origin)
    t = const.outputs[0]
    node.outputs.append(new_tensor(graph, node, 0, t._shape, t.dtype, t.weak))
    return node.outputs[0]


def _chosen(graph, test, value, const, origin) -> Node:
    """`value if test else <const>`: a cond after the loop."""
    then, other = Block(), Block()
    then.outputs = [value]
    c = _constant_like(graph, const)
    other.nodes = [c.node]
    other.outputs = [c]
    node = Node("cond", "cond", None, (test,), origin=origin)
    node.blocks = [then, other]
    node.outputs.append(new_tensor(graph, node, 0, value._shape, value.dtype, value.weak))
    return node


def _build(graph, levels, steps, count, variables, stride, pred0, state, done, chosen) -> list:
    """The operations that replace the chain: the initial counter and indices, then the loop
    running `count` steps at most, whose body is a copy of the second level's step; then, for
    the constant results `chosen` names, the choice between the constant and the loop's value."""
    first, tmpl = steps[0], steps[1]
    origin = levels[0].origin
    outer: list = []

    def const(value):
        t = rs.int_const(graph, value, origin)
        outer.append(t.node)
        return t

    def param(like):
        return rs.param_like(graph, "<carried>", like)

    inits = [const(0), pred0]
    params = [param(inits[0]), param(pred0)]
    counter, going = params
    indices: dict = {}  # (first value, stride) -> param
    for base, d in zip(first.ints, stride):
        if d and (base, d) not in indices:
            inits.append(const(base))
            indices[(base, d)] = param(inits[-1])
            params.append(indices[(base, d)])
    mapping: dict = {}
    places = list(variables)
    for j, o in places:
        inits.append(variables[(j, o)])
        p = param(first.nodes[j].outputs[o])
        params.append(p)
        mapping[first.nodes[j].outputs[o].id] = p
    mine = {id(n) for n in tmpl.nodes}
    mine.update(id(p.node) for n in tmpl.nodes for sub in n.blocks for p in sub.params)

    def tensor(t):
        made = mapping.get(t.id)
        if made is None:
            if id(t.node) not in mine:
                return t  # a value from before the loop
            made = mapping[t.id] = new_tensor(graph, None, t.index, t.shape, t.dtype, t.weak)
        return made

    copier = _Copier(tensor)
    body = Block()
    body.nodes = [copier.node(n) for n in levels[1].blocks[0].nodes[:-1]]
    ints = iter(zip(first.ints, stride))
    for new in walk(body):
        if rs.indexed(new):
            rs.advance(new, ints, indices)

    def add(kind, op, fn, args, dtype, into):
        node = Node(kind, op, fn, args, origin=origin)
        node.outputs.append(new_tensor(graph, node, 0, (), np.dtype(dtype), True))
        into.nodes.append(node)
        return node.outputs[0]

    outs = [add("binop", "+", "+", (counter, 1), np.int64, body), tensor(levels[2].args[0])]
    for (_base, d), p in indices.items():
        outs.append(add("binop", "+", "+", (p, d), np.int64, body))
    outs += [tensor(tmpl.nodes[j].outputs[o]) for j, o in places]
    body.outputs = outs
    body.params = params
    test = Block()
    below = add("binop", "<", "<", (counter, count), np.bool_, test)
    both = Node("call", "logical_and", np.logical_and, (below, going), origin=origin)
    both.outputs.append(new_tensor(graph, both, 0, (), np.dtype(np.bool_), False))
    test.nodes.append(both)
    test.outputs = [both.outputs[0]]
    loop = rs.while_node(graph, inits, test, body, origin)
    outer.append(loop)
    skip = 2 + len(indices)
    consts, last = chosen
    if consts:
        # Stopped after at most `last` steps (an `else` with the constant): the constant.
        after = add("binop", ">", ">", (loop.outputs[0], last), np.bool_, body)
        body.nodes.pop()  # (made by `add`: it belongs after the loop)
        outer.append(after.node)
        ran = Node("call", "logical_or", np.logical_or, (loop.outputs[1], after), origin=origin)
        ran.outputs.append(new_tensor(graph, ran, 0, (), np.dtype(np.bool_), False))
        outer.append(ran)
    for i, place in enumerate(state):
        value = loop.outputs[skip + places.index(place)]
        if i in consts:
            choice = _chosen(graph, ran.outputs[0], value, consts[i], origin)
            outer.append(choice)
            value = choice.outputs[0]
        done.repl.add(levels[0].outputs[i], value, True)
    return outer
