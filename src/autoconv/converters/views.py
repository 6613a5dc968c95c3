"""Writes through a view of a local array: `row = out[i]`, then `row[j] = v`.

Eager NumPy's `out[i]` (integer and slice keys) is a view that shares `out`'s memory, so the
write changes `out` too. A graph gives `row` a new array instead (item_assignment), so the
write must also give `out` one:

    row = out[i]          ->  row_at = i
                              row = ac.view_of(out, row_at, "row = out[...]", True)
    row[j] = v            ->  row, out = ac.setitem_view(row, j, v, out, row_at, "out")

`setitem_view` stores into `out` at `row_at` only where `row` shares its memory (a key of
integers and slices; an array key gives a copy, as eagerly). In Python it is `row[j] = v`
and NumPy does the rest. The names are chosen only where no other path can change what `row`
and `out` see: `row` is bound only by such reads of one `out`, the only name bound to views of
it; `out` is a local bound once (not a parameter: the caller's array is written back another
way, converters/written_params), never written other than through `row`. Anything else stays
as it was (trace.tensors.mutation refuses a write into a view it cannot follow).
"""

import gast

from autoconv.converters import expressions
from autoconv.converters.written_params import own_nodes
from autoconv.pyct import templates


def find(function_node, names) -> dict:
    """`{row: out}` for the view names of the function that writes go through."""
    args = function_node.args
    params = {a.id for a in args.posonlyargs + args.args + args.kwonlyargs}
    if args.vararg is not None:
        params.add(args.vararg.id)
    if args.kwarg is not None:
        params.add(args.kwarg.id)
    binds: dict = {}  # name -> its binding statements (or nodes)
    reads: dict = {}  # name -> the base of each `name = base[key]`
    items_written = set()  # names whose items the function writes
    for node in own_nodes(function_node.body):
        if isinstance(node, (gast.Assign, gast.AugAssign, gast.AnnAssign)):
            targets = node.targets if isinstance(node, gast.Assign) else [node.target]
            for target in targets:
                for t in _flat(target):
                    if isinstance(t, gast.Name):
                        binds.setdefault(t.id, []).append(node)
                        if isinstance(node, gast.AugAssign):
                            binds[t.id].append(None)  # `a += b`: an array changed in place
                    elif isinstance(t, gast.Subscript) and isinstance(t.value, gast.Name):
                        items_written.add(t.value.id)
            view = _view_read(node)
            if view is not None:
                reads.setdefault(view[0], []).append(view[1])
        elif isinstance(node, (gast.For, gast.comprehension)):
            _bind_all(binds, node.target, node)
        elif isinstance(node, gast.With):
            for item in node.items:
                if item.optional_vars is not None:
                    _bind_all(binds, item.optional_vars, node)
        elif isinstance(node, gast.NamedExpr):
            _bind_all(binds, node.target, node)
        elif isinstance(node, (gast.Global, gast.Nonlocal)):
            for name in node.names:
                binds.setdefault(name, []).extend((None, None))
        elif isinstance(node, gast.Delete):
            for t in node.targets:
                _bind_all(binds, t, None)
                if isinstance(t, gast.Subscript) and isinstance(t.value, gast.Name):
                    items_written.add(t.value.id)
        elif isinstance(node, gast.ExceptHandler) and node.name is not None:
            _bind_all(binds, node.name, None)
        elif isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            binds.setdefault(node.name, []).append(None)
        elif isinstance(node, (gast.Import, gast.ImportFrom)):
            for alias in node.names:
                name = (alias.asname or alias.name).split(".")[0]
                binds.setdefault(name, []).append(None)
    found: dict = {}
    for row, bases in reads.items():
        base = bases[0]
        if (
            row in names
            and base in names
            and row not in params
            and base not in params
            and row in items_written
            and all(b == base for b in bases)
            and len(binds.get(row, ())) == len(bases)  # bound only by those reads
            and len(binds.get(base, ())) == 1
            and base not in items_written
        ):
            found[row] = base
    by_base: dict = {}
    for row, base in found.items():
        by_base.setdefault(base, []).append(row)
    # One view name per array: a write through one would leave another's items stale.
    return {row: base for row, base in found.items() if len(by_base[base]) == 1}


def _view_read(node):
    """`(row, out)` of `row = out[key]` (plain names), else None."""
    if (
        isinstance(node, gast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], gast.Name)
        and isinstance(node.value, gast.Subscript)
        and isinstance(node.value.value, gast.Name)
        and node.value.value.id != node.targets[0].id
    ):
        return node.targets[0].id, node.value.value.id
    return None


def _flat(target):
    if isinstance(target, (gast.Tuple, gast.List)):
        for t in target.elts:
            yield from _flat(t)
    elif isinstance(target, gast.Starred):
        yield from _flat(target.value)
    else:
        yield target


def _bind_all(binds, target, node) -> None:
    for t in _flat(target):
        if isinstance(t, gast.Name):
            binds.setdefault(t.id, []).append(node)


def rewrite_reads(stmts, views: dict, keys: dict, ac) -> None:
    """Each `row = out[key]` of `views` as `row_at = key` and `row = ac.view_of(out, row_at,
    "...", True)` (`keys`: each view name's key name)."""
    out = []
    for stmt in stmts:
        view = _view_read(stmt)
        if view is not None and views.get(view[0]) == view[1]:
            row, base = view
            key = stmt.value.slice
            if any(isinstance(n, gast.Slice) for n in gast.walk(key)):
                key = templates.expr("ac.index[key]", ac=ac, key=key)
            at = gast.Name(id=keys[row], ctx=gast.Store(), annotation=None, type_comment=None)
            out.append(
                expressions.located(gast.Assign(targets=[at], value=key, type_comment=None), stmt)
            )
            call = templates.expr(
                "ac.view_of(base, at, text, True)",
                ac=ac,
                base=_load(base),
                at=_load(keys[row]),
                text=gast.Constant(value=f"{row} = {base}[...]", kind=None),
            )
            stmt.value = expressions.located(call, stmt)
            out.append(stmt)
            continue
        if not isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list):
                    rewrite_reads(inner, views, keys, ac)
            for clause in getattr(stmt, "handlers", None) or getattr(stmt, "cases", None) or ():
                rewrite_reads(clause.body, views, keys, ac)
        out.append(stmt)
    stmts[:] = out


def write(stmt, row: str, base: str, at: str, key, value, ac):
    """`row, out = ac.setitem_view(row, key, value, out, row_at, "out")` for `stmt`."""
    call = templates.expr(
        "ac.setitem_view(row, key, value, base, at, text)",
        ac=ac,
        row=_load(row),
        key=key,
        value=value,
        base=_load(base),
        at=_load(at),
        text=gast.Constant(value=base, kind=None),
    )
    store = [
        gast.Name(id=n, ctx=gast.Store(), annotation=None, type_comment=None) for n in (row, base)
    ]
    target = gast.Tuple(elts=store, ctx=gast.Store())
    return expressions.located(gast.Assign(targets=[target], value=call, type_comment=None), stmt)


def _load(name):
    return gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)
