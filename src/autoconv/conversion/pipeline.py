"""The passes that convert one function's syntax tree, in order.

    checks -> declarations, super(), private names -> `:=` in tests -> continue -> break
           -> return -> assert
           -> item assignment -> list items -> conditional expressions -> and/or/not/is None
           -> keyed sets and dicts -> run-time item reads -> f-strings -> calls -> staged `try`
           -> liveness -> control flow

Nested functions are converted first, each on its own; the passes of a function then treat them
as statements that bind a name.
"""

import gast

from autoconv.conversion import limits
from autoconv.conversion.context import Context
from autoconv.converters import (
    asserts,
    blocks,
    break_statements,
    calls,
    checks,
    comprehensions,
    conditional_expressions,
    continue_statements,
    control_flow,
    functions,
    handlers,
    inplace_calls,
    item_assignment,
    keyed,
    list_items,
    logical_expressions,
    match_statements,
    return_statements,
    run_time_index,
    staged_try,
    strings,
    suppress,
    walrus_tests,
    written_params,
)
from autoconv.converters.expressions import is_docstring
from autoconv.pyct import anno, definite, liveness, scopes

_COMPREHENSIONS = (gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)


def convert(
    node,
    *,
    namer,
    ac,
    resolver,
    recursive,
    on_kept,
    on_left=None,
    nested=True,
    indent=0,
    closure=frozenset(),
    closure_arrays=frozenset(),
) -> None:
    """Converts a gast FunctionDef or Lambda in place. Raises `checks.Unconvertible` when the
    function must stay Python (its converted form printed at indentation level `indent` too
    deep to compile, among others; None: not checked); reports statements left as Python through
    `on_kept(construct, line, reason, function_name)` and nested functions left as Python
    through `on_left(function_node, unconvertible)` (default: as kept statements).

    With `nested=False`, the functions and lambdas the function defines stay as written: calls
    to them go through `ac.converted`, which converts them on their first call, as any callee.
    `closure`: the names the function reads from an enclosing function's cells (its code's
    free variables), which it may rebind with `nonlocal` (`converters.item_assignment`);
    `closure_arrays`: those of them that held NumPy arrays when it was converted.
    """
    if not isinstance(node, gast.Lambda) and match_statements.transform(node, namer):
        scopes.forget_own_nodes(node)  # (an `if` chain now: staged as any)
    local_names = scopes.local_names(node)
    if not nested:
        for child in user_scopes(node):
            anno.set(child, "as_written", True)
    checks.find_blockers(node, local_names)
    for construct, line, reason in checks.find_kept(node):
        on_kept(construct, line, reason, getattr(node, "name", "<lambda>"))
    ctx = Context(
        node, namer=namer, ac=ac, resolver=resolver, recursive=recursive, local_names=local_names
    )
    if isinstance(node, gast.Lambda):
        scopes.forget_own_nodes(node)
        conditional_expressions.transform(node, ctx)
        logical_expressions.transform(node, ctx)
        # The runtime calls a lambda with items known only when the graph runs (`min(items,
        # key=lambda k: dist[k])`), so its reads at a parameter may be at such keys.
        run_time_index.transform(node, ctx, joins=False)
        strings.transform(node, ctx)
        calls.transform(node, ctx)
        return
    if nested:
        _convert_nested(
            node,
            namer=namer,
            ac=ac,
            resolver=resolver,
            recursive=recursive,
            on_kept=on_kept,
            on_left=on_left,
            indent=None,  # checked with the function that holds it
        )
    docstring = _take_docstring(node)
    ctx.globals, ctx.nonlocals = functions.hoist_declarations(node)
    ctx.closure = frozenset(closure) - ctx.local_names - ctx.globals
    ctx.closure_arrays = ctx.closure & frozenset(closure_arrays)
    functions.explicit_super(node)
    has_control_flow = any(
        isinstance(n, (gast.If, gast.For, gast.While)) for n in scopes.own_nodes(node)
    )
    has_comprehension = any(isinstance(n, _COMPREHENSIONS) for n in scopes.own_nodes(node))
    local_key = run_time_index.reads_at_local_key(scopes.own_nodes(node))
    # `x if c else y` may choose a string when the graph runs (`"-".join(parts)` then joins it)
    has_choice = any(isinstance(n, gast.IfExp) for n in scopes.own_nodes(node))
    joins = run_time_index.joins_text(scopes.own_nodes(node))
    suppress.transform(node, ctx)  # `with suppress(E):` is a `try`: before marking them
    staged_try.mark_users(node)
    scopes.forget_own_nodes(node)
    handlers.transform(node, ctx)  # the user's own handlers, before the converter adds any
    if has_control_flow:
        walrus_tests.transform(node, ctx)  # adds a `break`: before `continue` and `break`
    continue_statements.transform(node, ctx)
    break_statements.transform(node, ctx)
    return_statements.transform(node, ctx)
    asserts.transform(node, ctx)
    item_assignment.transform(node, ctx)
    inplace_calls.transform(node, ctx)
    # (a filtered comprehension's length is staged; `sorted()` may give a run-time list; an
    # object's lists are read in any function)
    list_items.transform(node, ctx, has_control_flow or has_comprehension or list_items.sorts(node))
    comprehensions.transform(node, ctx)
    conditional_expressions.transform(node, ctx)
    logical_expressions.transform(node, ctx)
    keyed.transform(node, ctx)
    if has_control_flow or has_comprehension or local_key or has_choice:
        run_time_index.transform(node, ctx)
    elif joins:  # (`",".join(map(str, xs))`: strings made when the graph runs)
        run_time_index.transform(node, ctx, reads=False)
    strings.transform(node, ctx)
    calls.transform(node, ctx)
    if staged_try.transform(node, ctx):
        has_control_flow = True
    if has_control_flow:
        local = ctx.local_names | ctx.flags | ctx.globals | ctx.nonlocals
        liveness.analyze(node, local, ctx.activity, ctx.globals | ctx.nonlocals)
        # Globals and nonlocals read unbound raise NameError before and after conversion alike.
        definite.analyze(node, ctx.local_names | ctx.flags, _parameters(node))
        control_flow.transform(node, ctx)
    ctx.finish(node, docstring)
    written_params.wrap(node, ctx.ac, len(docstring))
    blocks.fill_empty(node)
    if indent is not None:
        limits.check_indentation(node, indent)


def user_scopes(node) -> list:
    """The functions, lambdas and classes that `node` defines in its own scope."""
    return [child for child in scopes.own_nodes(node) if scopes.is_scope(child)]


def _convert_nested(node, **options) -> None:
    for child in scopes.walk_scope(node.body):
        if isinstance(child, (gast.FunctionDef, gast.AsyncFunctionDef)) and child is not node:
            try:
                convert(child, **options)
            except checks.Unconvertible as e:
                if options["on_left"] is not None:
                    options["on_left"](child, e)
                else:
                    options["on_kept"](e.construct, e.line, e.reason, child.name)


def _take_docstring(node) -> list:
    if node.body and is_docstring(node.body[0]):
        return [node.body.pop(0)]
    return []


def _parameters(node) -> set:
    args = node.args
    every = args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]
    return {a.id for a in every if a is not None}
