"""Values the device cannot hold, made on the host from device results.

Formatting a message (`f"loss {x}"`), the user's `raise` with such a message, and choosing the
Python kind of an optional or mixed value are plain Python. The lowered JAX code keeps them out:
the device values they read are passed to a host callback (prints, raises) or returned (outputs),
and `HostValues` evaluates those nodes with NumPy there, as the NumPy backend runs them.
"""

from __future__ import annotations

import numpy as np

from autoconv.backends.jax import tagged as _tagged
from autoconv.backends.jax.branch_stacks import host_value as branch_value
from autoconv.backends.jax.errors import LoweringError
from autoconv.graph.eager_types import eager_type
from autoconv.graph.errors import where
from autoconv.graph.graph import map_tensors
from autoconv.graph.helpers import (
    LIST_METHODS,
    POPS,
    list_item,
    mixed_output,
    parse_number,
    render,
    str_method,
)
from autoconv.graph.helpers import optional_output as output
from autoconv.graph.tensor import Tensor

HOST_FNS = frozenset((render, output, mixed_output, parse_number, str_method))

CHOICE_FNS = frozenset((output, mixed_output))


class Overflow(Exception):  # noqa: N818 - a signal inside the program, never shown to users
    """A list grown in a loop with no bound held more items than its buffer (`lists.py`): the
    attempt's results are void, and the program runs again with a larger buffer."""


def is_host(node, plan=None) -> bool:
    """Whether a node is evaluated on the host (its value is a string or a Python choice).
    `plan` (a `lists.ListPlan`): run-time lists of strings are on the device (indices), and
    so are the nodes that change them."""
    if node.kind == "helper" and (node.fn in HOST_FNS or node.attrs.get("raises")):
        return True
    if plan is not None and plan.bounds and any(plan.is_list(t) for t in node.outputs):
        return False
    if plan is not None and node.kind in ("cond", "while") and _handles(plan):
        handles = plan.handles  # its strings are handles on the device (string_handles.py)
        return any(t.dtype.kind == "O" and t.id not in handles for t in node.outputs)
    return any(t.dtype.kind == "O" for t in node.outputs)


def _handles(plan) -> bool:
    return bool(getattr(plan, "handles", None))


def to_eager(t: Tensor, value):
    """A device (or NumPy) value of `t` as the type eager NumPy gives it: an ndarray, a NumPy
    scalar, or a Python number (for a weak Tensor)."""
    if isinstance(value, (list, tuple)):
        return value
    kind = None if numpy_valued(t) else eager_type(t)
    array = np.asarray(value)
    if array.dtype != t.dtype and t.dtype != object:
        array = array.astype(t.dtype)
    if kind is np.ndarray or (kind is None and array.ndim):
        return np.array(array)  # writable, as NumPy's own results
    if kind in (bool, int, float, complex):
        return kind(array.item())
    return array[()]


def numpy_valued(t: Tensor) -> bool:
    """A number read from a run-time list (an item, its sum, max or min): its value as NumPy
    gives it, the Python type eager code has coming from its kind tag (`reads.lower_tag`)."""
    node = t.node
    if node is None or node.kind != "helper" or t.shape:
        return False
    if node.fn is list_item:
        return True
    args = node.args
    return node.op in ("sum", "max", "min") and len(args) >= 3 and type(args[0]) is list


def _host_read(t, node, plan) -> bool:
    """A tuple read from a run-time list, or a string popped from one, for the host: read
    there from the list's items (its strings are indices on the device)."""
    if plan is None or node.kind != "helper":
        return False
    if node.fn is list_item:
        return t.dtype.fields is not None
    popped = node.fn in POPS and t is node.outputs[-1]
    return popped and (t.dtype.kind == "O" or t.dtype.fields is not None)


_POP = LIST_METHODS["pop"]


def list_items(plan, t: Tensor, value, keep=False) -> list:
    """The items of run-time list `t` (a `(buffer, count)` pair from the device) as eager code
    holds them: NumPy scalars, Python numbers or arrays as they were appended (`keep`: the
    device's own arrays)."""
    buffer, count = value  # (within the buffer: `HostValues.env` raised `Overflow` else)
    count = int(np.asarray(count))
    made = plan.eager_items(t, buffer, count)  # tuples, strings
    if made is not None:
        return made
    table = plan.tags(t)
    if table is not None:  # Python and NumPy numbers, each item's type tagged (tagged.py)
        return _tagged.items(table, buffer, count)
    kind = plan.item_kind(t)
    if kind is None and len(plan.family(t).kinds) > 1:
        fam = plan.family(t)
        raise LoweringError(
            f"{where(fam.origin)}: {plan.describe(t)} holds items of several Python types "
            "(Python numbers and NumPy values, by the path each took), which this backend's "
            "one buffer does not keep: use autoconv.function(..., backend='numpy'), or append "
            "one kind of number (int(u), np.int64(u))."
        )
    if keep and kind not in (bool, int, float, complex):  # Python numbers stay numbers
        return [buffer[i] for i in range(count)]
    array = np.asarray(buffer)[:count]
    if kind in (bool, int, float, complex):
        return [kind(x) for x in array.tolist()]
    if kind is np.ndarray:
        return [np.array(row) for row in array]
    return list(array)  # NumPy scalars of the list's dtype (one row each for arrays)


class HostValues:
    """The device Tensors that `targets` (host-node results or device values) need, and
    `values(device_arrays)`: each target's eager value, host nodes evaluated on the way.
    `plan` (a `lists.ListPlan`): run-time lists come as `(buffer, count)` pairs, and the
    stacking of lists whose lengths are known only at run time is done here."""

    def __init__(self, targets, plan=None, through=False):
        """`through`: the targets are strings the device keeps as handles, made here from
        their inputs (string_handles.py); other such strings are read as handles."""
        self.device: list[Tensor] = []
        self.plan = plan
        host_nodes = plan.host_nodes if plan is not None else ()
        handles = plan.handles if plan is not None and _handles(plan) else ()
        self.handles = handles
        seen: set = set()
        roots = {t.id for t in targets} if through else ()

        def need(t):
            if t.id in seen:
                return
            seen.add(t.id)
            node = t.node
            if t.id in handles and t.id not in roots:
                if node is None or node.kind != "const":
                    self.device.append(t)
                return
            if (
                node is not None
                and node.kind != "const"
                and (is_host(node, plan) or id(node) in host_nodes or _host_read(t, node, plan))
            ):
                if node.fn is None and node.kind in ("cond", "while"):
                    raise LoweringError(
                        f"{where(node.origin)}: a string made when the graph runs (an f-string) "
                        "is chosen by a staged branch or loop here; this backend makes such "
                        "strings on the host after the XLA program and cannot choose between "
                        "them there. Use autoconv.function(..., backend='numpy'), or make the "
                        "string after the branch or loop from the numbers it chose."
                    )
                for x in node.inputs:
                    need(x)
            elif node is None or node.kind != "const":
                self.device.append(t)

        for t in targets:
            need(t)

    def env(self, arrays, keep=False) -> dict:
        """Each device Tensor's value as eager code has it (`keep`: lists of device arrays;
        other values are left to the caller). Run-time lists are kept as they came, for
        `value` (raises `lists.Overflow` where one outgrew its buffer)."""
        plan = self.plan
        out = {}
        for t, a in zip(self.device, arrays):
            if t.id in self.handles:
                out[t.id] = plan.strings.get(np.asarray(a))
            elif plan is not None and plan.is_list(t):
                if plan.overflowed(t, a):
                    raise Overflow  # items past the buffer were never written: run again
                # Its items are made when something reads them (`value`): a stack of the
                # list is a slice of the buffer.
                buffer = a[0] if keep else _numpy(a[0])
                out[_BUFFER, t.id] = (buffer, a[1], keep)
            elif plan is not None and t.id in plan.branch_results:
                # a stack returned from inside a branch: its list's pair (branch_stacks.py)
                if plan.overflowed(plan.branch_results[t.id], a):
                    raise Overflow
                out[t.id] = branch_value(a, keep)
            elif not keep:
                out[t.id] = to_eager(t, a)
        return out

    def value(self, t, env: dict):
        """The eager value of `t`, given the device values in `env` (host nodes evaluated)."""
        if not isinstance(t, Tensor):
            return t
        if t.id in env:
            return env[t.id]
        raw = env.get((_BUFFER, t.id))
        if raw is not None:
            buffer, count, keep = raw
            items = env[t.id] = list_items(self.plan, t, (buffer, count), keep)
            return items
        node = t.node
        if node.kind == "const":
            v = node.attrs["value"]
            return v.copy() if isinstance(v, np.ndarray) else v
        plan = self.plan
        stacks = plan is not None and id(node) in plan.host_nodes  # a stack of run-time lists
        if stacks:
            found = _stacked(plan, node, env)
            if found is not None:
                env[t.id] = found
                return found
        args = map_tensors(node.args, lambda x: self.value(x, env))
        kwargs = map_tensors(node.kwargs, lambda x: self.value(x, env))
        if node.fn is _POP:  # the item a pop gives: the list's before it
            result = list_item(*args[:3], args[3] if len(args) > 3 else -1)
            env[t.id] = result
            return result
        if node.fn in POPS:  # heapq's: the item it gives back (`heap_changes.py`)
            result = node.fn(*args, **kwargs)[1]
            env[t.id] = result
            return result
        result = node.fn(*args, **kwargs)
        to_device = env.get(TO_DEVICE)
        if to_device is not None and stacks:
            result = to_device(result)  # for `keep_on_device`
        env[t.id] = result
        return result


def _numpy(buffer):
    if isinstance(buffer, (tuple, list)):  # a list of tuples: a buffer per item
        return tuple(np.asarray(b) for b in buffer)
    return np.asarray(buffer)


_BUFFER = "buffer"  # env[_BUFFER, id]: a run-time list's `(buffer, count)` as it came back
# env[TO_DEVICE]: with `keep_on_device`, puts an array stacked on the host onto the device
TO_DEVICE = ("to device",)


def _stacked(plan, node, env):
    """`np.stack(lst)` / `np.array(lst)` of one run-time list as a slice of its buffer (on the
    device with `keep_on_device`), where that is exactly what NumPy gives (else None)."""
    if id(node) not in plan.plain_stacks:
        return None
    raw = env.get((_BUFFER, node.args[0][0].id))
    if raw is None:
        return None
    buffer, count, _ = raw
    count = int(np.asarray(count))
    if count == 0 or isinstance(buffer, tuple) or buffer.dtype != node.outputs[0].dtype:
        return None  # np.array([]) is float64, np.stack([]) raises: NumPy's own call decides
    if isinstance(buffer, np.ndarray):
        return buffer[:count].copy()  # writable, as NumPy's own result
    return buffer[:count]  # kept on the device
