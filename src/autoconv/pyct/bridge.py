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

from autoconv.pyct.walk import is_leaf

_AST = ast.AST


_ANNOTATIONS = "_autoconv_anno"  # see `anno`: analysis results stay with the tree they describe
_LIST_FIELDS = frozenset({"type_params"})


def _plans(source, target):
    """For each node class of `source`: (the `target` class, the fields that may hold nodes,
    the keys to drop, the fields to add with their empty values)."""
    plans = {}
    for name in dir(source):
        src = getattr(source, name)
        dst = getattr(target, name, None)
        if not (isinstance(src, type) and issubclass(src, _AST) and isinstance(dst, type)):
            continue
        nodes = tuple(f for f in src._fields if not is_leaf(name, f))  # contexts included
        drop = tuple(f for f in src._fields if f not in dst._fields) + (_ANNOTATIONS,)
        missing = tuple(f for f in dst._fields if f not in src._fields)
        plans[src] = (dst, nodes, drop, missing)
    return plans


_TO_GAST = _plans(ast, gast)
_TO_GAST[ast.arg] = (gast.Name, ("annotation",), (), ())
_TO_AST = _plans(gast, ast)
_PARAMETER = (ast.arg, ("annotation",), ("ctx", _ANNOTATIONS), ())
# Contexts are shared, as `ast.parse` shares them.
for _source, _target in ((ast, gast), (gast, ast)):
    _plans_of = _TO_GAST if _source is ast else _TO_AST
    for _name in ("Load", "Store", "Del"):
        _plans_of[getattr(_source, _name)] = (getattr(_target, _name)(), None, None, None)


def to_gast(node):
    """The gast form of an `ast` node, as `gast.ast_to_gast` makes it (contexts are shared)."""
    kind = type(node)
    dst, nodes, drop, missing = _TO_GAST[kind]
    if nodes is None:
        return dst  # a shared context
    values = node.__dict__.copy()
    for key in drop:
        values.pop(key, None)
    for field in nodes:  # inlined: this runs once per node of every converted function
        value = values.get(field)
        if type(value) is list:
            values[field] = [to_gast(v) if isinstance(v, _AST) else v for v in value]
        elif isinstance(value, _AST):
            values[field] = to_gast(value)
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
    dst, nodes, drop, missing = _TO_AST[kind]
    if nodes is None:
        return dst  # a shared context
    if kind is gast.Name and type(node.ctx) is gast.Param:
        dst, nodes, drop, missing = _PARAMETER
    values = node.__dict__.copy()
    for key in drop:
        values.pop(key, None)
    for field in nodes:  # inlined: this runs once per node of every converted function
        value = values.get(field)
        if type(value) is list:
            values[field] = [to_ast(v) if isinstance(v, _AST) else v for v in value]
        elif isinstance(value, _AST):
            values[field] = to_ast(value)
    if dst is ast.arg:
        values["arg"] = values.pop("id")
    elif kind is gast.ExceptHandler and isinstance(values.get("name"), ast.Name):
        values["name"] = values["name"].id
    for field in missing:
        values[field] = [] if field in _LIST_FIELDS else None
    new = dst.__new__(dst)
    new.__dict__ = values
    return new
