"""Which Python `range` loops may stop unrolling early while a graph is traced.

A loop over a Python `range` is unrolled while tracing (AutoGraph's rule), and the `roll` pass
later folds the identical copies back into one staged loop. Tracing the 1,000 copies is most of
a first call, so a loop whose steps provably trace alike is staged once its state settles: the
first steps run in Python as usual, and once a step leaves the loop's variables as it found them
(Tensors of the same shapes, dtypes and weakness), the remaining steps become one staged loop
(`TensorTracer.roll_rest`), which the roll pass would have made of their copies.

That is only the same as unrolling when a step cannot tell the steps apart and does nothing that
Python sees. `stageable(body)` checks it from the body's bytecode and the values it reaches:
- the index is not read (`for _ in range(n)`): `if i < 10`, `layers[i]`, `x[:i]` need it as an
  int, so such loops stay unrolled;
- no attribute, item, global or in-place writes, no imports, no nested functions, no jumps (the
  converted body has none; a user's own `if` in a called helper has);
- the attributes read and methods called are from a list of NumPy functions, array
  methods and autoconv's runtime helpers known to be free of effects (no `print`, no random
  draws, no `out=`, no list methods);
- every value it reaches from its closure and globals is an array, a number, a string, a
  dtype, a tuple of those, NumPy or autoconv's runtime, or a function that passes the same
  checks (the `if` branches the converter made, a user's helper).
A loop that fails a check, or whose state never settles within a few steps, is unrolled as
before.
"""

from __future__ import annotations

import dis
import types

import numpy as np

from autoconv.runtime import staging

MIN_LEFT = 16
"""Fewer remaining steps than this are unrolled (the `roll` pass's business, if any)."""

TRIES = 3
"""Steps a loop may take to settle its state before it is left unrolled."""

_OPS = frozenset(
    dis.opmap[name]
    for name in (
        "RESUME NOP CACHE COPY_FREE_VARS MAKE_CELL LOAD_FAST STORE_FAST LOAD_DEREF STORE_DEREF "
        "LOAD_CLOSURE LOAD_CONST LOAD_GLOBAL LOAD_ATTR LOAD_METHOD PRECALL CALL KW_NAMES "
        "PUSH_NULL BINARY_OP BINARY_SUBSCR BUILD_TUPLE BUILD_LIST LIST_EXTEND BUILD_SLICE "
        "COMPARE_OP UNARY_NEGATIVE UNARY_POSITIVE UNARY_INVERT RETURN_VALUE POP_TOP COPY SWAP "
        "UNPACK_SEQUENCE"
    ).split()
    if name in dis.opmap
)
# BINARY_OP's in-place forms (`x += y` changes an array that other names may hold).
_INPLACE = frozenset(i for i, (name, _) in enumerate(dis._nb_ops) if name.startswith("NB_INPLACE"))

# Attributes a step may read or call, whatever they are read from (arrays, NumPy, autoconv's
# runtime): functions and methods that change nothing Python sees.
_ATTRS = frozenset(
    """
    T shape dtype ndim size real imag astype reshape transpose ravel flatten squeeze copy conj
    sum mean max min argmax argmin prod std var cumsum cumprod any all clip dot round
    abs absolute add subtract multiply divide true_divide floor_divide power negative positive
    sqrt square exp expm1 log log1p log2 log10 sin cos tan arcsin arccos arctan arctan2 sinh
    cosh tanh arcsinh arccosh arctanh maximum minimum fmax fmin sign floor ceil rint trunc mod
    remainder fmod hypot logaddexp reciprocal isnan isinf isfinite where matmul tensordot
    outer inner einsum greater greater_equal less less_equal equal not_equal logical_and
    logical_or logical_not logical_xor bitwise_and bitwise_or bitwise_xor invert
    zeros zeros_like ones ones_like full full_like eye identity arange linspace empty_like
    stack vstack hstack concatenate expand_dims swapaxes moveaxis broadcast_to diag trace
    float64 float32 float16 int64 int32 int16 int8 uint8 bool_ complex128 complex64 newaxis pi
    e inf nan amax amin nanmax nanmin nansum nanmean linalg norm inv solve det pinv
    list_item item_at if_stmt converted len
    """.split()
)

_SAFE_TYPES = frozenset((int, float, bool, complex, str, type(None), np.ndarray))
_MODULES = frozenset(("numpy", "numpy.linalg", "autoconv.runtime"))
_TYPES = (int, float, bool, complex)

Tensor = None  # autoconv.graph.tensor.Tensor, once a graph is traced (that package imports this)

_codes: dict = {}  # code object -> whether its instructions pass (the values are checked apart)


def stageable(body):
    """The cells that `body(i)`, the converted body of a `for` over a Python range, and the
    functions it reaches assign (`{name: cell}`: the loop's variables and its temporaries) when
    it does the same at every step given the same state and nothing that Python sees (see the
    module's docstring); else None."""
    global Tensor
    if Tensor is None:
        from autoconv.graph.tensor import Tensor
    code = getattr(body, "__code__", None)
    if code is None or code.co_argcount != 1 or code.co_flags & 0x0C:  # *args, **kwargs
        return None
    written: dict = {}
    if not _function(body, set(), written, index=code.co_varnames[0]):
        return None
    return written


def _function(fn, seen: set, written: dict, index=None) -> bool:
    if id(fn) in seen:
        return True
    seen.add(id(fn))
    code = fn.__code__
    if fn.__defaults__ or fn.__kwdefaults__:
        return False  # (their values: not worth a check here)
    key = (code, index)
    stores = _codes.get(key)
    if stores is None:
        stores = _codes[key] = _instructions(code, index)
    if stores is False:
        return False
    cells = dict(zip(code.co_freevars, fn.__closure__ or ()))
    for name in stores:  # `nonlocal` names it assigns
        cell = cells.get(name)
        if cell is None:
            continue  # (its own, which a function of its own reads)
        if written.setdefault(name, cell) is not cell:
            return False  # two variables of one name
    for cell in cells.values():
        try:
            value = cell.cell_contents
        except ValueError:
            continue  # not assigned yet (a body's own temporary)
        if not _value(value, seen, written):
            return False
    names = fn.__globals__
    builtins = names.get("__builtins__")
    builtins = builtins if type(builtins) is dict else getattr(builtins, "__dict__", {})
    for name in _global_names(code):
        if name in names:
            if not _value(names[name], seen, written):
                return False
        elif builtins.get(name) not in _TYPES:
            return False  # `print`, `open`...: the converter maps the pure ones to its own
    return True


def _value(value, seen: set, written: dict) -> bool:
    t = type(value)
    if t is Tensor or t in _SAFE_TYPES or isinstance(value, (np.generic, np.dtype)):
        return True
    if t is tuple:
        return all(_value(v, seen, written) for v in value)
    if t is types.ModuleType:
        return value.__name__ in _MODULES
    if t is types.FunctionType:
        return _function(value, seen, written)
    return t is type and value in _TYPES


def _global_names(code) -> set:
    return {i.argval for i in dis.get_instructions(code) if i.opname == "LOAD_GLOBAL"}


def _instructions(code, index):
    """The names `code` assigns with `nonlocal` (STORE_DEREF), or False where an instruction
    is not one a pure step may run."""
    stores = set()
    for i in dis.get_instructions(code):
        op = i.opcode
        if op not in _OPS:
            return False
        name = i.opname
        if name in ("LOAD_ATTR", "LOAD_METHOD") and i.argval not in _ATTRS:
            return False
        if name == "BINARY_OP" and i.arg in _INPLACE:
            return False
        if name == "KW_NAMES" and "out" in code.co_consts[i.arg]:
            return False
        if name in ("LOAD_FAST", "LOAD_DEREF", "LOAD_CLOSURE") and i.argval == index:
            return False  # the step's index: needed as a Python int
        if name == "COMPARE_OP" and i.argval not in ("<", "<=", "==", "!=", ">", ">="):
            return False
        if name == "STORE_DEREF":
            stores.add(i.argval)
    return frozenset(stores)


class Settling:
    """Watches the state of a loop whose body is `stageable`: `settled()` after each step says
    whether that step left the loop's variables as it found them (all Tensors alike), and its
    temporaries Tensors. `state` is then the loop's (get_state, set_state, names) with the
    temporaries added (a function may read them after the loop: the converter's state has
    only the variables the code after it reads), and `undo` where that step began: the
    graph's length (`mark()`) and the values of `state`."""

    __slots__ = ("state", "count", "mark", "before", "undo", "tries")

    def __init__(self, get_state, set_state, names, written, mark):
        cells = dict(zip(get_state.__code__.co_freevars, get_state.__closure__ or ()))
        temps = [n for n, c in written.items() if n not in names or cells.get(n) is not c]
        self.state = _with(get_state, set_state, names, temps, written)
        self.count, self.mark = len(names), mark
        state, self.before = self._read()
        self.undo = (mark(), state)
        self.tries = TRIES

    def settled(self) -> bool:
        state, now = self._read()
        if now is not None and now == self.before:
            return True
        self.before, self.undo = now, (self.mark(), state)
        self.tries -= 1
        return False

    def _read(self):
        """The loop's variables and temporaries, and what a step can see of the variables:
        each one's shape, dtype and weakness (None unless all, and the temporaries, are plain
        Tensors)."""
        get_state, _, names = self.state
        state = staging.read_state(get_state, names)
        out = []
        for k, v in enumerate(state):
            if type(v) is not Tensor or v.py_kinds is not None or v._stale is not None:
                return state, None
            if k < self.count:
                out.append((v._shape, v.dtype, v.weak))
        return state, tuple(out)


_templates: dict = {}  # names -> the code of a get_state and a set_state of them


def _with(get_state, set_state, names, temps, written):
    """(get_state, set_state, names) of `names` and `temps`, as the converter writes them."""
    if not temps:
        return get_state, set_state, tuple(names)
    everything = (*names, *temps)
    codes = _templates.get(everything)
    if codes is None:
        text = ", ".join(everything)
        source = (
            f"def outer():\n    {text} = {', '.join('None' for _ in everything)}\n"
            f"    def get_state():\n        return ({text},)\n"
            f"    def set_state(state):\n        nonlocal {text}\n        ({text},) = state\n"
            "    return get_state, set_state\n"
        )
        outer = compile(source, "<autoconv: a loop's state>", "exec").co_consts[0]
        codes = _templates[everything] = [c for c in outer.co_consts if type(c) is types.CodeType]
    cells = {**dict(zip(get_state.__code__.co_freevars, get_state.__closure__ or ())), **written}
    made = [
        types.FunctionType(
            c, get_state.__globals__, c.co_name, None, tuple(cells[n] for n in c.co_freevars)
        )
        for c in codes
    ]
    return made[0], made[1], everything
