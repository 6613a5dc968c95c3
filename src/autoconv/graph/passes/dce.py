"""Dead-code elimination: the graph keeps only what its outputs, its `autoconv.print`s and its
Variable updates need.

This is what makes execution non-strict: an unused operation never runs, so it cannot fail.
Prints and Variable updates (effects) are always kept, in program order, with everything they
read; so are the conditionals and loops that hold one. Beyond dropping unused operations, it
drops the results of a conditional that nothing reads (and what computes them in each
branch), and the variables of a loop that neither the rest of the graph, nor the loop's
condition, nor its effects, nor its other live variables read. With this pass switched off the
graph runs every traced operation (strict execution).
"""

from __future__ import annotations

from autoconv.graph.graph import Block, Graph
from autoconv.graph.passes.analysis import Uses, count_nodes, tensors_in

NAME = "dce"


def run(graph: Graph, settings=None) -> int:
    """Removes dead operations and dead results of control flow; returns how many operations
    were removed."""
    before = count_nodes(graph)
    for _ in range(20):
        # Uses only matter where there is control flow to prune (most graphs have none).
        changed = _has_control_flow(graph.block) and _prune_control_flow(graph.block, Uses(graph))
        needed = {t.id for t in tensors_in(graph.outputs)}
        _prune(graph.block, needed)
        if not changed:
            break
    return before - count_nodes(graph)


def live_nodes(graph: Graph) -> dict:
    """Non-strict pruning without changing the graph: `id(block) -> nodes kept`."""
    needed = {t.id for t in tensors_in(graph.outputs)}
    kept: dict = {}
    _needs(graph.block, needed, kept)
    return kept


def _needs(block: Block, needed: set, kept: dict | None = None) -> None:
    """Adds to `needed` the ids that the effects of `block` and its needed results read."""
    out = []
    for node in reversed(block.nodes):
        if node.effect or any(t.id in needed for t in node.outputs):
            for sub in node.blocks:
                needed.update(t.id for t in tensors_in(sub.outputs))
            for sub in reversed(node.blocks):
                _needs(sub, needed, kept)
            needed.update(t.id for t in node.inputs)
            out.append(node)
    if kept is not None:
        out.reverse()
        kept[id(block)] = out


def _prune(block: Block, needed: set) -> None:
    kept: dict = {}
    _needs(block, needed, kept)
    _apply(block, kept)


def _apply(block: Block, kept: dict) -> None:
    block.nodes = kept.get(id(block), [])
    for node in block.nodes:
        for sub in node.blocks:
            _apply(sub, kept)


def _has_control_flow(block: Block) -> bool:
    return any(node.kind in ("cond", "while") or node.blocks for node in block.nodes)


def _prune_control_flow(block: Block, uses: Uses) -> bool:
    changed = False
    for node in block.nodes:
        if node.kind == "cond":
            changed |= _prune_cond(node, uses)
        elif node.kind == "while":
            changed |= _prune_while(node, uses)
        for sub in node.blocks:
            changed |= _prune_control_flow(sub, uses)
    return changed


def _prune_cond(node, uses) -> bool:
    dead = [i for i, t in enumerate(node.outputs) if uses.count[t.id] == 0]
    if not dead:
        return False
    for sub in node.blocks:
        for i in dead:
            # No longer read: a cond nested in the branch that gave it finds its result dead
            # in this round (a Python loop's `break` nests one cond per step).
            for t in tensors_in(sub.outputs[i]):
                uses.count[t.id] -= 1
        sub.outputs = [v for i, v in enumerate(sub.outputs) if i not in dead]
    _drop_outputs(node, dead)
    return True


def _prune_while(node, uses) -> bool:
    cond, body = node.blocks
    n = len(body.params)
    live = {i for i, t in enumerate(node.outputs) if uses.count[t.id] > 0}
    while True:
        needed = set()
        for v in body.outputs[n:]:  # the stop flag
            needed.update(t.id for t in tensors_in(v))
        for i in live:
            needed.update(t.id for t in tensors_in(body.outputs[i]))
        _needs(body, needed)
        needed.update(t.id for t in tensors_in(cond.outputs))
        _needs(cond, needed)
        grown = live | {i for i, p in enumerate(body.params) if p.id in needed}
        if grown == live:
            break
        live = grown
    dead = [i for i in range(n) if i not in live]
    if not dead:
        return False
    keep = [i for i in range(n) if i in live]
    node.args = tuple(node.args[i] for i in keep)
    node.inputs = [t for a in node.args for t in tensors_in(a)]
    body.params[:] = [body.params[i] for i in keep]
    body.outputs = [body.outputs[i] for i in keep] + list(body.outputs[n:])
    _drop_outputs(node, dead)
    return True


def _drop_outputs(node, dead) -> None:
    node.outputs = [t for i, t in enumerate(node.outputs) if i not in dead]
    for i, t in enumerate(node.outputs):
        t.index = i
