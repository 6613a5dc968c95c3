"""Reading a list the function appends to through the runtime, so that the items a staged loop
or branch appended (known only when the graph runs) are read as they are then:

    losses[-1]        ->  ac.list_item(losses, -1)
    losses[-3:]       ->  ac.list_item(losses, slice(-3, None, None))
    v in seen         ->  ac.list_contains(seen, v)
    a == b            ->  ac.list_equal(a, b, True)
    stack.pop()       ->  ac.list_method(stack, 'pop')
    out.extend(run)   ->  ac.list_method(out, 'extend', run)
    del queue[0]      ->  ac.list_del(queue, 0)
    ''.join(parts)    ->  ac.joined('', parts)
    [f(v) for v in losses]  ->  ac.filtered(losses, None, lambda v: f(v))
    lo, hi = pair     ->  lo, hi = ac.unpack(pair, 2, -1)    (first, *rest: `first, rest =
                                                            ac.unpack(pair, 2, 1)`)

`obj.name[k]` at a constant `k` and `v in obj.name` of a local `obj` (`self.items[-1]` in a
method) are read so too (`run_time_index` reads other keys). Otherwise only local names the
function appends to (`name.append(...)`) or calls one of those methods on, or binds to a list
(a display, a comprehension, `list(...)`: a filtered comprehension's length is known only when
the graph runs when the filter is staged, and any list's items may be read at a run-time key),
or to a slice or sum of such a list, are rewritten. Outside a graph trace each is the plain
Python operation (`name[key]`, `v in name`, `name.pop()`).
"""

import gast

from autoconv.converters import comprehensions, deques, expressions, run_time_index
from autoconv.pyct import templates
from autoconv.pyct.transformer import Transformer
from autoconv.pyct.walk import walk

# The list methods other than `append` that read or change a list in place (and a worklist
# deque's, which converters/deques.py makes a list while a graph is traced).
METHODS = frozenset(
    ("pop", "insert", "remove", "sort", "reverse", "index", "count", "extend")
    + ("popleft", "appendleft")
)


def transform(function_node, ctx, has_control_flow: bool = True) -> None:
    """`has_control_flow`: whether the function has an `if`, `for` or `while` statement or a
    comprehension (else only an object's lists are read through the runtime: its own lists
    have no run-time items)."""
    names = set()
    if has_control_flow:
        worklists = deques.transform(function_node, ctx) if not _lambda(function_node) else set()
        found = _appended(function_node) | worklists
        names = found & (ctx.local_names - ctx.globals - ctx.nonlocals)
    if names:
        _deletes(function_node, names, ctx.ac)
        _nested_writes(function_node, names, ctx)
        expressions.rewrite(function_node, _Items(ctx, names))
        _joins(function_node, names, ctx.ac)
    if has_control_flow:
        _unpacks(function_node, names, ctx.ac)
    # `back == a.tolist()`, `sorted(v) == [1, 2, 3]`: a list written or made in place compared
    # with another list (perhaps one a helper grew in a staged loop), item by item when the
    # graph runs; Python's `==` would compare a Tensor item as a bool, or a run-time list's
    # stand-in by its length.
    expressions.rewrite(function_node, _Compares(ctx.ac))
    params = {a.id for a in _params(function_node)}
    locals_ = frozenset((ctx.local_names | params) - ctx.globals - ctx.nonlocals)
    # `self.items[-1]`, `v in st.seen`: a list an object holds may have items a staged loop
    # appended (through a method), so its reads go through the runtime too.
    expressions.rewrite(function_node, _Attributes(ctx, locals_))
    # `lst[0]` of a parameter at a constant key (a helper given a list a staged loop grew in
    # its caller): read through the runtime too.
    expressions.rewrite(function_node, _Params(ctx, frozenset(params) - names - ctx.globals))


def _params(function_node) -> list:
    args = getattr(function_node, "args", None)
    if args is None:
        return []
    found = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    return [a for a in found if isinstance(a, gast.Name)]


def sorts(function_node) -> bool:
    """Whether the function calls `sorted`: of an array whose length is known only when the
    graph runs it gives a run-time list, read through the runtime as the others are."""
    return any(isinstance(n, gast.Call) and _sorts(n.func) for n in walk(function_node))


def _lambda(node) -> bool:
    return isinstance(node, gast.Lambda)


def _joins(node, names, ac) -> None:
    """`name += value` in `node`'s statements (not nested functions or classes) becomes
    `name = ac.list_iadd(name, value)`: Python's `+=` outside a trace."""

    def rewrite(item):
        if (
            isinstance(item, gast.AugAssign)
            and isinstance(item.op, gast.Add)
            and isinstance(item.target, gast.Name)
            and item.target.id in names
        ):
            template = "name = ac.list_iadd(name, value)"
            return templates.stmts(template, ac=ac, name=item.target.id, value=item.value)[0]
        return None

    expressions.rewrite_statements(node, rewrite)


def _unpacks(node, names, ac) -> None:
    """`a, b = name` (and `first, *rest = name`) of one of the lists, or of a comprehension,
    in `node`'s statements: `a, b = ac.unpack(name, 2, -1)` (`first, rest = ac.unpack(name,
    2, 1)`), whose length may be known only when the graph runs (Python's unpacking outside a
    trace)."""

    def rewrite(item):
        if not (isinstance(item, gast.Assign) and len(item.targets) == 1):
            return None
        target, value = item.targets[0], item.value
        if not isinstance(target, (gast.Tuple, gast.List)) or not _list_valued(value, names, ac):
            return None
        stars = [k for k, t in enumerate(target.elts) if isinstance(t, gast.Starred)]
        if len(stars) > 1:
            return None
        if stars:  # (`ac.unpack` gives the starred target its list)
            target.elts[stars[0]] = target.elts[stars[0]].value
        call = templates.expr(
            f"ac.unpack(value, {len(target.elts)}, {stars[0] if stars else -1})",
            ac=ac,
            value=value,
        )
        item.value = expressions.located(call, value)
        return item

    expressions.rewrite_statements(node, rewrite)


def _list_valued(value, names, ac) -> bool:
    """One of the lists, a comprehension (`ac.filtered(...)` once staged), or a method's
    result (`c.most_common(1)`, `d.items()`) or `sorted(...)`/`list(...)`, which may be a
    list a staged statement grew (`ac.unpack` leaves any other value to Python)."""
    if isinstance(value, gast.Name):
        return value.id in names
    if isinstance(value, gast.ListComp):
        return True
    if isinstance(value, gast.Call) and (
        isinstance(value.func, gast.Attribute)
        and not (isinstance(value.func.value, gast.Name) and value.func.value.id == ac)
        or isinstance(value.func, gast.Name)
        and value.func.id in ("sorted", "list")
    ):
        return True
    return (
        isinstance(value, gast.Call)
        and isinstance(value.func, gast.Attribute)
        and isinstance(value.func.value, gast.Name)
        and value.func.value.id == ac
        and value.func.attr == "filtered"
    )


def _deletes(node, names, ac) -> None:
    """`del name[key]` in `node`'s statements (not nested functions or classes), `key` not a
    slice, becomes `ac.list_del(name, key)`: `name.pop(key)` of a list while a graph is traced
    (a queue's `del q[0]` in a staged loop), Python's `del` otherwise."""

    def rewrite(item):
        if (
            isinstance(item, gast.Delete)
            and len(item.targets) == 1
            and isinstance(item.targets[0], gast.Subscript)
            and isinstance(item.targets[0].value, gast.Name)
            and item.targets[0].value.id in names
            and not isinstance(item.targets[0].slice, (gast.Slice, gast.Tuple))
        ):
            target = item.targets[0]
            template = "ac.list_del(name, key)"
            return templates.stmts(template, ac=ac, name=target.value.id, key=target.slice)[0]
        return None

    expressions.rewrite_statements(node, rewrite)


def _nested_writes(node, names, ctx) -> None:
    """`name[k][j] += v` (or `= v`) in `node`'s statements, `k` a name or a constant, becomes
    the item read, changed and put back (`ac.put_back`): an item of a run-time list is made
    when the graph runs, so the change is written into the list there (Python's statement
    changes the item in place, and putting it back is a no-op outside a trace)."""

    def rewrite(item):
        target = None
        if isinstance(item, gast.AugAssign):
            target = item.target
        elif isinstance(item, gast.Assign) and len(item.targets) == 1:
            target = item.targets[0]
        if not (isinstance(target, gast.Subscript) and isinstance(target.value, gast.Subscript)):
            return None
        outer = target.value
        if not (
            isinstance(outer.value, gast.Name)
            and outer.value.id in names
            and isinstance(outer.slice, (gast.Name, gast.Constant, gast.UnaryOp))
            and not isinstance(target.slice, (gast.Slice, gast.Tuple))
        ):
            return None
        temp = ctx.namer.new("item")
        read = templates.stmts("temp = name[key]", temp=temp, name=outer.value.id, key=outer.slice)
        target.value = gast.Name(id=temp, ctx=gast.Load(), annotation=None, type_comment=None)
        back = templates.stmts(
            "ac.put_back(name, key, temp)",
            ac=ctx.ac,
            name=outer.value.id,
            key=outer.slice,
            temp=temp,
        )
        return [*read, item, *back]

    expressions.rewrite_statements(node, rewrite)


def _appended(function_node) -> set:
    found = set()
    assigns = []
    for node in walk(function_node):
        if (
            isinstance(node, gast.Call)
            and isinstance(node.func, gast.Attribute)
            and (node.func.attr == "append" or node.func.attr in METHODS)
            and isinstance(node.func.value, gast.Name)
        ):
            found.add(node.func.value.id)
        elif isinstance(node, gast.Assign):
            # (`out = []`, and each name of `heap, out = [], []`)
            pairs = expressions.bound_pairs(node.targets, node.value)
            assigns.extend((t.id, v) for t, v in pairs)
    while True:  # names made from such lists, until no more are found
        more = {name for name, value in assigns if name not in found and _grown(value, found)}
        if not more:
            return found
        found |= more


def _grown(value, names) -> bool:
    """Whether `value` is a list whose length or items may be known only when a graph runs: a
    list display or comprehension (`[-1] * n`, `[v for v in x if v > 0]`), `list(...)`, or a
    slice, sum or copy of a list in `names`, or `sorted()` of anything."""
    if isinstance(value, (gast.ListComp, gast.List)):
        return True  # a list: its items may be read at a key known only when a graph runs
    if isinstance(value, gast.GeneratorExp):
        return True  # a filtered one is a list a staged loop appended to (`ac.filtered`)
    if isinstance(value, gast.BinOp) and isinstance(value.op, gast.Mult):
        return isinstance(value.left, gast.List) or isinstance(value.right, gast.List)
    if isinstance(value, gast.Subscript):
        return isinstance(value.slice, gast.Slice) and _grown(value.value, names)
    if isinstance(value, gast.BinOp) and isinstance(value.op, gast.Add):
        return _grown(value.left, names) or _grown(value.right, names)
    if isinstance(value, gast.Call) and len(value.args) <= 1 and _sorts(value.func):
        return True  # `s = sorted(window)`: a run-time list where its argument is one
    if isinstance(value, gast.Call) and not value.keywords and len(value.args) <= 1:
        func = value.func
        if isinstance(func, gast.Name) and func.id == "list":
            return True
        if isinstance(func, gast.Attribute) and func.attr == "copy" and not value.args:
            return _grown(func.value, names)
    return isinstance(value, gast.Name) and value.id in names


def _sorts(func) -> bool:
    """`sorted` (converted code's `ac.sorted`, as the calls pass left it), or a Counter's
    `.most_common`: a run-time list where it holds keys known only when the graph runs."""
    if isinstance(func, gast.Name):
        return func.id == "sorted"
    return isinstance(func, gast.Attribute) and func.attr in ("sorted", "most_common")


def _key(key):
    """The subscript's key as an expression: a slice becomes a `slice(...)` call."""
    if not isinstance(key, gast.Slice):
        return key
    none = gast.Constant(value=None, kind=None)
    parts = [p if p is not None else none for p in (key.lower, key.upper, key.step)]
    call = templates.expr("slice(a, b, c)", a=parts[0], b=parts[1], c=parts[2])
    return expressions.located(call, key)


class _Items(Transformer):
    def __init__(self, ctx, names):
        super().__init__()
        self.ctx, self.ac, self.names = ctx, ctx.ac, names

    def _ours(self, node) -> bool:
        return isinstance(node, gast.Name) and node.id in self.names

    def _over_ours(self, node) -> bool:
        """One of the lists, or `zip`/`enumerate` of one (or of its slice)."""
        if self._ours(node):
            return True
        if isinstance(node, gast.Subscript):
            return self._ours(node.value)
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute):
            return node.func.attr == "list_item" and self._ours(node.args[0])  # a slice of one
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name):
            if node.func.id in ("zip", "enumerate"):
                return any(self._over_ours(a) for a in node.args)
        return False

    def visit_ListComp(self, node):
        self.generic_visit(node)
        return self._comprehension(node, False)

    def visit_GeneratorExp(self, node):
        self.generic_visit(node)
        return self._comprehension(node, True)

    def _comprehension(self, node, generator: bool):
        """A comprehension over one of the lists: a staged loop over its run-time items."""
        if len(node.generators) != 1 or not self._over_ours(node.generators[0].iter):
            return node
        call = comprehensions.filtered_call(node, self.ctx)
        if call is None:
            return node
        if generator:
            call.args.append(gast.Constant(value=True, kind=None))
        return expressions.located(call, node)

    def _made_list(self, node) -> bool:
        """`sorted(...)`, or `list(...)` of one of the lists: a run-time list while tracing."""
        if not isinstance(node, gast.Call) or len(node.args) > 1:
            return False
        func = node.func
        if isinstance(func, gast.Attribute) and func.attr == "most_common":
            return not node.keywords  # `c.most_common(1)[0]` of a Counter
        if len(node.args) != 1:
            return False
        if isinstance(func, gast.Name):
            return func.id == "sorted" or func.id == "list" and self._over_ours(node.args[0])
        return (
            isinstance(func, gast.Attribute)
            and func.attr == "sorted"
            and isinstance(func.value, gast.Name)
            and func.value.id == self.ac
        )

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if isinstance(node.ctx, gast.Load) and (
            self._ours(node.value) or self._made_list(node.value)
        ):
            if isinstance(node.slice, gast.Tuple):
                return node  # a list takes no tuple key: Python's own TypeError
            call = templates.expr("ac.list_item(name, key)", ac=self.ac, key=_key(node.slice))
            call.args[0] = node.value
            return expressions.located(call, node)
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        if (
            len(node.ops) == 1
            and isinstance(node.ops[0], (gast.Eq, gast.NotEq))
            and (self._over_ours(node.left) or self._over_ours(node.comparators[0]))
        ):
            # `kept == kept[::-1]`: the items compared when the graph runs.
            equal = gast.Constant(value=isinstance(node.ops[0], gast.Eq), kind=None)
            call = templates.expr("ac.list_equal(a, b, equal)", ac=self.ac, equal=equal)
            call.args[:2] = [node.left, node.comparators[0]]
            return expressions.located(call, node)
        return expressions.membership(node, self._ours, self.ac, "ac.list_contains(c, x)")

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        # `", ".join(parts)`: strings a staged loop appended are joined when a graph runs.
        call = expressions.joined(node, self.ac, self._ours)
        if call is not None:
            return call
        if (
            isinstance(func, gast.Attribute)
            and func.attr in METHODS
            and self._ours(func.value)
            and not any(k.arg is None for k in node.keywords)
            and not any(isinstance(a, gast.Starred) for a in node.args)
        ):
            method = gast.Constant(value=func.attr, kind=None)
            call = templates.expr("ac.list_method(name, method)", ac=self.ac, method=method)
            call.args[0] = func.value
            call.args.extend(node.args)
            call.keywords = node.keywords
            return expressions.located(call, node)
        return node


class _Compares(Transformer):
    """`a == b` / `a != b` where a side is a list made in place (a display, a comprehension,
    `list(...)`, `sorted(...)`, `x.tolist()`) -> `ac.list_equal(a, b, equal)`."""

    def __init__(self, ac):
        super().__init__()
        self.ac = ac

    def visit_Compare(self, node):
        self.generic_visit(node)
        if (
            len(node.ops) == 1
            and isinstance(node.ops[0], (gast.Eq, gast.NotEq))
            and (_made_in_place(node.left) or _made_in_place(node.comparators[0]))
        ):
            equal = gast.Constant(value=isinstance(node.ops[0], gast.Eq), kind=None)
            call = templates.expr("ac.list_equal(a, b, equal)", ac=self.ac, equal=equal)
            call.args[:2] = [node.left, node.comparators[0]]
            return expressions.located(call, node)
        return node


def _made_in_place(node) -> bool:
    """A list display or comprehension, or a call that gives a new list."""
    if isinstance(node, (gast.List, gast.ListComp)):
        return True
    if not isinstance(node, gast.Call):
        return False
    func = node.func
    if isinstance(func, gast.Name):
        return func.id in ("list", "sorted") and len(node.args) == 1
    return isinstance(func, gast.Attribute) and func.attr == "tolist" and not node.args


class _Attributes(_Items):
    """`obj.name[key]` and `v in obj.name` of a local `obj` (`self` in a method): read as
    `_Items` reads a local list (plain Python outside a graph trace, and on anything but a
    list). `names` here: the function's local names."""

    def _ours(self, node) -> bool:
        return (
            isinstance(node, gast.Attribute)
            and isinstance(node.value, gast.Name)
            and node.value.id in self.names
            and isinstance(node.ctx, gast.Load)
        )

    def _over_ours(self, node) -> bool:
        return False  # comprehensions stay as they are

    def visit_Subscript(self, node):
        if not run_time_index.constant_key(node.slice):
            # (a key that may be known only when the graph runs: `run_time_index` reads it)
            self.generic_visit(node)
            return node
        return super().visit_Subscript(node)

    def visit_Call(self, node):
        self.generic_visit(node)
        return node  # `self.items.pop()`: `ac.converted` stages it (runtime.calls)


class _Params(_Attributes):
    """`lst[key]` of a parameter `lst` at a constant key: read as `_Items` reads a local list
    (plain Python outside a graph trace, and on anything but a list). `names`: the
    parameters."""

    def _ours(self, node) -> bool:
        return isinstance(node, gast.Name) and node.id in self.names

    def visit_Compare(self, node):
        self.generic_visit(node)
        return node
