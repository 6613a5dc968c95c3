"""Conditional expressions to lazy runtime calls.

    a if c else b   ->   ac.if_exp(c, lambda: a, lambda: b)

A branch holding `:=` stays as Python (in a lambda it would bind in the lambda).
"""

from autoconv.converters import expressions
from autoconv.pyct import templates
from autoconv.pyct.transformer import Transformer


def transform(function_node, ctx) -> None:
    expressions.rewrite(function_node, _Conditional(ctx))


class _Conditional(Transformer):
    def __init__(self, ctx):
        super().__init__()
        self.ac = ctx.ac

    def visit_IfExp(self, node):
        self.generic_visit(node)
        if expressions.binds_or_suspends(node.body) or expressions.binds_or_suspends(node.orelse):
            return node
        call = templates.expr(
            "ac.if_exp(cond, t, f)",
            ac=self.ac,
            cond=node.test,
            t=expressions.thunk(node.body),
            f=expressions.thunk(node.orelse),
        )
        return expressions.located(call, node)
