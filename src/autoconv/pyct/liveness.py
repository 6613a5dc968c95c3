"""Liveness of local names, computed backwards over structured statements.

Annotates every `If`, `For` and `While` with `live_out` (names read after it before being bound
again) and loops with `live_in_body` (names the body reads before binding them, on some
iteration). Run after `break`/`continue`/`return` are lowered, so control only leaves a block at
its end (or by an exception, which is why `try` is treated conservatively). The sets
over-approximate: a name that might be read counts as live.
"""

import gast

from autoconv.pyct import anno, scopes


def analyze(function_node, local_names: set, activity=None, live_at_exit=frozenset()) -> None:
    """Annotates the control-flow statements of `function_node`'s own scope. `live_at_exit`:
    names read after the function returns (its `global` and `nonlocal` names, which the
    caller or the enclosing function sees)."""
    _Liveness(local_names, activity or scopes.Activity(), live_at_exit).block(
        function_node.body, set(live_at_exit)
    )


class _Liveness:
    def __init__(self, local_names, activity, live_at_exit=frozenset()):
        self.locals = local_names
        self.activity = activity
        self.exit = frozenset(live_at_exit)

    def reads(self, nodes):
        return self.activity.read([n for n in nodes if n is not None]) & self.locals

    def binds(self, nodes):
        return self.activity.bound([n for n in nodes if n is not None]) & self.locals

    def block(self, stmts, live):
        for stmt in reversed(stmts):
            live = self.stmt(stmt, live)
        return live

    def stmt(self, node, live):
        if isinstance(node, gast.If):
            anno.set(node, "live_out", frozenset(live))
            return (
                self.reads([node.test])
                | self.block(node.body, live)
                | self.block(node.orelse, live)
            )
        if isinstance(node, (gast.For, gast.AsyncFor)):
            anno.set(node, "live_out", frozenset(live))
            after = self.block(node.orelse, live)
            head = set(after)
            stop = set(anno.get(node, "stop_flags", ()))  # the body returns them at its end
            while True:  # fixpoint over the back edge
                body_in = self.block(node.body, head | stop)
                new_head = after | (body_in - self.binds([node.target]))
                if new_head <= head:
                    break
                head |= new_head
            # The target is bound afresh on every iteration: it is not carried into the body.
            anno.set(node, "live_in_body", frozenset(body_in - self.binds([node.target])))
            return self.reads([node.iter]) | head
        if isinstance(node, gast.While):
            anno.set(node, "live_out", frozenset(live))
            after = self.block(node.orelse, live)
            head = after | self.reads([node.test])
            stop = set(anno.get(node, "stop_flags", ()))
            while True:
                body_in = self.block(node.body, head | stop)
                new_head = head | body_in
                if new_head <= head:
                    break
                head = new_head
            anno.set(node, "live_in_body", frozenset(body_in))
            return head
        if isinstance(node, gast.Try) or type(node).__name__ == "TryStar":
            # An exception may leave the body anywhere: whatever a handler or `finally` reads
            # is live throughout the body.
            final_in = self.block(node.finalbody, live)
            handlers_in = set()
            for handler in node.handlers:
                handlers_in |= self.reads([handler.type]) | self.block(handler.body, final_in)
            else_in = self.block(node.orelse, final_in)
            body_in = self.block(node.body, else_in | handlers_in | final_in)
            return body_in | handlers_in | final_in
        if isinstance(node, (gast.With, gast.AsyncWith)):
            inner = self.block(node.body, live)
            items = [i.context_expr for i in node.items]
            targets = [i.optional_vars for i in node.items]
            return (inner - self.binds(targets)) | self.reads(items)
        if isinstance(node, gast.Match):
            # Conservative: every case may run, and patterns may bind or not.
            result = set(live)
            for case in node.cases:
                result |= self.block(case.body, live) | self.reads([case.pattern, case.guard])
            return result | self.reads([node.subject])
        if isinstance(node, (gast.Return, gast.Raise)):
            # The caller (or a handler there) sees the `global` and `nonlocal` names.
            return self.reads([node]) | self.exit
        if isinstance(node, (gast.Delete, gast.Global, gast.Nonlocal)):
            return live | self.reads([node])
        if isinstance(node, gast.AugAssign):
            return (
                live
                | self.reads([node.value])
                | self.reads([node.target])
                | ({node.target.id} & self.locals if isinstance(node.target, gast.Name) else set())
            )
        # Simple statements, nested definitions: kill what they bind, then add what they read.
        return (live - self.binds([node])) | self.reads([node])
