"""The runtime backend: `if`, `while`, `for`, conditional expressions and logical operators on
Tensors, staged into `cond` and `while` nodes.

State travels through the converter's closures: `get_state()` returns the values of the
statement's variables, `set_state(values)` assigns them. Each branch or loop body is traced
into its own `Block`; afterwards the values of each variable are compared leaf by leaf
(containers keep their structure):

* unchanged leaves stay as they are (Python values included);
* array leaves become outputs of the node; a Python number next to an array takes the array's
  dtype (as NumPy's weak-scalar rule would), differing sizes become unknown (None);
* anything else (a variable defined in one branch only, a dtype or structure that differs) is
  an error naming the variable, the branches or iterations, and the user's file and line.

Loops are traced until their variables settle: a Python value the body changes becomes a loop
variable, a size that changes becomes unknown. Python lists that a loop body appends to become
run-time lists (`ListAccum`), which `np.stack` / `np.concatenate` accept after the loop.
"""

from __future__ import annotations

import os

import numpy as np

from autoconv.errors import AutoconvError
from autoconv.graph import graph as _g
from autoconv.graph import mutation, shapes
from autoconv.graph.errors import StagingError, raised_by_autoconv, where
from autoconv.graph.optionals import (
    Optional,
    Raises,
    index_value,
    is_none,
    lift,
    optional_for,
    raise_node,
    user_raise,
    zeros_like,
)
from autoconv.graph.origin import source_text, user_origin
from autoconv.graph.path_types import kinds_of, tagged
from autoconv.graph.recording import emit
from autoconv.graph.recording import one as _one
from autoconv.graph.tensor import PY_TYPES, Tensor, format_spec
from autoconv.graph.user_code import target_name
from autoconv.runtime import staging as rt
from autoconv.runtime.control_flow import ElifChain
from autoconv.runtime.staged_locals import StagedLocals
from autoconv.trace.core import messages
from autoconv.trace.core.join import holds, join
from autoconv.trace.core.values import Undefined, unbound

_PY_NUMBERS = (bool, int, float, complex)
_AUTOCONV_DIR = __file__.rsplit("graph", 1)[0]


# --- values that cannot be used -------------------------------------------------------------


class ListAccum:
    """Stands, inside a Python list, for the items that a staged loop appended to it.

    At run time the items are collected in a list; `np.stack(lst)` and `np.concatenate(lst)`
    expand it. Other uses raise an error that says so.
    """

    __slots__ = ("tensor",)

    def __init__(self, tensor):
        self.tensor = tensor

    def __repr__(self):
        spec = format_spec(self.tensor.shape[1:], self.tensor.dtype)
        return f"<items appended in a staged loop: {spec} each>"

    def _fail(self, *args, **kwargs):
        raise StagingError(
            f"{where(user_origin(2))}: this list was appended to inside a staged loop, so its "
            "length is only known when the graph runs. Use np.stack(lst) or "
            "np.concatenate(lst) on it after the loop; indexing it, len() and other list uses "
            "are not available."
        )

    __bool__ = __iter__ = __len__ = __getitem__ = __array__ = __float__ = __int__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = _fail
    __rtruediv__ = __lt__ = __le__ = __gt__ = __ge__ = __index__ = _fail

    def __array_ufunc__(self, *args, **kwargs):
        self._fail()

    def __array_function__(self, func, types, args, kwargs):
        if func in (np.stack, np.concatenate, np.vstack, np.hstack):
            return _stack_lists(func, args, kwargs)
        self._fail()


# A ListAccum holds a Tensor: graph.tensors_in and map_tensors look inside it.
_g.HOLDERS[ListAccum] = (lambda v: (v.tensor,), lambda v, new: ListAccum(new[0]))


def _expand(arrays):
    out = []
    for a in arrays:
        if type(a) is list:
            out.extend(a)
        else:
            out.append(a)
    return out


def _run_stack(func, arrays, *args, **kwargs):
    return func(_expand(arrays), *args, **kwargs)


def _stack_lists(func, args, kwargs):
    arrays, *rest = args
    p = dict(kwargs)
    axis = rest[0] if rest else p.get("axis", 0)
    template = [a.tensor if isinstance(a, ListAccum) else a for a in arrays]
    elems = [a.tensor.shape[1:] if isinstance(a, ListAccum) else shapes.shape_of(a) for a in arrays]
    dtype = np.result_type(
        *[a.tensor.dtype if isinstance(a, ListAccum) else shapes.result_dtype(a) for a in arrays]
    )
    if p.get("dtype") is not None:
        dtype = np.dtype(p["dtype"])
    ndim = len(elems[0])
    if any(len(e) != ndim for e in elems):
        shapes.fail(
            f"numpy.{func.__name__}: all the input arrays must have the same number of dimensions"
        )
    merged = list(elems[0])
    for e in elems[1:]:
        merged = [
            shapes.unify(a, b, f"numpy.{func.__name__}: item sizes differ:")
            for a, b in zip(merged, e)
        ]
    # The new axis holds one entry per item: known unless a staged loop appended some.
    count = None if any(isinstance(a, ListAccum) for a in arrays) else len(arrays)
    if func in _ARRAY_MAKERS:
        shape = [count, *merged]  # np.array(lst): the items along a new first axis
    elif func is np.stack:
        axis = shapes.norm_axis(axis, ndim + 1)
        shape = merged[:axis] + [count] + merged[axis:]
    elif func is np.concatenate or func is np.vstack:
        if func is np.vstack and ndim == 1:
            shape = [None, merged[0]]
        else:
            axis = shapes.norm_axis(axis if func is np.concatenate else 0, ndim)
            shape = merged[:axis] + [None] + merged[axis + 1 :]
    else:
        axis = 0 if ndim == 1 else 1
        shape = merged[:axis] + [None] + merged[axis + 1 :]
    return _one(
        emit(
            "helper",
            func.__name__,
            _bind_stack(func),
            (template, *rest),
            kwargs,
            [(tuple(shape), dtype)],
        )
    )


_STACKERS: dict = {}
_ARRAY_MAKERS = (np.array, np.asarray, np.asanyarray, np.ascontiguousarray)


def stack_items(func, items, dtype=None):
    """`func(items, dtype=dtype)` (np.array and friends) for a list holding Tensors or the items
    a staged loop appended: one array when the graph runs."""
    return _stack_lists(func, (items,), {} if dtype is None else {"dtype": dtype})


def _bind_stack(func):
    made = _STACKERS.get(func)
    if made is None:

        def made(arrays, *args, **kwargs):
            return func(_expand(arrays), *args, **kwargs)

        made.__name__ = f"{func.__name__}_lists"
        made.returns_new = True  # made from a list: a new array (passes.analysis.returns_new)
        _STACKERS[func] = made
    return made


def check_output(value, path="output"):
    """Raises if a function's outputs hold something a graph cannot return."""
    if isinstance(value, Undefined):
        value.fail()
    if rt.is_undefined(value):
        raise StagingError(
            f"the returned value `{value.name}` is not defined on every path through the function"
        )
    if isinstance(value, ListAccum):
        raise StagingError(
            "the items that a staged loop appended to a list are known only when the graph "
            "runs, and this result holds them as a Python value (an item taken with `lst[i]`, "
            "the list inside another value, or items appended after the loop). Return "
            "np.stack(lst) (np.stack(lst)[i] for one item), or the list itself as the loop "
            "left it."
        )
    if type(value) is list and value and isinstance(value[-1], ListAccum):
        value = value[:-1]  # the list is built when the graph runs (see executor.output)
    if isinstance(value, Optional):
        check_output(value.value, path)
    elif isinstance(value, (tuple, list)):
        for v in value:
            check_output(v, path)
    elif isinstance(value, dict):
        for v in value.values():
            check_output(v, path)
    elif isinstance(getattr(value, "__dict__", None), dict) and not isinstance(value, type):
        held = [k for k, v in vars(value).items() if _g.tensors_in([v]) or _symbolic(v)]
        if held:
            raise StagingError(
                f"the function returns a {type(value).__name__} object whose attribute "
                f"`{held[0]}` holds a value computed by the graph; a graph returns arrays, "
                "numbers and tuples, lists, dicts or namedtuples of them. Return the values "
                "(e.g. `return o.v`, or a namedtuple) instead."
            )


def _symbolic(v) -> bool:
    return isinstance(v, (Optional, ListAccum, Undefined))


# --- leaves ---------------------------------------------------------------------------------


def _struct(value, leaves):
    t = type(value)
    if t is tuple or t is list:
        return (t, tuple(_struct(v, leaves) for v in value))
    if t is dict:
        return ("D", tuple((k, _struct(v, leaves)) for k, v in value.items()))
    if isinstance(value, tuple) and hasattr(t, "_fields"):
        return (t, tuple(_struct(v, leaves) for v in value))
    if t is Optional:
        flag = _struct(value.flag, leaves)
        return ("O", (value.missing, value.name, flag, _struct(value.value, leaves)))
    leaves.append(value)
    return "*"


def _rebuild(struct, leaves):
    it = iter(leaves)

    def build(s):
        if s == "*":
            return next(it)
        kind, items = s
        if kind == "D":
            return {k: build(v) for k, v in items}
        if kind == "O":
            missing, name, flag, value = items
            return Optional(build(flag), build(value), missing, name)
        if kind is tuple or kind is list:
            return kind(build(v) for v in items)
        return kind(*(build(v) for v in items))

    return build(struct)


def _numeric(v) -> bool:
    return isinstance(v, (Tensor, np.ndarray, np.generic)) or type(v) in _PY_NUMBERS


def _weak(v) -> bool:
    """A Python number, or a Tensor whose run-time value is one."""
    return type(v) in _PY_NUMBERS or (isinstance(v, Tensor) and v.weak)


def _spec(v) -> tuple:
    """`(shape, dtype, weak)` of a numeric value."""
    return (tuple(shapes.shape_of(v)), shapes.result_dtype(v), _weak(v))


def _join(a, b, fail, values=None) -> tuple:
    """The spec covering a value of spec `a` on one path and `b` on another (core.join: NumPy's
    weak-scalar rule, sizes that differ become None). `values`: the two values, whose Python
    number must be held exactly by the dtype it joins."""
    joined = join(a, b, fail)
    if values is not None and a[2] != b[2] and not _holds(joined[1], values[0 if a[2] else 1]):
        fail("dtype")
    return joined


def _holds(dtype, number) -> bool:
    """Whether `dtype` holds the Python number `number` exactly (a Python number known only at
    run time: whether every such number fits, as for the 64-bit dtypes)."""
    if isinstance(number, Tensor):
        return dtype.itemsize >= 8 or dtype.kind in "biu"  # an int that does not fit raises
    return holds(dtype, number)


def _spec_text(v) -> str:
    if isinstance(v, Tensor):
        return format_spec(v.shape, v.dtype, v.weak)
    if isinstance(v, (np.ndarray, np.generic)):
        return format_spec(np.shape(v), v.dtype)
    if unbound(v):
        return "undefined"
    return f"{type(v).__name__} {v!r}"


def _same_python(a, b) -> bool:
    """Whether two Python values are equal, decided without recording anything in the graph:
    Tensors are never "the same" unless identical, and a user `__eq__` that would stage an
    operation (an object holding Tensors) counts as "not the same"."""
    if type(a) is not type(b) or isinstance(a, Tensor) or _numeric(a) and not _weak(a):
        return False
    try:
        with _g.no_recording():
            return bool(a == b)
    except RecursionError:
        raise  # the trace reports it (autoconv.graph.recursion)
    except Exception:
        return False


def _const(value, dtype, weak=False):
    dtype = np.dtype(dtype)
    if weak:
        value = PY_TYPES[dtype.kind](value)
        spec = ((), dtype, True)
        owned = True
    else:
        array = np.asarray(value, dtype=dtype)
        owned = array is not value  # made here, not an array the caller may still change
        # A 0-d array stays one (`np.zeros(())` in a branch): eager code returns an array.
        value = array[()] if array.ndim == 0 and not isinstance(value, np.ndarray) else array
        spec = (array.shape, array.dtype)
    node = _g.Node("const", "const", attrs={"value": value, "owned": owned})
    _g.add_node(node, [spec])
    return node.outputs[0]


def _cast(value, to):
    weak = to in PY_TYPES.values()
    return emit("helper", to.__name__, to, (value,), {}, [((), np.dtype(to), weak)])[0]


def _as_tensor(value, spec):
    """`value` as a Tensor of `spec` in the current block (constants and casts as needed)."""
    _, dtype, weak = spec
    if not isinstance(value, Tensor):
        return _const(value, dtype, weak)
    if weak:
        if value.weak and value.dtype == dtype:
            return value
        return _cast(value, PY_TYPES[dtype.kind])
    if value.weak:
        return _cast(value, dtype.type)
    if value.dtype != dtype:
        return value.astype(dtype)
    return value


def _param(graph, spec, name):
    node = _g.Node("param", "param", attrs={"name": name})
    t = Tensor(graph, node, 0, *spec)
    node.outputs.append(t)
    return t


def _can_change(cond_block, params) -> bool:
    """Whether a loop test (the output of `cond_block`) can change between iterations: it
    depends on a loop variable, or its block reads state (a Variable) or has an effect."""
    test = cond_block.outputs[0]
    if not isinstance(test, Tensor):
        return not test  # a Python constant: False ends at once, True never ends
    wanted = {p.id for p in params}
    made = {id(n) for n in cond_block.nodes}
    todo, seen = [test], set()
    while todo:
        t = todo.pop()
        if t.id in wanted:
            return True
        if t.id in seen or t.node is None or id(t.node) not in made:
            continue
        seen.add(t.id)
        node = t.node
        if node.effect or node.kind == "read" or node.blocks:
            return True  # conservative: state, effects, nested control flow
        todo.extend(node.inputs)
    return False


def _tag_for(v, kinds):
    """The index in `kinds` of the kind `v` has on its path: an int, or for a Tensor whose
    kind depends on the path a Tensor (re-indexed by a small table when its kinds are listed
    in another order)."""
    own = kinds_of(v)
    mapping = [kinds.index(k) for k in own]
    if len(own) == 1:
        return mapping[0]
    tag = v.py_kinds[0]
    if not isinstance(tag, Tensor):
        return mapping[tag]
    if mapping == list(range(len(own))):
        return tag
    return _cast(_const(np.asarray(mapping), np.int64)[tag], int)


def _run_time_len(t):
    return emit("helper", "len", len, (t,), {}, [((), np.dtype(np.int64), True)])[0]


def _inherit_eager_type(param, init) -> None:
    """A loop variable's run-time type (NumPy scalar or 0-d array) is its initial value's, as
    the body keeps it (eager_types cannot replay a loop parameter)."""
    from autoconv.graph.eager_types import eager_type

    if param.weak or param.shape:
        return
    if isinstance(init, Tensor):
        kind = eager_type(init) if not init.weak else param.dtype.type
    elif isinstance(init, (np.ndarray, np.generic)):
        kind = type(init)
    elif type(init) in _PY_NUMBERS:
        # A Python number that meets NumPy values in the body takes their kind (NumPy's
        # weak-scalar rule): a NumPy scalar, which `+=` rebinds rather than changes in place.
        kind = param.dtype.type
    else:
        return
    if kind is not None:
        param._etype = kind


def _cond_tensor(cond, origin):
    if type(cond) is list:
        return BACKEND.len(cond) > 0  # a list grown in a staged loop: true when not empty
    if isinstance(cond, Optional):
        value = cond.value
        if cond.missing is None and isinstance(value, Tensor):
            # `if x:` where x may be None: false for None, else the value's truth (the
            # stand-in on the None path is a zero, so it is false there as well).
            cond = np.logical_and(cond.flag, _cond_tensor(value, origin))
        else:
            cond = cond.unwrap()
    if isinstance(cond, Tensor):
        n = shapes.size(cond.shape)
        if n is not None and n != 1:
            raise StagingError(
                f"{where(origin)}: the condition is an array of shape {shapes.fmt(cond.shape)}; "
                "its truth value is ambiguous. Use np.any(...) or np.all(...)."
            )
    return cond


def _has_effect(block) -> bool:
    return any(n.effect for n in block.nodes)


def _trace_branch(fn) -> bool:
    """Traces `fn` into the current block; True when every path through it raises (the user's
    `raise` or failed `assert` is then recorded to fire at run time)."""
    if fn is None:
        return False
    try:
        fn()
    except Raises:
        return True
    except (AutoconvError, RecursionError, _NeedsAccumulator):
        raise  # a recursion is reported at the trace boundary (graph.recursion); a loop retraces
    except Exception as e:
        stored = stored_tensor_error(e)
        if stored is not None:
            raise stored from None
        origin = user_raise(e)
        if origin is None:
            raise _traced_branch_failed(e) from e
        raise_node(e, origin)
        return True
    return False


def exception_origin(e):
    """`(file, line)` of the innermost frame of user code that `e` passed through (not
    autoconv's, the standard library's or NumPy's), or None."""
    import sysconfig

    skip = (_AUTOCONV_DIR, sysconfig.get_paths()["stdlib"], os.path.dirname(np.__file__))
    tb = e.__traceback__
    origin = None
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if not filename.startswith(skip) and not filename.startswith("<"):
            origin = (filename, tb.tb_lineno)
        tb = tb.tb_next
    return origin


def raises_when_run(e, graph) -> bool:
    """At the end of a trace that `e` stopped: records that the graph raises `e` when it runs
    there, where eager code would first do what the graph already holds (prints, Variable
    updates, checks that raise the user's exceptions on some inputs); True when recorded.
    `Raises` (every path of a staged statement raises) is recorded already."""
    if isinstance(e, Raises):
        return True
    stored = stored_tensor_error(e)
    if stored is not None:
        raise stored from None
    if isinstance(e, _NeedsAccumulator):  # no staged loop of this trace could carry the list
        raise unsettled_appends(user_origin(1), "function") from None
    if isinstance(e, (AutoconvError, RecursionError)) or not isinstance(e, Exception):
        return False
    if type(e).__module__.startswith("autoconv") or raised_by_autoconv(e):
        return False  # autoconv's own machinery, never the user's error
    if not any(n.effect for n in graph.block.nodes):
        return False  # raising now, while tracing, is what eager code does
    origin = exception_origin(e)
    if origin is None:
        return False
    raise_node(e.with_traceback(None), origin)
    return True


def stored_tensor_error(e):
    """The error for NumPy's `ValueError` when traced code stores a Tensor into a NumPy array
    where the converter could not rebind the name (`self.buf[i] = t`, `a[f(i)] = t`, code that
    is not converted): NumPy takes the Tensor for a sequence. None for other exceptions."""
    if not isinstance(e, ValueError) or "setting an array element with a sequence" not in str(e):
        return None
    origin = exception_origin(e)
    line = source_text(origin)
    if target_name(line) is None:
        return None  # not an item assignment of the user's
    cls = type("ValueError", (StagingError, ValueError), {"__module__": __name__})
    return cls(
        f"{where(origin)}: `{line}` stores a value known only when the graph runs into a NumPy "
        "array, which can hold only values known now. Assign items of a local array with a key "
        "made of names, constants and slices (`out[i] = v`, `out[i, :] = v`), which autoconv "
        "turns into a new array of the graph, or build the array with NumPy functions "
        "(np.where, np.stack)."
    )


def _traced_branch_failed(e):
    """A StagingError for an exception (not the user's `raise`) while tracing a branch: both
    branches of a staged `if` are traced, whichever runs later, so code that only works on
    the path the data takes can fail here."""
    origin = exception_origin(e)
    return StagingError(
        f"{where(origin)}: {type(e).__name__}: {e}, while tracing a branch of a staged `if` "
        "(both branches are traced, whichever one the data takes when the graph runs). Make "
        "this code work on either path, e.g. check the condition in Python first, or build the "
        "values with np.where."
    )


def _check_lists_not_rebound(names, results, origin):
    """A variable that holds, in one branch, a list the other branch appends to, and another
    list in the other (`current.append(v)` / `current = []`) cannot be staged: the appends are
    tracked on the list object, the rebinding on the variable."""
    appended = {
        id(lst) for _, lists in results for lst, _, added, _ in lists if added not in (None, [])
    }
    if not appended:
        return
    for i, name in enumerate(names):
        a, b = results[0][0][i], results[1][0][i]
        if a is not b and (id(a) in appended or id(b) in appended):
            raise StagingError(
                f"{where(origin)}: `{name}` is a list that one branch of this `if` appends to "
                "and the other replaces with another list; a staged `if` can append to a list "
                "but not rebind it. Keep one list (and index into it), or collect the values "
                "in arrays."
            )


def _check_no_effects_before_raise(names, init, values, origin):
    """A branch that raises keeps, eagerly, what it changed on objects and containers before
    the `raise` (`self.failures += 1; raise ...`); a graph cannot, so that is an error."""
    for name, before, after in zip(names, init, values):
        if not name.isidentifier() and after is not before and not _same_python(after, before):
            raise StagingError(
                f"{where(origin)}: `{name}` is changed on a path of this `if` that then raises; "
                "eagerly the change stays after the exception, but a graph cannot keep it. "
                "Change it after the check instead, or keep the count in an autoconv.Variable."
            )


def _stand_in(value, block):
    """`value` with the Tensors computed in `block` replaced by stand-ins (see zeros_like)."""
    made = {id(t) for n in block.nodes for t in n.outputs}

    def walk(v):
        if isinstance(v, Tensor):
            return zeros_like(v) if id(v) in made else v
        t = type(v)
        if t is tuple or t is list:
            return t(walk(x) for x in v)
        if t is dict:
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, tuple) and hasattr(t, "_fields"):
            return t(*(walk(x) for x in v))
        if t is Optional:
            return Optional(walk(v.flag), walk(v.value), v.missing, v.name, v.origin)
        return v

    return walk(value)


# --- lists that control flow appends to ---------------------------------------------------


def _closure_lists(*fns):
    """The Python lists that `fns` can reach through their closures, with their names; also
    through the closures of functions they reach (the converter's branch and loop bodies)."""
    found = {}
    seen = set()
    todo = [fn for fn in fns if fn is not None]
    while todo:
        fn = todo.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        code = getattr(fn, "__code__", None)
        cells = getattr(fn, "__closure__", None) or ()
        names = code.co_freevars if code is not None else ()
        for name, cell in zip(names, cells):
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if type(value) is list and id(value) not in found:
                found[id(value)] = (value, name)
            elif type(value) is _FunctionType and len(seen) < 64:
                todo.append(value)
    return list(found.values())


_FunctionType = type(_closure_lists)


def _snapshot(lists):
    return [(lst, name, list(lst)) for lst, name in lists]


def _restore(snap):
    for lst, _, before in snap:
        lst[:] = before


def _appended(lst, before, tracked=frozenset()):
    """Items appended to `lst` since `before` (a copy), or None if it changed otherwise. Items
    at `tracked` indices (composite names such as `acc[0]`, carried as state) may change."""
    if before and isinstance(before[-1], ListAccum):
        # A nested staged `if` may have replaced the enclosing loop's accumulator.
        n = len(before) - 1
        if (
            len(lst) > n
            and isinstance(lst[n], ListAccum)
            and lst[n] is not before[n]
            and all(a is b for a, b in zip(lst[:n], before))
        ):
            return _Replaced(lst[n].tensor, lst[n + 1 :])
    if len(lst) < len(before) or any(
        a is not b and i not in tracked for i, (a, b) in enumerate(zip(lst, before))
    ):
        return None
    return lst[len(before) :]


class _ConcreteArrays:
    """The NumPy arrays (made outside the graph) among a staged statement's state, with copies
    of their contents. A branch or loop body runs once while tracing, so an in-place update of
    such an array (`acc += 1` with no Tensor involved) would happen once, at trace time, where
    eager code does it on every run and every iteration: `check` undoes it and says so."""

    def __init__(self, names, values, origin, what):
        self.origin, self.what = origin, what
        self.arrays = []
        for name, value in zip(names, values):
            leaves: list = []
            _struct(value, leaves)
            for leaf in leaves:
                if type(leaf) is np.ndarray and leaf.dtype != object:
                    self.arrays.append((name, leaf, leaf.copy()))

    def check(self):
        for name, array, copy in self.arrays:
            if array.shape == copy.shape and np.array_equal(array, copy, equal_nan=True):
                continue
            array[...] = copy
            raise StagingError(
                f"{where(self.origin)}: this {self.what} changes `{name}` in place, and `{name}` "
                "is a NumPy array made outside the graph: the change would happen once, while "
                "tracing, where eager code makes it every time the graph runs. Write "
                f"`{name} = {name} + ...` (a new array) instead of an in-place operator or item "
                f"assignment, or make `{name}` from graph values."
            )


def _set_final_state(set_state, final, names, origin, what):
    """Stores a staged statement's results; a result that Python cannot store (a Tensor into an
    item of a NumPy array made outside the graph) is a clear error."""
    try:
        set_state(tuple(final))
    except (TypeError, ValueError) as e:
        items = [n for n in names if "[" in n or "." in n]
        if not items:
            raise
        raise StagingError(
            f"{where(origin)}: {what} gives {', '.join(f'`{n}`' for n in items)} a value known "
            "only when the graph runs, and it cannot be stored there (a NumPy array made "
            "outside the graph cannot hold one). Make the whole array a graph value "
            "(`acc = np.where(cond, new, acc)`), or assign the name rather than an item."
        ) from e


class _Replaced(list):
    """Items appended after a nested `if` replaced a loop's accumulator with `tensor`."""

    def __init__(self, tensor, items):
        super().__init__(items)
        self.tensor = tensor


def _tracked(names, list_name) -> frozenset:
    """The indices of `list_name` that are composite state names (`acc[0]`)."""
    found = set()
    for name in names:
        root, accessors = rt._parse(name)
        if root == list_name and len(accessors) == 1 and not accessors[0][0]:
            key = accessors[0][1]
            if type(key) is int:
                found.add(key)
    return frozenset(found)


# --- the backend --------------------------------------------------------------------------


class Backend:
    """Implements `autoconv.runtime.staging`'s backend protocol for Tensors."""

    # item assignment -----------------------------------------------------------------------
    def setitem(self, target, key, value):
        if not isinstance(target, (Tensor, np.ndarray)):
            target[key] = value  # a list or dict holds Tensors as they are
            return target
        key = tuple(map(index_value, key)) if type(key) is tuple else index_value(key)
        return mutation.assign_item(target, key, index_value(value))

    # if / conditional expressions ----------------------------------------------------------
    def if_stmt(self, cond, body, orelse, get_state, set_state, names):
        origin = user_origin(2)
        cond = _cond_tensor(cond, origin)
        names = tuple(names or ())
        init = rt.read_state(get_state, names) if names else ()
        # The rest of an `elif` chain is an object holding the branches' functions.
        chain = orelse.functions() if isinstance(orelse, ElifChain) else (orelse,)
        snap = _snapshot(_closure_lists(body, *chain, get_state))
        arrays = _ConcreteArrays(names, init, origin, "`if`")
        branch_locals = StagedLocals((body, *chain))
        results = []
        blocks = []
        raised = []
        for fn in (body, orelse):
            branch_locals.start()  # each branch from the state before the `if`
            if names:
                set_state(init)
            with _g.sub_block() as block:
                raises = _trace_branch(fn)
                values = rt.read_state(get_state, names) if names else ()
            arrays.check()
            if raises:
                _check_no_effects_before_raise(names, init, values, origin)
                values = ()
            lists = [
                (lst, name, _appended(lst, before, _tracked(names, name)), before)
                for lst, name, before in snap
            ]
            _restore(snap)
            results.append((values, lists))
            blocks.append(block)
            raised.append(raises)
        merger = _Merger(("if", "else"), blocks, origin, "`if`")
        if all(raised):
            merger.finish(cond)
            if names:
                set_state(init)
            raise Raises(origin)
        for k in (0, 1):
            if raised[k]:
                # This path raises when it runs: its values are never read. Stand-ins of the
                # other path's kinds and shapes fill its outputs.
                other = results[1 - k]
                values = tuple(_stand_in(v, blocks[1 - k]) for v in other[0])
                lists = [
                    (lst, name, None if added is None else _stand_in(added, blocks[1 - k]), bef)
                    for lst, name, added, bef in other[1]
                ]
                results[k] = (values, lists)
        _check_lists_not_rebound(names, results, origin)
        merged = [
            merger.merge(name, init[i], results[0][0][i], results[1][0][i])
            for i, name in enumerate(names)
        ]
        list_results = merger.merge_lists(results[0][1], results[1][1])
        merger.finish(cond)
        final = [merger.resolve(m) for m in merged]
        branch_locals.finish()
        if names:
            _set_final_state(set_state, final, names, origin, "this `if`")
        merger.resolve_lists(list_results)

    def is_none(self, value):
        return is_none(value)

    def assert_(self, test, message):
        origin = user_origin(2)
        test = _cond_tensor(test, origin)
        text = message() if message is not None else None
        exc = AssertionError() if text is None else AssertionError(text)
        with _g.sub_block() as fails:
            raise_node(exc, origin)
        with _g.sub_block() as passes:
            pass
        _Merger(("failing", "passing"), [fails, passes], origin, "`assert`").finish(
            np.logical_not(test)
        )

    def if_exp(self, cond, if_true, if_false):
        origin = user_origin(2)
        cond = _cond_tensor(cond, origin)
        values, blocks = [], []
        for fn in (if_true, if_false):
            with _g.sub_block() as block:
                values.append(fn())
            blocks.append(block)
        merger = _Merger(("true", "false"), blocks, origin, "conditional expression")
        merged = merger.merge(
            "the conditional expression's value",
            rt._Undefined("?"),
            values[0],
            values[1],
            expression=True,
        )
        merger.finish(cond)
        return merger.resolve(merged)

    def and_(self, value, operands):
        first, rest = operands[0], operands[1:]

        def right():
            v = first()
            if rest:
                from autoconv.runtime.logical import and_

                return and_(v, *rest)
            return v

        return self.if_exp(value, right, lambda: value)

    def or_(self, value, operands):
        first, rest = operands[0], operands[1:]

        def right():
            v = first()
            if rest:
                from autoconv.runtime.logical import or_

                return or_(v, *rest)
            return v

        return self.if_exp(value, lambda: value, right)

    def not_(self, value):
        # `not x` is a Python bool whatever x is: a weak bool Tensor, never an np.bool_.
        result = np.logical_not(_cond_tensor(value, user_origin(2)))
        return result if result.weak else _cast(result, bool)

    # loops --------------------------------------------------------------------------------
    def mark(self):
        """Where the block being built ends now (None when this thread is not tracing)."""
        return len(_g.current().block.nodes) if _g.building() else None

    def while_stmt(self, test, body, get_state, set_state, names, first_cond=None, mark=None):
        if mark is not None:
            # The runtime ran the test once to see that it is symbolic; the loop's test block
            # runs it again. Drop the first run's operations: its effects (random draws,
            # prints, Variable updates) would run once more than eagerly.
            del _g.current().block.nodes[mark:]
        _Loop(
            test, body, get_state, set_state, tuple(names or ()), user_origin(2), "`while` loop"
        ).run()

    def for_stmt(self, iterable, body, get_state, set_state, names):
        origin = user_origin(2)
        source = _iteration(iterable, origin)
        names = tuple(names or ())
        length = source.length()
        counter = _Box(0)  # not a list: lists in closures are taken for accumulators

        def get2():
            state = rt.read_state(get_state, names) if names else ()
            return (*state, counter.value)

        def set2(state):
            if names:
                set_state(tuple(state[:-1]))
            counter.value = state[-1]

        def test():
            return counter.value < length

        def body2():
            i = counter.value
            stop = body(source.item(i))
            counter.value = i + 1
            return stop

        _Loop(
            test,
            body2,
            get2,
            set2,
            (*names, "<loop counter>"),
            origin,
            "`for` loop",
            carry_last=True,
            fns=(body,),
        ).run()

    def while_rest(self, stop, test, body, get_state, set_state, names):
        """A Python `while` loop whose body just returned a symbolic stop: unless it stops,
        the rest of the loop is staged from the current state."""

        def rest():
            _Loop(
                test, body, get_state, set_state, tuple(names or ()), origin, "`while` loop"
            ).run()

        origin = user_origin(2)
        self.if_stmt(np.logical_not(stop), rest, None, get_state, set_state, names)

    def for_rest(self, stop, iterable, items, item, body, get_state, set_state, names):
        """A Python `for` loop whose body just returned a symbolic stop: unless it stops, the
        remaining items are iterated by a staged loop, from the current state."""
        origin = user_origin(2)
        source = _remaining(iterable, items, item, origin)
        if source is None:
            return  # that was the last item: the loop ends either way

        def rest():
            self.for_stmt(source, body, get_state, set_state, names)

        self.if_stmt(np.logical_not(stop), rest, None, get_state, set_state, names)

    def range(self, *args):
        return StagedRange(*args)

    def extreme(self, which, args):
        """`max(*args)` / `min(*args)` with symbolic values, as Python computes them: the first
        item, replaced by each later one that is greater (smaller), as staged choices."""
        items = list(args[0]) if len(args) == 1 else list(args)
        if not items:
            raise ValueError(f"{which}() iterable argument is empty")
        result = items[0]
        for item in items[1:]:
            better = item > result if which == "max" else item < result
            result = self.if_exp(better, lambda item=item: item, lambda r=result: r)
        return result

    def len(self, value):
        if type(value) is list:
            # Items appended after the loop (or before a second one) follow the stand-in.
            grown = [_run_time_len(v.tensor) for v in value if isinstance(v, ListAccum)]
            n = len(value) - len(grown)
            for m in grown:
                n = m + n if isinstance(n, int) and n == 0 else n + m
            return n
        if isinstance(value, Optional):
            value = value.unwrap()
        if isinstance(value, Tensor):
            if not value.shape:
                raise TypeError("len() of unsized object")
            if value.shape[0] is not None:
                return value.shape[0]
            return _run_time_len(value)
        return len(value)

    def enumerate(self, iterable, start=0):
        return StagedEnumerate(iterable, start)

    def zip(self, *iterables, **kwargs):
        if kwargs.get("strict"):
            shapes.fail("zip(..., strict=True) over Tensors is not supported; drop strict=True")
        return StagedZip(*iterables)


_LOOPS: list = []  # snapshots of the lists seen by the loops being traced, innermost last


def unsettled_appends(origin, what="staged loop") -> StagingError:
    """The error for appends a staged loop cannot carry as a run-time list."""
    return StagingError(
        f"{where(origin)}: a list is appended to a different number of times on different "
        f"paths through this {what}, in a way autoconv cannot stage (branches and loops nested "
        "inside it). Append the same number of items on every path (e.g. append a placeholder "
        "and filter with a mask afterwards), or collect the values in a preallocated array."
    )


class _NeedsAccumulator(Exception):
    """A branch inside a loop body appended to a list unevenly: retrace with it accumulated."""

    def __init__(self, lst, items):
        super().__init__()
        self.lst = lst
        self.items = items


def _prefix(before):
    """A list's items before a loop, without the marker of an enclosing loop's accumulation."""
    return before[:-1] if before and isinstance(before[-1], ListAccum) else before


class _Box:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class _Merger:
    """Merges the values of variables from two traced blocks into the outputs of a `cond`."""

    def __init__(self, labels, blocks, origin, what):
        self.labels = labels
        self.blocks = blocks
        self.origin = origin
        self.what = what
        self.pairs = []  # (value in block 0, value in block 1, shape, dtype)
        self.node = None

    def _error(self, message):
        raise StagingError(f"{where(self.origin)}: {message}")

    def merge(self, name, init, a, b, expression=False):
        """Returns a merged value (leaves are ints: indices into self.pairs) or a final value."""
        if a is b:
            return ("same", a)
        a, b = _lift_pair(name, a, b, self.origin)
        a_undef, b_undef = unbound(a), unbound(b)
        if a_undef or b_undef:
            if a_undef and b_undef:
                return ("same", a)
            defined, missing = (
                (self.labels[1], self.labels[0]) if a_undef else (self.labels[0], self.labels[1])
            )
            message = f"{where(self.origin)}: " + messages.defined_on_one_path(
                name, defined, missing, self.what
            )
            return ("same", Undefined(name, message))
        la, lb = [], []
        sa, sb = _struct(a, la), _struct(b, lb)
        if sa != sb:
            self._error(
                f"`{name}` has a different structure in the {self.labels[0]} branch "
                f"({_describe(a)}) and in the {self.labels[1]} branch ({_describe(b)}) of this "
                f"{self.what}; both branches must give it the same kind of value."
            )
        leaves = []
        for j, (x, y) in enumerate(zip(la, lb)):
            leaves.append(self._leaf(f"{name}" + (f" (item {j})" if len(la) > 1 else ""), x, y))
        return ("struct", sa, leaves)

    def _leaf(self, name, x, y):
        if x is y:
            return ("value", x)
        if not (_numeric(x) and _numeric(y)):
            if _same_python(x, y):
                return ("value", x)
            self._error(
                f"`{name}` is {_spec_text(x)} in the {self.labels[0]} branch and "
                f"{_spec_text(y)} in the {self.labels[1]} branch of this {self.what}. Values "
                "that are not arrays or numbers must be the same in both branches."
            )
        if _same_python(x, y):
            return ("value", x)
        if kinds_of(x) != kinds_of(y) or len(kinds_of(x)) > 1:
            return self._mixed(name, x, y)  # a Python number on some paths
        self.pairs.append((x, y, self._joined(name, x, y)))
        return ("pair", len(self.pairs) - 1)

    def _joined(self, name, x, y):
        """The spec of a pair's output (core.join), or the error naming `name`."""

        def fail(kind):
            text = messages.branches_disagree(
                name, _spec_text(x), _spec_text(y), self.labels, self.what, kind
            )
            self._error(text)

        return _join(_spec(x), _spec(y), fail, (x, y))

    def _mixed(self, name, x, y):
        """A number whose Python type differs between the branches (`-1` and `x[i]`): its
        value in the joined dtype (NumPy's weak-scalar rule: operations on it give what they
        give on the NumPy path), and a run-time tag saying which type to return or print."""
        kinds = tuple(dict.fromkeys(kinds_of(x) + kinds_of(y)))
        tags = []
        for block, v in zip(self.blocks, (x, y)):
            with _g.build(_g.current().graph, block):
                tags.append(_tag_for(v, kinds))
        self.pairs.append((x, y, self._joined(name, x, y)))
        self.pairs.append((tags[0], tags[1], ((), np.dtype(np.int64), True)))
        return ("mixed", len(self.pairs) - 2, len(self.pairs) - 1, kinds, name)

    def merge_lists(self, a_lists, b_lists):
        out = []
        for (lst, name, added_a, before), (_, _, added_b, _) in zip(a_lists, b_lists):
            if type(added_a) is list and type(added_b) is list and not added_a and not added_b:
                continue
            if added_a is None or added_b is None:
                self._error(
                    f"list `{name}` is changed in a branch of this {self.what} in a way other "
                    "than append(); only append() can be staged"
                )
            marker = before[-1] if before and isinstance(before[-1], ListAccum) else None
            if marker is not None:
                accs = []
                for block, added in zip(self.blocks, (added_a, added_b)):
                    base = added.tensor if isinstance(added, _Replaced) else marker.tensor
                    with _g.build(block_graph(marker.tensor), block):
                        accs.append(_append(base, added, name, self.origin) if added else base)
                self.pairs.append(
                    (
                        accs[0],
                        accs[1],
                        (shapes.generalize(accs[0].shape, accs[1].shape), accs[0].dtype, False),
                    )
                )
                if accs[0].dtype != accs[1].dtype:
                    self._error(
                        f"items appended to list `{name}` have dtype {accs[0].dtype} in the "
                        f"{self.labels[0]} branch and {accs[1].dtype} in the {self.labels[1]} "
                        f"branch of this {self.what}"
                    )
                out.append((lst, before[:-1], "accum", len(self.pairs) - 1))
            elif _LOOPS and any(lst is seen for seen, _, _ in _LOOPS[-1]):
                # Inside a staged loop: make the loop carry this list as a run-time list.
                raise _NeedsAccumulator(lst, added_a or added_b)
            elif len(added_a) == len(added_b):
                items = [
                    self.merge(f"{name}[{len(before) + k}]", None, x, y)
                    for k, (x, y) in enumerate(zip(added_a, added_b))
                ]
                out.append((lst, before, "items", items))
            elif not _LOOPS:
                # Different numbers of items: the appended ones become a run-time list.
                out.append((lst, before, "accum", self._uneven(name, added_a, added_b)))
            else:
                self._error(
                    f"list `{name}` gets {len(added_a)} item(s) appended in the "
                    f"{self.labels[0]} branch and {len(added_b)} in the {self.labels[1]} branch "
                    f"of this {self.what}, inside a staged loop that does not carry it. Append "
                    "to a list made before the loop, and keep the same list in every iteration."
                )
        return out

    def _uneven(self, name, added_a, added_b) -> int:
        """A run-time list per branch holding the items it appended; returns its pair."""
        items = [*added_a, *added_b]
        for it in items:
            if not _numeric(it) or isinstance(it, ListAccum):
                self._error(
                    f"list `{name}` gets {len(added_a)} item(s) appended in the "
                    f"{self.labels[0]} branch and {len(added_b)} in the {self.labels[1]} "
                    f"branch of this {self.what}, so its length is known only when the graph "
                    f"runs; that needs arrays or numbers as items, not {_spec_text(it)}."
                )
        elem = tuple(shapes.shape_of(items[0]))
        for it in items[1:]:
            if len(shapes.shape_of(it)) != len(elem):
                self._error(f"items appended to list `{name}` differ in number of dimensions")
            elem = shapes.generalize(elem, tuple(shapes.shape_of(it)))
        dtype = next((shapes.result_dtype(i) for i in items if not _weak(i)), None)
        dtype = dtype if dtype is not None else shapes.result_dtype(items[0])
        graph = _g.current().graph
        accs = []
        for block, added in zip(self.blocks, (added_a, added_b)):
            with _g.build(graph, block):
                node = _g.Node("list_new", "list", attrs={"list": name})
                _g.add_node(node, [((None, *elem), dtype, False)], self.origin)
                acc = node.outputs[0]
                accs.append(_append(acc, added, name, self.origin) if added else acc)
        self.pairs.append((accs[0], accs[1], ((None, *elem), dtype, False)))
        return len(self.pairs) - 1

    def finish(self, cond):
        node = _g.Node("cond", "cond", args=(cond,))
        graph = _g.current().graph
        for k, block in enumerate(self.blocks):
            with _g.build(graph, block):
                block.outputs = [_as_tensor(pair[k], pair[2]) for pair in self.pairs]
        node.blocks = list(self.blocks)
        node.effect = any(_has_effect(b) for b in self.blocks)
        _g.add_node(node, [p[2] for p in self.pairs], self.origin)
        self.node = node

    def _resolve_leaf(self, leaf):
        if leaf[0] == "value":
            return leaf[1]
        if leaf[0] == "mixed":
            _, value, tag, kinds, name = leaf
            return tagged(self.node.outputs[value], self.node.outputs[tag], kinds)
        return self.node.outputs[leaf[1]]

    def resolve(self, merged):
        if merged[0] == "same":
            return merged[1]
        _, struct, leaves = merged
        return _rebuild(struct, [self._resolve_leaf(leaf) for leaf in leaves])

    def resolve_lists(self, results):
        for lst, prefix, kind, data in results:
            if kind == "accum":
                lst[:] = [*prefix, ListAccum(self.node.outputs[data])]
            else:
                lst[:] = [*prefix, *(self.resolve(item) for item in data)]


def _lift_pair(name, a, b, origin):
    """`a` and `b`, the values of one variable on two paths, made alike where one path leaves
    it None or unbound: both become Optionals (recursively inside tuples, lists and dicts).
    Values that need no change are returned as they are (the same objects)."""
    template = optional_for(a, b, name, origin)
    if template is not None:
        la, lb = lift(a, template), lift(b, template)
        if la is None or lb is None:
            return a, b
        va, vb = _lift_pair(name, la.value, lb.value, origin)
        if va is not la.value:
            la = Optional(la.flag, va, la.missing, name, origin)
        if vb is not lb.value:
            lb = Optional(lb.flag, vb, lb.missing, name, origin)
        return la, lb
    ta = type(a)
    if ta is not type(b):
        return a, b
    if (ta is tuple or ta is list) and len(a) == len(b):
        pairs = [_lift_pair(f"{name}[{i}]", x, y, origin) for i, (x, y) in enumerate(zip(a, b))]
        return _rebuilt(a, [p[0] for p in pairs], ta), _rebuilt(b, [p[1] for p in pairs], ta)
    if ta is dict and list(a) == list(b):
        pairs = [_lift_pair(f"{name}[{k!r}]", a[k], b[k], origin) for k in a]
        return (
            _rebuilt(a, [p[0] for p in pairs], lambda vs: dict(zip(a, vs))),
            _rebuilt(b, [p[1] for p in pairs], lambda vs: dict(zip(b, vs))),
        )
    if isinstance(a, tuple) and hasattr(ta, "_fields"):
        pairs = [_lift_pair(f"{name}.{f}", x, y, origin) for f, x, y in zip(ta._fields, a, b)]
        return (
            _rebuilt(a, [p[0] for p in pairs], lambda vs: ta(*vs)),
            _rebuilt(b, [p[1] for p in pairs], lambda vs: ta(*vs)),
        )
    return a, b


def _rebuilt(old, items, make):
    """`old` itself when `items` are its own items, else `make(items)`."""
    olds = old.values() if type(old) is dict else old
    if all(x is y for x, y in zip(olds, items)):
        return old
    return make(items)


def block_graph(t):
    return t.graph


def _describe(v) -> str:
    if isinstance(v, (tuple, list)):
        return f"a {type(v).__name__} of {len(v)}"
    if isinstance(v, dict):
        return f"a dict with keys {list(v)}"
    return _spec_text(v)


def _append(acc, items, name, origin):
    for item in items:
        if isinstance(item, ListAccum):
            raise StagingError(
                f"{where(origin)}: list `{name}`: appending a list built in a staged loop to "
                "another is not supported"
            )
    node = _g.Node("list_append", "append", args=(acc, *items))
    item_shapes = [shapes.shape_of(i) for i in items]
    elem = tuple(acc.shape[1:])
    for s in item_shapes:
        if len(s) != len(elem):
            raise StagingError(
                f"{where(origin)}: items appended to list `{name}` in a staged loop must all have "
                f"the same shape: got {shapes.fmt(s)} after {shapes.fmt(elem)}"
            )
        elem = shapes.generalize(elem, tuple(s))
    for item in items:
        if shapes.result_dtype(item) != acc.dtype and not _weak(item):
            raise StagingError(
                f"{where(origin)}: items appended to list `{name}` in a staged loop must all have "
                f"the same dtype: got {shapes.result_dtype(item).name} after {acc.dtype.name}"
            )
    _g.add_node(node, [((None, *elem), acc.dtype)], origin)
    return node.outputs[0]


# --- loops ----------------------------------------------------------------------------------


class _Loop:
    """Traces a loop until its variables settle, then records a `while` node."""

    def __init__(
        self, test, body, get_state, set_state, names, origin, what, carry_last=False, fns=()
    ):
        self.test = test
        self.body = body
        self.get_state = get_state
        self.set_state = set_state
        self.names = names
        self.origin = origin
        self.what = what
        self.carry_last = carry_last
        self.fns = fns

    def _error(self, message):
        raise StagingError(f"{where(self.origin)}: {message}")

    def _read(self):
        return rt.read_state(self.get_state, self.names) if self.names else ()

    def run(self):
        graph = _g.current().graph
        init = list(self._read())
        structs, init_leaves = [], []
        for v in init:
            leaves = []
            structs.append(_struct(v, leaves))
            init_leaves.append(leaves)
        # carried[(i, j)] = (shape, dtype): the loop variables, by variable and leaf;
        # carried[(i, j, 1)]: the kind tag of a leaf that is a Python number on some paths
        # and a NumPy value on others (self.kinds[(i, j)] lists the kinds, see `tagged`).
        carried: dict = {}
        self.kinds: dict = {}
        for i, leaves in enumerate(init_leaves):
            for j, v in enumerate(leaves):
                if isinstance(v, Tensor) or (self.carry_last and i == len(init) - 1):
                    carried[(i, j)] = _spec(v)
        snap = _snapshot(_closure_lists(self.body, self.test, self.get_state, *self.fns))
        accums: dict = {}  # index in snap -> [elem shape, dtype, initial acc tensor or None]
        made: list = []  # every attempt's parameters (mutation keeps their first values)
        self.arrays = _ConcreteArrays(self.names, init, self.origin, self.what)
        try:
            self._attempts(graph, init, structs, init_leaves, carried, snap, accums, made)
        finally:
            mutation.forget_loop_params(made)

    def _attempts(self, graph, init, structs, init_leaves, carried, snap, accums, made):
        body_locals = StagedLocals((self.test, self.body, *self.fns))
        for _attempt in range(8):
            body_locals.start()  # each attempt from the state before the loop
            state_in, params, acc_params = self._inputs(
                graph, init, structs, init_leaves, carried, snap, accums
            )
            made.extend(params.values())
            if self.names:
                _set_final_state(
                    self.set_state, state_in, self.names, self.origin, f"this {self.what}"
                )
            with _g.sub_block() as cond_block:
                cond = self.test()
            cond_block.outputs = [cond]
            _LOOPS.append(snap)
            try:
                with _g.sub_block() as body_block:
                    stop = self.body()
                    out = list(self._read())
                    appended = self._appended_lists(snap, accums)
                self.arrays.check()
            except _NeedsAccumulator as e:
                k = next((k for k, (lst, _, _) in enumerate(snap) if lst is e.lst), None)
                if k is None:
                    raise  # an enclosing loop's list
                if k in accums:
                    raise unsettled_appends(self.origin, self.what) from None
                _restore(snap)
                if self.names:
                    self.set_state(tuple(init))
                appended = [e.items if n == k else [] for n in range(len(snap))]
                self._settle_lists(snap, accums, appended)
                continue
            finally:
                _LOOPS.pop()
            _restore(snap)
            if self.names:
                self.set_state(tuple(init))
            changed = self._settle(init, structs, init_leaves, carried, out, state_in)
            changed |= self._settle_lists(snap, accums, appended)
            if not changed:
                break
        else:
            self._error(f"the variables of this {self.what} do not settle on a shape and dtype")
        self._check_updated_in_place(params, out)
        body_locals.finish()
        self._record(
            graph,
            init,
            structs,
            init_leaves,
            carried,
            params,
            acc_params,
            cond_block,
            body_block,
            cond,
            stop,
            out,
            snap,
            accums,
            appended,
        )

    def _check_updated_in_place(self, params, out):
        """A loop variable that the body changes in place (`d += 1`) is, in the next
        iteration, whatever the body left in it: that must be an array nothing else sees."""
        for key, param in params.items():
            if len(key) != 2 or getattr(param, "_stale", None) is None:
                continue
            leaves: list = []
            _struct(out[key[0]], leaves)
            v = leaves[key[1]] if key[1] < len(leaves) else None
            if isinstance(v, Tensor) and v is not param and not mutation._private(v):
                self._error(
                    f"`{self.names[key[0]]}` is changed in place in this {self.what}, and at the "
                    f"end of an iteration it is {mutation._why_shared(v)}: eager NumPy would "
                    "write into that array in the next iteration, which a graph cannot. Copy it "
                    f"(`{self.names[key[0]]} = ....copy()`) or write `{self.names[key[0]]} = "
                    f"{self.names[key[0]]} + ...` instead of the in-place operator."
                )

    def _guard_never_ends(self):
        """The test reads nothing the loop changes: where it is true on entry, the loop would
        never end (eagerly it hangs). A check raises there instead, when the graph runs."""
        message = (
            f"{where(self.origin)}: the test of this {self.what} is true and reads nothing that "
            "the loop changes, so the loop would never end (eager Python would hang). Make the "
            "body update a variable that the test reads, or add a `break`."
        )
        entry = _cond_tensor(self.test(), self.origin)  # the state is the loop's initial one
        if not isinstance(entry, Tensor):
            if entry:
                raise StagingError(message)
            return
        with _g.sub_block() as fails:
            raise_node(StagingError(message), self.origin)
        with _g.sub_block() as passes:
            pass
        _Merger(("true", "false"), [fails, passes], self.origin, self.what).finish(entry)

    def _appended_lists(self, snap, accums):
        """Per list: the items the body appended (None if changed otherwise); for accumulated
        lists `(acc, items)`: the run-time list after the body (a cond may have replaced it)
        and the items appended after that."""
        out = []
        for k, (lst, _, before) in enumerate(snap):
            if k not in accums:
                added = _appended(lst, before, _tracked(self.names, snap[k][1]))
                out.append(None if isinstance(added, _Replaced) else added)
                continue
            prefix = _prefix(before)
            n = len(prefix)
            if (
                len(lst) <= n
                or any(a is not b for a, b in zip(lst, prefix))
                or not isinstance(lst[n], ListAccum)
            ):
                out.append(None)
            else:
                out.append((lst[n].tensor, lst[n + 1 :]))
        return out

    def _inputs(self, graph, init, structs, init_leaves, carried, snap, accums):
        params = {}
        state_in = []
        for i, _v in enumerate(init):
            leaves = list(init_leaves[i])
            for j in range(len(leaves)):
                if (i, j) in carried:
                    leaf = params[(i, j)] = _param(graph, carried[(i, j)], self.names[i])
                    _inherit_eager_type(leaf, leaves[j])
                    mutation.note_loop_param(leaf, leaves[j])
                    if (i, j, 1) in carried:
                        tag = params[(i, j, 1)] = _param(graph, carried[(i, j, 1)], "<kind>")
                        leaf = tagged(leaf, tag, self.kinds[(i, j)])
                    leaves[j] = leaf
            state_in.append(_rebuild(structs[i], leaves))
        acc_params = {}
        for k, (elem, dtype, _) in accums.items():
            lst, name, before = snap[k]
            acc_params[k] = _param(graph, ((None, *elem), dtype, False), name)
            lst[:] = [*_prefix(before), ListAccum(acc_params[k])]
        return state_in, params, acc_params

    def _settle(self, init, structs, init_leaves, carried, out, state_in) -> bool:
        changed = False
        for i, name in enumerate(self.names):
            o = out[i]
            if o is state_in[i]:
                continue
            if unbound(o) and not isinstance(state_in[i], Optional):
                continue  # only assigned on some paths of the body: not carried
            # None or unbound before the loop (or after an iteration) and a value on other
            # paths: the variable is carried as an Optional (a flag and a value).
            lifted, o = _lift_pair(name, init[i], o, self.origin)
            out[i] = o
            if lifted is not init[i]:
                init[i] = lifted
                leaves = []
                structs[i] = _struct(lifted, leaves)
                init_leaves[i] = leaves
                for key in [k for k in carried if k[0] == i]:
                    del carried[key]
                    self.kinds.pop(key, None)
                changed = True
            leaves = []
            struct = _struct(o, leaves)
            if struct != structs[i]:
                if rt.is_undefined(init[i]) and not any(_numeric(v) for v in leaves):
                    self._error(
                        f"`{name}` is first given a value inside this {self.what}, and it is "
                        f"{_describe(o)}; only arrays and numbers can be staged loop variables"
                    )
                self._error(
                    f"`{name}` changes structure in this {self.what}: before an iteration "
                    f"it is {_describe(state_in[i])}, after it {_describe(o)}. Keep the "
                    "same structure in every iteration."
                )
            for j, v in enumerate(leaves):
                before = init_leaves[i][j]
                key = (i, j)
                if key in carried:
                    old = carried[key]
                    if not _numeric(v):
                        self._error(
                            f"`{name}` is {format_spec(*old)} before an iteration of this "
                            f"{self.what} and {_spec_text(v)} after it"
                        )
                    start = old
                else:
                    if v is before or _same_python(v, before):
                        continue
                    if not (_numeric(v) and _numeric(before)):
                        self._error(
                            f"`{name}` is {_spec_text(before)} before this {self.what} and "
                            f"{_spec_text(v)} after an iteration. A staged loop can only change "
                            "arrays and numbers; keep other values the same in every iteration."
                        )
                    start = _spec(before)

                def fail(kind, start=start, v=v, name=name):
                    before_text, after_text = format_spec(*start), _spec_text(v)
                    self._error(
                        messages.iteration_changes(name, before_text, after_text, self.what, kind)
                    )

                new = _join(start, _spec(v), fail, (before, v))
                if key not in carried or new != carried[key]:
                    carried[key] = new
                    changed = True
                known = self.kinds.get(key, kinds_of(before))
                seen = kinds_of(v)
                kinds = tuple(dict.fromkeys(known + seen))
                if len(kinds) > 1 and self.kinds.get(key) != kinds:
                    # A Python number before, a NumPy value after some iterations: which one
                    # the loop leaves is known at run time (eager code gives either type).
                    self.kinds[key] = kinds
                    carried[(i, j, 1)] = ((), np.dtype(np.int64), True)
                    changed = True
        return changed

    def _settle_lists(self, snap, accums, appended) -> bool:
        changed = False
        for k, items in enumerate(appended):
            lst, name, before = snap[k]
            if items is None:
                self._error(
                    f"list `{name}` is changed inside this {self.what} in a way other than "
                    "append(); only append() can be staged"
                )
            if type(items) is tuple:
                acc, items = items
                old = accums[k][0]
                general = shapes.generalize(old, tuple(acc.shape[1:]))
                if general != old:
                    accums[k][0] = general
                    changed = True
            if not items:
                continue
            for it in items:
                if not _numeric(it):
                    self._error(
                        f"list `{name}`: only arrays and numbers can be appended inside a staged "
                        f"loop, got {_spec_text(it)}"
                    )
            item_shapes = [tuple(shapes.shape_of(it)) for it in items]
            dtype = next(
                (shapes.result_dtype(it) for it in items if not _weak(it)),
                shapes.result_dtype(items[0]),
            )
            elem = item_shapes[0]
            for s in item_shapes[1:]:
                if len(s) != len(elem):
                    self._error(
                        f"list `{name}`: items appended in this {self.what} must all have the "
                        "same number of dimensions"
                    )
                elem = shapes.generalize(elem, s)
            if k not in accums:
                outer = before[-1] if before and isinstance(before[-1], ListAccum) else None
                if outer is not None:
                    elem = shapes.generalize(tuple(outer.tensor.shape[1:]), elem)
                    dtype = outer.tensor.dtype
                accums[k] = [elem, dtype, outer]
                changed = True
            else:
                old = accums[k][0]
                general = shapes.generalize(old, elem) if len(old) == len(elem) else None
                if general is None:
                    self._error(
                        f"list `{name}`: items appended in this {self.what} must all have the "
                        "same number of dimensions"
                    )
                if general != old:
                    accums[k][0] = general
                    changed = True
        return changed

    def _record(
        self,
        graph,
        init,
        structs,
        init_leaves,
        carried,
        params,
        acc_params,
        cond_block,
        body_block,
        cond,
        stop,
        out,
        snap,
        accums,
        appended,
    ):
        keys = sorted(carried)
        # Initial values, in the enclosing block.
        inits = []
        for key in keys:
            shape, dtype, _ = carried[key]
            v = init_leaves[key[0]][key[1]]
            if len(key) == 3:
                v = _tag_for(v, self.kinds[key[:2]])
            elif v is None or unbound(v):
                v = np.zeros(tuple(0 if d is None else d for d in shape), dtype)
            inits.append(_as_tensor(v, carried[key]))
        acc_keys = sorted(accums)
        for k in acc_keys:
            outer = accums[k][2]
            if outer is not None:
                inits.append(outer.tensor)
            else:
                node = _g.Node("list_new", "list", attrs={"list": snap[k][1]})
                _g.add_node(node, [((None, *accums[k][0]), accums[k][1], False)], self.origin)
                inits.append(node.outputs[0])
        # Loop outputs, in the body block.
        outs = []
        with _g.build(graph, body_block):
            for key in keys:
                i, j = key[:2]
                leaves = []
                _struct(out[i], leaves)
                value = leaves[j] if j < len(leaves) else params[key]
                if len(key) == 3:
                    value = _tag_for(value, self.kinds[(i, j)])
                outs.append(_as_tensor(value, carried[key]))
            for k in sorted(accums):
                acc, items = appended[k]
                outs.append(_append(acc, items, snap[k][1], self.origin) if items else acc)
            has_stop = stop is not None and stop is not False
            if has_stop:
                if isinstance(stop, Tensor):
                    outs.append(stop)
                elif _numeric(stop) or isinstance(stop, bool):
                    outs.append(_const(bool(stop), np.bool_, True))
                else:
                    outs.append(_const(bool(stop), np.bool_, True))
        with _g.build(graph, cond_block):
            cond_block.outputs = [_cond_tensor(cond, self.origin)]
        body_block.params = [params[k] for k in keys] + [acc_params[k] for k in acc_keys]
        cond_block.params = body_block.params
        body_block.outputs = outs
        if not has_stop and not _can_change(cond_block, body_block.params):
            self._guard_never_ends()
        node = _g.Node("while", "while", args=tuple(inits), attrs={"stop": has_stop})
        node.blocks = [cond_block, body_block]
        node.effect = _has_effect(cond_block) or _has_effect(body_block)
        specs = [carried[k] for k in keys] + [
            ((None, *accums[k][0]), accums[k][1], False) for k in acc_keys
        ]
        _g.add_node(node, specs, self.origin)
        results = dict(zip(keys, node.outputs))
        final = []
        for i, _v in enumerate(init):
            leaves = list(init_leaves[i])
            for j in range(len(leaves)):
                if (i, j, 1) in results:
                    leaves[j] = tagged(results[(i, j)], results[(i, j, 1)], self.kinds[(i, j)])
                elif (i, j) in results:
                    leaves[j] = results[(i, j)]
            final.append(_rebuild(structs[i], leaves))
        if self.names:
            _set_final_state(self.set_state, final, self.names, self.origin, f"this {self.what}")
        for n, k in enumerate(acc_keys):
            lst, name, before = snap[k]
            lst[:] = [*_prefix(before), ListAccum(node.outputs[len(keys) + n])]


# --- staged iteration -----------------------------------------------------------------------


def _length(t):
    if isinstance(t, Tensor):
        if not t.shape:
            shapes.fail(f"iteration over a 0-d Tensor ({t!r})")
        n = t.shape[0]
        return n if n is not None else np.shape(t)[0]
    return len(t)


class _Source:
    def length(self):
        raise NotImplementedError

    def item(self, i):
        raise NotImplementedError


class _TensorSource(_Source):
    def __init__(self, t):
        self.t = t

    def length(self):
        return _length(self.t)

    def item(self, i):
        return self.t[i]


class _PyRangeSource(_Source):
    """A Python `range` iterated by a staged loop: items are Python ints (weak int Tensors)."""

    def __init__(self, r):
        self.r = r

    def length(self):
        return len(self.r)

    def item(self, i):
        start, step = self.r.start, self.r.step
        if step != 1:
            i = i * step
        return i + start if start else i


def _weak_item(value):
    """`value` as the Python number kind eager iteration would give (a weak Tensor)."""
    if isinstance(value, Tensor) and not value.weak:
        return _cast(value, PY_TYPES[value.dtype.kind])
    return value


class _StackedSource(_Source):
    """The items of a Python sequence of arrays and numbers (all alike), stacked per leaf."""

    def __init__(self, items, origin):
        self.structs, columns = None, []
        for item in items:
            leaves = []
            struct = _struct(item, leaves)
            if self.structs is None:
                self.structs = struct
                columns = [[] for _ in leaves]
            elif struct != self.structs:
                raise StagingError(
                    f"{where(origin)}: this loop meets a Tensor condition and must be staged, "
                    "but its items do not all have the same structure, so they cannot be "
                    "iterated by a staged loop. Iterate over an array (or a range) instead."
                )
            for column, leaf in zip(columns, leaves):
                column.append(leaf)
        self.n = len(items)
        self.columns = []
        for column in columns:
            if not all(_numeric(v) for v in column):
                raise StagingError(
                    f"{where(origin)}: this loop meets a Tensor condition and must be staged, "
                    "but its items are not all arrays or numbers. Iterate over an array (or "
                    "a range) instead."
                )
            weak = all(_weak(v) for v in column)
            stacked = np.stack(column) if _g.tensors_in(column) else _const_stack(column)
            self.columns.append((stacked, weak))

    def length(self):
        return self.n

    def item(self, i):
        leaves = [_weak_item(t[i]) if weak else t[i] for t, weak in self.columns]
        return _rebuild(self.structs, leaves)


def _const_stack(column):
    array = np.asarray(column)
    return _const(array, array.dtype)


def _remaining(iterable, items, item, origin):
    """The items a Python loop has not reached yet, as a staged source (None if none)."""
    if type(iterable) is range:
        r = iterable
        rest = range(item + r.step, r.stop, r.step)
        return _PyRangeSource(rest) if len(rest) else None
    rest = list(items)
    return _StackedSource(rest, origin) if rest else None


class StagedRange(_Source):
    """`range(...)` with a symbolic bound; iterated by a staged `for` loop."""

    def __init__(self, *args):
        if not 1 <= len(args) <= 3:
            raise TypeError(f"range expected 1 to 3 arguments, got {len(args)}")
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
        if isinstance(step, (int, np.integer)) and step == 0:
            raise ValueError("range() arg 3 must not be zero")
        self.start, self.stop, self.step = start, stop, step

    def length(self):
        start, stop, step = self.start, self.stop, self.step
        if isinstance(step, Tensor):
            up = np.maximum((stop - start + step - 1) // step, 0)
            down = np.maximum((start - stop - step - 1) // (-step), 0)
            return np.where(step > 0, up, down)
        if step > 0:
            span = stop if _is_int(start, 0) else stop - start
            if not _is_int(step, 1):
                span = (span + (step - 1)) // step
            return np.maximum(span, 0)
        return np.maximum((start - stop + (-step - 1)) // (-step), 0)

    def item(self, i):
        # Python's range gives Python ints: a Tensor bound must not make the index int64.
        if isinstance(self.step, int) and self.step == 1:
            if isinstance(self.start, int) and self.start == 0:
                return i
            return _weak_item(i + self.start)
        return _weak_item(self.start + i * self.step)

    def __iter__(self):
        raise StagingError(
            f"{where(user_origin(2))}: a range() with a symbolic bound can only be iterated by a "
            "`for` loop in converted code"
        )


def _is_int(v, n) -> bool:
    return type(v) is int and v == n


class StagedEnumerate(_Source):
    """`enumerate(...)` over a Tensor or staged range."""

    def __init__(self, iterable, start=0):
        self.source = _iteration(iterable, None)
        self.start = start

    def length(self):
        return self.source.length()

    def item(self, i):
        index = i if isinstance(self.start, int) and self.start == 0 else i + self.start
        return (index, self.source.item(i))


class StagedZip(_Source):
    """`zip(...)` over Tensors (and staged ranges): as long as the shortest."""

    def __init__(self, *iterables):
        self.sources = [_iteration(it, None) for it in iterables]

    def length(self):
        lengths = [s.length() for s in self.sources]
        if all(isinstance(n, int) for n in lengths):
            return min(lengths)
        n = lengths[0]
        for m in lengths[1:]:
            n = np.minimum(n, m)
        return n

    def item(self, i):
        return tuple(s.item(i) for s in self.sources)


def _iteration(iterable, origin) -> _Source:
    if isinstance(iterable, _Source):
        return iterable
    if isinstance(iterable, Tensor):
        return _TensorSource(iterable)
    if type(iterable) is range:
        return _PyRangeSource(iterable)
    if isinstance(iterable, np.ndarray):
        return _TensorSource(_const(iterable, iterable.dtype))
    if isinstance(iterable, (list, tuple)) and iterable:
        return _StackedSource(list(iterable), origin or user_origin(2))
    raise StagingError(
        f"{where(origin or user_origin(2))}: cannot stage iteration over {type(iterable).__name__} "
        "together with Tensors; use Tensors, NumPy arrays or staged range()s."
    )


BACKEND = Backend()
rt.register((Tensor, Optional, ListAccum, StagedRange, StagedEnumerate, StagedZip), BACKEND)
rt.ACCUMULATOR_TYPES.add(ListAccum)
