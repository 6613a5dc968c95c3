"""Checks of float-to-integer conversions: XLA converts a NaN, an infinity or a float out of
range silently, where eager Python and NumPy raise. (And of np.stack of lists that may hold no
items, kept where nothing reads the result: `empty_stack`.)

`int(t)` and `round(t)` of a float raise `ValueError` (NaN) or `OverflowError` (infinity);
storing one float into an integer array (`buf[0] = v`) raises them too, or NumPy's
`OverflowError` for a value out of the dtype's range. The lowered code tests, when it runs,
whether the value is finite (and, for a store, in range); where it is not, a host callback
replays the conversion with Python and NumPy, which decides whether eager code raises and keeps
its exception. The error flag is set only then, and the program raises the exception after the
call, as for the user's own `raise` (and the index checks of `bounds.py`).
"""

from __future__ import annotations

import builtins

import numpy as np

from autoconv.graph.eager_types import eager_type
from autoconv.graph.helpers import set_copy
from autoconv.graph.tensor import Tensor


def checked_value(node) -> Tensor | None:
    """The float value `node` converts to an integer in a way eager code may raise on, or
    None: `int(v)`, `round(v)` (no digits), or one float stored into an integer array with
    integer and slice keys (NumPy converts such a value as Python does; an array of values, or
    a list of indices, is cast without a check)."""
    if node.kind != "helper":
        return None
    args = node.args
    if node.fn in (builtins.int, builtins.round) and len(args) == 1:
        value = args[0]
        return value if _float_scalar(value) else None
    if node.fn is set_copy and len(args) == 3:
        target, key, value = args
        if np.dtype(getattr(target, "dtype", np.float64)).kind not in "iu":
            return None
        if not _float_scalar(value) or eager_type(value) is np.ndarray:
            return None
        keys = key if isinstance(key, tuple) else (key,)
        if all(_basic(k) for k in keys):
            return value
    return None


def _float_scalar(v) -> bool:
    return isinstance(v, Tensor) and v.dtype.kind == "f" and v.shape == ()


def _basic(k) -> bool:
    if isinstance(k, Tensor):
        return k.shape == () and k.dtype.kind in "iu"
    return k is None or k is Ellipsis or type(k) in (int, slice) or isinstance(k, np.integer)


def suspect(value, dtype=None):
    """On the device: whether `value` may fail to convert (not finite, or out of the range of
    the integer `dtype` it is stored into); the host decides."""
    import jax.numpy as jnp

    bad = ~jnp.isfinite(value)
    if dtype is not None:
        info = np.iinfo(dtype)
        bad = bad | (value <= float(info.min) - 1) | (value >= float(info.max) + 1)
    return bad


def recorder(node):
    """A host callback `(err, value) -> bool` that replays the conversion of `node` on the
    value and keeps the exception eager code raises (only the first error of a call counts)."""
    fn = node.fn
    target = node.args[0].dtype if fn is set_copy else None

    def replay(value):
        value = np.asarray(value)[()]
        if target is None:
            fn(value)
        else:
            np.zeros(1, target)[0] = value

    return replayer(node, replay)


def replayer(node, replay):
    """A host callback `(err, *values) -> bool`: `replay(*values)` does what eager code does
    there; its ValueError or OverflowError is kept (the first error of a call only)."""
    slot: list = []

    def record(err, *values):
        if bool(err) or slot:
            return False
        try:
            replay(*values)
        except (ValueError, OverflowError) as e:
            slot.append((e, node))
            return True
        return False

    record.slot = slot
    record.node = node
    return record


def empty_stack(node, plan):
    """`(NumPy function, lists)` of a node that stacks only lists grown when the graph runs,
    which may hold no items then (np.stack([]) raises ValueError), kept for that check
    (`node.effect`); None for other nodes."""
    if not node.effect or node.kind != "helper" or not node.args:
        return None
    from autoconv.backends.jax.lists import stacker_func

    func = stacker_func(node)
    template = node.args[0]
    if func is None or type(template) is not list or not template:
        return None
    if not all(isinstance(t, Tensor) and plan.is_list(t) for t in template):
        return None
    if any((plan.count(t) or 0) > 0 for t in template):
        return None  # an item is always there
    return func, template
