"""Calls to user code through `ac.converted`, so callees are converted when first called.

    helper(x)      ->  ac.converted(helper)(x)
    np.sum(x)      ->  np.sum(x)                  (known at conversion time to be NumPy)
    len(xs)        ->  ac.len(xs)                 (a run-time length while tracing; also
                                                   max and min of Tensors)
    print(x)       ->  ac.print(x)                (staged where x is known only at run time;
                                                   also str, repr and format: strings made then)
    vals.index(v)  ->  ac.list_method(vals, 'index', v)   (also count, remove and sort of a
                                                   local name: staged on a list of Tensors)
    reduce(lambda a, b: ..., xs)  ->  reduce(ac.converted(lambda a, b: ...), xs)
                                                  (a lambda that a call left as written calls)

`ac.converted(f)` returns the function to call instead of calling it, so no extra frame stays
on the stack during the call. A call whose target is known at conversion time (a global or
built-in name, or an attribute of a module) and is a built-in, a class, library code or marked
`do_not_convert` is left as it is: it would be called unconverted anyway, and the code reads
better. Names the function binds itself, closure variables and everything else go through the
runtime, which decides on each call.
"""

import types

import gast

from autoconv.conversion.resolve import MATH_NAMES, numpy_callable, stacks_lists
from autoconv.converters import expressions
from autoconv.pyct import templates
from autoconv.pyct.transformer import Transformer
from autoconv.pyct.walk import walk


def transform(function_node, ctx) -> None:
    if not ctx.recursive:
        return
    calls = _Calls(ctx, *_names(function_node))
    calls.run_lists = _run_lists(function_node, ctx.ac)
    expressions.rewrite(function_node, calls)


def _run_lists(function_node, ac) -> set:
    """Names bound to a list the list_items converter reads through the runtime: a
    comprehension (`ac.filtered(...)`), a worklist deque (`ac.deque(...)`) or a slice
    (`ac.list_item(kept, slice(...))`), whose items may be known only when the graph runs."""
    found = set()
    for node in walk(function_node):
        if (
            isinstance(node, gast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], gast.Name)
            and isinstance(node.value, gast.Call)
            and isinstance(node.value.func, gast.Attribute)
            and isinstance(node.value.func.value, gast.Name)
            and node.value.func.value.id == ac
            and (
                node.value.func.attr in ("filtered", "deque")  # (a worklist deque: deques.py)
                or node.value.func.attr == "list_item"
                and _list_written(
                    node.value, {a.id for a in node.value.args[:1] if isinstance(a, gast.Name)}
                )
            )
        ):
            found.add(node.targets[0].id)
    return found


_DISPLAYS = (
    gast.List,
    gast.Dict,
    gast.Set,
    gast.Tuple,
    gast.ListComp,
    gast.DictComp,
    gast.SetComp,
    gast.JoinedStr,
    gast.Constant,
)


_KEYED = frozenset(("add", "discard", "get", "setdefault", "items", "values", "keys")).union(
    # a set or dict holding run-time keys stages these, or refuses them (`runtime.keyed`)
    "update union intersection difference symmetric_difference issubset issuperset isdisjoint "
    "intersection_update difference_update symmetric_difference_update copy clear popitem".split()
)


def _display(value, target) -> bool:
    """Whether `value` is a display or literal, a list display repeated (`[1] * n`), or, for
    `target` a name (None: any), the item write the item_assignment converter made of
    `target[i] = v` (`best = ac.setitem(best, i, v)`: the same list)."""
    if isinstance(value, _DISPLAYS):
        return True
    if isinstance(value, gast.BinOp) and isinstance(value.op, gast.Mult):
        return isinstance(value.left, gast.List) or isinstance(value.right, gast.List)
    return (
        isinstance(value, gast.Call)
        and isinstance(value.func, gast.Attribute)
        and value.func.attr in ("setitem", "setitem_path")
        and bool(value.args)
        and isinstance(value.args[0], gast.Name)
        and (target is None or isinstance(target, gast.Name) and target.id == value.args[0].id)
    )


def _names(function_node) -> tuple:
    """In one walk of the function: (names bound anywhere in it, which calls cannot resolve in
    advance; locals only ever bound to displays or literals, like `out = []`, whose methods are
    built-ins; names bound only by its `class` statements, which are called as they are)."""
    shadowed, candidates, others, accepted, classes = set(), set(), set(), set(), set()
    for node in walk(function_node):
        if isinstance(node, (gast.Assign, gast.AugAssign)) and _display(node.value, None):
            targets = node.targets if isinstance(node, gast.Assign) else [node.target]
            for target, value in expressions.bound_pairs(targets, node.value):
                if _display(value, target):
                    candidates.add(target.id)
                    accepted.add(id(target))
        elif isinstance(node, gast.Name) and not isinstance(node.ctx, gast.Load):
            shadowed.add(node.id)
            if id(node) not in accepted:
                others.add(node.id)
        elif isinstance(node, (gast.Nonlocal, gast.Global)):
            others.update(node.names)
        elif isinstance(node, gast.ClassDef):
            classes.add(node.name)
        elif isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.alias)):
            name = (
                getattr(node, "name", None)
                if not isinstance(node, gast.alias)
                else (node.asname or node.name).split(".")[0]
            )
            others.add(name)
            if node is not function_node:  # a local `def step` hides a global `step`
                shadowed.add(name)
    if isinstance(function_node, gast.Lambda):
        return shadowed, set(), set()
    # Targets of accepted assignments are also in `shadowed` (they are Store names).
    return shadowed, candidates - others, classes - others - candidates


def _list_written(node, builtin_typed) -> bool:
    """Whether `node` is a list or tuple written in place, a local bound only to those, or a
    slice of one."""
    if isinstance(node, (gast.List, gast.Tuple, gast.ListComp)):
        return True
    if (
        isinstance(node, gast.Call)
        and isinstance(node.func, gast.Attribute)
        and node.func.attr == "list_item"
        and len(node.args) == 2
        and isinstance(node.args[1], gast.Call)
        and isinstance(node.args[1].func, gast.Name)
        and node.args[1].func.id == "slice"
    ):
        # `np.mean(gains[t - n : t])`, which the list_items converter made `ac.list_item(...)`
        return _list_written(node.args[0], builtin_typed)
    return isinstance(node, gast.Name) and node.id in builtin_typed


_SEQUENCE_METHODS = frozenset(("index", "count", "remove", "sort"))
"""Methods of a local name called through `ac.list_method` (runtime.sequences)."""

_STAGED_BUILTINS = (
    "len",
    "max",
    "min",
    "int",
    "float",
    "bool",
    "sum",
    "round",
    "next",
    "any",
    "all",
    "type",
    "isinstance",
    "sorted",
    "reversed",
    "print",
    "str",
    "repr",
    "format",
    "chr",
    "hex",
    "oct",
    "bin",
    "filter",
    "map",
)


class _Calls(Transformer):
    def __init__(self, ctx, shadowed, builtin_typed, classes):
        super().__init__()
        self.ctx = ctx
        self.shadowed = shadowed
        self.builtin_typed = builtin_typed
        self.classes = classes
        self.run_lists: set = set()  # (set by `transform`)

    def _stacks(self, node) -> bool:
        """`np.mean(parts)`, `np.array_equal(kept, ref)` of a list the function writes:
        through the runtime, which stacks its Tensors or run-time items (resolve.STACKED, and
        any NumPy function's array arguments)."""
        value = getattr(self.ctx.resolver, "value", None)
        if value is None or not node.args:
            return False
        if _list_written(node.args[0], self.builtin_typed):
            if stacks_lists(value(node.func, self.shadowed)):
                return True
        listed = [*node.args, *(k.value for k in node.keywords)]
        lists = self.builtin_typed | self.run_lists
        return any(_list_written(a, lists) for a in listed) and numpy_callable(
            value(node.func, self.shadowed)
        )

    def _lambdas_converted(self, node):
        """A call left as written: a lambda among its arguments, which the callee (library
        code: `functools.reduce(lambda a, b: ...)`, `xs.sort(key=lambda p: ...)`) calls as it
        is, goes through `ac.converted`, as a call of it in converted code would."""
        for i, arg in enumerate(node.args):
            if self._called_later(arg):
                node.args[i] = self._converted(arg)
        for keyword in node.keywords:
            if self._called_later(keyword.value):
                keyword.value = self._converted(keyword.value)
        return node

    def _given_lists(self, node) -> bool:
        """A library function (not NumPy's) given a list the function builds, which may hold
        items a staged loop appended (`statistics.mean(vals)`): called through the runtime,
        which names the list where the library fails on it (`runtime.calls._reading_lists`)."""
        lists = self.builtin_typed | self.run_lists
        listed = [*node.args, *(k.value for k in node.keywords)]
        if not any(isinstance(a, gast.Name) and a.id in lists for a in listed):
            return False
        value = getattr(self.ctx.resolver, "value", None)
        fn = value(node.func, self.shadowed) if value is not None else None
        # (a C function reads the stand-in for the items through its own protocols, which
        # raise the clear error themselves: `math.fsum(vals)` asks it for a float)
        return isinstance(fn, types.FunctionType) and not numpy_callable(fn)

    def _called_later(self, arg) -> bool:
        """A lambda, or a `math` function staged on Tensors (`functools.reduce(math.gcd, xs)`),
        given to a call left as written."""
        if isinstance(arg, gast.Lambda):
            return True
        return (
            isinstance(arg, gast.Attribute)
            and isinstance(arg.value, gast.Name)
            and arg.value.id == "math"
            and "math" not in self.shadowed
            and arg.attr in MATH_NAMES
        )

    def _converted(self, fn):
        call = templates.expr("ac.converted(f)", ac=self.ctx.ac)
        call.args[0] = fn
        return expressions.located(call, fn)

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if (
            isinstance(func, gast.Attribute)
            and isinstance(func.value, gast.Name)
            and (func.value.id == self.ctx.ac)
        ):
            return node  # a runtime operator another converter emitted
        if (
            isinstance(func, gast.Attribute)
            and func.attr in _SEQUENCE_METHODS
            and isinstance(func.value, gast.Name)
            and func.value.id in self.ctx.local_names
            and not any(k.arg is None for k in node.keywords)
            and not any(isinstance(a, gast.Starred) for a in node.args)
        ):
            # `vals.index(m)` of a list holding Tensors compares them when the graph runs
            # (runtime.sequences); any other object's method is called converted.
            method = gast.Constant(value=func.attr, kind=None)
            call = templates.expr("ac.list_method(name, method)", ac=self.ctx.ac, method=method)
            call.args[0] = func.value
            call.args.extend(node.args)
            call.keywords = node.keywords
            return expressions.located(call, node)
        if isinstance(func, gast.Attribute) and (
            isinstance(func.value, _DISPLAYS)
            or isinstance(func.value, gast.Name)
            and func.value.id in self.builtin_typed
            and func.attr not in _KEYED  # `seen.add(k)`: a key may be known only at run time
        ):
            # a method of a built-in type: `', '.join(xs)`, `out.append(x)`
            return self._lambdas_converted(node)
        if isinstance(func, gast.Name) and func.id in self.classes:
            return node  # a class this function defines: classes are called as they are
        if (
            isinstance(func, gast.Name)
            and func.id in _STAGED_BUILTINS
            and func.id not in self.shadowed
            and self.ctx.is_builtin(func.id)
        ):
            # Known only when the graph runs: the length of a list grown in a staged loop,
            # the larger of two Tensors, a Tensor as a Python number; a print of a value
            # known only then (runtime.printing says why it is rewritten, not resolved).
            fn = f"ac.{func.id}"
            node.func = expressions.located(templates.expr(fn, ac=self.ctx.ac), func)
            return node
        if (
            self.ctx.resolver.is_passthrough(func, self.shadowed)
            and not self._stacks(node)
            and not self._given_lists(node)
        ):
            return self._lambdas_converted(node)
        node.func = expressions.located(
            templates.expr("ac.converted(f)", ac=self.ctx.ac, f=node.func), node.func
        )
        return node
