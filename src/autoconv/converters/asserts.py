"""`assert` statements to runtime calls, so that a symbolic test becomes a run-time check.

    assert x > 0, f"bad {x}"   ->  ac.assert_(x > 0, lambda: f"bad {x}")

The message stays lazy, as in Python: it is built only when the test fails. Under `python -O`
assertions are compiled away, so they are left as they are.
"""

import gast

from autoconv.converters import expressions
from autoconv.pyct import templates

_BODIES = ("body", "orelse", "finalbody")


def transform(function_node, ctx) -> None:
    if __debug__ and not isinstance(function_node, gast.Lambda):
        _block(function_node.body, ctx.ac)


def _block(stmts, ac) -> None:
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, gast.Assert):
            stmts[i] = _call(stmt, ac)
        elif not isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            for field in _BODIES:
                inner = getattr(stmt, field, None)
                if isinstance(inner, list):
                    _block(inner, ac)
            for clause in getattr(stmt, "handlers", None) or getattr(stmt, "cases", None) or ():
                _block(clause.body, ac)


def _call(node, ac):
    parts = [node.test] if node.msg is None else [node.test, node.msg]
    if any(expressions.binds_or_suspends(p) for p in parts):
        return node  # `:=` or `await` must stay in the function's own scope
    call = templates.expr("ac.assert_(test)", ac=ac, test=node.test)
    if node.msg is not None:
        call.args.append(expressions.thunk(node.msg))
    return expressions.located(gast.Expr(value=call), node)
