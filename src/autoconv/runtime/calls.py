"""Calls in converted code: `converted(f)(*args)`.

Converted code runs only while a trace is being built (ours, or JAX's: `jax.jit(convert(f))`),
or everywhere under `set_always_converted(True)`; outside, converted functions run the user's
original statements, which call functions directly. In converted code, each call of a user
function runs that function's converted form: its first call converts it (see
`autoconv.conversion.recursive`), so its warnings, or in strict mode its errors, come then.
`converted` returns the function to call rather than calling it, so it adds no frame to the
stack during the call.
"""

import sys as _sys

from autoconv.caches import IdentityCache, register_cache
from autoconv.runtime.staging import functional_now as _functional_now
from autoconv.runtime.staging import jax_tracing as _jax_tracing
from autoconv.runtime.staging import traces as _traces

_FunctionType = type(lambda: None)


class _C:
    def m(self):
        pass


_MethodType = type(_C().m)
del _C

# Callables of these types are always called as they are (built-ins and C methods, classes).
_AS_IS = {type(len), type([].append), type("".join), type((1).__add__), type(str.join), type}

staged: dict = {}
"""Callables that need a value while tracing (`np.arange`, `float`, `type`, ...) -> the form the
tracing backend records when an argument is symbolic (it calls the original otherwise). Filled
by the backend (`autoconv.graph.staged_calls.register`); the converter routes calls of these
callables through `converted` (see `autoconv.conversion.resolve.STAGED_NAMES`)."""

forms: dict = {}
"""(file, first line, name) of a function in a module converted by the CLI -> the code of its
functional form, registered when the module is imported (`register_forms`)."""
form_ids: set = set()
"""Ids of those codes (they live as long as their modules, which are not unloaded)."""

as_is = IdentityCache()
"""Plain functions that converted code calls as they are (library code, `do_not_convert`,
functions that cannot be converted). Others are built afresh on each call made while tracing,
from the conversion cached for their code (a build is cheap next to tracing)."""
_as_is = as_is.entries
register_cache("converted calls: functions called as they are", as_is)

random_owners: set = set()
"""Types whose bound methods draw random numbers (NumPy's Generator and RandomState, Python's
Random). With `random_ids` (ids of the functions and classes of `numpy.random` that are not such
methods) and `random_stage`, filled by `autoconv.graph.random` when the graph backend is
imported: while tracing, their calls are recorded in the graph instead of drawing once."""
random_ids: set = set()
random_stage = None
_BuiltinMethod = type(len)

effects_hook = None
"""Set by the graph backend (`autoconv.graph.trace_effects`): called with each callable that
converted code calls while tracing, to warn about effects that happen only at trace time."""


def converted(f):
    """Returns what converted code calls in place of `f`: the converted form of a user function,
    `f` itself for built-ins, library code, classes and `do_not_convert` functions. Converted
    code can run outside traces only in the always-converted mode, or when the trace that made
    it run ended meanwhile (in another thread): then `f` itself unless the mode is on."""
    kind = type(f)
    if not _traces and not _jax_tracing():
        if not _functional_now():
            return f
    else:
        if effects_hook is not None:
            effects_hook(f)
        if staged:
            try:
                target = staged.get(f)
            except TypeError:  # unhashable
                target = None
            if target is not None:
                return target
        if random_owners and kind is not _FunctionType:
            if kind is _MethodType or kind is _BuiltinMethod:
                if type(f.__self__) in random_owners:
                    return random_stage(f)
            elif id(f) in random_ids:
                return random_stage(f)
    if kind is _FunctionType:
        if id(f) in _as_is:
            return f
        return _recursive().for_function(f)
    if kind in _AS_IS:
        return f
    if kind is _MethodType:
        func = f.__func__
        target = converted(func)
        return f if target is func else _MethodType(target, f.__self__)
    return _recursive().for_callable(f)


def register_forms(space, first_lines: dict) -> None:
    """Registers the functional forms held by `space`, the namespace class at the end of a
    module converted by the CLI: `first_lines` maps each form's path in it ("Class.method") to
    the first line of the original function. Under `set_always_converted(True)` (or its
    environment variable) at import, the module's functions run their forms from then on."""
    from autoconv.runtime import staging

    module = _sys.modules.get(space.__module__)
    codes = {}
    for path, line in first_lines.items():
        obj = space
        for part in path.split("."):
            obj = obj.__dict__[part]
        code = obj.__code__
        key = (code.co_filename, line, code.co_name)
        forms[key] = codes[key] = code
        form_ids.add(id(code))
    if staging.always_converted() and module is not None:
        _run_forms(vars(module), codes, space.__module__, set())


def _run_forms(namespace: dict, codes: dict, module_name: str, seen: set) -> None:
    """Gives the module's functions (and its classes' methods) their forms' code."""
    for value in list(namespace.values()):
        if isinstance(value, type):
            if value.__module__ == module_name and id(value) not in seen:
                seen.add(id(value))
                _run_forms(dict(vars(value)), codes, module_name, seen)
            continue
        for func in _functions_in(value):
            code = func.__code__
            form = codes.get((code.co_filename, code.co_firstlineno, code.co_name))
            if form is not None and form.co_freevars == code.co_freevars:
                func.__code__ = form


def _functions_in(value):
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property):
        return [f for f in (value.fget, value.fset, value.fdel) if type(f) is _FunctionType]
    return [value] if type(value) is _FunctionType else []


def _recursive():
    from autoconv.conversion import recursive

    return recursive
