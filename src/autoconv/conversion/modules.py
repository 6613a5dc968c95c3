"""Converting a whole module's source into a drop-in replacement for it.

The converted file is the original text, unchanged (every line keeps its number, comments
stay), followed by a section that holds the functional form of each function under its name,
in a namespace class, and registers them:

    # ... the original module ...

    import autoconv.runtime as __ac__


    class __autoconv__:
        def collatz(n): ...           # the functional form that `autoconv.to_code` shows
        class Parser:
            def parse(self, text): ...


    __ac__.register_forms(__autoconv__, {'collatz': 3, 'Parser.parse': 12})

Outside traces the module's functions are the original ones: same speed, same frames, same
recursion depth. While a trace is being built, converted code and `autoconv.function` run the
registered form in their place (looked up by file, first line and name); the form calls other
functions through the runtime, so they run converted too. Defaults, decorators, annotations and
docstrings are the original function's: the forms are written without them.
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
    # Dunder names: `from module import *` skips them, tools that list a module's public
    # globals skip them, and they are never mangled inside a class.
    namer = naming.Namer(naming.identifiers(tree))
    ac, space = namer.new("__ac__"), namer.new("__autoconv__")
    resolver = ModuleResolver(_stored_names(tree), _library_imports(tree))
    reports, forms = [], _Forms(space)
    for node, qualname, level in list(_definitions(tree)):
        try:
            reports.extend(
                limits.call_deep(_convert_function, node, qualname, ac, resolver, level + 1, forms)
            )
        except RecursionError:
            reason = "it nests too deeply to convert"
            reports.append(FunctionReport(qualname, node.lineno, False, reason, "nesting"))
    text = source if source.endswith(("\n", "\r")) or not source else source + "\n"
    if forms.entries:
        text += forms.section(ac)
    compile(text, filename, "exec", dont_inherit=True)  # a bug here must not go unnoticed
    return ModuleResult(text, reports)


class _Forms:
    """The functional forms of a module's functions, as the namespace class that holds them."""

    def __init__(self, name):
        self.name = name
        self.body = []  # the class body: functions, and classes for methods
        self.classes = {}  # qualified class name -> its ClassDef in the namespace
        self.entries = {}  # "Class.method" -> the original's first line

    def add(self, qualname, first_line, node) -> None:
        # A name defined twice (in `if`/`else`, or a class and a function of one name): the
        # first gets a form, the other is converted from its source at its first trace.
        *classes, _ = qualname.split(".")
        if qualname in self.entries or qualname in self.classes:
            return
        if any(".".join(classes[: i + 1]) in self.entries for i in range(len(classes))):
            return
        body = self.body
        for i in range(len(classes)):
            path = ".".join(classes[: i + 1])
            if path not in self.classes:
                cls = ast.ClassDef(
                    name=classes[i], bases=[], keywords=[], body=[], decorator_list=[]
                )
                cls.type_params = []
                self.classes[path] = cls
                body.append(cls)
            body = self.classes[path].body
        body.append(node)
        self.entries[_attribute_path(qualname)] = first_line

    def section(self, ac) -> str:
        doc = (
            "The functional form of each function above, under its name: what runs while a "
            "trace is being built (see autoconv.to_code). Defaults, decorators, annotations and "
            "docstrings are the original functions'."
        )
        space = ast.ClassDef(
            name=self.name,
            bases=[],
            keywords=[],
            body=[ast.Expr(ast.Constant(doc)), *self.body],
            decorator_list=[],
        )
        space.type_params = []
        space = loader.unparse(ast.fix_missing_locations(ast.Module([space], [])))
        return (
            "\n\n# --- autoconv: the functional forms of the functions above; they run while "
            f"a graph is being traced ---\nimport autoconv.runtime as {ac}\n\n\n{space}\n\n\n"
            f"{ac}.register_forms({self.name}, {self.entries!r})\n"
        )


def _convert_function(node, qualname, ac, resolver, level, forms) -> list:
    """Converts one function (an `ast` node, its form's `def` at indentation `level`) into
    `forms`; returns the reports for it and the functions nested in it."""
    nested = [
        n
        for n in ast.walk(node)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n is not node
    ]
    if _straight_line(node):  # its converted form is itself: nothing to stage, lower or call
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
            recursive=True,
            on_kept=lambda *kept: None,
            on_left=on_left,
            indent=level,
        )
    except Unconvertible as e:
        return [FunctionReport(qualname, node.lineno, False, e.reason, e.construct)]
    form = bridge.to_ast(converted)
    # A top-level function naming `__x` would be mangled inside the namespace class: it gets
    # its form from its source at its first trace instead.
    if "." in qualname or not _private_names(form):
        _strip_evaluated_parts(form)
        first_line = node.decorator_list[0].lineno if node.decorator_list else node.lineno
        forms.add(qualname, first_line, form)
    left_lines = {r.line for r in nested_left}
    reports.append(FunctionReport(qualname, node.lineno, True))
    for n in nested:
        if n.lineno not in left_lines:
            reports.append(FunctionReport(f"{qualname}.<locals>.{n.name}", n.lineno, True))
    return reports + nested_left


def _attribute_path(qualname: str) -> str:
    """The path of attributes that finds `qualname`'s function from the namespace class: a
    private name inside a class is stored mangled (`Tokenizer.__next` is `_Tokenizer__next`)."""
    parts = qualname.split(".")
    for i in range(1, len(parts)):
        owner, name = parts[i - 1].lstrip("_"), parts[i]
        if owner and name.startswith("__") and not name.endswith("__"):
            parts[i] = f"_{owner}{name}"
    return ".".join(parts)


def _strip_evaluated_parts(form) -> None:
    """No defaults, annotations or decorators: the original's are used, evaluated once. No
    docstring: the original's is right above (a second copy would run its doctests twice)."""
    from autoconv.conversion.functions import strip_evaluated_parts

    strip_evaluated_parts(form)
    body = form.body
    if (
        len(body) > 1
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        del body[0]


def _private_names(node) -> bool:
    def private(name):
        return name.startswith("__") and not name.endswith("__")

    for n in ast.walk(node):
        names = ()
        if isinstance(n, ast.Name):
            names = (n.id,)
        elif isinstance(n, ast.Attribute):
            names = (n.attr,)
        elif isinstance(n, ast.arg):
            names = (n.arg,)
        elif isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            names = (n.name,)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            names = n.names
        elif isinstance(n, ast.alias):
            names = (n.asname or n.name,)
        if any(private(x) for x in names):
            return True
    return False


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
    conditional expression, chained comparison or call: the pipeline would give it back
    unchanged, and it runs as it is while tracing too."""
    for n in ast.walk(node):
        if isinstance(n, _CONVERTED):
            if isinstance(n, ast.Call):
                return False  # calls go through the runtime while tracing
            if isinstance(n, ast.Try) and not n.finalbody:
                continue
            return False
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            return False
        if isinstance(n, ast.Compare) and len(n.ops) > 1:
            return False
    return True


def _stored_names(tree, imports=True) -> set:
    """Every name the module binds anywhere (more than its globals: a safe superset for
    deciding that `range` is the built-in); with `imports=False`, except by imports."""
    names = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            names.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(n.name)
        elif imports and isinstance(n, ast.alias):
            names.add((n.asname or n.name).split(".")[0])
    return names


def _definitions(module):
    """(node, qualname, level) for every function outside other functions:
    at module level, in classes, and in module-level `if`/`try`/`with` blocks; `level` is the
    indentation of its `def`."""
    for _, _, _, node, qualname, level in _definitions_for(module, "body", "", 0):
        yield node, qualname, level


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


def _library_imports(tree) -> set:
    """Names the module binds only by importing library modules (NumPy, the standard library):
    calls through them are left as they are."""
    from autoconv.conversion.library import is_library_module

    library, other = set(), set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            for alias in n.names:
                name = (alias.asname or alias.name).split(".")[0]
                (library if is_library_module(alias.name) else other).add(name)
        elif isinstance(n, ast.ImportFrom):
            for alias in n.names:
                name = alias.asname or alias.name
                module = n.module if n.level == 0 else None
                (library if is_library_module(module) else other).add(name)
    return library - other - _stored_names(tree, imports=False)
