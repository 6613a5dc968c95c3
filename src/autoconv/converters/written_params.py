"""Arrays a called function writes into in place, seen by its caller.

Eager NumPy's `sift(a, 0, n)` changes the caller's array when `sift` writes `a[i] = v`. A graph
gives `sift`'s name `a` a new array instead (item_assignment), so the caller must get it:

    def sift(a, lo, hi):              def sift(a, lo, hi):
        a[lo], a[hi] = a[hi], a[lo]  ->    with ac.params_written(('a',)):
                                               a = ac.setitems(a, (lo, hi), (a[hi], a[lo]))

    sift(a, 0, n)                     ->  sift(a, 0, n)
                                          a = ac.written_back(a)

`params_written` notes, when the function ends, each parameter that now holds another array
than it was given (which it can only get through in-place writes: a parameter the function
also assigns some other way is not listed); `written_back(a)` gives the caller's name that
array. While a graph is traced, anything else that held the old array then reads an array
changed in place, a clear error (trace.tensors.mutation). Outside traces both are no-ops, and
eager code runs as written. The caller's names rebound are its NumPy arrays (item_assignment's
`arrays`) and the parameters it writes in place itself, passed to a call in a statement or in
the value of an assignment.
"""

import gast

from autoconv.converters import expressions
from autoconv.pyct import anno, templates

WRITTEN = "written_params"  # the names `params_written` lists, on the function node

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda)
# Calls that cannot write into an argument the way a user's function does.
_PLAIN_CALLS = frozenset(
    ("print", "len", "range", "enumerate", "zip", "isinstance", "int", "float", "str", "repr")
)


def own_nodes(stmts):
    """The nodes of `stmts`, not those of functions, classes or lambdas they define."""
    todo = list(stmts)
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, _SCOPES):
            continue
        todo.extend(gast.iter_child_nodes(node))


def find(function_node, names) -> set:
    """The parameters the function writes items of in place (`a[i] = v`, `a[i] += v`, a swap)
    and binds no other way: at its end each holds the array its caller gave, changed. (`a += v`
    on a parameter is not followed: `n -= 1` is mostly a number, and its caller reading the
    array it passed is a clear error.)"""
    if not isinstance(function_node, gast.FunctionDef):
        return set()
    args = function_node.args
    params = {a.id for a in args.posonlyargs + args.args + args.kwonlyargs}
    written, other = set(), set()
    for node in own_nodes(function_node.body):
        for t in _assigned(node):
            if isinstance(t, gast.Subscript) and isinstance(t.value, gast.Name):
                written.add(t.value.id)
            elif isinstance(node, gast.AugAssign) and isinstance(t, gast.Name):
                pass  # `n -= 1`: mostly a number (an array's `a += v`: not followed)
            else:
                other.update(_bound(t))  # `a = ...`, `(a, b), c = ...`
        if isinstance(node, gast.AnnAssign):
            other.update(_bound(node.target))
        elif isinstance(node, gast.ExceptHandler) and node.name is not None:
            other.update(_bound(node.name))
        if isinstance(node, (gast.For, gast.With, gast.NamedExpr, gast.comprehension)):
            for target in _stored(node):
                other.add(target)
        if isinstance(node, (gast.Global, gast.Nonlocal)):
            other.update(node.names)
        if isinstance(node, gast.Delete):
            other.update(n.id for n in node.targets if isinstance(n, gast.Name))
    return (written - other) & params & names


def _assigned(node) -> list:
    """The targets an assignment or augmented assignment stores into, a tuple's or list's
    items one by one (`a[i], a[j] = ...`); [] for any other node."""
    if not isinstance(node, (gast.Assign, gast.AugAssign)):
        return []
    targets = [node.target] if isinstance(node, gast.AugAssign) else node.targets
    items = []
    for target in targets:
        items.extend(target.elts if isinstance(target, (gast.Tuple, gast.List)) else [target])
    return items


def mark_views(function_node, ac, names) -> None:
    """`row = out[i]` where the function later writes items of `row` (`row[j] = v`) becomes
    `row = ac.view_of(out, i, "...")`: under a JAX trace, where `row` cannot be a view that
    shares `out`'s memory, the write is then a clear error instead of a silent difference."""
    written = set()
    for node in own_nodes(function_node.body):
        for t in _assigned(node):
            if isinstance(t, gast.Subscript) and isinstance(t.value, gast.Name):
                written.add(t.value.id)
    for node in own_nodes(function_node.body):
        if not (
            isinstance(node, gast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], gast.Name)
            and node.targets[0].id in written & names
            and isinstance(node.value, gast.Subscript)
            and isinstance(node.value.value, gast.Name)
            and node.value.value.id != node.targets[0].id
        ):
            continue
        name, base, key = node.targets[0].id, node.value.value.id, node.value.slice
        if any(isinstance(n, gast.Slice) for n in gast.walk(key)):
            key = templates.expr("ac.index[key]", ac=ac, key=key)
        text = gast.Constant(value=f"{name} = {base}[...]", kind=None)
        call = templates.expr("ac.view_of(base, key, text)", ac=ac, base=_load(base), key=key)
        call.args[2] = text
        node.value = expressions.located(call, node)


def own_arrays(function_node, names, makes_array) -> set:
    """The local names the function itself binds only to new arrays (`a = x.copy()`,
    `a = np.zeros(n)`: `makes_array` of the value), whatever the functions it defines bind."""
    arrays, other = set(), set()
    for node in own_nodes(function_node.body):
        if isinstance(node, gast.Assign):
            for target in node.targets:
                plain = isinstance(target, gast.Name) and makes_array(node.value)
                (arrays if plain else other).update(_bound(target))
        elif isinstance(node, (gast.For, gast.NamedExpr, gast.AnnAssign)):
            other.update(_bound(node.target))
        elif isinstance(node, gast.With):
            for item in node.items:
                if item.optional_vars is not None:
                    other.update(_bound(item.optional_vars))
        elif isinstance(node, (gast.Global, gast.Nonlocal)):
            other.update(node.names)
    args = function_node.args
    other.update(a.id for a in args.posonlyargs + args.args + args.kwonlyargs)
    return (arrays - other) & names


def _bound(target):
    """The names an assignment target binds (not the containers of items it stores)."""
    if isinstance(target, gast.Name):
        return [target.id]
    if isinstance(target, (gast.Tuple, gast.List)):
        return [n for t in target.elts for n in _bound(t)]
    if isinstance(target, gast.Starred):
        return _bound(target.value)
    return []


def _stored(node):
    if isinstance(node, gast.For):
        targets = [node.target]
    elif isinstance(node, gast.With):
        targets = [i.optional_vars for i in node.items if i.optional_vars is not None]
    else:
        targets = [node.target]
    for target in targets:
        for n in gast.walk(target):
            if isinstance(n, gast.Name):
                yield n.id


def rebind_after_calls(function_node, ac, names) -> None:
    """After each statement that is a call of a user's function or method passing one of
    `names` (`sift(a, 0, n)`, `p = partition(a, lo, hi)`, a call anywhere in the value),
    `a = ac.written_back(a)`."""
    if names:
        _block(function_node.body, ac, names)


def _block(stmts, ac, names) -> None:
    out = []
    for stmt in stmts:
        out.append(stmt)
        if isinstance(stmt, _SCOPES):
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], gast.stmt):
                _block(inner, ac, names)
        for clause in getattr(stmt, "handlers", None) or getattr(stmt, "cases", None) or ():
            _block(clause.body, ac, names)
        if isinstance(stmt, (gast.Expr, gast.Assign)):
            # `sift(a, 0, n)`, `p = partition(a, lo, hi)`, `k = part(a) if len(a) else -1`
            targets = stmt.targets if isinstance(stmt, gast.Assign) else []
            bound = {n for t in targets for n in _bound(t)}
            passed = [
                name
                for call in _calls(stmt.value)
                for name in _passed(call, names, ac)
                if name not in bound
            ]
            out.extend(_rebind(name, ac, stmt) for name in dict.fromkeys(passed))
    stmts[:] = out


def _calls(value):
    """The calls in an expression, not those in the lambdas it holds."""
    todo = [value]
    while todo:
        node = todo.pop()
        if isinstance(node, gast.Lambda):
            continue
        if isinstance(node, gast.Call):
            yield node
        todo.extend(gast.iter_child_nodes(node))


def _passed(call, names, ac) -> list:
    func = call.func
    if isinstance(func, gast.Name):
        if func.id in _PLAIN_CALLS or func.id == ac:
            return []
    elif isinstance(func, gast.Attribute):
        owner = func.value
        while isinstance(owner, gast.Attribute):
            owner = owner.value
        if not isinstance(owner, gast.Name) or owner.id in ("np", "numpy", "jnp", ac):
            return []
        if func.attr in ("append", "extend", "insert", "add", "update", "pop", "remove"):
            return []
    else:
        return []
    values = list(call.args) + [k.value for k in call.keywords]
    found = [v.id for v in values if isinstance(v, gast.Name) and v.id in names]
    return list(dict.fromkeys(found))


def _rebind(name, ac, origin):
    value = templates.expr("ac.written_back(name)", ac=ac, name=_load(name))
    out = gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)
    return expressions.located(gast.Assign(targets=[out], value=value, type_comment=None), origin)


def wrap(function_node, ac, docstring: int) -> None:
    """The function's body (after its docstring) in `with ac.params_written(names):`."""
    written = anno.get(function_node, WRITTEN, None)
    if not written:
        return
    items = gast.Tuple(elts=[gast.Constant(value=n, kind=None) for n in written], ctx=gast.Load())
    call = templates.expr("ac.params_written(names)", ac=ac, names=items)
    body = function_node.body
    node = gast.With(items=[gast.withitem(context_expr=call, optional_vars=None)], body=[])
    node.body = body[docstring:]
    function_node.body = body[:docstring] + [expressions.located(node, function_node)]


def _load(name):
    return gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)
