"""Item assignment for converted code: `name[key] = value` becomes
`name = ac.setitem(name, key, value)`, and `name[key] += value` becomes
`name = ac.setitem(name, key, ac.item_op('+=', name[key], value))`, and a swap
`name[i], name[j] = name[j], name[i]` becomes
`name = ac.setitems(name, (i, j), (name[j], name[i]))` (converters/item_assignment.py). On a
JAX array (under a JAX trace) the name gets `name.at[key].set(value)`
(`autoconv.trace.jax.plain.setitem`)."""

import operator as _operator
import sys as _sys

from autoconv.runtime import keyed, staging

_traces = staging.traces
_modules = _sys.modules


def setitem(target, key, value):
    """`target[key] = value`; gives what the name holds afterwards: `target` itself, or, while a
    graph is traced and a symbolic value is involved, the graph tracer's new array."""
    if _traces:
        return staging.graph_tracer.setitem(target, key, value)
    if staging.jax_value(target) or _jax_array(target) or _numpy_under_jax(target, key, value):
        if _VIEWS:
            _view_written(target)
        return staging.jax_ops().setitem(target, key, value)  # `target.at[key].set(value)`
    if _sequence_at_jax_key(target, key):
        staging.jax_ops().sequence_item(target, key, "writes")
    if type(target) is dict and staging.jax_value(key):  # a key chosen under JAX (`Choice`)
        return staging.jax_ops().keyed_setitem(target, key, value)
    target[key] = value
    return target


def _numpy_under_jax(target, key, value) -> bool:
    """Whether `target` is a NumPy array that JAX's trace writes a traced item into, or at a
    traced key, or in a staged branch or loop body (`out[0] = x.max()`, `seen[i] = True` in a
    `lax.cond` branch): the name then gets a JAX array (`trace.jax.plain.setitem`)."""
    np = _modules.get("numpy")
    if np is None or type(target) is not np.ndarray or not staging.jax_tracing():
        return False
    keys = key if type(key) is tuple else (key,)
    if staging.jax_value(value) or _jax_array(value) or any(map(staging.jax_value, keys)):
        return True
    return staging.jax_ops().in_staged_block()


def _sequence_at_jax_key(target, key) -> bool:
    """Whether `target[key]` indexes a Python list or tuple with a JAX value (a traced loop
    counter): JAX's own error would blame `__index__`; the JAX client names the list. (Its
    own stand-ins, `_JAX_TYPES`, index as they do.)"""
    if type(target) is not list and type(target) is not tuple:
        return False
    return staging.jax_value(key) and type(key) not in staging._JAX_TYPES


# id(view) -> (view, `row = out[...]`): arrays converted code read by basic indexing, under a
# JAX trace, into names it later writes items of (converters/written_params.mark_views).
_VIEWS: dict = {}


def view_of(base, key, text: str, through: bool = False):
    """`base[key]`, for `row = base[key]` where converted code writes `row[j] = v` later. Eager
    NumPy gives a view that shares `base`'s memory for integer and slice keys; a JAX array is
    a copy, so a write into it under a JAX trace is refused (`setitem`), unless `through`: the
    writes go to `base` too (`setitem_view`)."""
    if _traces:
        # The graph's read, as the converter writes it without the write later: an item of a
        # list a staged statement appended to, or one at a key known only when the graph runs.
        value = list_item(base, key) if type(base) is list else item_at(base, key)
        if through:
            staging.graph_tracer.view_taken(value, base)
        return value
    try:
        value = base[key]
    except LookupError as e:
        e.as_written = True  # the user's own `base[key]` (see raising)
        raise
    if not through and staging.jax_value(value) and getattr(value, "ndim", 0) > 0:
        items = key if type(key) is tuple else (key,)
        if all(k is None or k is Ellipsis or type(k) in (int, slice) for k in items):
            if len(_VIEWS) > 4096:
                _VIEWS.clear()
            _VIEWS[id(value)] = (value, text)
    return value


def _view_written(target) -> None:
    entry = _VIEWS.get(id(target))
    if entry is None or entry[0] is not target:
        return
    from autoconv.trace.jax import state

    name, read = entry[1].split(" = ", 1)
    state.fail(
        state.user_origin(),
        f"this writes into `{name}`, which eager NumPy makes a view of `{read.split('[')[0]}` "
        f"(`{entry[1]}`), so the write changes that array too; under JAX `{name}` is a "
        "copy, and that array would keep its values. Write into the array itself (`out[i, j] "
        "= v` for `row = out[i]`), or copy the view first (`row = out[i].copy()`) if the "
        "array should not change.",
    )


def setitem_in_place(target, key, value) -> None:
    """`target[key] = value` where `target` is a variable of an enclosing function or a global
    (converted code cannot rebind it): a list is changed in place, also at a key known only
    when a graph runs; an array that a graph or JAX would give a new value is refused."""
    if _traces:
        new = staging.graph_tracer.setitem(target, key, value)
    elif staging.jax_value(target) or _jax_array(target):
        new = None
    else:
        target[key] = value
        return
    if new is not target:
        from autoconv.errors import StagingError

        frame = _sys._getframe(1)
        raise StagingError(
            f"{frame.f_code.co_filename}:{frame.f_lineno}: this writes an item of an array "
            "that an enclosing function (or the module) holds, in place: a graph gives the "
            "array a new value, which this function cannot give that variable. Pass the array "
            "in and return it, or keep the values in a list."
        )


def setitem_view(view, key, value, base, at, name: str):
    """`view[key] = value` where `view = base[at]` (converters/views.py; `name`: `base`'s):
    gives `(view, base)` as the names hold them afterwards. Where `view` shares `base`'s
    memory (NumPy's view: a key of integers and slices) and a graph or JAX gives `view` a new
    array, `base` gets one with it stored at `at`; in Python NumPy has changed both already."""
    if _traces:
        return staging.graph_tracer.setitem_view(view, key, value, base, at, name)
    if staging.jax_value(view) or _jax_array(view):
        new = staging.jax_ops().setitem(view, key, value)  # `view.at[key].set(value)`
        if basic_key(at) and (staging.jax_value(base) or _jax_array(base)):
            base = staging.jax_ops().setitem(base, at, new, name)
        return new, base
    view[key] = value
    return view, base


def basic_key(key) -> bool:
    """Whether `array[key]` is a view of `array` in NumPy: integers, slices, None and `...`
    (a 0-d integer array too); a list, an array or a bool makes a copy."""
    for k in key if type(key) is tuple else (key,):
        if k is None or k is Ellipsis or type(k) is slice:
            continue
        if type(k) is bool or isinstance(k, (list, tuple)):
            return False
        kind = getattr(getattr(k, "dtype", None), "kind", None)
        if isinstance(k, int) or kind in ("i", "u") and getattr(k, "ndim", 1) == 0:
            continue
        return False
    return True


def setitem_attr(owner, attr: str, key, value) -> None:
    """`owner.attr[key] = value`: where the array gets a new value (a graph's, a JAX array's),
    the attribute is set to it, which is what eager code sees when nothing else holds the old
    array (the graph tracer checks that)."""
    target = getattr(owner, attr)
    if _traces:
        new = staging.graph_tracer.setitem(target, key, value, (owner, attr))
    else:
        new = setitem(target, key, value)
    if new is not target:
        setattr(owner, attr, new)


def setitem_in(owner, at, key, value):
    """`owner[at][key] = value` (`params["w"][i] -= g`: an array a local dict or list holds at a
    constant key), as `owner[at] = ac.setitem_in(owner, at, key, value)`: what `owner[at]`
    holds afterwards. Where a graph gives the array a new value the statement stores it back,
    which is what eager code sees when nothing else holds the old array (the graph tracer
    checks that, `owner[at]` not counted); a list or dict held there is written as a local
    one is."""
    target = owner[at]
    if _traces:  # (a list at a run-time index: a switch over its items, as `h[b] += 1` is)
        return staging.graph_tracer.setitem(target, key, value, (owner, at))
    return setitem(target, key, value)


def setitems_attr(owner, attr: str, keys, values) -> None:
    """`owner.attr[k1], owner.attr[k2] = v1, v2` (a swap): the values are all read first, then
    each item is assigned as `setitem_attr` assigns it, left to right, as Python does."""
    for key, value in zip(keys, values):
        setitem_attr(owner, attr, key, value)


class params_written:  # noqa: N801 - converted code's `with ac.params_written(names):`
    """Around the body of a function that writes its parameters `names` in place: while a
    graph is traced, notes at its end each that holds another array than it was given
    (converters/written_params.py), for the caller's `written_back`."""

    __slots__ = ("names", "frame", "given")

    def __init__(self, names):
        self.names = names
        self.frame = None

    def __enter__(self):
        if _traces or staging.jax_tracing():
            self.frame = _sys._getframe(1)
            self.given = [self.frame.f_locals.get(n) for n in self.names]
            if _traces:
                staging.graph_tracer.params_entered(self.frame, self.given)

    def __exit__(self, kind, error, traceback):
        if self.frame is not None:
            now = self.frame.f_locals
            changes = [(n, g, now.get(n)) for n, g in zip(self.names, self.given)]
            if _traces:
                staging.graph_tracer.params_written(self.frame, changes if kind is None else [])
            elif kind is None:
                _jax_written(changes)
        self.frame = None


# id(given) -> (given, now): JAX arrays (of one or more dimensions: a 0-d one may be a NumPy
# scalar eagerly, which `+=` does not change) that a function wrote into, under a JAX trace.
_JAX_WRITTEN: dict = {}


def _jax_written(changes) -> None:
    if len(_JAX_WRITTEN) > 4096:
        _JAX_WRITTEN.clear()
    for _name, given, now in changes:
        if now is not given and getattr(given, "ndim", 0) > 0 and staging.jax_value(now):
            _JAX_WRITTEN[id(given)] = (given, now)


def written_back(value):
    """`a = ac.written_back(a)` after `f(a)`: what `a` holds now that `f` wrote into it in
    place (while a graph is traced, the new array `f` ended with), else `value` itself."""
    if _traces:
        return staging.graph_tracer.written_back(value)
    if _JAX_WRITTEN:
        entry = _JAX_WRITTEN.pop(id(value), None)
        if entry is not None and entry[0] is value:
            return entry[1]
    return value


def setitem_path(target, key, value):
    """`target[key] = value` with a constant int key in a staged branch or loop body, whose
    statement carries the item by its path (`x[0]`: an item of a list or of an array, which
    only the value tells): while a graph is traced, Python's statement as written on a list or
    NumPy array; otherwise `setitem` (a Tensor or a JAX array: the name gets a new one, which a
    JAX trace carries whole)."""
    if _traces and staging.tracer_for(target) is None:
        target[key] = value  # a list or a NumPy array: Python's statement
        return target
    return setitem(target, key, value)  # a Tensor, or a JAX array: the name gets a new one


CARRIED = object()
"""The value `set_state` gets for an item whose array the statement carried whole and has set
already (`trace.core.whole`): `store_item` leaves the array as it is."""


def store_item(target, key, value):
    """`set_state`'s write-back of an item with an int key carried by its path (`x[0]`). An
    array that cannot change (a JAX array, a Tensor) is carried whole and set already
    (`CARRIED`); anything else gets Python's statement."""
    if value is CARRIED:
        return target
    if (
        type(target) is list
        and (staging.is_undefined(value) or _traces and type(value) in staging.STORE_CHECKS)
        and not -len(target) <= key < len(target)
    ):
        # An item the list does not hold yet (`q[0]` of an empty queue), or set on the paths
        # where a staged loop appended it (the run-time list carries it).
        return target
    if _traces and staging.held_at(target, key):
        # A run-time list (`pts.sort()` in a staged loop) carries its items itself: a write of
        # one is staged on it (`setitem`), so the item's state is only held, not written.
        staging.hold_item(target, key, value)
        return target
    if not _traces and (staging.jax_value(target) or _jax_array(target)):
        return target
    check = staging.STORE_CHECKS.get(type(value))
    if check is not None:
        check(value)  # set on some paths only (`d[k] = v` in one branch): the keys would differ
    target[key] = value
    return target


def put_back(target, key, item) -> None:
    """`target[key] = item` after converted code changed `item`, read as `target[key]`, in
    place (`target[k][j] += 1`, converters/list_items.py): while a graph is traced, an item of
    a run-time list is written into it when the graph runs (the rebuilt item is a new object);
    a Python list's item is that object already."""
    if _traces and staging.held_at(target, key):
        from autoconv.trace.tensors.records import written_back

        staging.graph_tracer.setitem(target, key, item)
        written_back(item)


def list_item(target, key):
    """`target[key]` where converted code appends to `target`: while a graph is traced, an item
    of a list that a staged statement appended to is known only when the graph runs."""
    if _traces and type(target) is list:
        return staging.graph_tracer.list_item(target, key)
    if _sequence_at_jax_key(target, key):
        return staging.jax_ops().sequence_item(target, key)
    try:
        return target[key]
    except LookupError as e:
        e.as_written = True  # the user's own `target[key]`, read here for them (see raising)
        raise


def setitems_path(target, keys, values):
    """`target[k1], target[k2] = v1, v2` with int constant keys in a staged branch or loop body
    (see `setitem_path`), item by item."""
    for key, value in zip(keys, values):
        target = setitem_path(target, key, value)
    return target


def setitems(target, keys, values):
    """`target[k1], target[k2] = v1, v2` (a swap): the values are all read first, then the items
    are assigned left to right, as Python does; gives what the name holds afterwards."""
    for key, value in zip(keys, values):
        target = setitem(target, key, value)
    return target


def _jax_array(value) -> bool:
    """Whether `value` is a concrete JAX array while JAX traces (a constant the trace holds):
    it gets `.at[...]` too. Outside JAX traces such an array refuses `x[i] = v`, as eagerly."""
    jax = _modules.get("jax")
    return jax is not None and isinstance(value, jax.Array) and staging.jax_tracing()


def item(target, key):
    """`target[key]`, read for `target[key] op= value`: while a graph is traced, a symbolic
    key reads a NumPy array through the graph; under a JAX trace, a traced mask gives a
    stand-in for the items it selects (JAX cannot read them), which the operator and `setitem`
    turn into `jnp.where(mask, target op value, target)`."""
    if _traces:
        if type(target) in keyed.DICTS and keyed.stages(target, key):
            return keyed.item(target, key)  # `d[k] += v`, keys known only when the graph runs
        tracer = staging.tracer_for(target)
        if tracer is not None and type(target) is list:
            # `counts[-1] += 1` of a list a staged loop appends to
            return staging.graph_tracer.list_item(target, key)
        if tracer is None and staging.symbolic_key(key):
            return staging.graph_tracer.concrete_item(target, key)
    if staging.jax_value(key) and (staging.jax_value(target) or _jax_array(target)):
        return staging.jax_ops().masked_item(target, key)
    if _sequence_at_jax_key(target, key):
        return staging.jax_ops().sequence_item(target, key)
    if type(target) is dict and staging.jax_value(key):  # `d[key] += v`, `key` chosen under JAX
        return staging.jax_ops().keyed_item(target, key)
    return target[key]


def item_at(target, key):
    """`target[key]` read in a function with staged statements (converters/run_time_index.py):
    while a graph is traced, a key known only when it runs reads a NumPy array made outside the
    graph, a Python list, tuple or dict in the graph (`trace.tensors.switch.item_at`)."""
    if _traces:
        if type(target) is list and staging.grown_list(target):
            # a list a staged statement appended to (or a loop carries whole)
            return staging.graph_tracer.list_item(target, key)
        if type(target) in keyed.DICTS and keyed.stages(target, key):
            return keyed.item(target, key)  # `key=lambda k: d[k]` of a run-time dict's keys
        if staging.tracer_for(target) is None and _symbolic(key):
            if type(target) is str and type(key) is not slice:
                target = list(target)  # `"FDCBA"[i]`: one of its characters, as a list's item
            return staging.graph_tracer.item_at(target, key)
    if _sequence_at_jax_key(target, key):
        return staging.jax_ops().sequence_item(target, key)
    try:
        return target[key]
    except LookupError as e:
        e.as_written = True  # the user's own `target[key]`, read here for them (trace.raising)
        raise


def _symbolic(key) -> bool:
    """Whether a key (a tuple's items, a slice's bounds) holds a value known only when the
    graph runs."""
    if type(key) is tuple:
        return any(map(_symbolic, key))
    if type(key) is slice:
        return any(staging.tracer_for(v) is not None for v in (key.start, key.stop, key.step))
    return staging.tracer_for(key) is not None


class _Index:
    """`ac.index[key]` is `key`: a subscript's key, slices included, as a value."""

    __slots__ = ()

    def __getitem__(self, key):
        return key


index = _Index()


_OPS = {
    "+=": (_operator.iadd, _operator.add),
    "-=": (_operator.isub, _operator.sub),
    "*=": (_operator.imul, _operator.mul),
    "/=": (_operator.itruediv, _operator.truediv),
    "//=": (_operator.ifloordiv, _operator.floordiv),
    "%=": (_operator.imod, _operator.mod),
    "**=": (_operator.ipow, _operator.pow),
    "@=": (_operator.imatmul, _operator.matmul),
    "&=": (_operator.iand, _operator.and_),
    "|=": (_operator.ior, _operator.or_),
    "^=": (_operator.ixor, _operator.xor),
    "<<=": (_operator.ilshift, _operator.lshift),
    ">>=": (_operator.irshift, _operator.rshift),
}


def item_op(op: str, item, value):
    """`item op value` for `name[key] op value`: Python's in-place operator, as the statement
    runs it, except on a symbolic item (a view of an array), whose container gets the result
    as a new value (`setitem`) instead of being changed through the view."""
    inplace, plain = _OPS[op]
    if _traces and staging.tracer_for(item) is not None:
        if op != "@=" and len(getattr(item, "shape", ())) > 0:
            # Items changed in place (a row, a slice, a mask's selection; not one item, a
            # NumPy scalar there): NumPy refuses a result their dtype cannot hold, as eagerly.
            _cast_check(inplace, item.dtype, value)
        return plain(item, value)
    if _traces and type(item) is _np().ndarray and staging.tracer_for(value) is not None:
        # A row of a NumPy array made while tracing (`acc[i] += f`, `f` a Tensor): NumPy's
        # in-place ufunc cannot write a Tensor through the view, so the container gets the
        # result (`setitem`), after NumPy's casting check (`int_rows += 0.5` raises, as eagerly).
        if op != "@=":
            _cast_check(inplace, item.dtype, value)
        return plain(item, value)
    if staging.jax_value(item):  # JAX's items (or a mask's stand-in): NumPy's casting rule
        return staging.jax_ops().item_op(op, item, value)
    return inplace(item, value)


def _np():
    import numpy

    return numpy


def _cast_check(inplace, dtype, value) -> None:
    """Raises NumPy's casting error of `items op= value` for items of `dtype` (a Tensor
    `value`: a Python number of its kind where it stands for one)."""
    np = _np()
    if isinstance(value, (bool, int, float, complex)):
        probe_value = value
    elif getattr(value, "dtype", None) is None:
        return  # (a list or other operand: NumPy's own operator decides when the graph runs)
    elif getattr(value, "weak", False):  # a Python number known only when the graph runs
        kind = np.dtype(value.dtype).kind
        probe_value = {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}.get(kind, 0)
    else:
        probe_value = np.zeros((), np.dtype(value.dtype))
    with np.errstate(all="ignore"):
        inplace(np.zeros(1, dtype), probe_value)
