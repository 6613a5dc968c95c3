"""`continue` to a flag: `if c: continue` + rest becomes `if c: pass / else: rest`, or, where
several statements may continue, `continue_ = True` with the rest guarded by `if not continue_`.
"""

import gast

from autoconv.converters import blocks, lowering
from autoconv.pyct import scopes


def transform(function_node, ctx) -> None:
    function_node.body = blocks.rewrite(function_node.body, lambda s: [_loop(s, ctx)])


def _loop(node, ctx):
    if not isinstance(node, (gast.For, gast.While)):
        return node
    escape = lowering.Escape(gast.Continue, "", enter_loops=False, namer=ctx.namer)
    if not escape.contains_any(node.body):
        return node
    escape.flag = ctx.namer.new("continue_")
    node.body = escape.lower(node.body)
    ctx.dead_bindings |= scopes.bound_names(escape.dropped)
    ctx.flags |= escape.created
    if escape.flag_read:
        ctx.flags.add(escape.flag)
        node.body.insert(0, lowering.assign(escape.flag, False, node.body[0]))
    else:
        escape.remove_flag(node.body)
    return node
