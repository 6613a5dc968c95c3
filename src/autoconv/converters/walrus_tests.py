"""`:=` in a later operand of `and` / `or` in the test of an `if` or `while`, lowered to
statements, so that a staged `if` binds the name on the paths that evaluate it:

    if a and (v := f(x)) > 0:            test = ac.truth(a)
        body                       ->    if test:
                                             test = ac.truth((v := f(x)) > 0)
                                         if test:
                                             body

    while i < n and (v := x[i]) > 0:     while True:
        body                       ->        test = ac.truth(i < n)
                                             if test:
                                                 test = ac.truth((v := x[i]) > 0)
                                             if not test:
                                                 break
                                             body

Elsewhere such an operand stays as Python (converters/logical_expressions.py: in a lambda,
`:=` would bind in the lambda), and so does a `while` with an `else` block. Runs before
`continue` and `break` are lowered, which then treat the `break` written here as the user's.
"""

import gast

from autoconv.converters import blocks, expressions, lowering
from autoconv.pyct import templates
from autoconv.pyct.walk import walk


def transform(function_node, ctx) -> None:
    function_node.body = blocks.rewrite(function_node.body, lambda s: _lower(s, ctx))


def _binds_late(test) -> bool:
    """Whether `test` is an `and`/`or` with `:=` in an operand that Python may skip (an operand
    after the first, at any depth of nested `and`/`or` in the first)."""
    if not isinstance(test, gast.BoolOp):
        return False
    late = any(isinstance(n, gast.NamedExpr) for v in test.values[1:] for n in walk(v))
    return late or _binds_late(test.values[0])


def _lower(node, ctx) -> list:
    if isinstance(node, gast.If) and _binds_late(node.test):
        name = _flag(ctx)
        stmts = _evaluate(node.test, name, ctx.ac)
        node.test = lowering.located_name(name, gast.Load(), node.test)
        return [*stmts, node]
    if isinstance(node, gast.While) and not node.orelse and _binds_late(node.test):
        name = _flag(ctx)
        stmts = _evaluate(node.test, name, ctx.ac)
        (stop,) = templates.stmts("if not test:\n    break", test=name)
        stop = expressions.located(stop, node.test)
        node.body = [*stmts, stop, *node.body]
        node.test = expressions.located(gast.Constant(value=True, kind=None), node.test)
        return [node]
    return [node]


def _flag(ctx) -> str:
    name = ctx.namer.new("test")
    ctx.flags.add(name)
    return name


def _evaluate(test, name, ac) -> list:
    """Statements that leave in `name` the truth of `test`, evaluating each operand of its
    `and`/`or` (nested ones too) only where Python does. Only the truth counts in a test, and
    the operands may differ in type (`x > 0 or (m := -1.0)`): each operand's truth is taken
    once, as `and`/`or` in a test do (converters/logical_expressions.py)."""
    if not _binds_late(test):
        truth = expressions.located(templates.expr("ac.truth(x)", ac=ac, x=test), test)
        return [lowering.assign(name, truth, test)]
    first, *rest = test.values
    stmts = _evaluate(first, name, ac)
    target = stmts
    for value in rest:
        guard = lowering.located_name(name, gast.Load(), value)
        if isinstance(test.op, gast.Or):
            guard = expressions.located(gast.UnaryOp(op=gast.Not(), operand=guard), value)
        branch = expressions.located(
            gast.If(test=guard, body=_evaluate(value, name, ac), orelse=[]), value
        )
        target.append(branch)
        target = branch.body
    return stmts
