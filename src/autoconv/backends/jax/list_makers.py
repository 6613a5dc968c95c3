"""Writes the run-time lists `[x] * n` makes (`repeats.py` plans them) and the stacks of
run-time lists a staged branch returns (`branch_stacks.py` finds them), for `lowering.py`."""

from __future__ import annotations

import numpy as np

from autoconv.backends.jax import lists as _lists
from autoconv.backends.jax import reads as _reads
from autoconv.backends.jax.errors import lowering_error


def lower_repeat(w, node, indent) -> bool:
    """Writes `v = list_repeat(count, items, rows)` for `node` with writer `w`."""
    count, *items = node.args
    (out,) = node.outputs
    plan = w.plan
    shapes = plan.buffer_shapes(out, node)
    if plan.family(out).fields is not None:
        raise lowering_error(node, "a list of tuples repeated a number of times known at run time")
    (shape, dtype) = shapes[0]
    exprs = "".join(_reads.item_expr(w, node, out, v) + ", " for v in items)
    zeros = f"jnp.zeros({shape!r}, {w.dtype(dtype)})"
    w.emit(indent, f"v{out.id} = list_repeat({w.expr(count)}, ({exprs}), {zeros})", node)
    _reads.check_overflow(w, node, out, indent)
    return True


def lower_branch_stack(w, node, indent) -> bool:
    """The stacking node inside the branch: the list's pair, and NumPy's error for no items."""
    lst = w.plan.branch_stacks[id(node)]
    out = node.outputs[0]
    ref = w.ref(lst)
    w.emit(indent, f"v{out.id} = {ref}", node)
    fam = w.plan.family(lst)
    if _lists.stacker_func(node) is np.stack:
        made = _reads._eager_error(lambda: np.stack([]))
    elif fam.elem == () and fam.dtype == np.float64:
        return True  # np.array([]): the float64 array of shape (0,) the buffer gives
    else:
        why = lowering_error(
            node,
            f"np.array() of {w.plan.describe(lst)} held no items when the graph ran, where "
            "NumPy gives a float64 array of shape (0,) and this backend the list's dtype and "
            "item shape: use np.stack() where it holds items, or start it with an item",
        )
        made = lambda: why  # noqa: E731
    _reads._check(w, node, lst, f"{ref}[1] > 0", indent, made)
    return True


def carried_branch_stack(w, v, t) -> str:
    """Branch result `v` of cond result `t` (in `branch_results`): a pair of the list's
    family."""
    lst = w.plan.branch_results[t.id]
    node = v.node
    if node.kind == "const":
        shape, dtype = w.plan.buffer_shapes(lst, node)[0]
        return f"carry_list((jnp.zeros({shape!r}, {w.dtype(dtype)}), 0))"
    return f"carry_list(v{v.id})"
