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
  reads row `i` of their `np.stack`, made once before it,

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
    set_args,
    walk,
)
from autoconv.graph.passes.cse import value_key
from autoconv.graph.passes.rewrite import Replacements
from autoconv.graph.tensor import Tensor

NAME = "roll"
_PURE_KINDS = frozenset(("call", "binop", "unop", "getitem", "method", "attr", "helper", "const"))
_INT = ("int",)  # the key of an integer index that may advance from step to step


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


class Plan:
    """The rolls `plan` decided, made by `run` or by the graph copy the passes work on
    (`graph.copy(plan.blocks, plan.replace)`, which then copies only what is left): `blocks`,
    id(block) -> its new nodes; `repl`, the loops' results in place of their last steps';
    `steps`, how many steps were rolled away."""

    __slots__ = ("blocks", "repl", "steps")

    def __init__(self):
        self.blocks: dict = {}
        self.repl = Replacements()
        self.steps = 0

    def replace(self, t):
        return self.repl.resolve(t, True)


def plan(graph: Graph) -> Plan:
    """Decides which steps of the graph's unrolled loops roll, without changing the graph
    (the loop nodes it makes are new; their Tensors take new ids of `graph`)."""
    done = Plan()
    hints = getattr(graph, "unrolled", None)
    if hints:
        _roll_hinted(graph, hints, done)
    from autoconv.graph.passes import roll_break  # (which builds on this module)

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


class _Step:
    """One iteration's operations, keyed: `key` compares steps; `reads` are the Tensors the
    step reads from outside itself, in order, each with its slot (`("prev", j, o)`: result `o`
    of operation `j` of the step before; `("ext", id)`: a value from before the loop);
    `ints` the integer indices. `nodes` are all its operations, those of the blocks of its
    conds and loops too (in `walk` order: positions in the step index them); `top` its own."""

    __slots__ = ("nodes", "top", "key", "reads", "ints", "pure")

    def __init__(self, top):
        self.top = top
        self.nodes = _flat(top)
        self.reads: list = []
        self.ints: list = []
        self.pure = True
        self.key = None


def _flat(top: list) -> list:
    """`top` with the operations of their blocks after each, in `walk` order."""
    if not any(node.blocks for node in top):
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


def _key_steps(steps: list, at: dict) -> None:
    """Keys each step. `at`: id(node) -> (step number, position in the step). A cond or loop
    in a step is keyed with the shape of its blocks (their operations follow it in `nodes`)."""
    at_get = at.get
    for k, step in enumerate(steps):
        parts = []
        reads = step.reads

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
            if kind == "getitem":
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
                        keys.append(value_key(a))
                    else:  # the general walk, from the first argument again
                        del reads[read:]
                        keys = None
                        break
                outs = node.outputs
                parts.append(
                    (
                        kind,
                        node.op,
                        node.fn if isinstance(node.fn, str) else ("fn", id(node.fn)),
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


def _roll_loop(graph, block, start, lengths, origin, plan: Plan) -> int:
    nodes = plan.blocks.get(id(block), block.nodes)
    steps = []
    p = start
    for n in lengths:
        steps.append(_Step(nodes[p : p + n]))
        p += n
    _key_steps(steps, _places(steps))
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
    later: set = set()
    for node in nodes[span_end:]:
        later.update(t.id for t in node.inputs)
        for sub in node.blocks:
            for inner in walk(sub):
                later.update(t.id for t in inner.inputs)
            later.update(t.id for t in _tensors(sub.outputs))
    later.update(t.id for t in _tensors(block.outputs))
    if block is graph.block:
        later.update(t.id for t in _tensors(graph.outputs))
    # ... or by a step of this loop further on than the next one.
    for step in steps:
        later.update(t.id for slot, t in step.reads if slot[0] == "far")
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
        end = next((m + 1 for m in range(s, e) if _read_after(steps[m], later)), e)
        if _read_after(steps[end - 1], later, carried, steps[end] if end < len(steps) else None):
            end -= 1
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


def _read_after(step, later, carried=None, following=None) -> bool:
    """Whether a result of `step` is read after the run it ends (or, with `carried` None, at
    all after the run): in `later`, or by the `following` step; loop variables in `carried`
    may be."""
    read = later
    if following is not None:
        read = later | {t.id for _, t in following.reads}
    for j, node in enumerate(step.nodes):
        for o, t in enumerate(node.outputs):
            if t.id in read and (carried is None or (j, o) not in carried):
                return True
    return False


def advance(node, ints, indices: dict) -> None:
    """Puts counters in place of the integer indices of `node`, a copy of a getitem of a
    step: `ints` gives each index's (first value, stride) in turn, `indices` the counter of
    each that advances."""

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
            if inner_node.kind == "getitem":
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
        node = Node("const", "const", attrs={"value": value, "owned": True}, origin=origin)
        node.outputs.append(new_tensor(graph, node, 0, (), np.dtype(np.int64), True))
        outer.append(node)
        return node.outputs[0]

    def param(name, like):
        node = Node("param", "param", attrs={"name": name})
        t = new_tensor(graph, node, 0, like.shape, like.dtype, like.weak)
        node.outputs.append(t)
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
        if node.kind == "getitem":

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
    cond.params = body.params
    loop = Node("while", "while", args=inits, attrs={"stop": False}, origin=origin)
    loop.blocks = [cond, body]
    loop.effect = any(n.effect for n in walk(body))  # draws: kept, in order, by every pass
    for i, p in enumerate(params):
        loop.outputs.append(new_tensor(graph, loop, i, p.shape, p.dtype, p.weak))
    outer.append(loop)
    last = steps[e - 1]
    skip = 1 + len(indices)
    for n, (j, o) in enumerate(carried):
        repl.add(last.nodes[j].outputs[o], loop.outputs[skip + n], True)
    return outer
