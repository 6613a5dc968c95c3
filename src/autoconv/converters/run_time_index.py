"""Item reads at a key that may be known only when the graph runs go through the runtime:

    a[i]            ->  ac.item_at(a, i)
    R[s, p[s]]      ->  ac.item_at(R, (s, ac.item_at(p, s)))
    x[:, j]         ->  ac.item_at(x, ac.index[:, j])
    a[i:]           ->  ac.item_at(a, ac.index[i:])
    ", ".join(xs)   ->  ac.joined(", ", xs)   (strings read at such a key: chosen then)

Outside a trace `ac.item_at(a, i)` is `a[i]`. While a graph is traced, a NumPy array made in
the function, a Python list, tuple or dict read at a key known only then is read in the graph
(`trace.tensors.switch.item_at`), where Python's own `a[i]` would need the key now.

A key of constants and slices only (`x[0]`, `x[1:]`, `x[:, -1]`), a read inside an assignment's
target (`grid[i][j] = v` tracks `grid[i]` by its path) and a subscript another pass made a
runtime call of already (`ac.list_item`, `ac.keyed_item`) stay as written. Runs only in
functions with a statement that may be staged (`if`, `for`, `while`), a comprehension, or a
read at a key naming a variable the function assigns (`classes[k]`, `k = int(np.argmax(p))`)
or at `int(...)` of a value (`names[int(x[0])]`):
elsewhere every key is a value the caller passed, read as Python reads it.
"""

import gast

from autoconv.converters import expressions
from autoconv.pyct import templates
from autoconv.pyct.transformer import Transformer


def transform(function_node, ctx, joins: bool = True, reads: bool = True) -> None:
    """`joins`: also `sep.join(xs)` (not in a lambda, whose items are the caller's);
    `reads`: the reads at keys (else only the joins)."""
    rewriter = _Reads(ctx.ac, expressions.target_reads(function_node), joins, reads)
    expressions.rewrite(function_node, rewriter)


def joins_text(own_nodes) -> bool:
    """Whether the function joins strings with a separator written in the code (`",".join(
    map(str, xs))`): the items may be strings made when the graph runs."""
    return any(
        isinstance(n, gast.Call)
        and isinstance(n.func, gast.Attribute)
        and n.func.attr == "join"
        and isinstance(n.func.value, gast.Constant)
        and type(n.func.value.value) is str
        for n in own_nodes
    )


def constant_key(node) -> bool:
    """Whether a subscript's key is known when the function is written (see `_constant`)."""
    return _constant(node)


def _constant(node) -> bool:
    """A key known when the function is written: constants, `-1`, slices of them, `...`."""
    if isinstance(node, gast.Constant):
        return True
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
        return _constant(node.operand)
    if isinstance(node, gast.Slice):
        return all(p is None or _constant(p) for p in (node.lower, node.upper, node.step))
    if isinstance(node, gast.Tuple):
        return all(_constant(e) for e in node.elts)
    return False


class _Reads(Transformer):
    def __init__(self, ac, in_targets, joins=True, reads=True):
        super().__init__()
        self.ac = ac
        self.in_targets = in_targets
        self.joins = joins
        self.reads = reads

    def _index(self, node) -> bool:
        return (
            isinstance(node, gast.Attribute)
            and node.attr == "index"
            and isinstance(node.value, gast.Name)
            and node.value.id == self.ac
        )

    def visit_Subscript(self, node):
        self.generic_visit(node)
        key = node.slice
        if (
            not self.reads
            or not isinstance(node.ctx, gast.Load)
            or id(node) in self.in_targets
            or _constant(key)
            or expressions.binds_or_suspends(key)
            or self._index(node.value)  # `ac.index[i, :]`: another pass's key, as a value
        ):
            return node
        if any(isinstance(n, gast.Slice) for n in gast.walk(key)):
            key = templates.expr("ac.index[key]", ac=self.ac, key=key)
        call = templates.expr("ac.item_at(name, key)", ac=self.ac, key=key)
        call.args[0] = node.value
        return expressions.located(call, node)

    def visit_Call(self, node):
        self.generic_visit(node)
        sep = node.func.value if isinstance(node.func, gast.Attribute) else None
        if self.joins and isinstance(sep, gast.Constant) and type(sep.value) is str:
            call = expressions.joined(node, self.ac, _unstarred)
            if call is not None:
                return call
        return node


def reads_at_local_key(own_nodes) -> bool:
    """Whether the function reads an item at a key naming a variable it assigns itself
    (`k = int(np.argmax(p))`, then `classes[k]`): such a key may be known only when the graph
    runs even with no staged statement."""
    assigned = {
        n.id for n in own_nodes if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)
    }
    return any(
        isinstance(n, gast.Subscript)
        and isinstance(n.ctx, gast.Load)
        and any(
            (isinstance(k, gast.Name) and k.id in assigned) or _int_call(k)
            for k in gast.walk(n.slice)
        )
        for n in own_nodes
    )


def _int_call(node) -> bool:
    """`int(...)` (`names[int(x[0])]`): a key that is a Python int made of a value the caller
    passed, known only when the graph runs where that value is an array's item."""
    return (
        isinstance(node, gast.Call)
        and isinstance(node.func, gast.Name)
        and node.func.id == "int"
        and len(node.args) == 1
    )


def _unstarred(node) -> bool:
    return not isinstance(node, gast.Starred)
