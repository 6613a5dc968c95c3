"""Helpers shared by the expression-level converters."""

import gast

from autoconv.converters.lowering import copy_location_tree
from autoconv.pyct import templates
from autoconv.pyct.walk import child_fields, walk


def rewrite(function_node, transformer) -> None:
    """Runs `transformer` over the function's own code: its body (or a lambda's expression),
    lambdas inside it included, nested functions and classes not (they are converted on their
    own, or left alone), and never defaults, decorators or annotations."""
    if isinstance(function_node, gast.Lambda):
        function_node.body = transformer.visit(function_node.body)
        return
    function_node.body = [_visit_stmt(transformer, s) for s in function_node.body]


def _visit_stmt(transformer, stmt):
    if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
        return stmt
    for field in child_fields(type(stmt)):
        value = getattr(stmt, field)
        if isinstance(value, list):
            new = []
            for item in value:
                if isinstance(item, gast.stmt):
                    new.append(_visit_stmt(transformer, item))
                elif isinstance(item, (gast.ExceptHandler, gast.match_case)):
                    new.append(_visit_clause(transformer, item))
                elif isinstance(item, gast.AST):
                    new.append(transformer.visit(item))
                else:
                    new.append(item)
            setattr(stmt, field, new)
        elif isinstance(value, gast.AST):
            setattr(stmt, field, transformer.visit(value))
    return stmt


def _visit_clause(transformer, clause):
    clause.body = [_visit_stmt(transformer, s) for s in clause.body]
    if isinstance(clause, gast.ExceptHandler):
        if clause.type is not None:
            clause.type = transformer.visit(clause.type)
    elif clause.guard is not None:
        clause.guard = transformer.visit(clause.guard)
    return clause


def thunk(node):
    """`lambda: node`."""
    return located(gast.Lambda(args=parameters([]), body=node), node)


def parameters(names) -> "gast.arguments":
    """The `arguments` node of a generated function taking `names` positionally."""
    return gast.arguments(
        args=[gast.Name(id=n, ctx=gast.Param(), annotation=None, type_comment=None) for n in names],
        posonlyargs=[],
        vararg=None,
        kwonlyargs=[],
        kw_defaults=[],
        kwarg=None,
        defaults=[],
    )


def is_docstring(stmt) -> bool:
    return (
        isinstance(stmt, gast.Expr)
        and isinstance(stmt.value, gast.Constant)
        and isinstance(stmt.value.value, str)
    )


def binds_or_suspends(node) -> bool:
    """Whether `node` holds `:=`, `yield` or `await`, which a lambda would change."""
    return any(
        isinstance(n, (gast.NamedExpr, gast.Yield, gast.YieldFrom, gast.Await)) for n in walk(node)
    )


def located(node, origin):
    return copy_location_tree(node, origin)


def membership(node, ours, ac: str, call: str):
    """`x in c` / `x not in c` (`node`, a Compare) with `ours(c)` as the runtime call `call`
    (`"ac.in_(x, c)"`, its operands named `x` and `c`), under `ac.not_` for `not in`; else
    `node` as it is."""
    if not (
        len(node.ops) == 1
        and isinstance(node.ops[0], (gast.In, gast.NotIn))
        and ours(node.comparators[0])
    ):
        return node
    made = templates.expr(call, ac=ac, x=node.left, c=node.comparators[0])
    if isinstance(node.ops[0], gast.NotIn):
        made = templates.expr("ac.not_(x)", ac=ac, x=made)
    return located(made, node)


def target_reads(function_node) -> set:
    """Ids of the reads inside an assignment's (or `del`'s) target (`cfg["opt"]` of
    `cfg["opt"]["lr"] = v`): the statement tracks that composite name by its path, so
    converters leave them as written."""
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


def joined(node, ac: str, items_ok):
    """`sep.join(items)` (one positional argument that `items_ok` accepts) as `ac.joined(sep,
    items)`, at `node`'s place; None for any other call."""
    func = node.func
    if not (
        isinstance(func, gast.Attribute)
        and func.attr == "join"
        and len(node.args) == 1
        and not node.keywords
        and items_ok(node.args[0])
    ):
        return None
    call = templates.expr("ac.joined(sep, items)", ac=ac, sep=func.value)
    call.args[1] = node.args[0]
    return located(call, node)


def bound_pairs(targets, value) -> list:
    """(name, value) for `x = value`, and for each name of `a, b = [], {}` (equal lengths, no
    starred names): the values each name is bound to."""
    if len(targets) != 1:
        return []
    target = targets[0]
    if isinstance(target, gast.Name):
        return [(target, value)]
    if (
        isinstance(target, gast.Tuple)
        and isinstance(value, gast.Tuple)
        and len(target.elts) == len(value.elts)
        and all(isinstance(t, gast.Name) for t in target.elts)
        and not any(isinstance(v, gast.Starred) for v in value.elts)
    ):
        return list(zip(target.elts, value.elts))
    return []


def bound_only_to(function_node, accepts, unpacked: bool = False) -> set:
    """The names the function binds only by `name = value` with `accepts(value)` (never
    otherwise, nor declared `global` / `nonlocal`); `unpacked`: also the names of a tuple
    target (`a, b = value`), each bound to a part of what `value` gives."""
    found, other, bound = set(), set(), set()
    for node in walk(function_node):
        if isinstance(node, gast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            names = [target]
            if unpacked and isinstance(target, (gast.Tuple, gast.List)):
                names = target.elts
            if all(isinstance(n, gast.Name) for n in names) and accepts(node.value):
                found.update(n.id for n in names)
                bound.update(id(n) for n in names)
        elif isinstance(node, gast.Name) and not isinstance(node.ctx, gast.Load):
            if id(node) not in bound:
                other.add(node.id)
        elif isinstance(node, (gast.Nonlocal, gast.Global)):
            other.update(node.names)
    return found - other


def users_call(node, ctx) -> bool:
    """`f(...)` of a name that is no builtin nor, by its capital, a class (`Point(1, 2)`): a
    call of a function of the user's, whose result the converter cannot see."""
    return (
        isinstance(node, gast.Call)
        and isinstance(node.func, gast.Name)
        and not ctx.is_builtin(node.func.id)
        and not node.func.id.lstrip("_")[:1].isupper()
    )


def rewrite_statements(node, rewrite) -> None:
    """Each statement of `node` (not in nested functions or classes) replaced by
    `rewrite(stmt)` where that gives a statement (or a list of them), else searched in turn."""
    for field in child_fields(type(node)):
        value = getattr(node, field, None)
        if type(value) is not list:
            continue
        out = []
        for item in value:
            new = rewrite(item)
            if type(new) is list:
                out.extend(located(n, item) for n in new)
            elif new is not None:
                out.append(located(new, item))
            else:
                out.append(item)
                if isinstance(item, (gast.stmt, gast.ExceptHandler, gast.match_case)) and not (
                    isinstance(item, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef))
                ):
                    rewrite_statements(item, rewrite)
        value[:] = out
