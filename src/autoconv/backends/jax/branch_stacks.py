"""A stack of a run-time list returned from inside a staged branch:

    if not rows:
        return np.zeros((0, m.shape[1]))
    return np.stack(rows)

The branch's result has a length known only when the graph runs, which `lax.cond` cannot
yield. Where that result only leaves the program, each branch yields the list itself (the
`(buffer, count)` pair, `lists.py`) or, for the array of no rows, an empty pair of the same
buffer; the host slices the buffer to the count after the call, as for a returned stack
(`host.py`); `list_makers.py` writes the branches. The stacking branch checks that the
list holds an item, where eager NumPy's np.stack([]) raises (its ValueError comes after the
call)."""

from __future__ import annotations

import numpy as np

from autoconv.graph.graph import tensors_in


def find(plan, graph, stack, t, stacker_func, plain_stackers) -> bool:
    """Records `stack` (np.stack(lst) / np.array(lst) of run-time list `t`, only yielded by
    a staged branch) where every branch of the `cond` yields such a stack of `t`'s family or
    an array of no rows, and the cond's result only leaves the program. False otherwise.
    `stacker_func`, `plain_stackers`: `lists.py`'s."""
    out = stack.outputs[0]
    users = plan.uses.get(out.id, ())
    plain = (plan, stacker_func, plain_stackers)
    if len(users) != 1 or users[0].kind != "cond" or not _plain(*plain, stack, t):
        return False
    cond = users[0]
    fam = plan.family(t)
    outputs = {x.id for x in tensors_in(graph.outputs)}
    for j, res in enumerate(cond.outputs):
        ys = [block.outputs[j] for block in cond.blocks]
        if not any(y is out for y in ys):
            continue
        if res.id not in outputs or plan.uses.get(res.id) or res.dtype != fam.dtype:
            return False
        stacks = []
        for y in ys:
            node = y.node
            if node is not None and node.kind == "const":
                value = node.attrs["value"]
                if not (
                    isinstance(value, np.ndarray)
                    and value.shape == (0, *fam.elem)
                    and value.dtype == fam.dtype
                ):
                    return False
            elif node is not None and node.outputs[0] is y and _is_stack(*plain, node, fam):
                stacks.append(node)
            else:
                return False
        for node in stacks:
            plan.branch_stacks[id(node)] = node.args[0][0]
        plan.branch_results[res.id] = t
        return True
    return False


def _plain(plan, stacker_func, plain_stackers, stack, t) -> bool:
    template = stack.args[0] if stack.args else None
    return (
        stacker_func(stack) in plain_stackers
        and len(stack.args) == 1
        and not stack.kwargs
        and type(template) is list
        and len(template) == 1
        and template[0] is t
        and plan.device_dtype(t) == plan.family(t).dtype
        and not any(d is None for d in plan.family(t).elem)
        and stack.outputs[0].dtype == plan.family(t).dtype
    )


def _is_stack(plan, stacker_func, plain_stackers, node, fam) -> bool:
    if stacker_func(node) is None or not node.args or type(node.args[0]) is not list:
        return False
    lists = [v for v in node.args[0] if plan.is_list(v)]
    return (
        len(lists) == 1
        and plan.family(lists[0]) is fam
        and _plain(plan, stacker_func, plain_stackers, node, lists[0])
    )


def host_value(value, keep=False):
    """The eager array of a branch result from its `(buffer, count)` pair (`keep`: the
    device's own array, for `keep_on_device`)."""
    buffer, count = value
    count = int(np.asarray(count))
    return buffer[:count] if keep else np.array(np.asarray(buffer)[:count])
