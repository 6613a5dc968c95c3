"""A `collections.deque` used as a worklist becomes a list in graph mode, so that staged loops
and branches carry its items as they carry any list's:

    q = deque([start])  ->  q = ac.deque([start])
    q.popleft()         ->  ac.list_method(q, 'popleft')      (list_items: `pop(0)` of a list)
    q.appendleft(v)     ->  ac.list_method(q, 'appendleft', v)  (`insert(0, v)`)

A deque with a `maxlen` (a sliding window) keeps it by the statements Python's deque runs
itself, which staged loops and branches then carry as any others:

    w = deque(maxlen=k)  ->  maxlen_w = k; w = ac.deque((), maxlen_w)
    w.append(v)          ->  w.append(v); if maxlen_w is not None and len(w) > maxlen_w: w.popleft()

Only a local name bound once, to `deque(...)`, and used only as a worklist (its methods
`append`, `appendleft`, `pop`, `popleft`, `extend`, `clear`; `len(q)`, `q[i]`, `while q`, `if
q`, `not q`, `for v in q`, `v in q`, `sum(q)` and other reductions, `list(q)`, NumPy's functions
of it) is rewritten: where the deque could be seen as one (returned, passed on, printed,
stored, `isinstance`, `q.maxlen`), it stays a deque. Outside a graph trace `ac.deque(...)` is
the deque itself, which never grows past its `maxlen`, so the added statements do nothing.
"""

import collections

import gast

from autoconv.converters import expressions
from autoconv.pyct import templates
from autoconv.pyct.walk import walk

METHODS = frozenset(("append", "appendleft", "pop", "popleft", "extend", "clear"))
# Calls that read a deque as they read a list of the same items
_WRAPPERS = ("len", "bool", "sum", "max", "min", "list", "tuple", "sorted", "any", "all")
_NUMPY = ("np", "numpy")
# The statement that keeps a bounded deque's length after each way it grows: `append` and
# `extend` drop items at the left, `appendleft` at the right
_TRIMS = {
    "append": "if m is not None and len(q) > m:\n    q.popleft()",
    "extend": "while m is not None and len(q) > m:\n    q.popleft()",
    "appendleft": "if m is not None and len(q) > m:\n    q.pop()",
}


def transform(function_node, ctx) -> set:
    """Rewrites the worklist deques of `function_node`; gives their names."""
    made = _made(function_node, ctx)
    if not made:
        return set()
    names = {name for name in made if _worklist(function_node, name)}
    bounds = {}  # name -> (the hidden name of its maxlen, the maxlen's expression)
    for name, call in made.items():
        if name not in names:
            continue
        new = templates.expr("ac.deque(items)", ac=ctx.ac)
        items, maxlen = _arguments(call)
        new.args = [items] if items is not None else []
        if maxlen is not None:
            bounds[name] = (ctx.namer.new(f"maxlen_{name}"), maxlen)
            new.args = [
                items or gast.Tuple(elts=[], ctx=gast.Load()),
                gast.Name(id=bounds[name][0], ctx=gast.Load(), annotation=None, type_comment=None),
            ]
        call.func, call.args, call.keywords = expressions.located(new.func, call.func), new.args, []
    if bounds:
        _keep_bounds(function_node, bounds, made)
    return names


def _arguments(call) -> tuple:
    """`(items, maxlen)` expressions of a `deque(...)` call (None where not given, or for a
    `maxlen=None` written in the code)."""
    items = call.args[0] if call.args else None
    maxlen = call.args[1] if len(call.args) > 1 else None
    for k in call.keywords:
        if k.arg == "maxlen":
            maxlen = k.value
        elif k.arg == "iterable":
            items = k.value
    if isinstance(maxlen, gast.Constant) and maxlen.value is None:
        maxlen = None
    return items, maxlen


def _keep_bounds(function_node, bounds: dict, made: dict) -> None:
    """Binds each bounded deque's maxlen once, before the deque is made, and trims the deque
    after each statement that grows it."""
    calls = {id(made[name]): name for name in bounds}

    def rewrite(stmt):
        if isinstance(stmt, gast.Assign) and any(id(n) in calls for n in walk(stmt.value)):
            made_here = [calls[id(n)] for n in walk(stmt.value) if id(n) in calls]
            first = [
                templates.stmts("m = value", m=bounds[name][0], value=bounds[name][1])[0]
                for name in made_here
            ]
            return [*first, stmt]
        call = stmt.value if isinstance(stmt, gast.Expr) else None
        func = call.func if isinstance(call, gast.Call) else None
        if (
            isinstance(func, gast.Attribute)
            and isinstance(func.value, gast.Name)
            and func.value.id in bounds
            and func.attr in _TRIMS
        ):
            m, value = bounds[func.value.id]
            trim = _TRIMS[func.attr]
            if isinstance(value, gast.Constant):  # (a number written in the code)
                trim = trim.replace("m is not None and ", "")
            return [stmt, *templates.stmts(trim, m=m, q=func.value.id)]
        return None

    expressions.rewrite_statements(function_node, rewrite)


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
                    and len(value.args) <= 2
                    and all(k.arg in ("iterable", "maxlen") for k in value.keywords)
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
        if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name):
            return func.value.id in _NUMPY  # `np.mean(w)`: NumPy reads a list as a deque
        return isinstance(func, gast.Name) and func.id in _WRAPPERS and len(parent.args) == 1
    if isinstance(parent, (gast.For, gast.comprehension)) and parent.iter is node:
        return True
    return False
