"""Broad `except` handlers never hide an error of tracing:

    except Exception:          ->  except Exception as exc:
        r = fallback(x)                ac.handler(exc)
                                       r = fallback(x)

An `AutoconvError` that tracing raises inside a `try` (a construct the graph cannot stage) would
otherwise be caught by the user's `except Exception`, and the graph would silently follow the
handler on every input. `ac.handler` re-raises it; every other exception is handled as before.
Errors that are also of an eager type (an `IndexError` out of range) are left to the handler,
as eagerly. Handlers naming specific exception types cannot catch an error of tracing and stay
as they are.
"""

import gast

from autoconv.pyct import templates

_BODIES = ("body", "orelse", "finalbody")
_BROAD = ("Exception", "BaseException")


def transform(function_node, ctx) -> None:
    if not isinstance(function_node, gast.Lambda):
        _block(function_node.body, ctx)


def _block(stmts, ctx) -> None:
    for stmt in stmts:
        if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            continue
        for field in _BODIES:
            inner = getattr(stmt, field, None)
            if isinstance(inner, list):
                _block(inner, ctx)
        for clause in getattr(stmt, "handlers", None) or getattr(stmt, "cases", None) or ():
            _block(clause.body, ctx)
            if isinstance(clause, gast.ExceptHandler) and _broad(clause.type):
                if clause.name is None:
                    clause.name = gast.Name(
                        id=ctx.namer.new("exc"),
                        ctx=gast.Store(),
                        annotation=None,
                        type_comment=None,
                    )
                load = gast.Name(
                    id=clause.name.id, ctx=gast.Load(), annotation=None, type_comment=None
                )
                call = templates.expr("ac.handler(exc)", ac=ctx.ac, exc=load)
                clause.body.insert(0, gast.Expr(value=call))
                gast.copy_location(clause.body[0], clause.body[1])


def _broad(kind) -> bool:
    """A handler that can catch an `AutoconvError`: bare, or naming `Exception`."""
    if kind is None:
        return True
    kinds = kind.elts if isinstance(kind, gast.Tuple) else [kind]
    for k in kinds:
        name = getattr(k, "id", None) or getattr(k, "attr", None)
        if name in _BROAD:
            return True
    return False
