"""Fast translation between the standard library's `ast` nodes and `gast` nodes.

gast's own translators visit every node through a generic `NodeTransformer` (a method lookup, a
dict comprehension and a `hasattr` per field); conversion spent about a quarter of its time
there. These copy each node's instance dictionary instead, in one recursive function per
direction. The trees differ in a few places only, handled by type: a parameter is an `ast.arg` or
a `gast.Name` in the `Param` context, an `except` clause names its variable with a `str` or a
`gast.Name`, and a field one tree has and the other lacks (a Name's `annotation` and
`type_comment`, `type_params` before Python 3.12) is added with its empty value or dropped.
The results are the trees gast's `ast_to_gast` and `gast_to_ast` build (tests compare them).
"""

import ast

import gast

_AST = ast.AST


def _plans(source, target):
    """For each node class of `source`: (the `target` class, the keys to copy, the fields to
    add with their empty values)."""
    plans = {}
    for name in dir(source):
        src = getattr(source, name)
        dst = getattr(target, name, None)
        if not (isinstance(src, type) and issubclass(src, _AST) and isinstance(dst, type)):
            continue
        keep = frozenset(dst._fields) | frozenset(getattr(dst, "_attributes", ()))
        missing = tuple(f for f in dst._fields if f not in src._fields)
        plans[src] = (dst, keep, missing)
    return plans


_TO_GAST = _plans(ast, gast)
_TO_GAST[ast.arg] = (gast.Name, frozenset(ast.arg._fields) | frozenset(ast.arg._attributes), ())
_TO_AST = _plans(gast, ast)
_CONTEXTS_TO_GAST = {ast.Load: gast.Load(), ast.Store: gast.Store(), ast.Del: gast.Del()}
_CONTEXTS_TO_AST = {gast.Load: ast.Load(), gast.Store: ast.Store(), gast.Del: ast.Del()}
_LIST_FIELDS = frozenset({"type_params"})
_ARG_KEYS = (frozenset(ast.arg._fields) | frozenset(ast.arg._attributes)) - {"arg"}


def to_gast(node):
    """The gast form of an `ast` node, as `gast.ast_to_gast` makes it (contexts are shared)."""
    kind = type(node)
    context = _CONTEXTS_TO_GAST.get(kind)
    if context is not None:
        return context
    dst, keep, missing = _TO_GAST[kind]
    values = {}
    for key, value in node.__dict__.items():
        if key not in keep:
            continue
        if type(value) is list:
            value = [to_gast(v) if isinstance(v, _AST) else v for v in value]
        elif isinstance(value, _AST):
            value = to_gast(value)
        values[key] = value
    if kind is ast.arg:
        values["id"] = values.pop("arg")
        values["ctx"] = gast.Param()
        values.setdefault("type_comment", None)
    elif kind is ast.ExceptHandler and type(values.get("name")) is str:
        values["name"] = gast.Name(values["name"], gast.Store(), None, None)
    for field in missing:
        values[field] = [] if field in _LIST_FIELDS else None
    new = dst.__new__(dst)
    new.__dict__ = values
    return new


def to_ast(node):
    """The `ast` form of a gast node, as `gast.gast_to_ast` makes it (contexts are shared;
    analysis annotations are left behind)."""
    kind = type(node)
    context = _CONTEXTS_TO_AST.get(kind)
    if context is not None:
        return context
    dst, keep, missing = _TO_AST[kind]
    if kind is gast.Name and type(node.ctx) is gast.Param:
        dst, keep = ast.arg, _ARG_KEYS
    values = {}
    for key, value in node.__dict__.items():
        if key not in keep:
            continue
        if type(value) is list:
            value = [to_ast(v) if isinstance(v, _AST) else v for v in value]
        elif isinstance(value, _AST):
            value = to_ast(value)
        values[key] = value
    if dst is ast.arg:
        values["arg"] = node.id
    elif kind is gast.ExceptHandler and isinstance(values.get("name"), ast.Name):
        values["name"] = values["name"].id
    for field in missing:
        values[field] = [] if field in _LIST_FIELDS else None
    new = dst.__new__(dst)
    new.__dict__ = values
    return new
