"""Converting a whole module's source: every function and method, nested ones with their
parent, into a drop-in replacement module that imports `autoconv.runtime` and nothing else new.

Module-level code, class bodies, decorators, defaults and docstrings stay as they are (comments
do not survive: the text is regenerated from the syntax tree). Calls are left as they are: the
module's own functions are converted already, and a module converted as a whole is not a place
to decide for other modules.
"""

import ast
import dataclasses

from autoconv.conversion import limits, pipeline
from autoconv.conversion.resolve import ModuleResolver
from autoconv.converters.checks import Unconvertible
from autoconv.pyct import bridge, loader, naming

_STAYS_PYTHON = ("yield", "await", "async def")


@dataclasses.dataclass
class FunctionReport:
    """One function of a converted module: converted, or left as Python with a reason."""

    name: str
    line: int
    converted: bool
    reason: str = ""
    construct: str = ""

    @property
    def is_generator_or_coroutine(self) -> bool:
        """Left as Python by design (not counted against the conversion rate)."""
        return not self.converted and self.construct in _STAYS_PYTHON


@dataclasses.dataclass
class ModuleResult:
    text: str
    functions: list

    @property
    def converted(self) -> int:
        return sum(f.converted for f in self.functions)

    @property
    def left(self) -> list:
        return [f for f in self.functions if not f.converted]


def convert_module(source: str, filename: str = "<module>") -> ModuleResult:
    """Converts every function of a module's source. Raises `SyntaxError` for invalid source."""
    tree = ast.parse(source, filename)
    # A dunder name: `from module import *` skips it, tools that list a module's public
    # globals skip it, and it is never mangled inside a class.
    ac = naming.Namer(naming.identifiers(tree)).new("__ac__")
    resolver = ModuleResolver(_stored_names(tree))
    reports = []
    for owner, field, index, node, qualname, level in list(_definitions(tree)):
        try:
            reports.extend(
                limits.call_deep(
                    _convert_function, owner, field, index, node, qualname, ac, resolver, level
                )
            )
        except RecursionError:
            reason = "it nests too deeply to convert"
            reports.append(FunctionReport(qualname, node.lineno, False, reason, "nesting"))
    if any(r.converted for r in reports):
        _insert_import(tree, ac)
    text = loader.unparse(tree) + "\n"
    compile(text, filename, "exec", dont_inherit=True)  # a bug here must not go unnoticed
    return ModuleResult(text, reports)


def _convert_function(owner, field, index, node, qualname, ac, resolver, level=0) -> list:
    """Converts one function (an `ast` node, its `def` at indentation `level`) in its place;
    returns the reports for it and the functions nested in it."""
    nested = [
        n
        for n in ast.walk(node)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n is not node
    ]
    if _straight_line(node):  # its converted form is itself: nothing to stage or lower
        return [
            FunctionReport(q, n.lineno, True)
            for q, n in [(qualname, node)] + [(f"{qualname}.<locals>.{n.name}", n) for n in nested]
        ]
    converted = bridge.to_gast(node)
    reports, nested_left = [], []

    def on_left(child, error):
        nested_left.append(
            FunctionReport(
                f"{qualname}.<locals>.{child.name}",
                child.lineno,
                False,
                error.reason,
                error.construct,
            )
        )

    try:
        namer = naming.Namer(naming.identifiers(converted) | {ac})
        pipeline.convert(
            converted,
            namer=namer,
            ac=ac,
            resolver=resolver,
            recursive=False,
            on_kept=lambda *kept: None,
            on_left=on_left,
            indent=level,
        )
    except Unconvertible as e:
        return [FunctionReport(qualname, node.lineno, False, e.reason, e.construct)]
    getattr(owner, field)[index] = bridge.to_ast(converted)
    left_lines = {r.line for r in nested_left}
    reports.append(FunctionReport(qualname, node.lineno, True))
    for n in nested:
        if n.lineno not in left_lines:
            reports.append(FunctionReport(f"{qualname}.<locals>.{n.name}", n.lineno, True))
    return reports + nested_left


# What makes a function's converted form differ from it, or makes it stay Python.
_CONVERTED = (
    ast.If,
    ast.For,
    ast.While,
    ast.AsyncFor,
    ast.BoolOp,
    ast.IfExp,
    ast.Match,
    ast.Yield,
    ast.YieldFrom,
    ast.Await,
    ast.AsyncFunctionDef,
    ast.Try,
    ast.Call,
)


def _straight_line(node) -> bool:
    """Whether the function (nested ones included) has no control flow, no `and`/`or`/`not`,
    conditional expression or chained comparison, and nothing that keeps it Python: the
    pipeline would give it back unchanged. Calls are checked for frame inspection."""
    for n in ast.walk(node):
        if isinstance(n, _CONVERTED):
            if isinstance(n, ast.Call):
                func = n.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in _FRAME_SENSITIVE:
                    return False
                continue
            if isinstance(n, ast.Try) and not n.finalbody:
                continue
            return False
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            return False
        if isinstance(n, ast.Compare) and len(n.ops) > 1:
            return False
    return True


_FRAME_SENSITIVE = {
    "_getframe",
    "_getframemodulename",
    "currentframe",
    "stack",
    "warn",
    "locals",
    "vars",
    "dir",
    "exec",
    "eval",
}


def _stored_names(tree) -> set:
    """Every name the module binds anywhere (more than its globals: a safe superset for
    deciding that `range` is the built-in)."""
    names = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            names.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(n.name)
        elif isinstance(n, ast.alias):
            names.add((n.asname or n.name).split(".")[0])
    return names


def _definitions(module):
    """(owner, field, index, node, qualname, level) for every function outside other functions:
    at module level, in classes, and in module-level `if`/`try`/`with` blocks; `level` is the
    indentation of its `def`."""
    yield from _definitions_for(module, "body", "", 0)


def _definitions_for(owner, field, prefix, level):
    for index, stmt in enumerate(getattr(owner, field)):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield owner, field, index, stmt, prefix + stmt.name, level
        elif isinstance(stmt, ast.ClassDef):
            yield from _definitions_for(stmt, "body", prefix + stmt.name + ".", level + 1)
        else:
            for sub_field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(stmt, sub_field, None), list):
                    # An `else` holding only an `if` prints as `elif`, one level up.
                    inner = level + 1
                    if sub_field == "orelse" and isinstance(stmt, ast.If):
                        lone_if = len(stmt.orelse) == 1 and isinstance(stmt.orelse[0], ast.If)
                        inner = level if lone_if else level + 1
                    yield from _definitions_for(stmt, sub_field, prefix, inner)
            for handler in getattr(stmt, "handlers", ()):
                yield from _definitions_for(handler, "body", prefix, level + 1)


def _insert_import(module, ac) -> None:
    """`import autoconv.runtime as ac` after the docstring and `__future__` imports."""
    body = module.body
    position = 1 if body and ast.get_docstring(module, clean=False) is not None else 0
    while (
        position < len(body)
        and isinstance(body[position], ast.ImportFrom)
        and body[position].module == "__future__"
    ):
        position += 1
    body.insert(position, ast.parse(f"import autoconv.runtime as {ac}").body[0])
