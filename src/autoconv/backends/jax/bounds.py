"""Index checks: XLA clamps an index that is out of bounds, where NumPy raises `IndexError`.

For each integer index that is known only when the graph runs (a Tensor, or a constant integer
array) the lowered code checks, when it runs, that it lies in `[-n, n)` for its axis; where it
does not, a host callback keeps the `IndexError` eager NumPy raises (with NumPy's message), the
error flag stops loops, and the program raises it after the call, as for the user's own
`raise`. `np.take` with its default `mode="raise"` is checked the same way.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph.tensor import Tensor


def _integer(v) -> bool:
    if isinstance(v, Tensor):
        return v.dtype.kind in "iu"
    return isinstance(v, np.ndarray) and v.dtype.kind in "iu"


def checks(node) -> list:
    """`(index, axis)` for each index of `node` to check (`axis` None: `np.take` over the
    flattened array); the array indexed is `node.args[0]`."""
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
