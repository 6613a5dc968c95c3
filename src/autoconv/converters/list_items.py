"""Reading a list the function appends to through the runtime, so that the items a staged loop
or branch appended (known only when the graph runs) are read as they are then:

    losses[-1]        ->  ac.list_item(losses, -1)
    losses[-3:]       ->  ac.list_item(losses, slice(-3, None, None))
    v in seen         ->  ac.list_contains(seen, v)
    stack.pop()       ->  ac.list_method(stack, 'pop')

Only local names the function appends to (`name.append(...)`) are rewritten. Outside a graph
trace each is the plain Python operation (`name[key]`, `v in name`, `name.pop()`).
"""

import gast

from autoconv.converters import expressions
from autoconv.pyct import templates
from autoconv.pyct.transformer import Transformer
from autoconv.pyct.walk import walk

# The list methods other than `append` that read or change a list in place.
METHODS = frozenset(("pop", "insert", "remove", "sort", "reverse", "index", "count"))


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


def _key(key):
    """The subscript's key as an expression: a slice becomes a `slice(...)` call."""
    if not isinstance(key, gast.Slice):
        return key
    none = gast.Constant(value=None, kind=None)
    parts = [p if p is not None else none for p in (key.lower, key.upper, key.step)]
    call = templates.expr("slice(a, b, c)", a=parts[0], b=parts[1], c=parts[2])
    return expressions.located(call, key)


class _Items(Transformer):
    def __init__(self, ac, names):
        super().__init__()
        self.ac, self.names = ac, names

    def _ours(self, node) -> bool:
        return isinstance(node, gast.Name) and node.id in self.names

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if isinstance(node.ctx, gast.Load) and self._ours(node.value):
            if isinstance(node.slice, gast.Tuple):
                return node  # a list takes no tuple key: Python's own TypeError
            call = templates.expr("ac.list_item(name, key)", ac=self.ac, key=_key(node.slice))
            call.args[0] = node.value
            return expressions.located(call, node)
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        if (
            len(node.ops) == 1
            and isinstance(node.ops[0], (gast.In, gast.NotIn))
            and self._ours(node.comparators[0])
        ):
            call = templates.expr("ac.list_contains(name, value)", ac=self.ac, value=node.left)
            call.args[0] = node.comparators[0]
            if isinstance(node.ops[0], gast.NotIn):
                call = templates.expr("ac.not_(value)", ac=self.ac, value=call)
            return expressions.located(call, node)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if (
            isinstance(func, gast.Attribute)
            and func.attr in METHODS
            and self._ours(func.value)
            and not any(k.arg is None for k in node.keywords)
            and not any(isinstance(a, gast.Starred) for a in node.args)
        ):
            method = gast.Constant(value=func.attr, kind=None)
            call = templates.expr("ac.list_method(name, method)", ac=self.ac, method=method)
            call.args[0] = func.value
            call.args.extend(node.args)
            call.keywords = node.keywords
            return expressions.located(call, node)
        return node
