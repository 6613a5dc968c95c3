"""Finding a live function's source: its file, and its node in that file's syntax tree.

The whole file is parsed (and cached) rather than the snippet `inspect.getsource` returns: the
nodes then carry the file's own line and column numbers, indented methods need no dedenting
(which would change the text of multi-line strings), and lambdas in the middle of an expression
are found as easily as functions.
"""

import ast
import linecache

from autoconv.caches import register_cache

_trees: dict = {}  # filename -> (source text, parsed module)
_definitions: dict = {}  # filename -> (parsed module, its index of definitions)
register_cache("parsed source files", _trees)
register_cache("definition indexes", _definitions)


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
            f"its definition was not found at {code.co_filename}:{line} (was the file edited "
            "after it was imported?)"
        )
    return node


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
