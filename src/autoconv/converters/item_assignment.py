"""Item assignment to a local name, as a statement that rebinds the name, so that a graph can
give it a new array:

    out[i] = x[i] * 2     ->  out = ac.setitem(out, i, x[i] * 2)
    grid[1:, j] = 0       ->  grid = ac.setitem(grid, ac.index[1:, j], 0)
    h[k] += 1             ->  h = ac.setitem(h, k, ac.item_op('+=', ac.item(h, k), 1))
    x[x < 0] *= -1        ->  x = ac.setitem(x, x < 0, ac.item_op('*=', ac.item(x, x < 0), -1))

On Python values and concrete arrays `ac.setitem` stores in place and returns the same object,
so the rebinding changes nothing. While a graph is traced and a Tensor is involved it returns a
copy with the item set, which is what eager code sees when no other name, view or caller shares
the array (`graph.mutation.assign_item` checks that, and raises a clear error otherwise). Loops
and branches then carry the name like any other variable.

Python evaluates the value before the container and the key; the call evaluates them after.
So keys that nothing can change go into the call as they are: names, constants, slices,
arithmetic and comparisons of them, and items read from names where the value calls nothing.
Another key is bound to a new name first, after the value, which is Python's order:

    a[f(i)] = g(x)        ->  value = g(x); key = f(i); a = ac.setitem(a, key, value)

Assignments to globals, attributes or several targets stay as they are; so does an item with a
string key inside a branch or loop (`d["n"] += 1`), which the control-flow converter carries as
state by its path. One with an int key there (`acc[0] += v`: a list's item or an array's) is
carried by its path too, and assigned through `ac.setitem_path`, which gives a JAX array a new
one (`trace.jax.state.read_state` carries it whole) and runs the statement as written on
anything else. An augmented assignment with a key that is not a constant reads the item through
the runtime (`ac.item(name, key)`): while a graph is traced, a symbolic key reads a NumPy array
made outside the graph through the graph.
"""

import gast

from autoconv.converters import expressions, keyed, views, written_params
from autoconv.pyct import anno, templates
from autoconv.pyct.transformer import Transformer

_BODIES = ("body", "orelse", "finalbody")
_STABLE = (
    gast.Name,
    gast.Constant,
    gast.Slice,
    gast.Tuple,
    gast.BinOp,
    gast.UnaryOp,
    gast.Compare,  # a mask: `x[x < 0] = 0`
    gast.expr_context,
    gast.operator,
    gast.unaryop,
    gast.cmpop,
)


def transform(function_node, ctx) -> None:
    names = ctx.local_names - ctx.globals - ctx.nonlocals
    # An enclosing function's variable whose items this function writes (`seen[i] = True` in a
    # nested helper) is rebound as a local is, through its cell: declared `nonlocal`, so the
    # enclosing function reads the graph's new array there (a list stays the same object).
    cells = _item_written(function_node) & (ctx.closure | ctx.nonlocals)
    ctx.nonlocals |= cells
    names |= cells
    arrays = _numpy_arrays(function_node, names) | (cells & ctx.closure_arrays)
    # (a Counter's or defaultdict's item is never carried by its path either: `c["big"] += 1`
    # in a staged branch rebinds `c`, whose run-time keys hold it where the branch ran)
    arrays |= keyed.tally_names(function_node) & names
    written = written_params.find(function_node, names)
    own = written_params.own_arrays(function_node, names, _makes_array)
    through = views.find(function_node, names)
    if through:
        keys = {row: ctx.namer.new(f"{row}_at") for row in through}
        ctx.flags.update(keys.values())
        views.rewrite_reads(function_node.body, through, keys, ctx.ac)
        through = {row: (base, keys[row]) for row, base in through.items()}
    written_params.mark_views(function_node, ctx.ac, names)
    _block(function_node.body, ctx.ac, names, False, arrays, ctx.namer, through)
    written_params.rebind_after_calls(function_node, ctx.ac, (own | written) & names)
    if written:
        anno.set(function_node, written_params.WRITTEN, tuple(sorted(written)))


def _item_written(function_node) -> set:
    """The names the function's own statements write an item of (`a[k] = v`, `a[k] += v`)."""
    found = set()
    for node in written_params.own_nodes(function_node.body):
        if isinstance(node, (gast.Assign, gast.AugAssign)):
            for target in [node.target] if isinstance(node, gast.AugAssign) else node.targets:
                if isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name):
                    found.add(target.value.id)
    return found


_NUMPY = ("np", "numpy", "jnp")  # jax.numpy as users import it: arrays too
_ARRAY_METHODS = ("copy", "astype", "reshape")


def _numpy_arrays(function_node, names, keeps=None) -> set:
    """The local names only ever bound to a NumPy (or `jnp`) call or an array method's result
    (`out = np.zeros(3)`, `b = a.copy()`) and augmented in place: arrays, never dicts or lists,
    so an item with a constant key (`out[0] = v`) is rebound like any other item, not carried
    by its path (a NumPy array cannot hold a Tensor). `keeps(value)`: an assignment that
    keeps what the name holds, which does not count as another binding."""
    arrays, other, seen = set(), set(), set()
    # (the function's own statements: a function it defines binds names of its own)
    for node in written_params.own_nodes(function_node.body):
        if isinstance(node, gast.Assign):
            if len(node.targets) == 1 and isinstance(node.targets[0], gast.Name):
                seen.add(id(node.targets[0]))
                if _makes_array(node.value):
                    arrays.add(node.targets[0].id)
                elif keeps is None or not keeps(node.value):
                    other.add(node.targets[0].id)
        elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
            seen.add(id(node.target))
        elif isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Param)):
            if id(node) not in seen:
                other.add(node.id)
    if function_node.args is not None:
        for arg in gast.walk(function_node.args):
            if isinstance(arg, gast.Name):
                other.add(arg.id)
    return (arrays - other) & names


def _makes_array(value) -> bool:
    if not isinstance(value, gast.Call) or not isinstance(value.func, gast.Attribute):
        return False
    owner = value.func.value
    while isinstance(owner, gast.Attribute):  # np.random.default_rng(...) is no array: no
        owner = owner.value  # matter, it has no items to assign
    if isinstance(owner, gast.Name) and owner.id in _NUMPY:
        return True
    return value.func.attr in _ARRAY_METHODS


def _block(stmts, ac, names, in_control_flow, arrays=frozenset(), namer=None, through=None):
    out = []
    for stmt in stmts:
        out.append(stmt)
        if isinstance(stmt, (gast.Assign, gast.AugAssign)):
            new = _rebinding(stmt, ac, names, in_control_flow, arrays, through)
            if new is stmt and namer is not None:
                new = _hoisted(stmt, ac, names, in_control_flow, arrays, namer, through)
            out[-1:] = new if isinstance(new, list) else [new]
        elif not isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            inner_flow = in_control_flow or isinstance(stmt, (gast.If, gast.For, gast.While))
            for field in _BODIES:
                inner = getattr(stmt, field, None)
                if isinstance(inner, list):
                    _block(inner, ac, names, inner_flow, arrays, namer, through)
            for clause in getattr(stmt, "handlers", None) or getattr(stmt, "cases", None) or ():
                _block(clause.body, ac, names, inner_flow, arrays, namer, through)
    stmts[:] = out


def _rebinding(stmt, ac, names, in_control_flow, arrays, through=None):
    targets = [stmt.target] if isinstance(stmt, gast.AugAssign) else stmt.targets
    if len(targets) != 1:
        return stmt
    (target,) = targets
    if isinstance(target, (gast.Tuple, gast.List)):
        return _swap(stmt, target, ac, names, in_control_flow, arrays)
    if _attribute_item(target, stmt, names, in_control_flow):
        return _attribute_rebinding(stmt, target, ac)
    if _held_item(target, stmt, names):
        return _held_rebinding(stmt, target, ac, names, in_control_flow, arrays, through)
    if (
        isinstance(target, gast.Subscript)
        and isinstance(target.value, gast.Name)
        and target.value.id not in names
        and all(isinstance(n, _STABLE) or _read(n, stmt.value) for n in gast.walk(target.slice))
        and not expressions.binds_or_suspends(stmt.value)
    ):
        # `parent[x] = v` of an enclosing function's list (or a global): changed in place,
        # which this function cannot rebind (`ac.setitem_in_place`).
        if isinstance(stmt, gast.AugAssign):
            stmt.value = _ItemReads(target.value.id, ac).visit(stmt.value)
        key, value = _stored(stmt, _load(target.value.id), target.slice, ac)
        call = templates.expr("ac.setitem_in_place(name, key, value)", ac=ac, key=key, value=value)
        call.args[0] = _load(target.value.id)
        return expressions.located(gast.Expr(value=call), stmt)
    if not (
        isinstance(target, gast.Subscript)
        and isinstance(target.value, gast.Name)
        and target.value.id in names
        and all(isinstance(n, _STABLE) or _read(n, stmt.value) for n in gast.walk(target.slice))
        and not expressions.binds_or_suspends(stmt.value)
    ):
        return stmt
    key = target.slice
    if through and target.value.id in through:
        # `row[j] = v` where `row = out[i]`: `out` is written too (converters/views)
        name = target.value.id
        if isinstance(stmt, gast.AugAssign):
            stmt.value = _ItemReads(name, ac).visit(stmt.value)
        key, value = _stored(stmt, _load(name), key, ac)
        return views.write(stmt, name, *through[name], key, value, ac)
    path = None
    if in_control_flow and isinstance(key, gast.Constant) and target.value.id not in arrays:
        if type(key.value) is not int:
            # `d["n"] = v` in a branch or loop: the item itself is state, by its path (see
            # control_flow), which carries it in the dict.
            return stmt
        # `x[0] = v`: an item of a list or of an array, which only the value tells. The name
        # is rebound (`ac.setitem_path`: a JAX array gets a new one, anything else is changed
        # as written) and the item is state by its path too (`ITEM_PATH`; control_flow).
        path = f"{target.value.id}[{key.value!r}]"
    name = target.value.id
    if isinstance(stmt, gast.AugAssign):
        stmt.value = _ItemReads(name, ac).visit(stmt.value)
    key, value = _stored(stmt, _load(name), key, ac)
    op = "setitem" if path is None else "setitem_path"
    call = templates.expr(f"ac.{op}(name, key, value)", ac=ac, key=key, value=value)
    return _rebound(name, call, stmt, path)


def _rebound(name, call, stmt, path):
    """`name = call(name, ...)` in place of `stmt` (`path`: the item path it carries)."""
    call.args[0] = _load(name)
    out = gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)
    node = expressions.located(gast.Assign(targets=[out], value=call, type_comment=None), stmt)
    if path is not None:
        anno.set(node, ITEM_PATH, path)
    return node


def _stored(stmt, owner, key, ac):
    """`(key, value)` of `owner[key] = value` or `owner[key] op= value`: for `op=`, the item
    read, then the value (the key twice, harmlessly: it is made of names and constants); a
    slice in the key as `ac.index[key]`."""
    value = stmt.value
    if isinstance(stmt, gast.AugAssign):
        item = gast.Subscript(value=_copy(owner), slice=_copy(key), ctx=gast.Load())
        if not isinstance(key, gast.Constant) and not any(
            isinstance(n, gast.Slice) for n in gast.walk(key)
        ):
            # The runtime reads the item (`ac.item`): a key known only when a graph runs can
            # read a NumPy array made outside the graph (`h[b] += 1`), and JAX cannot read the
            # items a traced mask selects (`x[x < 0] *= -1`), which it stands in for.
            item = templates.expr("ac.item(obj, key)", ac=ac, obj=_copy(owner), key=_copy(key))
        op = _OP_TEXT[type(stmt.op)]
        value = templates.expr(f"ac.item_op({op!r}, item, value)", ac=ac, item=item, value=value)
    if any(isinstance(n, gast.Slice) for n in gast.walk(key)):
        key = templates.expr("ac.index[key]", ac=ac, key=key)
    return key, value


def _attribute_item(target, stmt, names, in_control_flow) -> bool:
    """`self.stock[item] -= qty`: an item of an attribute of a local name (`self`), with a key
    and an owner that nothing in the value can change. A constant key in a branch or loop is
    carried by its path instead (see `_rebinding`)."""
    if not (isinstance(target, gast.Subscript) and isinstance(target.value, gast.Attribute)):
        return False
    owner = target.value.value
    while isinstance(owner, gast.Attribute):
        owner = owner.value
    return (
        isinstance(owner, gast.Name)
        and owner.id in names
        and not (in_control_flow and isinstance(target.slice, gast.Constant))
        and all(isinstance(n, _STABLE) or _read(n, stmt.value) for n in gast.walk(target.slice))
        and not expressions.binds_or_suspends(stmt.value)
    )


def _held_item(target, stmt, names) -> bool:
    """`params["w"][i] -= g`, `bufs[0][i] = v`: an item of what a local name holds at a
    constant key (an array in a dict or list), with a key nothing in the value can change and
    that is not a constant (`groups[-1]["n"] += 1`, `merged[-1][1] = e`: a record's field of a
    grown list, which the list's own mechanisms write)."""
    if not (isinstance(target, gast.Subscript) and isinstance(target.value, gast.Subscript)):
        return False
    holder = target.value
    at = holder.slice
    return (
        isinstance(holder.value, gast.Name)
        and holder.value.id in names
        and (_int_key(at) is not None or isinstance(at, gast.Constant) and type(at.value) is str)
        and _int_key(target.slice) is None
        and not isinstance(target.slice, gast.Constant)
        and all(isinstance(n, _STABLE) or _read(n, stmt.value) for n in gast.walk(target.slice))
        and not expressions.binds_or_suspends(stmt.value)
    )


def _held_rebinding(stmt, target, ac, names, in_control_flow, arrays, through):
    """`d["w"][i] = v` -> `d["w"] = ac.setitem_in(d, "w", i, v)`: the array's new value (a
    graph's) is stored back where it is held, an assignment of an item of `d` at a constant
    key, which branches and loops carry by its path (see `_rebinding`)."""
    holder = target.value
    key, value = _stored(stmt, holder, target.slice, ac)
    call = templates.expr(
        "ac.setitem_in(owner, at, key, value)",
        ac=ac,
        owner=_load(holder.value.id),
        at=_copy(holder.slice),
        key=key,
        value=value,
    )
    outer = gast.Subscript(
        value=_load(holder.value.id), slice=_copy(holder.slice), ctx=gast.Store()
    )
    node = expressions.located(gast.Assign(targets=[outer], value=call, type_comment=None), stmt)
    return _rebinding(node, ac, names, in_control_flow, arrays, through)


def _attribute_rebinding(stmt, target, ac):
    """`obj.attr[key] = value` -> `ac.setitem_attr(obj, 'attr', key, value)`: where a graph
    gives the array a new value, the attribute is set to it (hidden state then carries it
    through staged statements, trace.core.hidden); lists, dicts and concrete arrays are
    written as Python does."""
    attribute = target.value
    key, value = _stored(stmt, attribute, target.slice, ac)
    call = templates.expr(
        f"ac.setitem_attr(owner, {attribute.attr!r}, key, value)",
        ac=ac,
        owner=_copy(attribute.value),
        key=key,
        value=value,
    )
    return expressions.located(gast.Expr(value=call), stmt)


# The `x[0]` that `x = ac.setitem_path(x, 0, v)` assigns (a tuple of them for a swap,
# `x = ac.setitems_path(x, (0, 1), (v, w))`).
ITEM_PATH = "item_path"


def _hoisted(stmt, ac, names, in_control_flow, arrays, namer, through=None):
    """`x[K] = V` or `x[K] op= V` (`x` a local name or an attribute of one) with a key that
    calls something or reads an attribute (`x[x.shape[0] - 1] = 0`, `x[np.array([1, 2])] += 3`,
    `self.buf[self.pos] = v`): the value (for `=`) and the key
    are bound to new names first, in Python's order, then the item is assigned through them
    (`_rebinding`). `stmt` itself when it is no such statement."""
    targets = [stmt.target] if isinstance(stmt, gast.AugAssign) else stmt.targets
    if len(targets) != 1:
        return stmt
    (target,) = targets
    if not (
        isinstance(target, gast.Subscript)
        and _local_root(target.value, names)
        and not expressions.binds_or_suspends(stmt.value)
        and not expressions.binds_or_suspends(target.slice)
        and not all(isinstance(n, _STABLE) for n in gast.walk(target.slice))
    ):
        return stmt  # a stable key that `_rebinding` left as written stays so
    out = []
    value = stmt.value
    if isinstance(stmt, gast.Assign) and not isinstance(value, gast.Constant):
        # Python evaluates the value first, then the key.
        value_name = namer.new("value")
        out.append(_bind(value_name, value, stmt))
        value = _load(value_name)
    key = target.slice
    if any(isinstance(n, gast.Slice) for n in gast.walk(key)):
        key = templates.expr("ac.index[key]", ac=ac, key=key)
    key_name = namer.new("key")
    out.append(_bind(key_name, key, stmt))
    item = gast.Subscript(value=_copy(target.value), slice=_load(key_name), ctx=gast.Store())
    if isinstance(stmt, gast.AugAssign):
        inner = gast.AugAssign(target=item, op=stmt.op, value=value)
    else:
        inner = gast.Assign(targets=[item], value=value, type_comment=None)
    inner = expressions.located(inner, stmt)
    out.append(_rebinding(inner, ac, names, in_control_flow, arrays, through))
    return out


def _local_root(node, names) -> bool:
    """`a` or `a.b.c` with `a` a local name (`self.buf[self.pos] = v`: an attribute's item)."""
    while isinstance(node, gast.Attribute):
        node = node.value
    return isinstance(node, gast.Name) and node.id in names


class _ItemReads(Transformer):
    """`name[key]` reads in the value of `name[key] op= value` (`Q[a] += (r - Q[a]) / N[a]`) go
    through `ac.item`, as the item the statement updates does: a key known only when a graph
    runs reads a NumPy array made outside the graph, which the write then replaces."""

    def __init__(self, name, ac):
        super().__init__()
        self.name, self.ac = name, ac

    def visit_Subscript(self, node):
        self.generic_visit(node)
        key = node.slice
        if (
            isinstance(node.ctx, gast.Load)
            and isinstance(node.value, gast.Name)
            and node.value.id == self.name
            and not isinstance(key, gast.Constant)
            and not any(isinstance(n, gast.Slice) for n in gast.walk(key))
        ):
            call = templates.expr("ac.item(name, key)", ac=self.ac, name=_load(self.name), key=key)
            return expressions.located(call, node)
        return node

    def visit_Lambda(self, node):
        return node  # its own scope


def _bind(name, value, origin):
    out = gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)
    return expressions.located(gast.Assign(targets=[out], value=value, type_comment=None), origin)


def _read(node, value) -> bool:
    """An item read in a key (`counts[labels[i]] += 1`): stable when the value calls nothing
    (a call could change `labels` before Python reads the key)."""
    return isinstance(node, gast.Subscript) and not any(
        isinstance(n, gast.Call) for n in gast.walk(value)
    )


# Built-ins that a key may call and stay the same through the items a swap assigns before it
# (`b[0], b[i % len(b)] = ...`: item writes change no length).
_KEY_CALLS = frozenset(("len", "abs", "int", "min", "max"))


def _stable(key) -> bool:
    return all(
        isinstance(n, _STABLE)
        or isinstance(n, gast.Call)
        and isinstance(n.func, gast.Name)
        and n.func.id in _KEY_CALLS
        and not n.keywords
        for n in gast.walk(key)
    )


def _swap(stmt, target, ac, names, in_control_flow, arrays):
    """`a[i], a[j] = a[j], a[i]`: items of one local name, from a display of as many values,
    become `a = ac.setitems(a, (i, j), (a[j], a[i]))` (values first, then the items left to
    right, as Python assigns them)."""
    items = target.elts
    value = stmt.value
    if items and all(_attribute_item(t, stmt, names, in_control_flow) for t in items):
        return _attribute_swap(stmt, items, ac)
    if not (
        len(items) > 1
        and isinstance(value, (gast.Tuple, gast.List))
        and len(value.elts) == len(items)
        and not any(isinstance(v, gast.Starred) for v in value.elts)
        and all(isinstance(t, gast.Subscript) and isinstance(t.value, gast.Name) for t in items)
        and len({t.value.id for t in items}) == 1
        and items[0].value.id in names
        and all(_stable(t.slice) for t in items)
        and not expressions.binds_or_suspends(value)
    ):
        return stmt
    name = items[0].value.id
    paths = None
    if (
        in_control_flow
        and name not in arrays
        and any(isinstance(t.slice, gast.Constant) for t in items)
    ):
        # Items with constant keys are carried by their paths (see `_rebinding`): an int key's
        # as `ac.setitem_path` carries it (a swap `b[0], b[1] = b[1], b[0]`); others as written.
        ints = [_int_key(t.slice) for t in items]
        if None in ints:
            return stmt
        paths = tuple(dict.fromkeys(f"{name}[{k!r}]" for k in ints))
    keys = _keys_of(items, ac)
    key_tuple = gast.Tuple(elts=keys, ctx=gast.Load())
    value_tuple = gast.Tuple(elts=list(value.elts), ctx=gast.Load())
    op = "setitems" if paths is None else "setitems_path"
    call = templates.expr(f"ac.{op}(name, keys, values)", ac=ac, keys=key_tuple, values=value_tuple)
    return _rebound(name, call, stmt, paths)


def _keys_of(items, ac) -> list:
    """The keys of subscripts `items`, a slice as `ac.index[...]`."""
    keys = []
    for t in items:
        key = t.slice
        if any(isinstance(n, gast.Slice) for n in gast.walk(key)):
            key = templates.expr("ac.index[key]", ac=ac, key=key)
        keys.append(key)
    return keys


def _attribute_swap(stmt, items, ac):
    """`self.data[p], self.data[i] = self.data[i], self.data[p]`: items of one attribute of a
    local name, from a display of as many values, become `ac.setitems_attr(self, 'data', (p,
    i), (...))`: the values first, then each item as `setitem_attr` assigns it."""
    value = stmt.value
    owners = {gast.dump(t.value) for t in items}
    if not (
        len(items) > 1
        and len(owners) == 1
        and isinstance(value, (gast.Tuple, gast.List))
        and len(value.elts) == len(items)
        and not any(isinstance(v, gast.Starred) for v in value.elts)
        and all(_stable(t.slice) for t in items)
        and not expressions.binds_or_suspends(value)
    ):
        return stmt
    keys = _keys_of(items, ac)
    attribute = items[0].value
    call = templates.expr(
        f"ac.setitems_attr(owner, {attribute.attr!r}, keys, values)",
        ac=ac,
        owner=_copy(attribute.value),
        keys=gast.Tuple(elts=keys, ctx=gast.Load()),
        values=gast.Tuple(elts=list(value.elts), ctx=gast.Load()),
    )
    return expressions.located(gast.Expr(value=call), stmt)


_OP_TEXT = {
    gast.Add: "+=",
    gast.Sub: "-=",
    gast.Mult: "*=",
    gast.Div: "/=",
    gast.FloorDiv: "//=",
    gast.Mod: "%=",
    gast.Pow: "**=",
    gast.MatMult: "@=",
    gast.BitAnd: "&=",
    gast.BitOr: "|=",
    gast.BitXor: "^=",
    gast.LShift: "<<=",
    gast.RShift: ">>=",
}


def _int_key(key):
    """The int of a constant key (`0`, `-1`), else None."""
    sign = 1
    if isinstance(key, gast.UnaryOp) and isinstance(key.op, gast.USub):
        key, sign = key.operand, -1
    if isinstance(key, gast.Constant) and type(key.value) is int:
        return sign * key.value
    return None


def _load(name):
    return gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)


def _copy(node):
    return templates.expr("key", key=node)
