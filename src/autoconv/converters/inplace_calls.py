"""NumPy calls that change an array in place, on a local name, as statements that rebind the
name (as item assignment does), so that a graph can give the name the new array:

    np.fill_diagonal(d, 0.0)  ->  d = ac.inplace_call(np, 'fill_diagonal', d, 0.0)
    np.copyto(out, x)         ->  out = ac.inplace_call(np, 'copyto', out, x)
    rng.shuffle(deck)         ->  deck = ac.inplace_call(rng, 'shuffle', deck)
    np.add.at(h, idx, 1)      ->  h = ac.inplace_call(np.add, 'at', h, idx, 1)
    a.sort()                  ->  a = ac.inplace_method(a, 'sort')
    a.fill(0)                 ->  a = ac.inplace_method(a, 'fill', 0)

Run as written the call changes the array and the name keeps it (runtime.inplace); while a
graph is traced the tracer gives the array the call leaves (trace.tensors.inplace). Only
statements on a name that is only ever a NumPy array (`item_assignment`'s rule: bound to
`np....(...)` or an array method's result) are rewritten, and `np.fill_diagonal`,
`np.copyto`, `np.<ufunc>.at` and `.fill()` on any local name. The owner of the call is
evaluated once, before the arguments, as written.
"""

import gast

from autoconv.converters import expressions
from autoconv.converters.item_assignment import _NUMPY, _numpy_arrays
from autoconv.pyct import templates

_BODIES = ("body", "orelse", "finalbody")
FUNCTIONS = frozenset(("fill_diagonal", "copyto", "shuffle", "at"))
METHODS = frozenset(("sort", "fill"))


def transform(function_node, ctx) -> None:
    names = ctx.local_names - ctx.globals - ctx.nonlocals
    arrays = _arrays(function_node, names, ctx.ac)
    _block(function_node.body, ctx.ac, names, arrays)


def _arrays(function_node, names, ac) -> set:
    """The local names only ever bound to a NumPy call or an array method's result (item
    assignment's rule), where the rebindings converters made before (`d = ac.setitem(d, ...)`,
    `d = ac.written_back(d)`) keep what the name holds."""
    return _numpy_arrays(function_node, names, lambda value: _runtime_call(value, ac))


def _runtime_call(value, ac) -> bool:
    func = value.func if isinstance(value, gast.Call) else None
    return (
        isinstance(func, gast.Attribute)
        and isinstance(func.value, gast.Name)
        and func.value.id == ac
    )


def _block(stmts, ac, names, arrays) -> None:
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call):
            new = _rebinding(stmt, ac, names, arrays)
            if new is not None:
                stmts[i] = new
        elif not isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            for field in _BODIES:
                inner = getattr(stmt, field, None)
                if isinstance(inner, list):
                    _block(inner, ac, names, arrays)
            for clause in getattr(stmt, "handlers", None) or getattr(stmt, "cases", None) or ():
                _block(clause.body, ac, names, arrays)


def _root(node):
    while isinstance(node, gast.Attribute):
        node = node.value
    return node.id if isinstance(node, gast.Name) else None


def _rebinding(stmt, ac, names, arrays):
    call = stmt.value
    func = call.func
    if (
        not isinstance(func, gast.Attribute)
        or any(isinstance(a, gast.Starred) for a in call.args)
        or any(k.arg is None for k in call.keywords)
    ):
        return None
    method = gast.Constant(value=func.attr, kind=None)
    owner = func.value
    if (
        func.attr in METHODS
        and isinstance(owner, gast.Name)
        # (a list has a `sort` too, which runs as written: `ac.list_method`)
        and (owner.id in arrays or func.attr == "fill" and owner.id in names)
    ):
        name, rest = owner.id, call.args
        new = templates.expr("ac.inplace_method(target, method)", ac=ac, method=method)
        at = 0
    elif (
        func.attr in FUNCTIONS
        and call.args
        and isinstance(call.args[0], gast.Name)
        and call.args[0].id in names
        and (call.args[0].id in arrays or func.attr != "shuffle" and _root(owner) in _NUMPY)
    ):
        name, rest = call.args[0].id, call.args[1:]
        new = templates.expr("ac.inplace_call(owner, method, target)", ac=ac, method=method)
        new.args[0] = owner
        at = 2
    else:
        return None
    new.args[at] = gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)
    new.args.extend(rest)
    new.keywords = call.keywords
    out = gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)
    return expressions.located(gast.Assign(targets=[out], value=new, type_comment=None), stmt)
