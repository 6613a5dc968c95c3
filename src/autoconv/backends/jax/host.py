"""Values the device cannot hold, made on the host from device results.

Formatting a message (`f"loss {x}"`), the user's `raise` with such a message, and choosing the
Python kind of an optional or mixed value are plain Python. The lowered JAX code keeps them out:
the device values they read are passed to a host callback (prints, raises) or returned (outputs),
and `HostValues` evaluates those nodes with NumPy there, as the NumPy backend runs them.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph.eager_types import eager_type
from autoconv.graph.graph import map_tensors
from autoconv.graph.optionals import mixed_output, output
from autoconv.graph.printing import _render
from autoconv.graph.tensor import Tensor

HOST_FNS = frozenset((_render, output, mixed_output))
CHOICE_FNS = frozenset((output, mixed_output))


def is_host(node) -> bool:
    """Whether a node is evaluated on the host (its value is a string or a Python choice)."""
    if node.kind == "helper" and (node.fn in HOST_FNS or node.attrs.get("raises")):
        return True
    return any(t.dtype == object for t in node.outputs)


def to_eager(t: Tensor, value):
    """A device (or NumPy) value of `t` as the type eager NumPy gives it: an ndarray, a NumPy
    scalar, or a Python number (for a weak Tensor)."""
    if isinstance(value, (list, tuple)):
        return value
    kind = eager_type(t)
    array = np.asarray(value)
    if array.dtype != t.dtype and t.dtype != object:
        array = array.astype(t.dtype)
    if kind is np.ndarray or (kind is None and array.ndim):
        return np.array(array)  # writable, as NumPy's own results
    if kind in (bool, int, float, complex):
        return kind(array.item())
    return array[()]


class HostValues:
    """The device Tensors that `targets` (host-node results or device values) need, and
    `values(device_arrays)`: each target's eager value, host nodes evaluated on the way."""

    def __init__(self, targets):
        self.device: list[Tensor] = []
        seen: set = set()

        def need(t):
            if t.id in seen:
                return
            seen.add(t.id)
            node = t.node
            if node is not None and node.kind != "const" and is_host(node):
                for x in node.inputs:
                    need(x)
            elif node is None or node.kind != "const":
                self.device.append(t)

        for t in targets:
            need(t)

    def env(self, arrays) -> dict:
        return {t.id: to_eager(t, a) for t, a in zip(self.device, arrays)}

    def value(self, t, env: dict):
        """The eager value of `t`, given the device values in `env` (host nodes evaluated)."""
        if not isinstance(t, Tensor):
            return t
        if t.id in env:
            return env[t.id]
        node = t.node
        if node.kind == "const":
            v = node.attrs["value"]
            return v.copy() if isinstance(v, np.ndarray) else v
        args = map_tensors(node.args, lambda x: self.value(x, env))
        kwargs = map_tensors(node.kwargs, lambda x: self.value(x, env))
        result = node.fn(*args, **kwargs)
        env[t.id] = result
        return result
