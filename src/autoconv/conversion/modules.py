"""Converting a whole module's source: every function and method, nested ones with their
parent, into a drop-in replacement module that imports `autoconv.runtime` and nothing else new.

Module-level code, class bodies, decorators, defaults and docstrings stay as they are (comments
do not survive: the text is regenerated from the syntax tree). Calls are left as they are: the
module's own functions are converted already, and a module converted as a whole is not a place
to decide for other modules.
"""

import ast
import dataclasses

import gast

from autoconv.conversion import pipeline
from autoconv.conversion.resolve import ModuleResolver
from autoconv.converters.checks import Unconvertible
from autoconv.converters.expressions import is_docstring
from autoconv.pyct import loader, naming, scopes, templates
from autoconv.pyct.walk import walk

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
    module = gast.ast_to_gast(tree)
    # A private name: `from module import *` must not export the runtime.
    ac = naming.Namer.for_node(module).new("_ac")
    resolver = ModuleResolver(scopes.bound_names(module.body))
    reports = []
    for owner, field, index, node, qualname in list(_definitions(module)):
        reports.extend(_convert_function(owner, field, index, node, qualname, ac, resolver))
    if any(r.converted for r in reports):
        _insert_import(module, ac)
    text = loader.unparse(gast.gast_to_ast(module)) + "\n"
    compile(text, filename, "exec", dont_inherit=True)  # a bug here must not go unnoticed
    return ModuleResult(text, reports)


def _convert_function(owner, field, index, node, qualname, ac, resolver) -> list:
    copy = templates.copy(node)
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
        namer = naming.Namer(naming.identifiers(copy) | {ac})
        pipeline.convert(
            copy,
            namer=namer,
            ac=ac,
            resolver=resolver,
            recursive=False,
            on_kept=lambda *kept: None,
            on_left=on_left,
        )
    except Unconvertible as e:
        return [FunctionReport(qualname, node.lineno, False, e.reason, e.construct)]
    getattr(owner, field)[index] = copy
    nested = [
        n
        for n in walk(node)
        if isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef)) and n is not node
    ]
    left_lines = {r.line for r in nested_left}
    reports.append(FunctionReport(qualname, node.lineno, True))
    for n in nested:
        if n.lineno not in left_lines:
            reports.append(FunctionReport(f"{qualname}.<locals>.{n.name}", n.lineno, True))
    return reports + nested_left


def _definitions(module):
    """(owner, field, index, node, qualname) for every function outside other functions:
    at module level, in classes, and in module-level `if`/`try`/`with` blocks."""
    yield from _definitions_for(module, "body", "")


def _definitions_for(owner, field, prefix):
    for index, stmt in enumerate(getattr(owner, field)):
        if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef)):
            yield owner, field, index, stmt, prefix + stmt.name
        elif isinstance(stmt, gast.ClassDef):
            yield from _definitions_for(stmt, "body", prefix + stmt.name + ".")
        else:
            for sub_field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(stmt, sub_field, None), list):
                    yield from _definitions_for(stmt, sub_field, prefix)
            for handler in getattr(stmt, "handlers", ()):
                yield from _definitions_for(handler, "body", prefix)


def _insert_import(module, ac) -> None:
    """`import autoconv.runtime as ac` after the docstring and `__future__` imports."""
    position = 0
    body = module.body
    if body and is_docstring(body[0]):
        position = 1
    while (
        position < len(body)
        and isinstance(body[position], gast.ImportFrom)
        and body[position].module == "__future__"
    ):
        position += 1
    body.insert(position, templates.stmts(f"import autoconv.runtime as {ac}")[0])
