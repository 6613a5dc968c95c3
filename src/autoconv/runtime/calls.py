"""Calls in converted code: `converted(f)(*args)`.

The first call of each user function converts it (see `autoconv.conversion.recursive`), so its
warnings, or in strict mode its errors, come when it is first called. While a graph is being
built (ours, or JAX's: `jax.jit(convert(f))`), the converted form is what runs. Outside a trace
no value is symbolic, and a converted function behaves exactly as its original on Python values,
so the original runs: calls stay as cheap, and recursion as deep, as before conversion.
`converted` returns the function to call rather than calling it, so it adds no frame to the
stack during the call.
"""

from autoconv.caches import IdentityCache, register_cache
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

prepared = IdentityCache()
"""Code objects of the user functions converted already for converted code's calls (their
warnings given). Keyed on the code, weakly: the functions made from one code share an entry."""
_prepared = prepared.entries

as_is = IdentityCache()
"""Plain functions that converted code calls as they are (library code, `do_not_convert`,
functions that cannot be converted). Others are built afresh on each call made while tracing,
from the conversion cached for their code (a build is cheap next to tracing)."""
_as_is = as_is.entries
register_cache("converted calls: functions prepared", prepared)
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
    """Returns what converted code calls in place of `f`: while tracing, `f`'s converted form (or
    `f` itself for built-ins, library code, classes and `do_not_convert` functions); otherwise
    `f`, converted once on its first call for the warnings."""
    kind = type(f)
    if not _traces and not _jax_tracing():
        func = f.__func__ if kind is _MethodType else f
        if type(func) is _FunctionType and id(func.__code__) not in _prepared:
            _recursive().for_function(func)
        return f
    if effects_hook is not None:
        effects_hook(f)
    if staged:
        try:
            target = staged.get(f)
        except TypeError:  # unhashable
            target = None
        if target is not None:
            return target
    if kind is _FunctionType:
        if id(f) in _as_is:
            return f
        return _recursive().for_function(f)
    if random_owners:
        if kind is _MethodType or kind is _BuiltinMethod:
            if type(f.__self__) in random_owners:
                return random_stage(f)
        elif id(f) in random_ids:
            return random_stage(f)
    if kind in _AS_IS:
        return f
    if kind is _MethodType:
        func = f.__func__
        target = converted(func)
        return f if target is func else _MethodType(target, f.__self__)
    return _recursive().for_callable(f)


def _recursive():
    from autoconv.conversion import recursive

    return recursive
