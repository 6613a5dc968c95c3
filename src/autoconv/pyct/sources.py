"""Finding a live function's source: its file, and its node in that file's syntax tree.

The whole file is parsed (and cached) rather than the snippet `inspect.getsource` returns: the
nodes then carry the file's own line and column numbers, indented methods need no dedenting
(which would change the text of multi-line strings), and lambdas in the middle of an expression
are found as easily as functions.
"""

import ast
import inspect
import linecache
import types

from autoconv.caches import register_cache
from autoconv.locations import describe

_trees: dict = {}  # filename -> (source text, parsed module)
_definitions: dict = {}  # filename -> (parsed module, its index of definitions)
register_cache("parsed source files", _trees)
register_cache("definition indexes", _definitions)
_compiled_files: dict = {}  # filename -> (parsed module, its code objects by line and name)
register_cache("compiled source files", _compiled_files)


class NoSourceError(Exception):
    """The source of a function cannot be found; the message says why."""


def parse_file(filename: str, module_globals=None) -> ast.Module:
    """The parsed module of `filename`, from linecache (so IPython cells work too)."""
    lines = linecache.getlines(filename, module_globals)
    if not lines:
        if filename.startswith("<") and filename.endswith(">"):
            raise NoSourceError(
                f"it was defined in {filename}, which keeps no source text (exec() of a string, "
                "or the interactive interpreter); define it in a file or a notebook cell"
            )
        raise NoSourceError(f"its source file {filename!r} cannot be read")
    text = "".join(lines)
    cached = _trees.get(filename)
    if cached is not None and cached[0] == text:
        return cached[1]
    try:
        tree = ast.parse(text, filename)
    except SyntaxError as e:
        raise NoSourceError(f"its source file {filename!r} no longer parses: {e}") from None
    _trees[filename] = (text, tree)
    _definitions.pop(filename, None)
    return tree


def _index(filename, tree) -> dict:
    """(first line, name) -> definition node, for every function and lambda of a file."""
    index = _definitions.get(filename)
    if index is None or index[0] is not tree:
        table = {}
        for n in ast.walk(tree):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = n.decorator_list[0].lineno if n.decorator_list else n.lineno
                table.setdefault((first, n.name), n)
            elif isinstance(n, ast.Lambda):
                table.setdefault((n.lineno, "<lambda>"), []).append(n)
        index = _definitions[filename] = (tree, table)
    return index[1]


def function_node(func):
    """The `ast` node (FunctionDef, AsyncFunctionDef or Lambda) that defined `func`."""
    code = func.__code__
    tree = parse_file(code.co_filename, getattr(func, "__globals__", None))
    line = code.co_firstlineno
    found = _index(code.co_filename, tree).get((line, code.co_name))
    if code.co_name == "<lambda>":
        node = _pick_lambda(found or [], code)
    else:
        node = found
    if node is None:
        raise NoSourceError(
            f"its definition was not found at {describe(code.co_filename, line)} (was the file "
            "edited after it was imported?)"
        )
    mismatch = _mismatch(code, _compiled(code.co_filename, tree).get((line, code.co_name), []))
    if mismatch:
        raise NoSourceError(
            f"its source at {describe(code.co_filename, line)} is not the code that runs "
            f"({mismatch}): the file was edited after it was imported; import it again"
        )
    return node


def parsed_definition(func):
    """`function_node(func)` when its file was parsed before (converting a function parses
    its file), else None (it never reads a new file), also when the source cannot be found."""
    code = getattr(func, "__code__", None)
    if code is None or code.co_filename not in _trees:
        return None
    try:
        return function_node(func)
    except NoSourceError:
        return None


def _compiled(filename, tree) -> dict:
    """(first line, name) -> the code objects `tree` (the file as it reads now) compiles to,
    nested ones included. One compile per file, cached with its parse: a file's functions are
    usually converted together, and a function compiled alone would lack its enclosing class
    and functions (private-name mangling, qualified names, `nonlocal`)."""
    entry = _compiled_files.get(filename)
    if entry is None or entry[0] is not tree:
        table = {}
        try:
            todo = [compile(tree, filename, "exec", dont_inherit=True)]
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            todo = []  # parses but does not compile: nothing to compare with
        while todo:
            for c in todo.pop().co_consts:
                if isinstance(c, types.CodeType):
                    table.setdefault((c.co_firstlineno, c.co_name), []).append(c)
                    todo.append(c)
        entry = _compiled_files[filename] = (tree, table)
    return entry[1]


def _mismatch(code, candidates) -> str:
    """What differs between the live `code` and what its definition in the file compiles to
    now (empty when one of `candidates`, the code objects of that name and line, matches):
    parameters, flags, local names, constants (typed) and lines are compared."""
    if not candidates:
        return ""  # a file that no longer compiles is not compared
    if any(n.startswith("@py") for n in code.co_varnames + code.co_names):
        return ""  # pytest rewrote its asserts on import: the file never compiles to it
    differences = [_difference(code, found) for found in candidates]
    return "" if "" in differences else differences[0]


def _difference(code, found) -> str:
    for field in ("co_argcount", "co_posonlyargcount", "co_kwonlyargcount"):
        if getattr(found, field) != getattr(code, field):
            return field.replace("co_", "").replace("argcount", " parameters")
    if found.co_flags & _SHAPE_FLAGS != code.co_flags & _SHAPE_FLAGS:
        return "*args, **kwargs, generator or coroutine"
    if found.co_varnames != code.co_varnames:
        return "parameter or local names"
    if _constants(found) != _constants(code):
        return "constants"
    if _lines(found) != _lines(code):
        return "lines"
    return ""


_SHAPE_FLAGS = (
    inspect.CO_VARARGS
    | inspect.CO_VARKEYWORDS
    | inspect.CO_GENERATOR
    | inspect.CO_COROUTINE
    | inspect.CO_ASYNC_GENERATOR
)


def _constants(code) -> list:
    """`code`'s constants, typed (`1`, `1.0` and `True` differ; so do `0.0` and `-0.0`), with
    those of the code objects nested in it."""
    return [
        ("code", c.co_name, _constants(c)) if isinstance(c, types.CodeType) else _constant(c)
        for c in code.co_consts
    ]


def _constant(value):
    """A comparable picture of a constant: typed, and for a frozenset (`x in {"a", "b"}`)
    independent of the order it iterates in, which a copy loaded from a `.pyc` may not share."""
    if type(value) is tuple:
        return tuple, tuple(_constant(v) for v in value)
    if type(value) is frozenset:
        return frozenset, sorted(repr(_constant(v)) for v in value)
    return type(value), repr(value)


def _lines(code) -> set:
    return {line for _, _, line in code.co_lines() if line is not None}


def _pick_lambda(candidates, code):
    """Several lambdas may share a line: match on parameters, then on column positions."""
    params = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]

    def names(n):
        a = n.args
        return tuple(x.arg for x in a.posonlyargs + a.args + a.kwonlyargs)

    matching = [n for n in candidates if names(n) == params]
    if len(matching) <= 1:
        return matching[0] if matching else None
    columns = {col for _, _, col, _ in code.co_positions() if col is not None}
    for n in matching:
        if n.body.col_offset in columns:
            return n
    return matching[0]
