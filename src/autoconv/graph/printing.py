"""`autoconv.print`: prints every time a function runs, in graph mode too.

Python's own `print` inside a traced function runs once, while tracing. `autoconv.print`
records a `print` node (an effect, kept by non-strict execution and run in program order) that
prints the run-time values with Python's `print`, so the output matches eager execution.
"""

import builtins

from autoconv.graph import graph as _g
from autoconv.graph.origin import user_origin


def print(*values, sep=" ", end="\n", file=None, flush=False):  # noqa: A001 - mirrors the built-in
    """Like Python's `print`, but inside an `autoconv.function` it prints on every call."""
    if not _g.building():
        builtins.print(*values, sep=sep, end=end, file=file, flush=flush)
        return
    from autoconv.graph.numpy_dispatch import operand

    kwargs = {}
    if sep != " ":
        kwargs["sep"] = sep
    if end != "\n":
        kwargs["end"] = end
    if file is not None:
        kwargs["file"] = file
    if flush:
        kwargs["flush"] = True
    node = _g.Node("print", "print", builtins.print, tuple(operand(v) for v in values), kwargs)
    node.effect = True
    _g.add_node(node, [], user_origin(2))
