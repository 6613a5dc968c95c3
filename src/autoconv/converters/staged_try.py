"""A `try` whose handler may catch an error raised only when the graph runs.

    try:                           caught = 0
        if bad(x):                 t = ac.try_begin(lambda: (ValueError,))
            raise ValueError()     try:
        r = 1.0 / v                    if bad(x):
    except ValueError:                     exc = ValueError()
        r = 0.0                            caught = ac.try_raise(t, exc)
    else:                                  if caught == 0:
        done()                                 raise exc
                                       if caught == 0:
                                           ac.try_mark(t)
                                           value = 1.0 / v
                                           caught = ac.try_poll(t, caught)
                                           if caught == 0:
                                               r = value
                                   except ValueError:
                                       ac.try_end(t)
                                       r = 0.0
                                   else:
                                       ac.try_end(t)
                                       if caught != 0:
                                           if ac.try_which(t, caught, 1):
                                               r = 0.0
                                       else:
                                           done()
                                   finally:
                                       ac.try_end(t)

In Python `caught` stays 0 and the `try` runs as written. While tracing, a `raise` under a
staged condition, or an operation whose error the graph would raise when it runs (`1.0 / v`,
`math.sqrt(v)` of run-time numbers: they record a failure point, runtime.tries), makes `caught`
a run-time number: the rest of the body is skipped where it is not 0 (the guards are staged
`if`s), and the handler runs there instead. A statement's value is computed before it is bound
or passed on, so an error leaves the names and lists as they were at the failing point.
Runs after the escape lowerings (`return` is an assignment here) and before control flow.
"""

import gast

from autoconv.pyct import anno, scopes, templates

_DIVIDES = (gast.Div, gast.FloorDiv, gast.Mod, gast.Pow)  # ZeroDivisionError: `0.0 ** -1` too


def mark_users(function_node) -> None:
    """Marks the user's own `try` statements (before the passes add theirs: an escape out of a
    `finally` becomes a `try` of the converter's, which stays as it is)."""
    for n in scopes.own_nodes(function_node):
        if isinstance(n, gast.Try) and n.handlers:
            anno.set(n, "users_try", True)


def transform(function_node, ctx) -> bool:
    """Converts the user's `try` statements with handlers in `function_node`'s own scope; true
    when any was."""
    if isinstance(function_node, gast.Lambda) or _generator(function_node):
        return False
    found = [False]
    function_node.body = _block(function_node.body, ctx, found)
    return found[0]


def _generator(node) -> bool:
    kinds = (gast.Yield, gast.YieldFrom, gast.Await)
    return any(isinstance(n, kinds) for n in scopes.walk_scope(node.body))


def _block(stmts, ctx, found) -> list:
    out = []
    for stmt in stmts:
        if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            out.append(stmt)
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner:
                setattr(stmt, field, _block(inner, ctx, found))
        for clause in getattr(stmt, "handlers", None) or ():
            clause.body = _block(clause.body, ctx, found)
        if isinstance(stmt, gast.Try) and stmt.handlers and anno.get(stmt, "users_try"):
            out.extend(_staged(stmt, ctx))
            found[0] = True
        else:
            out.append(stmt)
    return out


class _Names:
    def __init__(self, ctx):
        self.ctx = ctx
        self.scope = self.new("try_scope")
        self.caught = self.new("caught")
        self.raised: list = []  # the names that hold the body's exceptions before `raise`

    def new(self, base):
        name = self.ctx.namer.new(base)
        self.ctx.flags.add(name)
        return name


def _staged(node, ctx) -> list:
    names = _Names(ctx)
    ac, t, caught = ctx.ac, names.scope, names.caught
    kinds = [gast.Name(id="BaseException", ctx=gast.Load(), annotation=None, type_comment=None)]
    kinds = gast.Tuple(
        elts=[h.type if h.type is not None else templates.copy(kinds[0]) for h in node.handlers],
        ctx=gast.Load(),
    )
    kinds = gast.Tuple(elts=[templates.copy(k) for k in kinds.elts], ctx=gast.Load())
    before = templates.stmts(
        "caught = 0\nt = ac.try_begin(lambda: kinds)", caught=caught, t=t, ac=ac, kinds=kinds
    )
    end = templates.stmts("ac.try_end(t)", ac=ac, t=t)
    dispatch = []
    for k, clause in enumerate(node.handlers, 1):
        body = [s for s in templates.copy(clause.body) if not _tracing_check(s)]
        if clause.name is not None and _reads(body, clause.name.id):
            body = (
                templates.stmts(
                    "e = ac.try_exception(t, k)",
                    e=clause.name.id,
                    ac=ac,
                    t=t,
                    k=gast.Constant(value=k, kind=None),
                )
                + body
            )
        dispatch.append((k, body))
    # One clause: `caught` is a run-time number only where something staged reaches it.
    handled = dispatch[0][1] if len(dispatch) == 1 else _dispatch(dispatch, ac, t, caught)
    test = templates.expr("caught != 0", caught=caught)
    # Where nothing was caught the body ran to its end: what it binds is bound there (a value,
    # not one that may be unbound), so that it merges with what the handler binds.
    ran = sorted(_definite(node.body))
    passed = (_settled(ran, ac) if ran else []) + (node.orelse or [])
    orelse = [gast.If(test=test, body=handled, orelse=passed or [gast.Pass()])]
    for clause in node.handlers:
        clause.body = templates.copy(end) + clause.body
    node.body = _guarded(node.body, names)[0]
    node.orelse = templates.copy(end) + orelse
    # The exceptions go when the `try` ends, as `except ... as e` does to `e`: one raised
    # holds the frames that hold it (and the generators they iterate) until collected.
    cleared = [_assign(name, gast.Constant(value=None, kind=None)) for name in names.raised]
    node.finalbody = templates.copy(end) + cleared + node.finalbody
    out = before + [node]
    for stmt in out:
        _locate(stmt, node)
    return out


def _definite(stmts) -> set:
    """The names that `stmts` bind on every path that reaches their end."""
    out = set()
    for stmt in stmts:
        if isinstance(stmt, gast.Assign):
            for target in stmt.targets:
                out |= _target_names(target)
        elif isinstance(stmt, (gast.AugAssign, gast.AnnAssign)) and stmt.value is not None:
            out |= _target_names(stmt.target)
        elif isinstance(stmt, gast.If):
            out |= _definite(stmt.body) & _definite(stmt.orelse)
        elif isinstance(stmt, (gast.Raise, gast.Return, gast.Break, gast.Continue)):
            break
    return out


def _target_names(target) -> set:
    if isinstance(target, gast.Name):
        return {target.id}
    if isinstance(target, (gast.Tuple, gast.List)):
        return set().union(*(_target_names(t) for t in target.elts))
    return set()


def _settled(names, ac) -> list:
    """`a, b = ac.try_settle(a, b)`."""
    load = [gast.Name(id=n, ctx=gast.Load(), annotation=None, type_comment=None) for n in names]
    store = [gast.Name(id=n, ctx=gast.Store(), annotation=None, type_comment=None) for n in names]
    call = templates.expr("ac.try_settle()", ac=ac)
    call.args = load
    target = store[0] if len(store) == 1 else gast.Tuple(elts=store, ctx=gast.Store())
    return [gast.Assign(targets=[target], value=call, type_comment=None)]


def _tracing_check(stmt) -> bool:
    """`ac.handler(exc)` (converters.handlers): a staged error is never an error of tracing."""
    call = stmt.value if isinstance(stmt, gast.Expr) else None
    func = getattr(call, "func", None)
    return isinstance(func, gast.Attribute) and func.attr == "handler"


def _reads(stmts, name) -> bool:
    return any(isinstance(n, gast.Name) and n.id == name for s in stmts for n in gast.walk(s))


def _dispatch(clauses, ac, t, caught) -> list:
    """`if ac.try_which(t, caught, 1): H1 elif ...`; a clause nothing staged reaches is
    skipped in Python (`try_which` is False)."""
    chain = [gast.Pass()]
    for k, body in reversed(clauses):
        test = templates.expr(
            "ac.try_which(t, caught, k)",
            ac=ac,
            t=t,
            caught=caught,
            k=gast.Constant(value=k, kind=None),
        )
        chain = [gast.If(test=test, body=body, orelse=chain)]
    return chain


def _guarded(stmts, names) -> tuple:
    """`stmts` of the body, each after one that may fail run only while `caught` is 0 (in one
    `if` for all of them: a name bound after the failing point is then bound on the same path
    that reads it). Also returns whether any may fail."""
    if not stmts:
        return [], False
    head, tail = _statement(stmts[0], names)
    rest, fails = _guarded(stmts[1:], names)
    for s in head:
        _locate(s, stmts[0])
    if tail is None:
        return head + rest, fails
    body = tail + rest
    return head + ([_if_clear(names, body)] if body else []), True


def _statement(stmt, names) -> tuple:
    """`(head, tail)`: `stmt` as statements that run now and statements that run only while
    `caught` is still 0 after them; `tail` None when `stmt` cannot fail."""
    ac, t, caught = names.ctx.ac, names.scope, names.caught
    if isinstance(stmt, gast.Raise) and stmt.exc is not None:
        exc = names.new("exc")
        names.raised.append(exc)
        load = gast.Name(id=exc, ctx=gast.Load(), annotation=None, type_comment=None)
        again = gast.Raise(exc=load, cause=stmt.cause)
        gast.copy_location(again, stmt)
        head = [
            _assign(exc, stmt.exc),
            *templates.stmts("caught = ac.try_raise(t, exc)", caught=caught, ac=ac, t=t, exc=exc),
        ]
        return head, [again]
    if isinstance(stmt, gast.If):
        stmt.body, fails = _guarded(stmt.body, names)
        orelse, fails_else = _guarded(stmt.orelse, names) if stmt.orelse else ([], False)
        stmt.orelse = orelse
        fails = fails or fails_else
        if not _may_fail(stmt.test):
            return [stmt], ([] if fails else None)
        test = names.new("test")
        hoisted = _marked([_assign(test, stmt.test)], names)
        stmt.test = gast.Name(id=test, ctx=gast.Load(), annotation=None, type_comment=None)
        return hoisted + [_if_clear(names, [stmt])], []
    if isinstance(stmt, (gast.For, gast.While)) and _raises(stmt.body):
        return _loop(stmt, names)
    values = []  # (node holding the value, field) to compute before the statement
    if isinstance(stmt, (gast.Assign, gast.AugAssign, gast.AnnAssign)) and stmt.value is not None:
        values.append((stmt, "value"))
    elif isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call):
        call = stmt.value
        if any(isinstance(a, gast.Starred) for a in call.args) or any(
            k.arg is None for k in call.keywords
        ):
            return _marked([stmt], names), []
        values.extend((call.args, i) for i in range(len(call.args)))
        values.extend((k, "value") for k in call.keywords)
    elif isinstance(stmt, gast.Expr) and _may_fail(stmt.value):
        return _marked([stmt], names), []
    else:
        # Compound statements and the rest: an error staged inside them is not this scope's
        # (`accepting` finds no mark), so it stays the error it was.
        return [stmt], None
    hoisted = []
    for holder, field in values:
        value = holder[field] if isinstance(holder, list) else getattr(holder, field)
        if not _may_fail(value):
            continue
        tmp = names.new("value")
        hoisted.append(_assign(tmp, value))
        load = gast.Name(id=tmp, ctx=gast.Load(), annotation=None, type_comment=None)
        if isinstance(holder, list):
            holder[field] = load
        else:
            setattr(holder, field, load)
    if isinstance(stmt, gast.Expr) and _may_fail(stmt.value.func) or _user_call(stmt):
        # The call itself may fail (a helper's staged `raise`): marked too, after its arguments.
        call = _marked([stmt], names)
        if not hoisted:
            return call, []
        return _marked(hoisted, names) + [_if_clear(names, call)], []
    if not hoisted:
        return [stmt], None
    return _marked(hoisted, names), [stmt]


def _loop(stmt, names) -> tuple:
    """A loop of the body with a `raise` in it: the statements after a failing point of an
    iteration are guarded as the body's are, and the loop stops where `caught` is set (as the
    raise would stop it), through a flag its body returns (converters.break_statements)."""
    stmt.body, fails = _guarded(stmt.body, names)
    if not fails:
        return [stmt], None
    flag = names.new("raised")
    stmt.body.append(_assign(flag, templates.expr("caught != 0", caught=names.caught)))
    anno.set(stmt, "stop_flags", [*anno.get(stmt, "stop_flags", []), flag])
    return [_assign(flag, gast.Constant(value=False, kind=None)), stmt], []


def _raises(stmts) -> bool:
    """Whether `stmts` hold a `raise` of an exception in this scope."""
    return any(isinstance(n, gast.Raise) and n.exc is not None for n in scopes.walk_scope(stmts))


_CONTAINER_METHODS = {"append", "extend", "insert", "add", "update", "setdefault", "clear"}


def _user_call(stmt) -> bool:
    """Whether the statement calls a function by name or a method other than a container's
    (`out.append(v)` cannot raise a staged error; `check(x)` may)."""
    if not isinstance(stmt, gast.Expr) or not isinstance(stmt.value, gast.Call):
        return False
    func = stmt.value.func
    return not (isinstance(func, gast.Attribute) and func.attr in _CONTAINER_METHODS)


def _may_fail(expr) -> bool:
    """Whether evaluating `expr` may record a failure point: it calls something, divides, or
    indexes with a key that is not a constant."""
    return any(
        isinstance(n, gast.Call)
        or (isinstance(n, gast.BinOp) and isinstance(n.op, _DIVIDES))
        or (isinstance(n, gast.Subscript) and not isinstance(n.slice, gast.Constant))
        for n in gast.walk(expr)
    )


def _marked(stmts, names) -> list:
    ac, t, caught = names.ctx.ac, names.scope, names.caught
    return (
        templates.stmts("ac.try_mark(t)", ac=ac, t=t)
        + stmts
        + templates.stmts("caught = ac.try_poll(t, caught)", ac=ac, t=t, caught=caught)
    )


def _if_clear(names, body):
    return gast.If(test=templates.expr("caught == 0", caught=names.caught), body=body, orelse=[])


def _assign(name, value):
    target = gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)
    return gast.Assign(targets=[target], value=value, type_comment=None)


def _locate(new, old) -> None:
    for n in gast.walk(new):
        if not hasattr(n, "lineno") or getattr(n, "lineno", None) is None:
            gast.copy_location(n, old)
            if hasattr(old, "end_lineno"):
                n.end_lineno, n.end_col_offset = old.end_lineno, old.end_col_offset
