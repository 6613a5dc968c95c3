"""NumPy's random numbers in a JAX program: each draw is an ordered host callback.

XLA's generators draw other streams than NumPy's, so a draw cannot become a `jax.random` call
and keep eager's numbers. Instead each random node of the graph (trace/tensors/random.py) becomes a
`jax.experimental.io_callback` with `ordered=True`: the host makes the very call eager code
makes, on the same generator object, in program order, once per run of its line (once per
iteration in a loop, only on the path taken in a branch). So `np.random.seed(0); f(x)` gives
exactly the numbers, dtypes and generator state that eager code gives. The price is a host
round trip per draw (and a device transfer of its result on a GPU).

Generators made inside the function (`np.random.default_rng(seed)`) live on the host for the
length of a call, in the program's `objects`. A draw that raises (a bad argument) records the
eager exception, sets the error flag and the program raises it after the call, as for the
user's own `raise`; draws after an error are skipped, so the generator's state is eager's too.
"""

from __future__ import annotations

import random as _pyrandom

import jax
import numpy as np

from autoconv.backends.jax.errors import lowering_error
from autoconv.backends.jax.host import HostValues
from autoconv.graph.graph import map_tensors, tensors_in
from autoconv.graph.helpers import generator_state, set_generator_state


def is_draw(node) -> bool:
    """Whether `node` calls a random function or makes a generator (trace/tensors/random.py)."""
    return "random" in node.attrs


class Draw:
    """The host side of one random node: `draw(*arrays)` makes the node's call with the
    arguments' eager values and gives its results, then a flag that is true when it raised.

    `objects` maps the Tensors of generators made by the graph to the objects of this call;
    it is shared by all draws of a program."""

    def __init__(self, node, plan, objects: dict):
        self.node = node
        self.objects = objects
        for t in node.outputs:
            if None in t.shape:
                raise lowering_error(
                    node,
                    "the number of values it draws is known only when the graph runs, and XLA "
                    "needs every size while compiling; give `size` from a Python int or a shape",
                )
        inputs = tensors_in((node.args, node.kwargs))
        self.made = [t for t in inputs if t.node is not None and is_draw(t.node)]
        made = {t.id for t in self.made}
        self.values = HostValues([t for t in inputs if t.id not in made], plan)
        self.results = [t for t in node.outputs if t.dtype != object]
        self.slot: list = []  # the exception of a failed draw, raised after the call
        # Arguments with no Tensor in them (the common `size=(3, 2)`) are passed as they are,
        # as eager code passes its constants.
        self._fixed = None if inputs else (node.args, node.kwargs)

    @property
    def device(self) -> list:
        """The device Tensors the callback takes."""
        return self.values.device

    def specs(self) -> tuple:
        """The `jax.ShapeDtypeStruct`s of the callback's results (the failed flag last)."""
        out = [jax.ShapeDtypeStruct(*_sent(t)) for t in self.results]
        return (*out, jax.ShapeDtypeStruct((), np.bool_))

    def arrive(self, outs) -> tuple:
        """The callback's results on the device, in the dtypes of the graph."""
        return tuple(
            jax.lax.bitcast_convert_type(v, t.dtype) if _wide(t.dtype) else v
            for t, v in zip(self.results, outs)
        )

    def __call__(self, *arrays):
        node = self.node
        if self._fixed is not None:
            args, kwargs = self._fixed
        else:
            env = self.values.env(arrays)
            for t in self.made:
                env[t.id] = self.objects[t.id]
            args = map_tensors(node.args, lambda x: self.values.value(x, env))
            kwargs = map_tensors(node.kwargs, lambda x: self.values.value(x, env))
        try:
            if node.kind == "method":
                result = getattr(args[0], node.fn)(*args[1:], **kwargs)
            else:
                result = node.fn(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 - the user's error, raised after the call
            self.slot.append((e, node))
            return self.nothing(True)
        outs = node.outputs
        values = result if len(outs) > 1 else (result,)
        found = []
        for t, v in zip(outs, values):
            if t.dtype == object:
                self.objects[t.id] = v
            else:
                found.append(_send(np.asarray(v, dtype=t.dtype), t))
        return (*found, np.bool_(False))

    def nothing(self, failed=False):
        """Results that stand for no draw (on the host and, traced, on the device)."""
        zeros = [np.zeros(*_sent(t)) for t in self.results]
        return (*zeros, np.bool_(failed))

    # --- for a program that runs a call again (lists.py's growing buffers) ----------------
    def save(self):
        """The state of the generator this draw uses, where it outlives the call."""
        owner = getattr(self.node.fn, "__self__", None)
        if isinstance(owner, (np.random.RandomState, np.random.Generator, _pyrandom.Random)):
            return owner, generator_state(owner)
        return None  # a generator made by the graph: made anew on each run

    def restore(self, token) -> None:
        if token is not None:
            set_generator_state(*token)


# 64-bit results cross from the host as 32-bit words, bit for bit: under a local `enable_x64`
# (program.x64) an io_callback giving 64-bit values to a program split over several devices
# never returns (JAX 0.10); 32-bit ones do, and `bitcast_convert_type` costs nothing.


def _wide(dtype) -> bool:
    return dtype.itemsize == 8 and dtype.kind in "iuf"


def _sent(t) -> tuple:
    """The shape and dtype in which the host sends `t`'s value."""
    if _wide(t.dtype):
        return (*t.shape, 2), np.dtype(np.uint32)
    return t.shape, t.dtype


def _send(array, t):
    if _wide(t.dtype):
        return np.ascontiguousarray(array).reshape(*t.shape, 1).view(np.uint32)
    return array
