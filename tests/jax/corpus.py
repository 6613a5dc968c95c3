"""Runs graph-corpus programs (tests/graph_corpus) and generated programs a third way:
`jax.jit(autoconv.convert(f))`, with the program's `np` replaced by `jax.numpy`.

Array arguments (NumPy arrays and scalars) are traced; every other argument is a Python value
closed over, as graph mode keys a trace on it. What the function returns is split the same way:
arrays come out of `jax.jit`, other values (computed while tracing) are kept as they are.

Outcomes of a call:

| outcome | meaning |
| --- | --- |
| `same` | equal structure, dtypes, shapes and values (to 1e-9: XLA may sum in another order) |
| `autoconv-error` | an `AutoconvError` naming the program's file and line |
| `jax-design` | JAX's own error for what JAX does not do by design (`DESIGN` says which) |
| `wrong` | a different result |
| `crash` | any other exception |
"""

from __future__ import annotations

import copy
import types

import jax
import jax.numpy as jnp
import numpy as np

import autoconv

SAME, ERROR, DESIGN_ERROR, WRONG, CRASH = "same", "autoconv-error", "jax-design", "wrong", "crash"
CORRECT = (SAME, ERROR, DESIGN_ERROR)
ONE_DTYPE = "one-dtype"

# JAX's own errors for code that JAX does not run by design, with the reason documented in
# docs/jax-tracing.md ("What differs by JAX's design").
DESIGN = {
    "immutable": "JAX arrays are immutable: `x[i] = v` and `x += v` on an array slice raise",
    "concrete": "a traced value used where Python needs a concrete one (`int(x)`, `x.item()`, "
    "a size or index from data, `np.asarray` of a tracer)",
    "numpy-only": "a NumPy function, attribute or indexing form that `jax.numpy` does not have",
    "one-dtype": "a value that is an int on one path and a float on another gets one dtype",
    "outputs": "`jax.jit` returns arrays and pytrees of them, not other objects holding them",
}

# Corpus programs whose result differs by JAX's design (see DESIGN), and why (checked by
# tests/jax/test_corpus.py, so that the list stays true).
EXPECTED_DESIGN = {
    "mixed.int_or_float_returned": "one-dtype",
    "mixed.ternary_mix": "one-dtype",
}

# Corpus modules left out, by JAX's design: `np.random`'s global state (JAX's random numbers
# take explicit keys), `autoconv.print` and `autoconv.Variable` (graph mode's run-time output
# and state; under JAX, `jax.debug.print` and returned values play those parts).
SKIPPED_MODULES = ("randomness", "printing", "variables")


def eligible(program) -> bool:
    """Whether a corpus program runs the third way (no global random state, no bound object
    whose state carries over between calls, no graph-mode-only API)."""
    return program.seed is None and program.bind is None and program.module not in SKIPPED_MODULES


def _design_reason(exc) -> str | None:
    text = f"{type(exc).__name__}: {exc}"
    if "does not support item assignment" in text or "immutable" in text:
        return "immutable"
    if isinstance(
        exc,
        (
            jax.errors.ConcretizationTypeError,
            jax.errors.TracerArrayConversionError,
            jax.errors.TracerIntegerConversionError,
            jax.errors.NonConcreteBooleanIndexError,
        ),
    ):
        return "concrete"
    if isinstance(exc, AttributeError) and "jax" in text:
        return "numpy-only"
    if "non-tuple sequence for multidimensional indexing" in text:
        return "numpy-only"
    if "requires ndarray or scalar arguments" in text or "is not a valid JAX array type" in text:
        return "numpy-only"  # a jax.numpy function given a list, or strings (docs/jax-tracing.md)
    if "must be static" in text or "Shapes must be 1D sequences of concrete values" in text:
        return "concrete"
    if "is not a JAX type" in text or "is not a valid JAX type" in text:
        return "outputs"
    if "unsupported format string passed to" in text and "Tracer" in text:
        return "concrete"
    return None


_NP_NAMES: dict = {}


def _jnp_for(value):
    """`value` (a NumPy function, type or constant) as `jax.numpy` spells it, or None."""
    if not _NP_NAMES:
        for name in dir(np):
            _NP_NAMES.setdefault(id(getattr(np, name)), name)
    name = _NP_NAMES.get(id(value))
    if name is None:
        return None
    return getattr(jnp, name, None)


def jax_version(func):
    """A copy of `func` whose module globals see `jax.numpy` where they saw NumPy (`np`,
    `np.float64` aliases and the module's other functions included)."""
    module_globals = func.__globals__
    new_globals = dict(module_globals)
    for name, value in module_globals.items():
        if value is np:
            new_globals[name] = jnp
        elif isinstance(value, types.FunctionType) and value.__globals__ is module_globals:
            new_globals[name] = _rebind(value, new_globals)
        else:
            replacement = _jnp_for(value) if not isinstance(value, (int, float, str)) else None
            if replacement is not None:
                new_globals[name] = replacement
    return _rebind(func, new_globals)


def _rebind(func, new_globals):
    new = types.FunctionType(
        func.__code__, new_globals, func.__name__, func.__defaults__, func.__closure__
    )
    new.__kwdefaults__ = func.__kwdefaults__
    new.__qualname__ = func.__qualname__
    new.__module__ = func.__module__
    return new


def _is_array(x) -> bool:
    return isinstance(x, (np.ndarray, np.generic))


def _holds_tracer(x, depth=3) -> bool:
    if isinstance(x, jax.core.Tracer):
        return True
    if depth == 0:
        return False
    if isinstance(x, (list, tuple)):
        return any(_holds_tracer(v, depth - 1) for v in x)
    if isinstance(x, dict):
        return any(_holds_tracer(v, depth - 1) for v in x.values())
    state = getattr(x, "__dict__", None)
    if state is None:  # an object with `__slots__` (a value a staged condition chose)
        slots = getattr(type(x), "__slots__", ())
        slots = (slots,) if isinstance(slots, str) else slots
        state = {s: getattr(x, s, None) for s in slots}
    return isinstance(state, dict) and any(_holds_tracer(v, depth - 1) for v in state.values())


def traced_call(func, args):
    """`jax.jit(autoconv.convert(func))` on `args`: arrays traced, other values closed over."""
    leaves, treedef = jax.tree_util.tree_flatten(args, is_leaf=lambda x: x is None)
    arrays = [leaf for leaf in leaves if _is_array(leaf)]
    statics = [None if _is_array(leaf) else leaf for leaf in leaves]
    converted = autoconv.convert(func)
    kept = {}

    def run(*traced):
        it = iter(traced)
        rebuilt = [
            next(it) if s is None and _is_array(leaf) else s for s, leaf in zip(statics, leaves)
        ]
        out = converted(*jax.tree_util.tree_unflatten(treedef, rebuilt))
        out_leaves, out_tree = jax.tree_util.tree_flatten(out, is_leaf=lambda x: x is None)
        dyn = [
            isinstance(x, (jax.Array, jax.core.Tracer, np.ndarray, np.generic)) for x in out_leaves
        ]
        kept["tree"], kept["dyn"] = out_tree, dyn
        kept["static"] = [None if d else x for x, d in zip(out_leaves, dyn)]
        for x in kept["static"]:
            if _holds_tracer(x):
                raise TypeError(
                    f"jit output: a {type(x).__name__} holding a traced value is not a JAX type"
                )
        return [x for x, d in zip(out_leaves, dyn) if d]

    outs = iter(jax.jit(run)(*arrays))
    merged = [next(outs) if d else s for d, s in zip(kept["dyn"], kept["static"])]
    return jax.tree_util.tree_unflatten(kept["tree"], merged)


def _plain(value):
    """`value` with user objects as `(class name, their attributes)`, recursively."""
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (jax.Array, np.ndarray, np.generic)):
        return value
    state = getattr(value, "__dict__", None)
    if state is not None and type(value).__module__ not in ("builtins",) and not callable(value):
        return (type(value).__qualname__, _plain(dict(state)))
    return value


def compare(expected, got) -> str | None:
    """None when `got` (traced) agrees with `expected` (eager); otherwise what differs."""
    expected, got = _plain(expected), _plain(got)
    e_leaves, e_tree = jax.tree_util.tree_flatten(expected, is_leaf=lambda x: x is None)
    g_leaves, g_tree = jax.tree_util.tree_flatten(got, is_leaf=lambda x: x is None)
    if e_tree != g_tree:
        return f"structure {g_tree}, eager gives {e_tree}"
    for e, g in zip(e_leaves, g_leaves):
        if isinstance(e, (bool, int, float, complex, np.ndarray, np.generic)) and not isinstance(
            g, str
        ):
            ea, ga = np.asarray(e), np.asarray(g)
            if ea.shape != ga.shape or ea.dtype != ga.dtype:
                if ea.shape == ga.shape and np.array_equal(ga, ea, equal_nan=ea.dtype.kind in "fc"):
                    # Equal values of another dtype: a number whose kind differs between paths
                    # (an int on the path taken, a float on another) has one dtype under JAX.
                    return ONE_DTYPE
                return f"{ga.dtype}{list(ga.shape)}, eager gives {ea.dtype}{list(ea.shape)}"
            if ea.dtype.kind in "fc":
                if not np.allclose(ga, ea, rtol=1e-9, atol=1e-12, equal_nan=True):
                    return f"{ga!r}, eager gives {ea!r}"
            elif not np.array_equal(ga, ea):
                return f"{ga!r}, eager gives {ea!r}"
        elif not (e is g or type(e) is type(g) and e == g):
            return f"{g!r}, eager gives {e!r}"
    return None


def located(message: str, path: str) -> bool:
    return f"{path}:" in message


def run_program(program) -> list:
    """`(outcome, detail)` for each input of a corpus program."""
    results = []
    for args in program.inputs:
        results.append(outcome(program.func, args, program.path))
    return results


def outcome(func, args, path) -> tuple:
    """`(outcome, detail)` of one call of `func` on `args` (deep-copied for each side)."""
    try:
        expected = func(*copy.deepcopy(args))
        eager_exc = None
    except Exception as e:  # noqa: BLE001
        expected, eager_exc = None, e
    try:
        got = traced_call(jax_version(func), copy.deepcopy(args))
    except autoconv.AutoconvError as e:
        if located(str(e), path):
            return ERROR, str(e).splitlines()[0][:200]
        return CRASH, f"AutoconvError without the user's line: {e}"[:300]
    except Exception as e:  # noqa: BLE001
        reason = _design_reason(e)
        if reason is not None:
            return DESIGN_ERROR, reason
        if eager_exc is not None and type(e) is type(eager_exc):
            return SAME, "both raise"
        return CRASH, f"{type(e).__name__}: {e}"[:300]
    if eager_exc is not None:
        return WRONG, f"eager raised {type(eager_exc).__name__}; traced returned {got!r:.80}"
    found = compare(expected, got)
    if found == ONE_DTYPE:
        return DESIGN_ERROR, "one-dtype"
    return (SAME, "") if found is None else (WRONG, found)
