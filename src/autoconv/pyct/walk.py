"""A faster `ast.walk` and `ast.iter_child_nodes`: no per-node generators.

Conversion walks every function several times; `ast.walk` (breadth-first, through
`iter_child_nodes` and `iter_fields` generators) was the largest single cost.
"""

from ast import AST


def walk(node):
    """Yields `node` and every node below it, depth-first in source order."""
    stack = [node]
    pop, push = stack.pop, stack.append
    while stack:
        current = pop()
        yield current
        fields = current._fields
        for i in range(len(fields) - 1, -1, -1):
            value = getattr(current, fields[i], None)
            if type(value) is list:
                for item in reversed(value):
                    if isinstance(item, AST):
                        push(item)
            elif isinstance(value, AST):
                push(value)


def children(node) -> list:
    """`list(ast.iter_child_nodes(node))`, in source order."""
    out = []
    for field in node._fields:
        value = getattr(node, field, None)
        if type(value) is list:
            out.extend(v for v in value if isinstance(v, AST))
        elif isinstance(value, AST):
            out.append(value)
    return out
