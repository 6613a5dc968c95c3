"""The Tensor as a NumPy value in Python code: its eager type (`isinstance`), run-time sizes,
`.item()`, `.tolist()`, `round()`, and clear errors for what needs a value while tracing.

Each entry either records what eager NumPy would compute (the executor replays the same Python
call, so values and types match) or raises a `StagingError` that quotes the user's line and
says what to write instead. In-place updates are in `mutation`.
"""

from __future__ import annotations

import ast
import os
import re
import sys

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import tensor as _tensor
from autoconv.graph.errors import StagingError, where
from autoconv.graph.helpers import STR_METHODS, array_list, str_method
from autoconv.graph.helpers import flat_items as _flat_items
from autoconv.graph.origin import user_frame as _user_frame_from
from autoconv.graph.tensor import PY_TYPES, Tensor
from autoconv.trace.tensors.library_values import exact_ratio as exact_ratio  # Tensor's
from autoconv.trace.tensors.library_values import in_library, library_needs_value
from autoconv.trace.tensors.path_types import retag
from autoconv.trace.tensors.recording import emit, may_raise
from autoconv.trace.tensors.user_code import (
    fail,
    opname,
    source_line,
    target_name,
    user_frame,
    write_site,
)

_PY_NUMBERS = (bool, int, float, complex)
RUN_LIST: list = []
"""The type of a run-time list (accumulated.ListAccum, which registers it here)."""
_TRACER_FILE = os.path.join("trace", "tensors", "tracer.py")
_AUTOCONV_DIR = (
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep
)
_TOLIST_LIMIT = 4096  # elements: `tolist()` records one output per element


# --- what a Tensor is, to user code -------------------------------------------------------


def eager_class(t: Tensor):
    """The type eager NumPy's value would have (`Tensor.__class__` for user code)."""
    from autoconv.graph.eager_types import eager_type

    if t.py_kinds is not None:
        return _path_class(t)
    kind = eager_type(t)
    if kind is None:
        frame = user_frame()
        # The kind is unknown, but an `isinstance` check whose answer is the same for a NumPy
        # scalar and a 0-d array (`isinstance(t, (tuple, list))`) can still be answered.
        candidates = (np.ndarray, t.dtype.type)
        answers = {_isinstance_answers(frame, c) for c in candidates}
        if len(answers) == 1 and None not in answers:
            return candidates[0]
        fail(
            frame,
            f"`{source_line(frame)}` asks for the type of {t!r}, a 0-d value that is a NumPy "
            "scalar on some paths and a 0-d array on others (it is only known when the "
            "graph runs). Make it one kind on every path: np.asarray(...) for an array, "
            "or x[()] for a scalar.",
        )
    return kind


def _path_class(t: Tensor):
    """The type of a number whose Python type depends on the path taken (`py_kinds`): one of
    them where every `isinstance` on the user's line answers the same for all; else an error
    naming the variable (no one answer is right on every path)."""
    _, kinds, name = t.py_kinds
    name = f"`{name}`" if name.isidentifier() else "this value"
    candidates = tuple(dict.fromkeys(t.dtype.type if k is None else k for k in kinds))
    frame = user_frame()
    answers = {_isinstance_answers(frame, c) for c in candidates}
    if len(candidates) == 1 or (len(answers) == 1 and None not in answers):
        return candidates[0]
    shown = " or ".join(
        c.__name__ if c in (bool, int, float, complex) else f"np.{c.__name__}" for c in candidates
    )
    fail(
        frame,
        f"`{source_line(frame)}` asks for the type of {name}, which is {shown} depending on "
        "the path taken (known only when the graph runs), and the answer differs between "
        f"them. Give {name} one type on every path (`np.float64(0)` or `0.0` rather than "
        "`0`), or convert it first (`float(...)`).",
    )


def _isinstance_answers(frame, kind):
    """What the `isinstance(..., classes)` calls on the user's line answer for a value of type
    `kind` (a tuple), or None if the line has none or their classes are not plain names."""
    try:
        tree = ast.parse(source_line(frame))
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
            classes = lookup(frame, node.args[1])
            if classes is None:
                return None
            try:
                answers.append(issubclass(kind, classes))
            except TypeError:
                return None
    return tuple(answers) or None


def lookup(frame, node):
    """The value of a name, dotted name or tuple of them in the user's frame (no calls)."""
    if isinstance(node, ast.Tuple):
        items = [lookup(frame, e) for e in node.elts]
        return None if any(i is None for i in items) else tuple(items)
    if isinstance(node, ast.Name):
        for space in (frame.f_locals, frame.f_globals, frame.f_builtins):
            if node.id in space:
                return space[node.id]
        return None
    if isinstance(node, ast.Attribute):
        base = lookup(frame, node.value)
        return None if base is None else getattr(base, node.attr, None)
    return None


def runtime_shape(t: Tensor) -> tuple:
    """`t.shape` for user code: a run-time int (weak Tensor) for each size known only then."""
    if not _g.building():
        return t._shape
    from autoconv.trace.tensors import ops

    return ops._shape_rule(np.shape, (t,), {})


def no_python_number(t: Tensor, what: str):
    """`int(t)`, `float(t)`, `operator.index(t)`, `np.asarray(t)` while tracing: a clear error
    that says what to write instead, for the construct on the user's line."""
    frame = user_frame()
    if in_library(frame) and what in ("float", "int", "index"):
        library_needs_value(f"takes its {what}() (`{source_line(frame)}` there)")
    line = source_line(frame)
    op = opname(frame)
    spec = _shown(t, frame, line)
    written = _item_write_target(line)
    if op == "BINARY_SUBSCR" and written is not None:
        written, key = written
        held = lookup(frame, ast.parse(written, mode="eval").body)
        if type(held) is list:
            fail(
                frame,
                f"`{line}` updates an item of the list `{written}` at an index known only when "
                f"the graph runs (`{key}`); a Python list needs the index now. Make `{written}` "
                f"a NumPy array (`{written} = np.zeros(n, dtype=...)`, `.tolist()` at the end "
                f"if a list is wanted): then `{line}` gives `{written}` a new array of the graph.",
            )
        if "." in written:
            # The converter leaves an attribute's item write as written: a local copy is
            # carried through the graph instead.
            local = written.rsplit(".", 1)[1]
            fail(
                frame,
                f"`{line}` updates an item of `{written}` at an index known only when the graph "
                f"runs (`{key}`), and `{written}` is a NumPy array made outside the graph, which "
                f"NumPy can index only with a value known now. Work on a local copy: "
                f"`{local} = {written}.copy()`, then `{line.replace(written, local, 1)}`, then "
                f"`{written} = {local}` (an item write on a local name gives it a new array of "
                "the graph).",
            )
        fail(
            frame,
            f"`{line}` updates an item of `{written}` at an index known only when the graph "
            f"runs (`{key}`), and `{written}` is a NumPy array made outside the graph, which "
            f"NumPy can index only with a value known now. Name the index first (`i = {key}`, "
            f"then `{written}[i] += ...`): an item write whose key is made of names and "
            f"constants gives `{written}` a new array of the graph.",
        )
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
    if what == "index" and _in_item_write():
        name = target_name(line) or "the list"
        fail(
            frame,
            f"`{line}` stores into `{name}` at the index {spec}, whose value is only known when "
            f"the graph runs; a Python list or dict needs the index now. Make `{name}` a NumPy "
            f"array (`{name} = np.zeros(n)` or `np.array({name})`): then `{name}[i] = v` gives "
            f"`{name}` a new array of the graph.",
            TypeError,
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


def unhashable(t: Tensor):
    """`hash(t)` from user code (a dict key, a set member, `v in seen` for a set): a Tensor has
    no value while tracing, so it cannot be found among keys by value as eager code finds it."""
    frame = user_frame()
    library = None
    while frame is not None and frame.f_code.co_filename.startswith(_tensor._STDLIB):
        library = frame  # `Counter(values)`: the standard library keys the user's data
        frame = frame.f_back
    frame = _user_frame_from(frame)  # (out of the runtime that called the library)
    names = [n for n, v in frame.f_locals.items() if v is t] if frame is not None else []
    if names:
        # (only a name the user's line shows: not one the converter bound, `key` of `c[f(v)]`)
        line = source_line(frame)
        names = [n for n in names if re.search(rf"\b{n}\b", line)]
    what = f"`{names[0]}`" if names else f"a value known only when the graph runs ({t.dtype})"
    if library is not None:
        module = library.f_globals.get("__name__", "the standard library")
        where_it = f"gives {what} to `{module}`, which uses it"
        instead = (
            "Tally in your own code with a dict, which autoconv stages for keys known only "
            "when the graph runs (`counts[k] = counts.get(k, 0) + 1`, `k in seen` for a set "
            "built with `seen.add(k)`), or with arrays"
        )
    else:
        where_it, instead = f"uses {what}", "Count or look up with arrays instead"
    fail(
        frame,
        f"`{source_line(frame)}` {where_it} as a dict key or set member, which needs its value "
        "while tracing (eager code finds keys by value; its value is only known when the graph "
        f"runs). {instead}: `counts = counts + (np.arange(k) == v)` "
        "or `np.bincount(x, minlength=k)` for counts, `np.any(arr == v)` or `np.isin(v, arr)` "
        "for membership; or use a Python value known before the call as the key.",
        TypeError,
    )


_IN_PLACE = {
    "sort": "`{v} = np.sort({v})` (np.sort takes the same axis and kind)",
    "partition": "`{v} = np.partition({v}, kth)`",
    "fill": "`{v} = np.full_like({v}, value)`",
    "put": "an item write, `{v}[indices] = values`, which autoconv turns into a new array",
    "itemset": "an item write, `{v}[index] = value`, which autoconv turns into a new array",
    "resize": "`{v} = np.resize({v}, new_shape)` (it repeats the items where ndarray.resize "
    "pads with zeros: use np.pad or np.concatenate to pad)",
    "setflags": "nothing: a graph's arrays are never written in place, so drop the call",
}


def unpacking(t: Tensor) -> bool:
    """Whether `iter(t)` is the user's unpacking (`a, b = row`, `for a, b in edges`,
    `first, *rest = t`), or a comprehension, a built-in (`sum(t)`, `list(t)`) or a `for`
    statement of code that stays Python (a generator's body) iterating a Tensor whose first
    dimension is known now, which goes by index as eager code does. A 0-d Tensor cannot be
    unpacked, as eagerly."""
    frame = sys._getframe(2)  # past Tensor.__iter__: the frame running the statement
    op = opname(frame)
    star = ("CALL_FUNCTION_EX", "LIST_EXTEND", "SET_UPDATE")  # `f(*t)`, `[*t]`, `{*t}`
    if op in ("GET_ITER", "CALL", "PRECALL", *star):
        # `[f(v) for v in t]` (comprehensions stay Python), `sum(t)`, `list(t)` (a built-in
        # iterates), a `for` statement that stays Python (converted code stages its own):
        # by index, as eagerly, for a first dimension known now and not too long to unroll.
        # What the body then does with each item is checked as it runs (an `if` on one is
        # the clear "used as a Python bool" error).
        return t._shape != () and t._shape[0] is not None and t._shape[0] <= _TOLIST_LIMIT
    if op not in ("UNPACK_SEQUENCE", "UNPACK_EX"):
        return False
    if not t._shape:
        fail(
            frame,
            f"`{source_line(frame)}` unpacks a single number ({t!r}): eager Python raises "
            "TypeError (cannot unpack a non-iterable NumPy scalar).",
            TypeError,
        )
    return t._shape[0] is not None


def no_match_case(t: Tensor):
    """`match k:` / `case 0:` with `k` a Tensor: a `match` statement stays Python (autoconv
    stages `if`/`elif`, not `match`), so its cases cannot test a value known only later."""
    frame = user_frame()
    line = source_line(frame)
    if not line.startswith("case "):
        return
    fail(
        frame,
        f"`{line}` tests a value known only when the graph runs ({t!r}), but a `match` "
        "statement stays Python: autoconv stages `if`/`elif`, not `match`. Write the cases as "
        "`if k == 0: ... elif k == 1: ... else: ...`, which is staged.",
    )


def no_comprehension_test(t: Tensor):
    """A comprehension's `if` known only when the graph runs, in a comprehension left as Python
    because `:=` in it binds in the function (which the runtime's form, whose parts are
    lambdas, cannot): the comprehension is named, and the loop to write."""
    frame = user_frame()
    if frame is None or frame.f_code.co_name not in _COMPREHENSIONS:
        return
    line = source_line(frame)
    if ":=" not in line:
        return  # (another comprehension kept as Python: `groupby` comparing in C, ...)
    fail(
        frame,
        f"the comprehension in `{line}` tests a value known only when the graph runs ({t!r})"
        " (`:=` in it binds a name of the function, which autoconv keeps as Python), and a "
        "comprehension autoconv leaves as Python needs its `if` now. Write it as a `for` "
        "statement with an `if` and `out.append(...)` (the `:=` there a plain assignment), "
        "which is staged.",
    )


_COMPREHENSIONS = ("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>")


def no_string_iteration(t: Tensor):
    """Iterating a string made when the graph runs (`for c in str(n)`, `sum(int(c) for c in
    f"{v}")`): its characters are known only then; the user's line and what to write."""
    frame = user_frame()
    fail(
        frame,
        f"`{source_line(frame)}` iterates a string made when the graph runs (an f-string or "
        "str() of a value), whose characters are known only then, which graph mode does not "
        "stage. Compute from the number instead (its digits: `n % 10` and `n //= 10` in a "
        "`while n > 0:` loop), or return the string and iterate it outside.",
    )


def _item_write_target(line: str) -> tuple[str, str] | None:
    """The array (a name or an attribute) whose item the statement `line` updates from its
    own items, and the key's text (`("bins", "b")` for `bins[b] += 1`, `dp` in `dp[c] = dp[c]
    + dp[c - w]`), or None (`out[i] = table[i]` reads another array: the index advice fits)."""
    try:
        body = ast.parse(line).body
    except SyntaxError:
        return None
    if len(body) != 1 or not isinstance(body[0], (ast.Assign, ast.AugAssign)):
        return None
    stmt = body[0]
    target = stmt.target if isinstance(stmt, ast.AugAssign) else stmt.targets[0]
    if not (isinstance(target, ast.Subscript) and _dotted(target.value)):
        return None
    name = ast.unparse(target.value)
    if isinstance(stmt, ast.AugAssign) or any(
        isinstance(n, ast.Subscript) and ast.unparse(n.value) == name for n in ast.walk(stmt.value)
    ):
        return name, ast.unparse(target.slice)
    return None


def _dotted(node) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _shown(t: Tensor, frame, line: str) -> str:
    """How a message shows `t` to the user: the name that holds it, or the key of the
    subscript on `line` made of more than constants, or its kind (never the Tensor's repr)."""
    try:
        words = {n.id for n in ast.walk(ast.parse(line)) if isinstance(n, ast.Name)}
    except SyntaxError:
        words = set()
    # (a name the line shows: not one of the converter's temporaries)
    seen = frame.f_locals.items() if frame is not None else ()
    names = [n for n, v in seen if v is t and n in words]
    if names:
        return f"`{names[0]}`"
    try:
        tree = ast.parse(line)
    except SyntaxError:
        tree = None
    if tree is not None:
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Constant):
                return f"`{ast.unparse(node.slice)}`"
    kind = "a Python int" if t.weak and t.dtype.kind in "iu" else f"a {t.dtype.name} value"
    return f"{kind} known only when the graph runs"


def _in_item_write() -> bool:
    """Whether the int asked for is the key of converted code's item write (`out[i] = v` is
    `out = ac.setitem(out, i, v)`, which stores into a list or dict as it is)."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_AUTOCONV_DIR):
        code = frame.f_code
        if code.co_name == "setitem" and code.co_filename.endswith(_TRACER_FILE):
            return True  # TensorTracer.setitem (not imported: tracer imports this module)
        frame = frame.f_back
    return False


def missing_attribute(t: Tensor, name: str):
    """`t.sort()`, `t.fill(0)` and the other ndarray methods that change the array in place:
    a Tensor is a value of the graph and cannot change, so say what to write. Other names fall
    through to the AttributeError eager NumPy would raise."""
    if t.dtype.kind == "O" and not t.shape and hasattr(str, name):
        return _str_method(t, name)  # a string made when the graph runs (an f-string)
    advice = _IN_PLACE.get(name)
    if advice is None:
        if hasattr(np.ndarray, name) and not name.startswith("_"):
            _unsupported_method(t, name)  # eager NumPy has it: no AttributeError of ours
        return
    frame = user_frame()
    names = [n for n, v in frame.f_locals.items() if v is t] if frame is not None else []
    var = names[0] if names else "y"
    fail(
        frame,
        f"`{source_line(frame)}` changes `{var}` in place ({name}() of an ndarray), and a value "
        f"of the graph cannot be changed in place (other names and the caller could see it). "
        f"Write {advice.format(v=var)} instead.",
        AttributeError,
    )


_NEEDS_VALUE = {
    "tobytes": "a dict keyed by a board's bytes needs them while tracing: keep the boards seen "
    "in a list and compare with `np.array_equal`, or key by a number computed with NumPy",
    "tostring": "as for tobytes: compare arrays with `np.array_equal` instead",
    "tofile": "write the array after the call, from its result",
    "dump": "save the array after the call, from its result",
    "dumps": "save the array after the call, from its result",
}


def _unsupported_method(t: Tensor, name: str):
    """`t.tobytes()` and the other ndarray methods graph mode has no form of: a clear error
    (eager NumPy has the method, so an AttributeError would mislead)."""
    frame = user_frame()
    names = [n for n, v in frame.f_locals.items() if v is t] if frame is not None else []
    var = f"`{names[0]}`" if names else f"an array known only when the graph runs ({t!r})"
    fail(
        frame,
        f"`{source_line(frame)}` calls ndarray.{name}() of {var}, which graph mode does not "
        "support: "
        + _NEEDS_VALUE.get(
            name,
            f"write it with NumPy functions (`np.{name}(...)` where NumPy has one), or call it "
            "after the graph runs, on its result",
        )
        + ".",
        AttributeError,
    )


def _str_method(t: Tensor, name: str):
    """`t.upper`, `t.startswith` ... of a string made when the graph runs: the method, called
    when the graph runs (arguments known now); a method giving another kind (`split`) is a
    clear error."""
    kind = STR_METHODS.get(name)
    frame = user_frame()
    if kind is None:
        fail(
            frame,
            f"`{source_line(frame)}` calls `.{name}()` of a string made when the graph runs (an "
            "f-string or str() of a value), which graph mode does not stage: format the values "
            "into the string you need instead, or return them and build the string outside.",
        )

    def call(*args):
        if any(isinstance(a, Tensor) for a in args):
            fail(
                frame,
                f"`{source_line(frame)}` calls `.{name}()` of a string made when the graph runs "
                "with an argument known only then; give it arguments known now.",
            )
        spec = ((), np.dtype(object)) if kind is object else ((), np.dtype(kind), True)
        return emit("helper", f"str.{name}", str_method, (t, name, *args), {}, [spec])[0]

    return call


# --- .item(), .tolist(), round() ----------------------------------------------------------


def _python_kind(t: Tensor, frame, what: str):
    """The Python type `.item()` gives for `t`'s dtype, and the dtype a weak Tensor of it has."""
    if t.weak:
        name = PY_TYPES[t.dtype.kind].__name__
        fail(
            frame,
            f"`{source_line(frame)}`: {what}() of a Python {name} ({t!r}): eager Python raises "
            f"AttributeError ('{name}' object has no attribute '{what}'). It is already a "
            "Python number.",
            AttributeError,
        )
    kind = type(np.zeros((), t.dtype).item())
    if kind not in _PY_NUMBERS:
        fail(frame, f"`{source_line(frame)}`: {what}() of a {t.dtype.name} Tensor is not supported")
    return kind, np.asarray(kind()).dtype


def item(t: Tensor, args):
    """`t.item(*args)`: a Python number when the graph runs (a weak Tensor while tracing)."""
    from autoconv.trace.tensors.numpy_dispatch import operand

    frame = user_frame()
    _, dtype = _python_kind(t, frame, "item")
    args = tuple(operand(a) for a in args)
    return emit("method", ".item", "item", (t, *args), {}, [((), dtype, True)])[0]


def tolist(t: Tensor):
    """`t.tolist()`: nested lists of Python numbers, built at trace time from the static shape,
    each element a run-time Python number."""
    frame = user_frame()
    _, dtype = _python_kind(t, frame, "tolist")
    shape = t._shape
    if not shape:
        return item(t, ())
    if shape == (None,):
        # A flat array of a run-time length (`a[a > 0].tolist()`): a run-time list of Python
        # numbers, as a staged loop's appends make one.
        spec = [((None,), dtype, False)]
        return [RUN_LIST[0](emit("helper", "tolist", array_list, (t,), {}, spec)[0])]
    if None in shape:
        fail(
            frame,
            f"`{source_line(frame)}`: tolist() of {t!r}: its length is only known when the graph "
            "runs, and a Python list needs it while tracing. Keep it an array (index it, or "
            "loop over it in converted code), or trace with a fixed shape.",
        )
    n = int(np.prod(shape))
    if n > _TOLIST_LIMIT:
        fail(
            frame,
            f"`{source_line(frame)}`: tolist() of {t!r} ({n} elements) would record one value per "
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

    frame = user_frame()
    kind = eager_class(t) if eager_type(t) is None else eager_type(t)
    args = (t,) if ndigits is None else (t, ndigits)
    standins = tuple(_standin(a, None) for a in args)
    try:
        result = round(*standins)
    except TypeError as e:
        fail(frame, f"`{source_line(frame)}`: round() of {t!r} (a {kind.__name__}): {e}", TypeError)
    if type(result) in _PY_NUMBERS:
        spec = ((), np.asarray(result).dtype, True)
    else:
        spec = (t._shape, np.asarray(result).dtype)
    out = emit("helper", "round", round, args, {}, [spec])[0]
    if type(result) is int and t.dtype.kind == "f":
        may_raise(out)  # round() of a NaN or an infinity raises, used or not
    return retag(round, args, {}, out)


def _carried_name(frame, t: Tensor) -> str:
    """The name (or `name.attribute`) by which the converter's `set_state` closure `frame`
    reaches the array `t` it writes an item of."""
    seen = frame.f_locals
    for n in frame.f_code.co_freevars:
        held = seen.get(n)
        if held is t:
            return n
        attrs = getattr(held, "__dict__", None)
        if isinstance(attrs, dict):
            found = next((a for a, v in attrs.items() if v is t), None)
            if found is not None:
                return f"{n}.{found}"
    return "the array"


def setitem(t: Tensor, key, value):
    """`t[key] = value` on a Tensor: a clear error (Python gives `__setitem__` no way to rebind
    `t`; converted code that routes the statement through `assign_item` gets a new array)."""
    frame = user_frame()
    if frame is not None and frame.f_code.co_name.rstrip("0123456789").rstrip("_") == "set_state":
        # (`set_state_1`: the namer numbers the closures of a second staged statement)
        # The converter's write-back of an item with a constant key (`acc[0] += v` in a
        # staged loop), carried out of the loop by its path.
        name = _carried_name(frame, t)
        item = f"{name}[{key!r}]"
        if "." in name:  # an attribute's array: a local name is carried whole
            local = name.rsplit(".", 1)[1]
            advice = (
                f"Bind it to a local name first (`{local} = {name}` before the statement, "
                f"`{local}[{key!r}] = ...` in it, then `{name} = {local}` after), which is "
                f"carried whole"
            )
        else:
            advice = (
                f"Use a variable key (`k = {key!r}` before the loop, then `{name}[k] = ...`), "
                f"which gives `{name}` a new array"
            )
        raise StagingError(
            f"{where(write_site(frame, item))}: "
            f"`{item}` is assigned inside a staged branch or loop with a constant key, so it "
            f"is carried out by its path, which cannot be written back into `{name}`, an "
            f"array of the graph. {advice}, or keep the value in a variable and store it "
            "after the loop."
        )
    line = source_line(frame)
    name = target_name(line) or "t"
    fail(
        frame,
        f"`{line}` writes into `{name}` in place; Tensors cannot be changed in place (the "
        f"caller's array, views and other names would have to see it). Build the new array "
        f"instead: `{name} = np.where(mask, value, {name})`, or for one position "
        f"`{name} = np.where(np.arange({name}.shape[0]) == i, value, {name})`.",
    )


_tensor.uses.arraylike = sys.modules[__name__]  # Tensor calls this module; tensor.py imports it not
