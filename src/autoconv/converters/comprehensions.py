"""A list comprehension that filters, through the runtime, so that a filter known only when the
graph runs keeps the items it selects, as the `for` statement with an `if` and an append would:

    [f(v) for v in xs if v > 0]   ->  ac.filtered(xs, lambda v: v > 0, lambda v: f(v))

Only the simple form: one `for` over a name, its `if`s, no `:=` (which would bind in the
lambda) and no `await` or `yield`. Outside a trace `ac.filtered` is the comprehension itself.
"""

import gast

from autoconv.converters import expressions
from autoconv.pyct import templates
from autoconv.pyct.transformer import Transformer
from autoconv.pyct.walk import walk

_KEEP = (gast.NamedExpr, gast.Await, gast.Yield, gast.YieldFrom)


def transform(function_node, ctx) -> None:
    expressions.rewrite(function_node, _Filtered(ctx.ac))


class _Filtered(Transformer):
    def __init__(self, ac):
        super().__init__()
        self.ac = ac

    def visit_ListComp(self, node):
        self.generic_visit(node)
        if len(node.generators) != 1:
            return node
        gen = node.generators[0]
        if gen.is_async or not gen.ifs or not isinstance(gen.target, gast.Name):
            return node
        if any(isinstance(n, _KEEP) for part in (node.elt, *gen.ifs) for n in walk(part)):
            return node
        test = gen.ifs[0] if len(gen.ifs) == 1 else gast.BoolOp(op=gast.And(), values=gen.ifs)
        name = gen.target.id
        call = templates.expr(
            "ac.filtered(items, lambda name: test, lambda name: value)",
            ac=self.ac,
            items=gen.iter,
            name=name,
            test=test,
            value=node.elt,
        )
        return expressions.located(call, node)
