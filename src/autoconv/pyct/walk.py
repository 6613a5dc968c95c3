"""Faster `ast.walk` and `ast.iter_child_nodes`: no per-node generators, and only the fields
that can hold nodes worth visiting.

Conversion walks every function several times; `ast.walk` (breadth-first, through
`iter_child_nodes` and `iter_fields` generators) was the largest single cost. Contexts (`Load`,
`Store`, `Del`) and operators (`Add`, `And`, `Eq`...) are not visited: they carry no names and
no locations, and every `Name` has one, so skipping them saves a quarter of the visits. Analyses
read them through their parent (`node.ctx`).
"""

from ast import AST

# Fields that only ever hold strings, numbers or None, in any node class.
_LEAVES = frozenset(
    {"id", "attr", "arg", "asname", "module", "level", "is_async", "type_comment", "kind"}
    | {"conversion", "simple", "kwd_attrs", "rest", "tag"}
)
# Fields that hold nodes in some classes and strings in others (gast's `ExceptHandler.name` is a
# `Name`; `FunctionDef.name` is a string).
_LEAVES_IN = {"names": ("Global", "Nonlocal"), "value": ("Constant",)}
_CONTEXTS_AND_OPERATORS = frozenset({"ctx", "op", "ops"})

_fields_by_class: dict = {}


def child_fields(kind) -> tuple:
    """The fields of node class `kind` that may hold child nodes (see the module docstring)."""
    fields = _fields_by_class.get(kind)
    if fields is None:
        fields = tuple(
            f
            for f in kind._fields
            if f not in _CONTEXTS_AND_OPERATORS and not is_leaf(kind.__name__, f)
        )
        _fields_by_class[kind] = fields
    return fields


def is_leaf(class_name, field) -> bool:
    """Whether field `field` of node class `class_name` holds only strings, numbers or None."""
    if field in _LEAVES:
        return True
    if field == "name":
        return class_name != "ExceptHandler"
    return class_name in _LEAVES_IN.get(field, ())


def walk(node):
    """Yields `node` and every node below it, depth-first in source order."""
    stack = [node]
    pop, push = stack.pop, stack.append
    fields_of = _fields_by_class.get
    while stack:
        current = pop()
        yield current
        fields = fields_of(type(current))
        if fields is None:
            fields = child_fields(type(current))
        for field in reversed(fields):
            value = getattr(current, field, None)
            if type(value) is list:
                for item in reversed(value):
                    if isinstance(item, AST):
                        push(item)
            elif isinstance(value, AST):
                push(value)


def children(node) -> list:
    """`list(ast.iter_child_nodes(node))` in source order, less contexts and operators."""
    out = []
    for field in child_fields(type(node)):
        value = getattr(node, field, None)
        if type(value) is list:
            out.extend(v for v in value if isinstance(v, AST))
        elif isinstance(value, AST):
            out.append(value)
    return out
