"""Item assignment to a local name, as a statement that rebinds the name, so that a graph can
give it a new array:

    out[i] = x[i] * 2     ->  out = ac.setitem(out, i, x[i] * 2)
    grid[1:, j] = 0       ->  grid = ac.setitem(grid, ac.index[1:, j], 0)
    h[k] += 1             ->  h = ac.setitem(h, k, ac.item_op('+=', h[k], 1))
    x[x < 0] *= -1        ->  x = ac.setitem(x, x < 0, ac.item_op('*=', ac.item(x, x < 0), -1))

On Python values and concrete arrays `ac.setitem` stores in place and returns the same object,
so the rebinding changes nothing. While a graph is traced and a Tensor is involved it returns a
copy with the item set, which is what eager code sees when no other name, view or caller shares
the array (`graph.mutation.assign_item` checks that, and raises a clear error otherwise). Loops
and branches then carry the name like any other variable.

Python evaluates the value before the container and the key; the call evaluates them after.
So only keys that nothing can change are rewritten: names, constants, slices, arithmetic and
comparisons of them. Other item assignments, and those to globals, attributes or several
targets, stay as they are; so does an item with a constant key inside a branch or loop
(`d["n"] += 1`), which the control-flow converter carries as state by its path.
"""

import gast

from autoconv.converters import expressions
from autoconv.pyct import templates

_BODIES = ("body", "orelse", "finalbody")
_STABLE = (
    gast.Name,
    gast.Constant,
    gast.Slice,
    gast.Tuple,
    gast.BinOp,
    gast.UnaryOp,
    gast.Compare,  # a mask: `x[x < 0] = 0`
    gast.expr_context,
    gast.operator,
    gast.unaryop,
    gast.cmpop,
)


def transform(function_node, ctx) -> None:
    names = ctx.local_names - ctx.globals - ctx.nonlocals
    _block(function_node.body, ctx.ac, names, False)


def _block(stmts, ac, names, in_control_flow) -> None:
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, (gast.Assign, gast.AugAssign)):
            stmts[i] = _rebinding(stmt, ac, names, in_control_flow)
        elif not isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            inner_flow = in_control_flow or isinstance(stmt, (gast.If, gast.For, gast.While))
            for field in _BODIES:
                inner = getattr(stmt, field, None)
                if isinstance(inner, list):
                    _block(inner, ac, names, inner_flow)
            for clause in getattr(stmt, "handlers", None) or getattr(stmt, "cases", None) or ():
                _block(clause.body, ac, names, inner_flow)


def _rebinding(stmt, ac, names, in_control_flow):
    targets = [stmt.target] if isinstance(stmt, gast.AugAssign) else stmt.targets
    if len(targets) != 1:
        return stmt
    (target,) = targets
    if not (
        isinstance(target, gast.Subscript)
        and isinstance(target.value, gast.Name)
        and target.value.id in names
        and all(isinstance(n, _STABLE) for n in gast.walk(target.slice))
        and not expressions.binds_or_suspends(stmt.value)
    ):
        return stmt
    key = target.slice
    if in_control_flow and isinstance(key, gast.Constant):
        # `d["n"] = v` in a branch or loop: the item itself is state, by its path (see
        # control_flow), which carries it in a dict or a list.
        return stmt
    name = target.value.id
    value = stmt.value
    if isinstance(stmt, gast.AugAssign):
        # `name[key] op= value`: the item is read, then the value (the key twice, harmlessly:
        # it is made of names and constants).
        item = gast.Subscript(value=_load(name), slice=_copy(key), ctx=gast.Load())
        if any(isinstance(n, gast.Compare) for n in gast.walk(key)):
            # A mask (`x[x < 0] *= -1`): JAX cannot read the items a traced mask selects, so
            # the runtime reads them (`ac.item`), as a stand-in for the update under JAX.
            item = templates.expr("ac.item(name, key)", ac=ac, name=_load(name), key=_copy(key))
        op = _OP_TEXT[type(stmt.op)]
        value = templates.expr(f"ac.item_op({op!r}, item, value)", ac=ac, item=item, value=value)
    if any(isinstance(n, gast.Slice) for n in gast.walk(key)):
        key = templates.expr("ac.index[key]", ac=ac, key=key)
    call = templates.expr("ac.setitem(name, key, value)", ac=ac, key=key, value=value)
    call.args[0] = _load(name)
    out = gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)
    return expressions.located(gast.Assign(targets=[out], value=call, type_comment=None), stmt)


_OP_TEXT = {
    gast.Add: "+=",
    gast.Sub: "-=",
    gast.Mult: "*=",
    gast.Div: "/=",
    gast.FloorDiv: "//=",
    gast.Mod: "%=",
    gast.Pow: "**=",
    gast.MatMult: "@=",
    gast.BitAnd: "&=",
    gast.BitOr: "|=",
    gast.BitXor: "^=",
    gast.LShift: "<<=",
    gast.RShift: ">>=",
}


def _load(name):
    return gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)


def _copy(node):
    return templates.expr("key", key=node)
