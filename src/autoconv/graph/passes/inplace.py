"""In-place reuse of buffers: an elementwise operation writes its result into the array of an
operand that nothing reads afterwards, instead of allocating a new one.

A chain like `a * b + c - d` then allocates one array instead of three, and a layer like
`np.maximum(0.0, x @ w + b)` one instead of three. The generated code says so: `v5 += c`
(`x += y` calls the same NumPy loop as `x + y`) or `np_maximum(0.0, v5, out=v5)`.

An operand's buffer is reused only when all of these hold: the operation is a ufunc or an
operator with one result and no extra arguments (no `out=`, `where=`, `dtype=`); the operand
is an array that an operation of the same block allocated (never an input, a constant, a
Variable's value or a view of one, nor a value from outside a loop body, which the next
iteration reads again); this operation is its only reader, and nothing else (an output, a
branch result, a view) refers to it; and the result has exactly its shape (fully known) and
dtype, with at least one dimension. The pass only annotates nodes (`attrs["inplace"]`: the
position of the operand whose buffer is reused); the executor writes the code.
"""

from __future__ import annotations

from autoconv.graph.graph import Block, Graph
from autoconv.graph.passes.analysis import Uses, fresh, ufunc_of
from autoconv.graph.tensor import Tensor

NAME = "inplace"
_NO_INPLACE = ("@", "<", "<=", ">", ">=", "==", "!=")


def run(graph: Graph, settings=None) -> int:
    """Annotates the operations that can reuse an operand's buffer; returns how many."""
    uses = Uses(graph)
    return _block(graph.block, uses)


def candidate(node) -> bool:
    """An elementwise operation with one result that may write into an operand."""
    if node.kind in ("binop", "unop"):
        if node.fn in _NO_INPLACE:
            return False
    elif node.kind == "call":
        if node.kwargs:
            return False
    else:
        return False
    uf = ufunc_of(node)
    if uf is None or uf.nout != 1 or uf.signature is not None or len(node.args) != uf.nin:
        return False
    out = node.outputs[0] if len(node.outputs) == 1 else None
    return out is not None and not out.weak and bool(out.shape) and None not in out.shape


def _block(block: Block, uses: Uses) -> int:
    count = 0
    for node in block.nodes:
        node.attrs.pop("inplace", None)
        for sub in node.blocks:
            count += _block(sub, uses)
        if not candidate(node):
            continue
        out = node.outputs[0]
        for k, x in enumerate(node.args):
            if (
                isinstance(x, Tensor)
                and fresh(x)
                and x.shape == out.shape
                and x.dtype == out.dtype
                and uses.block_of.get(x.id) is block
                and uses.count[x.id] == sum(1 for t in node.inputs if t is x)
            ):
                node.attrs["inplace"] = k
                count += 1
                break
    return count
