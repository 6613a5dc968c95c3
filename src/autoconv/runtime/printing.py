"""Python's `print` in converted code: `print(...)` -> `ac.print(...)`.

The converter rewrites calls of the built-in `print` (a name the function's module does not
rebind) here rather than leaving them as written, because only the runtime knows, call by call,
whether a value is symbolic: a print of a value known only when the graph runs, or any print in
a staged branch or loop body, must become a `print` node of the graph, as `autoconv.print`
makes, or it would show a placeholder once, while tracing (and print both branches, or a loop
body once). Outside a trace this is Python's `print` behind one test.

Prints of Python values outside staged blocks stay Python's, run while tracing (the idiom that
counts traces), with a `TraceEffectWarning`.
"""

import builtins as _py
import sys as _sys

from autoconv.runtime import objects
from autoconv.runtime import staging as _staging

_traces = _staging.traces
_modules = _sys.modules


def print(*values, **kwargs):  # noqa: A001 - the built-in it stands for
    """Python's `print`; while a graph is traced, staged (printed every time the graph runs,
    with the run-time values) when a value is symbolic or the call is in a staged block."""
    if not _traces and "jax" not in _modules:
        return _py.print(*values, **kwargs)
    return _traced_print(values, kwargs)


def _traced_print(values, kwargs):
    if _traces:
        from autoconv.trace.tensors import printing

        if printing.staged_print(values, kwargs):
            return None
    elif _marked(values):
        from autoconv.trace.jax import strings  # an f-string of a JAX tracer

        strings.print_marked(values, kwargs)
        return None
    elif _holds_jax(values):
        from autoconv.trace.tensors import printing

        printing.jax_print(values, kwargs)
        return None
    return _py.print(*values, **kwargs)


def _holds_jax(values, depth: int = 0) -> bool:
    """Whether a value, or an item of a list, tuple or dict among `values`, is a JAX tracer."""
    for v in values:
        kind = type(v)
        if kind in (list, tuple):
            if depth < 8 and _holds_jax(v, depth + 1):
                return True
        elif kind is dict:
            if depth < 8 and _holds_jax(v.values(), depth + 1):
                return True
        elif _staging.jax_value(v):
            return True
    return False


def _marked(values) -> bool:
    for v in values:
        if type(v) is _py.str and "\ue002" in v:
            return True
    return False


def formatted(value):
    """A value an f-string formats (`converters/strings.py`): `value`; a JAX tracer becomes a
    stand-in that formats as a marker of its run-time value (trace/jax/strings.py), so that
    a print shows that value and any other use of the string is a clear error."""
    if _jax_tracer(value):
        from autoconv.trace.jax import strings

        return strings.Deferred(value)
    if _traces and type(value).__name__ == "Optional":
        from autoconv.trace.tensors import printing
        from autoconv.trace.tensors.optionals import Optional

        if type(value) is Optional and value.missing is None and value.flag is not True:
            return printing.OptionalText(value)  # its text or "None", when the graph runs
    if _traces and type(value) in (list, tuple, dict):
        from autoconv.trace.tensors import printing

        if printing.symbolic(value):  # `f"{out}"` of a list a staged loop grew
            return printing.ContainerText(value)
    return value


def _jax_tracer(value) -> bool:
    """Whether `value` is a JAX tracer (one test of its type first: cheap for anything else)."""
    return _staging.jax_value(value) and isinstance(value, _modules["jax"].core.Tracer)


def text(s):
    """An f-string as a value (`converters/strings.py`): `s`. While a graph is traced, a string
    that formats symbolic values (it holds their markers) is made when the graph runs; under
    JAX one that formats a tracer is an error (trace/jax/strings.py)."""
    if _traces and "\ue000" in s:
        from autoconv.trace.tensors import printing

        return printing.text(s)
    if "\ue002" in s and "jax" in _modules:
        from autoconv.trace.jax import strings

        strings.text(s)
    return s


_str, _repr, _format, _chr = _py.str, _py.repr, _py.format, _py.chr
_hex, _oct, _bin = _py.hex, _py.oct, _py.bin


def str(*args, **kwargs):  # noqa: A001 - the built-in it stands for
    """Python's `str`; while a graph is traced, `str(t)` of a symbolic value is a string made
    when the graph runs."""
    if _traces and len(args) == 1 and not kwargs:
        from autoconv.trace.tensors import printing

        own = objects.text(args[0], "__str__")  # a user's object: its `__str__`, converted
        if own is not None:
            return own
        made = printing.text_of(args[0], "!s")
        if made is not None:
            return made
    elif len(args) == 1 and _jax_tracer(args[0]):
        _refuse("str()", args[0])
    return _str(*args, **kwargs)


def _made(value, spec, what: str, staged: bool = True):
    """The string `spec` makes of `value` when the graph runs (a symbolic value while a graph
    is traced, where `staged`), or None for Python's own; a JAX tracer is refused, naming
    `what`."""
    if _traces and staged:
        from autoconv.trace.tensors import printing

        return printing.text_of(value, spec)
    if _jax_tracer(value):
        _refuse(what, value)
    return None


def repr(obj, /):  # noqa: A001 - the built-in it stands for
    """Python's `repr`; while a graph is traced, of a symbolic value made when it runs."""
    if _traces:
        own = objects.text(obj, "__repr__")  # a user's object: its `__repr__`, converted
        if own is not None:
            return own
    made = _made(obj, "!r", "repr()")
    return _repr(obj) if made is None else made


def format(value, format_spec="", /):  # noqa: A001 - the built-in it stands for
    """Python's `format`; while a graph is traced, of a symbolic value made when it runs."""
    made = _made(value, format_spec, "format()", type(format_spec) is _str)
    return _format(value, format_spec) if made is None else made


def chr(i, /):  # noqa: A001 - the built-in it stands for
    """Python's `chr`; while a graph is traced, of a symbolic value made when it runs."""
    made = _made(i, "!c", "chr()")
    return _chr(i) if made is None else made


def hex(i, /):  # noqa: A001 - the built-in it stands for
    """Python's `hex`; while a graph is traced, of a symbolic int made when the graph runs."""
    made = _made(i, "!hex", "hex()")
    return _hex(i) if made is None else made


def oct(i, /):  # noqa: A001 - the built-in it stands for
    """Python's `oct`; while a graph is traced, of a symbolic int made when the graph runs."""
    made = _made(i, "!oct", "oct()")
    return _oct(i) if made is None else made


def bin(i, /):  # noqa: A001 - the built-in it stands for
    """Python's `bin`; while a graph is traced, of a symbolic int made when the graph runs."""
    made = _made(i, "!bin", "bin()")
    return _bin(i) if made is None else made


def _refuse(how, value):
    from autoconv.trace.jax import strings

    strings.refuse(f"{strings.shown([value])} with {how}")
