"""The leaves of a staged statement's variables: flattening, specs and how two join, constants
and casts in the block being built.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph.errors import StagingError, where
from autoconv.graph.tensor import PY_TYPES, Tensor, format_spec
from autoconv.trace.core.join import Leaves, Policy, holds, join
from autoconv.trace.core.values import unbound
from autoconv.trace.tensors import choices
from autoconv.trace.tensors.accumulated import _PY_NUMBERS, ListAccum, _weak
from autoconv.trace.tensors.choices import Choice
from autoconv.trace.tensors.optionals import (
    Optional,
)
from autoconv.trace.tensors.path_types import kinds_of
from autoconv.trace.tensors.recording import cast, emit


class _Named:
    """An Optional's variable name inside a structure: for messages only, so any two are equal
    (`second = first` in one branch, `second = v` in the other: one structure)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        return type(other) is _Named

    def __hash__(self):
        return 0


def _struct(value, leaves):
    t = type(value)
    if t is tuple or t is list:
        return (t, tuple(_struct(v, leaves) for v in value))
    if t is dict:
        return ("D", tuple((k, _struct(v, leaves)) for k, v in value.items()))
    if isinstance(value, tuple) and hasattr(t, "_fields"):
        return (t, tuple(_struct(v, leaves) for v in value))
    if t is Optional:
        flag = _struct(value.flag, leaves)
        return ("O", (value.missing, _Named(value.name), flag, _struct(value.value, leaves)))
    leaves.append(value)
    return "*"


def _rebuild(struct, leaves, originals=()):
    """The value of structure `struct` (see `_struct`) with `leaves`. A dict or list that one of
    `originals` (the values merged) holds at the same place, and whose items all come out as
    the very objects it holds, is that object itself: other names, and later changes to it,
    still see it (`r = (v, d)` in a branch, then `d["k"] = ...`), as eagerly."""
    it = iter(leaves)

    def build(s, olds):
        if s == "*":
            return next(it)
        kind, items = s
        if kind == "D":
            olds = [o for o in olds if type(o) is dict]
            new = {k: build(v, [o.get(k) for o in olds]) for k, v in items}
            return _same_container(new, olds, lambda o: o.values())
        if kind == "O":
            missing, named, flag, value = items
            inner = [o.value for o in olds if type(o) is Optional]
            return Optional(build(flag, []), build(value, inner), missing, named.name)
        if kind is tuple or kind is list:
            olds = [o for o in olds if type(o) is kind and len(o) == len(items)]
            new = kind(build(v, [o[j] for o in olds]) for j, v in enumerate(items))
            return _same_container(new, olds, iter) if kind is list else new
        return kind(*(build(v, []) for v in items))

    return build(struct, [o for o in originals if o is not None])


def _same_container(new, olds, values):
    """`new`, or the one of `olds` that holds exactly its items (the same objects)."""
    for old in olds:
        if len(old) == len(new) and all(a is b for a, b in zip(values(old), values(new))):
            return old
    return new


def _numeric(v) -> bool:
    return isinstance(v, (Tensor, np.ndarray, np.generic)) or type(v) in _PY_NUMBERS


def _spec(v) -> tuple:
    """`(shape, dtype, weak)` of a numeric value."""
    return (tuple(shapes.shape_of(v)), shapes.result_dtype(v), _weak(v))


def _join(a, b, fail, values=None) -> tuple:
    """The spec covering a value of spec `a` on one path and `b` on another (core.join: NumPy's
    weak-scalar rule, sizes that differ become None). `values`: the two values, whose Python
    number must be held exactly by the dtype it joins."""
    return join(a, b, fail, POLICY, values)


def _holds(dtype, number) -> bool:
    """Whether `dtype` holds the Python number `number` exactly (a Python number known only at
    run time: whether every such number fits, as for the 64-bit dtypes)."""
    if isinstance(number, Tensor):
        return dtype.itemsize >= 8 or dtype.kind in "biu"  # an int that does not fit raises
    return holds(dtype, number)


# Graph mode's policy (trace.core.join): sizes known at run time, NumPy's promotion, and the
# Python number a path gives held exactly by the joined dtype.
POLICY = Policy(exact=lambda dtype, number: _holds(dtype, number))


def _spec_text(v) -> str:
    if isinstance(v, Tensor) and v.dtype == object and v.shape == ():
        return "a string (or object) made when the graph runs"  # not `object[]`
    if isinstance(v, Tensor):
        return format_spec(v.shape, v.dtype, v.weak)
    if isinstance(v, (np.ndarray, np.generic)):
        return format_spec(np.shape(v), v.dtype)
    if unbound(v):
        return "undefined"
    if isinstance(v, Optional):  # the value, and what the variable holds where it is missing
        missing = "None" if v.missing is None else "unbound"
        return f"{_describe(v.value)} or {missing}"
    if isinstance(v, ListAccum):
        item = format_spec(v.tensor.shape[1:], v.tensor.dtype)
        return f"a list a staged loop appended to ({item} items)"
    if isinstance(v, Choice):
        return " or ".join(repr(o) for o in v.options)
    if type(v) in choices.CHOSEN:  # a value of another kind by path (unions.Union)
        return v.describe()
    if v is None or type(v) in (bool, int, float, complex, str, bytes):
        return f"{type(v).__name__} {v!r}"
    try:  # a user's __repr__ may format the Tensors the object holds: never in a message
        with _g.no_recording():
            shown = repr(v)
    except Exception:
        return f"a {type(v).__name__} object"
    return f"{type(v).__name__} {shown if len(shown) <= 80 else shown[:77] + '...'}"


def _same_python(a, b) -> bool:
    """Whether two Python values are equal, decided without recording anything in the graph:
    Tensors are never "the same" unless identical, and a user `__eq__` that would stage an
    operation (an object holding Tensors) counts as "not the same"."""
    if type(a) is not type(b) or isinstance(a, Tensor) or _numeric(a) and not _weak(a):
        return False
    try:
        with _g.no_recording():
            return bool(a == b)
    except RecursionError:
        raise  # the trace reports it (autoconv.trace.tensors.recursion)
    except Exception:
        return False


# The Tensor tracer's leaves, for trace.core.join.plan_leaf.
LEAVES = Leaves(
    numeric=lambda v: _numeric(v), same=lambda a, b: _same_python(a, b), spec=lambda v: _spec(v)
)


def _const(value, dtype, weak=False):
    dtype = np.dtype(dtype)
    if weak:
        value = PY_TYPES[dtype.kind](value)
        spec = ((), dtype, True)
        owned = True
    else:
        array = np.asarray(value, dtype=dtype)
        owned = array is not value  # made here, not an array the caller may still change
        # A 0-d array stays one (`np.zeros(())` in a branch): eager code returns an array.
        value = array[()] if array.ndim == 0 and not isinstance(value, np.ndarray) else array
        spec = (array.shape, array.dtype)
    return _g.add_const(value, spec, owned)


_cast = cast


def _as_tensor(value, spec):
    """`value` as a Tensor of `spec` in the current block (constants and casts as needed)."""
    _, dtype, weak = spec
    if not isinstance(value, Tensor):
        return _const(value, dtype, weak)
    if weak:
        if value.weak and value.dtype == dtype:
            return value
        return _cast(value, PY_TYPES[dtype.kind])
    if value.weak:
        return _cast(value, dtype.type)
    if value.dtype != dtype:
        return value.astype(dtype)
    return value


def _param(graph, spec, name):
    node = _g.Node("param", "param", attrs={"name": name})
    t = Tensor(graph, node, 0, *spec)
    node.outputs.append(t)
    return t


def _can_change(cond_block, params) -> bool:
    """Whether a loop test (the output of `cond_block`) can change between iterations: it
    depends on a loop variable, or its block reads state (a Variable) or has an effect."""
    test = cond_block.outputs[0]
    if not isinstance(test, Tensor):
        return not test  # a Python constant: False ends at once, True never ends
    wanted = {p.id for p in params}
    made = {id(n) for n in cond_block.nodes}
    todo, seen = [test], set()
    while todo:
        t = todo.pop()
        if t.id in wanted:
            return True
        if t.id in seen or t.node is None or id(t.node) not in made:
            continue
        seen.add(t.id)
        node = t.node
        if node.effect or node.kind == "read" or node.blocks:
            return True  # conservative: state, effects, nested control flow
        todo.extend(node.inputs)
    return False


def _tag_for(v, kinds):
    """The index in `kinds` of the kind `v` has on its path: an int, or for a Tensor whose
    kind depends on the path a Tensor (re-indexed by a small table when its kinds are listed
    in another order)."""
    own = kinds_of(v)
    mapping = [kinds.index(k) for k in own]
    if len(own) == 1:
        return mapping[0]
    tag = v.py_kinds[0]
    if not isinstance(tag, Tensor):
        return mapping[tag]
    if mapping == list(range(len(own))):
        return tag
    return _cast(_const(np.asarray(mapping), np.int64)[tag], int)


def _run_time_len(t):
    return emit("helper", "len", len, (t,), {}, [((), np.dtype(np.int64), True)])[0]


def _inherit_eager_type(param, init) -> None:
    """A loop variable's run-time type (NumPy scalar or 0-d array) is its initial value's, as
    the body keeps it (eager_types cannot replay a loop parameter)."""
    from autoconv.graph.eager_types import eager_type

    if param.weak or param.shape:
        return
    if isinstance(init, Tensor):
        kind = eager_type(init) if not init.weak else param.dtype.type
    elif isinstance(init, (np.ndarray, np.generic)):
        kind = type(init)
    elif type(init) in _PY_NUMBERS:
        # A Python number that meets NumPy values in the body takes their kind (NumPy's
        # weak-scalar rule): a NumPy scalar, which `+=` rebinds rather than changes in place.
        kind = param.dtype.type
    else:
        return
    if kind is not None:
        param._etype = kind


def grown_len(value: list):
    """The length of a list a staged loop appended to: its items known now, plus the run-time
    lengths of the appended ones (items appended after the loop follow the stand-in)."""
    grown = [_run_time_len(v.tensor) for v in value if isinstance(v, ListAccum)]
    n = len(value) - len(grown)
    for m in grown:
        n = m + n if isinstance(n, int) and n == 0 else n + m
    return n


def _cond_tensor(cond, origin):
    if type(cond) is list:
        return grown_len(cond) > 0  # a list grown in a staged loop: true when not empty
    if isinstance(cond, Choice):
        cond = choices.truth(cond)  # `if label:` of a value a staged condition chose
    elif type(cond) in choices.TRUTHS:
        cond = choices.TRUTHS[type(cond)](cond)  # of a value of another kind by path
    if isinstance(cond, Optional):
        value = cond.value
        if cond.missing is None and isinstance(value, Tensor):
            # `if x:` where x may be None: false for None, else the value's truth (the
            # stand-in on the None path is a zero, so it is false there as well).
            cond = np.logical_and(cond.flag, _cond_tensor(value, origin))
        else:
            cond = cond.unwrap()
    if isinstance(cond, Tensor):
        n = shapes.size(cond.shape)
        if n is not None and n != 1:
            raise StagingError(
                f"{where(origin)}: the condition is an array of shape {shapes.fmt(cond.shape)}; "
                "its truth value is ambiguous. Use np.any(...) or np.all(...)."
            )
    return cond


def _has_effect(block) -> bool:
    return any(n.effect for n in block.nodes)


def _describe(v) -> str:
    if isinstance(v, (tuple, list)):
        if 0 < len(v) <= 4:  # what each item is: two lists of 3 can still differ
            return f"a {type(v).__name__} of {len(v)} ({', '.join(map(_item_kind, v))})"
        return f"a {type(v).__name__} of {len(v)}"
    if isinstance(v, dict):
        return f"a dict with keys {list(v)}"
    return _spec_text(v)


def _item_kind(v) -> str:
    """What an item is, never by the user's own `repr` (it may format a Tensor)."""
    if isinstance(v, (tuple, list, dict)):
        return f"a {type(v).__name__}"
    if type(v).__name__ == "ListAccum":
        return repr(v)[1:-1]  # "items appended in a staged loop: float64[] each"
    if _numeric(v) or v is None or type(v) in (str, bool):
        return _spec_text(v)
    return f"a {type(v).__name__} object"
