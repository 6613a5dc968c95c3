"""`autoconv.function`: trace once per input signature, optimize, then run the graph.

A call first tries the generated guards of the signatures it has seen (`dispatch`), then
computes the key of its arguments (`signature.flatten`): arrays by dtype and shape, NumPy
scalars by dtype, Python values by value, containers by structure, other objects by identity.
A known key runs its `ConcreteFunction` directly, without running any Python code of the
function; a new key converts the function (`autoconv.convert`), traces it with placeholder
Tensors into a `Graph`, runs the optimizing passes on a copy (`passes.optimize`) and generates
the executor of the optimized graph.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import os
import sys
import time
import types
import warnings
import weakref

import numpy as np

from autoconv.caches import register
from autoconv.callables import bound_call, check_no_specs, check_traceable
from autoconv.code import Text
from autoconv.functions import dispatch as _dispatch
from autoconv.functions.collector import gc_paused
from autoconv.functions.compiled import CompiledGraph, bind_arguments, conform
from autoconv.functions.writebacks import Snapshot, StateNeeded, state_spec
from autoconv.functions.writebacks import describe as describe_path
from autoconv.functions.writebacks import put as put_path
from autoconv.functions.writebacks import read as read_path
from autoconv.graph import display
from autoconv.graph import graph as _g
from autoconv.graph import passes as _passes
from autoconv.graph import signature as sig
from autoconv.graph.errors import RetracingWarning, StagingError, warn_at
from autoconv.graph.signature import TensorSpec
from autoconv.graph.variables import creates_variables
from autoconv.locations import describe, describe_code
from autoconv.trace.tensors import made_in_loop, trace_effects
from autoconv.trace.tensors.mutation import check_live
from autoconv.trace.tensors.recursion import recursion_error
from autoconv.tracebacks import entry_point, hide_our_frames

_EAGER = [False]
_MISS = _dispatch.MISS
_RETRACE_WARNING_AFTER = 5
MAX_TRACES = 64
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_FUNCTIONS: weakref.WeakSet = weakref.WeakSet()  # every Function, for clear_caches()


def _clear_all_traces() -> None:
    for f in list(_FUNCTIONS):
        f.clear_cache()


def _count_all_traces() -> int:
    return sum(len(f._concretes) for f in list(_FUNCTIONS))


register("graph traces (all Functions)", _clear_all_traces, _count_all_traces)

_P = inspect.Parameter


def run_functions_eagerly(run_eagerly: bool) -> None:
    """When true, every `autoconv.function` runs its Python function eagerly, untraced."""
    _EAGER[0] = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    """Whether `run_functions_eagerly(True)` is in effect."""
    return _EAGER[0]


def function(
    func=None,
    *,
    input_signature=None,
    reduce_retracing: bool = False,
    autograph: bool = True,
    optimize=None,
    max_traces: int = MAX_TRACES,
    backend: str = "numpy",
    device=None,
    keep_on_device: bool = False,
):
    """Returns a `Function` that traces `func` into a NumPy graph per input signature.

    Use as `@function`, `@function(...)` or `function(f, ...)`; works on methods and bound
    methods. On a method, the instance is an argument like the others, keyed by identity and
    weakly (the Function never keeps an instance alive), with one cache for all instances.
    `input_signature`: a sequence of `TensorSpec`, one per positional parameter (after `self`
    on a method); arguments are checked against it and one graph serves all calls.
    `reduce_retracing`: on a new array shape, trace once with the differing dimensions unknown
    instead of once per shape.
    `autograph`: convert data-dependent `if`/`while`/`for` into graph control flow.
    `optimize`: which optimizing passes run on its graphs: None (the defaults of
    `autoconv.graph.passes.configure`, all passes unless changed), True (all), False (none), a
    dict of pass flags (`{"cse": False}`) or a `passes.Settings`. `max_traces`: how many
    graphs it keeps; past that, a new trace drops the least recently used one (with a
    `RetracingWarning` the first time).
    `backend`: "numpy" (run the graph with NumPy) or "jax" (lower it to JAX, compile it with
    XLA; needs `pip install 'autoconv[jax]'`). For "jax": `device` (None, "cpu", "gpu",
    "auto" or a `jax.Device`) places the computation, and `keep_on_device=True` returns JAX
    arrays instead of NumPy ones (see docs/backends.md).
    """

    def wrap(f):
        check_traceable(f)  # a ufunc or a class: say what to write instead
        f = bound_call(f) or f  # a model: its bound `__call__`, as `tf.function(model)`
        return Function(
            f,
            input_signature=input_signature,
            reduce_retracing=reduce_retracing,
            autograph=autograph,
            optimize=optimize,
            max_traces=max_traces,
            backend=backend,
            device=device,
            keep_on_device=keep_on_device,
        )

    return wrap if func is None else wrap(func)


class Function:
    """A Python function traced into NumPy graphs, one per input signature.

    Calling it runs the graph for the call's signature (tracing it first if new). Attributes:
    `python_function` (the original), `tracing_count`, `input_signature`, `max_traces`.
    """

    def __init__(
        self,
        python_function,
        *,
        input_signature=None,
        reduce_retracing=False,
        autograph=True,
        optimize=None,
        max_traces=MAX_TRACES,
        backend="numpy",
        device=None,
        keep_on_device=False,
    ):
        from autoconv import backends  # the IR layer imports no backend at module level

        backends.check(backend, device, keep_on_device)
        self.backend = backend
        self.device = device
        self.keep_on_device = bool(keep_on_device)
        if isinstance(python_function, Function):
            python_function = python_function.python_function
        if optimize is not None:
            _passes.resolve(optimize)  # fail early on unknown settings
        self.optimize = optimize
        self.python_function = python_function
        self.input_signature = None if input_signature is None else tuple(input_signature)
        self.reduce_retracing = bool(reduce_retracing)
        self.autograph = bool(autograph)
        if int(max_traces) < 1:
            raise ValueError(f"max_traces must be at least 1, got {max_traces!r}")
        self.max_traces = int(max_traces)
        self.tracing_count = 0
        self._evicted = 0
        self._cache: dict = {}  # key -> ConcreteFunction (several keys may share one)
        # The traced graphs, least recently used first (a dict as an ordered set).
        self._concretes: dict[ConcreteFunction, None] = {}
        self._offset = 0  # 1 on a method: `input_signature` describes the arguments after self
        self._is_method = isinstance(python_function, types.MethodType)  # bound already
        self._state_paths: list = []  # object attributes read as graph inputs (mutations.py)
        self._created: set = set()  # keys whose first trace created Variables
        self._converted = None
        self._warned = False
        self._made_at = made_in_loop.creation_site()  # the user's line, for the loop warning
        self._name = getattr(python_function, "__name__", "function")
        functools.update_wrapper(self, python_function, updated=())
        self._signature = inspect.signature(python_function)
        params = list(self._signature.parameters.values())
        self._params = params
        self._simple = all(p.kind is _P.POSITIONAL_OR_KEYWORD for p in params)
        self._defaults = tuple(p.default for p in params)
        self._nparams = len(params) if self._simple else -1
        self._dispatch = _dispatch._miss
        if self.input_signature is not None:
            for spec in self.input_signature:
                if not isinstance(spec, TensorSpec):
                    raise TypeError(
                        f"input_signature of {self._name} must hold TensorSpecs, got {spec!r}"
                    )
            if len(self.input_signature) > len(params):
                raise TypeError(
                    f"input_signature of {self._name} has {len(self.input_signature)} specs but "
                    f"the function takes {len(params)} parameters"
                )
        _FUNCTIONS.add(self)

    # --- calls ------------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        try:
            if not kwargs and len(args) == self._nparams and not _EAGER[0] and not _g._SCOPES.stack:
                result = self._dispatch(args)
                if result is not _MISS:
                    return result
            if _EAGER[0]:
                return self.python_function(*args, **kwargs)
            if _g.building():
                # Called from another trace: inline its operations there.
                return self._converted_function()(*args, **kwargs)
            values = self._canonical(args, kwargs)
            leaves: list = []
            if self.input_signature is not None:
                key = self._conform_signature(values, leaves)
            else:
                key = sig.flatten(values, leaves)
            if TensorSpec in map(type, leaves):
                check_no_specs(self._name, self._params, values)
            concrete = self._cache.get(key)
            if concrete is None:
                concrete = self._concrete_for(values, key)
            elif concrete.state and concrete._state_leaves(values) is None:
                # An attribute read as an input changed kind, dtype or shape: trace anew.
                self._drop(concrete)
                concrete = self._concrete_for(values, key)
            else:
                self._used(concrete)
            return concrete._run(leaves, values)
        except Exception as e:
            hide_our_frames(e)  # the user's frames only (autoconv.tracebacks)
            raise

    @entry_point
    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        """The graph for these arguments (arrays, Python values or `TensorSpec`s), traced if new."""
        off = self._offset
        if len(args) == off and not kwargs and self.input_signature is not None:
            args = tuple(args) + self.input_signature
        values = self._canonical(args, kwargs)
        if self.input_signature is not None:
            n = len(self.input_signature)
            values = tuple(values[:off]) + self.input_signature + tuple(values[off + n :])
        key = sig.flatten(values, [])
        return self._cache.get(key) or self._concrete_for(values, key)

    @entry_point
    def save(self, path, *, signatures=None, key: bytes | str | None = None) -> None:
        """Writes the signatures traced so far (or `signatures`, TensorSpecs or example
        arguments, traced first) to one file that `autoconv.load` runs without this code.
        `key`: sign the file (HMAC-SHA256), so that `load(path, key=key)` refuses any other."""
        from autoconv.functions.saving.files import save_function

        save_function(self, path, signatures, key)

    def clear_cache(self) -> None:
        """Drops every traced graph: each signature traces again when next called (and the
        function is converted again). `tracing_count` keeps counting."""
        self._cache = {}
        self._concretes = {}
        self._created = set()
        self._converted = None
        self._dispatch = _dispatch._miss

    @property
    def concrete_functions(self) -> list[ConcreteFunction]:
        """The traced `ConcreteFunction`s held now, in the order they were traced."""
        return sorted(self._concretes, key=lambda c: c.trace_number)  # not the use order

    def pretty_printed_concrete_signatures(self) -> str:
        """One entry per traced signature: parameters with their specs, and the output spec."""
        return Text("\n\n".join(c.pretty_printed_signature() for c in self.concrete_functions))

    @entry_point
    def profile(self, *args, runs: int = 10, **kwargs):
        """`ConcreteFunction.profile` of the graph for these arguments (traced first if new)."""
        return self.get_concrete_function(*args, **kwargs).profile(*args, runs=runs, **kwargs)

    def __set_name__(self, owner, name):
        self._offset = 1  # a method: `self` comes before what input_signature describes

    def __get__(self, instance, owner=None):
        if instance is None or self._is_method:
            return self
        if not self._offset:  # set after the class was made (no __set_name__)
            self._offset = 1
        return BoundFunction(self, instance)

    def __repr__(self):
        n = self.tracing_count
        return f"<autoconv.Function {self._name} ({n} trace{'' if n == 1 else 's'})>"

    def _repr_html_(self) -> str:
        return display.function_html(self)

    def _update_dispatch(self):
        """Regenerates the guards of the fast path from the most recent signatures."""
        if self.input_signature is not None or self._nparams < 0:
            return
        self._note_fast_hits()
        entries = list(self._cache.items())[::-1]
        self._dispatch = _dispatch.make(entries, self._nparams, track=True)

    # --- the cache ------------------------------------------------------------------------
    def _used(self, concrete) -> None:
        """Marks `concrete` as the most recently used graph (cheap: calls through the fast
        path's guards skip it, and those guards serve the most recent signatures)."""
        concretes = self._concretes
        if next(reversed(concretes), None) is not concrete and concrete in concretes:
            # Other threads iterate over copies (`list(...)`), and a concurrent `_drop`
            # replaces the dict: at worst the order is briefly off.
            try:
                del concretes[concrete]
            except KeyError:
                return
            concretes[concrete] = None

    def _note_fast_hits(self) -> None:
        """Counts the graphs the fast path ran since its guards were made as used now."""
        used = getattr(self._dispatch, "used", None)
        if used and any(used):
            entries = self._dispatch.entries
            for n in range(len(used) - 1, -1, -1):  # least recent first
                if used[n]:
                    used[n] = False
                    self._used(entries[n][1])

    def _keep(self, concrete) -> None:
        """Adds a new graph; past `max_traces`, drops the least recently used."""
        self._note_fast_hits()
        self._concretes[concrete] = None
        while len(self._concretes) > self.max_traces:
            oldest = next(iter(self._concretes))
            self._drop(oldest)
            self._evicted += 1
            if self._evicted == 1:
                _warn_at_caller(
                    f"autoconv.function `{self._name}` has more than max_traces="
                    f"{self.max_traces} traced signatures: the least recently used graph is "
                    "dropped and traced again if its signature comes back. " + self._advice(),
                )

    def _drop(self, concrete) -> None:
        """Forgets one graph (and the keys it served). Builds new containers rather than
        changing the ones in use: it may run from a weak reference's callback, in the middle
        of a loop over them."""
        self._concretes = {c: None for c in list(self._concretes) if c is not concrete}
        self._cache = {k: c for k, c in list(self._cache.items()) if c is not concrete}
        dead = concrete._dead_ids()
        if dead:
            self._created = {k for k in self._created if not sig.mentions(k, dead)}

    def _forget_object(self, concrete) -> None:
        """An object `concrete` was traced for died: its graph and keys go (its id may be
        reused by a new object), and the fast path's guards are rebuilt."""
        if concrete in self._concretes or concrete in list(self._cache.values()):
            self._drop(concrete)
            self._update_dispatch()

    # --- keys -------------------------------------------------------------------------------
    def _canonical(self, args, kwargs) -> tuple:
        """The arguments as one value per parameter, defaults filled in."""
        n = len(self._params)
        if self._simple and not kwargs and len(args) <= n:
            if len(args) == n:
                return args
            missing = self._defaults[len(args) :]
            if _P.empty not in missing:
                return args + missing
        return bind_arguments(self._signature, self._name, args, kwargs)

    def _call(self, fn, values):
        args, kwargs = [], {}
        for p, v in zip(self._params, values):
            if p.kind in (_P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD):
                args.append(v)
            elif p.kind is _P.VAR_POSITIONAL:
                args.extend(v)
            elif p.kind is _P.KEYWORD_ONLY:
                kwargs[p.name] = v
            else:
                kwargs.update(v)
        return fn(*args, **kwargs)

    def _conform_signature(self, values, leaves):
        keys = []
        off = self._offset
        for i, value in enumerate(values):
            if off <= i < off + len(self.input_signature):
                spec = self.input_signature[i - off]
                spec_key = ("A", spec.dtype, spec.shape)
                conform(spec_key, value, self._params[i].name, leaves, self._name)
                keys.append(spec_key)
            else:
                keys.append(sig.flatten(value, leaves))
        return (tuple, tuple(keys))

    def _concrete_for(self, values, key):
        """The graph for a new key (a more general one already traced, or a new trace); the
        fast path's guards are regenerated to recognize the key."""
        try:
            return self._find_or_trace(values, key)
        finally:
            self._update_dispatch()

    def _find_or_trace(self, values, key):
        for concrete in list(self._concretes):
            if not concrete.first_call_only and sig.covers(concrete.key, key):
                self._cache[key] = concrete
                self._used(concrete)
                return concrete
        trace_key = key
        if self.reduce_retracing:
            for concrete in reversed(list(self._concretes)):
                general = sig.generalize(concrete.key, key)
                if general is not None:
                    trace_key = general
                    break
        concrete = gc_paused(self._trace, values, trace_key)
        if key not in self._created and creates_variables(concrete.graph):
            # The first call creates Variables. Eagerly, a later call creates them again (a
            # local Variable starts afresh) or finds them kept on an object and skips creating
            # them (the lazy `if self.v is None:` idiom). The Python code decides, so this
            # graph runs for this call only and the next call traces again: a graph that still
            # creates Variables re-initializes them on every run, one that no longer does uses
            # the ones kept.
            self._created.add(key)
            concrete.first_call_only = True
            return concrete
        self._cache[key] = concrete
        return concrete

    # --- tracing ----------------------------------------------------------------------------
    def _converted_function(self):
        if self._converted is None:
            fn = self.python_function
            if self.autograph:
                try:
                    from autoconv.conversion import api
                except ImportError:  # the converter is optional until it lands
                    api = None
                if api is not None:
                    fn = api.functional(fn)
            self._converted = fn
        return self._converted

    def _trace(self, values, key) -> ConcreteFunction:
        from autoconv.trace.tensors import random as _random
        from autoconv.trace.tensors.accumulated import UnboundReturn, check_output
        from autoconv.trace.tensors.appends import whole_lists
        from autoconv.trace.tensors.choices import chosen
        from autoconv.trace.tensors.keyed import outputs as keyed_outputs
        from autoconv.trace.tensors.optionals import output_records
        from autoconv.trace.tensors.raising import raises_at_return, raises_when_run

        settings = _passes.resolve(self.optimize)
        start = time.perf_counter()
        graph = _g.Graph(self._name)
        graph.early_roll = settings.roll  # (`runtime.pure_steps`: loops staged as they trace)
        specs = iter(sig.leaf_specs(key))

        def placeholder(path, leaf_key):
            shape, dtype = next(specs)
            if np.dtype(dtype) == object:
                # Its items are Python objects (lists, strings) the graph would only see as
                # values of unknown type: `type()` and `isinstance` of them would be made up.
                raise StagingError(
                    f"{self._where()}: argument `{path}` is a NumPy array of Python objects "
                    "(dtype=object), which graph mode does not take as an input; pass a list, "
                    "or an array of numbers (call the function eagerly for such data)."
                )
            node = _g.Node("placeholder", "placeholder", attrs={"name": path})
            from autoconv.graph.tensor import Tensor

            t = Tensor(graph, node, 0, shape, dtype)
            node.outputs.append(t)
            graph.inputs.append(t)
            graph.input_names.append(path)
            return t

        symbolic = (
            tuple(
                sig.substitute(v, k, p.name, placeholder)
                for v, k, p in zip(values, key[1], self._params)
            )
            if key[0] is tuple
            else values
        )
        fn = self._converted_function()
        snapshot = (
            Snapshot(symbolic, [p.name for p in self._params], self._instance())
            if key[0] is tuple
            else None
        )
        state = list(self._state_paths) if snapshot is not None else []
        state_specs = []
        try:
            for path in state:
                # Attributes the function changes: graph inputs, read from the object per call.
                value = read_path(path, values, self._instance())
                spec = state_spec(value)
                node = _g.Node("placeholder", "placeholder", attrs={"name": describe_path(path)})
                from autoconv.graph.tensor import Tensor

                t = Tensor(graph, node, 0, *spec)
                node.outputs.append(t)
                graph.inputs.append(t)
                graph.input_names.append(describe_path(path))
                state_specs.append(spec)
                put_path(path, symbolic, self._instance(), t)
            with (
                _g.build(graph),
                _random.watch(self.python_function, values),
                trace_effects.watch(self, values),
            ):
                try:
                    outputs = self._call(fn, symbolic)
                    # Sets and dicts of keys known only when the graph runs: built as it runs.
                    outputs = keyed_outputs(outputs)
                    # Values staged conditions chose (`return "X"` or `None`): the value itself.
                    try:
                        outputs = whole_lists(chosen(outputs))
                    except StagingError as e:
                        raise self._located(e) from None  # (a union's alternative, returned)
                    if getattr(graph, "_stale", False):
                        # A returned view of an array changed in place by item assignment
                        # would show the change eagerly (see trace/tensors/mutation.py).
                        check_live(_g.tensors_in(outputs), self.python_function.__name__)
                except Exception as e:
                    if not raises_when_run(e, graph):
                        raise
                    outputs = None  # the graph raises before it returns
                writebacks = (
                    snapshot.changes(self._where, set(state)) if snapshot is not None else []
                )
        except StateNeeded as e:
            snapshot.restore()
            new = [p for p in e.paths if p not in self._state_paths]
            if not new:
                raise
            self._state_paths.extend(new)
            return self._trace(values, key)
        except BaseException as e:
            if snapshot is not None:
                snapshot.restore()
            if isinstance(e, RecursionError) and not isinstance(e, StagingError):
                # A recursion that does not stop at trace time (its base case tests a Tensor).
                raise recursion_error(e, self.python_function) from None
            raise
        outputs = _random.outputs(outputs)  # generators made inside: their run-time objects
        try:
            check_output(outputs)
        except UnboundReturn as e:
            code = inspect.unwrap(self.python_function).__code__
            if not raises_at_return(e, graph, (code.co_filename, code.co_firstlineno)):
                raise self._located(e) from None
            outputs = None  # the graph raises before it returns
        except StagingError as e:
            raise self._located(e) from None
        graph.outputs = output_records(outputs)  # the Python type a path gives, where it varies
        if writebacks:
            # Changes to the arguments' containers: extra outputs, stored after each run.
            graph.outputs = (outputs, tuple(value for _, _, value in writebacks))
        from autoconv import backends  # the API layer picks the backend; the IR never imports one

        traced = time.perf_counter()
        optimized, records = _passes.optimize(graph, settings, self.backend)
        optimized_at = time.perf_counter()
        program = backends.program(optimized, self.backend, self.device, self.keep_on_device)
        done = time.perf_counter()
        stores = [(kind, path) for kind, path, _ in writebacks]
        concrete = ConcreteFunction(self, graph, program, key, _objects(values), stores)
        concrete.state = list(zip(state, state_specs))
        concrete.optimized_graph = optimized
        concrete.settings = settings
        concrete.pass_records = records
        concrete.timings = {
            "trace": traced - start,
            "optimize": optimized_at - traced,
            "compile": done - optimized_at,
        }
        self._keep(concrete)
        self.tracing_count += 1
        if self.tracing_count == 1:
            made_in_loop.first_trace(self)  # warns when Functions are made anew per call
        if self.tracing_count > _RETRACE_WARNING_AFTER and not self._warned:
            self._warned = True
            _warn_at_caller(self._retracing_message())
        return concrete

    def _instance(self):
        """The instance a method Function is bound to, else None."""
        return (
            getattr(self.python_function, "__self__", None)
            if isinstance(self.python_function, types.MethodType)
            else None
        )

    def _where(self) -> str:
        code = getattr(inspect.unwrap(self.python_function), "__code__", None)
        return describe_code(code) if code else self._name

    def _located(self, error: StagingError) -> StagingError:
        """`error` about the function's outputs, with the function's file and line where it
        names none (of its eager type too)."""
        if self._names_own_file(str(error)):
            return error
        return type(error)(f"{self._where()}: {error}")

    def _names_own_file(self, message: str) -> bool:
        """True when `message` starts with a location in this function's file (or cell)."""
        code = getattr(inspect.unwrap(self.python_function), "__code__", None)
        place = describe(code.co_filename) if code else self._name
        return message.startswith((place + ":", place + ","))

    def _retracing_message(self) -> str:
        keys = [c.key[1] for c in list(self._concretes) if c.key[0] is tuple]
        best, best_count = None, 1
        for i, p in enumerate(self._params):
            distinct = {k[i] for k in keys if i < len(k)}
            if len(distinct) > best_count:
                best, best_count = p.name, len(distinct)
        if best and self._offset and best == self._params[0].name:
            culprit = (
                f"it is a method called on {best_count} different instances, and each instance "
                "has graphs of its own (its attributes are constants in them)"
            )
        elif best:
            culprit = (
                f"its argument `{best}` changes between calls ({best_count} different values "
                "or shapes)"
            )
        else:
            culprit = "its arguments change between calls"
        return (
            f"autoconv.function `{self._name}` has been traced {self.tracing_count} times: "
            f"{culprit}. " + self._advice()
        )

    @staticmethod
    def _advice() -> str:
        return (
            "Each new Python value, array dtype or shape makes a new trace. Pass values that "
            "change as NumPy arrays rather than Python numbers, or use reduce_retracing=True or "
            "an input_signature with None for sizes that vary."
        )


class BoundFunction(functools.partial):
    """A method `Function` bound to one instance (what `instance.method` gives).

    Calls go to the class's `Function` (`function`) with the instance (`__self__`) as the first
    argument, so all instances share one cache (each keyed by identity, weakly) and one
    `tracing_count`. Other attributes are the `Function`'s. (A `functools.partial`, so that
    making one and calling it run no Python code of their own.)
    """

    __slots__ = ()

    @property
    def function(self) -> Function:
        return self.func

    @property
    def __self__(self):
        return self.args[0]

    @property
    def python_function(self):
        """The original function bound to the instance (a method object)."""
        return types.MethodType(self.func.python_function, self.args[0])

    @property
    def __wrapped__(self):
        return self.python_function

    def get_concrete_function(self, *args, **kwargs):
        """The graph for these arguments, traced if new; called without the instance."""
        concrete = self.func.get_concrete_function(self.args[0], *args, **kwargs)
        return BoundConcreteFunction(concrete, self.args[0])

    def profile(self, *args, runs: int = 10, **kwargs):
        """`Function.profile` for this instance; called without it."""
        return self.func.profile(self.args[0], *args, runs=runs, **kwargs)

    def __getattr__(self, name):
        return getattr(self.func, name)

    def __repr__(self):
        return f"<bound autoconv.Function {self.func._name} of {self.args[0]!r}>"


class BoundConcreteFunction:
    """A `ConcreteFunction` of a method, called without the instance it was traced for."""

    __slots__ = ("concrete", "__self__")

    def __init__(self, concrete, instance):
        self.concrete = concrete
        self.__self__ = instance

    @entry_point
    def __call__(self, *args, **kwargs):
        return self.concrete(self.__self__, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.concrete, name)

    def __repr__(self):
        return repr(self.concrete)


def _warn_at_caller(message: str) -> None:
    """Warns with `RetracingWarning`, attributed to the first frame outside autoconv (the
    user's call)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
    if frame is None:
        warnings.warn(message, RetracingWarning, stacklevel=2)
        return
    warn_at(message, RetracingWarning, frame.f_code.co_filename, frame.f_lineno, frame.f_globals)


def _objects(values) -> list:
    """The objects among `values` that their key holds by identity."""
    out = []

    def walk(v):
        if isinstance(v, (tuple, list)):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif not isinstance(v, (np.ndarray, np.generic, *sig._PY)):
            out.append(v)

    walk(values)
    return out


_TRACE_NUMBERS = itertools.count()


class ConcreteFunction(CompiledGraph):
    """One traced graph of a `Function`, for one input signature.

    Call it with arguments matching its signature; `graph` is the `Graph`, `code` the
    generated Python that runs it.
    """

    def __init__(self, function: Function, graph, program, key, pinned, writebacks=()):
        super().__init__(key, graph, program, writebacks)
        self.function = function
        self.trace_number = next(_TRACE_NUMBERS)  # signatures are listed in trace order
        self.optimized_graph = program.graph
        self.settings = None
        self.pass_records: list = []
        self.timings: dict = {}
        self.state: list = []  # (path, spec) of object attributes read as inputs per call
        # The objects keyed by identity, weakly where they allow it, so a graph keeps no
        # instance alive; when one dies, its graph goes (its id may come back as another
        # object's). Strongly otherwise, which keeps the id from being reused while the graph
        # exists.
        for obj in pinned:
            try:
                ref = weakref.ref(obj, self._object_died)
            except TypeError:
                ref = _strong(obj)
            self._objects[id(obj)] = ref
        self.first_call_only = False  # traced by a first call that created Variables
        self._fast = self._make_fast  # (made at the first direct call: most never have one)

    def _make_fast(self, args):
        """The guards of this signature, made at the first call of this ConcreteFunction
        (each `make` compiles its source), then used for it and every later call."""
        self._fast = _dispatch.make([(self.key, self)], self.function._nparams)
        return self._fast(args)

    def _object_died(self, _ref) -> None:
        self.function._forget_object(self)

    def _dead_ids(self) -> set:
        """The ids this graph's key holds of objects that no longer exist."""
        return {i for i, ref in self._objects.items() if ref() is None}

    def to_dot(self, *, optimized: bool = True, dead: bool = False) -> str:
        """Graphviz DOT of the graph that runs (`optimized_graph`), or as traced with
        `optimized=False`."""
        return (self.optimized_graph if optimized else self.graph).to_dot(dead=dead)

    @entry_point
    def profile(self, *args, runs: int = 10, **kwargs):
        """Runs the graph `runs` times and returns where the time goes, per operation and
        per line of your code (a table; HTML in notebooks)."""
        from autoconv.functions.profile import profile

        return profile(self, args, kwargs, runs)

    def pass_summary(self) -> str:
        """What the optimizing passes did to this graph: one line per pass run, with the
        number of operations before and after, the changes made and the time taken; then the
        trace, optimize and compile times."""
        lines = []
        for r in self.pass_records:
            lines.append(
                f"{r.name:<9} {r.nodes_before:>5} -> {r.nodes_after:<5} ops  "
                f"{r.changes:>4} changes  {r.seconds * 1e3:7.2f} ms"
            )
        times = ", ".join(f"{k} {v * 1e3:.2f} ms" for k, v in self.timings.items())
        lines.append(times)
        return Text("\n".join(lines))

    def _state_leaves(self, values):
        """The current values of the object attributes this graph takes as inputs, or None
        when one no longer has the traced kind, dtype or shape (the function traces again)."""
        bound = self.function._instance()
        found = []
        for path, spec in self.state:
            value = read_path(path, values, bound)
            if state_spec(value) != spec:
                return None
            found.append(value)
        return found

    def _run(self, leaves, values=None):
        if self.state:
            extra = self._state_leaves(values)
            if extra is None:
                raise StagingError(
                    f"{self.function._where()}: an attribute this graph reads when it runs "
                    f"({', '.join(describe_path(p) for p, _ in self.state)}) changed its kind, "
                    "dtype or shape since it was traced; call the Function (not a "
                    "ConcreteFunction) to trace again."
                )
            leaves = [*leaves, *extra]
        result = self.run(leaves)
        if self.writebacks:
            return self.store(result, values, self.function._instance())
        return result

    def __call__(self, *args, **kwargs):
        try:
            if _g.building():
                return self._inline(args, kwargs)
            if not kwargs and len(args) == self.function._nparams:
                result = self._fast(args)
                if result is not _MISS:
                    return result
            f = self.function
            values = f._canonical(args, kwargs)
            return self._run(self.leaves(values, f._params, f._name), values)
        except Exception as e:
            hide_our_frames(e)  # the user's frames only (autoconv.tracebacks)
            raise

    def _inline(self, args, kwargs):
        """Called while another function is traced: checks the arguments against this
        signature (a Tensor by its spec), then traces the function into that trace, as a call
        of the `Function` does."""
        f = self.function
        values = f._canonical(args, kwargs)
        as_specs = _g.map_tensors(values, lambda t: TensorSpec(t.shape, t.dtype))
        self.leaves(as_specs, f._params, f._name)
        return f._converted_function()(*args, **kwargs)

    @entry_point
    def save(self, path, *, key: bytes | str | None = None) -> None:
        """Writes this graph to one file that `autoconv.load` runs without this code (`key`:
        sign it, as for `Function.save`)."""
        from autoconv.functions.saving.files import save_concrete

        save_concrete(self, path, key)

    def pretty_printed_signature(self) -> str:
        """`name(params)` with each parameter's spec and the output spec."""
        return Text(self.signature_text(self.function._name, self.function._params))

    def __repr__(self):
        return f"<autoconv.ConcreteFunction {self.pretty_printed_signature().splitlines()[0]}>"

    def _repr_html_(self) -> str:
        return display.concrete_html(self)


def _strong(obj):
    return lambda: obj
