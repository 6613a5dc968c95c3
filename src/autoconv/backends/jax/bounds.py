"""Index checks: XLA clamps an index that is out of bounds, where NumPy raises `IndexError`.

For each integer index that is known only when the graph runs (a Tensor, or a constant integer
array) the lowered code checks, when it runs, that it lies in `[-n, n)` for its axis; where it
does not, a host callback keeps the `IndexError` eager NumPy raises (with NumPy's message), the
error flag stops loops, and the program raises it after the call, as for the user's own
`raise`. `np.take` with its default `mode="raise"` is checked the same way.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph.helpers import ufunc_at
from autoconv.graph.tensor import Tensor


def _integer(v) -> bool:
    if isinstance(v, Tensor):
        return v.dtype.kind in "iu"
    return isinstance(v, np.ndarray) and v.dtype.kind in "iu"


def checks(node, ranges=None) -> list:
    """`(index, axis)` for each index of `node` to check (`axis` None: `np.take` over the
    flattened array); the array indexed is `node.args[0]`. `ranges` (`counted_ranges`): indices
    known to stay in bounds are not checked."""
    found = _checks(node)
    if ranges and found and node.kind == "getitem" and isinstance(node.args[0], Tensor):
        shape = node.args[0].shape
        found = [
            (v, axis)
            for v, axis in found
            if not _within(ranges.get(v.id) if isinstance(v, Tensor) else None, shape[axis])
        ]
    return found


def _within(bounds, n) -> bool:
    return bounds is not None and n is not None and -n <= bounds[0] and bounds[1] < n


def counted_ranges(graph) -> dict:
    """`{tensor id: (lowest, highest)}` for the variables of counted loops, as the loop body
    sees them: a `while` whose test is `p < N` (`N` an int) on a variable `p` that starts at a
    constant int and grows by a positive int each step runs `T` times, known when lowering, and
    every variable `q` that starts at a constant int and moves by a constant int each step
    stays between its first and its `T`-th value. (The `roll` pass and a `for` over an array's
    first axis make such loops.)"""
    from autoconv.graph.graph import walk

    out: dict = {}
    for node in walk(graph.block):
        if node.kind != "while" or node.attrs.get("stop"):
            continue
        test, body = node.blocks
        n = len(body.params)
        steps = {}
        for i, p in enumerate(body.params):
            init, new = node.args[i], body.outputs[i]
            first = _const_int(init)
            if first is None or not isinstance(new, Tensor) or new.node is None:
                continue
            step = new.node
            if (
                step.kind == "binop"
                and step.fn == "+"
                and step.args[0] is p
                and type(step.args[1]) is int
            ):
                steps[p.id] = (first, step.args[1])
        if len(test.nodes) != 1 or len(body.outputs) != n:
            continue
        cmp = test.nodes[0]
        if not (
            cmp.kind == "binop"
            and cmp.fn == "<"
            and test.outputs[0] is cmp.outputs[0]
            and isinstance(cmp.args[0], Tensor)
            and type(cmp.args[1]) is int
        ):
            continue
        counter = steps.get(cmp.args[0].id)
        if counter is None or counter[1] <= 0:
            continue
        first, d = counter
        trips = max(0, -(-(cmp.args[1] - first) // d))
        if not trips:
            continue
        for pid, (b, s) in steps.items():
            last = b + s * (trips - 1)
            out[pid] = (min(b, last), max(b, last))
    return out


def _const_int(v):
    if type(v) is int:
        return v
    if isinstance(v, Tensor) and v.node is not None and v.node.kind == "const":
        value = v.node.attrs.get("value")
        if type(value) is int:
            return value
    return None


def _checks(node) -> list:
    if node.kind == "getitem":
        array, key = node.args[0], node.args[1]
        items = key if node.attrs.get("tuple") else (key,)
        ndim = np.ndim(array) if not isinstance(array, Tensor) else len(array._shape)
        consuming = sum(
            (v.ndim if (isinstance(v, (Tensor, np.ndarray)) and v.dtype == bool) else 1)
            for v in items
            if v is not None and v is not Ellipsis
        )
        out, axis = [], 0
        for v in items:
            if v is None:
                continue
            if v is Ellipsis:
                axis += ndim - consuming
            elif isinstance(v, (Tensor, np.ndarray)) and v.dtype == bool:
                axis += v.ndim
            else:
                if _integer(v):
                    out.append((v, axis))
                axis += 1
        return out
    if node.kind == "call" and node.fn is np.take and len(node.args) >= 2:
        mode = node.kwargs.get("mode", node.args[4] if len(node.args) > 4 else "raise")
        axis = node.kwargs.get("axis", node.args[2] if len(node.args) > 2 else None)
        if mode == "raise" and _integer(node.args[1]) and (axis is None or type(axis) is int):
            return [(node.args[1], axis)]
    if node.kind == "helper" and node.fn is ufunc_at and _integer(node.args[1]):
        return [(node.args[1], 0)]  # `np.add.at(a, i, v)` (trace.tensors.inplace)
    if node.kind == "call" and node.fn is np.delete and len(node.args) >= 2:
        # One index known only when it runs (`np.delete(a, j)`); other indices jnp.delete has.
        obj = node.args[1]
        axis = node.kwargs.get("axis", node.args[2] if len(node.args) > 2 else None)
        if isinstance(obj, Tensor) and not obj.shape and _integer(obj):
            if axis is None or type(axis) is int:
                return [(obj, axis)]
    return []


def size(array, axis):
    """The length the index is checked against (traced by JAX, so static)."""
    import jax.numpy as jnp

    return jnp.size(array) if axis is None else jnp.shape(array)[axis]


def inbounds(index, n):
    import jax.numpy as jnp

    index = jnp.asarray(index)
    return jnp.all((index >= -n) & (index < n))


def recorder(axis):
    """A host callback `(err, index, n)` keeping NumPy's IndexError for the first index out of
    bounds (only the first error of a call counts, as with `raise`)."""
    slot: list = []

    def record(err, index, n):
        if bool(err) or slot:
            return
        index, n = np.asarray(index).ravel(), int(n)
        bad = index[(index < -n) | (index >= n)]
        if not bad.size:
            return
        message = f"index {int(bad[0])} is out of bounds for axis {axis or 0} with size {n}"
        slot.append((IndexError(message), record.node))

    record.slot = slot
    return record
