"""In-place updates in traced code: `x += v`, `s += t` on a NumPy array, `x[k] = v`.

Eager NumPy writes into the array, and every name, view and caller that shares it sees the
change. A graph's values are immutable, so the graph gives the updated name a new array: the
same as eager code exactly when nothing else sees the old array. Each entry checks that (the
array is new and private, no other local name or global refers to it, the refcount of a NumPy
array) and raises a clear error otherwise; reading the old array afterwards through a view or a
container is caught when it is used (`check_live`).
"""

from __future__ import annotations

import ast
import dis
import re
import sys
import weakref

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph import tensor as _tensor
from autoconv.graph.errors import StagingError, where
from autoconv.graph.helpers import set_copy as _set_copy
from autoconv.graph.origin import _SKIP
from autoconv.graph.tensor import PY_TYPES, Tensor
from autoconv.trace.tensors import recording as _recording
from autoconv.trace.tensors.recording import emit
from autoconv.trace.tensors.user_code import (
    fail,
    frame_origin,
    opname,
    source_line,
    stores_local,
    target_name,
    user_frame,
)

_CREATORS = (np.zeros, np.ones, np.empty, np.full, np.arange)  # new arrays (staged_calls)

# A staged loop's parameters -> the value each one starts from (id(param) -> (param, first)):
# in the first iteration a loop variable *is* that value, so an in-place update of the variable
# writes into it eagerly. Staging registers its parameters while it traces the loop.
_LOOP_FIRST: dict = {}


def note_loop_param(param: Tensor, first, name: str = "") -> None:
    """`param` is a loop variable whose value before the loop is `first`; `name` (`h.g`): the
    attribute holding it, which may change it in place (no other name seeing it then)."""
    slot = _held_slot(user_frame(), name, first) if "." in name or "[" in name else None
    _LOOP_FIRST[id(param)] = (param, first, slot)


_ITEM = re.compile(r"^(\w+)\[(.+)\]$")  # `d['w']`, `bufs[0]`: an item carried by its path


def _held_slot(frame, name: str, target):
    """(object, attribute) of the attribute path `name` the user's `frame` reaches, or (dict
    or list, key) of an item `name` (`d['w']`), when it holds `target` now."""
    item = _ITEM.match(name)
    if item is not None:
        owner = frame.f_locals.get(item.group(1)) if frame is not None else None
        try:
            at = ast.literal_eval(item.group(2))
            return (owner, at) if type(owner) in (list, dict) and owner[at] is target else None
        except (ValueError, SyntaxError, LookupError, TypeError):
            return None
    first, *middle, attr = name.split(".")
    if frame is None or first not in frame.f_locals:
        return None
    owner = frame.f_locals[first]
    for part in middle:
        owner = getattr(owner, part, None)
    held = getattr(owner, "__dict__", None)
    return (owner, attr) if type(held) is dict and held.get(attr) is target else None


def forget_loop_params(params) -> None:
    for p in params:
        _LOOP_FIRST.pop(id(p), None)


# Constants a staged statement made of NumPy arrays in its state (const -> why something else
# sees the array, or None): a branch or body may write into them (`y[0] = v`) when nothing else
# sees it. Keyed by id (a Tensor is unhashable), each entry goes with its constant: a finished
# trace's constants, and their graph, are not kept.
_ADOPTED: dict = {}


def adopt_arrays(names, values, frame) -> tuple:
    """A staged statement's state (`values` itself when nothing changes), with each plain name
    that holds a NumPy array made outside the graph (`y = np.zeros(3)`) given a constant of the
    graph instead, so that a branch or body can write into it as a graph value. Whether anything
    else sees the array is decided here, before the statement runs, where the user's frames
    still hold what eager code would see."""
    out = list(values)
    for i, name in enumerate(names):
        value = values[i]
        if type(value) is np.ndarray and value.dtype != object and name.isidentifier():
            out[i] = _adopt(value, _array_shared(value, frame, name))
    return values if all(a is b for a, b in zip(out, values)) else tuple(out)


def _adopt(array: np.ndarray, why) -> Tensor:
    """`array` as a constant of the graph that a write may replace when `why` is None."""
    const = _g.add_const(array, (array.shape, array.dtype), False)  # the user's array
    key = id(const)
    _ADOPTED[key] = (weakref.ref(const, lambda _: _ADOPTED.pop(key, None)), why)
    return const


def _adopted(t: Tensor):
    """(True, why something else sees the array) for a constant `_adopt` made, else (False,)."""
    entry = _ADOPTED.get(id(t))
    return (True, entry[1]) if entry is not None and entry[0]() is t else (False, None)


# id(view) -> (view, base): NumPy arrays made outside the graph, `row = out[i]` where every
# write into `row` goes to `out` too (converters/views.py): they see each other's changes, as
# eagerly, so neither is another name that sees the other's array.
_THROUGH: dict = {}


def note_view(view, base) -> None:
    if type(view) is np.ndarray and type(base) is np.ndarray:
        if len(_THROUGH) > 4096:
            _THROUGH.clear()
        _THROUGH[id(view)] = (view, base)


def _through(a, b) -> bool:
    for v, base in ((a, b), (b, a)):
        entry = _THROUGH.get(id(v))
        if entry is not None and entry[0] is v and entry[1] is base:
            return True
    return False


def _array_shared(array, frame, name, slot=None):
    """Why eager code would see a write into `array` other than through `name` (a phrase), or
    None. What the user's frames on the stack can reach is searched, a few levels deep: their
    other locals, their module's globals, and the lists, dicts and objects these hold. `array`
    is a NumPy array (its views count) or a Tensor (itself only: a Tensor's views are caught
    when read, `check_live`); `slot` is the (object, attribute) being rebound, not counted."""
    seen: set = set()
    while frame is not None:
        if not frame.f_code.co_filename.startswith(_SKIP):
            for key, v in frame.f_locals.items():
                if key != name and not _through(v, array) and _reaches(v, array, seen, 0, slot):
                    return f"also reachable through `{key}`"
            if any(_reaches(v, array, seen, 1, slot) for v in frame.f_globals.values()):
                return "a global"
        frame = frame.f_back
    return None


def _reaches(v, array, seen: set, depth: int, slot=None) -> bool:
    """Whether `v` is `array`, a view of it, or holds either within a few levels."""
    if v is array:
        return True
    if isinstance(v, np.ndarray):
        return isinstance(array, np.ndarray) and _based_on(v, array)
    if depth > 3 or id(v) in seen:
        return False
    t = type(v)
    if t in (list, tuple, set, frozenset, dict):
        seen.add(id(v))
        items = v.values() if t is dict else v
        if slot is not None and v is slot[0] and t in (list, dict):
            # (`d["w"]` being rebound: runtime.items.setitem_in)
            pairs = v.items() if t is dict else enumerate(v)
            at = slot[1] % len(v) if t is list and type(slot[1]) is int and v else slot[1]
            items = [x for k, x in pairs if x is not array or k != at]
        return any(_reaches(x, array, seen, depth + 1, slot) for _, x in zip(range(10_000), items))
    held = getattr(v, "__dict__", None)  # an object of the user's (not a function or class)
    if type(held) is dict and not isinstance(v, type) and not t.__module__.startswith(_OURS):
        seen.add(id(v))
        return any(
            _reaches(x, array, seen, depth + 1, slot)
            for k, x in held.items()
            if slot is None or v is not slot[0] or k != slot[1]
        )
    return False


_OURS = ("autoconv.", "builtins", "numpy", "jax")


def _named_elsewhere(target, frame, name: str):
    """The name (a phrase, else None) when a local of a user function on the stack, other
    than `name`, or a module global refers to `target`, or, for a loop variable, to the array
    it started from. The
    callers of a function that was given the array for a parameter it writes in place are not
    searched: they get the new array, or a clear error, when it ends (`params_written`)."""
    stop = _caller_takes(target)
    for v in _versions(target):
        found = _named_in(v, frame, name, stop)
        if found:
            return found
    return None


def _named_in(target, frame, name: str, stop):
    """`the name` (a phrase) of a local or global that holds `target`, or None."""
    while frame is not None:
        if not frame.f_code.co_filename.startswith(_SKIP):
            for k, v in frame.f_locals.items():
                if v is target and k != name:
                    return f"`{k}`"
            for v in frame.f_globals.values():  # (a loop: faster than any(genexpr))
                if v is target:
                    return "a global"
        if frame is stop:
            return None
        frame = frame.f_back
    return None


def _other(found: str) -> str:
    """`b`, or "another name" for a phrase such as "also reachable through `b`"."""
    if found.startswith("also reachable through "):
        return found[len("also reachable through ") :]
    return found if found.startswith("`") else "another name (" + found + ")"


def _based_on(v: np.ndarray, array: np.ndarray) -> bool:
    while v is not None:
        if v is array:
            return True
        v = v.base if isinstance(v.base, np.ndarray) else None
    return False


# --- in-place operators -------------------------------------------------------------------


def _private(t: Tensor) -> bool:
    """True when nothing but the Python name being updated can see `t`'s array: a new array an
    operation made, or a loop variable (whose first value was checked when the loop began).
    A value chosen by staged `if`s and loops is private when every value it may be is: walked
    without a depth limit (a 4x4 Floyd-Warshall unrolls 64 `if`s), each value once."""
    todo, seen = [t], set()
    while todo:
        v = todo.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        more = _private_step(v)
        if more is False:
            return False
        todo.extend(more)
    return True


def _private_step(t: Tensor):
    """False when `t` is shared; else the values whose privacy `t`'s depends on ([] if none)."""
    from autoconv.graph.passes.analysis import returns_new

    node = t.node
    if node is None:
        return False
    kind = node.kind
    if kind == "param":
        _, first, slot = _LOOP_FIRST.get(id(t), (None, None, None))
        if isinstance(first, Tensor):
            return [first]
        if isinstance(first, np.ndarray):
            # An array made outside the graph: private unless a user's name or a global sees it
            # (the loop variable's own name is bound to the parameter by now; an attribute's
            # array, `h.g`, is seen through its object only by that attribute).
            return False if _array_shared(first, user_frame(), None, slot) else []
        return []
    if kind == "call" and node.fn in _CREATORS:
        return []
    if kind == "const" and _adopted(t)[0]:
        return [] if _adopted(t)[1] is None else False
    if kind == "const":
        # A NumPy array a staged statement carried in (`self.w` a method sets in a loop): the
        # same array as eagerly, private when nothing the user's frames reach holds it now.
        value = node.attrs.get("value")
        if node.attrs.get("owned"):
            return []
        if type(value) is np.ndarray and _array_shared(value, user_frame(), None) is None:
            return []
        return False
    if kind == "getitem":
        key = node.args[1]
        items = key if node.attrs.get("tuple") else (key,)
        advanced = any(isinstance(k, (Tensor, np.ndarray)) and k.ndim > 0 for k in items)
        return [] if advanced or _getitem_copies(node) else False
    if kind in ("cond", "while"):
        if kind == "cond":
            values = [b.outputs[t.index] for b in node.blocks]
        else:
            values = [node.args[t.index], node.blocks[1].outputs[t.index]]
        return values if all(isinstance(v, Tensor) for v in values) else False
    return [] if returns_new(node) else False


def _why_shared(t: Tensor) -> str:
    kind = t.node.kind if t.node is not None else ""
    first = _LOOP_FIRST.get(id(t), (None, None, None))[1]
    if kind == "param" and isinstance(first, Tensor):
        return "a loop variable whose value before the loop is " + _why_shared(first)
    if kind == "param":
        return "a loop variable whose value before the loop is an array that another name sees"
    if kind == "placeholder":
        return "an argument of the function, so the caller would see the change"
    if kind == "read":
        return "a Variable's value"
    if kind == "const" and _adopted(t)[0]:
        return f"an array made before this staged statement that is {_adopted(t)[1]}"
    if kind == "const":
        return "an array made outside the graph (a constant, global or attribute)"
    return "a view of, or the same array as, another value (an argument, a slice, a reshape)"


def inplace(symbol: str, ufunc, t: Tensor, other):
    """`t <symbol>= other`. NumPy scalars and Python numbers are immutable, so Python rebinds the
    name (we return NotImplemented and Python falls back to `t <symbol> other`). For an array,
    eager NumPy writes into it; the graph gives the name a new array instead, which is the same
    only when no one else sees the array: otherwise a clear error."""
    from autoconv.graph.eager_types import eager_type
    from autoconv.trace.tensors.numpy_dispatch import binop

    if t.weak or _tensor.uses.printing.is_text(t):
        return NotImplemented  # (a string made when the graph runs: immutable, as numbers)
    kind = eager_type(t)
    if kind is not None and kind is not np.ndarray:
        return NotImplemented
    frame = user_frame()
    line = source_line(frame)
    name = target_name(line) or "the array"
    if not _private(t):
        fail(
            frame,
            f"`{line}` changes `{name}` in place, and `{name}` is {_why_shared(t)}. Eager NumPy "
            "writes into that array; a graph cannot. Write "
            f"`{name} = {name} {symbol} ...` instead (and return `{name}` if the caller needs "
            "the new value).",
        )
    seen_by = _named_elsewhere(t, frame, name) or _held_elsewhere(t, frame, name)
    if seen_by:
        fail(
            frame,
            f"`{line}` changes `{name}` in place, and {_other(seen_by)} also refers to that "
            "array: "
            f"eager NumPy would change it there too; a graph gives `{name}` a new array and "
            f"leaves the other name as it was. Write `{name} = {name} {symbol} ...` and use "
            f"`{name}` afterwards, or copy first (`other = {name}.copy()`).",
        )
    result = binop(symbol, ufunc, t, other)
    if result.dtype != t.dtype:
        if not np.can_cast(result.dtype, t.dtype, "same_kind"):
            fail(
                frame,
                f"`{line}`: Cannot cast ufunc '{ufunc.__name__}' output from "
                f"dtype('{result.dtype}') to dtype('{t.dtype}') with casting rule 'same_kind' "
                f"(eager NumPy raises this too). Write `{name} = {name} {symbol} ...` for a new "
                "array of the wider dtype.",
                TypeError,
            )
        result = result.astype(t.dtype)
    if len(result._shape) != len(t._shape) or any(
        a is not None and b is not None and a != b for a, b in zip(result._shape, t._shape)
    ):
        fail(
            frame,
            f"`{line}`: non-broadcastable output operand with shape {t._shape} doesn't match the "
            f"broadcast shape {result._shape} (eager NumPy raises this too)",
            ValueError,
        )
    if not t._shape:
        # A 0-d array stays a 0-d array (the operator alone would give a NumPy scalar).
        result = emit("helper", "asarray", np.asarray, (result,), {}, [((), t.dtype)])[0]
    _mark_stale(t, frame, line, name)
    return result


def inplace_concrete(uf, inputs, kwargs, target: np.ndarray):
    """`s <op>= v` where `s` is a NumPy array made outside the graph and `v` a Tensor (NumPy
    calls `uf(s, v, out=(s,))`): `s` becomes the new Tensor, which matches eager code when no
    other reference sees the array `s` (refcount test), else a clear error."""
    from autoconv.trace.tensors.numpy_dispatch import _ufunc_specs

    frame = user_frame()
    line = source_line(frame)
    name = target_name(line) or "the array"
    op = opname(frame)
    if op != "BINARY_OP" and not op.startswith("INPLACE_"):  # `s += v` (INPLACE_* before 3.11)
        fail(
            frame,
            f"`{line}`: numpy.{uf.__name__}(..., out=...) writes into an array in place, which a "
            "graph cannot do; drop `out=` and use the result",
        )
    # What the user's frames can reach besides `name` (other locals, lists, dicts, objects,
    # globals, views): staging holds the state in places of its own, so no reference count.
    slot = None if stores_local(frame) else _attribute_slot(frame, name, target)
    why = _array_shared(target, frame, name, slot)
    if why is not None and slot is not None:
        fail(
            frame,
            f"`{line}` changes the NumPy array `{name}` in place with a Tensor, and that array "
            f"is {why}: eager NumPy would change it there too, which a graph cannot. Copy it "
            f"first (`{name} = {name}.copy()`) or write `{name} = {name} + ...`.",
        )
    if not (stores_local(frame) or slot is not None) or why is not None:
        fail(
            frame,
            f"`{line}` changes the NumPy array `{name}` in place with a Tensor, and something "
            "else also refers to that array (another name, a list, an attribute or a global): "
            "eager NumPy would change it there too, which a graph cannot. Write "
            f"`{name} = {name} + ...` (or copy it first: `{name} = {name}.copy()`).",
        )
    rest = {k: v for k, v in kwargs.items() if k != "out"}
    specs = _ufunc_specs(uf, inputs, rest)
    (shape, dtype) = specs[0][:2]
    if dtype != target.dtype and not np.can_cast(dtype, target.dtype, "same_kind"):
        fail(
            frame,
            f"`{line}`: Cannot cast ufunc '{uf.__name__}' output from dtype('{dtype}') to "
            f"dtype('{target.dtype}') with casting rule 'same_kind' (eager NumPy raises this too)",
            TypeError,
        )
    if len(shape) != target.ndim or any(
        d is not None and d != s for d, s in zip(shape, target.shape)
    ):
        fail(
            frame,
            f"`{line}`: non-broadcastable output operand with shape {target.shape} doesn't match "
            f"the broadcast shape {shape} (eager NumPy raises this too)",
            ValueError,
        )
    rest["dtype"] = target.dtype
    rest["casting"] = "same_kind"
    spec = [(target.shape, target.dtype)]
    out = emit("call", uf.__name__, uf, tuple(inputs), rest, spec)[0]
    if target.ndim == 0:
        out = emit("helper", "asarray", np.asarray, (out,), {}, spec)[0]
    return out


def _attribute_slot(frame, name: str, target):
    """(object, attribute) when the statement the user's `frame` runs stores into the attribute
    `name` (`self.w` of `self.w += v`) of an object its locals reach, which holds `target`."""
    if frame is None or "." not in name or opname_after(frame) != "STORE_ATTR":
        return None
    if not all(p.isidentifier() for p in name.split(".")):
        return None
    return _held_slot(frame, name, target)


def opname_after(frame) -> str:
    """The first store instruction after the one the user's frame is executing."""
    for ins in dis.get_instructions(frame.f_code):
        if ins.offset > frame.f_lasti and ins.opname.startswith("STORE_"):
            return ins.opname
    return ""


def _held_elsewhere(t: Tensor, frame, name: str):
    """Why something but the attribute `name` (`self.w`) holding the Tensor `t` also sees it (a
    phrase), or None."""
    slot = _attribute_slot(frame, name, t)
    return None if slot is None else _array_shared(t, frame, name, slot)


# --- a function's parameters written in place: the caller's names get the new arrays -------

# id(given) -> (given, now, the call's user frame): arrays a function wrote into in place
# (converters/written_params.py), until the caller's `written_back` takes them.
_WRITTEN: dict = {}


# (frame, the values its parameters were given) of the functions running now that write their
# parameters in place: their callers' names are given the new arrays (or refused) when they end.
_ACTIVE: list = []


def params_entered(frame, given) -> None:
    _ACTIVE.append((frame, given))


def _caller_takes(t) -> object:
    """The frame of a running function that was given `t` (or the array a loop variable `t`
    started from) for a parameter it writes in place: what its callers hold is settled when it
    ends (`params_written`), so a search for other names stops there. Else None."""
    if not _ACTIVE:
        return None
    for v in _versions(t):
        for frame, given in reversed(_ACTIVE):
            if any(g is v for g in given):
                return frame
    return None


def _versions(t):
    """`t`, and for a loop variable the values it started from (the loop's first iteration
    writes into them)."""
    for _ in range(64):
        yield t
        if not isinstance(t, Tensor):
            return
        t = _LOOP_FIRST.get(id(t), (None, None))[1]
        if t is None:
            return


def params_written(frame, changes) -> None:
    """`changes`: (name, given, now) of a function's parameters that it writes only in place,
    as it ends. Where one holds a new array, the array it was given is the same object as the
    caller's, changed: the caller's `written_back` takes the new one, and anything else still
    holding the old one reads an array changed in place (a clear error, `check_live`)."""
    from autoconv.graph.eager_types import eager_type

    while _ACTIVE:
        if _ACTIVE.pop()[0] is frame:
            break
    frame = user_frame()
    caller = _user_caller(frame)
    for name, given, now in changes:
        if now is given or not isinstance(now, Tensor):
            continue
        if isinstance(given, Tensor):
            if given.weak or eager_type(given) not in (np.ndarray, None):
                continue  # a number: `n += 1` rebinds the name only, as eagerly
            if getattr(given, "_stale", None) is None:
                line = source_line(caller) if caller is not None else f"the call of `{name}`"
                _mark_stale(given, caller or frame, line, name)
        elif type(given) is not np.ndarray:
            continue
        site = (frame_origin(caller), source_line(caller)) if caller is not None else None
        _WRITTEN[id(given)] = (given, now, site)
        now.graph._stale = True  # `check_live` then looks for arrays no caller took


def written_back(value):
    """What `value` (a caller's name after a call that wrote into it) holds now."""
    entry = _WRITTEN.pop(id(value), None)
    if entry is None or entry[0] is not value or entry[1].graph is not _g.current().graph:
        return value
    return entry[1]


def _user_caller(frame):
    frame = frame.f_back if frame is not None else None
    while frame is not None and frame.f_code.co_filename.startswith(_SKIP):
        frame = frame.f_back
    return frame


def _untaken_arrays(at_end: bool) -> None:
    """A NumPy array a function wrote into in place that no caller's name took back: eager code
    would see the change wherever the array is still held (a clear error then)."""
    graph = _g.current().graph if _g.building() else None
    for key, (given, now, site) in list(_WRITTEN.items()):
        del _WRITTEN[key]
        if isinstance(given, Tensor) or now.graph is not graph:
            continue  # marked changed in place (`check_live`), or from a trace that failed
        frame = user_frame()
        # (at the end of the trace what the function returns, or an object it changed, may
        # hold the array)
        why = "held where the function's caller may read it" if at_end else None
        why = why or _array_shared(given, frame, None)
        if why is not None:
            origin, line = site if site is not None else (None, "a call")
            raise StagingError(
                f"{where(origin) if origin is not None else 'autoconv'}: `{line}` "
                f"writes into a NumPy array in place, which is {why}: eager NumPy changes it "
                "there, a graph gives the function's parameter a new array. Call the function "
                "as a statement on a local array (`f(a)`, with `a = np.array(...)` or "
                "`a = x.copy()`), or return the array from it and assign it."
            )


# --- values changed in place: reading the old one is an error -----------------------------


def _mark_stale(t: Tensor, frame, line: str, name: str):
    t._stale = ([s.block for s in _g._SCOPES.stack], frame_origin(frame), line, name)
    t.graph._stale = True


def forget_marks(blocks) -> None:
    """Unmarks the arrays that statements traced into `blocks` changed in place: those blocks
    are dropped (a staged `if` traced again carrying what its calls change), so the changes
    never happen in the graph, and a read of the array afterwards is no stale read."""
    dropped = {id(b) for b in blocks}
    pending = list(blocks)
    while pending:
        block = pending.pop()
        for node in block.nodes:
            pending.extend(node.blocks or ())
            for t in node.inputs or ():
                stale = getattr(t, "_stale", None)
                if stale is not None and any(id(b) in dropped for b in stale[0]):
                    t._stale = None


def _after(changed: list) -> bool:
    """True when the current block runs after the block where a value was changed on every
    path that reaches it (not in the other branch of the same `if`)."""
    current = [s.block for s in _g._SCOPES.stack]
    k = 0
    while k < len(changed) and k < len(current) and changed[k] is current[k]:
        k += 1
    if k == len(changed) or k == len(current) or k == 0:
        return True
    parent = changed[k - 1]
    return any(changed[k] in n.blocks for n in parent.nodes)


def _is_view(node) -> bool:
    from autoconv.graph.passes.analysis import returns_new

    if node.kind == "getitem":
        return not _getitem_copies(node)
    return node.kind in ("method", "attr", "call") and not returns_new(node)


def _getitem_copies(node) -> bool:
    """Whether NumPy gives a copy for this subscript, never a view: an integer for every axis
    (a NumPy scalar: `piv = A[0, 0]`, `tmp = a[i]` of a 1-d array) or any index array (advanced
    indexing copies)."""
    if len(node.args) < 2 or not isinstance(node.args[0], Tensor):
        return False
    key = node.args[1]
    items = key if node.attrs.get("tuple") else (key,)
    ints = 0
    for k in items:
        if k is None or k is Ellipsis or isinstance(k, slice):
            continue
        if isinstance(k, (int, np.integer)) and not isinstance(k, bool):
            ints += 1
        elif isinstance(k, Tensor) and not k.shape and k.dtype.kind in "iu":
            ints += 1
        else:
            return True  # an index array, a list or a mask: advanced indexing copies
    return ints == len(items) and ints == len(node.args[0].shape)


def check_live(tensors, returned_by=None):
    """Raises if one of `tensors` (or the array it is a view of) was changed in place by an
    augmented or item assignment that autoconv traced as a new array: eager code would read
    the changed values here (`returned_by`: the name of the function returning them)."""
    if _WRITTEN:
        _untaken_arrays(returned_by is not None)
    for x in tensors:
        y = x
        for _ in range(64):
            stale = getattr(y, "_stale", None)
            if stale is not None and (returned_by is not None or _after(stale[0])):
                blocks, origin, line, name = stale
                rest = (
                    f"an array that `{line}` ({where(origin)}) changed in place, through "
                    f"another name or a view. In a graph `{name}` gets a new array there and "
                    "other names keep the old one, where eager NumPy would show the change. "
                    f"Write `{name} = {name} ...` without the in-place operator and use "
                    f"`{name}` afterwards, or copy first (`y = {name}.copy()`)."
                )
                if returned_by is not None:  # no frame of the user's runs any more
                    raise StagingError(f"{where(origin)}: `{returned_by}` returns {rest}")
                frame = user_frame()
                fail(frame, f"`{source_line(frame)}` reads {rest}")
            node = y.node
            if node is None or not _is_view(node) or not node.args:
                break
            y = node.args[0]
            if not isinstance(y, Tensor):
                break


def assign_item(target, key, value, slot=None, view=False, name=None):
    """`target[key] = value` as a statement that rebinds `target` (`x = assign_item(x, k, v)`):
    on Python values and concrete arrays it stores in place, as eagerly; where a Tensor is
    involved the graph gets a copy of `target` with the item set, which is what eager code
    sees when no other name, view or caller shares the array (otherwise a clear error).
    `slot`: the (object, attribute) holding `target` that the caller rebinds to the result.
    `view`: `target` is a view whose base the caller writes too (converters/views.py); `name`:
    the user's name of `target` where the statement's target is another (that view's)."""
    from autoconv.trace.tensors.numpy_dispatch import operand

    if not _g.building():
        target[key] = value
        return target
    # Variables read, optionals checked.
    key = tuple(operand(k) for k in key) if type(key) is tuple else operand(key)
    value = operand(value)
    staged_block = len(_g._SCOPES.stack) > 1
    if not (
        isinstance(target, Tensor)
        or _g.tensors_in(key)
        or _g.tensors_in(value)
        # In a staged branch or loop even a constant store is made when the graph runs.
        or staged_block
        and isinstance(target, np.ndarray)
    ):
        target[key] = value
        return target
    frame = user_frame()
    line = source_line(frame)
    own = name or target_name(line)  # (`name`: the array of an in-place call, trace.inplace)
    if own is not None and slot is not None and type(slot[0]) in (list, dict):
        own = f"{own}[{slot[1]!r}]"  # `d['w']`: the array it holds (runtime.items.setitem_in)
    name = own or "the array"
    if staged_block and isinstance(target, np.ndarray):
        # A NumPy array the staged statement does not carry (`y` is not read after it): the
        # write makes a graph value of it, if nothing else sees the array.
        why = _array_shared(target, frame, own, slot)
        if why is not None:
            fail(
                frame,
                f"`{line}` writes into the NumPy array `{name}` inside a staged branch or loop "
                f"(its test or bound is known only when the graph runs), and `{name}` is {why}: "
                "eager NumPy would change the array there too, which a graph cannot. Copy it "
                f"first (`{name} = {name}.copy()`) and use `{name}` afterwards.",
            )
        target = _adopt(target, None)
    if isinstance(target, Tensor):
        from autoconv.graph.eager_types import eager_type

        kind = eager_type(target)
        if target.weak or kind not in (np.ndarray, None):
            shown = PY_TYPES[target.dtype.kind] if target.weak else kind
            fail(
                frame,
                f"`{line}`: '{shown.__name__}' object does not support item assignment (eager "
                "Python raises this too)",
                TypeError,
            )
        _check_bounds(target._shape, key)  # eager NumPy's IndexError comes first
        if not view and not _private(target):
            fail(
                frame,
                f"`{line}` writes into `{name}` in place, and `{name}` is {_why_shared(target)}. "
                f"Eager NumPy writes into that array; a graph cannot. Copy it first "
                f"(`{name} = {name}.copy()`) or build the new array with np.where.",
            )
        other = _named_elsewhere(target, frame, name) or (
            _array_shared(target, frame, name, slot) if slot is not None else None
        )
        if other:
            fail(
                frame,
                f"`{line}` writes into `{name}` in place, and {_other(other)} also refers to that "
                f"array: eager NumPy would change it there too. Copy it first "
                f"(`{name} = {name}.copy()`) or build the new array with np.where.",
            )
        spec = (target._shape, target.dtype)
    else:
        # Another name, a global, a list, dict or object holding the array, or a view of it
        # would see the change eagerly: what the user's frames can reach says so.
        why = _array_shared(target, frame, name, slot)
        if why is not None:
            fail(
                frame,
                f"`{line}` writes a Tensor into the NumPy array `{name}`, and something else also "
                f"refers to that array ({why}): eager NumPy would change it there too, which a "
                f"graph cannot. Copy it first (`{name} = {name}.copy()`).",
            )
        spec = (target.shape, target.dtype)
        _check_bounds(spec[0], key)  # (a Tensor's were checked above, before `_private`)
    result = emit("helper", "setitem", _set_copy, (target, key, value), {}, [spec])[0]
    if spec[1].kind in "biu" and shapes.result_dtype(value).kind in "fc":
        # NumPy raises storing a NaN or an infinity into an integer array: kept even when
        # nothing reads the array, as eager code raises there.
        result.node.effect = True
    if isinstance(target, Tensor):
        _mark_stale(target, frame, line, name)
    return result


def _check_bounds(shape, key) -> None:
    """An integer key outside a size known now raises IndexError while tracing, as eager NumPy
    does on every call with this shape (a JAX program would drop the write silently)."""
    from autoconv.graph.shapes import IndexOutOfBounds
    from autoconv.trace.tensors.numpy_dispatch import _key_item, index_shape

    try:
        index_shape(shape, tuple(_key_item(k) for k in (key if type(key) is tuple else (key,))))
    except IndexOutOfBounds:
        raise
    except Exception:  # other keys are checked as the write is recorded and run
        pass


_tensor.uses.mutation = sys.modules[__name__]  # Tensor calls this module; tensor.py imports it not


_recording.check_live = check_live  # emit calls it once a graph is stale (see _mark_stale)
