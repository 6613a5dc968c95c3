"""Which names a piece of code binds and reads, in the scope of the function that holds it.

Nested functions, lambdas and classes are scopes of their own: their bodies are not searched for
bindings, but their definitions bind a name, and the names they read from outside count as reads
where they are defined. Comprehensions are scopes too, except that `:=` inside one binds in the
enclosing function, as Python specifies.
"""

import gast

from autoconv.pyct import anno
from autoconv.pyct.walk import child_fields, walk

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)
_COMPREHENSIONS = (gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)
_SCOPE_KINDS = frozenset(_SCOPES)


def bound_names(nodes) -> set:
    """Names that `nodes` (statements or expressions) bind in the enclosing function scope."""
    found = set()
    stack = list(nodes)
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        node = pop()
        kind = type(node)
        if kind is gast.Name:  # the common case first
            if type(node.ctx) in _BINDING_CONTEXTS:
                found.add(node.id)
            continue
        if kind in _DEFINITIONS:
            found.add(node.name)
            extend(node.decorator_list)  # evaluated where the definition is
            if kind is not gast.ClassDef:
                extend(node.args.defaults)
                extend(d for d in node.args.kw_defaults if d is not None)
            continue
        if kind is gast.Lambda:
            extend(node.args.defaults)
            extend(d for d in node.args.kw_defaults if d is not None)
            continue
        if kind in _COMPREHENSION_KINDS:
            # Only `:=` escapes a comprehension (PEP 572).
            for child in walk(node):
                if isinstance(child, gast.NamedExpr) and isinstance(child.target, gast.Name):
                    found.add(child.target.id)
            continue
        if kind is gast.alias:
            found.add((node.asname or node.name).split(".")[0])
            continue
        if kind in _MATCH_CAPTURES and node.name:
            found.add(node.name)
        elif kind is gast.MatchMapping and node.rest:
            found.add(node.rest)
        for field in child_fields(kind):
            value = getattr(node, field, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, gast.AST):
                        push(item)
            elif isinstance(value, gast.AST):
                push(value)
    return found


_BINDING_CONTEXTS = frozenset({gast.Store, gast.Del})
_DEFINITIONS = frozenset({gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef})
_COMPREHENSION_KINDS = frozenset(_COMPREHENSIONS)
_MATCH_CAPTURES = frozenset({gast.MatchAs, gast.MatchStar})


def read_names(nodes) -> set:
    """Names that `nodes` read (or delete) from the enclosing function scope, nested scopes'
    free reads included: a name a lambda, a function or a comprehension binds itself (its
    parameter, its target: `lambda w: w`, `[w for w in ws]`) is its own, not a read of the
    enclosing one (a class body: every name it loads, conservatively). `x += 1` reads `x`."""
    found = set()
    stack = list(nodes)
    while stack:
        child = stack.pop()
        kind = type(child)
        if kind is gast.Name:
            if isinstance(child.ctx, (gast.Load, gast.Del)):
                found.add(child.id)
            continue
        if kind is gast.AugAssign and isinstance(child.target, gast.Name):
            found.add(child.target.id)
        elif kind in _DEFINITIONS and kind is not gast.ClassDef or kind is gast.Lambda:
            found |= _free_reads(child)
            continue
        elif kind in _COMPREHENSION_KINDS:
            found |= _comprehension_reads(child)
            continue
        for field in child_fields(kind):
            value = getattr(child, field, None)
            if type(value) is list:
                stack.extend(v for v in value if isinstance(v, gast.AST))
            elif isinstance(value, gast.AST):
                stack.append(value)
    return found


def _free_reads(node) -> set:
    """The reads of a function or lambda definition in the scope that holds it: its decorators
    and defaults, and the names its body reads that it does not bind itself."""
    args = node.args
    outside = [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
    if isinstance(node, gast.Lambda):
        body = [node.body]
    else:
        body = node.body
        outside.extend(node.decorator_list)
    params = args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]
    own = {a.id for a in params if a is not None} | bound_names(body)
    for n in walk_scope(body):  # (not `declared`: its cache would outlive rewrites of `node`)
        if isinstance(n, (gast.Global, gast.Nonlocal)):
            own.difference_update(n.names)
    return read_names(outside) | (read_names(body) - own)


def _comprehension_reads(node) -> set:
    """A comprehension's reads in the enclosing scope: its first iterable, and what the rest
    reads that its targets do not bind (`:=` binds the enclosing scope's name)."""
    gens = node.generators
    targets = bound_names([g.target for g in gens])
    inner = [*(g.iter for g in gens[1:]), *(i for g in gens for i in g.ifs)]
    inner += [node.key, node.value] if isinstance(node, gast.DictComp) else [node.elt]
    return read_names([gens[0].iter]) | (read_names(inner) - targets)


def own_nodes(function_node) -> list:
    """Every node of the function's own scope (as `walk_scope` yields them), walked once and
    shared by the analyses that run before any rewriting, until `forget_own_nodes`."""
    nodes = anno.get(function_node, "own_nodes")
    if nodes is None:
        body = (
            [function_node.body] if isinstance(function_node, gast.Lambda) else function_node.body
        )
        nodes = list(walk_scope(body))
        anno.set(function_node, "own_nodes", nodes)
    return nodes


def forget_own_nodes(function_node) -> None:
    """Called before the first rewrite: the shared list would go stale."""
    anno.set(function_node, "own_nodes", None)


def declared(function_node) -> tuple:
    """The (global, nonlocal) names a function declares, anywhere in its own scope."""
    globals_, nonlocals = set(), set()
    for node in own_nodes(function_node):
        if isinstance(node, gast.Global):
            globals_.update(node.names)
        elif isinstance(node, gast.Nonlocal):
            nonlocals.update(node.names)
    return globals_, nonlocals


def local_names(function_node) -> set:
    """The names local to a function: its parameters and everything its body binds, less those
    declared global or nonlocal."""
    params = set()
    if not isinstance(function_node, gast.Lambda):
        args = function_node.args
        for arg in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
            if arg is not None:
                params.add(arg.id)
        body = function_node.body
    else:
        args = function_node.args
        for arg in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
            if arg is not None:
                params.add(arg.id)
        body = [function_node.body]
        return params | bound_names(body)
    globals_, nonlocals = declared(function_node)
    return (params | bound_names(body)) - globals_ - nonlocals


def walk_scope(nodes):
    """Yields every node under `nodes` that belongs to the same function scope (nested
    function, lambda and class nodes themselves, but not their insides), in source order."""
    stack = list(nodes)
    stack.reverse()
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        yield node
        kind = type(node)
        if kind in _SCOPE_KINDS:
            continue
        for field in reversed(child_fields(kind)):
            value = getattr(node, field, None)
            if type(value) is list:
                for item in reversed(value):
                    if isinstance(item, gast.AST):
                        push(item)
            elif isinstance(value, gast.AST):
                push(value)


def is_scope(node) -> bool:
    return isinstance(node, _SCOPES)


class Activity:
    """Memoized `bound_names` / `read_names` per node, for analyses that ask about the same
    statements at every nesting level. Valid while the nodes it was asked about are unchanged
    (it keeps them alive, so their ids stay theirs)."""

    def __init__(self):
        self._memo = {bound_names: {}, read_names: {}}

    def bound(self, node) -> frozenset:
        return self._names(bound_names, node)

    def read(self, node) -> frozenset:
        return self._names(read_names, node)

    def _names(self, find, node) -> frozenset:
        if isinstance(node, (list, tuple)):  # lists are not memoized: they are often temporary
            return frozenset().union(*(self._names(find, n) for n in node))
        memo = self._memo[find]
        hit = memo.get(id(node))
        if hit is not None:
            return hit[1]
        if isinstance(node, (gast.If, gast.For, gast.While, gast.With, gast.Try)):
            # A compound statement's blocks are memoized apart: nested statements are asked
            # about again on their own.
            own = [getattr(node, f) for f in node._fields if f not in _BLOCKS]
            value = frozenset(find(list(_flatten(own)))).union(
                *(self._names(find, getattr(node, f)) for f in _BLOCKS if hasattr(node, f))
            )
        else:
            value = frozenset(find([node]))
        memo[id(node)] = (node, value)
        return value


_BLOCKS = ("body", "orelse", "finalbody")


def _flatten(values):
    for value in values:
        if isinstance(value, list):
            yield from (v for v in value if isinstance(v, gast.AST))
        elif isinstance(value, gast.AST):
            yield value
