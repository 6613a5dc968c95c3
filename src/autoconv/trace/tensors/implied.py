"""What a staged `if`'s condition tells about a value-or-None in each branch.

The converter lowers guard clauses in a row with a flag (converters/return_statements.py):

    if op == -1: return a + b        retval, do_return = a + b if c else None, c
    if op == -2: return a - b   ->   if not do_return: ... retval = a - b ...
    ...

`retval` after the first `if` is `a + b` where `c` holds, else None, and `do_return` is `c`:
two outputs of one `cond` that yield the same constants in each branch. In the branch of the
second `if` where `not do_return` is false, `retval` exists, so it is the number, not a
number-or-None: `settled` gives it so, and the function's result is a number on every path
(eager code never returns None there).

Strings returned so (`if v >= 90: return "A" elif ...: return "B"` then `return "F"`) are a
`Choice` among "A", "B" and None after the first `if`, its tag and `do_return` outputs of the
same `cond`s: where `do_return` is true the tag never picks None, so the branch gets a Choice
of the strings alone (`settled` again).
"""

from __future__ import annotations

import numpy as np

from autoconv.graph.tensor import Tensor
from autoconv.trace.tensors.choices import Choice
from autoconv.trace.tensors.optionals import Optional


def settled(values: tuple, cond, truth: bool) -> tuple:
    """`values` (a branch's variables) with each value-or-None whose flag the branch's
    condition decides (`cond` is `truth` there) as the value, or None."""
    out = []
    for v in values:
        if type(v) is Optional and v.missing is None and isinstance(v.flag, Tensor):
            known = _given(v.flag, cond, truth)
            if known is True:
                v = v.value
            elif known is False:
                v = None
        elif type(v) is Choice and None in v.options and isinstance(v.tag, Tensor):
            v = _settled_choice(v, cond, truth)
        out.append(v)
    return tuple(out)


def _given(t: Tensor, cond, truth: bool):
    """True or False where `t`'s value follows from `cond` being `truth`, else None."""
    if not isinstance(cond, Tensor):
        return None
    root_c, pc = _root(cond)
    root_t, pt = _root(t)
    if not _same(root_t, root_c):
        return None
    rc = truth == pc  # the root's value where the condition is `truth`
    return rc == pt


def _settled_choice(v: Choice, cond, truth: bool):
    """`v` with the options its tag cannot pick where `cond` is `truth` replaced by one it can
    (the tag stays as it is), or the one option it must pick; `v` itself when that is unknown."""
    if not isinstance(cond, Tensor):
        return v
    root, polarity = _root(cond)
    picks = _picks(v.tag, root, truth == polarity, 8)
    if picks is None or not picks or len(picks) == len(v.options):
        return v
    if len(picks) == 1:
        return v.options[next(iter(picks))]
    stand_in = v.options[min(picks)]
    options = tuple(o if k in picks else stand_in for k, o in enumerate(v.options))
    return Choice(v.tag, options, v.ac_name)


def _picks(tag, flag, value, depth: int, assumed: dict | None = None):
    """The indices tag Tensor `tag` can hold where `flag` holds `value` (flag None: anywhere),
    or None when that is not known. Both are followed through the `cond`s that made them (in a
    branch where the flag is a constant other than `value`, the tag is never read) and the
    `while` loops that carry them (what the loop starts with, and what a trip makes of any
    state it may start from: `assumed` holds that, by the loop's parameters)."""
    if flag is not None:
        flag, polarity = _root(flag)
        value = value == polarity
        constant = _const(flag)
        if constant is not None:
            if constant != value:
                return set()  # (the flag is never `value` here)
            flag = None
    if depth == 0:
        return None
    known = _int_const(tag)
    if known is not None:
        return {known}
    if assumed is not None:
        found = assumed.get((id(tag), id(flag) if flag is not None else None, value))
        if found is not None:
            return found
    node = tag.node if isinstance(tag, Tensor) else None
    if node is None:
        return None
    if node.kind == "call" and node.op == "take" and len(node.args) == 2 and not node.kwargs:
        table, inner = node.args
        table = _table(table)
        picks = _picks(inner, flag, value, depth - 1, assumed) if table is not None else None
        return None if picks is None else {int(table[k]) for k in picks}
    if node.kind not in ("cond", "while") or not node.blocks:
        return None
    i = node.output_index(tag)
    j = node.output_index(flag) if isinstance(flag, Tensor) and flag.node is node else None
    if node.kind == "while":
        return _loop_picks(node, i, j, value, depth, assumed)
    found = set()
    for block in node.blocks:
        inner_flag = None
        if j is not None:
            out = block.outputs[j]
            constant = _const(out)
            if constant is not None and constant != value:
                continue  # this branch never gives the flag `value`
            if constant is None:
                inner_flag = out
        picks = _picks(block.outputs[i], inner_flag, value, depth - 1, assumed)
        if picks is None:
            return None
        found |= picks
    return found


def _loop_picks(node, i: int, j, value, depth: int, assumed):
    """`_picks` of output `i` of `while` node `node` where its output `j` (None: anywhere) is
    `value`: the tags it may start with, grown by what trips make of them until none adds one."""
    body = node.blocks[1]
    params, outs = body.params, body.outputs
    values = (True, False) if j is not None else (None,)

    def each(starts, known):
        found = {}
        for v in values:
            picks = _picks(starts[i], starts[j] if j is not None else None, v, depth - 1, known)
            if picks is None:
                return None
            found[v] = picks
        return found

    sets = each(node.args, assumed)
    for _ in range(4):
        if sets is None:
            return None
        known = dict(assumed or {})
        flag_id = id(params[j]) if j is not None else None
        known.update({(id(params[i]), flag_id, v): sets[v] for v in values})
        after = each(outs, known)
        if after is None:
            return None
        grown = {v: sets[v] | after[v] for v in values}
        if grown == sets:
            return sets[value if j is not None else None]
        sets = grown
    return None


def _int_const(t):
    node = t.node if isinstance(t, Tensor) else None
    if node is not None and node.kind == "const":
        value = node.attrs.get("value")
        if isinstance(value, np.integer) and np.ndim(value) == 0:
            return int(value)
    return None


def _table(t):
    node = t.node if isinstance(t, Tensor) else None
    if node is not None and node.kind == "const":
        value = node.attrs.get("value")
        if isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype.kind == "i":
            return value
    return None


def _root(t: Tensor, depth: int = 8):
    """`(root, polarity)`: `t` is `root` (polarity True) or `not root`, through `bool()` and
    `np.logical_not`."""
    polarity = True
    while depth and isinstance(t, Tensor) and t.node is not None and len(t.node.args) == 1:
        node = t.node
        if node.kind == "helper" and node.op == "bool":
            t = node.args[0]
        elif node.kind == "call" and node.op == "logical_not" and not node.kwargs:
            t, polarity = node.args[0], not polarity
        else:
            break
        depth -= 1
    return t, polarity


def _same(a, b, depth: int = 8) -> bool:
    """Whether `a` and `b` are one value: the same Tensor, or two outputs of one `cond` that
    yield equal constants, or again such outputs of one inner `cond` (an `elif`), in each of its
    branches."""
    if a is b:
        return True
    if depth == 0:
        return False
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)) or a.node is not b.node:
        return False
    node = a.node
    if node is None or node.kind != "cond" or not node.blocks:
        return False
    i, j = node.output_index(a), node.output_index(b)
    if i is None or j is None:
        return False
    for block in node.blocks:
        x, y = block.outputs[i], block.outputs[j]
        if x is y:
            continue
        cx, cy = _const(x), _const(y)
        if cx is None and cy is None and _same(x, y, depth - 1):
            continue
        if cx is None or cy is None or cx != cy:
            return False
    return True


def _const(t):
    """The bool a constant Tensor (or a Python bool) holds, else None."""
    if type(t) is bool:
        return t
    node = t.node if isinstance(t, Tensor) else None
    if node is not None and node.kind == "const" and type(node.attrs.get("value")) is bool:
        return node.attrs["value"]
    return None
