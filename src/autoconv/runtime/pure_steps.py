"""Which Python `range` loops may stop unrolling early while a graph is traced.

A loop over a Python `range` is unrolled while tracing (AutoGraph's rule), and the `roll` pass
later folds the identical copies back into one staged loop. Tracing the 1,000 copies was most
of a first call, so a loop whose steps provably trace alike is staged instead: its steps run in
Python as usual until one leaves the loop's variables as it found them (Tensors of the same
shapes, dtypes and weakness); that step is undone, and it and the rest become one staged loop
(`TensorTracer.roll_rest`), the loop the roll pass would have made of their copies.

That is only the same as unrolling when a step cannot tell the steps apart and does nothing that
Python sees. `stageable(body)` checks it from the body's bytecode and the values it reaches:
- no attribute, item, global or in-place writes, no imports, no nested functions, no jumps (the
  converted body has none; a user's own `if` in a called helper has);
- the attributes read and methods called are from a list of NumPy functions, array methods
  and autoconv's runtime helpers known to be free of effects (no `print`, no random draws, no
  `out=`, no list methods);
- every value it reaches from its closure and globals is an array, a number, a string, a
  dtype, a tuple of those, NumPy or autoconv's runtime, or a function that passes the same
  checks (the `if` branches the converter made, a user's helper);
and `Settling` that the variables are all Tensors and the temporaries Tensors or plain Python
values. The index is checked as the staged loop is traced: the body gets an `Index`, which
answers comparisons with an int that answer alike for every step left (`if i < 10` from step
10 on: the loop is staged from the step where they all do) and refuses anything else (the loop
is then unrolled); or, where the body only reads and writes items at it (`x[i]`, `out[i] = v`)
of arrays whose first axis holds every step, the loop's counter (`tensor_keys`). A loop that
fails a check, or whose state does not settle within a few steps, is unrolled as before.
"""

from __future__ import annotations

import dis
import types

import numpy as np

from autoconv.caches import IdentityCache, register_cache
from autoconv.errors import AutoconvError
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
    list_item item_at setitem if_stmt for_stmt range converted len
    """.split()
)

_SAFE_TYPES = frozenset((int, float, bool, complex, str, type(None), np.ndarray))
_MODULES = frozenset(("numpy", "numpy.linalg", "autoconv.runtime"))
_TYPES = (int, float, bool, complex, range)

Tensor = None  # autoconv.graph.tensor.Tensor, once a graph is traced (that package imports this)

# code object -> {index name: what `_instructions` found} (the values are checked apart)
_codes = IdentityCache()
register_cache("pure loop steps: instructions", _codes)


def stageable(body):
    """`(written, aliases, subscripts)` when `body(i)`, the converted body of a `for` over a
    Python range, does the same at every step given the same state and the same answers of
    its index's comparisons, and nothing that Python sees (see the module's docstring); else
    None. `written`: the cells it and the functions it reaches assign (`{name: cell}`: the
    loop's variables and temporaries); `aliases`: those of them it sets to the index (`i =
    itr`); `subscripts`: see `_instructions`."""
    global Tensor
    if Tensor is None:
        from autoconv.graph.tensor import Tensor
    code = getattr(body, "__code__", None)
    if code is None or code.co_argcount != 1 or code.co_flags & 0x0C:  # *args, **kwargs
        return None
    written: dict = {}
    if not _function(body, set(), written, index=code.co_varnames[0]):
        return None
    _, aliases, subscripts = _codes.get(code)[code.co_varnames[0]]
    return written, {name: written[name] for name in aliases if name in written}, subscripts


def _function(fn, seen: set, written: dict, index=None) -> bool:
    if id(fn) in seen:
        return True
    seen.add(id(fn))
    code = fn.__code__
    if fn.__defaults__ or fn.__kwdefaults__:
        return False  # (their values: not worth a check here)
    by_index = _codes.get(code)
    if by_index is None:
        by_index = {}
        _codes.put(code, by_index)
    found = by_index.get(index)
    if found is None:
        found = by_index[index] = _instructions(code, index)
    if found is False:
        return False
    stores = found[0]
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
    """`(stores, aliases, subscripts)` of `code`, or False where an instruction is not one a
    pure step may run. `stores`: the names it assigns with `nonlocal` (STORE_DEREF);
    `aliases`: those it sets to `index` (`i = itr`); `subscripts`: where it reads `index`
    if only as the key of `ac.item_at(x, i)` or `ac.setitem(out, i, v)` (`x[i]`, `out[i] =
    v`), as (helper, name of `x` or `out`) pairs; None when it reads it otherwise. The index
    may be used anyhow here: what a step does with it is checked as the staged loop is traced
    (`Index`, `tensor_keys`)."""
    stores, aliases, subscripts = set(), set(), []
    done = [i for i in dis.get_instructions(code) if i.opname not in ("CACHE", "NOP")]
    for k, i in enumerate(done):
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
        if name == "COMPARE_OP" and i.argval not in ("<", "<=", "==", "!=", ">", ">="):
            return False
        if name == "STORE_DEREF":
            stores.add(i.argval)
        if name == "LOAD_FAST" and i.argval == index:
            after = done[k + 1] if k + 1 < len(done) else None
            if after is not None and after.opname == "STORE_DEREF":
                aliases.add(after.argval)
            key = _subscript(done, k)
            if key is None or subscripts is None:
                subscripts = None
            else:
                subscripts.append(key)
    return frozenset(stores), frozenset(aliases), subscripts and tuple(subscripts)


def _subscript(done, k):
    """`(helper, name)` where instruction `k`, a read of the index, is the key of a call
    `ac.item_at(name, i)` or `ac.setitem(name, i, ...)`; else None."""
    if k < 3:
        return None
    module, helper, target = done[k - 3], done[k - 2], done[k - 1]
    loads = ("LOAD_DEREF", "LOAD_FAST", "LOAD_GLOBAL")
    if module.opname not in loads or module.argval != "ac" or target.opname not in loads:
        return None
    if helper.opname not in ("LOAD_METHOD", "LOAD_ATTR"):
        return None
    if helper.argval == "item_at" and done[k + 1].opname == "PRECALL" and done[k + 1].arg == 2:
        return "item_at", target.argval
    if helper.argval == "setitem":
        return "setitem", target.argval
    return None


class Settling:
    """Watches the state of a loop whose body is `stageable`: `settled()` after each step says
    whether that step left the loop's variables as it found them (all Tensors alike), and its
    temporaries Tensors or plain Python values. Then `state` is the loop's (get_state,
    set_state, names) with the temporaries that hold Tensors added (a function may read them
    after the loop: the converter's state has only the variables the code after it reads);
    `undo` is where the graph and the state stand, the graph's length (`mark()`) and the
    values of `state`, and `start` the same before that step. The temporaries that hold
    Python values keep that step's: every later step gives the same. `aliases`: the cells the
    body sets to the index. The settled step stays in the graph (unless it may stop the loop:
    then the staged loop starts with it): what its copy in the loop reads only from before
    the loop is then the same computation as its own, which the `cse` pass runs once, before
    the loop."""

    __slots__ = ("names", "written", "aliases", "read", "mark", "before", "undo", "tries")
    __slots__ += ("state", "_get", "_set", "subscripts", "start")

    def __init__(self, get_state, set_state, names, found, mark):
        written, self.aliases, self.subscripts = found
        cells = dict(zip(get_state.__code__.co_freevars, get_state.__closure__ or ()))
        self.written = {
            n: c
            for n, c in written.items()
            if (n not in names or cells.get(n) is not c) and n not in self.aliases
        }
        self.names, self.mark, self._get, self._set = tuple(names), mark, get_state, set_state
        self.read = _with(get_state, set_state, names, list(self.written), written)
        state, self.before = self._read()
        self.start = (mark(), state)
        self.tries = TRIES
        self.state = self.undo = None

    def settled(self) -> bool:
        state, now = self._read()
        if now is not None and now == self.before:
            count = len(self.names)
            temps = [n for n, v in zip(self.written, state[count:]) if type(v) is Tensor]
            self.state = _with(self._get, self._set, self.names, temps, self.written)
            kept = [k for k, n in enumerate(self.written) if n in temps]

            def pick(values):
                return (*values[:count], *(values[count + k] for k in kept))

            self.undo = (self.mark(), pick(state))
            self.start = (self.start[0], pick(self.start[1]))
            return True
        self.before, self.start = now, (self.mark(), state)
        self.tries -= 1
        return False

    def _read(self):
        """The loop's variables and temporaries, and what a step can see of them: each
        variable's shape, dtype and weakness (None unless all are plain Tensors and the
        temporaries Tensors or Python values without any)."""
        get_state, _, names = self.read
        state = staging.read_state(get_state, names)
        out = []
        count = len(self.names)
        for k, v in enumerate(state):
            if type(v) is Tensor and v.py_kinds is None and v._stale is None:
                if k < count:
                    out.append((v._shape, v.dtype, v.weak))
            elif k < count or type(v) not in _CONSTANTS and not staging.is_undefined(v):
                return state, None
        return state, tuple(out)


def tensor_keys(body, subscripts, rest) -> bool:
    """Whether the staged body may read its index as a Tensor (the loop's counter): it reads
    it only as the key of `x[i]` and `out[i] = v` (`subscripts`), where `x` and `out` are
    Tensors now whose first axis holds every step of `rest` (a key out of bounds raises, as
    eagerly, in the unrolled steps; a staged one would not)."""
    if not subscripts:
        return False
    cells = dict(zip(body.__code__.co_freevars, body.__closure__ or ()))
    low, high = min(rest[0], rest[-1]), max(rest[0], rest[-1])
    for _, name in subscripts:
        cell = cells.get(name)
        try:
            value = cell.cell_contents if cell is not None else body.__globals__[name]
        except (ValueError, KeyError):
            return False
        if type(value) is not Tensor or not value._shape or type(value._shape[0]) is not int:
            return False
        if not -value._shape[0] <= low or high >= value._shape[0]:
            return False
    return True


_CONSTANTS = frozenset((int, float, bool, complex, str, type(None)))


class IndexNeeded(AutoconvError):
    """A staged step used its index other than in a comparison whose answer is the same for
    every step left (the loop is then unrolled)."""


class Index:
    """The index of the steps `rest` of a settled loop (a Python range), as its staged body
    sees it: comparisons with a Python int give the answer they give at every step left (as
    a Python bool); anything else is refused (`touched`), as is a comparison whose answer
    changes."""

    __slots__ = ("rest", "touched", "resume")

    def __init__(self, rest):
        self.rest, self.touched = rest, False
        self.resume = None  # the first step from which a refused comparison answers alike

    def _compare(self, other, op):
        if type(other) is int:
            rest = self.rest
            if op in ("==", "!="):
                if other not in rest:
                    return op == "!="
                if len(rest) == 1:
                    return op == "=="
            else:  # (monotonic along the range: its ends answer for it)
                first, last = _ORDER[op](rest[0], other), _ORDER[op](rest[-1], other)
                if first == last:
                    return first
            if rest.step > 0 and other + 1 < rest[-1]:
                self.resume = other + 1  # (`if i < 10`: the steps from 11 on answer alike)
                raise IndexNeeded("the loop's index is compared with a step it runs")
        return self._refuse()

    def _refuse(self, *args, **kwargs):
        self.touched = True
        raise IndexNeeded("the loop's index is needed as an int (the loop is unrolled)")

    def __lt__(self, other):
        return self._compare(other, "<")

    def __le__(self, other):
        return self._compare(other, "<=")

    def __gt__(self, other):
        return self._compare(other, ">")

    def __ge__(self, other):
        return self._compare(other, ">=")

    def __eq__(self, other):
        return self._compare(other, "==")

    def __ne__(self, other):
        return self._compare(other, "!=")

    def __getattr__(self, name):
        self.touched = True
        raise AttributeError(name)

    __hash__ = __bool__ = __index__ = __int__ = __float__ = __complex__ = _refuse
    __len__ = __iter__ = __contains__ = __getitem__ = __call__ = _refuse
    __repr__ = __str__ = __format__ = __reduce__ = __reduce_ex__ = __copy__ = _refuse
    __array__ = __array_ufunc__ = __array_function__ = _refuse
    __neg__ = __pos__ = __abs__ = __invert__ = __round__ = __trunc__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _refuse
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _refuse
    __pow__ = __rpow__ = __matmul__ = __rmatmul__ = __divmod__ = __rdivmod__ = _refuse
    __lshift__ = __rlshift__ = __rshift__ = __rrshift__ = _refuse
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = _refuse


_ORDER = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def holds(values, index: Index) -> bool:
    """Whether `index` is among `values` (nodes' arguments), deeply."""
    todo = list(values)
    while todo:
        v = todo.pop()
        if v is index:
            return True
        t = type(v)
        if t is tuple or t is list:
            todo.extend(v)
        elif t is dict:
            todo.extend(v.values())
        elif t is slice:
            todo.extend((v.start, v.stop, v.step))
    return False


_templates: dict = {}  # names -> the code of a get_state and a set_state of them
register_cache("pure loop steps: state functions", _templates)


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
