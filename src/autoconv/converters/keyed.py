"""`in` and item reads of a name the function binds only to sets and dicts, to runtime calls
that see keys known only when the graph runs (`runtime.keyed`):

    v in seen            ->  ac.in_(v, seen)           (`seen = set()`, `seen = {1, 2}`)
    counts[v]            ->  ac.keyed_item(counts, v)  (`counts = {}`, `counts = dict()`)
    [k for k in counts]  ->  [k for k in ac.keyed_iterated(counts)]   (also `list(counts)`)

A string key written as a constant where the function assigns that item as written (`cfg["opt"]
= v` in a loop, carried by its path), and a read inside an assignment's target, stay as written.

`counts[v] = x` is already `counts = ac.setitem(counts, v, x)` (converters/item_assignment.py),
which keeps the name bound only to dicts. An item of an attribute, which that leaves as written,
with a key that is a name (not a constant: `self.counts[key] = n`) is stored through the runtime,
which stages it for a dict given a key known only when the graph runs:

    self.counts[key] = n     ->  ac.keyed_store(self.counts, key, n)

(the value first, as Python evaluates it, where the target or key could change on the way).
"""

import copy

import gast

from autoconv.converters import expressions
from autoconv.converters.logical_expressions import _bound_only_to
from autoconv.pyct import templates
from autoconv.pyct.transformer import Transformer
from autoconv.pyct.walk import walk

_MAKES = ("set", "dict", "frozenset")
# Builtins that iterate an argument Python's way (a `for` statement, `len`, `sorted`, `min`
# and `max` see a set or dict holding run-time keys through the runtime already).
_ITERATES = frozenset(
    "list tuple set frozenset dict enumerate zip iter any all sum map filter reversed".split()
)


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
        written = _written_paths(function_node)
        keyed = _Keyed(ctx, names, expressions.target_reads(function_node), written)
        expressions.rewrite(function_node, keyed)
    if not isinstance(function_node, gast.Lambda):
        function_node.body = _statements(function_node.body, ctx.ac, ctx.namer)


def _attribute_path(node) -> bool:
    """`self.counts`, `a.b.c`: attributes of a name, which reading twice reads the same."""
    while isinstance(node, gast.Attribute):
        node = node.value
    return isinstance(node, gast.Name)


def _statements(body: list, ac: str, namer) -> list:
    """`body` with each `obj.attr[key] = value` whose key is a name as `ac.keyed_store(...)`,
    in nested blocks too (not in nested functions and classes, converted on their own)."""
    out = []
    for stmt in body:
        if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            out.append(stmt)
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], gast.stmt):
                setattr(stmt, field, _statements(inner, ac, namer))
        for handler in getattr(stmt, "handlers", None) or ():
            handler.body = _statements(handler.body, ac, namer)
        out.extend(_attribute_item(stmt, ac, namer))
    return out


def _attribute_item(node, ac: str, namer) -> list:
    if not isinstance(node, gast.Assign) or len(node.targets) != 1:
        return [node]
    target = node.targets[0]
    if not (
        isinstance(target, gast.Subscript)
        and isinstance(target.value, gast.Attribute)
        and _attribute_path(target.value)
        and isinstance(target.slice, gast.Name)
    ):
        return [node]
    out = []
    value = node.value
    if not isinstance(value, (gast.Name, gast.Constant)):
        # Python evaluates the value first, then the target and the key.
        name = namer.new("value")
        bind = gast.Assign(
            targets=[gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)],
            value=value,
            type_comment=None,
        )
        out.append(expressions.located(bind, node))
        value = gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)
    call = templates.expr("ac.keyed_store(t, k, v)", ac=ac)
    call.args = [_loaded(target.value), _loaded(target.slice), value]
    out.append(expressions.located(gast.Expr(value=call), node))
    return out


def _loaded(node):
    """A copy of the target's expression `node`, read."""
    node = copy.deepcopy(node)
    for inner in walk(node):
        if hasattr(inner, "ctx"):
            inner.ctx = gast.Load()
    return node


def _written_paths(function_node) -> set:
    """`(name, key)` of each `name["key"]` the function assigns as written (item assignment
    leaves it so in a branch or loop): the control-flow converter carries it as a variable by
    its path, and reads of it stay as written for that."""
    found = set()
    for node in walk(function_node):
        if (
            isinstance(node, gast.Subscript)
            and not isinstance(node.ctx, gast.Load)
            and isinstance(node.value, gast.Name)
            and _text_constant(node.slice)
        ):
            found.add((node.value.id, node.slice.value))
    return found


def _text_constant(node) -> bool:
    return isinstance(node, gast.Constant) and not isinstance(node.value, (int, float))


class _Keyed(Transformer):
    def __init__(self, ctx, names, in_targets, written):
        super().__init__()
        self.ac = ctx.ac
        self.names = names
        self.in_targets = in_targets
        self.written = written

    def _ours(self, node) -> bool:
        return isinstance(node, gast.Name) and node.id in self.names

    def visit_Compare(self, node):
        self.generic_visit(node)
        return expressions.membership(node, self._ours, self.ac, "ac.in_(x, c)")

    def _iterated(self, node):
        call = templates.expr("ac.keyed_iterated(c)", ac=self.ac)
        call.args[0] = node
        return expressions.located(call, node)

    def visit_comprehension(self, node):
        self.generic_visit(node)
        if self._ours(node.iter):  # `[k for k in d]`
            node.iter = self._iterated(node.iter)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, gast.Name) and node.func.id in _ITERATES:  # `list(d)`
            node.args = [self._iterated(a) if self._ours(a) else a for a in node.args]
        return node

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if (
            isinstance(node.ctx, gast.Load)
            and self._ours(node.value)
            and not isinstance(node.slice, gast.Slice)
            # `cfg["opt"]` assigned as written: a name's path, never staged
            and not (
                _text_constant(node.slice) and (node.value.id, node.slice.value) in self.written
            )
            and id(node) not in self.in_targets
        ):
            call = templates.expr("ac.keyed_item(name, key)", ac=self.ac, key=node.slice)
            call.args[0] = node.value
            return expressions.located(call, node)
        return node
