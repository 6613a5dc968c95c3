"""`in` and item reads of a name the function binds only to sets and dicts, to runtime calls
that see keys known only when the graph runs (`runtime.keyed`):

    v in seen            ->  ac.in_(v, seen)           (`seen = set()`, `seen = {1, 2}`)
    counts[v]            ->  ac.keyed_item(counts, v)  (`counts = {}`, `counts = dict()`)

A string key written as a constant, and a read inside an assignment's target, stay as written.

`counts[v] = x` is already `counts = ac.setitem(counts, v, x)` (converters/item_assignment.py),
which keeps the name bound only to dicts.
"""

import gast

from autoconv.converters import expressions
from autoconv.converters.logical_expressions import _bound_only_to
from autoconv.pyct import templates
from autoconv.pyct.transformer import Transformer
from autoconv.pyct.walk import walk

_MAKES = ("set", "dict", "frozenset")


def _makes_keyed(value) -> bool:
    if isinstance(value, (gast.Dict, gast.Set, gast.DictComp, gast.SetComp)):
        return True
    if not isinstance(value, gast.Call):
        return False
    func = value.func
    if isinstance(func, gast.Name):
        return func.id in _MAKES
    # the converter's own `name = ac.setitem(name, key, value)` of `name[key] = value`
    return isinstance(func, gast.Attribute) and func.attr == "setitem"


def transform(function_node, ctx) -> None:
    names = _bound_only_to(function_node, _makes_keyed)
    if names:
        expressions.rewrite(function_node, _Keyed(ctx, names, _in_targets(function_node)))


def _in_targets(function_node) -> set:
    """Ids of the reads inside an assignment's target (`cfg["opt"]` of `cfg["opt"]["lr"] =
    v`): the statement tracks that composite name by its path, so they stay as written."""
    found = set()
    for node in walk(function_node):
        if isinstance(node, (gast.Subscript, gast.Attribute)) and not isinstance(
            node.ctx, gast.Load
        ):
            inner = node.value
            while isinstance(inner, (gast.Subscript, gast.Attribute)):
                found.add(id(inner))
                inner = inner.value
    return found


def _text_constant(node) -> bool:
    return isinstance(node, gast.Constant) and not isinstance(node.value, (int, float))


class _Keyed(Transformer):
    def __init__(self, ctx, names, in_targets):
        super().__init__()
        self.ac = ctx.ac
        self.names = names
        self.in_targets = in_targets

    def _ours(self, node) -> bool:
        return isinstance(node, gast.Name) and node.id in self.names

    def visit_Compare(self, node):
        self.generic_visit(node)
        return expressions.membership(node, self._ours, self.ac, "ac.in_(x, c)")

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if (
            isinstance(node.ctx, gast.Load)
            and self._ours(node.value)
            and not isinstance(node.slice, gast.Slice)
            and not _text_constant(node.slice)  # `cfg["opt"]`: a name's path, never staged
            and id(node) not in self.in_targets
        ):
            call = templates.expr("ac.keyed_item(name, key)", ac=self.ac, key=node.slice)
            call.args[0] = node.value
            return expressions.located(call, node)
        return node
