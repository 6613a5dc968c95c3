"""`in` and item reads of a name the function binds only to sets and dicts, to runtime calls
that see keys known only when the graph runs (`runtime.keyed`):

    v in seen            ->  ac.in_(v, seen)           (`seen = set()`, `seen = {1, 2}`)
    counts[v]            ->  ac.keyed_item(counts, v)  (`counts = {}`, `counts = dict()`)
    [k for k in counts]  ->  [k for k in ac.keyed_iterated(counts)]   (also `list(counts)`)
    {int(v) for v in x}  ->  ac.keyed_built('set', x, None, lambda v: int(v))
                             (any set or dict comprehension with one `for`: its keys may be
                             known only when the graph runs)

A string key written as a constant where the function assigns that item as written (`cfg["opt"]
= v` in a loop, carried by its path), and a read inside an assignment's target, stay as written.

`counts[v] = x` is already `counts = ac.setitem(counts, v, x)` (converters/item_assignment.py),
which keeps the name bound only to dicts. An item of an attribute, which that leaves as written,
with a key that is a name (not a constant: `self.counts[key] = n`) is stored through the runtime,
which stages it for a dict given a key known only when the graph runs:

    self.counts[key] = n     ->  ac.keyed_store(self.counts, key, n)
    del self.values[key]     ->  ac.keyed_del(self.values, key)   (also `del d[k]` of a name)

(the value first, as Python evaluates it, where the target or key could change on the way).
"""

import collections
import copy

import gast

from autoconv.converters import comprehensions, expressions
from autoconv.pyct import templates
from autoconv.pyct.transformer import Transformer
from autoconv.pyct.walk import walk

_MAKES = ("set", "dict", "frozenset")
_MODULE_CONTAINERS = (dict, set, collections.Counter, collections.defaultdict)
_TALLIES = ("Counter", "defaultdict")  # `collections`' dicts (runtime.tallies)
# what `_Keyed` rewrites where the function binds no name only to sets and dicts (a
# comprehension over an attribute's dict, `set(x.tolist())`)
# (`k in self.d`, `self.d[k]`: an attribute's dict)
_REWRITTEN = (
    gast.ListComp,
    gast.SetComp,
    gast.DictComp,
    gast.GeneratorExp,
    gast.Call,
    gast.Compare,
    gast.Subscript,
)
# Builtins that iterate an argument Python's way (a `for` statement, `len`, `sorted`, `min`
# and `max` see a set or dict holding run-time keys through the runtime already).
_ITERATES = frozenset(
    "list tuple set frozenset dict enumerate zip iter any all sum map filter reversed".split()
)


def _makes_keyed(value) -> bool:
    if isinstance(value, (gast.Dict, gast.Set, gast.DictComp, gast.SetComp)):
        return True
    if isinstance(value, gast.BinOp) and type(value.op) in _SET_OPERATORS:
        # `set(b[r]) | set(b[:, c])`: a new set made of two the function makes
        return _makes_keyed(value.left) and _makes_keyed(value.right)
    if not isinstance(value, gast.Call):
        return False
    func = value.func
    if isinstance(func, gast.Name):
        return func.id in _MAKES or func.id in _TALLIES
    if isinstance(func, gast.Attribute) and func.attr in _TALLIES:
        return isinstance(func.value, gast.Name) and func.value.id == "collections"
    # the converter's own `name = ac.setitem(name, key, value)` of `name[key] = value`
    return isinstance(func, gast.Attribute) and func.attr == "setitem"


def transform(function_node, ctx) -> None:
    names = _keyed_names(function_node) | helper_results(function_node, ctx)
    names |= _module_containers(function_node, ctx)
    if names or any(isinstance(n, _REWRITTEN) for n in walk(function_node)):
        written = _written_paths(function_node)
        keyed = _Keyed(ctx, names, expressions.target_reads(function_node), written)
        expressions.rewrite(function_node, keyed)
    if not isinstance(function_node, gast.Lambda):
        free = {n for n in names if n not in _stored_names(function_node)}
        function_node.body = _statements(function_node.body, ctx.ac, ctx.namer, names, free)


def _keyed_names(function_node) -> set:
    """Names the function binds only to sets and dicts it makes (`_makes_keyed`), to a copy of
    such a name (`u = s.copy()`), or by a set operator (`s |= t`): each binding's kind."""
    kinds: dict = {}
    bound = set()  # ids of the targets of those bindings
    for node in walk(function_node):
        if isinstance(node, gast.Assign) and len(node.targets) == 1:
            for target, value in expressions.bound_pairs(node.targets, node.value):
                if _makes_keyed(value) or _copy_of(value):
                    kind = ("copy", value.func.value.id) if _copy_of(value) else "make"
                    kinds.setdefault(target.id, set()).add(kind)
                    bound.add(id(target))
        elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
            if type(node.op) in _SET_OPERATORS:
                kinds.setdefault(node.target.id, set()).add("update")
                bound.add(id(node.target))
        elif isinstance(node, gast.Name) and not isinstance(node.ctx, gast.Load):
            if id(node) not in bound:
                kinds.setdefault(node.id, set()).add("other")
        elif isinstance(node, (gast.Nonlocal, gast.Global)):
            for name in node.names:
                kinds.setdefault(name, set()).add("other")
    # A name the function never binds, or a parameter it does not rebind, tested with `in`
    # (`if k in memo:` of an enclosing function's memo dict, `k in d` of a dict passed in):
    # the runtime's calls see what it holds when they run.
    params = _parameters(function_node)
    names = {
        node.comparators[0].id
        for node in walk(function_node)
        if isinstance(node, gast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], (gast.In, gast.NotIn))
        and isinstance(node.comparators[0], gast.Name)
        and (node.comparators[0].id not in kinds or node.comparators[0].id in params)
    }
    # A name whose dict methods the function calls (`d = count(x)` then `d.get(k)`, a
    # parameter's `d.items()`): a dict made elsewhere, which may hold run-time keys too.
    names |= {
        node.func.value.id
        for node in walk(function_node)
        if isinstance(node, gast.Call)
        and isinstance(node.func, gast.Attribute)
        and node.func.attr in _DICT_METHODS
        and isinstance(node.func.value, gast.Name)
        and "make" not in kinds.get(node.func.value.id, ())
    }
    grew = True
    while grew:  # (a copy of a copy)
        grew = False
        for name, found in kinds.items():
            sources = {k[1] for k in found if type(k) is tuple}
            made = "make" in found or sources
            if name not in names and made and "other" not in found and sources <= names:
                names.add(name)
                grew = True
    return names


def _parameters(function_node) -> set:
    """The function's parameters that its body never binds again."""
    params = {
        a.id
        for a in gast.walk(function_node.args)
        if isinstance(a, gast.Name) and isinstance(a.ctx, gast.Param)
    }
    for node in walk(function_node):
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
            params.discard(node.id)
        elif isinstance(node, (gast.Nonlocal, gast.Global)):
            params.difference_update(node.names)
    return params


def helper_results(function_node, ctx) -> set:
    """Names the function binds only to what a function of the user's returns (`d =
    count(x)`): a dict made there may hold keys known only when the graph runs, which `in`
    and item reads of the name see through the runtime (`ac.keyed_item` reads any other
    value as Python does). Found once per conversion (`ctx.helper_results`)."""
    if ctx.helper_results is None:
        # (the converter's `d = ac.setitem(d, k, v)` keeps what the name holds)
        ctx.helper_results = expressions.bound_only_to(
            function_node,
            lambda v: (
                expressions.users_call(v, ctx)
                or isinstance(v, gast.Call)
                and isinstance(v.func, gast.Attribute)
                and _makes_keyed(v)
            ),
            unpacked=True,  # `indptr, data = to_csr(A)`: each may be a list a loop grew there
        )
    return ctx.helper_results


def _module_containers(function_node, ctx) -> set:
    """Global names of sets and dicts (a Counter, a defaultdict) the function reads and never
    binds: a staged statement may store a key into one (`TALLY["pos"] += 1` in a staged loop),
    which its later reads must see through the runtime as a local's are."""
    value = getattr(ctx.resolver, "value", None)
    if value is None or isinstance(function_node, gast.Lambda):
        return set()
    stored, found = _stored_names(function_node), set()
    for node in walk(function_node):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
            if node.id not in stored and node.id not in found:
                if type(value(node, frozenset())) in _MODULE_CONTAINERS:
                    found.add(node.id)
    return found


def _stored_names(function_node) -> set:
    """Names the function binds (or declares `nonlocal` / `global`)."""
    found = set()
    for node in walk(function_node):
        if isinstance(node, gast.Name) and not isinstance(node.ctx, gast.Load):
            found.add(node.id)
        elif isinstance(node, (gast.Nonlocal, gast.Global)):
            found.update(node.names)
    return found


def _copy_of(value) -> bool:
    """`s.copy()` of a name."""
    return (
        isinstance(value, gast.Call)
        and isinstance(value.func, gast.Attribute)
        and value.func.attr == "copy"
        and isinstance(value.func.value, gast.Name)
        and not value.args
        and not value.keywords
    )


def _attribute_path(node) -> bool:
    """`self.counts`, `a.b.c`: attributes of a name, which reading twice reads the same."""
    while isinstance(node, gast.Attribute):
        node = node.value
    return isinstance(node, gast.Name)


def _statements(body: list, ac: str, namer, names=frozenset(), free=frozenset()) -> list:
    """`body` with each `obj.attr[key] = value` whose key is a name as `ac.keyed_store(...)`,
    and each `s |= t` (`&=`, `-=`, `^=`) of a name in `names` as `s = ac.keyed_op("|=", s,
    t)`, in nested blocks too (not in nested functions and classes, converted on their own)."""
    out = []
    for stmt in body:
        if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            out.append(stmt)
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], gast.stmt):
                setattr(stmt, field, _statements(inner, ac, namer, names, free))
        for handler in getattr(stmt, "handlers", None) or ():
            handler.body = _statements(handler.body, ac, namer, names, free)
        out.extend(
            _attribute_item(_set_update(_deleted(stmt, ac, names), ac, names), ac, namer, free)
        )
    return out


def _deleted(node, ac: str, names):
    """`del d[k]` of a name bound only to sets and dicts, or of an attribute's dict
    (`del self.values[k]`), at a key that is not a constant: `ac.keyed_del(d, k)`, staged
    for a key known only when the graph runs (Python's `del` otherwise)."""
    if not (isinstance(node, gast.Delete) and len(node.targets) == 1):
        return node
    target = node.targets[0]
    if not isinstance(target, gast.Subscript) or isinstance(target.slice, gast.Slice):
        return node
    value = target.value
    if isinstance(target.slice, gast.Constant) and not (
        isinstance(value, gast.Name) and value.id in names and _number(target.slice)
    ):
        return node  # (`del c[1]` of a name bound only to dicts: through the runtime)
    if not (
        isinstance(value, gast.Name)
        and value.id in names
        or isinstance(value, gast.Attribute)
        and _attribute_path(value)
        and isinstance(target.slice, gast.Name)
    ):
        return node
    call = templates.expr("ac.keyed_del(d, k)", ac=ac)
    call.args = [_loaded(value), _loaded(target.slice)]
    return expressions.located(gast.Expr(value=call), node)


def _set_update(node, ac: str, names):
    """`s |= t` of a name bound only to sets and dicts: `s = ac.keyed_op("|=", s, t)`, staged
    on run-time keys (Python's own `|=` otherwise, which may change `s` in place)."""
    if not (
        isinstance(node, gast.AugAssign)
        and isinstance(node.target, gast.Name)
        and node.target.id in names
        and type(node.op) in _SET_OPERATORS
    ):
        return node
    symbol = _SET_OPERATORS[type(node.op)] + "="
    call = templates.expr(f"ac.keyed_op('{symbol}', a, b)", ac=ac)
    call.args[1:] = [_loaded(node.target), node.value]
    bind = gast.Assign(targets=[node.target], value=call, type_comment=None)
    return expressions.located(bind, node)


def _attribute_item(node, ac: str, namer, free=frozenset()) -> list:
    """`obj.attr[key] = value` (a key that is a name), or `memo[key] = value` of a name the
    function does not bind (`free`), through `ac.keyed_store`."""
    if not isinstance(node, gast.Assign) or len(node.targets) != 1:
        return [node]
    target = node.targets[0]
    if not isinstance(target, gast.Subscript) or isinstance(target.slice, gast.Slice):
        return [node]
    enclosing = isinstance(target.value, gast.Name) and target.value.id in free
    if not enclosing and not (
        isinstance(target.value, gast.Attribute)
        and _attribute_path(target.value)
        and isinstance(target.slice, gast.Name)
    ):
        return [node]
    out = []
    value = node.value
    if not isinstance(value, (gast.Name, gast.Constant)):
        # Python evaluates the value first, then the target and the key.
        name = namer.new("value")
        bind = gast.Assign(
            targets=[gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)],
            value=value,
            type_comment=None,
        )
        out.append(expressions.located(bind, node))
        value = gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)
    call = templates.expr("ac.keyed_store(t, k, v)", ac=ac)
    call.args = [_loaded(target.value), _loaded(target.slice), value]
    out.append(expressions.located(gast.Expr(value=call), node))
    return out


def _loaded(node):
    """A copy of the target's expression `node`, read."""
    node = copy.deepcopy(node)
    for inner in walk(node):
        if hasattr(inner, "ctx"):
            inner.ctx = gast.Load()
    return node


def _written_paths(function_node) -> set:
    """`(name, key)` of each `name["key"]` the function assigns as written (item assignment
    leaves it so in a branch or loop): the control-flow converter carries it as a variable by
    its path, and reads of it stay as written for that."""
    found = set()
    for node in walk(function_node):
        if (
            isinstance(node, gast.Subscript)
            and not isinstance(node.ctx, gast.Load)
            and isinstance(node.value, gast.Name)
            and _text_constant(node.slice)
        ):
            found.add((node.value.id, node.slice.value))
    return found


_VIEWS = ("items", "keys", "values")
_DICT_METHODS = frozenset(_VIEWS + ("get", "setdefault", "most_common"))
_SET_OPERATORS = {gast.BitAnd: "&", gast.BitOr: "|", gast.Sub: "-", gast.BitXor: "^"}
_SET_COMPARISONS = {
    gast.Eq: "==",
    gast.NotEq: "!=",
    gast.LtE: "<=",
    gast.Lt: "<",
    gast.GtE: ">=",
    gast.Gt: ">",
}


def _sorted_call(node) -> bool:
    return isinstance(node.func, gast.Name) and node.func.id == "sorted"


def _staged_comprehension(node, ctx, staged_builtins: bool = True):
    """`ac.filtered(...)` for a list comprehension or generator expression, or
    `ac.keyed_built("dict" | "set", ...)` for a dict or set comprehension, over its one `for`;
    None where it cannot be one (`comprehensions.filtered_call`'s rules, `staged_builtins`
    among them)."""
    if isinstance(node, (gast.ListComp, gast.GeneratorExp)):
        call = comprehensions.filtered_call(node, ctx)
        if call is not None and isinstance(node, gast.GeneratorExp):
            call.args.append(gast.Constant(value=True, kind=None))
        return call
    is_dict = isinstance(node, gast.DictComp)
    parts = (node.key, node.value) if is_dict else (node.elt,)
    # The list form's checks, on a stand-in list comprehension holding every part.
    probe = gast.ListComp(
        elt=gast.Tuple(elts=list(parts), ctx=gast.Load()), generators=node.generators
    )
    if comprehensions.filtered_call(probe, ctx, staged_builtins) is None:
        return None
    gen = node.generators[0]
    target = gen.target
    names = [target] if isinstance(target, gast.Name) else target.elts
    names = comprehensions.distinct(names, ctx)  # (`for _, i, _ in heap`)
    params = ", ".join(n.id for n in names)
    unpack = ", unpack=True" if isinstance(target, gast.Tuple) else ""
    kind = "dict" if is_dict else "set"
    if not gen.ifs:
        test = gast.Constant(value=None, kind=None)
        test_text = "test"
    else:
        test = gen.ifs[0] if len(gen.ifs) == 1 else gast.BoolOp(op=gast.And(), values=gen.ifs)
        test_text = f"lambda {params}: test"
    value_text = f", lambda {params}: value" if is_dict else ""
    template = (
        f"ac.keyed_built('{kind}', items, {test_text}, lambda {params}: key{value_text}{unpack})"
    )
    return templates.expr(
        template,
        ac=ctx.ac,
        items=gen.iter,
        test=test,
        key=parts[0],
        value=parts[-1],
    )


def _counter(value) -> bool:
    """`Counter(...)` (or `collections.Counter(...)`)."""
    if not (isinstance(value, gast.Call) and _makes_keyed(value)):
        return False
    return (getattr(value.func, "id", None) or getattr(value.func, "attr", None)) == "Counter"


def _counter_names(function_node, made_by=_counter) -> set:
    """Names the function binds only to `Counter(...)` calls (to calls `made_by` accepts)."""
    return expressions.bound_only_to(function_node, made_by)


def _tally(value) -> bool:
    """`Counter(...)` or `defaultdict(...)` (also `collections.`'s)."""
    if not (isinstance(value, gast.Call) and _makes_keyed(value)):
        return False
    name = getattr(value.func, "id", None) or getattr(value.func, "attr", None)
    return name in ("Counter", "defaultdict")


def tally_names(function_node) -> set:
    """Names the function binds only to Counters and defaultdicts: a missing key of theirs
    reads a default, so a key written on some paths only is a key of the run-time dict
    (`converters.item_assignment` rebinds the name for it, never carrying the item's path)."""
    return _counter_names(function_node, _tally)


def _number(node) -> bool:
    return type(node.value) in (int, float)


def _text_constant(node) -> bool:
    return isinstance(node, gast.Constant) and not isinstance(node.value, (int, float))


class _Keyed(Transformer):
    def __init__(self, ctx, names, in_targets, written):
        super().__init__()
        self.ctx, self.ac = ctx, ctx.ac
        self.names = names
        self.counters = _counter_names(ctx.function_node) if names else set()
        self.in_targets = in_targets
        self.written = written

    def _ours(self, node) -> bool:
        return isinstance(node, gast.Name) and node.id in self.names

    def _counts(self, call) -> bool:
        """`Counter(items)`, or `c.update(items)` / `c.subtract(items)` of a name bound only
        to Counters (one argument)."""
        if len(call.args) != 1 or call.keywords:
            return False
        func = call.func
        if isinstance(func, gast.Attribute) and func.attr in ("update", "subtract"):
            return isinstance(func.value, gast.Name) and func.value.id in self.counters
        return _counter(call)

    def _held(self, node) -> bool:
        """One of the names, or an attribute's dict (`self.values`) that may hold keys known
        only when the graph runs (`runtime.keyed` reads any other object as Python does)."""
        return (
            self._ours(node)
            or isinstance(node, gast.Attribute)
            and _attribute_path(node)
            or self._made(node)
        )

    def _iterated(self, node):
        call = templates.expr("ac.keyed_iterated(c)", ac=self.ac)
        call.args[0] = node
        return expressions.located(call, node)

    def visit_comprehension(self, node):
        self.generic_visit(node)
        if self._ours(node.iter):  # `[k for k in d]`, nested: refused when it holds run-time keys
            node.iter = self._iterated(node.iter)
        return node

    def _over_keyed(self, node) -> bool:
        """`d`, `d.items()` (`.keys()`, `.values()`, also of an attribute's dict), or
        `sorted(...)` of one: what may be a set or dict holding run-time keys, or their list."""
        if self._ours(node):
            return True
        if not isinstance(node, gast.Call) or node.keywords and not _sorted_call(node):
            return False
        func = node.func
        if isinstance(func, gast.Attribute):
            if func.attr == "most_common":  # a Counter's pairs (`runtime.tallies`)
                return len(node.args) <= 1
            return func.attr in _VIEWS and not node.args
        if not _sorted_call(node) or len(node.args) != 1:
            return False
        arg = node.args[0]  # `sorted(sums)` of any name (`sums, counts = {}, {}`), or attribute
        return self._over_keyed(arg) or _attribute_path(arg)

    def _comprehension(self, node):
        """A comprehension over a set or dict (`_over_keyed`), or any set or dict
        comprehension (`{int(v) for v in x}`: its keys may be known only when the graph runs):
        staged as a `for` statement while tracing (`runtime.keyed_comprehensions`)."""
        gens = node.generators
        makes_keyed = isinstance(node, (gast.SetComp, gast.DictComp))
        if len(gens) != 1 or not (makes_keyed or self._over_keyed(gens[0].iter)):
            self.generic_visit(node)
            return node
        gen = gens[0]
        over_name = self._ours(gen.iter)
        # A set or dict comprehension over anything else iterates as Python does (`enumerate(x)`
        # of a Tensor row by row, its index a Python int), storing each key as `d[k] = v` would.
        over_keyed = self._over_keyed(gen.iter)
        self.generic_visit(node)
        if over_name:
            gen.iter = gen.iter.args[0]  # (unwrap `visit_comprehension`'s `keyed_iterated`)
        call = _staged_comprehension(node, self.ctx, over_keyed)
        if call is None:
            if over_name:
                gen.iter = self._iterated(gen.iter)
            return node
        if over_name:
            keys = templates.expr("ac.keyed_keys(c)", ac=self.ac)
            keys.args[0] = gen.iter
            at = 1 if isinstance(node, (gast.SetComp, gast.DictComp)) else 0  # (after the kind)
            call.args[at] = expressions.located(keys, gen.iter)
        return expressions.located(call, node)

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_BinOp(self, node):
        made = _makes_keyed(node.left) and _makes_keyed(node.right)  # (before the rewrite)
        self.generic_visit(node)
        symbol = _SET_OPERATORS.get(type(node.op))
        if isinstance(node.op, gast.Add):
            symbol = "+"  # `Counter(a) + Counter(b)`, counts added (`runtime.tallies`)
        if symbol is None or not (made or self._ours(node.left) or self._ours(node.right)):
            return node
        return self._set_op(symbol, node.left, node.right, node)

    def visit_Compare(self, node):
        if len(node.ops) == 1 and type(node.ops[0]) in _SET_COMPARISONS:
            # `Counter(a) == Counter(b)`: dicts the function makes, compared by their items
            made = type(node.ops[0]) in (gast.Eq, gast.NotEq) and (
                _makes_keyed(node.left) or _makes_keyed(node.comparators[0])
            )
            self.generic_visit(node)
            left, right = node.left, node.comparators[0]
            if made or self._ours(left) or self._ours(right):
                return self._set_op(_SET_COMPARISONS[type(node.ops[0])], left, right, node)
            return node
        self.generic_visit(node)
        return expressions.membership(node, self._held, self.ac, "ac.in_(x, c)")

    def _set_op(self, symbol, left, right, node):
        """`ac.keyed_op(symbol, left, right)`: set algebra staged on run-time keys."""
        call = templates.expr(f"ac.keyed_op('{symbol}', a, b)", ac=self.ac)
        call.args[1:] = [left, right]
        return expressions.located(call, node)

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if (
            isinstance(func, gast.Name)
            and func.id == "set"
            and self.ctx.is_builtin("set")
            and len(node.args) == 1
            and not node.keywords
            and not isinstance(node.args[0], gast.Starred)
        ):  # `set(x.tolist())`: its items may be known only when the graph runs
            call = templates.expr("ac.keyed_set(items)", ac=self.ac, items=node.args[0])
            return expressions.located(call, node)
        if (
            isinstance(func, gast.Name)
            and func.id == "dict"
            and self.ctx.is_builtin("dict")
            and len(node.args) == 1
            and not node.keywords
            and not isinstance(node.args[0], gast.Starred)
        ):  # `dict(counts)` of a Counter: a plain dict of its keys, known when the graph runs
            call = templates.expr("ac.keyed_dict(items)", ac=self.ac, items=node.args[0])
            return expressions.located(call, node)
        if self._counts(node) and isinstance(node.args[0], (gast.GeneratorExp, gast.ListComp)):
            # `Counter(int(v) for v in x)`, `c.update(...)`: a staged loop makes the items (an
            # array's length may be known only when the graph runs)
            items = _staged_comprehension(node.args[0], self.ctx)
            if items is not None:
                node.args[0] = expressions.located(items, node.args[0])
        if isinstance(node.func, gast.Name) and node.func.id in _ITERATES:  # `list(d)`
            node.args = [self._iterated(a) if self._ours(a) else a for a in node.args]
        return node

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if (
            isinstance(node.ctx, gast.Load)
            and (self._ours(node.value) or self._attribute_key(node) or self._made(node.value))
            and not isinstance(node.slice, gast.Slice)
            # `cfg["opt"]` assigned as written: a name's path, never staged
            and not (
                _text_constant(node.slice)
                and isinstance(node.value, gast.Name)
                and (node.value.id, node.slice.value) in self.written
            )
            and id(node) not in self.in_targets
        ):
            call = templates.expr("ac.keyed_item(name, key)", ac=self.ac, key=node.slice)
            call.args[0] = node.value
            return expressions.located(call, node)
        return node

    def _made(self, node) -> bool:
        """`Counter(labels)[k]`, `dict(pairs)[k]`, `count(x)[k]`: an item of a set or dict a
        call makes (or of what a user's function returns), which may hold run-time keys."""
        return _makes_keyed(node) or expressions.users_call(node, self.ctx)

    def _attribute_key(self, node) -> bool:
        """`self.values[key]`: an attribute's item at a key that is a name (which may be known
        only when the graph runs), read as `self.values[key] = v` stores it (`_attribute_item`)."""
        return (
            isinstance(node.value, gast.Attribute)
            and _attribute_path(node.value)
            and isinstance(node.slice, gast.Name)
        )
