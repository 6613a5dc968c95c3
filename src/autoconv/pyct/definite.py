"""Definite assignment: which locals are surely bound before each `try` and `with`.

A forward pass over structured statements (run after `break`/`continue`/`return` are lowered,
so blocks are left only at their end or by an exception). It annotates every `Try` and `With`
with `maybe_unbound`: the locals that may be unbound somewhere in its body (some path reaches
the statement with them unbound, or the body itself deletes them). Over-approximates: when in
doubt, a name counts as maybe unbound.
"""

import gast

from autoconv.pyct import anno, scopes


def analyze(function_node, local_names: set, params: set) -> None:
    has_del = any(isinstance(n, gast.Delete) for n in scopes.walk_scope(function_node.body))
    _Definite(local_names, has_del).block(function_node.body, frozenset(params))


class _Definite:
    def __init__(self, local_names, has_del=True):
        self.locals = frozenset(local_names)
        self.has_del = has_del  # most functions have no `del`: no need to look for one

    def binds(self, nodes):
        return scopes.bound_names([n for n in nodes if n is not None]) & self.locals

    def deletes(self, nodes):
        if not self.has_del:
            return frozenset()
        return {
            n.id
            for node in nodes
            for n in scopes.walk_scope([node])
            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Del)
        }

    def mark(self, node, bound) -> None:
        """Annotates a `try` or `with` reached with `bound`: what its body may find unbound."""
        anno.set(node, "maybe_unbound", self.locals - (bound - self.deletes(node.body)))

    def block(self, stmts, bound):
        for stmt in stmts:
            bound = self.stmt(stmt, bound)
        return bound

    def stmt(self, node, bound):
        if isinstance(node, gast.If):
            return self.block(node.body, bound) & self.block(node.orelse, bound)
        if isinstance(node, (gast.For, gast.While)):
            # The body may run no time, or again with what an earlier iteration left.
            entry = bound - self.deletes(node.body)
            if isinstance(node, gast.For):
                entry_body = entry | self.binds([node.target])
            else:
                entry_body = entry
            self.block(node.body, entry_body)
            return self.block(node.orelse, entry)
        if isinstance(node, gast.Try) or type(node).__name__ == "TryStar":
            self.mark(node, bound)
            after_body = self.block(node.body, bound)
            # A handler may start anywhere in the body: only what held before it, less what
            # the body deletes.
            at_handler = bound - self.deletes(node.body)
            outcomes = [self.block(node.orelse, after_body)]
            for handler in node.handlers:
                start = at_handler | (self.binds([handler.name]) if handler.name else set())
                outcomes.append(self.block(handler.body, start))
            after = frozenset.intersection(*map(frozenset, outcomes))
            if not node.finalbody:
                return after
            # `finally` may start after an exception anywhere in the body, the handlers or
            # `else` (whatever they deleted), or after them all: it is analysed once, from what
            # holds on both ways in (visiting it once per way would be exponential in nested
            # `finally` blocks), and what follows the statement is what it leaves.
            at_finally = at_handler - self.deletes(node.handlers + node.orelse)
            return self.block(node.finalbody, at_finally & after)
        if isinstance(node, (gast.With, gast.AsyncWith)):
            self.mark(node, bound)
            inner = bound | self.binds([i.optional_vars for i in node.items])
            # `__exit__` may swallow an exception from anywhere in the body.
            self.block(node.body, inner)
            return inner - self.deletes(node.body)
        if isinstance(node, gast.Match):
            results = [
                self.block(case.body, bound | self.binds([case.pattern])) for case in node.cases
            ]
            return frozenset.intersection(bound, *map(frozenset, results)) if results else bound
        if isinstance(node, gast.Delete):
            return bound - self.deletes([node])
        return (bound | self.binds([node])) - self.deletes([node])
