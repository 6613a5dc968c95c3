"""Compiles a lowered graph with `jax.jit` and calls it the way the NumPy backend's program is
called: NumPy inputs in, results of NumPy's types out.

64-bit types are enabled only around tracing, compiling and calling (`x64()`), never in the
user's global JAX configuration, so float64 stays float64 and int64 int64, as in NumPy.

A program whose lists grow in loops with no bound (`lists.py`) may run a call twice: when a
list outgrew its buffer, it compiles again with a larger one (kept for later calls) and runs
again from the same inputs. The first attempt leaves nothing behind: its outputs, Variable
values and recorded raises are dropped, and its prints are held in `Lowered.pending` and never
shown. Host callbacks that keep state of their own follow a small protocol: one with a
`save()` method (returning a token) is saved before each attempt of such a program, and
`restore(token)` is called on it before the attempt runs again.

Variables are read when a call starts and the ones the graph assigns are stored when it ends. A
call holds the locks of those it assigns over that whole window (see `autoconv.graph.variables`),
so that calls in several threads, eager updates and NumPy programs lose no update: calls that
assign a common Variable run one at a time. The window is the whole call, not one update, because
the compiled program takes all the values in and gives all the new ones out at once.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import io_callback

from autoconv.backends.frame import ProgramFrame
from autoconv.backends.jax import heapops as _heapops
from autoconv.backends.jax import keyedops as _keyedops
from autoconv.backends.jax import listops as _listops
from autoconv.backends.jax import lists as _lists
from autoconv.backends.jax import ops as _ops
from autoconv.backends.jax.errors import LoweringError, lowering_error
from autoconv.backends.jax.host import TO_DEVICE
from autoconv.backends.jax.lowering import Lowered
from autoconv.graph.errors import execution_error, where
from autoconv.graph.helpers import Mixed, mixed_output, optional_output
from autoconv.graph.operators import BINARY_OPERATORS
from autoconv.graph.origin import source_text
from autoconv.graph.tensor import Tensor
from autoconv.graph.variables import in_lock_order
from autoconv.locks import new_lock
from autoconv.trace.tensors.optionals import Optional

# device="auto": a graph whose arrays (inputs and intermediates) all hold fewer elements than
# this runs on the CPU, where a GPU's transfers, kernel launches and host round trips cost more
# than the work saves. Measured on an H200 against its 16-core host, NumPy arrays in and out
# (benchmarks/jax_gpu.py --threshold, docs/backends.md): elementwise work pays from 2^22 float32
# (2^24 float64) elements, work with loops or matrix products from 2^20 (2^18 float64).
AUTO_CPU_ELEMENTS = {
    ("elementwise", 4): 1 << 22,
    ("elementwise", 8): 1 << 24,
    ("heavy", 4): 1 << 20,
    ("heavy", 8): 1 << 18,
}
# Operations that make a graph's work more than one pass over its arrays.
_HEAVY = frozenset(
    "matmul dot vdot inner outer tensordot einsum kron convolve correlate solve inv det lstsq "
    "eig eigh eigvals eigvalsh svd qr cholesky pinv matrix_power fft ifft rfft irfft sort "
    "argsort cumsum cumprod".split()
)


def x64():
    """A context in which JAX keeps 64-bit dtypes (the user's global setting is untouched)."""
    enable = getattr(jax, "enable_x64", None)
    if enable is not None and not isinstance(enable, bool) and callable(enable):
        try:
            return enable(True)
        except TypeError:
            pass
    from jax.experimental import enable_x64

    return enable_x64()


def _x64_state():
    """JAX's own setting of 64-bit types, whose `.value` is what applies here now (a scope's or
    the global one), or None where this JAX keeps it elsewhere."""
    try:
        from jax._src import config

        state = config.enable_x64
        return state if isinstance(state.value, bool) else None
    except (ImportError, AttributeError):
        return None


# A program called where 64-bit types already apply (the user enabled them globally) needs no
# `x64()` scope: it finds the executable compiled inside one (the scope sets the same value),
# and a call saves the 0.4 us of entering and leaving it.
X64_STATE = _x64_state()


def carry(x, dtype):
    """`x` as a JAX array of `dtype`: the type a branch result or loop variable keeps."""
    if isinstance(x, (list, tuple)):
        raise TypeError("a Python list cannot be a branch result or loop variable")
    if hasattr(x, "aval") or isinstance(x, jax.Array):
        return x if x.dtype == dtype else x.astype(dtype)
    return jnp.asarray(x, dtype=dtype)


def cond(test, then, orelse, state):
    p = _ops.truth(test)
    if isinstance(p, bool):  # known while JAX traces: a Python `if`
        return then(*state) if p else orelse(*state)
    return lax.cond(p, then, orelse, *state)


def carry_list(lst):
    """A run-time list `(buffer, count)` as a branch result or loop variable: the count an
    int64 array (it may be a Python int where it is known while compiling)."""
    buffer, count = lst
    return buffer, jnp.asarray(count, dtype=jnp.int64)


def append(lst, *items):
    """The list `(buffer, count)` with `items` written after its last item."""
    buffer, count = lst
    for item in items:
        # (a list of tuples has a buffer per item of the tuples)
        buffer = jax.tree_util.tree_map(
            lambda b, v, at=count: b.at[at].set(jnp.asarray(v).astype(b.dtype), mode="drop"),
            buffer,
            item,
        )
        count = count + 1
    return buffer, count


def all_of(*tests):
    return functools.reduce(jnp.logical_and, [jnp.asarray(t) for t in tests])


class HostCalls:
    """The lowered code's calls of the host: prints, recorded raises and index errors, random
    draws. Each is an ordered `io_callback` placed on one device, so that XLA keeps them in
    program order also when the program runs SPMD over several devices (where ordered
    `jax.debug.callback`s are refused). The device is the program's, chosen at its first call."""

    def __init__(self):
        self.sharding = None

    def place(self, device) -> None:
        self.sharding = jax.sharding.SingleDeviceSharding(device)

    def callback(self, fn, *args):
        io_callback(fn, None, *args, ordered=True, sharding=self.sharding)

    def check(self, ok, err, record, *values):
        """The error flag after a run-time check: `record` (a host callback) keeps the eager
        exception when `ok` is false."""
        ok = _ops.truth(ok)
        if isinstance(ok, bool):
            if ok:
                return err
            self.callback(record, err, *values)
            return True

        def bad(err):
            self.callback(record, err, *values)
            return jnp.asarray(True)

        return lax.cond(ok, lambda err: jnp.asarray(err, dtype=bool), bad, err)

    def confirm(self, suspect, err, record, *values):
        """The error flag after a run-time check that the host decides: where `suspect` holds,
        `record` (a host callback returning whether it kept an exception) replays the eager
        operation (casts.py)."""

        def ask(err):
            found = io_callback(
                record,
                jax.ShapeDtypeStruct((), jnp.bool_),
                err,
                *values,
                ordered=True,
                sharding=self.sharding,
            )
            return jnp.logical_or(err, found)

        suspect = _ops.truth(suspect)
        if isinstance(suspect, bool):  # known while JAX traces
            return ask(err) if suspect else err
        return lax.cond(suspect, ask, lambda err: jnp.asarray(err, dtype=bool), err)

    def draw(self, fn, specs, err, *args):
        """A random draw made on the host (draws.py): its results, and the error flag after it.
        Nothing is drawn after an error, as eagerly (the test is made on the device: reading
        the flag on the host would cost more than the draw)."""

        def made(*args):
            return io_callback(fn, specs, *args, ordered=True, sharding=self.sharding)

        if isinstance(err, bool) and not err:
            *outs, failed = made(*args)
        else:
            skipped = tuple(jnp.asarray(v) for v in fn.nothing())
            *outs, failed = lax.cond(err, lambda *_: skipped, made, *args)
        return fn.arrive(outs), jnp.logical_or(err, failed)


_HELPERS = {
    "jnp": jnp,
    "lax": lax,
    "fix": _ops.fix,
    "truth": _ops.truth,
    "nonempty": _ops.nonempty,
    "carry": carry,
    "cond": cond,
    "while_loop": lax.while_loop,
    "all_of": all_of,
    "carry_list": carry_list,
    "append": append,
    "partial": functools.partial,  # gives a function written next to `run` what it reads
    **_listops.HELPERS,  # reads of run-time lists (reads.py)
    **_heapops.HELPERS,  # heapq and bisect on run-time lists (changes.py)
    **_keyedops.HELPERS,  # sets and dicts with run-time keys (keyed.py)
}


def resolve_device(device, graph):
    """The `jax.Device` that `device=` names (None: JAX's default placement)."""
    if device is None:
        return None
    if isinstance(device, str):
        if device == "auto":
            gpus = _devices("gpu")
            if not gpus or _small(graph):
                return jax.devices("cpu")[0]
            return gpus[0]
        found = _devices(device)
        if not found:
            raise ValueError(f"autoconv.function(device={device!r}): JAX sees no {device} device")
        return found[0]
    return device


def _devices(kind):
    try:
        return jax.devices(kind)
    except RuntimeError:
        return []


def _small(graph) -> bool:
    """Whether `device="auto"` runs `graph` on the CPU (`AUTO_CPU_ELEMENTS`)."""
    largest, wide = 0, 4
    nodes = list(graph.walk())
    for t in [t for node in nodes for t in node.outputs] + list(graph.inputs):
        if None in t.shape:
            return False  # (a size known only when it runs: as a large one)
        largest = max(largest, int(np.prod(t.shape, dtype=np.int64)))
        wide = max(wide, t.dtype.itemsize if t.dtype.kind in "fc" else 4)
    heavy = any(n.kind == "while" or n.op in _HEAVY or n.op == "@" for n in nodes)
    limit = AUTO_CPU_ELEMENTS[("heavy" if heavy else "elementwise", 8 if wide >= 8 else 4)]
    return largest < limit


def _placed(jit, device, *leaves):
    """`jit` of the leaves, those that are not JAX arrays placed on `device` first (JAX arrays
    are left where the caller put them, as `jax.jit` leaves them)."""
    host = [i for i, leaf in enumerate(leaves) if not isinstance(leaf, jax.Array)]
    if host:
        leaves = list(leaves)
        for i, placed in zip(host, jax.device_put([leaves[i] for i in host], device)):
            leaves[i] = placed
    return jit(*leaves)


class JaxProgram(ProgramFrame):
    """A graph lowered to JAX and compiled with `jax.jit`; `fn(*inputs)` gives the outputs as
    the NumPy backend does (`keep_on_device`: arrays stay JAX arrays)."""

    def __init__(self, graph, device=None, keep_on_device=False):
        super().__init__("jax graph", graph.name)
        self.graph = graph
        # Lists grown in loops with no bound: their buffer sizes, kept for later calls, and
        # how many times the program was compiled again to make them larger.
        self.capacities: list = []
        self.recompiles = 0
        self._lock = new_lock()
        self._saved: list = []
        self._compile()
        low = self.lowered
        self.device = resolve_device(device, graph)
        self.keep_on_device = keep_on_device
        self._stateful = bool(low.variables) or low.has_error
        # The Variables the graph assigns (a Variable it only reads keeps its value, which
        # another thread may be updating meanwhile), and their locks, in the order taken.
        assigned = {id(n.attrs["variable"]) for n in graph.walk() if n.kind == "assign"}
        self._stores = [i for i, v in enumerate(low.variables) if id(v) in assigned]
        self._locks = [v._lock for v in in_lock_order(low.variables[i] for i in self._stores)]
        self.fn = self._fast() or self._call

    def _compile(self):
        """Lowers the graph with the current list capacities and wraps it in `jax.jit`."""
        self.lowered = low = Lowered(self.graph, self.capacities or None)
        self.capacities = low.plan.capacities()
        self.host = host = HostCalls()
        names = dict(
            _HELPERS, callback=host.callback, check=host.check, confirm=host.confirm, draw=host.draw
        )
        # Constants stay NumPy values: JAX embeds them in the program and treats NumPy scalars
        # as strongly typed, as JAX scalars (making those would compile a conversion).
        self._run = self.make_run(low.lines, low.bound, low.line_nodes, names=names)
        self._jit = jax.jit(self._run)
        self._raises = [cb.slot for cb in low.callbacks if hasattr(cb, "slot")]
        self._traced = False

    def rewrite(self, exc):
        """Errors are raised with the user's line already (see `_call`)."""
        return exc

    def __call__(self, *leaves):
        return self.fn(*leaves)

    def _call(self, *leaves):
        plan = self.lowered.plan
        if plan.growable or plan.handles:
            # One attempt at a time: an overflow swaps the compiled program, and the strings
            # a run makes are in one table per program (string_handles.py).
            with self._lock:
                return self._call_once(leaves)
        return self._call_once(leaves)

    def _call_once(self, leaves):
        for lock in self._locks:
            lock.acquire()
        try:
            outs, err = self._run_and_store(leaves)
        finally:
            for lock in reversed(self._locks):
                lock.release()
        low = self.lowered
        low.plan.strings.raise_failed()
        # A check in a while loop's test keeps its error without the flag leaving the test.
        if low.has_error and (bool(err) or any(self._raises)):
            for slot in self._raises:
                if slot:
                    exc, node = slot[0]
                    if hasattr(exc, "add_note"):
                        exc.add_note(f"raised by the graph at {where(node.origin)}")
                    raise exc
        host = low.outputs
        if not self.keep_on_device:
            env = host.env(outs)
            env.update(low.objects)  # a generator the graph made is returned as it drew
            return _finish(self.graph.outputs, host, env)
        env = host.env(outs, keep=True)
        plan = low.plan
        kept = zip(host.device, outs)
        env.update({t.id: _keep(t, o) for t, o in kept if not plan.is_list(t)})
        env[TO_DEVICE] = self._to_device
        env.update(low.objects)
        with x64():  # float64 stays float64 on the device
            return _finish(self.graph.outputs, host, env)

    def _run_and_store(self, leaves):
        """Runs the program on the Variables' values and stores the new values of those it
        assigns: `(outputs, error flag)`."""
        variables = self.lowered.variables
        state = [v._value for v in variables]
        args = leaves
        if self.device is not None:
            args = jax.device_put(list(leaves), self.device)
            state = jax.device_put(state, self.device)
        if self.lowered.pending is not None:
            self.lowered.pending.items.clear()  # left by a call that JAX itself failed
        while True:
            outs, new_state, err = self._attempt(args, state)
            low = self.lowered
            if not low.plan.growable or not self._overflowed(outs):
                break
        if low.pending is not None:
            low.pending.flush()  # the prints of the attempt that counts, in order
        for i in self._stores:
            variables[i]._value = np.array(new_state[i])
        return outs, err

    def _to_device(self, array):
        return jax.device_put(array, self.device) if self.device is not None else jnp.asarray(array)

    def _attempt(self, args, state):
        """One run of the compiled program: `(outputs, new state, error flag)`."""
        low = self.lowered
        for slot in self._raises:
            slot.clear()
        low.plan.overflow.clear()
        low.plan.strings.reset()  # the strings this run makes (string_handles.py)
        # Host callbacks with state (prints waiting for the end of the call, draws) save it
        # before a run that may overflow, and go back to it before the run again.
        if low.plan.growable:
            self._saved = [(cb, cb.save()) for cb in low.callbacks if hasattr(cb, "save")]
        with x64():
            if not self._traced:
                result = self._first(args, state)
            else:
                result = self._jit(*args, *state)
            if low.has_effects:
                # (not effects_barrier: it hangs a program split over several devices)
                jax.block_until_ready(result)
        if self._stateful:
            return result
        return result, (), False

    def _overflowed(self, outs) -> bool:
        """Whether a list grown in an unbounded loop outgrew its buffer in the last run (its
        outputs, or a print or raise reading it). If so, the attempt's effects are undone and
        the program is compiled again with buffers large enough for the counts seen."""
        low = self.lowered
        plan = low.plan
        for t, value in zip(low.outputs.device, outs):
            if plan.is_list(t):
                plan.overflowed(t, value)
        if not plan.overflow:
            return False
        for cb, token in reversed(self._saved):
            cb.restore(token)
        for index, count in plan.overflow.items():
            self.capacities[index] = _lists.grown_capacity(self.capacities[index], count)
        self.recompiles += 1
        self._compile()
        return True

    def _fast(self):
        """A call without state, effects, devices or host values: jit, then convert each output
        with a converter chosen once (None when this graph needs the general `_call`). With
        `keep_on_device`, arrays stay the JAX arrays the program gives and only outputs that
        eager code gives as Python numbers are converted, as `_call` does (`_keep`)."""
        low = self.lowered
        if self._stateful or low.has_effects or low.plan.growable:
            return None
        out = self.graph.outputs
        device = low.outputs.device
        tensors = [out] if isinstance(out, Tensor) else list(out) if type(out) is tuple else None
        if tensors is None or len(tensors) != len(device):
            return None
        if any(t is not d for t, d in zip(tensors, device)):
            return None
        if self.keep_on_device:
            converters = [_kept_converter(t) for t in tensors]
        else:
            converters = [_converter(t) for t in tensors]
            if None in converters:
                return None
        jit, enter, on = self._jit, x64, X64_STATE
        if self.device is not None:
            # (inside the 64-bit scope: a float64 NumPy input stays float64 on the device)
            jit = functools.partial(_placed, self._jit, self.device)
        if isinstance(out, Tensor):
            (conv,) = converters
            if conv is None:  # a JAX array kept on the device: the program's own output

                def kept(*leaves):
                    try:
                        if on is not None and on.value:
                            (value,) = jit(*leaves)
                        else:
                            with enter():
                                (value,) = jit(*leaves)
                    except Exception as e:
                        failed = self._failed(e)  # NumPy's error as the cause, or JAX's
                        raise failed from failed.__cause__
                    return value

                return kept

            def one(*leaves):
                try:
                    if on is not None and on.value:
                        (value,) = jit(*leaves)
                    else:
                        with enter():
                            (value,) = jit(*leaves)
                except Exception as e:
                    failed = self._failed(e)  # NumPy's error as the cause, or JAX's
                    raise failed from failed.__cause__
                return conv(value)

            return one

        def many(*leaves):
            try:
                if on is not None and on.value:
                    values = jit(*leaves)
                else:
                    with enter():
                        values = jit(*leaves)
            except Exception as e:
                failed = self._failed(e)  # NumPy's error as the cause, or JAX's
                raise failed from failed.__cause__
            return tuple([v if c is None else c(v) for c, v in zip(converters, values)])

        return many

    def _first(self, args, state):
        self.host.place(self.device or _device_of(args))
        try:
            result = self._jit(*args, *state)
        except Exception as e:
            failed = self._failed(e)  # NumPy's error as the cause, or JAX's
            raise failed from failed.__cause__
        self._traced = True
        return result

    def _failed(self, e):
        """The error to raise for `e`, raised while JAX traced or ran the program: a
        LoweringError naming the user's line where JAX rejected an operation."""
        made = self._made_for(e)
        if made is not e and made.__cause__ is None:
            made.__cause__ = e
        return made

    def _made_for(self, e):
        if isinstance(e, LoweringError):
            return e
        node = self.node_of(e)
        if node is None:
            return e
        if any(None in t.shape for t in node.outputs):
            numpy_error = self._numpy_error(node, e)
            if numpy_error is not None:
                return numpy_error
            return lowering_error(
                node,
                "the size of its result depends on values computed when the graph runs, and "
                "XLA compiles arrays whose sizes are known in advance (JAX said "
                f"{type(e).__name__}). Take sizes from shapes or Python ints; for a boolean "
                "mask, `np.where(mask, x, 0)` or a reduction with `where=` keeps the size",
            )
        return lowering_error(node, f"JAX rejected it: {type(e).__name__}: {e}")

    def _numpy_error(self, node, e):
        """NumPy's error for `node` on the shapes and dtypes its operands have in this call
        (JAX compiles the program for each call's shapes, so it knows them): what the NumPy
        backend raises, `a + b` of sizes 2 and 3 NumPy's broadcast `ValueError`. None when
        NumPy accepts them, or they are not known here (an operand written inline)."""
        frame = None
        tb = e.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                frame = tb.tb_frame
            tb = tb.tb_next
        if frame is None:
            return None
        if node.kind == "binop":
            fn = BINARY_OPERATORS.get(node.fn)
        elif node.kind == "call" and callable(node.fn):
            fn = node.fn
        else:
            return None
        known = frame.f_locals

        def stand_in(x):
            # An array of the operand's shape and dtype that takes no memory (zero strides).
            value = known.get(f"v{x.id}")
            if value is None or not hasattr(value, "shape"):
                raise LookupError(x.id)
            return np.broadcast_to(np.zeros((), np.dtype(value.dtype)), value.shape)

        try:
            args = [stand_in(a) if isinstance(a, Tensor) else a for a in node.args]
            kwargs = {
                k: stand_in(v) if isinstance(v, Tensor) else v for k, v in node.kwargs.items()
            }
        except LookupError:
            return None
        try:
            with np.errstate(all="ignore"):
                fn(*args, **kwargs)
        except Exception as numpy_error:
            text = source_text(node.origin) if node.origin else ""
            return execution_error(
                numpy_error,
                f"{where(node.origin)}: {node.op} failed while the graph ran: "
                f"{type(numpy_error).__name__}: {numpy_error}" + (f"\n    {text}" if text else ""),
            )
        return None


def _device_of(leaves):
    """The device a call on `leaves` runs on, or the first of a sharded input's devices."""
    for leaf in leaves:
        if isinstance(leaf, jax.Array) and getattr(leaf, "committed", False):
            return min(leaf.devices(), key=lambda d: d.id)
    return jax.devices()[0]


def _converter(t):
    """A function turning `t`'s JAX value into the value eager NumPy gives, or None."""
    from autoconv.graph.eager_types import eager_type

    kind = eager_type(t)
    if kind is np.ndarray:
        return np.array
    if kind in (bool, int, float, complex):
        return lambda v, _k=kind: _k(np.asarray(v))
    if kind is not None and issubclass(kind, np.generic):
        return lambda v: np.asarray(v)[()]
    return None


def _kept_converter(t):
    """For `keep_on_device`: a function making `t`'s Python number (bool, int, float, complex)
    as eager NumPy gives it, or None where the JAX array itself is the result (`_keep`)."""
    from autoconv.graph.eager_types import eager_type

    kind = eager_type(t)
    if kind in (bool, int, float, complex):
        return lambda v, _k=kind: _k(np.asarray(v))
    return None


def _keep(t, value):
    from autoconv.backends.jax.host import to_eager
    from autoconv.graph.eager_types import eager_type

    if isinstance(value, list) or eager_type(t) in (bool, int, float, complex):
        return to_eager(t, value)
    return value


def _finish(value, host, env):
    """The output structure with each Tensor replaced by its value (host nodes evaluated)."""
    if isinstance(value, Tensor):
        return host.value(value, env)
    t = type(value)
    if t is tuple:
        return tuple(_finish(x, host, env) for x in value)
    if t is list:
        items = [_finish(x, host, env) for x in value[:-1]] if value else []
        if value and type(value[-1]).__name__ == "ListAccum":
            items.extend(_finish(value[-1].tensor, host, env))
        elif value:
            items.append(_finish(value[-1], host, env))
        return items
    if t is dict:
        return {k: _finish(x, host, env) for k, x in value.items()}
    if isinstance(value, tuple) and hasattr(t, "_fields"):
        return t(*(_finish(x, host, env) for x in value))
    if t is np.ndarray:
        return value.copy()
    if t is Mixed:
        return mixed_output(
            _finish(value.value, host, env), _finish(value.tag, host, env), value.kinds
        )
    if t is Optional:
        return optional_output(
            _finish(value.flag, host, env),
            _finish(value.value, host, env),
            value.missing,
            value.name,
        )
    return value
