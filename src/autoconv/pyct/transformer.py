"""A faster `ast.NodeTransformer` for the expression-level converters.

`generic_visit` reads `_fields` directly instead of going through the `iter_fields` generator;
`visit` caches the method for each node type. Same protocol otherwise: a `visit_<Type>` method
returns the replacement node.
"""

from ast import AST

from autoconv.pyct import anno
from autoconv.pyct.walk import child_fields


class Transformer:
    def __init__(self):
        self._methods = {}

    def visit(self, node):
        kind = type(node)
        method = self._methods.get(kind)
        if method is None:
            method = getattr(self, "visit_" + kind.__name__, self.generic_visit)
            self._methods[kind] = method
        return method(node)

    def generic_visit(self, node):
        for field in child_fields(type(node)):
            value = getattr(node, field, None)
            if type(value) is list:
                for i, item in enumerate(value):
                    if isinstance(item, AST):
                        value[i] = self.visit(item)
            elif isinstance(value, AST):
                setattr(node, field, self.visit(value))
        return node

    def visit_Lambda(self, node):
        if anno.get(node, "as_written"):
            return node  # the user's own lambda, converted when it is called
        return self.generic_visit(node)
