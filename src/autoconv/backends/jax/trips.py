"""How many times a staged `while` runs, from its test (`i < n` of a counter, `len(lst) < k`
of a list it grows), for the sizes of the list buffers the JAX backend plans (lists.py)."""

from __future__ import annotations

import builtins

import numpy as np

from autoconv.graph.tensor import Tensor

_COMPARE = frozenset(("<", "<=", ">", ">="))
_UFUNC_COMPARE = {np.less: "<", np.less_equal: "<=", np.greater: ">", np.greater_equal: ">="}
_TRUTH = (builtins.bool, np.bool_)
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def times(n, items):
    """n iterations' worth of `items` (either may be UNBOUNDED; none of nothing is none)."""
    return 0 if n == 0 or items == 0 else n * items


def trips(node, growth, plan):
    """`(most iterations, exact)` of a `while` node, or None when the graph does not bound them.
    `exact`: it always runs that many times (no `break`; the test is one counter)."""
    test_block, body = node.blocks
    test = test_block.outputs[0]
    terms = _conjuncts(test)
    best, exact = None, False
    for term in terms:
        found = _bound(term, node, growth, plan)
        if found is None:
            continue
        n, by_counter = found
        if best is None or n < best:
            best = n
            exact = by_counter and len(terms) == 1 and not node.attrs.get("stop")
    return None if best is None else (best, exact)


def _conjuncts(v) -> list:
    """The terms that must all hold for `v` to be true (`a and b`, `np.logical_and(a, b)`)."""
    if not isinstance(v, Tensor) or v.node is None:
        return [v]
    node = v.node
    if node.kind in ("call", "helper") and node.fn in _TRUTH and len(node.args) == 1:
        return _conjuncts(node.args[0])
    if node.kind in ("call", "helper") and node.fn is np.logical_and and len(node.args) == 2:
        return _conjuncts(node.args[0]) + _conjuncts(node.args[1])
    if node.kind == "cond" and len(node.blocks) == 2:
        # `a and b`, staged: `b` where `a` holds, else `a` (false there).
        test = node.args[0]
        then, orelse = (sub.outputs[v.index] for sub in node.blocks)
        if orelse is test or _const(orelse) is False:
            return _conjuncts(test) + _conjuncts(then)
    return [v]


def _bound(term, node, growth, plan):
    """`(n, by_counter)`: the loop runs at most n times while `term` holds each time."""
    if not isinstance(term, Tensor) or term.node is None:
        return None
    cmp = term.node
    if cmp.kind == "binop" and cmp.fn in _COMPARE and len(cmp.args) == 2:
        op = cmp.fn
    elif cmp.kind in ("call", "helper") and cmp.fn in _UFUNC_COMPARE and len(cmp.args) == 2:
        op = _UFUNC_COMPARE[cmp.fn]
    else:
        return None
    left, right = cmp.args
    if op in (">", ">="):
        left, right, op = right, left, _FLIP[op]
    limit = const_int(right)
    grows = _growing(left, node)
    if limit is None or grows is None:
        return None
    what, i, offset = grows
    if what == "counter":
        start = const_int(node.args[i])
        step = _step(node.blocks[1].outputs[i], node.blocks[1].params[i])
        if start is None or step is None or step <= 0:
            return None
    else:
        if i not in growth or growth[i][0] <= 0:
            return None
        start, step = plan.bounds[node.args[i].id][0], growth[i][0]
    room = limit - offset - start + (1 if op == "<=" else 0)
    return max(0, -(-room // step)), what == "counter"


def _growing(v, node):
    """`("counter", i, k)` for `param_i + k`, `("len", i, k)` for `len(list param_i) + k`."""
    params = node.blocks[1].params
    test_params = {p.id: i for i, p in enumerate(params)}
    offset = 0
    while isinstance(v, Tensor):
        if v.id in test_params:
            i = test_params[v.id]
            if v.dtype.kind not in "iu":
                return None
            return "counter", i, offset
        n = v.node
        if n is None:
            return None
        if n.kind == "binop" and n.fn in ("+", "-") and len(n.args) == 2:
            a, b = n.args
            k = const_int(b)
            if k is not None:
                offset += k if n.fn == "+" else -k
                v = a
                continue
            k = const_int(a)
            if k is not None and n.fn == "+":
                offset += k
                v = b
                continue
            return None
        if n.kind in ("call", "helper") and n.fn is builtins.len and len(n.args) == 1:
            lst = n.args[0]
            if isinstance(lst, Tensor) and lst.id in test_params:
                return "len", test_params[lst.id], offset
        return None
    return None


def _step(out, param):
    """k where a loop body yields `param + k` for a constant k (else None)."""
    step = 0
    v = out
    while isinstance(v, Tensor) and v is not param:
        n = v.node
        if n is None or n.kind != "binop" or n.fn not in ("+", "-") or len(n.args) != 2:
            return None
        a, b = n.args
        k = const_int(b)
        if k is not None:
            step += k if n.fn == "+" else -k
            v = a
            continue
        k = const_int(a)
        if k is not None and n.fn == "+":
            step += k
            v = b
            continue
        return None
    return step if v is param else None


def _const(v):
    if isinstance(v, Tensor):
        if v.node is not None and v.node.kind == "const":
            return v.node.attrs["value"]
        return None
    return v


def const_int(v):
    v = _const(v)
    if isinstance(v, np.ndarray) and v.ndim == 0:
        v = v[()]
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        return None
    return int(v)
