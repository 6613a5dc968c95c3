"""The operators of the runtime's tracer protocol (`autoconv.runtime.staging`) that need little
on JAX values: JAX traces build no graph of ours, so there is nothing to mark; item assignment
rebinds the name to an updated array (`x.at[key].set(v)`); `max` and `min` are staged choices
where a comparison is traced."""

from __future__ import annotations

import ast
import builtins as _py
import dis
import linecache
import operator

import jax
import jax.numpy as jnp
import numpy as np

from autoconv.conversion.library import generated_codes
from autoconv.graph.helpers import decimal_round
from autoconv.locations import user_frame
from autoconv.runtime import staging
from autoconv.runtime.items import _OPS
from autoconv.trace.jax import state as st
from autoconv.trace.jax.cond import if_exp


def mark():
    """Where the graph being built ends: JAX traces build none of ours."""
    return None


def setitem(target, key, value, name=None):
    """`target[key] = value` in converted code (`target = ac.setitem(target, key, value)`): on a
    JAX array, which cannot change, the rebinding gets `target.at[key].set(value)` (the value
    cast to `target`'s dtype, as NumPy stores it). A boolean mask JAX knows only at run time
    takes a single value (`jnp.where`). Another name that refers to the same array would see
    the change eagerly and cannot here: an error naming both. `name`: the user's name of
    `target` where the statement writes another (a view of it: runtime.items.setitem_view).
    A NumPy array given a traced item or key, or written in a staged branch or loop body
    (which JAX traces for every path), gets a JAX array with the item set, as a JAX array
    does: it cannot hold a tracer, and a write in place would happen on every path."""
    numpy = type(target) is np.ndarray
    if not numpy and not isinstance(target, (jax.Array, jax.core.Tracer)):
        target[key] = value  # a list or dict holds tracers as they are
        return target
    frame = user_frame(st._SKIP)
    line = _source_line(frame)
    name = name or _target_name(line) or "the array"
    other = _other_name(target, frame, name)
    if other is not None:
        st.fail(
            st.user_origin(),
            f"`{line}` writes into `{name}` in place, and `{other}` refers to the same array: "
            f"eager NumPy would change `{other}` too, but a JAX array cannot change (`{name}` "
            f"gets a new one). Copy it first (`{name} = {name}.copy()`) or write "
            f"`{name} = {name}.at[...].set(...)` and use `{other}` as it was.",
        )
    if numpy:
        target = jnp.asarray(target)
    if type(value) is Masked:  # `x[mask] op= v`: the operator on every item, kept where chosen
        return jnp.where(_spread(value.mask, target), value.full.astype(target.dtype), target)
    value = jnp.asarray(value)
    if value.dtype != target.dtype:
        value = value.astype(target.dtype)  # NumPy casts what it stores (`int[i] = 2.7` is 2)
    if _is_mask(key, target) and value.ndim == 0:
        # A mask JAX may know only at run time: `x.at[mask]` would need its count of items.
        return jnp.where(_spread(key, target), value, target)
    try:
        return target.at[key].set(value)
    except jax.errors.NonConcreteBooleanIndexError:
        st.fail(
            st.user_origin(),
            f"`{line}` stores an array through a boolean mask that JAX knows only when the "
            "function runs, so the number of items it selects is unknown while tracing. Store "
            f"a single value (`{name}[mask] = 0.0`), or write "
            f"`{name} = jnp.where(mask, new_values, {name})`.",
        )


def _spread(mask, target):
    """`mask` over `target`'s leading axes, shaped to broadcast over all of them."""
    return jnp.reshape(mask, mask.shape + (1,) * (target.ndim - mask.ndim))


class Masked:
    """The items of `target` that a boolean `mask` selects, in `target[mask] op= value` under a
    JAX trace (`ac.item`): JAX cannot make them when the mask is traced, so the operator runs
    on every item (`full`) and `setitem` keeps the result where the mask is true. The value
    must then be a single number: an array of values for the selected items has a size known
    only at run time."""

    __slots__ = ("full", "mask")

    def __init__(self, full, mask):
        self.full, self.mask = full, mask

    def _apply(self, op, value, swap=False):
        value = jnp.asarray(value)
        if value.ndim != 0:
            st.fail(
                st.user_origin(),
                "an update through a boolean mask that JAX knows only when the function runs "
                "takes a single value: an array of values for the selected items has a size "
                "unknown while tracing. Write `x = jnp.where(mask, new_values, x)`.",
            )
        return Masked(op(value, self.full) if swap else op(self.full, value), self.mask)


def _masked_operator(op):
    return lambda self, value: self._apply(op, value)


for _name, _op in {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "truediv": operator.truediv,
    "floordiv": operator.floordiv,
    "mod": operator.mod,
    "pow": operator.pow,
    "and": operator.and_,
    "or": operator.or_,
    "xor": operator.xor,
    "lshift": operator.lshift,
    "rshift": operator.rshift,
}.items():
    setattr(Masked, f"__{_name}__", _masked_operator(_op))


staging._JAX_TYPES.add(Masked)  # `ac.item_op` hands it to `item_op` below


def item_op(op: str, item, value):
    """`item op value` for `x[key] op value` on JAX values (`ac.item_op`): the operator's result,
    which `setitem` stores. Where eager NumPy changes an array of items in place (a slice, a
    row, the items a mask selects; not a single item, a NumPy scalar there), it refuses a
    result its dtype cannot hold (`int_items *= 2.5`): the same error here."""
    inplace, plain = _OPS[op]
    items = item.full if type(item) is Masked else item
    if op != "@=" and (type(item) is Masked or getattr(items, "ndim", 0) > 0):
        probe = np.zeros(1, np.dtype(items.dtype))
        if not isinstance(value, (bool, int, float, complex)):
            value_dtype = getattr(value, "dtype", None)
            if value_dtype is None:
                value_dtype = jnp.asarray(value).dtype
            probe_value = np.zeros((), np.dtype(value_dtype))
        else:
            probe_value = value
        with np.errstate(all="ignore"):
            inplace(probe, probe_value)  # raises NumPy's casting error, as eagerly
    return plain(item, value)


def masked_item(target, key):
    """`target[key]` for `target[key] op= value` (`ac.item`): a `Masked` stand-in when `key` is
    a boolean mask over `target`, else the items."""
    if _is_mask(key, target):
        return Masked(target, key)
    return target[key]


def sequence_item(target, key, what: str = "reads"):
    """`target[key]` of a Python list or tuple, `key` a JAX value: an error naming the list
    (Python needs the index while tracing; JAX's own error says `__index__` of a tracer)."""
    frame = user_frame(st._SKIP)
    name = _name_of(target, frame) or st._indexed_name(_source_line(frame))
    kind = type(target).__name__
    shown = f"`{name}` (a Python {kind})" if name else f"a Python {kind}"
    st.fail(
        st.user_origin(),
        f"this line {what} an item of {shown} at an index JAX knows only when the program "
        f"runs, and Python needs the index of a {kind} while JAX traces. "
        f"{st.sequence_index_advice(name)}.",
    )


def _name_of(value, frame):
    """The name that holds `value` in the user's `frame`, among those its line indexes."""
    if frame is None:
        return None
    for name in st.indexed_names(_source_line(frame)):
        if frame.f_locals.get(name, frame.f_globals.get(name)) is value:
            return name
    return None


def np_round(a, decimals=0, out=None):
    """`np.round` / `np.around` as converted code calls them under JAX: of a tracer of floats,
    NumPy's own rounding (`graph.helpers.decimal_round`; jax.numpy's differs in the last
    bit); of anything else, NumPy's function."""
    if not isinstance(a, jax.core.Tracer) or out is not None:
        return np.round(a, decimals, out)
    return decimal_round(a, decimals, jnp, jax.lax.optimization_barrier)


def math_call(func):
    """`math.sqrt` and the like as converted code calls them under JAX: Python's function of
    Python numbers; of a JAX tracer, an error naming the call (Python's `float()` of a tracer
    fails; `jnp.sqrt` would give nan where `math.sqrt` raises `math domain error`)."""

    def call(*args):
        traced = next((a for a in args if isinstance(a, jax.core.Tracer)), None)
        if traced is None:
            return func(*args)
        st.fail(
            st.user_origin(),
            f"`math.{func.__name__}()` of a traced {st.spec(traced)} needs a Python number "
            "while JAX traces (eagerly Python's float, and Python's errors such as `math "
            f"domain error`). Use `jnp.{func.__name__}` (`np.{func.__name__}` in NumPy code), "
            "which gives nan or inf where `math` raises, or compute it outside `jax.jit`.",
        )

    call.__name__ = func.__name__
    return call


def _source_line(frame) -> str:
    if frame is None:
        return ""
    return linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()


def _target_name(line: str):
    """`x` in `x[i] = v`, `x[i] += v` (the user's line), else None."""
    try:
        (stmt,) = ast.parse(line).body
    except (SyntaxError, ValueError):
        return None
    target = getattr(stmt, "target", None) or (getattr(stmt, "targets", None) or [None])[0]
    if isinstance(target, (ast.Tuple, ast.List)) and target.elts:
        target = target.elts[0]  # a swap: `x[i], x[j] = x[j], x[i]`
    while isinstance(target, ast.Subscript):
        target = target.value
    return target.id if isinstance(target, ast.Name) else None


def _is_mask(key, target) -> bool:
    """Whether `key` is a boolean array (a mask over `target`'s leading axes)."""
    return (
        isinstance(key, (jax.Array, jax.core.Tracer))
        and key.dtype == bool
        and 0 < key.ndim <= target.ndim
    )


def _other_name(target, frame, name):
    """A variable of a user function on the stack, other than `name` in the innermost one,
    that refers to `target` (eagerly it would see the item change), or an item of a list,
    tuple or dict such a variable holds; None when there is none."""
    own = frame.f_code if frame is not None else None
    # A staged branch or loop body is a nested function whose variables are cells of the
    # converted function's: there `name` is the same variable.
    shared = own is not None and name in own.co_freevars
    inner = own
    # Names a caller takes the new array into (`a = ac.written_back(a)`), and their cells in the
    # functions nested in it (a conditional expression's lambda calling the writer).
    given_back: set = set()
    outer = frame
    while outer is not None:
        if not outer.f_code.co_filename.startswith(st._SKIP):
            code = outer.f_code
            given_back |= _taken_back(outer) & (set(code.co_cellvars) | set(code.co_freevars))
        outer = outer.f_back
    while frame is not None:
        code = frame.f_code
        if code.co_filename.startswith(st._SKIP):
            frame = frame.f_back
            continue
        if _is_guard(code, inner):
            frame = frame.f_back  # `convert(f)`'s guard: its arguments are the function's
            continue
        nest = code is own or shared and (name in code.co_cellvars or name in code.co_freevars)
        rebound = () if nest else _rebound(frame)
        cells = set(code.co_cellvars) | set(code.co_freevars)
        taken = set() if nest else _taken_back(frame)
        for k, v in frame.f_locals.items():
            if k == name and nest:
                continue  # the name itself, or its cell in the functions the body is in
            if k in rebound or k in taken or k in given_back and k in cells:
                continue  # a caller's `x = step(x)` or `return step(x)`: its old `x` is gone
            if v is target:
                return k if code is own or nest else f"{k}` in `{code.co_name}"
            if type(v) in (list, tuple) and any(item is target for item in v):
                return f"{k}[...]"
            if type(v) is dict and any(item is target for item in v.values()):
                return f"{k}[...]"
        inner = code
        frame = frame.f_back
    return None


def _rebound(frame):
    """The names of a caller's frame that are gone when the call it is running returns, so
    that eager NumPy's change of their array would not be seen: those the statement rebinds
    (`x = step(x)`), or for a `return` all of them; minus those the statement reads other than
    as a call's argument (`return step(x), x`). () when the line is not one such statement."""
    taken = _taken_back(frame)
    try:
        (stmt,) = ast.parse(_source_line(frame)).body
    except (SyntaxError, ValueError):
        return taken
    if isinstance(stmt, ast.Return):
        gone = set(frame.f_locals.keys())
    elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        targets = getattr(stmt, "targets", None) or [stmt.target]
        gone = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    else:
        return taken
    if stmt.value is None:
        return gone | taken
    arguments = {
        id(a)
        for call in ast.walk(stmt.value)
        if isinstance(call, ast.Call)
        for a in [*call.args, *(k.value for k in call.keywords)]
        if isinstance(a, ast.Name)
    }
    read = {
        n.id for n in ast.walk(stmt.value) if isinstance(n, ast.Name) and id(n) not in arguments
    }
    return (gone - read) | taken


def _taken_back(frame) -> set:
    """The names converted code gives back the arrays the running call writes into in place
    (`a = ac.written_back(a)` right after `sift(a, 0, n)`, on the same line:
    converters/written_params.py)."""
    taken, pending = set(), None
    line = None
    for ins in dis.get_instructions(frame.f_code):
        if ins.offset <= frame.f_lasti:
            line = ins.starts_line or line
            continue
        if ins.starts_line is not None and ins.starts_line != line:
            break
        if ins.argval == "written_back" and ins.opname in ("LOAD_METHOD", "LOAD_ATTR"):
            pending = ""
        elif pending == "" and ins.opname in ("LOAD_FAST", "LOAD_DEREF", "LOAD_NAME"):
            pending = ins.argval
        elif pending and ins.opname.startswith("STORE_"):
            if ins.argval == pending:
                taken.add(pending)
            pending = None
    return taken


def _is_guard(code, inner) -> bool:
    """Whether `code` is the guard of `convert(f)` (generated, in the user's file) that called
    the function whose code is `inner`."""
    return (
        code is not inner
        and id(code) in generated_codes
        and code.co_name == inner.co_name
        and code.co_filename == inner.co_filename
    )


def extreme(which, args):
    """`max(*args)` ("max") or `min(*args)` ("min") as Python computes it: the first item,
    replaced by each later one that is greater (smaller). A traced comparison makes the choice
    a staged conditional value (the items must then agree in dtype and shape)."""
    items = list(args[0]) if _py.len(args) == 1 else list(args)
    if not items:
        raise ValueError(f"{which}() iterable argument is empty")
    result = items[0]
    for item in items[1:]:
        better = item > result if which == "max" else item < result
        if isinstance(better, jax.core.Tracer):
            result = if_exp(better, lambda item=item: item, lambda r=result: r)
        elif better:
            result = item
    return result
