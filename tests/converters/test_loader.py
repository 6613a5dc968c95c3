"""Loading: what runs is what `to_code` shows, and it runs with the user's lines."""

import ast
import importlib
import inspect
import linecache
import traceback

import gast
import pytest

import autoconv
from autoconv.conversion import pipeline
from autoconv.conversion.resolve import LiveResolver
from autoconv.pyct import loader, naming, sources

MODULES = ["textwrap", "argparse", "difflib", "json.decoder", "tomllib._parser", "heapq"]


def _functions(module_name):
    module = importlib.import_module(module_name)
    for obj in vars(module).values():
        if inspect.isfunction(obj) and obj.__module__ == module.__name__:
            yield obj
        elif inspect.isclass(obj) and obj.__module__ == module.__name__:
            yield from (v for v in vars(obj).values() if inspect.isfunction(v))


@pytest.mark.parametrize("module_name", MODULES)
def test_the_compiled_tree_is_the_tree_of_the_shown_text(module_name):
    """The loader compiles the converted tree directly; this is only right if printing it and
    parsing the text back gives the same tree, for real code."""
    checked = 0
    for func in _functions(module_name):
        node = gast.ast_to_gast(sources.function_node(func))
        namer = naming.Namer.for_node(node)
        try:
            pipeline.convert(
                node,
                namer=namer,
                ac=namer.new("ac"),
                resolver=LiveResolver(func.__globals__),
                recursive=True,
                on_kept=lambda *k: None,
            )
        except Exception as e:  # noqa: BLE001 - only functions that stay Python may fail
            assert type(e).__name__ == "Unconvertible", (func, e)
            continue
        tree = loader.to_ast(node)
        text = loader.unparse(tree)
        assert ast.dump(ast.parse(text).body[0]) == ast.dump(tree), func.__qualname__
        checked += 1
    assert checked > 3


def test_tracebacks_show_the_users_lines(tmp_path, always_converted):
    source = (
        "def f(xs):\n"
        "    total = 0\n"
        "    for x in xs:\n"
        "        if x < 0:\n"
        "            raise ValueError('negative: %d' % x)\n"
        "        total += x\n"
        "    return total\n"
    )
    path = tmp_path / "user_code.py"
    path.write_text(source)
    namespace = {}
    exec(compile(source, str(path), "exec"), namespace)
    converted = autoconv.convert(namespace["f"])
    with pytest.raises(ValueError) as info:
        converted([1, -2])
    frames = [f for f in traceback.extract_tb(info.value.__traceback__) if f.filename == str(path)]
    # The functional form's frames, at the user's lines: the function at its loop, the loop's
    # body at the `if`, the `if`'s body at the `raise`; no frame of the guard (at the `def`
    # line) nor of autoconv's operators.
    assert [f.lineno for f in frames] == [3, 4, 5]
    every = traceback.extract_tb(info.value.__traceback__)
    assert [f.filename for f in every[1:]] == [str(path)] * 3
    assert [f.line for f in frames] == [
        "for x in xs:",
        "if x < 0:",
        "raise ValueError('negative: %d' % x)",
    ]


def test_ipython_cells_are_found_in_linecache():
    """IPython registers each cell's source in linecache under a made-up file name."""
    name = "<ipython-input-7-0123456789ab>"
    source = "def cell_function(n):\n    while n > 10:\n        n //= 2\n    return n\n"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    namespace = {}
    exec(compile(source, name, "exec"), namespace)
    converted = autoconv.convert(namespace["cell_function"])
    assert converted(100) == 6
    assert "ac.while_stmt(" in autoconv.to_code(namespace["cell_function"])


def test_several_lambdas_on_one_line_are_told_apart(tmp_path):
    path = tmp_path / "lambdas.py"
    path.write_text("pair = (lambda a: a if a else -1, lambda b: b and 2 or 3)\n")
    namespace = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    first, second = namespace["pair"]
    assert autoconv.to_code(first) == "lambda a: ac.if_exp(a, lambda: a, lambda: -1)\n"
    assert autoconv.to_code(second) == "lambda b: ac.or_(ac.and_(b, lambda: 2), lambda: 3)\n"
    assert [autoconv.convert(first)(0), autoconv.convert(second)(0)] == [-1, 3]
