"""Messages for callables that autoconv cannot convert or trace as they were given: NumPy's C
functions, classes, objects with `__call__` (a model), built-ins, and a `TensorSpec` passed
where a call needs a value. Each says what the object is and what to write instead.
"""

from __future__ import annotations

import inspect
import os
import sys
import types

from autoconv.errors import AutoconvError, ConversionError
from autoconv.locations import describe

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


class SpecInCallError(AutoconvError, TypeError):
    """A `TensorSpec` was passed to an ordinary call of a `Function`."""


def _is_numpy(obj) -> bool:
    numpy = sys.modules.get("numpy")  # if NumPy is not imported, obj is none of its functions
    if numpy is None:
        return False
    if isinstance(obj, numpy.ufunc):
        return True
    module = getattr(obj, "__module__", None) or getattr(type(obj), "__module__", "") or ""
    return module == "numpy" or module.startswith("numpy.")


def _name(obj) -> str:
    if _is_numpy(obj):
        return f"numpy.{getattr(obj, '__name__', repr(obj))}"
    return getattr(obj, "__qualname__", None) or repr(obj)


def bound_call(obj):
    """`obj.__call__` when `obj` is an object whose class defines `__call__` in Python (a model:
    `convert(model)` and `function(model)` convert that bound method, as `tf.function(model)`
    does), else None. Functions, methods, classes, autoconv's own objects and library objects
    are not models."""
    if isinstance(obj, (type, types.FunctionType, types.MethodType)):
        return None
    call = inspect.getattr_static(type(obj), "__call__", None)
    if not isinstance(call, types.FunctionType):
        return None
    from autoconv.conversion.library import skips_function

    if skips_function(call) or (call.__module__ or "").startswith("autoconv."):
        return None
    return obj.__call__


def not_convertible(obj) -> str:
    """Why `obj` has no Python function to convert, and what to do instead."""
    name = _name(obj)
    if _is_numpy(obj):
        return (
            f"autoconv: cannot convert {name}: it is a NumPy function, which autoconv does not "
            "convert and which needs no conversion: call it inside a function of yours "
            f"(`@autoconv.function` on `def f(x): return {name.replace('numpy', 'np')}(x)`), "
            "where it becomes one operation of the graph."
        )
    if isinstance(obj, type):
        return (
            f"autoconv: cannot convert {name}: it is a class; convert its methods one at a time "
            f"({name}.method), or its module with `autoconv convert`."
        )
    call = inspect.getattr_static(type(obj), "__call__", None)
    if isinstance(call, types.FunctionType):
        kind = type(obj).__qualname__
        return (
            f"autoconv: cannot convert this {kind} object: it is an object with a `__call__` "
            "method (a model?), not a function. Wrap its bound method, "
            "`autoconv.function(model.__call__)`, or decorate "
            f"`{kind}.__call__` with `@autoconv.function`, so that its control flow is "
            "converted."
        )
    if isinstance(obj, (types.BuiltinFunctionType, types.BuiltinMethodType)) or (
        callable(obj) and not hasattr(obj, "__code__")
    ):
        return (
            f"autoconv: cannot convert {name}: it is a built-in or C function, with no "
            "Python source to convert; call it inside a function of yours instead."
        )
    return f"autoconv: cannot convert {name!s}: it is not a function (got {type(obj).__name__})."


def check_traceable(obj) -> None:
    """Raises `ConversionError` for what `autoconv.function` cannot wrap at all: NumPy's
    ufuncs (their keyword defaults cannot be passed back to them together) and classes."""
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(obj, numpy.ufunc):
        raise ConversionError(not_convertible(obj).replace("convert", "trace", 1))
    if isinstance(obj, type):
        name = obj.__qualname__
        raise ConversionError(
            f"autoconv: cannot trace {name}: it is a class, not a function. Decorate the method "
            f"that computes (`{name}.__call__`, `{name}.forward`) with `@autoconv.function` in "
            "the class body, or wrap an instance's bound method: "
            "`autoconv.function(model.__call__)`."
        )


def caller() -> str:
    """`file:line` of the innermost frame outside autoconv (the user's call)."""
    frame = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame = frame.f_back
    return describe(frame.f_code.co_filename, frame.f_lineno) if frame else "<unknown location>"


def check_no_specs(name: str, params, values) -> None:
    """Raises `SpecInCallError` when an argument of an ordinary call is (or holds) a
    `TensorSpec`: a call runs the graph on values; specs are for `get_concrete_function`."""
    from autoconv.graph.signature import TensorSpec

    def holds(v) -> bool:
        if isinstance(v, TensorSpec):
            return True
        if isinstance(v, (tuple, list)):
            return any(holds(x) for x in v)
        if isinstance(v, dict):
            return any(holds(x) for x in v.values())
        return False

    for p, v in zip(params, values):
        if holds(v):
            raise SpecInCallError(
                f"{caller()}: {name}() got a TensorSpec for `{p.name}` ({v!r}); a call runs "
                "the graph and needs values (arrays, numbers). To trace for specs without "
                f"running, use {name}.get_concrete_function(...) with the specs, then call "
                "the ConcreteFunction it returns with arrays."
            )
