"""`with contextlib.suppress(...)` blocks to the `try` statements they are.

    with contextlib.suppress(ZeroDivisionError):  ->  try:
        r.append(x / y)                                   r.append(x / y)
                                                      except ac.suppressed(suppress, E):
                                                          pass

(`suppress` standing for the call's function as written, `E` for its arguments.)

`contextlib.suppress(*kinds)` suppresses exactly what `except kinds: pass` catches, so the block
becomes a `try` of the user's, which converters.staged_try stages: an error raised only when
the graph runs (`x / y` of run-time numbers, a `raise` under a staged condition) is suppressed
there, as eagerly. Runs before `staged_try.mark_users`. `ac.suppressed` checks, where the
block runs, that the name is contextlib's `suppress`.
"""

import gast

from autoconv.pyct import scopes, templates


def transform(function_node, ctx) -> None:
    if isinstance(function_node, gast.Lambda):
        return
    nodes = [n for n in scopes.own_nodes(function_node) if isinstance(n, gast.With)]
    if not any(_try(n, ctx.ac) for n in nodes):
        return
    for node in [function_node, *scopes.own_nodes(function_node)]:
        blocks = [getattr(node, f, None) for f in ("body", "orelse", "finalbody")]
        blocks += [c.body for c in getattr(node, "handlers", None) or ()]
        blocks += [c.body for c in getattr(node, "cases", None) or ()]
        for block in blocks:
            if isinstance(block, list):
                block[:] = [_try(s, ctx.ac) or s for s in block]
    scopes.forget_own_nodes(function_node)  # the new `try` statements are walked afresh


def _try(stmt, ac):
    """The `try` that `stmt` is, for a `with` of one `suppress(...)` call without `as`."""
    if not isinstance(stmt, gast.With) or len(stmt.items) != 1:
        return None
    item = stmt.items[0]
    call = item.context_expr
    if item.optional_vars is not None or not _suppress_call(call):
        return None
    kinds = templates.expr("ac.suppressed(f)", ac=ac, f=call.func)
    kinds.args.extend(call.args)
    handler = gast.ExceptHandler(type=kinds, name=None, body=[gast.Pass()])
    node = gast.Try(body=stmt.body, handlers=[handler], orelse=[], finalbody=[])
    return gast.copy_location(node, stmt)


def _suppress_call(node) -> bool:
    if not isinstance(node, gast.Call) or node.keywords:
        return False
    if any(isinstance(a, gast.Starred) for a in node.args):
        return False
    f = node.func
    if isinstance(f, gast.Name):
        return f.id == "suppress"
    return (
        isinstance(f, gast.Attribute)
        and f.attr == "suppress"
        and isinstance(f.value, gast.Name)
        and f.value.id == "contextlib"
    )
