"""`Variable`: mutable state that traced functions read and update at run time.

Inside a trace, every use of a Variable records a `read` node and every `assign*` an `assign`
node with an effect; the executor runs them in program order, so a graph always sees the
current value (never one frozen at trace time) and its updates are visible after the call.
Outside a trace a Variable behaves as the NumPy array it holds.

Updates are atomic across threads. Each Variable has a lock, held by every store of its value
and, in `assign_add`/`assign_sub`, from the read to the store, so that threads adding at once
lose no update. A graph's update holds it likewise from the read its value depends on to the
store (the NumPy executor writes that run of operations under `with var._lock:`; a JAX program
holds the locks of the Variables it assigns from reading their values to storing the results).
Code holding several locks takes them in the Variables' creation order (`in_lock_order`), so two
threads never wait for each other. Reading a value takes no lock: it is one attribute load, and
an update stores a new array rather than writing into the one a reader may hold.
"""

from __future__ import annotations

import itertools
import operator

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import tensor as _tensor
from autoconv.graph.errors import StagingError, where
from autoconv.graph.origin import user_origin
from autoconv.locks import new_rlock

_names = itertools.count()
_order = itertools.count()  # creation order: the order in which several locks are taken


class Variable:
    """Mutable array state: `assign`, `assign_add`, `assign_sub`, `numpy()`.

    Usable wherever an array is (`np.asarray(v)`, `v + 1`, `np.sum(v)`, `x @ v`); inside an
    `autoconv.function` those uses read the value when the graph runs.
    """

    __array_priority__ = 2000.0

    def __init__(self, initial_value, dtype=None, name: str | None = None, trainable: bool = True):
        from autoconv.graph.tensor import Tensor

        # Reentrant: `_set` takes it again inside a graph's locked update.
        self._lock = new_rlock()
        self._order = next(_order)
        if callable(initial_value):
            initial_value = initial_value()
        self.name = name or f"Variable_{next(_names)}"
        self.trainable = trainable
        if _g.building():
            # Created while a graph is traced: the graph (re)creates it each time it runs.
            self._init_in_graph(initial_value, dtype, user_origin(2))
            return
        if isinstance(initial_value, Tensor):
            raise StagingError(
                f"{where(user_origin(2))}: a Variable cannot be created from a Tensor of "
                "another trace. Create it from an array, or inside the function that uses it."
            )
        if isinstance(initial_value, Variable):
            initial_value = initial_value._value
        self._value = np.array(initial_value, dtype=dtype)

    def _init_in_graph(self, initial_value, dtype, origin):
        """Records, where the Variable is created, an `assign` node that gives it its initial
        value whenever the graph runs, as each eager call makes a new Variable there. (A trace
        that creates Variables is run once only; see `Function`: the next call traces again,
        so a Variable created on the first call and kept on an object persists, as eagerly.)"""
        from autoconv.graph import shapes
        from autoconv.graph.tensor import Tensor

        if isinstance(initial_value, Variable):
            initial_value = initial_value._read_tensor()
        elif type(initial_value) in (list, tuple) and _g.tensors_in(initial_value):
            initial_value = _stacked(initial_value)
        if isinstance(initial_value, Tensor):
            if None in initial_value.shape:
                raise StagingError(
                    f"{where(origin)}: Variable {self.name!r} is created from a Tensor of shape "
                    f"{shapes.fmt(initial_value.shape)}, whose size is only known when the graph "
                    "runs; a Variable needs a fixed shape. Trace with a fully known shape (no "
                    "None in the input_signature) or create the Variable outside the function."
                )
            self._value = np.zeros(initial_value.shape, dtype or initial_value.dtype)
            value = initial_value
            if value.dtype != self._value.dtype or value.weak:
                value = value.astype(self._value.dtype)
        else:
            self._value = np.array(initial_value, dtype=dtype)
            node = _g.Node("const", "const", attrs={"value": self._value.copy()[()], "owned": True})
            _g.add_node(node, [(self._value.shape, self._value.dtype)], origin)
            value = node.outputs[0]
        node = _g.Node("assign", "assign", args=(value,), attrs={"variable": self, "direct": False})
        node.attrs["creates"] = True
        node.effect = True
        _g.add_node(node, [], origin)
        value.graph.may_create = True

    # --- facts ------------------------------------------------------------------------------
    @property
    def dtype(self) -> np.dtype:
        return self._value.dtype

    @property
    def shape(self) -> tuple:
        return self._value.shape

    @property
    def ndim(self) -> int:
        return self._value.ndim

    @property
    def size(self) -> int:
        return self._value.size

    def _repr_html_(self) -> str:
        from autoconv.graph import display

        return display.variable_html(self)

    def __repr__(self):
        value = np.asarray(self._value)
        return (
            f"<autoconv.Variable {self.name!r} shape={self.shape} dtype={self.dtype.name}, "
            f"numpy={value!r}>"
        )

    def __str__(self):
        return str(self._value)

    __hash__ = object.__hash__

    def __getstate__(self):
        state = self.__dict__.copy()
        state.pop("_lock", None)  # a copy gets a lock (and a place in the order) of its own
        state.pop("_order", None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = new_rlock()
        self._order = next(_order)

    # --- reading ----------------------------------------------------------------------------
    def _read_tensor(self):
        node = _g.Node("read", "read", attrs={"variable": self})
        _g.add_node(node, [(self.shape, self.dtype)], user_origin(2))
        return node.outputs[0]

    def _operand(self):
        return self._read_tensor() if _g.building() else self._value

    def read_value(self):
        """The current value: a Tensor read at run time inside a trace, else a copy."""
        return self._read_tensor() if _g.building() else np.array(self._value)

    value = read_value

    def numpy(self):
        """A copy of the current value (a NumPy scalar for shape ())."""
        if _g.building():
            raise StagingError(
                f"{where(user_origin(2))}: Variable.numpy() inside a traced function would "
                f"freeze {self.name!r} at its value during tracing. Use the Variable directly "
                "in NumPy operations (they read it when the graph runs), or read_value()."
            )
        return np.array(self._value)[()]

    def __array__(self, dtype=None, copy=None):
        if _g.building():
            raise StagingError(
                f"{where(user_origin(2))}: np.asarray/np.array of Variable {self.name!r} inside a "
                "traced function would freeze its value at trace time. Use the Variable directly "
                "in NumPy operations instead (np.sum(v), v * 2, x @ v)."
            )
        value = self._value
        if dtype is not None:
            return value.astype(dtype)
        return value.copy() if copy else value

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if _g.building():
            return _tensor.uses.dispatch.ufunc(ufunc, method, inputs, kwargs)
        inputs = tuple(_unwrap(x) for x in inputs)
        kwargs = {k: _unwrap(v) for k, v in kwargs.items()}
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        if _g.building():
            return _tensor.uses.dispatch.function(func, args, kwargs)
        return func(*_unwrap(args), **{k: _unwrap(v) for k, v in kwargs.items()})

    def __getitem__(self, key):
        return self._operand()[key]

    def __bool__(self):
        return bool(self._operand())

    def __len__(self):
        return len(self._value)

    def __float__(self):
        return float(self._operand())

    def __int__(self):
        return int(self._operand())

    def __iter__(self):
        return iter(self._operand())

    # --- updates ----------------------------------------------------------------------------
    def assign(self, value, read_value: bool = True):
        """Sets the value (same shape; cast to the Variable's dtype). Returns the Variable."""
        if _g.building():
            self._assign_node(value)
        else:
            self._set(value)
        return self

    def assign_add(self, delta, read_value: bool = True):
        """Adds `delta` to the value, atomically with respect to other threads. Returns the
        Variable."""
        return self._update(operator.add, delta)

    def assign_sub(self, delta, read_value: bool = True):
        """Subtracts `delta` from the value, atomically with respect to other threads. Returns
        the Variable."""
        return self._update(operator.sub, delta)

    def _update(self, op, delta):
        """`value = op(value, delta)`: recorded while tracing, else under the lock."""
        if _g.building():
            return self.assign(op(self._operand(), _unwrap_or_read(delta)))
        delta = _unwrap(delta)
        with self._lock:
            self._value = self._checked(op(self._value, delta))
        return self

    def _set(self, value):
        value = self._checked(value)
        with self._lock:  # not inside another thread's read-modify-write
            self._value = value

    def _checked(self, value) -> np.ndarray:
        """`value` as a new array of the Variable's shape and dtype (an error if it cannot be)."""
        array = np.asarray(value)
        if array.shape != self._value.shape:
            raise ValueError(
                f"cannot assign a value of shape {array.shape} to Variable {self.name!r} of shape "
                f"{self._value.shape}"
            )
        if not np.can_cast(array.dtype, self.dtype, "same_kind"):
            raise TypeError(
                f"cannot assign a value of dtype {array.dtype.name} to Variable {self.name!r} of "
                f"dtype {self.dtype.name}"
            )
        return np.array(array, dtype=self.dtype)

    def _assign_node(self, value):
        from autoconv.graph import shapes
        from autoconv.graph.tensor import Tensor

        value = _tensor.uses.dispatch.operand(value)
        origin = user_origin(3)
        shape = shapes.shape_of(value)
        dtype = shapes.result_dtype(value)
        if len(shape) != self.ndim or any(
            d is not None and d != s for d, s in zip(shape, self.shape)
        ):
            raise StagingError(
                f"{where(origin)}: cannot assign a value of shape {tuple(shape)} to Variable "
                f"{self.name!r} of shape {self.shape}"
            )
        if not np.can_cast(dtype, self.dtype, "same_kind"):
            raise StagingError(
                f"{where(origin)}: cannot assign a value of dtype {dtype.name} to Variable "
                f"{self.name!r} of dtype {self.dtype.name}"
            )
        direct = (
            isinstance(value, Tensor)
            and value.dtype == self.dtype
            and value.shape == self.shape
            and value.node.kind not in ("placeholder", "read", "const")
        )
        node = _g.Node(
            "assign", "assign", args=(value,), attrs={"variable": self, "direct": direct}
        )
        node.effect = True
        _g.add_node(node, [], origin)


def _stacked(value):
    """A (nested) list of Tensors and numbers as one Tensor, as `np.array` makes it eagerly."""
    if type(value) in (list, tuple):
        return np.stack([_stacked(v) for v in value])
    return value


def creates_variables(graph) -> bool:
    """Whether a traced graph creates Variables (has the `assign` nodes that initialize them)."""
    # (The flag spares the walk over every traced node, 8,000 for a 1,000-step loop.)
    return getattr(graph, "may_create", True) and any(
        node.kind == "assign" and node.attrs.get("creates") for node in graph.walk()
    )


def in_lock_order(variables) -> list:
    """`variables`, each once, in the order in which any code takes several of their locks:
    with one order, no two threads each hold a lock the other waits for."""
    unique = {id(v): v for v in variables}.values()
    return sorted(unique, key=lambda v: v._order)


def _unwrap(value):
    if isinstance(value, Variable):
        return value._value
    if type(value) in (list, tuple):
        return type(value)(_unwrap(v) for v in value)
    return value


def _unwrap_or_read(value):
    return value._operand() if isinstance(value, Variable) else value


def _install_operators():
    binary = {
        "add": operator.add,
        "sub": operator.sub,
        "mul": operator.mul,
        "truediv": operator.truediv,
        "floordiv": operator.floordiv,
        "mod": operator.mod,
        "pow": operator.pow,
        "matmul": operator.matmul,
        "and": operator.and_,
        "or": operator.or_,
        "xor": operator.xor,
        "lshift": operator.lshift,
        "rshift": operator.rshift,
    }
    for name, op in binary.items():
        setattr(
            Variable, f"__{name}__", lambda self, o, op=op: op(self._operand(), _unwrap_or_read(o))
        )
        setattr(
            Variable, f"__r{name}__", lambda self, o, op=op: op(_unwrap_or_read(o), self._operand())
        )
    for name in ("lt", "le", "gt", "ge", "eq", "ne"):
        op = getattr(operator, name)
        setattr(
            Variable, f"__{name}__", lambda self, o, op=op: op(self._operand(), _unwrap_or_read(o))
        )
    for name in ("neg", "pos", "abs", "invert"):
        op = getattr(operator, name)
        setattr(Variable, f"__{name}__", lambda self, op=op: op(self._operand()))
    for name in ("T",):
        setattr(Variable, name, property(lambda self: self._operand().T))


_install_operators()
