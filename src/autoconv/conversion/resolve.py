"""What a name or attribute in a function refers to, where conversion can know it in advance."""

import builtins
import types

_MISSING = object()

MATH_NAMES = (
    "sqrt exp expm1 log log1p log2 log10 pow sin cos tan asin acos atan atan2 sinh cosh "
    "tanh asinh acosh atanh hypot fabs floor ceil trunc erf erfc gamma lgamma degrees "
    "radians copysign fmod isnan isinf isfinite isclose ldexp gcd lcm isqrt factorial comb perm "
    "dist"
).split()
"""The functions of `math` of numbers that give a number (or a bool), staged on symbolic
values."""

# Callables that a tracing backend may stage when an argument is symbolic (they need a value
# otherwise: a size, a Python number, a type): calls of them go through the runtime. By name,
# so that conversion gives the same code whether or not a backend is loaded.
STAGED_NAMES = {
    ("numpy", name)
    for name in (
        "arange zeros ones empty full take asarray asanyarray array ascontiguousarray ndenumerate "
        "round around "
        "bool int8 "
        "int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64 complex64 "
        "complex128"
    ).split()
} | {("math", name) for name in MATH_NAMES}
STAGED_NAMES.add(("collections", "Counter"))  # counting keys known when it runs (runtime.tallies)
# heapq's and bisect's functions of a list, staged on one a staged loop grows (trace.tensors.heaps)
STAGED_NAMES |= {
    ("_heapq", name) for name in "heappush heappop heappushpop heapreplace heapify".split()
} | {("heapq", "nsmallest"), ("heapq", "nlargest")}
STAGED_NAMES |= {
    ("_bisect", name) for name in "insort_right insort_left bisect_left bisect_right".split()
}


STACKED = (
    "mean std var sum prod max min amax amin argmax argmin median any all cumsum cumprod sort "
    "argsort ptp nansum nanmean nanmax nanmin nanstd percentile quantile diff"
).split()
"""NumPy functions that make an array of their first argument: where converted code passes
them a list or tuple written in the function (`np.mean(parts)`, `parts = [a, b]`), the call
goes through the runtime, which stacks the list's Tensors while tracing."""

_STACKED = {("numpy", name) for name in STACKED}


def stacks_lists(value) -> bool:
    """True for the NumPy functions in `STACKED`."""
    name = getattr(value, "__name__", None)
    module = getattr(value, "__module__", None)
    return type(name) is str and (module, name) in _STACKED


def numpy_callable(value) -> bool:
    """Whether `value` is one of NumPy's functions or ufuncs (`np.array_equal`, `np.add`)."""
    module = getattr(value, "__module__", None)
    return type(module) is str and (module == "numpy" or module.startswith("numpy."))


def is_staged(value) -> bool:
    """True for the callables in `STAGED_NAMES`."""
    name = getattr(value, "__name__", None)
    module = getattr(value, "__module__", None)
    return type(name) is str and (module, name) in STAGED_NAMES


class LiveResolver:
    """Resolves names through a live function's globals and built-ins (never its closure, whose
    cells may hold something else in the next closure made from the same code)."""

    def __init__(self, globals_: dict):
        self.globals = globals_
        b = globals_.get("__builtins__", builtins)
        self.builtins = b.__dict__ if isinstance(b, types.ModuleType) else b

    def value(self, node, shadowed):
        import gast

        if isinstance(node, gast.Name):
            if node.id in shadowed:
                return _MISSING
            if node.id in self.globals:
                return self.globals[node.id]
            return self.builtins.get(node.id, _MISSING)
        if isinstance(node, gast.Attribute):
            base = self.value(node.value, shadowed)
            if isinstance(base, types.ModuleType):
                return getattr(base, node.attr, _MISSING)
        return _MISSING

    def is_passthrough(self, node, shadowed) -> bool:
        from autoconv.conversion.library import draws_random, is_convertible
        from autoconv.runtime.calls import hands_functions

        value = self.value(node, shadowed)
        return (
            value is not _MISSING
            and not is_convertible(value)
            and not draws_random(value)
            and not is_staged(value)
            and not hands_functions(value)  # `lax.fori_loop(0, n, body, x)`: convert `body`
        )

    def is_builtin(self, name) -> bool:
        return name not in self.globals and name in self.builtins


class ModuleResolver:
    """For a module converted as a whole (the CLI): built-in names the module does not rebind,
    and names it imports from library modules (NumPy, the standard library), are called as they
    are; every other call goes through the runtime, which converts user code when called."""

    def __init__(self, module_bound_names, library_imports=frozenset()):
        self.bound = set(module_bound_names)
        self.library = set(library_imports)

    def is_passthrough(self, node, shadowed) -> bool:
        import gast

        from autoconv.runtime.calls import HANDS_FUNCTIONS

        # `lax.fori_loop(0, n, body, x)`: through the runtime, which converts `body` when the
        # callee is JAX's (`runtime.calls.hands_functions`).
        last = node.attr if isinstance(node, gast.Attribute) else getattr(node, "id", None)
        while isinstance(node, gast.Attribute):
            node = node.value
        if not isinstance(node, gast.Name) or node.id in shadowed:
            return False
        if node.id in self.library:
            return last not in HANDS_FUNCTIONS
        return self.is_builtin(node.id)

    def is_builtin(self, name) -> bool:
        return name not in self.bound and hasattr(builtins, name)
