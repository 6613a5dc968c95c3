"""`autoconv.print` and Python's `print` in converted code: printed every time a function runs.

`autoconv.print` records a `print` node (an effect, kept by non-strict execution and run in
program order) that prints the run-time values with Python's `print`, so the output matches
eager execution. Converted code calls Python's `print` as `ac.print` (runtime.printing), which
records the same node (`staged_print`) when a value is known only when the graph runs or the
call is in a staged block; other prints run once, while tracing.

Format specs work too: in `print(f"loss {loss:.3f}")`, `format(loss, ".3f")` runs while
tracing, where the value is unknown, so `Tensor.__format__` gives a marker that stands for it;
the print turns the string back into a `format` node that formats the run-time values with the
same specs. Elsewhere in converted code an f-string is `ac.text(f"...")` (converters/strings.py),
which makes the same node: a string made when the graph runs. An f-string of a Tensor in code
that is not converted would be a made-up string, so it is an error.
"""

import ast
import builtins
import dis
import linecache
import os
import re
import sys

import numpy as np

from autoconv.caches import register_cache
from autoconv.graph import graph as _g
from autoconv.graph import tensor as _tensor
from autoconv.graph.errors import StagingError, where
from autoconv.graph.helpers import parse_number as _parse_number
from autoconv.graph.helpers import render as _render
from autoconv.graph.helpers import str_method as _str_method
from autoconv.graph.helpers import text_or_none
from autoconv.graph.origin import user_origin
from autoconv.runtime import tries
from autoconv.trace.tensors.choices import Choice
from autoconv.trace.tensors.choices import output as chosen_value
from autoconv.trace.tensors.recording import emit
from autoconv.trace.tensors.records import returned_list

_MARK = re.compile("\ue000(\\d+)\ue001")


def print(*values, sep=" ", end="\n", file=None, flush=False):  # noqa: A001 - mirrors the built-in
    """Like Python's `print`, but inside an `autoconv.function` it prints on every call (and
    under `jax.jit` and the other JAX transformations, with the run-time values)."""
    if not _g.building():
        from autoconv.runtime.staging import jax_tracing, jax_value

        # Under a JAX trace even constant values print when the computation runs (and, in a
        # staged branch, only for the inputs that take it), not once while tracing.
        if any(jax_value(v) for v in values) or jax_tracing():
            _jax_print(values, dict(sep=sep, end=end, file=file, flush=flush))
            return
        builtins.print(*values, sep=sep, end=end, file=file, flush=flush)
        return
    kwargs = {}
    if sep != " ":
        kwargs["sep"] = sep
    if end != "\n":
        kwargs["end"] = end
    if file is not None:
        kwargs["file"] = file
    if flush:
        kwargs["flush"] = True
    _record(values, kwargs)


def _record(values, kwargs) -> None:
    """Adds the `print` node of `print(*values, **kwargs)` (an effect) to the block traced now."""
    from autoconv.trace.tensors.numpy_dispatch import operand
    from autoconv.trace.tensors.optionals import materialized

    args = tuple(_whole(_formatted(operand(materialized(_picks(v))))) for v in values)
    graph = _g.current().graph
    if getattr(graph, "_stale", False):
        from autoconv.trace.tensors.mutation import check_live

        check_live(_g.tensors_in(args))
    node = _g.Node("print", "print", builtins.print, args, kwargs)
    node.effect = True
    _g.add_node(node, [], user_origin(2))
    graph._staged_prints = True


def _whole(value, depth: int = 0):
    """A list a staged loop appended to (in a list, tuple or dict printed) as a node giving the
    whole Python list when the graph runs: printed as eager prints it, not as a stand-in."""
    kind = type(value)
    if depth > 8 or kind not in (list, tuple, dict):
        return value
    if kind is dict:
        items = {k: _whole(v, depth + 1) for k, v in value.items()}
        return value if all(items[k] is v for k, v in value.items()) else items
    items = [_whole(v, depth + 1) for v in value]
    if kind is list:
        accumulated = _tensor.uses.accumulated  # not imported: it imports this module
        n = accumulated.accum_index(items)
        if n is not None:
            if any(isinstance(v, accumulated.ListAccum) for v in items[n + 1 :]):
                raise StagingError(
                    f"{where(user_origin(2))}: a printed list holds items appended by several "
                    "staged loops or branches, with other items between them; print "
                    "np.stack(lst), or each part on its own."
                )
            spec = [((), np.dtype(object))]
            run = returned_list([items[n]])  # records: their dicts, lists, strs and None
            run = items[n].tensor if type(run) is list else run
            parts = (tuple(items[:n]), run, tuple(items[n + 1 :]))
            return emit("helper", "list", _spliced, parts, {}, spec)[0]
    if all(a is b for a, b in zip(items, value)):
        return value
    return kind(items)


def _picks(value):
    """`value` with each string a staged condition chose inside its lists, tuples and dicts
    made the one it picks (`print(labels)` shows `['pos', 'neg']`, as eager code)."""
    if type(value) in (list, tuple, dict) and _holds_choice(value):
        from autoconv.trace.tensors.choices import chosen

        return chosen(value)
    return value


def _holds_choice(value, depth: int = 0) -> bool:
    kind = type(value)
    if kind is Choice:
        return True
    if depth > 8 or kind not in (list, tuple, dict):
        return False
    items = value.values() if kind is dict else value
    return any(_holds_choice(v, depth + 1) for v in items)


def _spliced(before, appended, after) -> list:
    """A list whose middle items a staged loop appended (`_whole`), as Python has it."""
    return [*before, *appended, *after]


def staged_print(values, kwargs) -> bool:
    """Python's `print` called by converted code while a graph is traced (`ac.print`): records
    it as `autoconv.print` does, and says so, when a value is symbolic (a Tensor, one inside a
    list, tuple or dict, an f-string of one) or the call is in a staged branch or loop body;
    else (and when no print is staged before it) gives False, and Python's `print` runs now,
    once (with a `TraceEffectWarning`)."""
    if not _g.building():
        return False  # a trace of another thread: this one runs Python
    scope = _g.current()
    graph = scope.graph
    # After a staged print, printing now would come before it (and only on the first call).
    staged_before = getattr(graph, "_staged_prints", False)
    if scope.block is graph.block and not staged_before and not any(_symbolic(v) for v in values):
        from autoconv.trace.tensors import trace_effects

        trace_effects.printed_while_tracing()
        return False
    values, kwargs = _joined_line(values, kwargs)
    options = _options(kwargs)
    if options is None:
        return False  # Python's own TypeError, raised now as eagerly
    _record(values, options)
    return True


def _joined_line(values, kwargs):
    """`print(*values, sep=s, end=e)` where `sep` or `end` is a string known only when the
    graph runs (`end=", " if i < n - 1 else "\n"`): one string made then, the line eager code
    writes, printed with `end=""`; other calls as they are."""
    sep, end = kwargs.get("sep"), kwargs.get("end")
    if not any(type(v) is Choice or is_text(v) for v in (sep, end)):
        return values, kwargs
    sep = " " if sep is None else sep
    end = "\n" if end is None else end
    line = _as_marked(sep).join(Markers.make(v, "!s") for v in values) + _as_marked(end)
    return (_formatted(line),), {**kwargs, "sep": None, "end": ""}


def _options(kwargs):
    """`print`'s keyword arguments as the node keeps them (defaults left out), or None where
    Python's `print` rejects them."""
    options = {}
    for key, value in kwargs.items():
        if key in ("sep", "end"):
            if value is not None and type(value) is not str:
                return None
            if value is not None and value != (" " if key == "sep" else "\n"):
                options[key] = value
        elif key == "file":
            if value is not None:
                options[key] = value
        elif key == "flush":
            if value:
                options[key] = True
        else:
            return None
    return options


def _symbolic(value, depth: int = 0) -> bool:
    """Whether printing `value` needs its run-time value."""
    kind = type(value)
    if kind is str:
        return "\ue000" in value
    if kind in _PLAIN:
        return False
    if kind in (list, tuple):
        return depth < 8 and any(_symbolic(v, depth + 1) for v in value)
    if kind is dict:
        return depth < 8 and any(_symbolic(v, depth + 1) for v in value.values())
    from autoconv.runtime.staging import symbolic

    return symbolic(value) or bool(_g.tensors_in(value))


symbolic = _symbolic  # (runtime.printing.formatted: a container an f-string formats)


_PLAIN = frozenset((int, float, bool, complex, bytes, type(None)))


def jax_print(values, kwargs) -> None:
    """Python's `print` of a JAX tracer in converted code: printed when the computation runs."""
    options = dict(sep=" ", end="\n", file=None, flush=False)
    options.update(kwargs)
    _jax_print(values, options)


def _jax_print(values, options):
    """Prints JAX tracers' values when the computation runs, in program order (an ordered
    `jax.debug.callback`), also inside lists, tuples and dicts; the other values are printed
    as they are now."""
    import jax

    traced: list = []

    def slot(v):
        if not _jax_value(v):
            return v
        traced.append(v)
        return _Slot(len(traced) - 1)

    template = _swap(tuple(values), slot)

    def show(*arrays):
        items = _swap(template, lambda v: arrays[v.index] if type(v) is _Slot else v)
        builtins.print(*items, **options)

    jax.debug.callback(show, *traced, ordered=True)


class _Slot:
    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


def _swap(value, fn, depth: int = 0):
    """`value` with `fn` applied to each item inside lists, tuples and dicts (in order)."""
    kind = type(value)
    if depth < 8 and kind in (list, tuple):
        return kind(_swap(v, fn, depth + 1) for v in value)
    if depth < 8 and kind is dict:
        return {k: _swap(v, fn, depth + 1) for k, v in value.items()}
    return fn(value)


def _jax_value(v) -> bool:
    from autoconv.runtime.staging import jax_value

    return jax_value(v)


# --- format specs ---------------------------------------------------------------------------


def formatted(value):
    """`value`, or for a string holding format markers, a node making it when the graph runs."""
    return _formatted(value)


def _formatted(value):
    """A string holding format markers as a `format` node of its Tensors; anything else as is."""
    if type(value) is not str or "\ue000" not in value:
        return value

    table = _markers(_g.current().graph)
    pieces, tensors = [], []
    at = 0
    for m in _MARK.finditer(value):
        if m.start() > at:
            pieces.append(value[at : m.start()])
        tensor, spec = table[int(m.group(1))]
        pieces.append((len(tensors), spec))
        tensors.append(tensor)
        at = m.end()
    if at < len(value):
        pieces.append(value[at:])
    spec = [((), np.dtype(object))]
    return emit("helper", "format", _render, (tuple(pieces), *tensors), {}, spec)[0]


def optional_marker(flag, value, spec: str) -> str:
    """The marker of an f-string's piece for a value that may be None (`flag`: whether it
    is there): the value's text, or "None", chosen when the graph runs."""
    if spec in ("!r", "!s"):
        if isinstance(value, _tensor.Tensor):
            shown = _formatted(_marker(_as_printed(value), spec))
        else:
            shown = (repr if spec == "!r" else str)(value)
    else:
        shown = _formatted(format(value, spec))
    if type(shown) is str:
        shown = _g.add_const(np.array(shown, dtype=object), ((), np.dtype(object)), False)
    spec_out = [((), np.dtype(object))]
    text = emit("helper", "text_or_none", text_or_none, (flag, shown), {}, spec_out)[0]
    return _marker(text, "")


class OptionalText:
    """A value that may be None in an f-string of converted code (`runtime.printing.formatted`):
    formatted, `str()` and `repr()` as its text or "None", chosen when the graph runs."""

    __slots__ = ("flag", "value")

    def __init__(self, optional):
        self.flag, self.value = optional.flag, optional.value

    def __format__(self, spec):
        return optional_marker(self.flag, self.value, spec)

    def __str__(self):
        return optional_marker(self.flag, self.value, "!s")

    def __repr__(self):
        return optional_marker(self.flag, self.value, "!r")


class ContainerText:
    """A list, tuple or dict holding symbolic values in an f-string of converted code
    (`runtime.printing.formatted`): formatted, `str()` and `repr()` as its repr, made when the
    graph runs (a container's str is its repr; a format spec is Python's TypeError)."""

    __slots__ = ("shown", "kind")

    def __init__(self, value):
        self.shown, self.kind = _shown(value), type(value)

    def __format__(self, spec):
        if spec:
            raise TypeError(f"unsupported format string passed to {self.kind.__name__}.__format__")
        return self.shown

    def __str__(self):
        return self.shown

    __repr__ = __str__


def marked_tensors(text: str) -> list:
    """The Tensors that the format markers in `text` stand for (in the graph being built)."""
    table = _markers(_g.current().graph)
    return [table[int(m.group(1))][0] for m in _MARK.finditer(text) if int(m.group(1)) in table]


def message_reachable(exc) -> bool:
    """Whether the values `exc`'s message shows when the graph runs (an f-string's) are ones
    a staged `try`'s handler sees: not made inside the branch that raised it
    (runtime.tries.try_exception)."""
    blocks = [scope.block for scope in _g._SCOPES.stack]
    for arg in exc.args:
        for t in marked_tensors(arg) if isinstance(arg, str) else ():
            node = t.node
            if node is None or node.kind in ("placeholder", "const", "param"):
                continue  # (a loop variable: the loop being traced holds it)
            if not any(any(n is node for n in b.nodes) for b in blocks):
                return False
    return True


tries.REACHABLE[0] = message_reachable


def _markers(graph) -> dict:
    table = getattr(graph, "_format_markers", None)
    if table is None:
        table = graph._format_markers = {}
    return table


def format_tensor(t, spec: str) -> str:
    """`format(t, spec)` while tracing (`Tensor.__format__`): a marker when the f-string is an
    argument of `autoconv.print` or of Python's `print` in converted code (`ac.print`), or a
    value converted code makes (`ac.text`); the Tensor's repr for Python's `print` in code that
    is not converted (it runs once, while tracing); else an error that says what to write."""
    from autoconv.trace.tensors.user_code import fail, user_frame

    frame = user_frame()
    consumer = _consumer(frame)
    if consumer == "builtins" and not _converted(frame, "print"):
        return repr(t)
    if consumer is not None or _converted(frame, "text"):
        # autoconv.print, Python's print (staged by `ac.print`), a staged raise's message, or
        # an f-string converted code makes a value of (`ac.text`, converters/strings.py).
        return _marker(_as_printed(t), spec)
    line = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip() if frame else ""
    fail(
        frame,
        f"`{line}` formats {t!r} into a string (format spec {spec!r}) in code autoconv does not "
        "convert; its value is only known when the graph runs, so the string cannot be made "
        "while tracing. Let autoconv convert the function (in converted code an f-string is "
        "made when the graph runs), pass the f-string straight to autoconv.print, or keep the "
        "value as an array (np.round(t, 3)) and format it outside autoconv.function.",
    )


def text(s: str):
    """`ac.text(s)` while tracing: the f-string `s`, holding format markers, as a value of the
    graph made when it runs (a `format` node; a Python `str` when returned)."""
    if not _g.building():
        return s
    return _formatted(s)


def text_of(value, spec: str):
    """`str(value)` ("!s"), `repr(value)` ("!r") or `format(value, spec)` in converted code
    while tracing (`ac.str` ...): a string made when the graph runs where `value` is symbolic
    (a Tensor, or a list, tuple or dict holding one, for "!s" and "!r"), else None."""
    if not _g.building():
        return None
    from autoconv.trace.tensors.numpy_dispatch import operand
    from autoconv.trace.tensors.optionals import materialized

    value = _picks(value)
    kind = type(value)
    if kind in (list, tuple, dict) and spec in ("!s", "!r", ""):
        if not _symbolic(value):
            return None
        return _formatted(_shown(value))  # str() of a container is its repr
    if kind in _PLAIN or kind is str or not _symbolic(value):
        return None
    value = operand(materialized(value))
    if type(value) is not _tensor.Tensor:
        return None
    return _formatted(_marker(_as_printed(value), spec))


class Markers:
    """The markers of `%`-formatting and `str.format` while a graph is traced
    (runtime/formats.py): `make(value, spec)` is `value` formatted now, or the marker of its
    run-time value where it is symbolic (a Tensor, a list, tuple or dict holding one, a
    string a staged condition chose)."""

    @staticmethod
    def any(values) -> bool:
        return _g.building() and any(_symbolic(v) or type(v) is Choice for v in values)

    @staticmethod
    def make(value, spec: str) -> str:
        from autoconv.trace.tensors.numpy_dispatch import operand
        from autoconv.trace.tensors.optionals import materialized

        if type(value) is Choice and all(type(o) is str for o in value.options):
            value = chosen_value(value)
        value = _picks(value)
        kind = type(value)
        if kind in (list, tuple, dict) and _symbolic(value):
            # Its repr (or str: the same for a container) made when the graph runs, then
            # formatted as a string.
            value = _formatted(_shown(value))
            spec = _as_string_spec(spec)
        elif kind not in _PLAIN and kind is not str and _symbolic(value):
            value = operand(materialized(value))
        if type(value) is not _tensor.Tensor:
            return _piece_now(value, spec)
        return _marker(_as_printed(value), spec)


def _as_string_spec(spec: str) -> str:
    """`spec` for a value's repr already made: `%r`/`%a` -> `%s`, `!r:>8` -> `>8`."""
    if spec[:1] == "%":
        return spec[:-1] + "s" if spec[-1] in "rsa" else spec
    if spec[:1] == "!":
        return spec[3:] if spec[2:3] == ":" else "!s"
    return spec


def _piece_now(value, spec: str) -> str:
    """A value known now, formatted as it would be when the graph runs."""
    return _render(((0, spec),), value)


def _shown(value) -> str:
    """The repr of `value`, a container holding symbolic values, with a marker for each: a
    list a staged loop grew is its items' reprs, joined when the graph runs."""
    from autoconv.runtime import lists, staging
    from autoconv.runtime import printing as run_printing

    kind = type(value)
    if staging.grown_list(value):
        parts = lists.filtered(value, None, run_printing.repr)
        return "[" + _marker(staging.graph_tracer.join(", ", parts), "!s") + "]"
    if kind is list:
        return "[" + ", ".join(map(_shown, value)) + "]"
    if kind is tuple:
        return "(" + ", ".join(map(_shown, value)) + ("," if len(value) == 1 else "") + ")"
    if kind is dict:
        return "{" + ", ".join(f"{_shown(k)}: {_shown(v)}" for k, v in value.items()) + "}"
    if kind is _tensor.Tensor:
        return _marker(_as_printed(value), "!r")
    made = text_of(value, "!r") if _symbolic(value) else None  # (a value-or-None, a choice)
    if type(made) is _tensor.Tensor:
        return _marker(made, "!s")
    return builtins.repr(value) if made is None else made


def is_text(value) -> bool:
    """Whether `value` may be a string made when the graph runs (an f-string `ac.text` made, or
    one chosen by a staged branch): a 0-d Tensor of Python objects."""
    return type(value) is _tensor.Tensor and value.dtype.kind == "O" and not value.shape


def text_pair(a, b, blocks=None) -> tuple:
    """Two paths' values of a variable (a branch's, a loop's): a Python `str` against a string
    made when the graph runs becomes a constant of the graph, so that they merge; so does a
    string a staged condition chose among strings (a `Choice`): the one it picks, made in its
    own path's block (`blocks`: the two paths' blocks)."""
    if blocks is not None and (is_text(a) or is_text(b)):
        a, b = (_picked(v, block) for v, block in zip((a, b), blocks))
    if type(a) is str and is_text(b):
        return _g.add_const(a, ((), np.dtype(object)), True), b
    if type(b) is str and is_text(a):
        return a, _g.add_const(b, ((), np.dtype(object)), True)
    return a, b


def parsed(value, kind):
    """`int(s)` / `float(s)` (`kind`) of a string made when the graph runs: a Python number
    made when it runs (Python's ValueError then for a string that is not one)."""
    spec = ((), np.dtype(np.int64 if kind is int else np.float64), True)
    return emit("helper", f"{kind.__name__}()", _parse_number, (value, kind.__name__), {}, [spec])[
        0
    ]


def _picked(value, block):
    if type(value) is Choice and all(type(o) is str for o in value.options):
        with _g.build(_g.current().graph, block):
            return chosen_value(value)
    return value


def text_len(value):
    """`len(s)` of a string made when the graph runs: a Python int made when it runs."""
    spec = ((), np.dtype(np.int64), True)
    return emit("helper", "len()", _str_method, (value, "__len__"), {}, [spec])[0]


def text_item(value, key):
    """`s[key]` of a string made when the graph runs, with an int or a slice known now: a
    string made when it runs (Python's IndexError then, past its end); another key is the
    error of a string's item (`TypeError`), as eagerly."""
    parts = (key.start, key.stop, key.step) if type(key) is slice else (key,)
    if not all(p is None or type(p) is int for p in parts) or type(key) not in (int, slice):
        from autoconv.trace.tensors.user_code import fail, source_line, user_frame

        frame = user_frame()
        fail(
            frame,
            f"`{source_line(frame)}` indexes a string made when the graph runs (an f-string or "
            "str() of a value) with a key known only then; index it with ints or slices "
            "written in the code, or index the values it was made from.",
        )
    spec = ((), np.dtype(object))
    return emit("helper", "str[]", _str_method, (value, "__getitem__", key), {}, [spec])[0]


def concat(a, b):
    """`a + b` of strings, one made when the graph runs: made then too."""
    return _formatted(_as_marked(a) + _as_marked(b))


def join(sep: str, items):
    """`sep.join(items)` of a Python list or tuple holding strings made when the graph runs."""
    return _formatted(sep.join(_as_marked(v) for v in items))


def _as_marked(value):
    """A string made when the graph runs as its marker (checked to be a `str` then, as `+` and
    `join` check); a Python string as it is."""
    if type(value) is Choice and all(type(o) is str or o is None for o in value.options):
        # a string a staged condition chose: the one it picks (a None there fails the check
        # when the graph runs, with eager code's TypeError)
        value = chosen_value(value)
    if is_text(value):
        return _marker(value, "!str")
    if type(value) is not str:
        raise TypeError(f"can only concatenate str (not {type(value).__name__!r}) to str")
    return value


def _converted(frame, operator: str) -> bool:
    """Whether `frame` runs converted code that calls the runtime's `operator` (`text` for
    f-strings made as values, `print`): converted code reaches the runtime through a free
    variable named `ac` (or `ac_1` ...)."""
    if frame is None:
        return False
    code = frame.f_code
    # By names only: reading `frame.f_locals` would keep references to every local (which the
    # checks of arrays changed in place count).
    return operator in code.co_names and any(
        name == "ac" or name.startswith("ac_") for name in code.co_freevars
    )


def _marker(t, spec: str) -> str:
    table = _markers(t.graph)
    table[len(table)] = (t, spec)
    return f"\ue000{len(table) - 1}\ue001"


def convert_tensor(t, conversion: str):
    """`repr(t)` / `str(t)` (`conversion` 'r' / 's') from user code: a marker when it is part of
    an argument of `autoconv.print` (the run-time value's repr or str is printed), else None."""
    from autoconv.trace.tensors.user_code import fail, user_frame

    frame = user_frame()
    consumer = _consumer(frame)
    own = frame is not None and _called_from(frame)
    conversion_of = _conversion_of(frame) if own else None
    if conversion_of == "spec":
        line = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
        fail(
            frame,
            f"`{line}` formats the {'repr' if conversion == 'r' else 'str'} of {t!r} with a "
            "format spec in an f-string (`{v!r:>8}`); its value is only known when the graph "
            "runs, and this combination is not staged. Drop the spec or the conversion "
            "(`{v:>8}`, `{v!r}`).",
        )
    if consumer == "builtins" and not _converted(frame, "print"):
        return None  # Python's own print in code not converted: the placeholder, once
    if consumer is None and not (conversion_of and _converted(frame, "text")):
        if own:
            # `"total=" + str(t)` in the user's own code: the text would be the placeholder's.
            line = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
            what = "repr()" if conversion == "r" else "str()"
            fail(
                frame,
                f"`{line}` makes a string of {t!r} with {what}; its value is only known when "
                "the graph runs, so the string cannot be made while tracing. Pass it to "
                "autoconv.print (autoconv.print('total', t) prints the run-time value every "
                "call), or return the number and make the string outside autoconv.function.",
            )
        return None
    return _marker(_as_printed(t), "!" + conversion)


def _conversion_of(frame):
    """None unless `frame` is converting a value in an f-string (`{v!r}`): then "spec" when a
    format spec follows (`{v!r:>8}`), else "plain"."""
    code, at = frame.f_code, frame.f_lasti
    ops = code.co_code
    if at < 0 or at + 1 >= len(ops):
        return None
    name = dis.opname[ops[at]]
    if name == "FORMAT_VALUE":  # Python 3.11: the conversion and the spec in one instruction
        return "spec" if ops[at + 1] & 4 else "plain"
    if name == "CONVERT_VALUE":  # Python 3.12+: FORMAT_SIMPLE follows, unless a spec does
        following = [i for i in dis.get_instructions(code) if i.offset > at][:1]
        return "plain" if following and following[0].opname == "FORMAT_SIMPLE" else "spec"
    return None


_OWN = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep


def _called_from(frame) -> bool:
    """Whether the str()/repr() being made was asked for by `frame`'s own code (the user's),
    not by a library it called (NumPy's printing, a debugger, logging)."""
    caller = sys._getframe(3)  # convert_tensor <- Tensor.__str__ <- the caller
    while caller is not None and caller.f_code.co_filename.startswith(_OWN):
        caller = caller.f_back
    return caller is frame


def _as_printed(t):
    """`t` as the value eager code prints: the Python type of its path, where it varies."""
    if t.py_kinds is None:
        return t
    from autoconv.trace.tensors.optionals import materialized

    return materialized(t)


_TREES: dict = {}  # (file, lines, hash) -> the calls of its f-strings' consumers
register_cache("print call sites", _TREES)


def _consumer(frame):
    """'autoconv' when the f-string being formatted in `frame` is an argument of a call of
    `autoconv.print`, 'builtins' for Python's `print`, else None."""
    if frame is None:
        return None
    filename, line = frame.f_code.co_filename, frame.f_lineno
    lines = linecache.getlines(filename)
    key = (filename, len(lines), hash(tuple(lines)))
    calls = _TREES.get(key)
    if calls is None:
        calls = _TREES[key] = _print_calls("".join(lines))
    for func, first, last in calls:
        if first <= line <= last:
            if func == "raise":
                return "autoconv"  # the message of a staged raise/assert, made at run time
            target = _resolve(frame, func)
            if target is print:
                return "autoconv"
            if target is builtins.print:
                return "builtins"
    return None


def _print_calls(source: str) -> list:
    """`(func node, first line, last line)` of each argument of a call of a name or a dotted
    name (which `_consumer` resolves in the frame: `autoconv.print`, an alias of it, `print`)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Raise, ast.Assert)):
            found.append(("raise", node.lineno, node.end_lineno))
            continue
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if not isinstance(func, (ast.Name, ast.Attribute)):
            continue
        for arg in node.args:
            if not isinstance(arg, ast.Constant):
                found.append((func, arg.lineno, arg.end_lineno))
    return found


def _resolve(frame, node):
    from autoconv.trace.tensors.arraylike import lookup

    return lookup(frame, node)


_tensor.uses.printing = sys.modules[__name__]  # Tensor calls this module; tensor.py imports it not
