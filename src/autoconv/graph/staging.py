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

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph.errors import StagingError, where
from autoconv.graph.loop_test import reuse_first_test
from autoconv.graph.origin import user_origin
from autoconv.graph.staged_locals import StagedLocals
from autoconv.graph.tensor import PY_TYPES, Tensor, format_spec
from autoconv.runtime import staging as rt

_PY_NUMBERS = (bool, int, float, complex)


# --- values that cannot be used -------------------------------------------------------------


class Undefined:
    """A variable that has no value on some path (e.g. defined in one branch only). Any use of
    it raises a StagingError that explains why."""

    __slots__ = ("name", "message")

    def __init__(self, name, message):
        self.name = name
        self.message = message

    def __repr__(self):
        return f"<undefined {self.name}>"

    def _fail(self, *args, **kwargs):
        raise StagingError(self.message)

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        self._fail()

    __bool__ = __iter__ = __len__ = __call__ = __getitem__ = __array__ = _fail
    __index__ = __int__ = __float__ = _fail

    def __array_ufunc__(self, *args, **kwargs):
        self._fail()

    def __array_function__(self, *args, **kwargs):
        self._fail()


def _install_poison():
    for name in (
        "add sub mul truediv floordiv mod pow matmul and or xor lshift rshift "
        "radd rsub rmul rtruediv rfloordiv rmod rpow rmatmul rand ror rxor "
        "lt le gt ge eq ne neg pos abs invert"
    ).split():
        setattr(Undefined, f"__{name}__", Undefined._fail)
    Undefined.__hash__ = object.__hash__


_install_poison()


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

    def __array_ufunc__(self, *args, **kwargs):
        self._fail()

    def __array_function__(self, func, types, args, kwargs):
        if func in (np.stack, np.concatenate, np.vstack, np.hstack):
            return _stack_lists(func, args, kwargs)
        self._fail()


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
    from autoconv.graph.numpy_dispatch import _one, emit

    arrays, *rest = args
    p = dict(kwargs)
    axis = rest[0] if rest else p.get("axis", 0)
    template = [a.tensor if isinstance(a, ListAccum) else a for a in arrays]
    elems = [a.tensor.shape[1:] if isinstance(a, ListAccum) else shapes.shape_of(a) for a in arrays]
    dtype = np.result_type(
        *[a.tensor.dtype if isinstance(a, ListAccum) else shapes.result_dtype(a) for a in arrays]
    )
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
    if func is np.stack:
        axis = shapes.norm_axis(axis, ndim + 1)
        shape = merged[:axis] + [None] + merged[axis:]
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


def _bind_stack(func):
    made = _STACKERS.get(func)
    if made is None:

        def made(arrays, *args, **kwargs):
            return func(_expand(arrays), *args, **kwargs)

        made.__name__ = f"{func.__name__}_lists"
        _STACKERS[func] = made
    return made


def check_output(value, path="output"):
    """Raises if a function's outputs hold something a graph cannot return."""
    if isinstance(value, Undefined):
        value._fail()
    if rt.is_undefined(value):
        raise StagingError(
            f"the returned value `{value.name}` is not defined on every path through the function"
        )
    if isinstance(value, ListAccum):
        raise StagingError(
            "a function returns a list that a staged loop appended to; its length is only known "
            "when the graph runs. Return np.stack(lst) (or np.concatenate(lst)) instead."
        )
    if isinstance(value, (tuple, list)):
        for v in value:
            check_output(v, path)
    elif isinstance(value, dict):
        for v in value.values():
            check_output(v, path)


# --- leaves ---------------------------------------------------------------------------------


def _struct(value, leaves):
    t = type(value)
    if t is tuple or t is list:
        return (t, tuple(_struct(v, leaves) for v in value))
    if t is dict:
        return ("D", tuple((k, _struct(v, leaves)) for k, v in value.items()))
    if isinstance(value, tuple) and hasattr(t, "_fields"):
        return (t, tuple(_struct(v, leaves) for v in value))
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


def _join(a, b, fail) -> tuple:
    """The spec covering a value of spec `a` on one path and `b` on another. Python numbers
    stay Python numbers (the wider kind); next to an array they take its dtype, as NumPy's
    weak-scalar rule would; different sizes become None."""
    (sa, da, wa), (sb, db, wb) = a, b
    if wa and wb:
        dtype = np.result_type(da, db)
    elif wa or wb:
        strong, weak = (db, da) if wa else (da, db)
        if np.result_type(strong, shapes._PY_STANDIN[weak.kind]) != strong:
            fail("dtype")
        dtype = strong
    else:
        if da != db:
            fail("dtype")
        dtype = da
    if len(sa) != len(sb):
        fail("number of dimensions")
    return (shapes.generalize(sa, sb), dtype, wa and wb)


def _spec_text(v) -> str:
    if isinstance(v, Tensor):
        return format_spec(v.shape, v.dtype, v.weak)
    if isinstance(v, (np.ndarray, np.generic)):
        return format_spec(np.shape(v), v.dtype)
    if rt.is_undefined(v) or isinstance(v, Undefined):
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
        value = array[()] if array.ndim == 0 else array
        spec = (array.shape, array.dtype)
    node = _g.Node("const", "const", attrs={"value": value, "owned": owned})
    _g.add_node(node, [spec])
    return node.outputs[0]


def _cast(value, to):
    from autoconv.graph.numpy_dispatch import emit

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


def _cond_tensor(cond, origin):
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


def _appended(lst, before):
    """Items appended to `lst` since `before` (a copy), or None if it changed otherwise."""
    if len(lst) < len(before) or any(a is not b for a, b in zip(lst, before)):
        return None
    return lst[len(before) :]


# --- the backend --------------------------------------------------------------------------


class Backend:
    """Implements `autoconv.runtime.staging`'s backend protocol for Tensors."""

    # if / conditional expressions ----------------------------------------------------------
    def if_stmt(self, cond, body, orelse, get_state, set_state, names):
        origin = user_origin(2)
        cond = _cond_tensor(cond, origin)
        names = tuple(names or ())
        init = rt.read_state(get_state, names) if names else ()
        snap = _snapshot(_closure_lists(body, orelse, get_state))
        branch_locals = StagedLocals((body, orelse))
        results = []
        blocks = []
        for fn in (body, orelse):
            branch_locals.start()  # each branch from the state before the `if`
            if names:
                set_state(init)
            with _g.sub_block() as block:
                if fn is not None:
                    fn()
                values = rt.read_state(get_state, names) if names else ()
            lists = [(lst, name, _appended(lst, before), before) for lst, name, before in snap]
            _restore(snap)
            results.append((values, lists))
            blocks.append(block)
        merger = _Merger(("if", "else"), blocks, origin, "`if`")
        merged = [
            merger.merge(name, init[i], results[0][0][i], results[1][0][i])
            for i, name in enumerate(names)
        ]
        list_results = merger.merge_lists(results[0][1], results[1][1])
        merger.finish(cond)
        final = [merger.resolve(m) for m in merged]
        branch_locals.finish()
        if names:
            set_state(tuple(final))
        merger.resolve_lists(list_results)

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
        return np.logical_not(value)

    # loops --------------------------------------------------------------------------------
    def while_stmt(self, test, body, get_state, set_state, names, first_cond=None):
        _Loop(
            test, body, get_state, set_state, tuple(names or ()), user_origin(2), "`while` loop"
        ).run()
        # The test already ran once, before the loop: its effects must not run twice.
        reuse_first_test(_g.current().block, first_cond)

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

    def range(self, *args):
        return StagedRange(*args)

    def enumerate(self, iterable, start=0):
        return StagedEnumerate(iterable, start)

    def zip(self, *iterables, **kwargs):
        if kwargs.get("strict"):
            shapes.fail("zip(..., strict=True) over Tensors is not supported; drop strict=True")
        return StagedZip(*iterables)


_LOOPS: list = []  # snapshots of the lists seen by the loops being traced, innermost last


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
        a_undef = rt.is_undefined(a) or isinstance(a, Undefined)
        b_undef = rt.is_undefined(b) or isinstance(b, Undefined)
        if a_undef or b_undef:
            if a_undef and b_undef:
                return ("same", a)
            defined, missing = (
                (self.labels[1], self.labels[0]) if a_undef else (self.labels[0], self.labels[1])
            )
            message = (
                f"{where(self.origin)}: `{name}` is defined in the {defined} branch of this "
                f"{self.what} but not in the {missing} branch, and it is used after it. Give it "
                f"a value before the {self.what} or in the {missing} branch too."
            )
            return ("same", Undefined(name, message))
        sa, la, sb, lb = None, [], None, []
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
        if x is None and _numeric(y) or y is None and _numeric(x):
            # `retval` starts as None and is set on some paths only: a zero stands in on the
            # others (the converter's `do_return` flag guarantees it is never returned there).
            other = y if x is None else x
            shape = tuple(0 if d is None else d for d in shapes.shape_of(other))
            zero = np.zeros(shape, shapes.result_dtype(other))
            x, y = (zero, y) if x is None else (x, zero)
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

        def fail(kind):
            self._error(
                f"`{name}` is {_spec_text(x)} in the {self.labels[0]} branch but {_spec_text(y)} "
                f"in the {self.labels[1]} branch of this {self.what}: the branches must agree in "
                f"{kind}. Cast one of them (e.g. .astype(...)) so both give the same {kind}."
            )

        self.pairs.append((x, y, _join(_spec(x), _spec(y), fail)))
        return ("pair", len(self.pairs) - 1)

    def merge_lists(self, a_lists, b_lists):
        out = []
        for (lst, name, added_a, before), (_, _, added_b, _) in zip(a_lists, b_lists):
            if added_a == [] and added_b == []:
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
                    with _g.build(block_graph(marker.tensor), block):
                        accs.append(
                            _append(marker.tensor, added, name, self.origin)
                            if added
                            else marker.tensor
                        )
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
                    self._leaf(f"{name}[{len(before) + k}]", x, y)
                    for k, (x, y) in enumerate(zip(added_a, added_b))
                ]
                out.append((lst, before, "items", items))
            else:
                self._error(
                    f"list `{name}` gets {len(added_a)} item(s) appended in the "
                    f"{self.labels[0]} branch and {len(added_b)} in the {self.labels[1]} branch "
                    f"of this {self.what}. Outside a staged loop its length must be known while "
                    "tracing: append the same number of items in both branches."
                )
        return out

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
                lst[:] = [*prefix, *(self._resolve_leaf(leaf) for leaf in data)]


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
        init = self._read()
        structs, init_leaves = [], []
        for v in init:
            leaves = []
            structs.append(_struct(v, leaves))
            init_leaves.append(leaves)
        # carried[(i, j)] = (shape, dtype): the loop variables, by variable and leaf
        carried: dict = {}
        for i, leaves in enumerate(init_leaves):
            for j, v in enumerate(leaves):
                if isinstance(v, Tensor) or (self.carry_last and i == len(init) - 1):
                    carried[(i, j)] = _spec(v)
        snap = _snapshot(_closure_lists(self.body, self.test, self.get_state, *self.fns))
        accums: dict = {}  # index in snap -> [elem shape, dtype, initial acc tensor or None]
        body_locals = StagedLocals((self.test, self.body, *self.fns))
        for _attempt in range(8):
            body_locals.start()  # each attempt from the state before the loop
            state_in, params, acc_params = self._inputs(
                graph, init, structs, init_leaves, carried, snap, accums
            )
            self.set_state(tuple(state_in)) if self.names else None
            with _g.sub_block() as cond_block:
                cond = self.test()
            cond_block.outputs = [cond]
            _LOOPS.append(snap)
            try:
                with _g.sub_block() as body_block:
                    stop = self.body()
                    out = self._read()
                    appended = self._appended_lists(snap, accums)
            except _NeedsAccumulator as e:
                k = next((k for k, (lst, _, _) in enumerate(snap) if lst is e.lst), None)
                if k is None or k in accums:
                    raise
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

    def _appended_lists(self, snap, accums):
        """Per list: the items the body appended (None if changed otherwise); for accumulated
        lists `(acc, items)`: the run-time list after the body (a cond may have replaced it)
        and the items appended after that."""
        out = []
        for k, (lst, _, before) in enumerate(snap):
            if k not in accums:
                out.append(_appended(lst, before))
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
                    params[(i, j)] = _param(graph, carried[(i, j)], self.names[i])
                    leaves[j] = params[(i, j)]
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
            if rt.is_undefined(o) or isinstance(o, Undefined):
                continue  # only assigned on some paths of the body: not carried
            leaves = []
            struct = _struct(o, leaves)
            undefined_before = (
                rt.is_undefined(init[i])
                or isinstance(init[i], Undefined)  # defined on one path of an earlier `if`
                or (init[i] is None and struct == "*" and _numeric(o))
            )
            if struct != structs[i] or undefined_before:
                if undefined_before and not any(k[0] == i for k in carried):
                    # Defined by the body (or None before it): carried from a placeholder zero.
                    structs[i] = struct
                    init_leaves[i] = [None] * len(leaves)
                    for j, v in enumerate(leaves):
                        if not _numeric(v):
                            self._error(
                                f"`{name}` is first given a value inside this {self.what}, and it "
                                f"is {_spec_text(v)}; only arrays and numbers can be staged loop "
                                "variables"
                            )
                        carried[(i, j)] = _spec(v)
                    changed = True
                    continue
                if struct != structs[i]:
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
                    self._error(
                        f"`{name}` is {format_spec(*start)} before an iteration of this "
                        f"{self.what} but {_spec_text(v)} after it: its {kind} must stay the "
                        "same. Give it the loop's dtype before the loop (e.g. np.float32(0)) "
                        "or cast it in the body (.astype(...))."
                    )

                new = _join(start, _spec(v), fail)
                if key not in carried or new != carried[key]:
                    carried[key] = new
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
            if v is None or rt.is_undefined(v) or isinstance(v, Undefined):
                v = np.zeros(tuple(0 if d is None else d for d in shape), dtype)
            inits.append(_as_tensor(v, carried[key]))
        acc_keys = sorted(accums)
        for k in acc_keys:
            outer = accums[k][2]
            if outer is not None:
                inits.append(outer.tensor)
            else:
                node = _g.Node("list_new", "list")
                _g.add_node(node, [((None, *accums[k][0]), accums[k][1], False)], self.origin)
                inits.append(node.outputs[0])
        # Loop outputs, in the body block.
        outs = []
        with _g.build(graph, body_block):
            for key in keys:
                i, j = key
                leaves = []
                _struct(out[i], leaves)
                value = leaves[j] if j < len(leaves) else params[key]
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
                if (i, j) in results:
                    leaves[j] = results[(i, j)]
            final.append(_rebuild(structs[i], leaves))
        if self.names:
            self.set_state(tuple(final))
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
        if isinstance(self.step, int) and self.step == 1:
            return i + self.start if not (isinstance(self.start, int) and self.start == 0) else i
        return self.start + i * self.step

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
    if isinstance(iterable, (list, tuple, np.ndarray)) and not _g.tensors_in(iterable):
        return _TensorSource(_const(np.asarray(iterable), np.asarray(iterable).dtype))
    raise StagingError(
        f"{where(origin or user_origin(2))}: cannot stage iteration over {type(iterable).__name__} "
        "together with Tensors; use Tensors, NumPy arrays or staged range()s."
    )


BACKEND = Backend()
rt.register((Tensor, StagedRange, StagedEnumerate, StagedZip), BACKEND)
