"""Values that exist on some run-time paths only, and errors that happen on some paths only.

`Optional` stands for a variable that is `None`, or not bound at all, on some paths through
staged control flow and holds a value on others: `best = None; for v in xs: if best is None or
v > best: best = v`. It carries a boolean `flag` (does the value exist?) and the `value` itself,
a structure of Tensors, both computed when the graph runs. `x is None` becomes `not flag`;
returning it gives `None` (or raises `UnboundLocalError`) where the flag is false; any other use
reads the value behind a run-time check that raises what eager Python would (`TypeError` on
`None`, `UnboundLocalError` on a variable never bound).

`raise_node` records a user's `raise` (or a failed `assert`) in the block being traced, so that it
fires when, and only when, that path runs.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph.errors import StagingError, where
from autoconv.graph.helpers import Mixed, mixed_output
from autoconv.graph.helpers import checked as _checked
from autoconv.graph.helpers import optional_output as output
from autoconv.graph.helpers import raise_copy as _raise
from autoconv.graph.helpers import raise_new as _raise_new
from autoconv.graph.origin import user_origin
from autoconv.graph.tensor import PY_TYPES, Tensor
from autoconv.runtime import staging
from autoconv.trace.core import optional as core_optional
from autoconv.trace.core.values import map_leaves
from autoconv.trace.tensors import choices
from autoconv.trace.tensors.choices import Choice
from autoconv.trace.tensors.recording import cast

_PY_NUMBERS = (bool, int, float, complex)


class Optional(core_optional.Optional):
    """A value that exists when `flag` is true at run time (`trace.core.optional`); any use
    but `is None` and returning it reads the value behind a run-time check."""

    __slots__ = ()

    def __repr__(self):
        what = "None" if self.missing is None else "unbound"
        return f"<{self.name}: a value, or {what}, known when the graph runs>"

    # Any use but `is None` and returning it reads the value, checked at run time.
    def unwrap(self):
        """The value, behind a check that raises as eager Python would when it is missing."""
        if self.flag is True:
            return self.value
        origin = user_origin(3)
        _refuse_missing_key(self, origin)
        return map_leaves(self.value, lambda v: self._required(v, origin))

    def _required(self, v, origin):
        """Leaf `v` of the value behind the check; a value-or-None there (the whole value, as
        `found = None` in an `else` makes; or items, as `return i, j` against `return None,
        None` makes) stays one, its flag and value behind the check."""
        if isinstance(v, Optional):
            flag = v.flag
            flag = _require(self, flag, origin) if isinstance(flag, Tensor) else flag
            return v.like(flag, map_leaves(v.value, lambda x: _require(self, x, origin)))
        return _require(self, v, origin)

    def __bool__(self):
        return bool(self.unwrap())

    def __iter__(self):
        return iter(self.unwrap())

    def __len__(self):
        return len(self.unwrap())

    def __getitem__(self, key):
        return self.unwrap()[key]

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.unwrap(), name)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = tuple(x.unwrap() if isinstance(x, Optional) else x for x in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return func(*_unwrap_all(args), **_unwrap_all(kwargs))

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.unwrap(), dtype=dtype)

    def __round__(self, ndigits=None):
        value = self.unwrap()
        return round(value) if ndigits is None else round(value, ndigits)

    def __format__(self, spec):
        if self.missing is None and isinstance(self.flag, Tensor) and _g.building():
            # `f"mean {m}"` of a value or None: its text, or "None", when the graph runs.
            from autoconv.trace.tensors.printing import optional_marker

            return optional_marker(self.flag, self.value, spec)
        return format(self.unwrap(), spec)


def _refuse_missing_key(v, origin) -> None:
    """A dict's item at a string key that a staged statement set on some paths only, where it
    did not exist before (`d["big"] = d.get("big", 0) + 1` in a loop, `d = {}` before it), read:
    whether the key exists would be known only when the graph runs, which a dict's keys
    written in the code cannot be. (Never read, it is no error: `d["seen"] = True`.)"""
    missing = v.missing
    if type(missing) is not tuple or missing[0] != "unbound":
        return
    accessors = staging._parse(missing[1])[1]
    if accessors and not accessors[-1][0] and type(accessors[-1][1]) is str:
        name = missing[1]
        raise StagingError(
            f"{where(origin)}: `{name}` is set on some paths of a staged statement before this "
            "line and does not exist on others (no such key before it), so whether it exists "
            "would be known only when the graph runs. Give it a value before that statement "
            f"(`{name} = 0`), or key the dict by a number or string made when the graph runs."
        )


def unwrap_any(v):
    return v.unwrap() if isinstance(v, Optional) else v


def index_value(v):
    """What an index or a stored array item uses of a value known per path: an Optional's
    value (behind its check)."""
    return v.unwrap() if isinstance(v, Optional) else v


def _unwrap_all(v):
    t = type(v)
    if t is Optional:
        return v.unwrap()
    if t is tuple or t is list:
        return t(_unwrap_all(x) for x in v)
    if t is dict:
        return {k: _unwrap_all(x) for k, x in v.items()}
    return v


def _install_operators():
    import operator

    names = (
        "add sub mul truediv floordiv mod pow matmul and or xor lshift rshift lt le gt ge eq ne"
    ).split()
    for name in names:
        op = getattr(operator, f"__{name}__")

        def forward(self, other, op=op):
            return op(self.unwrap(), unwrap_any(other))

        def reflected(self, other, op=op):
            return op(unwrap_any(other), self.unwrap())

        setattr(Optional, f"__{name}__", forward)
        if name not in ("lt", "le", "gt", "ge", "eq", "ne"):
            setattr(Optional, f"__r{name}__", reflected)
    for name in ("neg", "pos", "abs", "invert"):
        op = getattr(operator, f"__{name}__")
        setattr(Optional, f"__{name}__", lambda self, op=op: op(self.unwrap()))
    for name in ("int", "float", "complex", "index"):
        conv = {"int": int, "float": float, "complex": complex, "index": operator.index}[name]
        setattr(Optional, f"__{name}__", lambda self, conv=conv: conv(self.unwrap()))
    Optional.__hash__ = object.__hash__

    def equals_none(self, other, negate=False):
        """`best == None` of a number that is None on some paths: `is None`, as eagerly (a
        NumPy scalar or a Python number equals None never)."""
        value = self.value
        if other is None and self.missing is None and isinstance(value, Tensor):
            if not value.shape and (value.weak or eager_scalar(value)):
                flag = is_none(self)
                flag = np.logical_not(flag) if negate else flag
                if isinstance(flag, Tensor) and not flag.weak:  # a Python bool, as eagerly
                    flag = cast(flag, bool)
                return flag
        op = operator.__ne__ if negate else operator.__eq__
        return op(self.unwrap(), unwrap_any(other))

    Optional.__eq__ = lambda self, other: equals_none(self, other)
    Optional.__ne__ = lambda self, other: equals_none(self, other, True)


def eager_scalar(t: Tensor) -> bool:
    """Whether eager code has a NumPy scalar (not a 0-d array) where `t` stands."""
    from autoconv.graph.eager_types import eager_type

    return eager_type(t) is not np.ndarray


_install_operators()


def _require(opt, t, origin):
    from autoconv.graph import shapes

    if isinstance(t, Tensor):
        spec = (t.shape, t.dtype, t.weak)
    else:
        spec = (tuple(shapes.shape_of(t)), shapes.result_dtype(t), type(t) in _PY_NUMBERS)
    node = _g.Node(
        "helper",
        "require",
        _checked,
        (opt.flag, t, opt.missing, opt.name),
        attrs={"raises": True},
    )
    node.effect = True  # runs where eager code reads the value, even if the result is unused
    _g.add_node(node, [spec], origin)
    out = node.outputs[0]
    if isinstance(t, Tensor):
        out.py_kinds = t.py_kinds  # the Python type of each path, as the value's (path_types)
    return out


def is_none(value):
    """`value is None` for a value seen while tracing (an Optional, a Tensor, or Python)."""
    if isinstance(value, Optional):
        if value.missing is not None:
            inner = value.unwrap()  # eager code reads the variable: unbound raises there
            # (a value or None inside: `found = None` in a loop's `else`)
            return is_none(inner) if isinstance(inner, Optional) else False
        flag = value.flag
        if type(flag) is bool:
            return not flag
        missing = np.logical_not(flag)  # `is` gives a Python bool, never an np.bool_
        return missing if missing.weak else cast(missing, bool)
    return value is None


def output_records(v):
    """A function's outputs with each Tensor whose Python type depends on the path made a
    `Mixed` record, so that the graph returns the type eager code gives on that path."""
    t = type(v)
    if t is Tensor:
        return v if v.py_kinds is None else Mixed(v, *v.py_kinds)
    if t is tuple or t is list:
        return t(output_records(x) for x in v)
    if t is dict:
        return {k: output_records(x) for k, x in v.items()}
    if isinstance(v, tuple) and hasattr(t, "_fields"):
        return t(*(output_records(x) for x in v))
    if t is Optional:
        return Optional(v.flag, output_records(v.value), v.missing, v.name, v.origin)
    return v


def materialized(v):
    """`v` as one run-time value of its eager type: a Tensor whose Python type depends on the
    path becomes a node giving the Python number or NumPy value its path has (for printing and
    formatting), an Optional its value behind the check; other values are returned as is."""
    if isinstance(v, Optional):
        return v.unwrap() if v.missing is not None else _optional_value(v)
    if isinstance(v, Choice):
        return choices.output(v)
    if type(v) in choices.CHOSEN:  # a value of another kind by path (unions.Union)
        return choices.CHOSEN[type(v)](v)
    if not isinstance(v, Tensor) or v.py_kinds is None:
        return v
    tag, kinds, _ = v.py_kinds
    node = _g.Node("helper", "as_kind", mixed_output, (v, tag, kinds))
    _g.add_node(node, [(v.shape, v.dtype, v.weak)], user_origin(3))
    return node.outputs[0]


def as_its_kind(item):
    """A number whose Python type depends on the path (`100.0 if l == 0 else g`, `u - 2` of
    an item read back), made a node that gives its path's type when the graph runs; any other
    value as it is."""
    if type(item) is not Tensor:  # (an Optional's attributes are its value's, checked)
        return item
    kinds = getattr(item, "py_kinds", None)
    if kinds is None or len(set(kinds[1])) < 2:
        return item
    # Even a Python float on one path and an np.float64 on the other: the list is returned or
    # read back, where eager code shows which (np.stack alone would not tell them apart).
    return materialized(item)


def _optional_value(v):
    """An Optional that may be None: the run-time value or None, for printing."""
    value = v.value
    if not isinstance(value, Tensor):
        return v.unwrap()
    node = _g.Node("helper", "or_none", output, (v.flag, value, None, v.name))
    _g.add_node(node, [(value.shape, value.dtype, value.weak)], user_origin(3))
    return node.outputs[0]


# --- lifting: the same variable on two paths (trace.core.optional) --------------------------


RUN_LISTS: list = []
"""The type of a run-time list's stand-in (accumulated.ListAccum, which imports this module,
registers it): a leaf an Optional can hold, whose stand-in is an empty run-time list."""


def _numeric_leaf(v) -> bool:
    return (
        isinstance(v, (Tensor, np.ndarray, np.generic))
        or type(v) in _PY_NUMBERS
        or type(v) in RUN_LISTS
    )


def _zero(v):
    """A stand-in of a leaf's kind, dtype and shape (unknown sizes 0)."""
    from autoconv.graph import shapes

    if type(v) in _PY_NUMBERS:
        return type(v)(0)
    if isinstance(v, Tensor) and v.dtype.kind == "O" and not v.shape:
        return np.array("", dtype=object)  # a string made when the graph runs: an empty one
    if isinstance(v, Tensor) and v.weak:
        return PY_TYPES[v.dtype.kind](0)
    if type(v) in RUN_LISTS:  # an empty run-time list of the same items
        node = _g.Node("list_new", "list", attrs={"list": "stand-in"})
        _g.add_node(node, [(v.tensor.shape, v.tensor.dtype, False)], user_origin(3))
        return type(v)(node.outputs[0])
    if isinstance(v, (Tensor, np.ndarray, np.generic)):
        shape = tuple(0 if d is None else d for d in shapes.shape_of(v))
        z = np.zeros(shape, shapes.result_dtype(v))
        return z if isinstance(v, np.ndarray) or shape else z[()]
    made = STAND_INS.get(type(v))
    if made is not None:
        return made(v)
    raise TypeError(type(v).__name__)


# type -> the stand-in of a value of it, for the modules this one cannot import (unions)
STAND_INS: dict = {}


LIFTING = core_optional.Lifting(Optional, _numeric_leaf, _zero, choices.atom)


def zeros_like(v):
    """A stand-in of the same structure, kinds, dtypes and shapes as `v` (unknown sizes 0).
    It fills the outputs of a path where the value does not exist and is never read there."""
    return core_optional.zeros_like(v, LIFTING)


def lift_pair(name, a, b, origin):
    """`a` and `b`, one variable's values on two paths, made alike (`core.optional.lift_pair`).
    (A dict's item at a string key that exists on one path only is refused where it is read:
    `Optional.unwrap`.)"""
    return core_optional.lift_pair(name, a, b, origin, LIFTING)


# --- user raises -----------------------------------------------------------------------------


def raise_node(exc, origin) -> None:
    """Records, in the block being traced, that `exc` is raised when this point runs. A message
    that formats Tensors (`f"bad value {v}"`) is formatted then, with the run-time values."""
    from autoconv.trace.tensors.printing import formatted

    if any(type(a) is str and "\ue000" in a for a in exc.args):
        args = tuple(formatted(a) for a in exc.args)
        node = _g.Node("helper", "raise", _raise_new, (type(exc), *args), attrs={"raises": True})
    else:
        node = _g.Node("helper", "raise", _raise, (exc,), attrs={"raises": True})
    node.effect = True
    _g.add_node(node, [], origin)


class Raises(Exception):
    """Every path through a staged statement raises: the trace of the code after it stops."""

    def __init__(self, origin):
        super().__init__()
        self.origin = origin


def user_raise(exc) -> tuple | None:
    """`(file, line)` of the user's `raise` or `assert` that raised `exc` while tracing a
    branch, or None when `exc` came from somewhere else (then it is not staged)."""
    import linecache

    from autoconv.errors import AutoconvError

    if isinstance(exc, AutoconvError) or not isinstance(exc, Exception):
        return None
    if type(exc).__module__.startswith("autoconv."):
        return None  # autoconv's own signals (a loop that must retrace, ...)
    tb = exc.__traceback__
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    if last is None:
        return None
    code = last.tb_frame.f_code
    from autoconv.runtime.control_flow import assert_

    if code is assert_.__code__:
        return _frame_origin(last)
    if _at_raise(code, last.tb_lasti):
        return (code.co_filename, last.tb_lineno)
    line = linecache.getline(code.co_filename, last.tb_lineno).strip()
    if line.startswith(("raise ", "raise(")) or line == "raise":
        return (code.co_filename, last.tb_lineno)
    return None


def _at_raise(code, offset: int) -> bool:
    """Whether the instruction at `offset` is a `raise` statement's (`if c: raise E` on one
    line included)."""
    import dis

    raw = code.co_code
    return 0 <= offset < len(raw) and dis.opname[raw[offset]] == "RAISE_VARARGS"


def _frame_origin(tb):
    frame = tb.tb_frame.f_back
    return (frame.f_code.co_filename, frame.f_lineno) if frame is not None else None


def fail(origin, message):
    raise StagingError(f"{where(origin)}: {message}")


def _stored(v: Optional) -> None:
    """An Optional stored into a list or dict (`d[k] = v` on some paths): where the item was
    not there before (an unbound name), the container's keys would differ by path."""
    missing = v.missing
    if isinstance(missing, tuple) and missing[:1] == ("unbound",):
        raise StagingError(
            f"{where(v.origin or user_origin(3))}: `{missing[1]}` is set on some paths only (in "
            "a staged branch or loop), so whether the container holds it would be known only "
            f"when the graph runs. Give it a value before the statement (e.g. `{missing[1]} = "
            "0`), or set it on every path."
        )


staging.STORE_CHECKS[Optional] = _stored

# Optional and Mixed hold Tensors: graph.tensors_in and map_tensors look inside them.
_g.HOLDERS[Optional] = (
    lambda v: (v.flag, v.value),
    lambda v, new: Optional(new[0], new[1], v.missing, v.name, v.origin),
)
_g.HOLDERS[Mixed] = (
    lambda v: (v.value, v.tag),
    lambda v, new: Mixed(new[0], new[1], v.kinds, v.name),
)
