"""Calls in converted code: `converted(f)(*args)`.

Converted code runs only while a trace is being built (ours, or JAX's: `jax.jit(convert(f))`),
or everywhere under `set_always_converted(True)`; outside, converted functions run the user's
original statements, which call functions directly. In converted code, each call of a user
function runs that function's converted form: its first call converts it (see
`autoconv.conversion.recursive`), so its warnings, or in strict mode its errors, come then.
`converted` returns the function to call rather than calling it, so it adds no frame to the
stack during the call.
"""

import functools as _functools
import sys as _sys
from collections import Counter, defaultdict

from autoconv.caches import IdentityCache, register_cache
from autoconv.runtime import staging
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
numpy_of_lists = None
"""Set with `staged`: for one of NumPy's functions, the function to call in its place that
makes arrays of lists holding Tensors or run-time items (as NumPy makes arrays of lists), or
None."""
"""Callables that need a value while tracing (`np.arange`, `float`, `type`, ...) -> the form the
Tensor tracer records when an argument is symbolic (it calls the original otherwise). Filled
by that tracer (`autoconv.trace.tensors.staged_calls.register`); the converter routes calls of these
callables through `converted` (see `autoconv.conversion.resolve.STAGED_NAMES`)."""

as_is = IdentityCache()
"""Plain functions that converted code calls as they are (library code, `do_not_convert`,
functions that cannot be converted). Others are built afresh on each call made while tracing,
from the conversion cached for their code (a build is cheap next to tracing)."""
_as_is = as_is.entries
register_cache("converted calls: functions called as they are", as_is)

random_owners: set = set()
"""Types whose bound methods draw random numbers (NumPy's Generator and RandomState, Python's
Random). With `random_ids` (ids of the functions and classes of `numpy.random` that are not such
methods) and `random_stage`, filled by `autoconv.trace.tensors.random` when the Tensor tracer is
imported: while tracing, their calls are recorded in the graph instead of drawing once."""
random_ids: set = set()
random_stage = None
_BuiltinMethod = type(len)

effects_hook = None
"""Set by the Tensor tracer (`autoconv.trace.tensors.trace_effects`): called with each callable that
converted code calls while tracing, to warn about effects that happen only at trace time."""


def _is_tracer_round(f) -> bool:
    """Whether bound method `f` is a JAX tracer's `round` (JAX names it `meth`)."""
    if not _jax_tracing():  # (first: every method a graph's trace calls passes here)
        return False
    owner = type(f.__self__)
    if f.__func__ is not getattr(owner, "round", None):
        return False
    return staging.TRACERS[owner] is staging.jax_ops()


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
        if kind is _BuiltinMethod and f.__module__ == "math" and _jax_tracing():
            return staging.jax_ops().math_call(f)  # `math.sqrt(t)` of a JAX tracer: an error
        if getattr(f, "__name__", None) in ("round", "around") and _jax_tracing():
            np = _sys.modules["numpy"]  # (loaded: JAX is tracing)
            if f is np.round or f is np.around:
                return staging.jax_ops().np_round  # NumPy's rounding of a tracer's floats
        if kind is _MethodType and _is_tracer_round(f):
            # `x.round(d)` of a tracer: its method is jax.numpy's rounding, not NumPy's
            return _functools.partial(staging.jax_ops().np_round, f.__self__)
        if staged:
            try:
                target = staged.get(f)
            except TypeError:  # unhashable
                target = None
            if target is not None:
                return target
        if kind is _BuiltinMethod and type(f.__self__) is list and f.__name__ in _LIST_METHODS:
            return _list_method(f)  # `self.items.pop()`: a list converted code did not name
        if kind is _BuiltinMethod and type(f.__self__) in _KINDS and f.__name__ in _KEYED:
            return _keyed_method(f)  # staged where a key is known only when the graph runs
        if kind is _MethodType and type(f.__self__) is Counter and f.__name__ in _COUNTS:
            return _keyed_method(f)  # `c.update(xs)`, `c.most_common()` (runtime.tallies)
        if kind is _MethodType and type(f.__self__).__module__.startswith("jax"):
            _no_jax_sort(f)
        if random_owners and kind is not _FunctionType:
            if kind is _MethodType or kind is _BuiltinMethod:
                if type(f.__self__) in random_owners:
                    return random_stage(f)
            elif id(f) in random_ids:
                return random_stage(f)
        if numpy_of_lists is not None:
            target = numpy_of_lists(f)  # `np.array_equal(kept, ref)` of a run-time list
            if target is not None:
                return target
    if kind is _FunctionType:
        target = f if id(f) in _as_is else _recursive().for_function(f)
        if target is f and (_traces or _jax_tracing()) and hands_functions(f):
            return _converting_arguments(f)
        return _reading_lists(f) if target is f and _traces else target
    if kind in _AS_IS:
        return f
    if kind is _MethodType:
        if _traces or _jax_tracing():
            _prepare(f.__self__)  # its class's properties and special methods (`classes`)
        func = f.__func__
        target = converted(func)
        return f if target is func else _MethodType(target, f.__self__)
    return _recursive().for_callable(f)


_prepared: set = set()  # ids of the classes `_prepare` handed on (never unloaded, or harmless)


def _prepare(owner) -> None:
    cls = owner if isinstance(owner, type) else type(owner)
    if id(cls) not in _prepared:
        _prepared.add(id(cls))
        from autoconv.conversion import classes

        classes.prepare(cls)


_LIST_METHODS = frozenset(("pop", "insert", "remove", "sort", "reverse", "index", "count"))


_KINDS = (set, dict, Counter, defaultdict)  # (runtime.keyed.KINDS)
_COUNTS = frozenset(("update", "most_common", "total", "subtract", "elements", "copy"))
_KEYED = frozenset(
    ("add", "discard", "remove", "get", "setdefault", "items", "values", "keys", "pop")
    + ("copy", "clear", "update", "popitem", "union", "intersection", "difference")
    + ("symmetric_difference", "issubset", "issuperset", "isdisjoint", "intersection_update")
    + ("difference_update", "symmetric_difference_update")
)


def _keyed_method(method):
    from autoconv.runtime.keyed import method as keyed_method

    return keyed_method(method)


def _list_method(method):
    """A list's method as `ac.list_method` calls it (see `converters/list_items.py`): while a
    graph is traced, staged where the list's items or the arguments are known only then."""
    from autoconv.runtime.lists import list_method

    target, name = method.__self__, method.__name__
    return lambda *args, **kwargs: list_method(target, name, *args, **kwargs)


def _no_jax_sort(method) -> None:
    """`y.sort()` on a JAX array returns a sorted copy and leaves `y` as it was, where the
    NumPy code being converted sorts `y` in place: an error, so the result is never silently
    unsorted. (`sort` is the only in-place ndarray method JAX arrays answer to.)"""
    func = method.__func__
    name = func.__name__
    if name == "meth":  # a tracer's method forwards to its abstract value's, named in a cell
        cells = [c.cell_contents for c in func.__closure__ or ()]
        name = next((c for c in cells if isinstance(c, str)), name)
    if name.lstrip("_") != "sort":
        return
    import linecache
    import os

    from autoconv.errors import StagingError
    from autoconv.locations import describe, user_frame

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
    frame = user_frame((here,), 2)
    place, line = "<unknown location>", "y.sort()"
    if frame is not None:
        place = describe(frame.f_code.co_filename, frame.f_lineno)
        line = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip() or line
    raise StagingError(
        f"{place}: `{line}` sorts a JAX array in place, as NumPy does; JAX arrays never change, "
        "and their .sort() returns a sorted copy that this statement drops. Write "
        "`y = np.sort(y)` (with your array's name) instead."
    )


# JAX's transformations and control-flow primitives, by name: converted code hands them
# functions (`lax.fori_loop(0, n, body, x)`), which JAX then traces; they get the converted form
# of those functions, so that an `if` on a tracer in `body` is staged.
HANDS_FUNCTIONS = frozenset(
    "grad value_and_grad vmap pmap jacfwd jacrev jacobian hessian jvp vjp linearize jit "
    "checkpoint remat cond switch while_loop fori_loop scan map associative_scan".split()
)


def hands_functions(f) -> bool:
    """Whether `f` is one of JAX's functions that take functions (`HANDS_FUNCTIONS`)."""
    try:
        module, name = f.__module__, f.__name__
    except AttributeError:
        return False
    return (
        type(module) is str
        and module.startswith("jax._src.")
        and type(name) is str
        and name in HANDS_FUNCTIONS
    )


def _converting_arguments(f):
    """`f` (a JAX transformation or control-flow primitive), calling the converted form of each
    user function among its arguments (`lax.switch`'s list of branches included)."""

    def call(*args, **kwargs):
        args = [_converted_function(a) for a in args]
        kwargs = {k: _converted_function(v) for k, v in kwargs.items()}
        return f(*args, **kwargs)

    return call


def _reading_lists(f):
    """`f`, library code called as it is while a graph is traced: where it fails on a list
    holding items a staged loop appended (which it reads as a Python list: `statistics.mean(
    vals)`), a clear error naming it rather than the library's own."""

    def call(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except Exception as e:
            if not any(staging.grown_list(a) for a in (*args, *kwargs.values())):
                raise
            from autoconv.errors import AutoconvError, StagingError
            from autoconv.locations import describe

            if isinstance(e, AutoconvError):
                raise
            frame = _sys._getframe(1)
            name = f"{getattr(f, '__module__', None) or ''}.{f.__name__}".lstrip(".")
            raise StagingError(
                f"{describe(frame.f_code.co_filename, frame.f_lineno)}: `{name}` is given a "
                "list whose items a staged loop appended (known only when the graph runs), "
                "and reads it as a Python list, which fails while tracing "
                f"({type(e).__name__}: {e}). Stack the list first (`np.array(lst)`) and "
                "use NumPy's functions (np.mean, np.std, np.median), or let autoconv convert "
                "the function."
            ) from None

    return call


def _converted_function(value):
    if type(value) in (list, tuple):
        return type(value)(_converted_function(v) for v in value)
    if type(value) is _FunctionType or type(value) is _MethodType:
        return converted(value)
    return value


def _recursive():
    if _READY:
        return _READY[0]  # an import statement costs a lookup on every call
    from autoconv.conversion import recursive

    if not hasattr(recursive, "for_callable"):
        # Converted code running while autoconv's converter is itself being imported (the
        # always-converted mode, with standard-library modules converted by the CLI that the
        # converter imports): their callees run as they are until it is ready.
        return _AsIs
    _READY.append(recursive)
    return recursive


_READY: list = []  # `autoconv.conversion.recursive`, once it is fully imported


class _AsIs:
    @staticmethod
    def for_function(f):
        return f

    for_callable = for_function
