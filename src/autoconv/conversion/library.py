"""Which callables conversion leaves alone: built-ins, classes, library code, functions marked
`do_not_convert`, and code autoconv generated itself."""

import sys

from autoconv.caches import IdentityCache

_FunctionType = type(lambda: None)
_LIBRARIES = {
    "numpy",
    "autoconv",
    "gast",
    "_pytest",
    "pytest",
    "pluggy",
    "hypothesis",
    "jax",
    "jaxlib",
}
_MARK = "__autoconv_do_not_convert__"

generated = IdentityCache()
"""Every code object autoconv compiled (weakly: its functions and conversions keep it alive).
Not a cache: `clear_caches` leaves it, so converted functions made before stay unconverted."""
generated_codes = generated.entries
"""`id(code) -> (weak reference, True)` for the code objects in `generated`."""


def mark_do_not_convert(func) -> None:
    target = getattr(func, "__func__", func)
    try:
        setattr(target, _MARK, True)
    except (AttributeError, TypeError):
        pass  # a built-in: never converted anyway


def is_library_module(module_name) -> bool:
    if not module_name:
        return False
    top = module_name.partition(".")[0]
    return top in _LIBRARIES or top in sys.stdlib_module_names


def skips_function(func) -> bool:
    """Whether a Python function is called as it is (never converted)."""
    return (
        getattr(func, _MARK, False)
        or id(func.__code__) in generated_codes
        or is_library_module(getattr(func, "__module__", None))
    )


def is_convertible(obj) -> bool:
    """Whether calling `obj` from converted code may run converted code (False: always as is)."""
    if isinstance(obj, _FunctionType):
        return not skips_function(obj)
    func = getattr(obj, "__func__", None)
    if isinstance(func, _FunctionType) and hasattr(obj, "__self__"):
        return not skips_function(func)
    if isinstance(obj, type) or not callable(obj):
        return False
    call = getattr(type(obj), "__call__", None)  # noqa: B004 - the class attribute itself
    return isinstance(call, _FunctionType) and not skips_function(call)


def draws_random(obj) -> bool:
    """Whether `obj` is a function, class or generator method of `numpy.random` or Python's
    `random`. Converted code calls these through the runtime (not as they are), so that a trace
    records their draws in the graph instead of drawing once (`autoconv.trace.tensors.random`)."""
    try:
        module = getattr(obj, "__module__", None)
        if module is None:
            owner = getattr(obj, "__self__", None)
            module = type(owner).__module__ if owner is not None else None
    except Exception:  # an exotic object: not one of these
        return False
    return type(module) is str and (
        module == "random" or module == "numpy.random" or module.startswith("numpy.random.")
    )


def register_generated(code, as_written=frozenset()) -> None:
    """Records `code` and the code objects nested in it as generated, except the user's own
    functions left as written, given as (name, first line) pairs."""
    generated.add(code)
    for const in code.co_consts:
        if isinstance(const, type(code)):
            if (const.co_name, const.co_firstlineno) not in as_written:
                register_generated(const, as_written)
