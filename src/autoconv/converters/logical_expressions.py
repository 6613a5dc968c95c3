"""`and`, `or`, `not` and chained comparisons to lazy runtime calls.

    a and b or not c     ->  ac.or_(ac.and_(a, lambda: b), lambda: ac.not_(c))
    0 <= i < n           ->  ac.and_(0 <= i, lambda: i < n)
    x is None            ->  ac.is_none(x)          (x is not None -> ac.is_not_none(x))
    x is y               ->  ac.is_(x, y)           (x is not y -> ac.is_not(x, y))
    (v, -i) > best       ->  ac.compare('>', (v, -i), best)     (a tuple written in place, or
                                                                a name bound only to those)
    v in vals            ->  ac.in_(v, vals)        (a display, or a name bound only to lists)
    if a and b: ...      ->  ac.if_stmt(ac.and_(a, lambda: b, test=True), ...)

Where only the truth of the value counts (the test of `if`, `while`, `assert`, a conditional
expression, a comprehension's `if`, a `case` guard, and the operands of `and`/`or`/`not` there),
the call has `test=True`: it returns the truth itself, so each operand's `__bool__` runs once,
as in Python, instead of once in the operator and again in the statement.

`is None` is a call because a variable that is None on some paths only of staged control flow
holds, while tracing, a value whose None-ness is known only when the graph runs.

Only the first operand is evaluated eagerly, as in Python. An operand holding `:=` stays as
Python: inside a lambda it would bind in the lambda, not in the function. A chained comparison
is split only when its middle operands are names, constants, or reads of a name by them
(`x[0]`, `self.n`), which are safe to evaluate twice; other orderings go to the runtime, which
evaluates each operand once (`0 < np.max(x) <= 2` -> `ac.compare_chain(('<', '<='), 0,
lambda: np.max(x), lambda: 2)`).
"""

import gast

from autoconv.converters import expressions
from autoconv.pyct import anno, templates
from autoconv.pyct.transformer import Transformer
from autoconv.pyct.walk import walk


def transform(function_node, ctx) -> None:
    expressions.rewrite(function_node, _Logical(ctx, _tests(function_node, ctx.ac)))


def _tests(function_node, ac) -> set:
    """The ids of the expressions whose truth only counts (see the module docstring); `and`,
    `or` and `not` inside them are added as the transformer reaches them."""
    tests = set()
    for node in walk(function_node):
        if isinstance(node, (gast.If, gast.While, gast.IfExp, gast.Assert)):
            tests.add(id(node.test))
        elif isinstance(node, gast.comprehension):
            tests.update(id(t) for t in node.ifs)
        elif isinstance(node, gast.match_case) and node.guard is not None:
            tests.add(id(node.guard))
        elif (
            isinstance(node, gast.Call)
            and node.args
            and isinstance(node.func, gast.Attribute)
            and node.func.attr in ("if_exp", "assert_")
            and isinstance(node.func.value, gast.Name)
            and node.func.value.id == ac
        ):
            tests.add(id(node.args[0]))  # converted conditional expressions and asserts
        elif (
            isinstance(node, gast.Call)
            and len(node.args) >= 3
            and isinstance(node.func, gast.Attribute)
            and node.func.attr == "filtered"
            and isinstance(node.func.value, gast.Name)
            and node.func.value.id == ac
            and isinstance(node.args[1], gast.Lambda)
        ):
            tests.add(id(node.args[1].body))  # a comprehension's `if`s (converters/comprehensions)
    return tests


class _Logical(Transformer):
    def __init__(self, ctx, tests):
        super().__init__()
        self.ac = ctx.ac
        self.tests = tests
        # (`vals = list(x)`, `parts = [a, b]`: `v in vals` through `ac.in_`; `best = (v, -i)`:
        # `cand > best` through `ac.compare`)
        self.lists = expressions.bound_only_to(ctx.function_node, _makes_list)
        self.tuples = expressions.bound_only_to(ctx.function_node, _tuple_display)

    def _tuple(self, node) -> bool:
        """A tuple written in place, or a name bound only to such tuples."""
        return _tuple_display(node) or isinstance(node, gast.Name) and node.id in self.tuples

    def visit_BoolOp(self, node):
        if anno.get(node, "as_written"):
            return node  # generated on Python flags (lowering's re-raise test)
        test = id(node) in self.tests
        if test:
            self.tests.update(id(v) for v in node.values)
        self.generic_visit(node)
        if any(expressions.binds_or_suspends(v) for v in node.values[1:]):
            return node
        fn = "and_" if isinstance(node.op, gast.And) else "or_"
        call = templates.expr(f"ac.{fn}(first)", ac=self.ac, first=node.values[0])
        call.args.extend(expressions.thunk(v) for v in node.values[1:])
        return expressions.located(self.as_test(call, test), node)

    def as_test(self, call, test):
        if test:
            call.keywords.append(
                gast.keyword(arg="test", value=gast.Constant(value=True, kind=None))
            )
        return call

    def visit_UnaryOp(self, node):
        if anno.get(node, "as_written"):
            return node
        if isinstance(node.op, gast.Not) and id(node) in self.tests:
            self.tests.add(id(node.operand))
        self.generic_visit(node)
        if not isinstance(node.op, gast.Not):
            return node
        return expressions.located(templates.expr("ac.not_(x)", ac=self.ac, x=node.operand), node)

    def visit_Compare(self, node):
        test = id(node) in self.tests
        self.generic_visit(node)
        if len(node.ops) == 1 and isinstance(node.ops[0], (gast.Is, gast.IsNot)):
            left, right = node.left, node.comparators[0]
            if _is_none(left) != _is_none(right):
                fn = "is_none" if isinstance(node.ops[0], gast.Is) else "is_not_none"
                value = right if _is_none(left) else left
                return expressions.located(templates.expr(f"ac.{fn}(x)", ac=self.ac, x=value), node)
            if not (_is_none(left) or _is_none(right)):
                # `best is orders[2]`: `best` may be one of several objects, by path.
                fn = "is_" if isinstance(node.ops[0], gast.Is) else "is_not"
                call = templates.expr(f"ac.{fn}(a, b)", ac=self.ac, a=left)
                call.args[1] = right
                return expressions.located(call, node)
        if (
            len(node.ops) == 1
            and type(node.ops[0]) in _ORDER
            and any(self._tuple(side) for side in (node.left, node.comparators[0]))
        ):
            # `(v, -i) > best`: Python compares the items while tracing, one by one.
            op = gast.Constant(value=_ORDER[type(node.ops[0])], kind=None)
            call = templates.expr("ac.compare(op, a, b)", ac=self.ac, op=op, a=node.left)
            call.args[2] = node.comparators[0]
            return expressions.located(call, node)
        if (
            len(node.ops) == 1
            and isinstance(node.ops[0], (gast.In, gast.NotIn))
            and (
                isinstance(node.comparators[0], (gast.Tuple, gast.List, gast.Set))
                and not any(isinstance(e, gast.Starred) for e in node.comparators[0].elts)
                or isinstance(node.comparators[0], gast.Name)
                and node.comparators[0].id in self.lists
            )
        ):
            # `live in (2, 3)`: a symbolic value is compared with each item when the graph runs.
            call = templates.expr("ac.in_(x, items)", ac=self.ac, x=node.left)
            call.args[1] = node.comparators[0]
            if isinstance(node.ops[0], gast.NotIn):
                call = templates.expr("ac.not_(x)", ac=self.ac, x=call)
            return expressions.located(call, node)
        if len(node.ops) < 2:
            return node
        if not all(_twice_safe(c) for c in node.comparators[:-1]):
            if not all(type(op) in _ORDER for op in node.ops) or any(
                expressions.binds_or_suspends(c) for c in node.comparators
            ):
                return node
            # `0 < np.max(x) <= 2`: each operand evaluated once, by the runtime
            ops = gast.Tuple(
                elts=[gast.Constant(value=_ORDER[type(op)], kind=None) for op in node.ops],
                ctx=gast.Load(),
            )
            call = templates.expr("ac.compare_chain(ops, left)", ac=self.ac, ops=ops)
            call.args[1] = node.left
            call.args.extend(expressions.thunk(c) for c in node.comparators)
            return expressions.located(self.as_test(call, test), node)
        operands = [node.left, *node.comparators]
        parts = [
            expressions.located(
                gast.Compare(
                    left=templates.copy(operands[i]) if i else operands[i],
                    ops=[op],
                    comparators=[operands[i + 1]],
                ),
                node,
            )
            for i, op in enumerate(node.ops)
        ]
        call = templates.expr("ac.and_(first)", ac=self.ac, first=parts[0])
        call.args.extend(expressions.thunk(p) for p in parts[1:])
        return expressions.located(self.as_test(call, test), node)


def _twice_safe(node) -> bool:
    """A name, a constant, or a read of one by a name or constant (`x[0]`, `x[i]`, `self.n`,
    `x[-1]`): an operand evaluated twice as `a < x[0] and x[0] < b` gives the same value."""
    if isinstance(node, (gast.Name, gast.Constant)):
        return True
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        return isinstance(node.operand, gast.Constant)
    if isinstance(node, gast.Attribute):
        return isinstance(node.value, gast.Name)
    if isinstance(node, gast.Subscript):
        keys = node.slice.elts if isinstance(node.slice, gast.Tuple) else [node.slice]
        return isinstance(node.value, gast.Name) and all(_twice_safe(k) for k in keys)
    return False


_ORDER = {
    gast.Lt: "<",
    gast.LtE: "<=",
    gast.Gt: ">",
    gast.GtE: ">=",
    gast.Eq: "==",
    gast.NotEq: "!=",
}


_MAKES_LISTS = ("list", "tuple", "sorted")


def _makes_list(value) -> bool:
    return (
        isinstance(value, (gast.List, gast.Tuple, gast.ListComp))
        or isinstance(value, gast.Call)
        and isinstance(value.func, gast.Name)
        and value.func.id in _MAKES_LISTS
    )


def _tuple_display(node) -> bool:
    return isinstance(node, gast.Tuple) and not any(isinstance(e, gast.Starred) for e in node.elts)


def _is_none(node) -> bool:
    return isinstance(node, gast.Constant) and node.value is None
