"""Rewriting statement lists of one function scope, bottom-up."""

import gast

_BLOCK_FIELDS = ("body", "orelse", "finalbody")


def rewrite(stmts, fn) -> list:
    """Applies `fn(stmt) -> list of statements` to every statement of `stmts` and of the blocks
    nested in them (not entering nested functions or classes), innermost first."""
    out = []
    for stmt in stmts:
        if not isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            for field in _BLOCK_FIELDS:
                block = getattr(stmt, field, None)
                if isinstance(block, list):
                    setattr(stmt, field, rewrite(block, fn))
            for handler in getattr(stmt, "handlers", ()):
                handler.body = rewrite(handler.body, fn)
            for case in getattr(stmt, "cases", ()):
                case.body = rewrite(case.body, fn)
        out.extend(fn(stmt))
    return out


def fill_empty(node) -> None:
    """Puts `pass` into every block that lowering left empty but Python requires (statements
    only are visited: blocks hold statements, never expressions)."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(node, field, None)
        if not isinstance(block, list):
            continue
        if not block and field == "body" and _requires_body(node, field):
            block.append(gast.copy_location(gast.Pass(), node))
        for stmt in block:
            if isinstance(stmt, gast.stmt):
                fill_empty(stmt)
    for clause in [*getattr(node, "handlers", ()), *getattr(node, "cases", ())]:
        fill_empty(clause)


def _requires_body(node, field):
    if field == "finalbody":
        return False
    return isinstance(node, (gast.stmt, gast.ExceptHandler, gast.match_case))
