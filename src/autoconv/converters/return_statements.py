"""`return` inside control flow to `retval = value; do_return = True`.

Returns at the top level of the function stay real returns. Others assign the return value;
the statements they skip are guarded, loops that hold them stop, and the function ends with
`return retval`. When every lowered return is the last thing its path does, no flag is needed
and only `retval` remains.

This is the last of the three escape passes: it also puts together the `try` statements whose
`finally` escapes (`finally_exits.finish`), whose pieces all three passes recorded.
"""

import gast

from autoconv.converters import finally_exits, lowering
from autoconv.pyct import scopes


class _Return(lowering.Escape):
    def __init__(self, flag, retval, namer):
        super().__init__(gast.Return, flag, enter_loops=True, namer=namer)
        self.retval = retval

    def replace(self, node):
        out = []
        # `retval` starts as None and is set once: `return` and `return None` leave it.
        if node.value is not None and not _is_none(node.value):
            out.append(lowering.assign(self.retval, node.value, node))
        out.append(lowering.assign(self.flag, True, node))
        return out


def transform(function_node, ctx) -> None:
    body = function_node.body
    nested = [
        n
        for s in body
        if not isinstance(s, gast.Return)
        for n in scopes.walk_scope([s])
        if isinstance(n, gast.Return)
    ]
    if not nested:
        function_node.body = finally_exits.finish(body)
        return
    loops = [
        n
        for n in scopes.walk_scope(body)
        if isinstance(n, (gast.For, gast.While))
        and any(isinstance(r, gast.Return) for r in scopes.walk_scope(n.body))
    ]
    retval = ctx.namer.new("retval")
    escape = _Return(ctx.namer.new("do_return"), retval, ctx.namer)
    new_body = finally_exits.finish(escape.lower(body, first_segment_kept=True))
    ctx.dead_bindings |= scopes.bound_names(escape.dropped)
    ctx.flags |= escape.created
    origin = function_node
    ctx.flags.update((retval, escape.flag))
    prologue = [lowering.assign(retval, None, origin)]
    if escape.flag_read or loops:
        prologue.insert(0, lowering.assign(escape.flag, False, origin))
        _drop_final_flag(new_body, escape.flag)
    else:
        escape.remove_flag(new_body)
        ctx.flags.discard(escape.flag)
    ctx.prologue.extend(prologue)
    if not (new_body and isinstance(new_body[-1], gast.Return)):
        new_body.append(gast.Return(value=lowering.name(retval)))
        lowering.copy_location_tree(new_body[-1], new_body[-2] if len(new_body) > 1 else origin)
    function_node.body = new_body


def _drop_final_flag(stmts, flag) -> None:
    """Removes `flag = True` where it is the very last thing the function does: nothing would
    read it."""
    if not stmts:
        return
    last = stmts[-1]
    if lowering.is_assignment(last, flag):
        stmts.pop()
    elif isinstance(last, gast.If):
        _drop_final_flag(last.body, flag)
        _drop_final_flag(last.orelse, flag)
        if not last.body and not last.orelse and _is_guard(last.test, flag):
            stmts.pop()  # `if not do_return: pass`
    elif isinstance(last, gast.With):
        _drop_final_flag(last.body, flag)
    elif isinstance(last, gast.Try) and not last.finalbody:
        if not last.orelse:  # otherwise `else:` is guarded by the flag the body sets
            _drop_final_flag(last.body, flag)
        _drop_final_flag(last.orelse, flag)
        for handler in last.handlers:
            _drop_final_flag(handler.body, flag)


def _is_none(node) -> bool:
    return isinstance(node, gast.Constant) and node.value is None


def _is_guard(test, flag) -> bool:
    return (
        isinstance(test, gast.UnaryOp)
        and isinstance(test.op, gast.Not)
        and isinstance(test.operand, gast.Name)
        and test.operand.id == flag
    )
