"""A `collections.deque` used as a worklist becomes a list in graph mode, so that staged loops
and branches carry its items as they carry any list's:

    q = deque([start])  ->  q = ac.deque([start])
    q.popleft()         ->  ac.list_method(q, 'popleft')      (list_items: `pop(0)` of a list)
    q.appendleft(v)     ->  ac.list_method(q, 'appendleft', v)  (`insert(0, v)`)

Only a local name bound once, to `deque(...)` with no `maxlen`, and used only as a worklist
(its methods `append`, `appendleft`, `pop`, `popleft`, `extend`, `clear`; `len(q)`, `q[i]`,
`while q`, `if q`, `not q`, `for v in q`, `v in q`) is rewritten: where the deque could be seen
as one (returned, passed on, printed, stored, `isinstance`), it stays a deque. Outside a graph
trace `ac.deque(...)` is the deque itself.
"""

import collections

import gast

from autoconv.converters import expressions
from autoconv.pyct import templates
from autoconv.pyct.walk import walk

METHODS = frozenset(("append", "appendleft", "pop", "popleft", "extend", "clear"))
_WRAPPERS = ("len", "bool")


def transform(function_node, ctx) -> set:
    """Rewrites the worklist deques of `function_node`; gives their names."""
    made = _made(function_node, ctx)
    if not made:
        return set()
    names = {name for name in made if _worklist(function_node, name)}
    for name, call in made.items():
        if name in names:
            new = templates.expr("ac.deque(items)", ac=ctx.ac)
            new.args = call.args
            call.func, call.args = expressions.located(new.func, call.func), new.args
    return names


def _made(function_node, ctx) -> dict:
    """`{name: the deque(...) call}` for local names bound exactly once, to a deque."""
    bound: dict = {}
    calls: dict = {}
    resolver = getattr(ctx.resolver, "value", None)
    for node in walk(function_node):
        if isinstance(node, gast.Name) and not isinstance(node.ctx, gast.Load):
            bound[node.id] = bound.get(node.id, 0) + 1
        if isinstance(node, gast.Assign) and resolver is not None:
            for target, value in expressions.bound_pairs(node.targets, node.value):
                if (
                    isinstance(value, gast.Call)
                    and len(value.args) <= 1
                    and not value.keywords
                    and resolver(value.func, set()) is collections.deque
                ):
                    calls[target.id] = value
    local = ctx.local_names - ctx.globals - ctx.nonlocals
    return {n: c for n, c in calls.items() if bound.get(n) == 1 and n in local}


def _worklist(function_node, name: str) -> bool:
    """Whether every use of `name` is a worklist's (see the module's docstring)."""
    parents = {}
    for node in walk(function_node):
        for child in gast.iter_child_nodes(node):
            parents[id(child)] = node
    for node in walk(function_node):
        if not (isinstance(node, gast.Name) and node.id == name):
            continue
        if not isinstance(node.ctx, gast.Load):
            continue  # its one binding
        parent = parents.get(id(node))
        if not _use_of_a_worklist(node, parent, parents):
            return False
    return True


def _use_of_a_worklist(node, parent, parents) -> bool:
    if isinstance(parent, gast.Attribute) and parent.value is node:
        call = parents.get(id(parent))
        return parent.attr in METHODS and isinstance(call, gast.Call) and call.func is parent
    if isinstance(parent, gast.Subscript) and parent.value is node:
        return isinstance(parent.ctx, gast.Load)
    if isinstance(parent, (gast.While, gast.If, gast.IfExp)) and parent.test is node:
        return True
    if isinstance(parent, gast.UnaryOp) and isinstance(parent.op, gast.Not):
        return True
    if isinstance(parent, gast.BoolOp):
        return True  # `while q and q[0][0] == day`
    if isinstance(parent, gast.Compare):
        return any(c is node for c in parent.comparators) and all(
            isinstance(op, (gast.In, gast.NotIn)) for op in parent.ops
        )
    if isinstance(parent, gast.Call) and any(a is node for a in parent.args):
        func = parent.func
        return isinstance(func, gast.Name) and func.id in _WRAPPERS and len(parent.args) == 1
    if isinstance(parent, (gast.For, gast.comprehension)) and parent.iter is node:
        return True
    return False
