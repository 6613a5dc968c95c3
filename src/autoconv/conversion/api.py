"""The public conversion API: `convert`, `to_code`, `do_not_convert`."""

import io
import re
import tokenize
import types
import warnings

from autoconv.callables import bound_call
from autoconv.code import Code
from autoconv.conversion import functions, guarded, library
from autoconv.conversion.settings import is_strict
from autoconv.errors import ConversionError, ConversionWarning
from autoconv.tracebacks import entry_point

_FunctionType = types.FunctionType


@entry_point
def convert(func=None, *, recursive: bool = True):
    """Returns the converted form of `func`; usable as `@convert`, `@convert(...)` or a call.

    On Python values the result behaves exactly as `func`. A function that cannot be converted
    is returned unconverted with a `ConversionWarning` (a `ConversionError` in strict mode).
    With `recursive=True`, the user functions it calls are converted when they are called.
    """
    if func is None:
        return lambda f: convert(f, recursive=recursive)
    return _map_callable(func, lambda f: _convert_function(f, recursive))


@entry_point
def to_code(func, *, recursive: bool = True) -> Code:
    """Returns the source of `func`'s converted form, as readable Python (a `str` that
    notebooks show highlighted).

    Raises `ConversionError` when `func` cannot be converted.
    """
    target = _plain_function(func)
    entry = functions.converted_code(target, recursive)
    if isinstance(entry, ConversionError):
        # The cached error, raised afresh: without the traceback of the last time it was raised.
        raise entry.with_traceback(None)
    return Code(_note_kept(_enclosed(entry.text, target), entry.kept) + "\n")


def _enclosed(text: str, func) -> str:
    """`text`, or, where its function declares an enclosing function's variables `nonlocal`
    (the user's `nonlocal`, or an item it writes there), `text` inside a stand-in for that
    function binding them: a `nonlocal` at a module's top level does not compile. (Tokens,
    not `ast`: CPython 3.11's `ast` objects are not safe to make in several threads at once.)"""
    head = re.match(r"(?:async )?def (\w+)\(", text)
    if head is None or "\n    nonlocal " not in text:
        return text
    inside = set()  # lines that start inside a string (a docstring's)
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.STRING:
            inside.update(range(tok.start[0] + 1, tok.end[0] + 1))
    lines = text.split("\n")
    cells = {}
    for i, line in enumerate(lines, 1):
        found = re.fullmatch(r" {4}nonlocal (\w+(?:, \w+)*)", line)
        if found and i not in inside:
            cells.update(dict.fromkeys(found.group(1).split(", ")))
    if not cells:
        return text
    name = head.group(1)
    parts = func.__qualname__.split(".<locals>.")
    outer = parts[-2].rpartition(".")[2] if len(parts) > 1 else ""
    outer = outer if outer.isidentifier() else "enclosing"
    return "\n".join(
        [
            f"# {name}'s enclosing function, reduced to the variables they share",
            f"def {outer}():",
            f"    {' = '.join(cells)} = ...",
            *(
                line if i in inside or not line else f"    {line}"
                for i, line in enumerate(lines, 1)
            ),
            f"    return {name}",
        ]
    )


def _note_kept(text: str, kept) -> str:
    """`text` with a comment above each `match` statement, which stays Python (the warning
    says so at the first trace; the code shown says so too)."""
    reasons = [reason for construct, _, reason, _ in kept if construct == "match"]
    if not reasons:
        return text
    lines = text.split("\n")
    spots = [i for i, line in enumerate(lines) if re.fullmatch(r"\s*match\b.*:", line)]
    if len(spots) != len(reasons):  # others in functions it defines: one note for all
        return f"# autoconv: its `match` statements stay Python: {reasons[0]}\n{text}"
    for i in reversed(spots):
        indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        lines.insert(i, f"{indent}# autoconv: stays Python: {reasons[0]}")
    return "\n".join(lines)


def do_not_convert(func):
    """Marks `func` so that conversion leaves it, and what it calls, as it is."""
    library.mark_do_not_convert(func)
    return func


def _convert_function(func, recursive):
    if getattr(func, "__autoconv_original__", None) is not None:
        return func
    if getattr(func, "__autoconv_do_not_convert__", False):
        return func
    if library.skips_function(func) and id(func.__code__) in library.generated_codes:
        return func
    made = guarded.guard(func, recursive)
    if made is None:  # a generator or coroutine: its converted form runs everywhere
        made = functions.converted_code(func, recursive)
        if not isinstance(made, ConversionError):
            functions.warn_kept(func, made.kept)
            return functions.build(func, made)
    if isinstance(made, ConversionError):
        return functions.unconverted(func, made)
    return made


def functional(func):
    """The functional form of `func` (a function, method or what `convert` returns): what
    traces run. `func` itself where it cannot be converted (with a warning)."""

    def form(f):
        if guarded.is_guarded(f):
            return guarded.functional_of(f)
        if getattr(f, "__autoconv_original__", None) is not None:
            return f
        if getattr(f, "__autoconv_do_not_convert__", False):
            return f
        return guarded.functional(f, recursive=True)

    return _map_callable(func, form)


def _map_callable(obj, fn):
    """Applies `fn` to the plain function inside `obj` and wraps the result the same way."""
    if isinstance(obj, _FunctionType):
        return fn(obj)
    if isinstance(obj, types.MethodType):
        return types.MethodType(_map_callable(obj.__func__, fn), obj.__self__)
    if isinstance(obj, staticmethod):
        return staticmethod(_map_callable(obj.__func__, fn))
    if isinstance(obj, classmethod):
        return classmethod(_map_callable(obj.__func__, fn))
    python_function = getattr(obj, "python_function", None)  # an autoconv.function object
    if python_function is not None:
        return _map_callable(python_function, fn)
    call = bound_call(obj)  # a model: its bound `__call__`, reading and setting its attributes
    if call is not None:
        return _map_callable(call, fn)
    return _not_convertible(obj)


def _plain_function(obj):
    while True:
        original = getattr(obj, "__autoconv_original__", None)
        if original is not None:
            obj = original
        elif isinstance(obj, (types.MethodType, staticmethod, classmethod)):
            obj = obj.__func__
        elif getattr(obj, "python_function", None) is not None:
            obj = obj.python_function
        elif bound_call(obj) is not None:
            obj = bound_call(obj)
        else:
            break
    if not isinstance(obj, _FunctionType):
        raise ConversionError(_no_source_message(obj))
    return obj


def _no_source_message(obj) -> str:
    from autoconv.callables import not_convertible

    return not_convertible(obj)


def _not_convertible(obj):
    if not callable(obj):
        raise TypeError(
            f"autoconv.convert expects a function, method or lambda, got {type(obj).__name__}"
        )
    message = _no_source_message(obj)
    if is_strict():
        raise ConversionError(message)
    warnings.warn(message + " It runs unconverted.", ConversionWarning, stacklevel=_caller())
    return obj


def _caller() -> int:
    """The `stacklevel` of the first frame outside autoconv (the user's call)."""
    import os
    import sys

    package = os.path.dirname(os.path.dirname(__file__))
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level
