"""Constructs that cannot be converted safely, found before any rewriting.

`find_blockers` names what makes a whole function stay Python; `find_kept` names statements
that stay Python inside an otherwise converted function.
"""

import gast

from autoconv.pyct import scopes

# Built-ins that read the calling frame when called with at most this many arguments.
_FRAME_READERS = {"locals": 0, "vars": 0, "dir": 0, "exec": 1, "eval": 1}


class Unconvertible(Exception):
    """`construct` at `line` cannot be converted, for `reason`."""

    def __init__(self, construct: str, line: int, reason: str):
        super().__init__(f"{construct} at line {line}: {reason}")
        self.construct, self.line, self.reason = construct, line, reason


def find_blockers(function_node, local_names) -> None:
    """Raises `Unconvertible` for the first construct that keeps the function Python."""
    if isinstance(function_node, gast.AsyncFunctionDef):
        raise Unconvertible(
            "async def",
            function_node.lineno,
            "coroutines stay Python (their await points cannot be staged)",
        )
    for node in scopes.own_nodes(function_node):
        if isinstance(node, (gast.Yield, gast.YieldFrom)):
            raise Unconvertible(
                "yield",
                node.lineno,
                "generators stay Python (a generator's body runs lazily, between next() calls)",
            )
        if isinstance(node, gast.Await):
            raise Unconvertible("await", node.lineno, "coroutines stay Python")
        if isinstance(node, gast.Try) or type(node).__name__ == "TryStar":
            _check_finally(node)
        if (
            isinstance(node, gast.Call)
            and isinstance(node.func, gast.Name)
            and node.func.id in _FRAME_READERS
            and node.func.id not in local_names
            and len(node.args) + len(node.keywords) <= _FRAME_READERS[node.func.id]
        ):
            raise Unconvertible(
                f"{node.func.id}()",
                node.lineno,
                "it reads the function's own frame, which conversion splits into several functions",
            )


def _check_finally(try_node):
    for stmt in try_node.finalbody:
        for node in scopes.walk_scope([stmt]):
            if isinstance(node, gast.Return):
                raise Unconvertible(
                    "return in finally",
                    node.lineno,
                    "a return in `finally` discards the exception in flight, "
                    "which a lowered return cannot do",
                )
            if isinstance(node, (gast.Break, gast.Continue)) and not _inside_loop(stmt, node):
                kind = "break" if isinstance(node, gast.Break) else "continue"
                raise Unconvertible(
                    f"{kind} in finally",
                    node.lineno,
                    f"a {kind} in `finally` discards the exception in flight",
                )


def _inside_loop(root, target) -> bool:
    """Whether `target` sits in a loop nested inside `root`."""
    for node in scopes.walk_scope([root]):
        if isinstance(node, (gast.For, gast.While)):
            if any(n is target for n in scopes.walk_scope(node.body)):
                return True
    return False


def find_kept(function_node) -> list:
    """(construct, line, reason) for statements left as Python inside a converted function."""
    if isinstance(function_node, gast.Lambda):
        return []
    return [
        (
            "match",
            node.lineno,
            "a `match` statement runs as Python; its subject cannot be "
            "symbolic (use if/elif to stage it)",
        )
        for node in scopes.own_nodes(function_node)
        if isinstance(node, gast.Match)
    ]
