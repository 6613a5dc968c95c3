"""The closed table of what a saved graph may contain.

A file names each callable by a string of this table (`numpy.sum`, `numpy.add.reduce`,
`autoconv.dim`); loading looks the string up here and nowhere else, so a file can only ever
call what is listed. Method and attribute names, operator symbols, node kinds and the
attributes of each kind are closed sets too. Functions that read or write files, run code or
unpickle (`numpy.load`, `numpy.fromfile`, ...) are not in it.
"""

from __future__ import annotations

import builtins
import random as _pyrandom

import numpy as np

from autoconv.graph import helpers
from autoconv.graph.operators import BINARY_OPERATORS, UNARY_OPERATORS
from autoconv.graph.passes import fold, lower
from autoconv.trace.tensors import ops, staged_calls
from autoconv.trace.tensors import random as _random
from autoconv.trace.tensors.numpy_dispatch import ARRAY_METHODS

KINDS = (
    "call",
    "helper",
    "binop",
    "unop",
    "getitem",
    "method",
    "attr",
    "const",
    "read",
    "assign",
    "print",
    "cond",
    "while",
    "list_new",
    "list_append",
)
# kind -> how many nested blocks its nodes have
BLOCKS = {"cond": 2, "while": 2}

# attribute -> its type ("bool", "int", "str", "variable", "value")
ATTRS = {
    "inplace": "int",
    "raises": "bool",
    "random": "bool",
    "sized": "bool",  # a random draw given `size=`: a 0-d result is an array, not a scalar
    "tuple": "bool",
    "rows": "bool",  # the `roll` pass's stack of a list's items, read only row by row
    "stop": "bool",
    "variable": "variable",
    "direct": "bool",
    "creates": "bool",
    "value": "value",
    "owned": "bool",
    "folded": "str",  # the operation a constant was folded from (listings only)
    "written": "str",  # a lowered call as the user wrote it (profiles only)
    "list": "str",  # the user's name of a list grown in a staged loop (error messages)
}
PLACEHOLDER_ATTRS = {"name": "str", "scalar": "bool"}

BINOPS = frozenset(BINARY_OPERATORS)
UNOPS = frozenset(UNARY_OPERATORS)
ATTRIBUTES = frozenset({"T"})
PRINT_KWARGS = frozenset({"sep", "end", "flush"})

_SPECIAL_METHODS = {"astype", "reshape", "transpose", "item", "tolist", "fill"}
_RANDOM_METHODS = {name for table in _random._TABLES.values() for name in table}
RANDOM_METHODS = frozenset(_RANDOM_METHODS)  # of generators (nodes marked `random`)
METHODS = frozenset(set(ARRAY_METHODS) | _SPECIAL_METHODS | _RANDOM_METHODS)
# How many results each kind of node has, where that is fixed (the code generators rely on it).
OUTPUTS = {
    "binop": 1,
    "unop": 1,
    "getitem": 1,
    "attr": 1,
    "const": 1,
    "read": 1,
    "list_new": 1,
    "list_append": 1,
    "assign": 0,
    "print": 0,
}

# Python types a file may hold as values (dtype arguments, the kinds of a Mixed, casts).
TYPES: dict = {"int": int, "float": float, "bool": bool, "complex": complex, "str": str}
for _code in np.typecodes["All"]:
    _t = np.dtype(_code).type
    if _t not in (np.object_, np.void) and getattr(np, _t.__name__, None) is _t:
        TYPES["numpy." + _t.__name__] = _t

# Exception classes a staged `raise` may raise: the built-in ones.
EXCEPTIONS = {
    name: value
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, Exception) and not name.startswith("_")
}

EXCEPTION_TYPES = frozenset(EXCEPTIONS.values())

FUNCTIONS: dict = {}


def _add(name, fn):
    FUNCTIONS[name] = fn


def _numpy_name(fn):
    name = getattr(fn, "__name__", None)
    if name and getattr(np, name, None) is fn:
        return "numpy." + name
    return None


_SAFE_NUMPY = (
    set(ops.SPECS)
    | {f for f in staged_calls.STAGED if _numpy_name(f)}
    | set(ARRAY_METHODS.values())
    | {np.transpose, np.asarray, np.reshape, np.copy, np.ravel}
)
for _f in _SAFE_NUMPY:
    _name = _numpy_name(_f)
    if _name:
        _add(_name, _f)
for _f in ops.SPECS:  # np.linalg's (numpy_dispatch, imported above, registers them all)
    _name = getattr(_f, "__name__", None)
    if _name and getattr(np.linalg, _name, None) is _f:
        _add("numpy.linalg." + _name, _f)
UFUNC_METHODS = ("reduce", "accumulate", "outer")
for _name in dir(np):
    _uf = getattr(np, _name)
    if isinstance(_uf, np.ufunc) and _uf.__name__ == _name:
        _add("numpy." + _name, _uf)
for _t in TYPES.values():
    if _t.__module__ == "numpy":
        _add("numpy." + _t.__name__, _t)
for _name in ("int", "float", "bool", "complex", "len", "round"):
    _add(_name, getattr(builtins, _name))

_add("autoconv.mean_all", lower.mean_all)
for _name, _f in helpers.TABLE.items():
    _add(_name, _f)
# The helpers whose exception is the user's (`attrs["raises"]`): table name -> which one.
RAISING = {
    "autoconv.raise": "raise",
    "autoconv.raise_new": "raise_new",
    "autoconv.checked": "checked",
    "autoconv.checked_raise": "checked_raise",
}
# Random numbers: np.random's global generator, Python's `random`, and the generator makers.
for _name in _random._TABLES["legacy"]:
    if hasattr(_random._GLOBAL, _name):
        _add("numpy.random." + _name, getattr(_random._GLOBAL, _name))
for _fid, (_family, _name) in _random._MODULE_FUNCTIONS.items():
    _add("numpy.random." + _name, getattr(np.random, _name))
for _f in _random._CREATORS:
    _module = "random" if _f.__module__ == "random" else "numpy.random"
    _add(f"{_module}.{_f.__name__}", _f)
_PY_INST = getattr(_pyrandom, "_inst", None)
for _name in _random._TABLES["python"]:
    if _PY_INST is not None and hasattr(_PY_INST, _name):
        _add("random." + _name, getattr(_PY_INST, _name))

_BY_ID = {id(f): name for name, f in FUNCTIONS.items()}


def name_of(fn) -> str | None:
    """The table's name of a callable, or None when a file cannot hold it."""
    name = _BY_ID.get(id(fn))
    if name is not None and FUNCTIONS[name] is fn:
        return name
    owner = getattr(fn, "__self__", None)
    method = getattr(fn, "__name__", None)
    if isinstance(owner, np.ufunc) and method in UFUNC_METHODS:
        if FUNCTIONS.get("numpy." + owner.__name__) is owner:
            return f"numpy.{owner.__name__}.{method}"
    if owner is _random._GLOBAL and method in _random._TABLES["legacy"]:
        return "numpy.random." + method
    if owner is not None and owner is _PY_INST and method in _random._TABLES["python"]:
        return "random." + method
    return None


# What a loaded graph calls instead of a table entry: no uninitialised memory (an empty
# array's contents are unspecified, so zeros are a valid result), and no process-global
# generator (see `Generators`).
_ZEROED = {"numpy." + f.__name__: zeros for f, zeros in fold.ZEROED.items()}
_NOT_LOADED = frozenset(
    {"numpy.random.get_bit_generator", "numpy.random.set_bit_generator", "random.SystemRandom"}
)


class Generators:
    """The generators of one loaded file: its `np.random.*` and `random.*` calls draw from (and
    seed) these, never the process's global ones, which a file must not reseed or read. Each
    starts from fresh entropy, as a new process's global generators do; seed them for
    repeatable draws (`LoadedFunction.seed`)."""

    def __init__(self):
        self._numpy = None
        self._python = None

    @property
    def numpy(self) -> np.random.RandomState:
        if self._numpy is None:
            self._numpy = np.random.RandomState()
        return self._numpy

    @property
    def python(self) -> _pyrandom.Random:
        if self._python is None:
            self._python = _pyrandom.Random()
        return self._python

    def seed(self, seed) -> None:
        self.numpy.seed(seed)
        self.python.seed(seed)

    def function(self, name: str):
        """The own generator's method for a global-generator table name, else None."""
        module, _, method = name.rpartition(".")
        if module == "numpy.random" and method in _random._TABLES["legacy"]:
            return getattr(self.numpy, method, None)
        if module == "numpy.random" and method == "seed":
            return self.numpy.seed
        if module == "random" and method in _random._TABLES["python"]:
            return getattr(self.python, method, None)
        return None


def lookup(name: str, generators: Generators | None = None):
    """The callable of a table name, or None for a name that is not in the table. With
    `generators` (loading a file), what a loaded graph may call: global draws go to those
    generators, uninitialised arrays are zeroed, and nothing touches process-global state."""
    if generators is not None:
        if name in _NOT_LOADED:
            return None
        own = generators.function(name) if name in FUNCTIONS else None
        if own is not None:
            return own
        if name in _ZEROED:
            return _ZEROED[name]
    fn = FUNCTIONS.get(name)
    if fn is not None:
        return fn
    base, _, method = name.rpartition(".")
    if method in UFUNC_METHODS:
        uf = FUNCTIONS.get(base)
        if isinstance(uf, np.ufunc):
            return getattr(uf, method)
    return None
