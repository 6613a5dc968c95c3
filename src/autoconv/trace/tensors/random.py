"""Random numbers in graph mode: `np.random`, Generators and Python's `random`, drawn at run time.

A draw is an effect, like `autoconv.print`: it changes the state of its generator. Inside a
trace, each call of a staged random function records one node, marked `effect`, that makes
the very call eager code makes, with the same arguments, when the graph runs. The passes never
fold, merge or drop such a node, and the executor runs it in program order, once per run (only
on the path taken in staged branches, once per iteration in staged loops). So a graph draws new
numbers on every run, and `np.random.seed(0); f(x)` gives exactly the numbers that eager code
gives after the same seed.

What calls what:

* `np.random.normal(...)`, `np.random.seed(...)`, ... (NumPy's global `RandomState`), the
  methods of a `Generator` / `RandomState` passed in, global or closed over, and Python's
  `random.random()`, ...: a `call` node of that very bound method, so the graph draws from that
  same generator object at run time.
* `np.random.default_rng(seed)`, `np.random.Generator(...)`, `np.random.RandomState(...)`, the
  bit generators, `np.random.SeedSequence(...)` and `random.Random(...)` made inside the traced
  function: a node that creates the object when the graph runs (with a seed: the same numbers on
  every run, as eagerly; without: new ones). While tracing it is a `StagedRandom`, whose methods
  record `method` nodes on that run-time object.

Converted code reaches this module through `autoconv.runtime.calls.converted` (conversion routes
calls of `numpy.random` and `random` through it, see `conversion.library.draws_random`). Code
that autoconv does not convert (library code, `do_not_convert`, `autograph=False`) draws at
trace time; `watch` notices when that changes NumPy's or Python's global generator, or a
generator passed in, and raises instead of freezing the numbers into the graph.

Every call that cannot be staged raises a `StagingError` naming the function and the user's
line. Arguments may be Tensors (`loc=mu`, `rng.integers(0, n)`, `size=np.shape(x)`).
"""

from __future__ import annotations

import functools
import inspect
import random as _pyrandom
import threading
import warnings
from contextlib import contextmanager

import numpy as np

from autoconv.caches import register_cache
from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph.errors import StagingError, where
from autoconv.graph.helpers import generator_state
from autoconv.graph.origin import user_origin
from autoconv.graph.tensor import Tensor, format_spec
from autoconv.runtime import calls as _calls

_Generator = np.random.Generator
_RandomState = np.random.RandomState
_GLOBAL = np.random.mtrand._rand  # what np.random.normal & co. draw from

# --- what each function takes and gives --------------------------------------------------------
#
# name -> (parameters, rule). The parameters are written as a Python signature, used only to
# find the arguments by name (the node keeps the call as written). `rule` says how the result's
# shape follows (see `_shape`); the dtype and the Python type of a scalar result come from the
# same method called on a throwaway generator of the same kind (`_probe`).

_DIST = "dist"  # shape: `size`, else the parameters (before `size`) broadcast
_NUMPY_SHARED = {
    "normal": "loc=0.0, scale=1.0, size=None",
    "uniform": "low=0.0, high=1.0, size=None",
    "exponential": "scale=1.0, size=None",
    "beta": "a, b, size=None",
    "gamma": "shape, scale=1.0, size=None",
    "chisquare": "df, size=None",
    "f": "dfnum, dfden, size=None",
    "gumbel": "loc=0.0, scale=1.0, size=None",
    "laplace": "loc=0.0, scale=1.0, size=None",
    "logistic": "loc=0.0, scale=1.0, size=None",
    "lognormal": "mean=0.0, sigma=1.0, size=None",
    "noncentral_chisquare": "df, nonc, size=None",
    "noncentral_f": "dfnum, dfden, nonc, size=None",
    "pareto": "a, size=None",
    "power": "a, size=None",
    "rayleigh": "scale=1.0, size=None",
    "standard_cauchy": "size=None",
    "standard_t": "df, size=None",
    "triangular": "left, mode, right, size=None",
    "vonmises": "mu, kappa, size=None",
    "wald": "mean, scale, size=None",
    "weibull": "a, size=None",
    "binomial": "n, p, size=None",
    "negative_binomial": "n, p, size=None",
    "poisson": "lam=1.0, size=None",
    "geometric": "p, size=None",
    "hypergeometric": "ngood, nbad, nsample, size=None",
    "logseries": "p, size=None",
    "zipf": "a, size=None",
}
_GENERATOR = {
    **{name: (text, _DIST) for name, text in _NUMPY_SHARED.items()},
    "random": ("size=None, dtype=None, out=None", _DIST),
    "standard_normal": ("size=None, dtype=None, out=None", _DIST),
    "standard_exponential": ("size=None, dtype=None, method='zig', out=None", _DIST),
    "standard_gamma": ("shape, size=None, dtype=None, out=None", _DIST),
    "integers": ("low, high=None, size=None, dtype=None, endpoint=False", _DIST),
    "choice": ("a, size=None, replace=True, p=None, axis=0, shuffle=True", "choice"),
    "permutation": ("x, axis=0", "permutation"),
    "permuted": ("x, axis=None, out=None", "permuted"),
    "multivariate_normal": (
        "mean, cov, size=None, check_valid='warn', tol=1e-8, *, method='svd'",
        "multivariate_normal",
    ),
    "multinomial": ("n, pvals, size=None", "multinomial"),
    "dirichlet": ("alpha, size=None", "dirichlet"),
}
_LEGACY = {
    **{name: (text, _DIST) for name, text in _NUMPY_SHARED.items()},
    "random": ("size=None", _DIST),
    "random_sample": ("size=None", _DIST),
    "ranf": ("size=None", _DIST),
    "sample": ("size=None", _DIST),
    "standard_normal": ("size=None", _DIST),
    "standard_exponential": ("size=None", _DIST),
    "standard_gamma": ("shape, size=None", _DIST),
    "randint": ("low, high=None, size=None, dtype=int", _DIST),
    "rand": ("*dims", "dims"),
    "randn": ("*dims", "dims"),
    "choice": ("a, size=None, replace=True, p=None", "choice"),
    "permutation": ("x", "permutation"),
    "multivariate_normal": (
        "mean, cov, size=None, check_valid='warn', tol=1e-8",
        "multivariate_normal",
    ),
    "multinomial": ("n, pvals, size=None", "multinomial"),
    "dirichlet": ("alpha, size=None", "dirichlet"),
    "seed": ("seed=None", "effect"),
    "set_state": ("state", "effect"),
}
_PYTHON = {
    "random": ("", "python"),
    "uniform": ("a, b", "python"),
    "triangular": ("low=0.0, high=1.0, mode=None", "python"),
    "randint": ("a, b", "python"),
    "randrange": ("start, stop=None, step=1", "python"),
    "gauss": ("mu=0.0, sigma=1.0", "python"),
    "normalvariate": ("mu=0.0, sigma=1.0", "python"),
    "lognormvariate": ("mu, sigma", "python"),
    "expovariate": ("lambd=1.0", "python"),
    "vonmisesvariate": ("mu, kappa", "python"),
    "gammavariate": ("alpha, beta", "python"),
    "betavariate": ("alpha, beta", "python"),
    "paretovariate": ("alpha", "python"),
    "weibullvariate": ("alpha, beta", "python"),
    "binomialvariate": ("n=1, p=0.5", "python"),
    "getrandbits": ("k", "python"),
    "choice": ("seq", "python_choice"),
    "seed": ("a=None, version=2", "effect"),
}
# Valid values of the distribution parameters, for `_probe` (any valid value gives the dtype).
_STANDINS = {
    "loc": 0.0,
    "scale": 1.0,
    "low": 0.0,
    "high": 1.0,
    "a": 2.0,
    "b": 2.0,
    "shape": 1.0,
    "df": 2.0,
    "dfnum": 2.0,
    "dfden": 2.0,
    "nonc": 1.0,
    "mean": 1.0,
    "sigma": 1.0,
    "left": 0.0,
    "mode": 0.5,
    "right": 1.0,
    "mu": 0.0,
    "kappa": 1.0,
    "n": 1,
    "p": 0.5,
    "lam": 1.0,
    "ngood": 1,
    "nbad": 1,
    "nsample": 1,
    "lambd": 1.0,
    "alpha": 1.0,
    "beta": 1.0,
    "start": 1,
    "stop": 2,
    "step": 1,
    "k": 1,
}
# Why a function is not staged, and what to write instead.
_REASONS = {
    "shuffle": "it shuffles in place, and a graph cannot change an array in place; use "
    "x = rng.permutation(x) (a shuffled copy) instead",
    "bytes": "it returns bytes, which a graph does not carry; draw integers instead "
    "(rng.integers(0, 256, size=n, dtype=np.uint8))",
    "randbytes": "it returns bytes, which a graph does not carry; draw integers with "
    "np.random instead",
    "get_state": "its result is the generator's state, not an array; call it outside the "
    "autoconv.function",
    "getstate": "its result is the generator's state, not an array; call it outside the "
    "autoconv.function",
    "setstate": "call it outside the autoconv.function",
    "spawn": "it makes new generators; make them outside the autoconv.function and pass "
    "them in as arguments",
    "jumped": "it makes a new bit generator; make it outside the autoconv.function and pass it in",
    "sample": "it returns a list; use rng.choice(population, size=k, replace=False) instead",
    "choices": "it returns a list; use rng.choice(population, size=k, p=weights) instead",
    "random_integers": "it is deprecated; use np.random.randint or rng.integers instead",
    "tomaxint": "it is not part of NumPy's public API; use rng.integers instead",
    "get_bit_generator": "call it outside the autoconv.function",
    "set_bit_generator": "call it outside the autoconv.function",
    "multivariate_hypergeometric": "it is not among the staged functions; draw the numbers "
    "outside the autoconv.function and pass them in",
}


def _signatures(table) -> dict:
    out = {}
    for name, (text, rule) in table.items():
        namespace: dict = {}
        exec(f"def f({text}): pass", {}, namespace)  # noqa: S102 - the constant texts above
        sig = inspect.signature(namespace["f"])
        params = []
        for p in sig.parameters.values():
            if p.name == "size":
                break
            params.append(p.name)
        out[name] = (sig, tuple(params), rule)
    return out


_TABLES = {
    "generator": _signatures(_GENERATOR),
    "legacy": _signatures(_LEGACY),
    "python": _signatures(_PYTHON),
}
_PROBES = {
    "generator": _Generator(np.random.PCG64(0)),
    "legacy": _RandomState(0),
    "python": _pyrandom.Random(0),
}
_OWNER_FAMILY = {
    _Generator: "generator",
    _RandomState: "legacy",
    _pyrandom.Random: "python",
    _pyrandom.SystemRandom: "python",
}
_BIT_GENERATORS = tuple(
    getattr(np.random, name)
    for name in ("MT19937", "PCG64", "PCG64DXSM", "Philox", "SFC64")
    if hasattr(np.random, name)
)
# Functions and classes that make generator objects: callable -> the family of what they make.
_CREATORS = {
    np.random.default_rng: "generator",
    _Generator: "generator",
    _RandomState: "legacy",
    _pyrandom.Random: "python",
    _pyrandom.SystemRandom: "python",
    np.random.SeedSequence: "seed sequence",
    **{cls: "bit generator" for cls in _BIT_GENERATORS},
}
_CREATOR_IDS = {id(f): family for f, family in _CREATORS.items()}
# Module-level functions of np.random that are not methods of the global RandomState.
_MODULE_FUNCTIONS = {
    id(np.random.seed): ("legacy", "seed"),
    id(np.random.get_bit_generator): ("legacy", "get_bit_generator"),
    id(np.random.set_bit_generator): ("legacy", "set_bit_generator"),
}


# --- the run-time objects made inside a trace --------------------------------------------------


class StagedRandom:
    """A generator (or bit generator, seed sequence) that the traced function makes: while
    tracing it stands for the object that a graph node creates at run time.

    Its drawing methods record `method` nodes on that object; `tensor` is the node's output.
    """

    __slots__ = ("tensor", "family", "label")

    def __init__(self, tensor, family, label):
        self.tensor = tensor
        self.family = family
        self.label = label

    def __repr__(self):
        return f"<staged {self.label} %{self.tensor.id}>"

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if not _g.building():
            raise StagingError(
                f"{where(user_origin(2))}: this {self.label} was made inside an "
                "autoconv.function and only exists while it runs as a graph; make generators "
                "that live longer outside the function and pass them in."
            )
        label = f"{self.label}.{name}"
        table = _TABLES.get(self.family)
        if table is None or name not in table:
            raise _unsupported(label, name, user_origin(2), self.family)
        return functools.partial(_draw, self.family, name, label, None, self.tensor)


def _label_of(f, family, name) -> str:
    owner = getattr(f, "__self__", None)
    if owner is _GLOBAL or owner is None:
        return f"numpy.random.{name}"
    if owner is getattr(_pyrandom, "_inst", None):
        return f"random.{name}"
    return f"{type(owner).__name__}.{name}"


# --- the hook that converted code calls ---------------------------------------------------------


def stage(f):
    """What converted code calls in place of the random function `f` while a graph is built
    (`autoconv.runtime.calls.converted`): a callable that records the call, or `f` when this
    thread is not tracing."""
    if not _g.building():
        return f
    family = _CREATOR_IDS.get(id(f))
    if family is not None:
        return functools.partial(_create, f, family)
    found = _MODULE_FUNCTIONS.get(id(f))
    if found is not None:
        family, name = found
    else:
        family = _OWNER_FAMILY.get(type(getattr(f, "__self__", None)))
        name = getattr(f, "__name__", "?")
        if family is None:
            return f
    label = _label_of(f, family, name)
    if name not in _TABLES[family]:
        raise _unsupported(label, name, user_origin(2), family)
    return functools.partial(_draw, family, name, label, f, None)


def _unsupported(label, name, origin, family) -> StagingError:
    reason = _REASONS.get(name)
    if reason is None:
        if family in ("bit generator", "seed sequence"):
            reason = (
                f"a {family} made inside the function can only be passed to "
                "np.random.Generator / default_rng"
            )
        else:
            staged = ", ".join(sorted(_TABLES.get(family, {})))
            reason = (
                "it is not among the staged random functions; call it outside the "
                f"autoconv.function and pass the result in. Staged: {staged}"
            )
    return StagingError(
        f"{where(origin)}: {label}() cannot be staged in graph mode: {reason}. (A call made "
        "while tracing would freeze its numbers into the graph.)"
    )


# --- recording ----------------------------------------------------------------------------------


def _operand(value):
    """A call argument as the node keeps it: staged generators by their node's output,
    Variables read at run time."""
    if isinstance(value, StagedRandom):
        return value.tensor
    t = type(value)
    if t is tuple or t is list:
        return t(_operand(v) for v in value)
    if t is dict:
        return {k: _operand(v) for k, v in value.items()}
    from autoconv.trace.tensors.numpy_dispatch import operand

    return operand(value)


def _emit(kind, op, fn, args, kwargs, specs, origin, new):
    node = _g.Node(kind, op, fn, args, kwargs, attrs={"random": new})
    # A draw changes its generator's state: an effect, run once per run in program order.
    node.effect = True
    _g.add_node(node, specs, origin)
    return node.outputs


def _create(fn, family, *args, **kwargs):
    """Records the creation of a generator object; returns the `StagedRandom` standing for it."""
    origin = user_origin(2)
    args = tuple(_operand(a) for a in args)
    kwargs = {k: _operand(v) for k, v in kwargs.items()}
    name = getattr(fn, "__name__", "generator")
    module = "random" if family == "python" else "numpy.random"
    spec = [((), np.dtype(object))]  # the run-time value is the generator object itself
    (out,) = _emit("call", f"{module}.{name}", fn, args, kwargs, spec, origin, True)
    label = {"python": "random.Random", "legacy": "RandomState", "generator": "Generator"}.get(
        family, name
    )
    return StagedRandom(out, family, label)


def _draw(family, name, label, target, obj, *args, **kwargs):
    """Records one call of a random function: `target(*args, **kwargs)` (a bound method or a
    function) or, with `obj` (the Tensor of a generator made in the trace), `obj.name(...)`."""
    origin = user_origin(2)
    args = tuple(_operand(a) for a in args)
    kwargs = {k: _operand(v) for k, v in kwargs.items()}
    sig, params, rule = _TABLES[family][name]
    specs, new = _specs(family, name, label, sig, params, rule, args, kwargs, origin)
    if obj is None:
        outs = _emit("call", label, target, args, kwargs, specs, origin, new)
    else:
        outs = _emit("method", "." + name, name, (obj, *args), kwargs, specs, origin, new)
    if outs:
        # A 0-d draw is a NumPy scalar, or a 0-d array where `size=` asks for one (`size=()`).
        # Said here, on the node: `eager_types` would otherwise find out by making the call.
        try:
            sized = sig.bind(*args, **kwargs).arguments.get("size") is not None
        except TypeError:
            sized = False
        outs[0].node.attrs["sized"] = sized
    return outs[0] if outs else None


class _AtRunTime(Exception):
    """The call is wrong in a way eager code reports when it runs (a bad argument): the node is
    recorded anyway, so the graph raises the same exception when it runs."""


def _specs(family, name, label, sig, params, rule, args, kwargs, origin):
    """`(specs, returns_new)` of a call: the `(shape, dtype[, weak])` of each result."""
    try:
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError:
            raise _AtRunTime from None
        p = dict(bound.arguments)  # as given: the probe passes on only what the call passes
        if rule == "effect":
            return [], False
        if rule in ("python", "python_choice"):
            return [_python_spec(family, name, label, p, params, rule, origin)], True
        for key in ("dtype", "axis", "method", "endpoint", "replace", "shuffle", "check_valid"):
            if isinstance(p.get(key), Tensor):
                _fail(origin, f"{label}(): `{key}=` must be a Python value while tracing")
        if p.get("out") is not None:
            _fail(
                origin,
                f"{label}(..., out=...) writes into an array in place, which a graph cannot "
                "do; drop `out=` and use the result",
            )
        # Every NumPy draw gives a new array; `choice` too (it takes items of a copy of the
        # population, and a RandomState's is 1-d), so an item write into it is the user's own.
        return [_numpy_spec(family, name, label, p, params, rule, origin)], True
    except _AtRunTime:
        return [((), np.dtype(np.float64), True)], False


def _fail(origin, message):
    raise StagingError(f"{where(origin)}: {message}")


def _size_shape(size, label, origin):
    """The shape that `size=` asks for (None entries: sizes known at run time), or None."""
    if size is None:
        return None
    if isinstance(size, Tensor):
        if size.dtype.kind not in "iu":
            raise _AtRunTime
        if size.ndim == 0:
            return (None,)
        if size.ndim == 1 and size.shape[0] is not None:
            return (None,) * size.shape[0]
        _fail(origin, f"{label}(): size= is a Tensor of unknown length; give a tuple of sizes")
    if isinstance(size, np.ndarray) and size.dtype.kind in "iu" and size.ndim <= 1:
        size = size.tolist()  # NumPy takes an array of sizes too
    if isinstance(size, (int, np.integer)):
        return (int(size),)
    if isinstance(size, (tuple, list)):
        out = []
        for d in size:
            if d is None:
                _fail(
                    origin,
                    f"{label}(): size={shapes.fmt(tuple(size))} has an unknown dimension "
                    "(None): a Tensor's .shape gives None for sizes only known when the graph "
                    "runs. Use np.shape(x) instead, whose unknown entries are run-time sizes.",
                )
            if isinstance(d, Tensor):
                if d.ndim != 0 or d.dtype.kind not in "iu":
                    raise _AtRunTime
                out.append(None)
            elif isinstance(d, (int, np.integer)):
                out.append(int(d))
            else:
                raise _AtRunTime
        return tuple(out)
    raise _AtRunTime


def _shape(value) -> tuple:
    if isinstance(value, Tensor):
        return value.shape
    return np.shape(value)


def _numpy_spec(family, name, label, p, params, rule, origin):
    if rule == "dims":
        size = _size_shape(tuple(p.get("dims", ())), label, origin)
        size = size or None
    else:
        size = _size_shape(p.get("size"), label, origin)
    if rule in ("choice", "permutation", "permuted"):
        return _sampling_spec(family, name, label, p, rule, size, origin)
    core = ()
    if rule == "multivariate_normal":
        core = _shape(p["mean"])[-1:]
        batch = ()
    elif rule == "multinomial":
        pvals = _shape(p["pvals"])
        core = pvals[-1:]
        batch = shapes.broadcast(_shape(p["n"]), pvals[:-1], what=f"{label}() parameters")
    elif rule == "dirichlet":
        core = _shape(p["alpha"])[-1:]
        batch = ()
    elif rule == "dims":
        batch = ()
    else:
        batch = shapes.broadcast(
            *(_shape(p[k]) for k in params if p.get(k) is not None),
            what=f"{label}() parameters",
        )
    shape = (size if size is not None else batch) + core
    scalar = size is None and shape == ()
    result = _probe(family, name, p, params, rule, scalar)
    return _result_spec(result, shape, scalar, label, origin)


def _sampling_spec(family, name, label, p, rule, size, origin):
    a = p["a"] if rule == "choice" else p["x"]
    a_shape = _shape(a)
    population = a_shape == () and _dtype(a).kind in "iu"
    if rule == "choice" and not population:
        if not a_shape:
            raise _AtRunTime  # NumPy: "a must be 1-dimensional or an integer"
        axis = p.get("axis", 0)
        axis = shapes.norm_axis(axis, len(a_shape))
        picked = size if size is not None else ()
        shape = a_shape[:axis] + picked + a_shape[axis + 1 :]
        return (shape, _dtype(a))
    if rule == "choice":
        shape = size if size is not None else ()
        scalar = size is None
        result = _probe(family, name, {"a": 2}, ("a",), rule, scalar)
        return _result_spec(result, shape, scalar, label, origin)
    if rule == "permutation" and population:
        n = a if type(a) is int else None
        result = _probe(family, name, {"x": 2}, ("x",), rule, False)
        return _result_spec(result, (n,), False, label, origin)
    if not a_shape:
        raise _AtRunTime
    return (a_shape, _dtype(a))


def _dtype(value) -> np.dtype:
    if isinstance(value, Tensor):
        return value.dtype
    return np.asarray(value).dtype


def _probe(family, name, p, params, rule, scalar):
    """The same method called on a throwaway generator with valid stand-ins for the
    distribution parameters (and `size=1` unless the result is a scalar): its result's type and
    dtype are those of the real call."""
    kwargs = {k: v for k, v in p.items() if k not in params and k not in ("size", "dims")}
    if rule == "multivariate_normal":
        kwargs.update(mean=[0.0], cov=[[1.0]])
    elif rule == "multinomial":
        kwargs.update(n=1, pvals=[1.0])
    elif rule == "dirichlet":
        kwargs.update(alpha=[1.0])
    elif rule in ("choice", "permutation"):
        kwargs = dict(p)
    elif rule == "dims":
        kwargs = {}
    else:
        for k in params:
            if p.get(k) is not None:
                kwargs[k] = _STANDINS[k]
        if name in ("integers", "randint"):
            has_high = p.get("high") is not None
            kwargs["low"] = 0 if has_high else 1
            if has_high:
                kwargs["high"] = 1
    method = getattr(_PROBES[family], name)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if rule == "dims":
                return method() if scalar else method(1)
            if not scalar and rule in (_DIST, "choice"):
                kwargs["size"] = 1
            return method(**kwargs)
    except Exception:
        raise _AtRunTime from None


# Python numbers as the graph types them (weak Tensors: the run-time value is the Python number).
_PY_DTYPES = {bool: np.dtype(bool), int: np.dtype(np.intp), float: np.dtype(np.float64)}


def _result_spec(result, shape, scalar, label, origin):
    if scalar and type(result) in _PY_DTYPES:
        return ((), _PY_DTYPES[type(result)], True)
    dtype = getattr(result, "dtype", None)
    if dtype is None or dtype.kind == "O":
        _fail(origin, f"{label}() returns {type(result).__name__} values, which a graph cannot")
    return (shape, dtype)


def _python_spec(family, name, label, p, params, rule, origin):
    """Python's `random` works on Python numbers: arguments must be Python numbers at run time
    (numbers known while tracing, or Tensors standing for Python numbers)."""
    for k, v in p.items():
        if isinstance(v, Tensor) and not v.weak:
            _fail(
                origin,
                f"{label}(): `{k}` is an array Tensor ({format_spec(v.shape, v.dtype)}), but "
                "Python's random module works on Python numbers. Use np.random or a "
                "np.random.Generator, which take arrays.",
            )
    if rule == "python_choice":
        seq = p["seq"]
        if _g.tensors_in(seq) or type(seq) not in (list, tuple, range):
            _fail(
                origin,
                f"{label}(): give it a list, tuple or range of Python numbers known while "
                "tracing; to pick from an array use rng.choice(x) (a np.random.Generator)",
            )
        kinds = {type(v) for v in seq}
        if not kinds:
            raise _AtRunTime  # IndexError when it runs, as eagerly
        if len(kinds) != 1 or not kinds <= {bool, int, float}:
            _fail(
                origin,
                f"{label}(): the graph can only pick from a sequence of Python numbers of one "
                "type (all int or all float); pick an index with random.randrange(len(seq)) "
                "instead",
            )
        (kind,) = kinds
        return ((), _PY_DTYPES[kind], True)
    kwargs = {}
    for k, v in p.items():
        if isinstance(v, Tensor):
            v = type(_pyrandom_standin(v))(_STANDINS.get(k, 1))
        kwargs[k] = v
    result = _probe_python(name, kwargs)
    if type(result) not in _PY_DTYPES:
        raise _AtRunTime
    return ((), _PY_DTYPES[type(result)], True)


def _pyrandom_standin(t):
    return {"b": False, "i": 0, "u": 0, "f": 0.0}.get(t.dtype.kind, 0.0)


def _probe_python(name, kwargs):
    method = getattr(_PROBES["python"], name)
    try:
        return method(**kwargs)
    except TypeError:
        pass  # a positional-only parameter (`getrandbits(k, /)`)
    except Exception:
        raise _AtRunTime from None
    try:
        return method(*kwargs.values())
    except Exception:
        raise _AtRunTime from None


def outputs(value):
    """A function's outputs with each generator made inside it replaced by the Tensor of its
    node: the graph returns the run-time object, as eager code returns its generator."""
    if isinstance(value, StagedRandom):
        return value.tensor
    t = type(value)
    if t is tuple or t is list:
        return t(outputs(v) for v in value)
    if t is dict:
        return {k: outputs(v) for k, v in value.items()}
    if isinstance(value, tuple) and hasattr(t, "_fields"):
        return t(*(outputs(v) for v in value))
    return value


# --- draws that autoconv did not stage ----------------------------------------------------------


def _mt19937_reader(bit_generator):
    """A fast reader of an MT19937's raw state (its 624 words and position, 1 µs where `.state`
    takes 70), or None. The layout is checked against `.state` once, so a NumPy that lays the
    state out differently falls back to `.state`."""
    try:
        import ctypes

        address = bit_generator.ctypes.state_address
        state = bit_generator.state["state"]
        raw = ctypes.string_at(address, 624 * 4 + 4)
        key = np.frombuffer(raw[: 624 * 4], np.uint32)
        pos = int(np.frombuffer(raw[624 * 4 :], np.intc)[0])
        if not (np.array_equal(key, state["key"]) and pos == state["pos"]):
            return None
    except Exception:  # not an MT19937 as this code knows it: use .state
        return None
    return lambda: ctypes.string_at(address, 624 * 4 + 4)


_FAST: dict = {}  # id(bit generator) -> (bit generator, its reader or None)
register_cache("random state readers", _FAST)


def _state(obj):
    """A comparable snapshot of a generator's state."""
    if obj is _GLOBAL:
        # Every trace reads the global generator's state twice: keep it cheap. (A draw that only
        # takes the legacy cached Gaussian leaves the bit generator as it is and is not seen.)
        bit_generator = obj._bit_generator
        entry = _FAST.get(id(bit_generator))
        if entry is None or entry[0] is not bit_generator:
            entry = _FAST[id(bit_generator)] = (bit_generator, _mt19937_reader(bit_generator))
        if entry[1] is not None:
            return entry[1]()
    return _frozen(generator_state(obj))


def _frozen(value):
    if isinstance(value, dict):
        return tuple((k, _frozen(v)) for k, v in value.items())
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (tuple, list)):
        return tuple(_frozen(v) for v in value)
    return value


def _generators(values) -> list:
    found = []

    def walk(v):
        if type(v) in (tuple, list):
            for x in v:
                walk(x)
        elif type(v) is dict:
            for x in v.values():
                walk(x)
        elif isinstance(v, (_Generator, _RandomState, _pyrandom.Random)):
            if not isinstance(v, _pyrandom.SystemRandom):  # its numbers come from the OS
                found.append(v)

    walk(values)
    return found


@contextmanager
def watch(func, values):
    """Raises a StagingError when tracing `func` drew numbers from NumPy's or Python's global
    generator, or from a generator among the arguments `values`, at trace time: code autoconv
    does not convert drew them, and the graph would replay them frozen.

    With other threads running, their draws cannot be told apart, so only the arguments are
    checked."""
    objects = _generators(values)
    if threading.active_count() == 1:
        objects += [_GLOBAL, _pyrandom._inst]
    before = [_state(obj) for obj in objects]
    yield
    for obj, state in zip(objects, before):
        if _state(obj) != state:
            raise _frozen_error(func, obj)


def _frozen_error(func, obj) -> StagingError:
    code = getattr(inspect.unwrap(getattr(func, "__func__", func)), "__code__", None)
    origin = (code.co_filename, code.co_firstlineno) if code is not None else None
    name = getattr(func, "__qualname__", getattr(func, "__name__", repr(func)))
    if obj is _GLOBAL:
        what = "NumPy's global random generator (np.random.*)"
    elif obj is _pyrandom._inst:
        what = "Python's global random generator (random.*)"
    else:
        what = f"the {type(obj).__name__} passed in as an argument"
    return StagingError(
        f"{where(origin)}: `{name}` drew random numbers from {what} while it was traced, in "
        "code that autoconv does not convert (library code, a do_not_convert function, or "
        "autograph=False); the graph would replay those numbers on every run. Call np.random "
        "or the generator's methods directly in the converted function (they are staged), or "
        "draw the numbers outside and pass them in as arguments."
    )


def _register():
    _calls.random_owners.update(_OWNER_FAMILY)
    _calls.random_ids.update(_CREATOR_IDS)
    _calls.random_ids.update(_MODULE_FUNCTIONS)
    _calls.random_stage = stage


_register()
