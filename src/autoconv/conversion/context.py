"""What the converters of one function share: names, scope facts, and the code they add at the
top of the function."""

import re

import gast

from autoconv.converters import blocks
from autoconv.converters.lowering import located_name
from autoconv.pyct import scopes, templates

_INT_ITEM = re.compile(r"([A-Za-z_][A-Za-z_0-9]*)\[(-?[0-9]+)\]")


class Context:
    def __init__(self, function_node, *, namer, ac, resolver, recursive, local_names):
        self.namer = namer
        self.ac = ac
        self.resolver = resolver
        self.recursive = recursive
        self.function_node = function_node
        self.local_names = local_names
        self.activity = scopes.Activity()  # memo of what statements bind and read
        self.globals, self.nonlocals = set(), set()
        self.closure = frozenset()  # names read from an enclosing function's cells
        self.closure_arrays = frozenset()  # those that held NumPy arrays
        self.flags = set()  # generated locals: retval, do_return, break_, continue_
        self.prologue = []  # statements that start the function body
        self.state_defs = []
        self._state_names = {}
        self.nonlocal_used = {}  # name -> None, in first-declared order
        self.dead_bindings = set()  # names bound only in code that lowering found unreachable
        self.helper_results = None  # memo of `converters.keyed.helper_results`

    def is_function_local(self, name) -> bool:
        return (
            name in self.local_names
            or name in self.flags
            or name in self.nonlocals
            or name in self.globals
        )

    def is_builtin(self, name) -> bool:
        return name not in self.local_names and self.resolver.is_builtin(name)

    def declarations(self, stmts, exclude=()) -> list:
        """`global`/`nonlocal` statements for the function-level names `stmts` bind (in a
        generated function), after rewriting their annotated assignments, which Python forbids
        on nonlocal names."""
        bound = scopes.bound_names(stmts) - set(exclude)
        globals_ = sorted(bound & self.globals)
        nonlocals = [n for n in _ordered(stmts, bound) if self.is_function_local(n)]
        nonlocals = [n for n in nonlocals if n not in self.globals]
        if not globals_ and not nonlocals:
            return []
        stmts[:] = blocks.rewrite(stmts, _drop_annotation)
        for n in nonlocals:
            self.nonlocal_used.setdefault(n)
        out = []
        if globals_:
            out.append(gast.Global(names=globals_))
        if nonlocals:
            out.append(gast.Nonlocal(names=nonlocals))
        return out

    def state_functions(self, names: tuple) -> tuple:
        """(state names, (get_state name, set_state name)) for a statement whose state is
        `names`: a pair defined on first request, or an existing pair for a superset."""
        if names in self._state_names:
            return names, self._state_names[names]
        # A pair for more names serves too: the extra ones pass through unchanged.
        supersets = [k for k in self._state_names if set(names) <= set(k)]
        if supersets:
            best = min(supersets, key=len)
            return best, self._state_names[best]
        get_name, set_name = self.namer.new("get_state"), self.namer.new("set_state")
        self._state_names[names] = (get_name, set_name)
        elts = ", ".join(names)
        roots = {n.split(".")[0].split("[")[0] for n in names}
        param = "state" if "state" not in roots else self.namer.new("state")
        # An item with an int key, `x[0]`, is written back through the runtime
        # (`ac.store_item`): a JAX array cannot change (a JAX trace carries it whole).
        stored, targets = [], []
        for n in names:
            item = _INT_ITEM.fullmatch(n)
            if item is not None:
                temp = self.namer.new("item")
                stored.append(f"    ac.store_item({item[1]}, {item[2]}, {temp})\n")
                targets.append(temp)
            else:
                targets.append(n)
        target = f"[{targets[0]}]" if len(names) == 1 else ", ".join(targets)
        defs = templates.stmts(
            f"def {get_name}():\n    return ({elts}{',' if len(names) == 1 else ''})\n"
            f"def {set_name}({param}):\n    {target} = {param}\n" + "".join(stored),
            ac=self.ac,
        )
        plain = [n for n in names if n.isidentifier()]
        declare = [n for n in plain if n not in self.globals]
        if declare:
            defs[1].body.insert(0, gast.Nonlocal(names=declare))
            for n in declare:
                self.nonlocal_used.setdefault(n)
        globals_ = [n for n in plain if n in self.globals]
        if globals_:
            defs[1].body.insert(0, gast.Global(names=globals_))
        for d in defs:
            located(d, self.function_node)
        self.state_defs.extend(defs)
        return names, (get_name, set_name)

    def finish(self, function_node, docstring) -> None:
        """Puts declarations, state functions and the prologue at the top of the body."""
        params = set()
        args = function_node.args
        for arg in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
            if arg is not None:
                params.add(arg.id)
        body = function_node.body
        top = scopes.bound_names(body + self.prologue) | params
        wanted = list(self.nonlocal_used) + sorted(self.dead_bindings - set(self.nonlocal_used))
        undeclared = [
            n for n in wanted if n not in top and n not in self.nonlocals and n not in self.globals
        ]
        head = []
        if self.globals:
            head.append(gast.Global(names=sorted(self.globals)))
        if self.nonlocals:
            head.append(gast.Nonlocal(names=sorted(self.nonlocals)))
        head.extend(self.state_defs)
        # A name that only generated functions bind must still be a local of this function
        # for their `nonlocal` to refer to it; an annotation declares it without binding it,
        # so reading it too early still raises UnboundLocalError, as before conversion.
        head.extend(
            gast.AnnAssign(
                target=located_name(n, gast.Store(), function_node),
                annotation=located_name("object", gast.Load(), function_node),
                value=None,
                simple=1,
            )
            for n in undeclared
        )
        head.extend(self.prologue)
        for node in head:
            located(node, function_node)
        function_node.body = docstring + head + body


def located(node, origin):
    from autoconv.converters.lowering import copy_location_tree

    return copy_location_tree(node, origin)


def _drop_annotation(stmt):
    if isinstance(stmt, gast.AnnAssign) and isinstance(stmt.target, gast.Name):
        if stmt.value is None:
            return []
        assign = gast.Assign(targets=[stmt.target], value=stmt.value, type_comment=None)
        return [gast.copy_location(assign, stmt)]
    return [stmt]


def _ordered(stmts, names) -> list:
    out = []
    for node in scopes.walk_scope(stmts):
        ident = None
        if isinstance(node, gast.Name):
            ident = node.id
        elif isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            ident = node.name
        elif isinstance(node, gast.alias):
            ident = (node.asname or node.name).split(".")[0]
        if ident in names and ident not in out:
            out.append(ident)
    for n in sorted(names):  # bindings walk_scope cannot see by name (match captures, :=)
        if n not in out:
            out.append(n)
    return out
