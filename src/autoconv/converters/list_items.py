"""Reading an item of a list the function appends to, through the runtime, so that an item a
staged loop or branch appended (known only when the graph runs) can be read:

    losses[-1]   ->  ac.list_item(losses, -1)

Only local names the function appends to (`name.append(...)`) are rewritten, and only reads
whose key is a constant, a name or a negated constant (slices stay as they are). Outside a
graph trace `ac.list_item(name, key)` is `name[key]`.
"""

import gast

from autoconv.converters import expressions
from autoconv.pyct import templates
from autoconv.pyct.transformer import Transformer
from autoconv.pyct.walk import walk


def transform(function_node, ctx) -> None:
    names = _appended(function_node) & (ctx.local_names - ctx.globals - ctx.nonlocals)
    if names:
        expressions.rewrite(function_node, _Items(ctx.ac, names))


def _appended(function_node) -> set:
    found = set()
    for node in walk(function_node):
        if (
            isinstance(node, gast.Call)
            and isinstance(node.func, gast.Attribute)
            and node.func.attr == "append"
            and isinstance(node.func.value, gast.Name)
        ):
            found.add(node.func.value.id)
    return found


def _simple_key(key) -> bool:
    if isinstance(key, gast.UnaryOp) and isinstance(key.op, gast.USub):
        key = key.operand
    return isinstance(key, (gast.Constant, gast.Name))


class _Items(Transformer):
    def __init__(self, ac, names):
        super().__init__()
        self.ac, self.names = ac, names

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if (
            isinstance(node.ctx, gast.Load)
            and isinstance(node.value, gast.Name)
            and node.value.id in self.names
            and _simple_key(node.slice)
        ):
            call = templates.expr("ac.list_item(name, key)", ac=self.ac, key=node.slice)
            call.args[0] = node.value
            return expressions.located(call, node)
        return node
