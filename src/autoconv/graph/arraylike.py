"""The Tensor as a NumPy value in Python code: `.item()`, `.tolist()`, `round()`, in-place
operators, the eager type (`isinstance`), run-time sizes, and the errors for what needs a value
while tracing.

Each entry either records what eager NumPy would compute (the executor replays the same Python
call, so values and types match) or raises a `StagingError` that quotes the user's line and
says what to write instead.
"""

from __future__ import annotations

import ast
import dis
import linecache
import sys

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph.errors import StagingError, where
from autoconv.graph.origin import _SKIP
from autoconv.graph.tensor import _AUTOCONV, PY_TYPES, Tensor

_PY_NUMBERS = (bool, int, float, complex)
_TOLIST_LIMIT = 4096  # elements: `tolist()` records one output per element
_CREATORS = (np.zeros, np.ones, np.empty, np.full, np.arange)  # new arrays (staged_calls)


# --- where the user is --------------------------------------------------------------------


def _user_frame():
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_SKIP):
        frame = frame.f_back
    return frame


def _origin(frame):
    return None if frame is None else (frame.f_code.co_filename, frame.f_lineno)


def _line(frame) -> str:
    if frame is None:
        return ""
    return linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()


def _opname(frame) -> str:
    """The name of the bytecode instruction the user's frame is executing."""
    if frame is None:
        return ""
    try:
        return dis.opname[frame.f_code.co_code[frame.f_lasti]]
    except (IndexError, ValueError):
        return ""


def _target(line: str) -> str | None:
    """The variable an augmented or subscript assignment on `line` changes (`x` in `x += 1`,
    `x[0] = 5`)."""
    try:
        body = ast.parse(line).body
    except SyntaxError:
        return None
    for stmt in body:
        target = None
        if isinstance(stmt, ast.AugAssign):
            target = stmt.target
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Subscript):
            target = stmt.targets[0]
        elif (
            isinstance(stmt, ast.Assign)
            and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Call)
        ):
            target = stmt.targets[0]  # `x = assign_item(x, k, v)`
        while isinstance(target, ast.Subscript):
            target = target.value
        if target is not None:
            return ast.unparse(target)
    return None


def _stores_local(frame) -> bool:
    """True when the augmented assignment the frame is running stores into a local name
    (not a global, an attribute or an item)."""
    for ins in dis.get_instructions(frame.f_code):
        if ins.offset > frame.f_lasti and ins.opname.startswith("STORE_"):
            return ins.opname in ("STORE_FAST", "STORE_DEREF")
    return False


def fail(frame, message: str, *bases):
    """Raises a StagingError at the user's line; `bases` add the exception types eager code
    would raise (so `except TypeError` catches both)."""
    cls = StagingError
    if bases:
        cls = type(bases[0].__name__, (StagingError, *bases), {"__module__": __name__})
    raise cls(f"{where(_origin(frame))}: {message}")


# --- what a Tensor is, to user code -------------------------------------------------------


def eager_class(t: Tensor):
    """The type eager NumPy's value would have (`Tensor.__class__` for user code)."""
    from autoconv.graph.eager_types import eager_type

    kind = eager_type(t)
    if kind is None:
        frame = _user_frame()
        # The kind is unknown, but an `isinstance` check whose answer is the same for a NumPy
        # scalar and a 0-d array (`isinstance(t, (tuple, list))`) can still be answered.
        candidates = (np.ndarray, t.dtype.type)
        answers = {_isinstance_answers(frame, c) for c in candidates}
        if len(answers) == 1 and None not in answers:
            return candidates[0]
        fail(
            frame,
            f"`{_line(frame)}` asks for the type of {t!r}, a 0-d value that is a NumPy scalar on "
            "some paths and a 0-d array on others (it is only known when the graph runs). Make "
            "it one kind on every path: np.asarray(...) for an array, or x[()] for a scalar.",
        )
    return kind


def _isinstance_answers(frame, kind):
    """What the `isinstance(..., classes)` calls on the user's line answer for a value of type
    `kind` (a tuple), or None if the line has none or their classes are not plain names."""
    try:
        tree = ast.parse(_line(frame))
    except SyntaxError:
        return None
    answers = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance"
            and len(node.args) == 2
        ):
            classes = _lookup(frame, node.args[1])
            if classes is None:
                return None
            try:
                answers.append(issubclass(kind, classes))
            except TypeError:
                return None
    return tuple(answers) or None


def _lookup(frame, node):
    """The value of a name, dotted name or tuple of them in the user's frame (no calls)."""
    if isinstance(node, ast.Tuple):
        items = [_lookup(frame, e) for e in node.elts]
        return None if any(i is None for i in items) else tuple(items)
    if isinstance(node, ast.Name):
        for space in (frame.f_locals, frame.f_globals, frame.f_builtins):
            if node.id in space:
                return space[node.id]
        return None
    if isinstance(node, ast.Attribute):
        base = _lookup(frame, node.value)
        return None if base is None else getattr(base, node.attr, None)
    return None


def runtime_shape(t: Tensor) -> tuple:
    """`t.shape` for user code: a run-time int (weak Tensor) for each size known only then."""
    if not _g.building():
        return t._shape
    from autoconv.graph import ops

    return ops._shape_rule(np.shape, (t,), {})


def no_python_number(t: Tensor, what: str):
    """`int(t)`, `float(t)`, `operator.index(t)`, `np.asarray(t)` while tracing: a clear error
    that says what to write instead, for the construct on the user's line."""
    frame = _user_frame()
    line = _line(frame)
    op = _opname(frame)
    spec = repr(t)
    if op == "BINARY_SUBSCR":
        fail(
            frame,
            f"`{line}` indexes a NumPy array or a Python list with {spec}, whose value is only "
            "known when the graph runs; NumPy and Python need the index now. Write "
            "np.take(table, i) (np.take(table, i, axis=0) for rows of a 2-d table; "
            "np.take(np.asarray(items), i) for a list): it is recorded in the graph.",
        )
    if op == "STORE_SUBSCR":
        fail(
            frame,
            f"`{line}` stores into a NumPy array or a list at the index {spec}, whose value is "
            "only known when the graph runs. Build the new array instead: "
            "a = np.where(np.arange(a.shape[0]) == i, value, a).",
        )
    if what in ("int", "float", "complex"):
        fail(
            frame,
            f"`{line}`: {what}() of {spec} needs its value while tracing, and must give a real "
            f"Python {what}. Write t.item() instead: a Python number when the graph runs "
            f"(t.astype({what}).item() to convert the kind).",
        )
    if what == "index":
        fail(
            frame,
            f"`{line}` needs {spec} as a Python int while tracing (a size, an index, a "
            "repetition count). Its value is only known when the graph runs. In converted code "
            "`for i in range(n)` is staged; for an array of a run-time size use "
            "np.zeros_like / np.ones_like / np.full_like of an array of that size, or index "
            "with np.take(table, i).",
        )
    fail(
        frame,
        f"`{line}`: {spec} cannot become a NumPy array while tracing (np.asarray / np.array "
        "need a value). Apply NumPy functions to it directly (np.sum(t), t + 1, ...): they are "
        "recorded in the graph. If you indexed a NumPy array with it, write np.take(table, i).",
    )


# --- .item(), .tolist(), round() ----------------------------------------------------------


def _python_kind(t: Tensor, frame, what: str):
    """The Python type `.item()` gives for `t`'s dtype, and the dtype a weak Tensor of it has."""
    if t.weak:
        name = PY_TYPES[t.dtype.kind].__name__
        fail(
            frame,
            f"`{_line(frame)}`: {what}() of a Python {name} ({t!r}): eager Python raises "
            f"AttributeError ('{name}' object has no attribute '{what}'). It is already a "
            "Python number.",
            AttributeError,
        )
    kind = type(np.zeros((), t.dtype).item())
    if kind not in _PY_NUMBERS:
        fail(frame, f"`{_line(frame)}`: {what}() of a {t.dtype.name} Tensor is not supported")
    return kind, np.asarray(kind()).dtype


def item(t: Tensor, args):
    """`t.item(*args)`: a Python number when the graph runs (a weak Tensor while tracing)."""
    from autoconv.graph.numpy_dispatch import emit, operand

    frame = _user_frame()
    _, dtype = _python_kind(t, frame, "item")
    args = tuple(operand(a) for a in args)
    return emit("method", ".item", "item", (t, *args), {}, [((), dtype, True)])[0]


def _flat_items(a):
    items = a.ravel().tolist()
    return items[0] if len(items) == 1 else items


def tolist(t: Tensor):
    """`t.tolist()`: nested lists of Python numbers, built at trace time from the static shape,
    each element a run-time Python number."""
    from autoconv.graph.numpy_dispatch import emit

    frame = _user_frame()
    _, dtype = _python_kind(t, frame, "tolist")
    shape = t._shape
    if not shape:
        return item(t, ())
    if None in shape:
        fail(
            frame,
            f"`{_line(frame)}`: tolist() of {t!r}: its length is only known when the graph "
            "runs, and a Python list needs it while tracing. Keep it an array (index it, or "
            "loop over it in converted code), or trace with a fixed shape.",
        )
    n = int(np.prod(shape))
    if n > _TOLIST_LIMIT:
        fail(
            frame,
            f"`{_line(frame)}`: tolist() of {t!r} ({n} elements) would record one value per "
            f"element (at most {_TOLIST_LIMIT}). Keep it an array: NumPy functions on it are "
            "recorded in the graph.",
        )
    flat = emit("helper", "tolist", _flat_items, (t,), {}, [((), dtype, True)] * n) if n else []

    def nest(items, dims):
        if len(dims) == 1:
            return list(items)
        step = len(items) // dims[0] if dims[0] else 0
        return [nest(items[k * step : (k + 1) * step], dims[1:]) for k in range(dims[0])]

    return nest(list(flat), shape)


def round_(t: Tensor, ndigits):
    """`round(t)` / `round(t, n)`: Python's `round` on the run-time value, which gives what
    eager code gets (a Python int for `round(np.float64(x))`, a NumPy scalar with `n`)."""
    from autoconv.graph.eager_types import _standin, eager_type
    from autoconv.graph.numpy_dispatch import emit

    frame = _user_frame()
    kind = eager_class(t) if eager_type(t) is None else eager_type(t)
    args = (t,) if ndigits is None else (t, ndigits)
    standins = tuple(_standin(a, None) for a in args)
    try:
        result = round(*standins)
    except TypeError as e:
        fail(frame, f"`{_line(frame)}`: round() of {t!r} (a {kind.__name__}): {e}", TypeError)
    if type(result) in _PY_NUMBERS:
        spec = ((), np.asarray(result).dtype, True)
    else:
        spec = (t._shape, np.asarray(result).dtype)
    return emit("helper", "round", round, args, {}, [spec])[0]


# --- in-place operators -------------------------------------------------------------------


def _private(t: Tensor, depth: int = 0) -> bool:
    """True when nothing but the Python name being updated can see `t`'s array: a new array an
    operation made, or a loop variable (whose first value was checked when the loop began)."""
    from autoconv.graph.passes.analysis import returns_new

    node = t.node
    if node is None or depth > 32:
        return False
    kind = node.kind
    if kind == "param" or kind == "call" and node.fn in _CREATORS:
        return True
    if kind == "getitem":
        key = node.args[1]
        items = key if node.attrs.get("tuple") else (key,)
        return any(isinstance(k, (Tensor, np.ndarray)) and k.ndim > 0 for k in items)
    if kind in ("cond", "while"):
        if kind == "cond":
            values = [b.outputs[t.index] for b in node.blocks]
        else:
            values = [node.args[t.index], node.blocks[1].outputs[t.index]]
        return all(isinstance(v, Tensor) and _private(v, depth + 1) for v in values)
    return returns_new(node)


def _why_shared(t: Tensor) -> str:
    kind = t.node.kind if t.node is not None else ""
    if kind == "placeholder":
        return "an argument of the function, so the caller would see the change"
    if kind == "read":
        return "a Variable's value"
    if kind == "const":
        return "an array made outside the graph (a constant, global or attribute)"
    return "a view of, or the same array as, another value (an argument, a slice, a reshape)"


def inplace(symbol: str, ufunc, t: Tensor, other):
    """`t <symbol>= other`. NumPy scalars and Python numbers are immutable, so Python rebinds the
    name (we return NotImplemented and Python falls back to `t <symbol> other`). For an array,
    eager NumPy writes into it; the graph gives the name a new array instead, which is the same
    only when no one else sees the array: otherwise a clear error."""
    from autoconv.graph.eager_types import eager_type
    from autoconv.graph.numpy_dispatch import binop, emit

    if t.weak:
        return NotImplemented
    kind = eager_type(t)
    if kind is not None and kind is not np.ndarray:
        return NotImplemented
    frame = _user_frame()
    line = _line(frame)
    name = _target(line) or "the array"
    if not _private(t):
        fail(
            frame,
            f"`{line}` changes `{name}` in place, and `{name}` is {_why_shared(t)}. Eager NumPy "
            "writes into that array; a graph cannot. Write "
            f"`{name} = {name} {symbol} ...` instead (and return `{name}` if the caller needs "
            "the new value).",
        )
    if _named_elsewhere(t, frame, name):
        fail(
            frame,
            f"`{line}` changes `{name}` in place, and another name also refers to that array: "
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
    from autoconv.graph.numpy_dispatch import _ufunc_specs, emit

    if _PROBING:
        _BASELINE.append(sys.getrefcount(target) - 1)
        return 0
    frame = _user_frame()
    line = _line(frame)
    name = _target(line) or "the array"
    if _opname(frame) != "BINARY_OP":
        fail(
            frame,
            f"`{line}`: numpy.{uf.__name__}(..., out=...) writes into an array in place, which a "
            "graph cannot do; drop `out=` and use the result",
        )
    if len(_g._SCOPES.stack) > 1:
        # Inside staged control flow, staging holds the state in many places: look for the
        # names that could see the change instead (other locals of the user's functions on the
        # stack, module globals).
        shared = _named_elsewhere(target, frame, name)
    else:
        shared = _user_references(target, frame) > 0
    if not _stores_local(frame) or shared:
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


_BASELINE: list = []
_PROBING: list = []


def _user_references(target: np.ndarray, frame) -> int:
    """References to `target` beyond the name being updated, the interpreter's own and those
    that autoconv's staging holds (a branch's or loop's state, in frames outside the user's)."""
    internal = 0
    seen: set = set()
    outer = frame.f_back
    while outer is not None:
        if outer.f_code.co_filename.startswith(_AUTOCONV):
            # Reading f_locals stores a snapshot on the frame: a local then counts twice (its
            # slot and the snapshot); a container once, however many names refer to it.
            for value in list(outer.f_locals.values()):
                if value is target:
                    internal += 2
                else:
                    internal += _held(value, target, seen, 0)
        outer = outer.f_back
    # getrefcount's own argument and this function's parameter are not in the baseline
    return sys.getrefcount(target) - 2 - internal - _baseline()


def _named_elsewhere(target, frame, name: str) -> bool:
    """True when a local of a user function on the stack, other than `name`, or a module
    global refers to `target`."""
    while frame is not None:
        if not frame.f_code.co_filename.startswith(_SKIP):
            if any(v is target and k != name for k, v in frame.f_locals.items()):
                return True
            if any(v is target for v in frame.f_globals.values()):
                return True
        frame = frame.f_back
    return False


def _held(value, target, seen: set, depth: int) -> int:
    if type(value) not in (tuple, list, dict) or id(value) in seen or depth > 3:
        return 0
    seen.add(id(value))
    items = value.values() if type(value) is dict else value
    return sum(1 if v is target else _held(v, target, seen, depth + 1) for v in items)


def _baseline() -> int:
    """References to `s` during `s += t` that the interpreter, NumPy and autoconv hold (the
    name `s` included), measured once on this interpreter by a probe that takes the same path."""
    if not _BASELINE:
        from autoconv.graph.numpy_dispatch import ufunc

        class Probe:
            def __array_ufunc__(self, uf, method, *inputs, **kwargs):
                return ufunc(uf, method, inputs, kwargs)

        def probe(p):
            s = np.zeros(1)
            s += p
            return s

        _PROBING.append(True)
        try:
            probe(Probe())
        finally:
            _PROBING.clear()
    return _BASELINE[0]


# --- values changed in place: reading the old one is an error -----------------------------


def _mark_stale(t: Tensor, frame, line: str, name: str):
    t._stale = ([s.block for s in _g._SCOPES.stack], _origin(frame), line, name)
    t.graph._stale = True


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

    return node.kind in ("getitem", "method", "attr", "call") and not returns_new(node)


def check_live(tensors):
    """Raises if one of `tensors` (or the array it is a view of) was changed in place by an
    augmented assignment that autoconv traced as a new array: eager code would read the
    changed values here."""
    for x in tensors:
        y = x
        for _ in range(64):
            stale = getattr(y, "_stale", None)
            if stale is not None and _after(stale[0]):
                blocks, origin, line, name = stale
                frame = _user_frame()
                fail(
                    frame,
                    f"`{_line(frame)}` reads an array that `{line}` ({where(origin)}) changed in "
                    f"place, through another name or a view. In a graph `{name}` gets a new "
                    "array there and other names keep the old one, where eager NumPy would show "
                    f"the change. Write `{name} = {name.split('[')[0]} ...` without the in-place "
                    f"operator and use `{name}` afterwards, or copy first (`y = {name}.copy()`).",
                )
            node = y.node
            if node is None or not _is_view(node) or not node.args:
                break
            y = node.args[0]
            if not isinstance(y, Tensor):
                break


def setitem(t: Tensor, key, value):
    """`t[key] = value` on a Tensor: a clear error (Python gives `__setitem__` no way to rebind
    `t`; converted code that routes the statement through `assign_item` gets a new array)."""
    frame = _user_frame()
    line = _line(frame)
    name = _target(line) or "t"
    fail(
        frame,
        f"`{line}` writes into `{name}` in place; Tensors cannot be changed in place (the "
        f"caller's array, views and other names would have to see it). Build the new array "
        f"instead: `{name} = np.where(mask, value, {name})`, or for one position "
        f"`{name} = np.where(np.arange({name}.shape[0]) == i, value, {name})`.",
    )


def _set_copy(a, key, value):
    """`a[key] = value` on a copy of `a` (what `assign_item` records)."""
    a = a.copy()
    a[key] = value
    return a


def assign_item(target, key, value):
    """`target[key] = value` as a statement that rebinds `target` (`x = assign_item(x, k, v)`):
    on Python values and concrete arrays it stores in place, as eagerly; where a Tensor is
    involved the graph gets a copy of `target` with the item set, which is what eager code
    sees when no other name, view or caller shares the array (otherwise a clear error)."""
    from autoconv.graph.numpy_dispatch import emit, operand

    if not _g.building() or not (
        isinstance(target, Tensor) or _g.tensors_in(operand(key)) or _g.tensors_in(value)
    ):
        target[key] = value
        return target
    frame = _user_frame()
    line = _line(frame)
    name = _target(line) or "the array"
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
        if not _private(target):
            fail(
                frame,
                f"`{line}` writes into `{name}` in place, and `{name}` is {_why_shared(target)}. "
                f"Eager NumPy writes into that array; a graph cannot. Copy it first "
                f"(`{name} = {name}.copy()`) or build the new array with np.where.",
            )
        if _named_elsewhere(target, frame, name):
            fail(
                frame,
                f"`{line}` writes into `{name}` in place, and another name also refers to that "
                f"array: eager NumPy would change it there too. Copy it first "
                f"(`{name} = {name}.copy()`) or build the new array with np.where.",
            )
        spec = (target._shape, target.dtype)
    else:
        target = np.asarray(target) if type(target) is not np.ndarray else target
        # Other names and globals that see the array (lists and attributes that hold it are
        # not found: the refcount test of `inplace_concrete` needs a fixed call depth).
        if _named_elsewhere(target, frame, name):
            fail(
                frame,
                f"`{line}` writes a Tensor into the NumPy array `{name}`, and something else also "
                "refers to that array (another name, a list, an attribute or a global): eager "
                f"NumPy would change it there too, which a graph cannot. Copy it first "
                f"(`{name} = {name}.copy()`).",
            )
        spec = (target.shape, target.dtype)
    args = (target, operand(key), operand(value))
    result = emit("helper", "setitem", _set_copy, args, {}, [spec])[0]
    if isinstance(target, Tensor):
        _mark_stale(target, frame, line, name)
    return result
