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
"""

from __future__ import annotations

from autoconv.graph.tensor import Tensor
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


def _same(a, b) -> bool:
    """Whether `a` and `b` are one value: the same Tensor, or two outputs of one `cond` that
    yield equal constants in each of its branches."""
    if a is b:
        return True
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)) or a.node is not b.node:
        return False
    node = a.node
    if node is None or node.kind != "cond" or not node.blocks:
        return False
    i = next((k for k, o in enumerate(node.outputs) if o is a), None)
    j = next((k for k, o in enumerate(node.outputs) if o is b), None)
    if i is None or j is None:
        return False
    for block in node.blocks:
        x, y = block.outputs[i], block.outputs[j]
        if x is y:
            continue
        cx, cy = _const(x), _const(y)
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
