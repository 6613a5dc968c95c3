"""A list comprehension that filters, or runs over a `range` of a computed length, through the
runtime, so that a filter or a length known only when the graph runs gives the items it
selects, as the `for` statement with an `if` and an append would:

    [f(v) for v in xs if v > 0]   ->  ac.filtered(xs, lambda v: v > 0, lambda v: f(v))
    [f(i) for i in range(n)]      ->  ac.filtered(ac.range(n), None, lambda i: f(i))
    (f(v) for v in xs if v > 0)   ->  ac.filtered(xs, ..., True)  (a generator outside traces)

Only the simple form: one `for` over a name (or a tuple of names), its `if`s, no `:=` (which
would bind in the lambda) and no `await` or `yield`. Outside a trace `ac.filtered` is the
comprehension itself.
"""

import copy

import gast

from autoconv.converters import expressions
from autoconv.pyct import templates
from autoconv.pyct.transformer import Transformer
from autoconv.pyct.walk import walk

# Left as written: `:=` would bind in the lambda.
_KEEP = (gast.NamedExpr, gast.Await, gast.Yield, gast.YieldFrom)
# A lambda or generator closing over the loop variable that outlives its item sees the last
# value eagerly (one variable for the whole comprehension), where the lambdas' parameter would
# give each its own: such a comprehension is left as written too. One that reads none of the
# loop's names (`if (lambda e: e < 0)(e)`, whose `e` is its own parameter), or is used up on
# the spot, sees the same either way.
_SCOPES = (gast.Lambda, gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)
# Built-ins that use up a generator (or an iterable of lambdas' results) before they return.
_CONSUMERS = frozenset(("any", "all", "sum", "min", "max", "sorted", "list", "tuple", "set", "len"))


def transform(function_node, ctx) -> None:
    from autoconv.converters.keyed import helper_results

    results = helper_results(function_node, ctx)
    sized = expressions.bound_only_to(function_node, lambda v: _run_time_length(v, ctx, results))
    expressions.rewrite(function_node, _Filtered(ctx, results | sized))


class _Filtered(Transformer):
    def __init__(self, ctx, results=frozenset()):
        super().__init__()
        self.ctx = ctx
        self.results = results  # names bound only to what a function of the user's returns

    def visit_ListComp(self, node):
        self.generic_visit(node)
        if len(node.generators) != 1:
            call = nested_call(node, self.ctx)
            return node if call is None else expressions.located(call, node)
        gen = node.generators[0]
        if not gen.ifs and not (
            _data_range(gen.iter, self.ctx) or _run_time_length(gen.iter, self.ctx, self.results)
        ):
            return node
        call = filtered_call(node, self.ctx)
        return node if call is None else expressions.located(call, node)

    def visit_GeneratorExp(self, node):
        # `sum(v for v in x if v > 0)`: as the list comprehension, lazily outside traces.
        node = self.visit_ListComp(node)
        if isinstance(node, gast.Call):
            node.args.append(gast.Constant(value=True, kind=None))
        return node

    def visit_SetComp(self, node):
        # `{f(v) for r in rows for v in r if v % 2}`: the set of the list the `for`s give, in
        # their order (a set comprehension of one `for` is `converters.keyed`'s).
        self.generic_visit(node)
        if len(node.generators) == 1:
            return node
        call = nested_call(node, self.ctx)
        if call is None:
            return node
        made = templates.expr("set(items)", items=call)
        return expressions.located(made, node)

    def visit_DictComp(self, node):
        # `{(i, j): A[i, j] for i in range(n) for j in range(m) if A[i, j]}`: the dict of the
        # pairs the `for`s give, in their order (`dict(...)` of a run-time list stores each
        # pair as `d[k] = v`); a dict comprehension of one `for` is `converters.keyed`'s.
        self.generic_visit(node)
        if len(node.generators) == 1:
            return node
        pair = gast.Tuple(elts=[node.key, node.value], ctx=gast.Load())
        listed = gast.ListComp(elt=pair, generators=node.generators)
        call = nested_call(listed, self.ctx)
        if call is None:
            return node
        made = templates.expr("dict(items)", items=call)
        return expressions.located(made, node)


_STAGED = ("range", "enumerate", "zip")  # built-ins whose `ac.` forms iterate staged values


def _data_range(node, ctx) -> bool:
    """`range(n)` with an `n` that is not a constant: a length a graph may know only when it
    runs (`[i * i for i in range(n)]`)."""
    return (
        isinstance(node, gast.Call)
        and isinstance(node.func, gast.Name)
        and node.func.id == "range"
        and ctx.is_builtin("range")
        and not all(isinstance(a, gast.Constant) for a in node.args)
    )


_SIZED_BY_DATA = frozenset(("flatnonzero", "argwhere", "unique"))  # arrays of data-sized length
_INDEX_TUPLES = frozenset(("nonzero", "where"))  # a tuple of such arrays (`where` of one argument)


def _run_time_length(node, ctx, results) -> bool:
    """An iterable whose length a graph may know only when it runs, which a comprehension
    then iterates in a staged loop: what a function of the user's returns (`_idx(s)`, or a
    name bound only to it: a list a staged loop grew there), a mask's selection (`x[x > 0]`),
    or an index array NumPy sizes by the data (`np.nonzero(row)[0]`, `np.flatnonzero(m)`).
    (A row of one, `np.argwhere(m)[0]`, has a length known while tracing.)"""
    if isinstance(node, gast.Subscript):
        if isinstance(node.slice, gast.Compare):
            return True  # `x[x > 0]`
        return _numpy_call(node.value, _INDEX_TUPLES)  # `np.nonzero(row)[0]`
    if isinstance(node, gast.Name):
        return node.id in results
    if isinstance(node, gast.ListComp):
        # `entries = [... for i in ... for j in ... if A[i, j]]`: filtered, so possibly a list
        # whose length is known only when the graph runs
        return any(g.ifs for g in node.generators)
    if not isinstance(node, gast.Call):
        return False
    func = node.func
    if isinstance(func, gast.Name) and func.id in ("zip", "enumerate") and ctx.is_builtin(func.id):
        # `zip(*np.nonzero(m))`, `enumerate(idx)`: as long as what they iterate
        return any(
            _numpy_call(a.value, _INDEX_TUPLES)
            if isinstance(a, gast.Starred)
            else _run_time_length(a, ctx, results)
            for a in node.args
        )
    if isinstance(func, gast.Attribute):
        return _numpy_call(node, _SIZED_BY_DATA)
    return expressions.users_call(node, ctx)


def _numpy_call(node, names) -> bool:
    """`np.name(...)` with `name` in `names` (`np.where` of one argument only)."""
    if not isinstance(node, gast.Call) or not isinstance(node.func, gast.Attribute):
        return False
    func, owner = node.func, node.func.value
    return (
        isinstance(owner, gast.Name)
        and owner.id in ("np", "numpy")
        and func.attr in names
        and (func.attr != "where" or len(node.args) == 1)
    )


def filtered_call(node, ctx, staged_builtins: bool = True):
    """`ac.filtered(...)` for the comprehension `node` (one `for` over a name), or None where
    it cannot be one. `staged_builtins`: its `range`, `enumerate` or `zip` becomes the
    runtime's, which iterates a Tensor (or a run-time length) in a staged loop."""
    gen = node.generators[0]
    if isinstance(gen.target, gast.Tuple) and any(
        isinstance(n, gast.Tuple) for n in gen.target.elts
    ):
        node = _flat_target(node, ctx)  # `for i, (v, w) in enumerate(zip(x, y))`
        if node is None:
            return None
        gen = node.generators[0]
    target = gen.target
    names = [target] if isinstance(target, gast.Name) else getattr(target, "elts", None)
    if gen.is_async or not names or not all(isinstance(n, gast.Name) for n in names):
        return None
    names = distinct(names, ctx)
    if isinstance(target, gast.Tuple):
        target = gast.Tuple(elts=names, ctx=gast.Store())
    if any(isinstance(n, _KEEP) for part in (node.elt, *gen.ifs) for n in walk(part)):
        return None
    loop_names = {n.id for n in names}
    if any(_escapes(part, loop_names, ctx) for part in (node.elt, *gen.ifs)):
        return None
    # `for a, b in ...`: the lambdas take the item's parts (`ac.filtered` unpacks it).
    params = ", ".join(n.id for n in names)
    unpack = ", unpack=True" if isinstance(target, gast.Tuple) else ""
    if not gen.ifs:
        test = gast.Constant(value=None, kind=None)
        template = f"ac.filtered(items, test, lambda {params}: value{unpack})"
    else:
        test = gen.ifs[0] if len(gen.ifs) == 1 else gast.BoolOp(op=gast.And(), values=gen.ifs)
        template = f"ac.filtered(items, lambda {params}: test, lambda {params}: value{unpack})"
    items = _staged_iter(gen.iter, ctx) if staged_builtins else gen.iter
    return templates.expr(template, ac=ctx.ac, items=items, test=test, value=node.elt)


def distinct(names: list, ctx) -> list:
    """`names` (a target's Name nodes) with each name bound more than once renamed but for its
    last binding (`for _, _, v in entries`: a lambda cannot take one name twice; Python binds
    the last, and the others are read nowhere)."""
    last = {n.id: k for k, n in enumerate(names)}
    if len(last) == len(names):
        return names
    return [
        n
        if last[n.id] == k
        else gast.Name(id=ctx.namer.new(n.id), ctx=gast.Store(), annotation=None, type_comment=None)
        for k, n in enumerate(names)
    ]


def _flat_target(node, ctx):
    """A copy of comprehension `node` whose target's nested tuples (`i, (v, w)`) are names of
    their own (`i, v_w`), each inner name read as an item of one (`v_w[0]`): a lambda takes no
    nested parameters. None where an inner name is bound again inside (a nested scope)."""
    node = copy.deepcopy(node)
    gen = node.generators[0]
    paths: dict = {}

    def flat(t, at):
        if isinstance(t, gast.Name):
            paths[t.id] = at
            return True
        if not isinstance(t, gast.Tuple) or any(isinstance(e, gast.Starred) for e in t.elts):
            return False
        return all(flat(e, (*at, j)) for j, e in enumerate(t.elts))

    elts = []
    for e in gen.target.elts:
        if isinstance(e, gast.Tuple):
            name = ctx.namer.new("_".join(n.id for n in walk(e) if isinstance(n, gast.Name)))
            if not flat(e, (name,)):
                return None
            e = gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)
        elts.append(e)
    inner = {k: v for k, v in paths.items() if len(v) > 1}
    parts = (node.elt, *gen.ifs)
    if any(
        isinstance(n, gast.Name) and n.id in inner and not isinstance(n.ctx, gast.Load)
        for part in parts
        for n in walk(part)
    ):
        return None
    gen.target = gast.Tuple(elts=elts, ctx=gast.Store())
    _Reads(inner).visit(node)
    return node


class _Reads(Transformer):
    """Reads of the inner names of a nested target as items of their part's name."""

    def __init__(self, paths):
        super().__init__()
        self.paths = paths

    def visit_Name(self, node):
        at = self.paths.get(node.id)
        if at is None or not isinstance(node.ctx, gast.Load):
            return node
        out = gast.Name(id=at[0], ctx=gast.Load(), annotation=None, type_comment=None)
        for j in at[1:]:
            out = gast.Subscript(
                value=out, slice=gast.Constant(value=j, kind=None), ctx=gast.Load()
            )
        return gast.copy_location(out, node)


def _staged_iter(items, ctx):
    """`items`, its `range`, `enumerate` or `zip` the runtime's, which iterates a Tensor (or a
    run-time length) in a staged loop."""
    if (
        isinstance(items, gast.Call)
        and isinstance(items.func, gast.Name)
        and items.func.id in _STAGED
        and ctx.is_builtin(items.func.id)
    ):
        items.func = expressions.located(templates.expr(f"ac.{items.func.id}", ac=ctx.ac), items)
    return items


def nested_call(node, ctx):
    """`ac.filtered_nested(...)` for a comprehension of several `for`s with a filter or a
    computed `range` (`runtime.lists.filtered_nested`), or None where it cannot be one: each
    target a name or a tuple of distinct names, no `:=`, `await`, `yield`, lambda or inner
    comprehension."""
    gens = node.generators
    if not any(g.ifs or _data_range(g.iter, ctx) for g in gens):
        return None
    bound, levels, parts = [], [], {}
    for k, gen in enumerate(gens):
        target = gen.target
        names = [target] if isinstance(target, gast.Name) else getattr(target, "elts", None)
        if gen.is_async or not names or not all(isinstance(n, gast.Name) for n in names):
            return None
        before = ", ".join(bound)
        bound += [n.id for n in names]
        params = ", ".join(bound)
        source = "None" if k == 0 else f"lambda {before}: source{k}"
        if k:
            parts[f"source{k}"] = _staged_iter(gen.iter, ctx)
        test = "None"
        if gen.ifs:
            ifs = gen.ifs
            parts[f"test{k}"] = ifs[0] if len(ifs) == 1 else gast.BoolOp(op=gast.And(), values=ifs)
            test = f"lambda {params}: test{k}"
        width = "None" if isinstance(target, gast.Name) else str(len(names))
        levels.append(f"({source}, {test}, {width})")
    if len(set(bound)) != len(bound):
        return None  # a lambda cannot take one name twice
    keep = (*_KEEP, *_SCOPES)  # (each lambda or inner comprehension kept as written)
    if any(isinstance(n, keep) for part in (node.elt, *parts.values()) for n in walk(part)):
        return None
    template = (
        f"ac.filtered_nested(items, ({', '.join(levels)},), lambda {', '.join(bound)}: value)"
    )
    items = _staged_iter(gens[0].iter, ctx)
    return templates.expr(template, ac=ctx.ac, items=items, value=node.elt, **parts)


def _escapes(part, names, ctx) -> bool:
    """Whether `part` of a comprehension holds a lambda or generator that reads one of `names`
    (the loop's) and may be called after its item: not a lambda called where it is written
    (`(lambda w: w < v)(0)`), a list, set or dict comprehension (run on the spot), a generator
    or a lambda of a comprehension (`ac.filtered`) handed to a built-in that uses it up
    (`any(w > v for w in x)`)."""
    parents = {}
    for n in walk(part):
        for child in gast.iter_child_nodes(n):
            parents[id(child)] = n
    for n in walk(part):
        if not isinstance(n, (gast.Lambda, gast.GeneratorExp)) or not _free(n) & names:
            continue
        parent = parents.get(id(n))
        if isinstance(n, gast.Lambda) and isinstance(parent, gast.Call) and parent.func is n:
            continue  # called where it is written
        if isinstance(n, gast.Lambda) and _filtered(parent, ctx):
            if len(parent.args) < 4:
                continue  # a list comprehension's: run on the spot
            n, parent = parent, parents.get(id(parent))  # a generator's: as the generator
        if (
            isinstance(parent, gast.Call)
            and isinstance(parent.func, gast.Name)
            and parent.func.id in _CONSUMERS
            and ctx.is_builtin(parent.func.id)
            and parent.args[:1] == [n]
        ):
            continue  # used up by the call
        return True
    return False


def _filtered(node, ctx) -> bool:
    """Whether `node` is the `ac.filtered(...)` call a comprehension became."""
    return (
        isinstance(node, gast.Call)
        and isinstance(node.func, gast.Attribute)
        and node.func.attr == "filtered"
        and isinstance(node.func.value, gast.Name)
        and node.func.value.id == ctx.ac
    )


def _free(node) -> set:
    """The names `node` reads that it does not bind itself (a lambda's parameters, a
    comprehension's targets), nested scopes included."""
    if isinstance(node, gast.Name):
        return {node.id} if isinstance(node.ctx, gast.Load) else set()
    inner = set()
    for child in gast.iter_child_nodes(node):
        inner |= _free(child)
    if isinstance(node, gast.Lambda):
        args = node.args
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        inner -= {p.id for p in params if isinstance(p, gast.Name)}
    elif isinstance(node, _SCOPES):
        targets = {
            n.id for g in node.generators for n in walk(g.target) if isinstance(n, gast.Name)
        }
        inner -= targets
    return inner
