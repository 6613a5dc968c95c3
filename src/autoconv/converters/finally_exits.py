"""The last step of lowering `return`, `break` and `continue` out of a `finally` block.

Such an escape discards what was leaving the `try`: the exception in flight, or an escape of the
`try` body (a `return` value is overridden). The three escape passes lower it to a flag of its
own (`finally_return`, `finally_break`, `finally_continue`) and an escape out of the rest of the
`try` to a pending flag, recording both in the `try`'s `lowering.FinallyExits`. Once all three
have run, `finish` puts each such `try` together:

    finally_return = False                  # the flags, cleared
    returning = False
    try:
        try:                                # the `try`, lowered
            returned = table[key]
            returning = True
        finally:
            ...finally_return = True
    except BaseException:                   # what was in flight is discarded when
        if not finally_return:              # the `finally` escaped
            raise
    if finally_return:                      # the `finally`'s escape wins,
        pass                                # (its value is already in `retval`)
    elif returning:                         # else the one that was waiting for it
        retval = returned

The `if` that re-raises stays a Python `if` with its test as written: in a body function,
`raise` would add frames to the exception's traceback.
"""

import gast

from autoconv.converters import blocks
from autoconv.converters.lowering import copy_location_tree, name
from autoconv.pyct import anno, templates


def finish(stmts) -> list:
    """`stmts` with each `try` whose `finally` escapes put together (see the module)."""
    return blocks.rewrite(stmts, _finish_try)


def _finish_try(node) -> list:
    record = anno.get(node, "finally_exits")
    if not record:
        return [node]
    anno.set(node, "finally_exits", False)
    if not record.finals:  # the `finally`'s escapes were unreachable and left out
        return [*record.inits, node, *_commits(record.pending, node)]
    flags = [name(flag) for flag, _ in record.finals]
    escaped = flags[0] if len(flags) == 1 else gast.BoolOp(op=gast.Or(), values=flags)
    [wrapper] = templates.stmts(
        "try:\n    pass\nexcept BaseException:\n    if not escaped:\n        raise\n",
        escaped=escaped,
    )
    wrapper.body = [node]
    reraise = wrapper.handlers[0].body[0]
    anno.set(reraise, "python_if", True)
    anno.set(reraise.test, "as_written", True)
    anno.set(escaped, "as_written", True)
    copy_location_tree(wrapper, node)
    return [*record.inits, wrapper, *_commits(record.finals + record.pending, node)]


def _commits(entries, origin) -> list:
    """`if a: ... elif b: ...` over (flag, commit) entries, the first flag set winning; entries
    at the end whose commit lowering emptied (a flag nobody reads) are left out."""
    while entries and not entries[-1][1]:
        entries = entries[:-1]
    chain = []
    for flag, commit in reversed(entries):
        chain = [gast.If(test=name(flag), body=commit or [gast.Pass()], orelse=chain)]
    return [copy_location_tree(chain[0], origin)] if chain else []
