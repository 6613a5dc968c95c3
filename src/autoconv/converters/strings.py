"""f-strings as values: `f"day {d}: {c:+.1f}%"` -> `ac.text(f"day {d}: {c:+.1f}%")`;
`%`-formatting and `str.format`: `"%.2f" % v` -> `ac.percent("%.2f", v, False)`,
`fmt.format(v)` -> `ac.str_format(fmt, (v,), {}, False)` (runtime/formats.py; True in the
arguments of Python's `print`).

While a graph is traced, formatting a Tensor gives a marker that stands for its run-time value
(trace/tensors/printing.py); `ac.text` turns a string holding markers into a value of the graph
(a `format` node) made when it runs, so the f-string can be returned, appended or joined. On
Python values `ac.text(s)` is `s`. Each formatted value is `ac.formatted(v)`: `v`, or a JAX
tracer's stand-in, whose marker a print shows at run time and `ac.text` refuses. Left as
written: f-strings with no replacement field, the arguments of Python's `print` (which formats
its markers itself; their values are `ac.formatted` too) and the messages of `raise` and
`assert` (formatted when a staged raise happens).
"""

import gast

from autoconv.converters import expressions
from autoconv.pyct import templates
from autoconv.pyct.transformer import Transformer
from autoconv.pyct.walk import walk


def transform(function_node, ctx) -> None:
    # The messages of `raise` statements are formatted when a staged raise happens.
    kept = {
        id(n)
        for r in walk(function_node)
        if isinstance(r, gast.Raise)
        for n in walk(r)
        if isinstance(n, (gast.JoinedStr, gast.BinOp, gast.Call))
    }
    expressions.rewrite(function_node, _Strings(ctx, kept))


class _Strings(Transformer):
    def __init__(self, ctx, kept):
        super().__init__()
        self.ctx = ctx
        self.kept = kept

    def visit_Call(self, node):
        func = node.func
        if isinstance(func, gast.Name) and func.id == "print" and self.ctx.is_builtin("print"):
            node.args = [self._printed(a) for a in node.args]
            node.keywords = [self.visit(k) for k in node.keywords]
            return node
        if (
            isinstance(func, gast.Attribute)
            and isinstance(func.value, gast.Name)
            and func.value.id == self.ctx.ac
            and func.attr == "assert_"
        ):
            return node  # the message of an assert, formatted when it fails
        self.generic_visit(node)
        return self._str_format(node, False) or node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        return self._percent(node, False) or node

    def _printed(self, node):
        """An argument of Python's `print`: an f-string, `%`-formatting or `str.format` of it
        keeps the markers of JAX tracers, which the print takes (runtime/printing.py)."""
        if isinstance(node, gast.JoinedStr):
            return self._values_formatted(node)
        if self._percent(node, True) or self._str_format(node, True):
            self.generic_visit(node)
            return self._percent(node, True) or self._str_format(node, True)
        return self.visit(node)

    def _percent(self, node, printed: bool):
        """`"..." % v` (a string written in the code) -> `ac.percent("...", v)`, else None."""
        if not (
            isinstance(node, gast.BinOp)
            and isinstance(node.op, gast.Mod)
            and isinstance(node.left, gast.Constant)
            and type(node.left.value) is str
            and id(node) not in self.kept
        ):
            return None
        call = templates.expr(
            "ac.percent(fmt, values, printed)",
            ac=self.ctx.ac,
            fmt=node.left,
            values=node.right,
            printed=gast.Constant(value=printed, kind=None),
        )
        return expressions.located(call, node)

    def _str_format(self, node, printed: bool):
        """`fmt.format(a, k=b)` (`fmt` a string written in the code or a name) ->
        `ac.str_format(fmt, (a,), {"k": b})`, else None."""
        func = node.func if isinstance(node, gast.Call) else None
        if not (
            isinstance(func, gast.Attribute)
            and func.attr == "format"
            and (
                (isinstance(func.value, gast.Name) and func.value.id != self.ctx.ac)
                or (isinstance(func.value, gast.Constant) and type(func.value.value) is str)
            )
            and id(node) not in self.kept
        ):
            return None
        call = templates.expr(
            "ac.str_format(fmt, (), {}, printed)",
            ac=self.ctx.ac,
            fmt=func.value,
            printed=gast.Constant(value=printed, kind=None),
        )
        call.args[1].elts = list(node.args)
        call.args[2].keys = [
            gast.Constant(value=k.arg, kind=None) if k.arg else None for k in node.keywords
        ]
        call.args[2].values = [k.value for k in node.keywords]
        return expressions.located(call, node)

    def visit_JoinedStr(self, node):
        if id(node) in self.kept or not any(
            isinstance(v, gast.FormattedValue) for v in node.values
        ):
            return node
        call = templates.expr("ac.text(s)", ac=self.ctx.ac, s=self._values_formatted(node))
        return expressions.located(call, node)

    def _values_formatted(self, node):
        """`f"{v:.2f}"` -> `f"{ac.formatted(v):.2f}"`: a JAX tracer formats as a marker of its
        run-time value (runtime/printing.py), which a print shows and `ac.text` refuses."""
        for part in node.values:
            if isinstance(part, gast.FormattedValue):
                value = self.visit(part.value)
                wrapped = templates.expr("ac.formatted(v)", ac=self.ctx.ac, v=value)
                part.value = expressions.located(wrapped, value)
        return node
