"""`Tensor`: the symbolic value seen inside a trace.

A Tensor is one output of a graph node. It knows its static shape (`None` for a dimension only
known at run time) and its NumPy dtype, and nothing else: every operation on it, through NumPy
(`__array_ufunc__`, `__array_function__`), Python operators, indexing or methods, adds a node to
the graph being traced (see `numpy_dispatch`).
"""

from __future__ import annotations

import os
import sys

import numpy as np

from autoconv.graph.errors import StagingError, where
from autoconv.graph.scopes import building

_AUTOCONV = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class _Uses:
    """The modules that give a Tensor its behaviour: `numpy_dispatch` (NumPy calls, operators,
    indexing, methods), `arraylike` (the ndarray protocol as user code sees it), `mutation`
    (in-place operators), `printing` (a Tensor inside `autoconv.print`) and `accumulated`
    (lists a staged loop appended to). They build on Tensor, so each one registers itself here
    when imported (importing `autoconv.graph` imports them all) and this module imports none
    of them: the imports run one way."""

    __slots__ = ("dispatch", "arraylike", "mutation", "printing", "accumulated")


uses = _Uses()


def _internal() -> bool:
    """True when the code that asked the caller of this function is autoconv's own: inside
    autoconv a Tensor is a symbolic value with a static spec; to user code (and to NumPy's own
    Python code) it answers as the eager value would (`__class__`, `shape`)."""
    try:
        return sys._getframe(2).f_code.co_filename.startswith(_AUTOCONV)
    except ValueError:  # asked from C code with no Python caller
        return True


_STDLIB = os.path.dirname(os.path.abspath(os.__file__)) + os.sep
# The standard library's modules whose tables autoconv keeps Tensors in (by identity, as
# autoconv means). Other library code hashing one keys the user's data (`statistics.mode`,
# `map(Counter, rows)`), which must count by value: it gets the clear error. (Converted code's
# own `Counter(...)` and `defaultdict` reads count when the graph runs: `runtime.tallies`.)
_LIBRARIES = (
    _AUTOCONV,
    "<frozen ",
    *(_STDLIB + m for m in ("weakref.py", "_weakrefset.py", "functools.py", "copy.py")),
    *(_STDLIB + m for m in ("threading.py", "contextlib.py", "abc.py", "typing.py")),
)


def _hashed_inside() -> bool:
    """True when `hash(t)` comes from autoconv, the standard library's tables autoconv keeps
    (`weakref`, `functools`) or C code with no Python caller; False from the user's code and
    from libraries that key data (`statistics.mode`)."""
    try:
        return sys._getframe(2).f_code.co_filename.startswith(_LIBRARIES)
    except ValueError:
        return True


class Tensor:
    """A symbolic array inside a trace: a static `shape` (entries may be None) and a `dtype`.

    Use it as you would a NumPy array: `np.sum(t)`, `t @ w`, `t[1:, None]`, `t.astype(...)`.
    It has no value while tracing, so it cannot be used as a Python `bool`, converted to an
    ndarray or iterated outside converted control flow.
    """

    __slots__ = (
        "id",
        "_shape",
        "dtype",
        "node",
        "graph",
        "index",
        "weak",
        "_etype",
        "_stale",
        "py_kinds",
        "__weakref__",
    )
    __array_priority__ = 1000.0

    def __init__(self, graph, node, index, shape, dtype, weak=False):
        # weak: the run-time value is a Python bool/int/float/complex (a loop counter, a flag),
        # which NumPy treats as a weak scalar (NEP 50), exactly as eager code would.
        self.weak = weak
        # py_kinds: None, or (tag, kinds, name) when the Python type depends on the path taken (a
        # Python number on some paths, a NumPy value on others: optionals.tagged).
        self.py_kinds = None
        self._stale = None  # (set: see `add_node`)
        self.graph = graph
        self.node = node
        self.index = index
        self.id = graph.new_id()
        self._shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        if node.kind == "placeholder" and "scalar" not in node.attrs and not self._shape:
            # Whether a 0-d input is a NumPy scalar or a 0-d array (its signature key says so).
            # function.py can pass it in the node's attrs; until then, read the key from the
            # caller, `placeholder(path, leaf_key)`.
            key = sys._getframe(1).f_locals.get("leaf_key")
            if type(key) is tuple and key and key[0] in ("A", "S"):
                node.attrs["scalar"] = key[0] == "S"

    # --- static facts -------------------------------------------------------------------
    @property
    def shape(self) -> tuple:
        """The static shape (None for a size known only at run time). User code gets, for each
        unknown size, a run-time int (a weak Tensor), as `np.shape(t)` gives: `range(n)`,
        `np.reshape` and arithmetic accept it, where eager code would get an int."""
        s = self._shape
        if None not in s or _internal() or not building():
            return s
        return uses.arraylike.runtime_shape(self)

    @shape.setter
    def shape(self, value):
        self._shape = tuple(value)

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def __class__(self):
        """`Tensor` to autoconv; to user code, the type of the value eager NumPy would have, so
        that `isinstance(t, np.ndarray)`, `isinstance(t, np.floating)` and `np.isscalar(t)`
        answer as eagerly (`type(t)` stays `Tensor`, which keeps NumPy's dispatch working)."""
        if _internal() or not building():
            return Tensor
        return uses.arraylike.eager_class(self)

    @property
    def size(self):
        """The number of elements: an int when the shape is known, else a Tensor."""
        return np.size(self)

    @property
    def T(self) -> Tensor:  # noqa: N802 - NumPy's spelling
        return uses.dispatch.method(self, "T", (), {}, attr=True)

    def __repr__(self):
        if not _internal() and building():
            marker = uses.printing.convert_tensor(self, "r")  # repr(t) inside autoconv.print(...)
            if marker is not None:
                return marker
        return f"<autoconv.Tensor %{self.id} {format_spec(self._shape, self.dtype, self.weak)}>"

    def __str__(self):
        if not _internal() and building():
            marker = uses.printing.convert_tensor(self, "s")  # str(t) inside autoconv.print(...)
            if marker is not None:
                return marker
        return f"<autoconv.Tensor %{self.id} {format_spec(self._shape, self.dtype, self.weak)}>"

    def __hash__(self):
        # autoconv keys its own tables by Tensor identity; user code hashing one (a dict key,
        # a set member) would count by identity where eager code counts by value.
        if not building() or _hashed_inside():
            return object.__hash__(self)
        uses.arraylike.unhashable(self)

    # --- NumPy protocols --------------------------------------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return uses.dispatch.ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return uses.dispatch.function(func, args, kwargs)

    def __array__(self, dtype=None, copy=None):
        uses.arraylike.no_python_number(self, "array")

    def __bool__(self):
        if building():
            uses.arraylike.no_match_case(self)  # `case 0:` of a `match` on a Tensor
            uses.arraylike.no_comprehension_test(self)  # a comprehension left as Python
        raise StagingError(
            f"{_here()}: a symbolic Tensor ({self!r}) was used as a Python bool. Its value is "
            "only known when the graph runs. In code that autoconv converts (autoconv.function "
            "with autograph=True) `if`, `while`, `and`, `or` and `x if c else y` on Tensors "
            "are staged for you; elsewhere use np.where(cond, a, b), or convert the function "
            f"with autoconv.convert.{_why()}"
        )

    def __iter__(self):
        if building() and uses.arraylike.unpacking(self):
            # `a, b = row`: as eagerly, one item per index of a first dimension known now (a
            # wrong count raises Python's own ValueError).
            return (self[i] for i in range(self._shape[0]))
        if building() and self.dtype == object and not self._shape:
            uses.arraylike.no_string_iteration(self)  # `for c in str(n)`
        raise StagingError(
            f"{_here()}: a symbolic Tensor ({self!r}) cannot be iterated in code that is not "
            "converted: its first dimension is unknown until the graph runs (or longer than "
            "4096 items to unroll). A `for` loop over a Tensor in converted code "
            "(autoconv.function with autograph=True) is staged as a loop over its first axis; "
            f"elsewhere index it (t[i]) or use NumPy functions on the whole array.{_why()}"
        )

    def __len__(self):
        if self.shape and self.shape[0] is not None:
            return self.shape[0]
        raise StagingError(
            f"{_here()}: len() of a Tensor whose first dimension is unknown until run time "
            f"({self!r}). Use t.shape[0], which gives a run-time int (range() accepts it in "
            "converted loops)."
        )

    def __int__(self):
        uses.arraylike.no_python_number(self, "int")

    def __float__(self):
        uses.arraylike.no_python_number(self, "float")

    def __complex__(self):
        uses.arraylike.no_python_number(self, "complex")

    def as_integer_ratio(self):
        """Library code computing exactly (`statistics.mean`): a clear error while tracing."""
        uses.arraylike.exact_ratio(self)

    def __index__(self):
        uses.arraylike.no_python_number(self, "index")

    def __setitem__(self, key, value):
        uses.arraylike.setitem(self, key, value)

    def __format__(self, spec):
        return uses.printing.format_tensor(self, spec)

    def __round__(self, ndigits=None):
        return uses.arraylike.round_(self, ndigits)

    def item(self, *args):
        """The element as a Python number when the graph runs (a weak Tensor while tracing)."""
        return uses.arraylike.item(self, args)

    def tolist(self):
        """Nested Python lists of Python numbers when the graph runs (static shapes only)."""
        return uses.arraylike.tolist(self)

    def __getitem__(self, key):
        return uses.dispatch.getitem(self, key)

    # --- NumPy array methods (recorded as method calls, exactly as eager NumPy runs them) ---
    def astype(self, dtype, *args, **kwargs):
        return uses.dispatch.method(self, "astype", (dtype, *args), kwargs)

    def reshape(self, *shape, **kwargs):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = (tuple(shape[0]),)  # one tuple argument, as written (`reshape(())` too)
        return uses.dispatch.method(self, "reshape", shape, kwargs)

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            axes = () if axes[0] is None else tuple(axes[0])
        return uses.dispatch.method(self, "transpose", axes, {})

    def __getattr__(self, name):
        if name in uses.dispatch.ARRAY_METHODS:
            return lambda *args, **kwargs: uses.dispatch.method(self, name, args, kwargs)
        if not name.startswith("_") and building():
            # ndarray methods that change in place (an error), str methods of a run-time string
            found = uses.arraylike.missing_attribute(self, name)
            if found is not None:
                return found
        raise AttributeError(f"'Tensor' object has no attribute {name!r}")


PY_TYPES = {"b": bool, "i": int, "f": float, "c": complex}


def format_spec(shape, dtype, weak=False) -> str:
    """`float32[None, 3]`: the short form of a shape and dtype used in listings and errors
    (`int` etc. for a Python scalar)."""
    if weak:
        return PY_TYPES[np.dtype(dtype).kind].__name__
    dims = ", ".join("None" if d is None else str(d) for d in shape)
    return f"{np.dtype(dtype).name}[{dims}]"


def _why() -> str:
    from autoconv.graph import unconverted

    return unconverted.reason()


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
            return lambda self, other: uses.dispatch.binop(symbol, ufunc, other, self)
        return lambda self, other: uses.dispatch.binop(symbol, ufunc, self, other)

    for name, (symbol, ufunc) in _BINARY.items():
        setattr(Tensor, f"__{name}__", binary(symbol, ufunc, False))
        setattr(Tensor, f"__r{name}__", binary(symbol, ufunc, True))
    for name, (symbol, ufunc) in _COMPARE.items():
        setattr(Tensor, f"__{name}__", binary(symbol, ufunc, False))

    def inplace(symbol, ufunc):
        return lambda self, other: uses.mutation.inplace(symbol, ufunc, self, other)

    for name, (symbol, ufunc) in _BINARY.items():
        setattr(Tensor, f"__i{name}__", inplace(symbol, ufunc))

    def unary(symbol, ufunc):
        return lambda self: uses.dispatch.unop(symbol, ufunc, self)

    for name, (symbol, ufunc) in _UNARY.items():
        setattr(Tensor, f"__{name}__", unary(symbol, ufunc))

    # `divmod(t, 60)`: the quotient and remainder, as `//` and `%` give them.
    Tensor.__divmod__ = lambda self, other: (self // other, self % other)
    Tensor.__rdivmod__ = lambda self, other: (other // self, other % self)


_install_operators()
