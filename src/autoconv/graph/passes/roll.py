"""Re-rolling: the per-step copies of a Python loop unrolled while tracing become one staged loop.

A `for` over a Python `range` runs in Python while tracing (AutoGraph's rule: `layers[i]` and
Python-side logic keep working), so 1,000 steps leave 1,000 copies of the body in the graph. The
tracer notes where each iteration began (`graph.unrolled`); this pass checks, step by step,
which consecutive copies are the same computation up to

- the loop-carried values: what a step reads of the step before it, always from the same
  operation and result (these become the loop's variables),
- integer indices that advance by a fixed stride (`x[i]`, `x[2 * i + 1]`: each becomes a
  counter carried by the loop), and
- the values from before the loop that each step reads of its own, where they are arrays of
  one shape and dtype (the items of a Python list of arrays, `for w in weights`): the loop
  reads row `i` of their `np.stack`, made once before it (on a backend that copies the stack
  at every call, only for a run of more than `STACKED_MIN` operations),

and replaces such a run by one `while` node counting the steps. Only pure steps roll: a step
with a print, a Variable update, a list append, a random draw, a conditional or a loop stays
unrolled, as does a step that reads values of steps further back, or whose results other than
the loop variables are read after it (its last copy then stays unrolled). Operations of a step
that read only values from before the loop (`x.T`) run once, before it. The loop runs the same
operations in the same order as the unrolled copies, so results are bit-identical.

Each step is keyed in one walk over its operations, so the pass takes time linear in the number
of steps.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph.graph import (
    Block,
    Graph,
    Node,
    _Copier,
    map_tensors,
    new_tensor,
    walk,
)
from autoconv.graph.passes import roll_break
from autoconv.graph.passes.cse import value_key
from autoconv.graph.passes.roll_steps import (
    _F64,
    Plan,
    _key_steps,
    _places,
    _same,
    _starts_run,
    _Step,
    advance,
    indexed,
    int_const,
    param_like,
    varying_floats,
    while_node,
)

NAME = "roll"


# Backends that copy a list's items into their stack at every call (JAX: the stack is an
# operation of the compiled program; the NumPy backend reads the items themselves). There a run
# of steps reading items rolls only when its unrolled copies would hold more than this many
# operations: 20 `(w, b)` layers of 32x32 ran 1.2-1.4x slower rolled than unrolled (the stack
# of 40 arrays per call), while XLA compiles a few hundred unrolled operations about as fast as
# the loop (100 layers: see benchmarks/README.md, issue 25).
STACKED_MIN = {"jax": 512}


def run(graph: Graph, settings=None) -> int:
    """Rolls the runs of uniform steps of the graph's unrolled loops; returns how many steps
    were rolled away."""
    done = plan(graph)
    if not done.steps:
        return 0
    for block in list(_blocks(graph.block)):
        nodes = done.blocks.get(id(block))
        if nodes is not None:
            block.nodes = nodes
    done.repl.apply(graph)
    graph.block.outputs = map_tensors(list(graph.block.outputs), done.replace)
    graph.unrolled = []
    return done.steps


def plan(graph: Graph, backend: str | None = None) -> Plan:
    """Decides which steps of the graph's unrolled loops roll, without changing the graph
    (the loop nodes it makes are new; their Tensors take new ids of `graph`). `backend`: the
    one the graph is for, where it matters (`STACKED_MIN`)."""
    done = Plan(STACKED_MIN.get(backend, 0))
    hints = getattr(graph, "unrolled", None)
    if hints:
        _roll_hinted(graph, hints, done)
    roll_break.plan(graph, done)  # loops a staged `break` may end: chains of conds
    return done


def _roll_hinted(graph: Graph, hints: list, done: Plan) -> None:
    where: dict = {}  # first result id -> (block, position)
    wanted = {h[0] for h in hints}
    for block in _blocks(graph.block):
        for i, node in enumerate(block.nodes):
            outs = node.outputs
            if outs and outs[0].id in wanted and outs[0].id not in where:
                where[outs[0].id] = (block, i)
        if len(where) == len(wanted):
            break  # (all found: the nested blocks need no walk)
    spans = []
    for first, lengths, origin in hints:
        block, start = where.get(first, (None, 0))
        if block is None:
            continue
        if start + sum(lengths) > len(block.nodes):
            continue
        spans.append((block, start, lengths, origin))
    # Latest first within a block, inner loops (shorter) before the loops that hold them: a
    # rolled span shifts only the positions after it, and a loop holding a rolled one is left.
    spans.sort(key=lambda s: (id(s[0]), -s[1], sum(s[2])))
    rolled_at: dict = {}  # id(block) -> starts of the spans rolled
    for block, start, lengths, origin in spans:
        end = start + sum(lengths)
        if any(start <= s < end for s in rolled_at.get(id(block), ())):
            continue
        steps = _roll_loop(graph, block, start, lengths, origin, done)
        if steps:
            rolled_at.setdefault(id(block), []).append(start)
            done.steps += steps


def _blocks(block):
    yield block
    for node in walk(block):
        yield from node.blocks


def _roll_loop(graph, block, start, lengths, origin, plan: Plan) -> int:
    nodes = plan.blocks.get(id(block), block.nodes)
    steps = []
    p = start
    for n in lengths:
        steps.append(_Step(nodes[p : p + n]))
        p += n
    at = _places(steps)
    _key_steps(steps, at, floats=True)
    # Runs: a start step, then steps keyed as the second one, whose indices advance evenly.
    runs = []
    k, n = 0, len(steps)
    while k < n - 1:
        started = _starts_run(steps[k], steps[k + 1])
        if started is None:
            k += 1
            continue
        carried, items = started
        stride = [b - a for a, b in zip(steps[k].ints, steps[k + 1].ints)]
        e = k + 2
        while e < n and _same(steps[e], steps[e - 1], steps[k + 1], stride, items):
            e += 1
        runs.append((k, e, carried, stride, items))
        k = e
    if not runs:
        return 0
    # Values read after the loop (later operations, nested blocks, block and graph outputs).
    span_end = start + sum(lengths)
    later: dict = {}  # id -> Tensor
    for node in nodes[span_end:]:
        later.update((t.id, t) for t in node.inputs)
        for sub in node.blocks:
            for inner in walk(sub):
                later.update((t.id, t) for t in inner.inputs)
            later.update((t.id, t) for t in _tensors(sub.outputs))
    later.update((t.id, t) for t in _tensors(block.outputs))
    if block is graph.block:
        later.update((t.id, t) for t in _tensors(graph.outputs))
    # ... or by a step of this loop further on than the next one.
    for step in steps:
        for slot, t in step.reads:
            if slot[0] == "far":
                later[t.id] = t
    # The steps with a result read after the loop, in order.
    read_steps = sorted(
        {
            place[0]
            for t in later.values()
            if (place := at.get(id(t.node))) and type(place[1]) is int
        }
    )
    new_nodes = list(nodes[:start])
    repl = plan.repl
    done = 0
    k = 0
    for s, e, carried, stride, items in runs:
        for step in steps[k:s]:
            new_nodes.extend(step.top)
        k = e
        # Only the last step's loop variables can be read after the run: it ends at the
        # first step with another result read after it (or before that step).
        end = next((m + 1 for m in read_steps if s <= m < e), e)
        if _read_after(steps[end - 1], later, carried, steps[end] if end < len(steps) else None):
            end -= 1
        if items and (end - s) * len(steps[s + 1].nodes) <= plan.stacked_min:
            end = s  # a short run over a list's items: its stack would cost more per call
        if end - s >= 2:
            new_nodes.extend(_build(graph, steps, s, end, carried, stride, items, origin, repl))
            done += end - s
            s = end
        for step in steps[s:e]:  # the copies left unrolled
            new_nodes.extend(step.top)
    for step in steps[k:]:
        new_nodes.extend(step.top)
    if not done:
        return 0
    new_nodes.extend(nodes[span_end:])
    plan.blocks[id(block)] = new_nodes
    return done


def _tensors(v):
    from autoconv.graph.graph import tensors_in

    return tensors_in(v)


def _read_after(step, later, carried=None, following=None) -> bool:
    """Whether a result of `step` is read after the run it ends (or, with `carried` None, at
    all after the run): in `later`, or by the `following` step; loop variables in `carried`
    may be."""
    read = later
    if following is not None:
        read = {*later, *(t.id for _, t in following.reads)}
    for j, node in enumerate(step.nodes):
        for o, t in enumerate(node.outputs):
            if t.id in read and (carried is None or (j, o) not in carried):
                return True
    return False


def _copy_nested(graph, node, value, made: dict, ints, indices: dict):
    """A copy of a cond or loop of the template step for the loop's body: what its blocks make
    (their parameters too) is made anew, what they read from outside them is `value(t)`; its
    results go into `made`, its integer indices advance (`advance`)."""
    inner = {id(n) for sub in node.blocks for n in walk(sub)}
    inner.update(id(p.node) for sub in node.blocks for p in sub.params)
    copies: dict = {}
    for t in node.outputs:
        copies[t.id] = made[t.id] = new_tensor(graph, None, t.index, t.shape, t.dtype, t.weak)

    def tensor(t):
        copy = copies.get(t.id)
        if copy is None:
            if id(t.node) not in inner:
                return value(t)
            copy = copies[t.id] = new_tensor(graph, None, t.index, t.shape, t.dtype, t.weak)
        return copy

    copy = _Copier(tensor).node(node)
    for sub in copy.blocks:
        for inner_node in walk(sub):
            if indexed(inner_node):
                advance(inner_node, ints, indices)
    return copy


def _build(graph, steps, s, e, carried, stride, items, origin, repl) -> list:
    """The operations that replace steps `s` to `e - 1`: those of step `s` that read only
    values from before the loop (run once), the counters' initial values, the stacks of the
    steps' `items` and the loop."""
    first, tmpl = steps[s], steps[s + 1]
    origin = origin or tmpl.nodes[0].origin
    pos = {id(node): j for j, node in enumerate(tmpl.nodes)}
    prev = {id(node): j for j, node in enumerate(first.nodes)}
    outer: list = []
    inits: list = []
    params: list = []

    def const(value):
        t = int_const(graph, value, origin)
        outer.append(t.node)
        return t

    def param(name, like):
        t = param_like(graph, name, like)
        params.append(t)
        return t

    counter_init = const(0)
    counter = param("<step>", counter_init)
    inits.append(counter_init)
    indices: dict = {}  # (first value, stride) -> param
    for base, d in zip(first.ints, stride):
        if d and (base, d) not in indices:
            init = const(base)
            inits.append(init)
            indices[(base, d)] = param("<index>", init)
    loop_vars: dict = {}
    for (j, o), init in carried.items():
        inits.append(init)
        loop_vars[(j, o)] = param("<carried>", first.nodes[j].outputs[o])
    body = Block()
    made: dict = {}  # template result id -> its value in the body
    # Each step's own item (a list's element) becomes a row of one stack, read by the counter.
    stacks: dict = {}  # the items' ids, step by step -> the stack
    item_of: dict = {}  # id of the template's item -> its stack
    for r in items:
        column = [steps[m].reads[r][1] for m in range(s, e)]
        key = tuple(t.id for t in column)
        if key not in stacks:
            like = column[0]
            # `rows`: read only row by row (the NumPy backend indexes the items themselves).
            node = Node("call", "stack", np.stack, ([*column],), None, {"rows": True}, origin)
            shape = (len(column), *like._shape)
            node.outputs.append(new_tensor(graph, node, 0, shape, like.dtype, False))
            outer.append(node)
            stacks[key] = node.outputs[0]
        item_of[tmpl.reads[r][1].id] = stacks[key]
    rows: dict = {}  # stack id -> its row in the body
    hoisted: set = set()
    ints = iter(zip(first.ints, stride))
    # Each float the steps' operators take: one value in every step, or a row of their array.
    floats = iter(zip(*(steps[m].floats for m in range(s, e))))

    def row_of(values):
        const = Node("const", "const", attrs={"value": np.array(values), "owned": True})
        const.origin = origin
        const.outputs.append(new_tensor(graph, const, 0, (len(values),), _F64, False))
        outer.append(const)
        row = Node("getitem", "getitem", None, (const.outputs[0], counter), attrs={"tuple": False})
        row.origin = origin
        row.outputs.append(new_tensor(graph, row, 0, (), _F64, False))
        body.nodes.append(row)
        return row.outputs[0]

    for node in tmpl.top:
        j = pos[id(node)]
        # A draw runs in every step; a cond or loop is copied whole (below).
        variant = node.effect or bool(node.blocks)

        def value(t):
            nonlocal variant
            stack = item_of.get(t.id)
            if stack is not None:
                variant = True
                if stack.id not in rows:
                    row = Node("getitem", "getitem", None, (stack, counter), attrs={"tuple": False})
                    row.origin = origin
                    shape, dtype = stack._shape[1:], stack.dtype
                    row.outputs.append(new_tensor(graph, row, 0, shape, dtype, False))
                    body.nodes.append(row)
                    rows[stack.id] = row.outputs[0]
                return rows[stack.id]
            at = pos.get(id(t.node))
            if at is not None:
                if at in hoisted:
                    return first.nodes[at].outputs[t.index]
                variant = True
                return made[t.id]
            at = prev.get(id(t.node))
            if at is not None:
                variant = True
                return loop_vars[(at, t.index)]
            return t

        args = map_tensors(node.args, value)
        kwargs = map_tensors(node.kwargs, value)
        if indexed(node):

            def index(i):
                nonlocal variant
                base, d = next(ints)
                if not d:
                    return i
                variant = True
                return indices[(base, d)]

            key = args[1]
            if type(key) is int:
                key = index(key)
            elif type(key) is tuple:
                key = tuple(index(i) if type(i) is int else i for i in key)
            args = (args[0], key, *args[2:])
        if first.floats and varying_floats(node):
            new_args = []
            for a in args:
                if type(a) is float:
                    column = next(floats)
                    c = column[0]
                    if (
                        column.count(c) != len(column)  # (exact where c is not 0.0 or NaN)
                        if c == c and c != 0.0
                        else any(value_key(v) != value_key(c) for v in column)
                    ):
                        variant = True
                        a = row_of(column)
                new_args.append(a)
            args = tuple(new_args)
        if not variant:
            hoisted.add(j)
            outer.append(first.nodes[j])  # the same operation on the same values: run once
            continue
        if node.blocks:
            body.nodes.append(_copy_nested(graph, node, value, made, ints, indices))
            continue
        new = Node(node.kind, node.op, node.fn, args, kwargs, dict(node.attrs), node.origin)
        new.effect = node.effect  # (a draw: never folded, merged or dropped)
        for i, t in enumerate(node.outputs):
            made[t.id] = new_tensor(graph, new, i, t.shape, t.dtype, t.weak)
            new.outputs.append(made[t.id])
        body.nodes.append(new)

    def result(j, o):
        if j in hoisted:
            return first.nodes[j].outputs[o]
        return made[tmpl.nodes[j].outputs[o].id]

    step_node = Node("binop", "+", "+", (counter, 1), origin=origin)
    step_node.outputs.append(new_tensor(graph, step_node, 0, (), counter.dtype, True))
    body.nodes.append(step_node)
    outs = [step_node.outputs[0]]
    for (_base, d), p in indices.items():
        node = Node("binop", "+", "+", (p, d), origin=origin)
        node.outputs.append(new_tensor(graph, node, 0, (), p.dtype, True))
        body.nodes.append(node)
        outs.append(node.outputs[0])
    outs += [result(j, o) for (j, o) in carried]
    body.outputs = outs
    body.params = params
    cond = Block()
    test = Node("binop", "<", "<", (counter, e - s), origin=origin)
    test.outputs.append(new_tensor(graph, test, 0, (), np.dtype(np.bool_), True))
    cond.nodes.append(test)
    cond.outputs = [test.outputs[0]]
    loop = while_node(graph, inits, cond, body, origin)
    outer.append(loop)
    last = steps[e - 1]
    skip = 1 + len(indices)
    for n, (j, o) in enumerate(carried):
        repl.add(last.nodes[j].outputs[o], loop.outputs[skip + n], True)
    return outer
