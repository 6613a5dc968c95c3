"""`break` to a flag, and loop `else` out of the loop.

`break` becomes `break_ = True`; the statements it skips are guarded; the loop body returns the
flag so the loop stops; `else:` becomes `if not break_:` after the loop (or plain statements
after it, when the loop has no `break`).
"""

import gast

from autoconv.converters import blocks, lowering
from autoconv.pyct import anno, scopes


def transform(function_node, ctx) -> None:
    function_node.body = blocks.rewrite(function_node.body, lambda s: _loop(s, ctx))


def _loop(node, ctx):
    if not isinstance(node, (gast.For, gast.While)):
        return [node]
    escape = lowering.Escape(gast.Break, "", enter_loops=False, namer=ctx.namer)
    orelse, node.orelse = node.orelse, []
    if not escape.contains_any(node.body):
        return [node, *orelse]
    flag = escape.flag = ctx.namer.new("break_")
    ctx.flags.add(flag)
    node.body = escape.lower(node.body)
    ctx.dead_bindings |= scopes.bound_names(escape.dropped)
    ctx.flags |= escape.created
    anno.set(node, "stop_flags", [*anno.get(node, "stop_flags", []), flag])
    out = [lowering.assign(flag, False, node), node]
    if orelse:
        out.extend(escape.guard(orelse))
    return out
