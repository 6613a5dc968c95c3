"""`if`, `while` and `for` to calls of `ac.if_stmt`, `ac.while_stmt` and `ac.for_stmt`.

    if c:                      def if_body():
        y = 1                      nonlocal y
    else:             ->           y = 1
        y = 2                  def else_body(): ...
                               ac.if_stmt(c, if_body, else_body, get_state, set_state, ('y',))

Runs after `break`, `continue` and `return` are lowered and liveness is known. Every local name
a body binds is declared `nonlocal`, so on Python values the function keeps one scope, exactly
as before. The state (`names`, with `get_state`/`set_state`) is what a graph backend must carry
through the statement: the names a statement binds that are live after it (or, for loops, also
into the next iteration). State functions are shared by statements with the same state and
defined once at the top of the function.
"""

import gast

from autoconv.converters import lowering
from autoconv.converters.expressions import binds_or_suspends, located, parameters, thunk
from autoconv.converters.item_assignment import ITEM_PATH
from autoconv.pyct import anno, scopes, templates
from autoconv.pyct.walk import walk

_STAGED_BUILTINS = ("range", "enumerate", "zip")


def transform(function_node, ctx) -> None:
    converter = _ControlFlow(function_node, ctx)
    function_node.body = converter.block(function_node.body)


class _ControlFlow:
    def __init__(self, function_node, ctx):
        self.ctx = ctx
        self.ac = ctx.ac
        self.function_node = function_node
        self._counts = None
        self.depth = 0  # how many body functions deep the statements being converted are
        self.activity = ctx.activity
        self.first_bound = _first_bindings(function_node)
        # Body functions made inside a loop are defined once, before the outermost loop,
        # instead of once per iteration (they close over function-level names only).
        self.hoisted = None

    def counts(self) -> dict:
        """How often each name occurs in the function (computed on the first `for` loop)."""
        if self._counts is None:
            self._counts = _name_counts(self.function_node)
        return self._counts

    def define(self, out, function_def):
        """Puts `function_def` in `out`, or hoists it out of the enclosing loops (where an
        identical function hoisted before serves instead). Returns the name to call it by."""
        if self.hoisted is None:
            out.append(function_def)
            return lowering.name(function_def.name)
        # Identical bodies in practice are one or two statements (`continue_ = True`).
        key = _shape(function_def) if len(function_def.body) <= 3 else None
        if key is not None and key in self.hoisted_shapes:
            return lowering.name(self.hoisted_shapes[key])
        if key is not None:
            self.hoisted_shapes[key] = function_def.name
        self.hoisted.append(function_def)
        return lowering.name(function_def.name)

    def in_loop(self, convert):
        """Runs `convert()` (which converts a loop) and returns its statements preceded by the
        definitions hoisted out of the loop, when this is the outermost loop."""
        if self.hoisted is not None:
            return convert()
        self.hoisted, self.hoisted_shapes = [], {}
        try:
            out = convert()
            return self.hoisted + out
        finally:
            self.hoisted = None

    # -- statements --

    def block(self, stmts) -> list:
        out = []
        for stmt in stmts:
            out.extend(self.stmt(stmt))
        return out

    def stmt(self, node) -> list:
        if isinstance(node, gast.If) and anno.get(node, "python_if"):
            return [node]  # lowering's re-raise of the exception in flight
        if isinstance(node, gast.If):
            return self.if_stmt(node)
        if isinstance(node, gast.While):
            return self.in_loop(lambda: self.while_stmt(node))
        if isinstance(node, gast.For):
            return self.in_loop(lambda: self.for_stmt(node))
        if isinstance(node, (gast.With, gast.Try, gast.AsyncWith)) or type(node).__name__ == (
            "TryStar"
        ):
            self.guard_unbound(node)
            node.body = self.block(node.body)
            for field in ("orelse", "finalbody"):
                if hasattr(node, field):
                    setattr(node, field, self.block(getattr(node, field)))
            for handler in getattr(node, "handlers", ()):
                handler.body = self.block(handler.body)
            return [node]
        if isinstance(node, gast.Match):
            for case in node.cases:
                case.body = self.block(case.body)
            return [node]
        return [node]

    def guard_unbound(self, node) -> None:
        """Inside a body function, a local read unbound raises `NameError` (a free variable)
        where the original raised `UnboundLocalError`; the operators translate it on the way
        out, but this statement's own `except` or `__exit__` would see it first. So a body that
        may read an unbound local is wrapped:

            with ac.unbound_locals('x') as unbound:
                <body>
            unbound.check()
        """
        if not self.depth:
            return
        names = sorted(anno.get(node, "maybe_unbound", frozenset()) & self.activity.read(node.body))
        if not names:
            return
        guard = self.ctx.namer.new("unbound")
        call = templates.expr("ac.unbound_locals()", ac=self.ac)
        call.args = [gast.Constant(value=n, kind=None) for n in names]
        with_node = gast.With(
            items=[
                gast.withitem(
                    context_expr=call,
                    optional_vars=gast.Name(
                        id=guard, ctx=gast.Store(), annotation=None, type_comment=None
                    ),
                )
            ],
            body=node.body,
            type_comment=None,
        )
        check = templates.expr(f"{guard}.check()")
        node.body = [located(with_node, node), located(gast.Expr(value=check), node)]

    def body_block(self, stmts) -> list:
        """`block`, for statements that go into a body function."""
        self.depth += 1
        try:
            return self.block(stmts)
        finally:
            self.depth -= 1

    def if_stmt(self, node) -> list:
        state = self.state(node.body + node.orelse, anno.get(node, "live_out", frozenset()))
        out, none = [], gast.Constant(value=None, kind=None)
        # `elif` branches (an `if` alone in an `else`) and the `else` are one flat tuple
        # `(test, body, ..., else_body)` as `orelse`: the output, the converter and the stack
        # stay shallow however long the chain is.
        chain = [node]
        while len(chain[-1].orelse) == 1 and isinstance(chain[-1].orelse[0], gast.If):
            chain.append(chain[-1].orelse[0])
        # Names are taken before the blocks are converted, so they number outside in.
        body = self.branch(out, "if_body", node.body, node)
        if len(chain) == 1:
            orelse = self.branch(out, "else_body", node.orelse, node)
        else:
            elifs = []
            for link in chain[1:]:
                elifs.append(self.elif_test(out, link))
                elifs.append(self.branch(out, "elif_body", link.body, link) or templates.copy(none))
            last = self.branch(out, "else_body", chain[-1].orelse, chain[-1])
            if last is not None:
                elifs.append(last)
            orelse = located(gast.Tuple(elts=elifs, ctx=gast.Load()), chain[1])
            if self.hoisted is not None:
                # In a loop, the tests' lambdas are made once, with the hoisted bodies.
                name = self.ctx.namer.new("elifs")
                target = gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)
                assign = gast.Assign(targets=[target], value=orelse, type_comment=None)
                self.hoisted.append(located(assign, chain[1]))
                orelse = lowering.name(name)
        args = [node.test, body or none, orelse or none, *self.state_args(state)]
        while len(args) > 2 and _is_none(args[-1]):
            args.pop()  # trailing defaults
        call = self.call("if_stmt", args, node)
        out.append(call)
        return out

    def branch(self, out, prefix, stmts, origin):
        """The name of a new body function running `stmts` (defined in `out`), or None for an
        empty branch."""
        if _is_empty(stmts):
            return None
        name = self.ctx.namer.new(prefix)
        return self.define(out, self.body_function(name, [], self.body_block(stmts), origin))

    def elif_test(self, out, node):
        """`lambda: test`, or a function when the test binds a name (`:=`)."""
        if not binds_or_suspends(node.test):
            return thunk(node.test)
        name = self.ctx.namer.new("elif_test")
        return self.define(out, self.body_function(name, [], [gast.Return(value=node.test)], node))

    def while_stmt(self, node) -> list:
        # The test runs before every iteration: what it reads is loop state too, even when
        # nothing after the loop reads it (`while delta > tol: ... delta = ...`).
        live = (
            anno.get(node, "live_out", frozenset())
            | anno.get(node, "live_in_body", frozenset())
            | self.activity.read([node.test])
        )
        state = self.state(node.body, live, extra=[node.test])
        out = []
        if binds_or_suspends(node.test):
            name = self.ctx.namer.new("loop_test")
            fdef = self.body_function(name, [], [gast.Return(value=node.test)], node)
            test = self.define(out, fdef)
        else:
            test = thunk(node.test)
        name = self.ctx.namer.new("loop_body")
        body = self.define(out, self.body_function(name, [], self.loop_body(node), node))
        out.append(self.call("while_stmt", [test, body, *self.state_args(state)], node))
        return out

    def for_stmt(self, node) -> list:
        live = anno.get(node, "live_out", frozenset()) | anno.get(node, "live_in_body", frozenset())
        target = node.target
        local_target = self.target_is_local(node)
        if local_target and isinstance(target, gast.Name):
            params, prelude = [target.id], []
        else:
            itr = self.ctx.namer.new("itr")
            params = [itr]
            prelude = [
                located(
                    gast.Assign(targets=[target], value=lowering.name(itr), type_comment=None),
                    target,
                )
            ]
        local = scopes.bound_names([target]) if local_target else set()
        state = [n for n in self.state(prelude + node.body, live) if n not in local]
        name = self.ctx.namer.new("loop_body")
        stmts = prelude + self.loop_body(node)
        out = []
        body = self.define(out, self.body_function(name, params, stmts, node, exclude=local))
        iterable = self.staged_builtin(node.iter)
        out.append(self.call("for_stmt", [iterable, body, *self.state_args(state)], node))
        return out

    def loop_body(self, node) -> list:
        stmts = self.body_block(node.body)
        flags = anno.get(node, "stop_flags", [])
        if flags:
            stop = lowering.name(flags[0])
            if len(flags) > 1:
                stop = templates.expr("ac.or_(first)", ac=self.ac, first=stop)
                stop.args.extend(thunk(lowering.name(f)) for f in flags[1:])
            stmts.append(located(gast.Return(value=stop), node))
        return stmts

    # -- pieces --

    def target_is_local(self, node) -> bool:
        """Whether the loop target's names can be locals of the loop body (its parameter, for a
        plain name): locals of this function that nothing outside the loop mentions, that the
        body never rebinds, and that no closure in the body captures."""
        names = scopes.bound_names([node.target])
        if not names or any(
            isinstance(n, (gast.Attribute, gast.Subscript)) for n in walk(node.target)
        ):
            return False
        inside = _name_counts(
            gast.Module(body=[node.target, *node.body, *node.orelse], type_ignores=[])
        )  # the iterable is read outside
        rebound = self.activity.bound(node.body)
        captured = set()  # read by closures, or by body functions that will be hoisted
        for child in scopes.walk_scope(node.body):
            if scopes.is_scope(child) or isinstance(child, gast.GeneratorExp):
                captured |= self.activity.read(child)  # closures and generators read late
            elif isinstance(child, (gast.If, gast.For, gast.While)):
                captured |= self.activity.read(child.body) | self.activity.read(child.orelse)
                if isinstance(child, gast.While) and binds_or_suspends(child.test):
                    captured |= self.activity.read(child.test)
        return all(
            name in self.ctx.local_names
            and inside.get(name, 0) == self.counts().get(name, 0)
            and name not in rebound
            and name not in captured
            for name in names
        )

    def staged_builtin(self, iterable):
        """`range(n)` -> `ac.range(n)` when `range` is the built-in and `n` not a constant."""
        if (
            isinstance(iterable, gast.Call)
            and isinstance(iterable.func, gast.Name)
            and iterable.func.id in _STAGED_BUILTINS
            and self.ctx.is_builtin(iterable.func.id)
            and not all(isinstance(a, gast.Constant) for a in iterable.args)
        ):
            iterable.func = located(
                templates.expr(f"ac.{iterable.func.id}", ac=self.ac), iterable.func
            )
        return iterable

    def state(self, stmts, live, extra=()) -> list:
        """The names `stmts` bind that are live, in the order they are first bound."""
        nodes = list(stmts) + list(extra)
        bound = self.activity.bound(nodes)
        names = [n for n in bound if n in live and self.ctx.is_function_local(n)]
        names.sort(key=lambda n: self.first_bound.get(n, len(self.first_bound)))
        paths, rebound, skip = [], set(), set()
        composites: list = []
        made: dict = {}  # name -> [its bindings here, those that call a class]
        for child in scopes.walk_scope(nodes):
            path = anno.get(child, ITEM_PATH)
            if path is not None:
                # `x = ac.setitem_path(x, 0, v)` (item_assignment): `x[0] = v` as written,
                # state by its path `x[0]`; the name `x` only if something else binds it.
                paths.extend(path if type(path) is tuple else (path,))
                skip.add(id(child.targets[0]))
                continue
            if id(child) not in skip:
                rebound.update(_binds(child))
                for name in _binds(child):
                    made.setdefault(name, [0, 0])[0] += 1
            if self.makes_object(child):
                made.setdefault(child.targets[0].id, [0, 0])[1] += 1
            if isinstance(child, (gast.Assign, gast.AugAssign, gast.AnnAssign)):
                for target in _targets(getattr(child, "targets", None) or [child.target]):
                    composite = _composite(target)
                    if composite and composite != getattr(target, "id", None):
                        if composite not in composites:
                            composites.append(composite)
        for composite in composites:
            root = _root(composite)
            bindings, objects = made.get(root, (0, 0))
            if root not in names and bindings and bindings == objects:
                # `th = Thermometer(t)`, then `th.f = ...`: an object the statements make
                # anew each time, not live after them: its attributes are not state either.
                continue
            if composite not in names and root in self.ctx.local_names:
                names.append(composite)
        for path in paths:
            if _root(path) in rebound and _root(path) not in names:
                # The statements bind the name anew and it is not live after them: neither are
                # its items (`can = [False] * n; can[0] = True` in a branch; reading `can[0]`
                # before the statement would find it unbound).
                continue
            if _root(path) in names and _root(path) not in rebound:
                names.remove(_root(path))
            if path not in names and _root(path) in self.ctx.local_names:
                names.append(path)
        return names

    def makes_object(self, node) -> bool:
        """Whether `node` is `name = SomeClass(...)` with a class of the function's globals
        (a new object each time it runs)."""
        if not (
            isinstance(node, gast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], gast.Name)
            and isinstance(node.value, gast.Call)
        ):
            return False
        value = getattr(self.ctx.resolver, "value", None)
        made = None if value is None else value(node.value.func, self.ctx.local_names)
        return isinstance(made, type) and made.__module__ not in ("builtins", "numpy")

    def state_args(self, state) -> list:
        if not state:
            return []
        state, (get_state, set_state) = self.ctx.state_functions(tuple(state))
        names = gast.Tuple(elts=[gast.Constant(value=n, kind=None) for n in state], ctx=gast.Load())
        return [lowering.name(get_state), lowering.name(set_state), names]

    def body_function(self, name, params, stmts, origin, exclude=()):
        """`def name(params): nonlocal <what stmts bind>; stmts`."""
        header = self.ctx.declarations(stmts, exclude=set(params) | set(exclude))
        args = parameters(params)
        stmts = [s for s in stmts if not isinstance(s, gast.Pass)]
        body = header + (stmts or [gast.Pass()])
        node = gast.FunctionDef(
            name=name,
            args=args,
            body=body,
            decorator_list=[],
            returns=None,
            type_comment=None,
            type_params=[],
        )
        return located(node, origin)

    def call(self, fn, args, origin):
        call = templates.expr(f"ac.{fn}(args)", ac=self.ac, args=gast.Constant(value=0, kind=None))
        call.args = list(args)
        return located(gast.Expr(value=call), origin)


def _is_empty(stmts) -> bool:
    return all(isinstance(s, gast.Pass) for s in stmts)


def _is_none(node) -> bool:
    return isinstance(node, gast.Constant) and node.value is None


def _binds(node):
    if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
        yield node.id
    elif isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
        yield node.name
    elif isinstance(node, gast.alias):
        yield (node.asname or node.name).split(".")[0]
    elif isinstance(node, (gast.MatchAs, gast.MatchStar)) and node.name:
        yield node.name
    elif isinstance(node, gast.NamedExpr) and isinstance(node.target, gast.Name):
        yield node.target.id


def _composite(node):
    """`o.attr`, `d['key']`, `acc[0]`, `self.params['w']`: an attribute or constant-key item
    of a local name, as source text. Such composite names are state of control flow, like
    variables (TensorFlow's AutoGraph does the same)."""
    if isinstance(node, gast.Name):
        return node.id
    if isinstance(node, gast.Attribute):
        base = _composite(node.value)
        return f"{base}.{node.attr}" if base else None
    if isinstance(node, gast.Subscript):
        key = node.slice
        if isinstance(key, gast.Constant) and type(key.value) in (str, int, bool):
            base = _composite(node.value)
            return f"{base}[{key.value!r}]" if base else None
    return None


def _targets(targets) -> list:
    """Assignment targets with tuples and lists unpacked: `d['a'], d['b'] = ...`."""
    out = []
    for t in targets:
        if isinstance(t, (gast.Tuple, gast.List)):
            out.extend(_targets(t.elts))
        elif isinstance(t, gast.Starred):
            out.extend(_targets([t.value]))
        else:
            out.append(t)
    return out


def _root(composite: str) -> str:
    return composite.split(".")[0].split("[")[0]


def _name_counts(node) -> dict:
    counts = {}
    for child in walk(node):
        if isinstance(child, gast.Name):
            counts[child.id] = counts.get(child.id, 0) + 1
    return counts


def _first_bindings(function_node) -> dict:
    """Name -> rank of its first binding in the function, to list state in source order."""
    order = {}
    args = function_node.args
    for arg in args.posonlyargs + args.args + [args.vararg] + args.kwonlyargs + [args.kwarg]:
        if arg is not None:
            order.setdefault(arg.id, len(order))
    for child in scopes.walk_scope(function_node.body):
        for name in _binds(child):
            order.setdefault(name, len(order))
    return order


def _shape(function_def) -> tuple:
    """A function's definition apart from its name: equal shapes are interchangeable."""
    return _structure([function_def.args, function_def.body])


def _structure(value):
    """What `gast.dump` shows of a tree, as a tuple (a few times cheaper to build)."""
    if isinstance(value, gast.AST):
        return (type(value), *[_structure(getattr(value, f, None)) for f in value._fields])
    if type(value) is list:
        return tuple([_structure(v) for v in value])
    return repr(value)  # `1`, `True` and `1.0` compare equal, their reprs do not
