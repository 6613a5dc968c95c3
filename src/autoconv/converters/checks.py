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
        if isinstance(node, gast.Call) and _looks_at_callers(node):
            raise Unconvertible(
                _call_name(node) + "()",
                node.lineno,
                "it looks at the frames that called it, and conversion puts frames of its own "
                "between them",
            )
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


_FRAME_FUNCTIONS = {"_getframe", "_getframemodulename", "currentframe"}
# Module functions that walk the frames above the caller: `inspect.stack()`,
# `traceback.extract_stack()` (pyparsing finds its own call's line this way), ...
_STACK_WALKERS = {
    "inspect": {"stack", "getouterframes"},
    "traceback": {"extract_stack", "format_stack", "print_stack", "walk_stack"},
}


def _looks_at_callers(call) -> bool:
    """`sys._getframe()`, `inspect.currentframe()`, `inspect.stack()`,
    `traceback.extract_stack()` and its kin, and `warnings.warn()` with a `stacklevel` above 1:
    code that counts the frames above it."""
    func = call.func
    name = func.attr if isinstance(func, gast.Attribute) else getattr(func, "id", None)
    if name in _FRAME_FUNCTIONS:
        return True
    if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name):
        if name in _STACK_WALKERS.get(func.value.id, ()):
            return True
    if name == "warn":
        levels = [k.value for k in call.keywords if k.arg == "stacklevel"]
        if len(call.args) >= 3:
            levels.append(call.args[2])
        return any(not (isinstance(v, gast.Constant) and v.value == 1) for v in levels)
    return False


def _call_name(call) -> str:
    func = call.func
    if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name):
        return f"{func.value.id}.{func.attr}"
    return getattr(func, "attr", None) or getattr(func, "id", "call")


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
