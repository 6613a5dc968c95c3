"""`Tensor`: the symbolic value seen inside a trace.

A Tensor is one output of a graph node. It knows its static shape (`None` for a dimension only
known at run time) and its NumPy dtype, and nothing else: every operation on it, through NumPy
(`__array_ufunc__`, `__array_function__`), Python operators, indexing or methods, adds a node to
the graph being traced (see `numpy_dispatch`).
"""

from __future__ import annotations

import numpy as np

from autoconv.graph.errors import StagingError, where


class Tensor:
    """A symbolic array inside a trace: a static `shape` (entries may be None) and a `dtype`.

    Use it as you would a NumPy array: `np.sum(t)`, `t @ w`, `t[1:, None]`, `t.astype(...)`.
    It has no value while tracing, so it cannot be used as a Python `bool`, converted to an
    ndarray or iterated outside converted control flow.
    """

    __slots__ = ("id", "shape", "dtype", "node", "graph", "index", "weak", "__weakref__")
    __array_priority__ = 1000.0

    def __init__(self, graph, node, index, shape, dtype, weak=False):
        # weak: the run-time value is a Python bool/int/float/complex (a loop counter, a flag),
        # which NumPy treats as a weak scalar (NEP 50), exactly as eager code would.
        self.weak = weak
        self.graph = graph
        self.node = node
        self.index = index
        self.id = graph.new_id()
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)

    # --- static facts -------------------------------------------------------------------
    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self):
        """The number of elements: an int when the shape is known, else a Tensor."""
        return np.size(self)

    @property
    def T(self) -> Tensor:  # noqa: N802 - NumPy's spelling
        return _d.method(self, "T", (), {}, attr=True)

    def __repr__(self):
        return f"<autoconv.Tensor %{self.id} {format_spec(self.shape, self.dtype, self.weak)}>"

    __hash__ = object.__hash__

    # --- NumPy protocols --------------------------------------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _d.ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return _d.function(func, args, kwargs)

    def __array__(self, dtype=None, copy=None):
        raise StagingError(
            f"{_here()}: a symbolic Tensor ({self!r}) cannot become a NumPy array while "
            "tracing (np.asarray / np.array / float() need a value). Apply NumPy functions "
            "to it directly (np.sum(t), t + 1, ...): they are recorded in the graph."
        )

    def __bool__(self):
        raise StagingError(
            f"{_here()}: a symbolic Tensor ({self!r}) was used as a Python bool. Its value is "
            "only known when the graph runs. In code that autoconv converts (autoconv.function "
            "with autograph=True) `if`, `while`, `and`, `or` and `x if c else y` on Tensors "
            "are staged for you; elsewhere use np.where(cond, a, b), or convert the function "
            "with autoconv.convert."
        )

    def __iter__(self):
        raise StagingError(
            f"{_here()}: a symbolic Tensor ({self!r}) cannot be iterated in code that is not "
            "converted. A `for` loop over a Tensor in converted code (autoconv.function with "
            "autograph=True) is staged as a loop over its first axis; elsewhere index it "
            "(t[i]) or use NumPy functions on the whole array."
        )

    def __len__(self):
        if self.shape and self.shape[0] is not None:
            return self.shape[0]
        raise StagingError(
            f"{_here()}: len() of a Tensor whose first dimension is unknown until run time "
            f"({self!r}). Use np.shape(t)[0], which gives a Tensor (range() accepts it in "
            "converted loops)."
        )

    def _no_python_number(self, *args, **kwargs):
        raise StagingError(
            f"{_here()}: a symbolic Tensor ({self!r}) was converted to a Python number "
            "(int(), float(), an index or a format). Its value is only known when the graph "
            "runs: keep it as a Tensor, or use autoconv.print to show it."
        )

    __int__ = __float__ = __complex__ = __index__ = _no_python_number

    def __setitem__(self, key, value):
        raise StagingError(
            f"{_here()}: Tensors are immutable: `t[...] = v` cannot be staged. Build a new "
            "array instead, e.g. np.where(mask, v, t), or np.concatenate of the pieces."
        )

    def __getitem__(self, key):
        return _d.getitem(self, key)

    # --- NumPy array methods (recorded as method calls, exactly as eager NumPy runs them) ---
    def astype(self, dtype, *args, **kwargs):
        return _d.method(self, "astype", (dtype, *args), kwargs)

    def reshape(self, *shape, **kwargs):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = (tuple(shape[0]),)  # one tuple argument, as written (`reshape(())` too)
        return _d.method(self, "reshape", shape, kwargs)

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            axes = () if axes[0] is None else tuple(axes[0])
        return _d.method(self, "transpose", axes, {})

    def __getattr__(self, name):
        if name in _d.ARRAY_METHODS:
            return lambda *args, **kwargs: _d.method(self, name, args, kwargs)
        raise AttributeError(f"'Tensor' object has no attribute {name!r}")


PY_TYPES = {"b": bool, "i": int, "f": float, "c": complex}


def format_spec(shape, dtype, weak=False) -> str:
    """`float32[None, 3]`: the short form of a shape and dtype used in listings and errors
    (`int` etc. for a Python scalar)."""
    if weak:
        return PY_TYPES[np.dtype(dtype).kind].__name__
    dims = ", ".join("None" if d is None else str(d) for d in shape)
    return f"{np.dtype(dtype).name}[{dims}]"


def _here() -> str:
    from autoconv.graph.origin import user_origin

    return where(user_origin(2))


_BINARY = {
    "add": ("+", np.add),
    "sub": ("-", np.subtract),
    "mul": ("*", np.multiply),
    "truediv": ("/", np.true_divide),
    "floordiv": ("//", np.floor_divide),
    "mod": ("%", np.remainder),
    "pow": ("**", np.power),
    "matmul": ("@", np.matmul),
    "and": ("&", np.bitwise_and),
    "or": ("|", np.bitwise_or),
    "xor": ("^", np.bitwise_xor),
    "lshift": ("<<", np.left_shift),
    "rshift": (">>", np.right_shift),
}
_COMPARE = {
    "lt": ("<", np.less),
    "le": ("<=", np.less_equal),
    "gt": (">", np.greater),
    "ge": (">=", np.greater_equal),
    "eq": ("==", np.equal),
    "ne": ("!=", np.not_equal),
}
_UNARY = {
    "neg": ("-", np.negative),
    "pos": ("+", np.positive),
    "invert": ("~", np.invert),
    "abs": ("abs", np.absolute),
}


def _install_operators():
    def binary(symbol, ufunc, reflected):
        if reflected:
            return lambda self, other: _d.binop(symbol, ufunc, other, self)
        return lambda self, other: _d.binop(symbol, ufunc, self, other)

    for name, (symbol, ufunc) in _BINARY.items():
        setattr(Tensor, f"__{name}__", binary(symbol, ufunc, False))
        setattr(Tensor, f"__r{name}__", binary(symbol, ufunc, True))
    for name, (symbol, ufunc) in _COMPARE.items():
        setattr(Tensor, f"__{name}__", binary(symbol, ufunc, False))
    for name, (symbol, ufunc) in _UNARY.items():
        setattr(Tensor, f"__{name}__", lambda self, s=symbol, u=ufunc: _d.unop(s, u, self))


_install_operators()

from autoconv.graph import numpy_dispatch as _d  # noqa: E402 - the two modules refer to each other
