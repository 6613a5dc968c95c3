"""Calls to user code through `ac.converted`, so callees are converted when first called.

    helper(x)      ->  ac.converted(helper)(x)
    np.sum(x)      ->  np.sum(x)                  (known at conversion time to be NumPy)

`ac.converted(f)` returns the function to call instead of calling it, so no extra frame stays
on the stack during the call. A call whose target is known at conversion time (a global or
built-in name, or an attribute of a module) and is a built-in, a class, library code or marked
`do_not_convert` is left as it is: it would be called unconverted anyway, and the code reads
better. Names the function binds itself, closure variables and everything else go through the
runtime, which decides on each call.
"""

import gast

from autoconv.converters import expressions
from autoconv.pyct import templates


def transform(function_node, ctx) -> None:
    if not ctx.recursive:
        return
    shadowed = {
        n.id
        for n in gast.walk(function_node)
        if isinstance(n, gast.Name) and not isinstance(n.ctx, gast.Load)
    }
    expressions.rewrite(function_node, _Calls(ctx, shadowed))


class _Calls(gast.NodeTransformer):
    def __init__(self, ctx, shadowed):
        self.ctx = ctx
        self.shadowed = shadowed

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) and (
            func.value.id == self.ctx.ac
        ):
            return node  # a runtime operator another converter emitted
        if self.ctx.resolver.is_passthrough(func, self.shadowed):
            return node
        node.func = expressions.located(
            templates.expr("ac.converted(f)", ac=self.ctx.ac, f=node.func), node.func
        )
        return node
