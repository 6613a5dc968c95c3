"""`return`, `break` and `continue` out of `finally`: converted (also in strict mode), and the
converted source holds no escape out of a `finally` of its own (Python 3.14 warns about those,
PEP 765). Behaviour is compared in tests/corpus/finally_exits.py and the generated programs."""

import ast
import inspect
import warnings

import pytest

import autoconv
from autoconv import ConversionWarning
from tests.converters.helpers import convert_source, dedent
from tests.corpus import finally_exits

FUNCTIONS = [
    f
    for _, f in inspect.getmembers(finally_exits, inspect.isfunction)
    if f.__module__ == finally_exits.__name__
]


def _escapes_from_finally(tree) -> list:
    """(kind, line) of each `return` in a `finally` of its own scope, and of each `break` or
    `continue` there outside a loop of that `finally`."""
    found = []

    def scan(stmts, in_loop):
        for stmt in stmts:
            if isinstance(stmt, ast.Return):
                found.append(("return", stmt.lineno))
            elif isinstance(stmt, (ast.Break, ast.Continue)) and not in_loop:
                found.append((type(stmt).__name__.lower(), stmt.lineno))
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            loop = isinstance(stmt, (ast.For, ast.While))
            for field in ("body", "orelse", "finalbody"):
                scan(getattr(stmt, field, []), in_loop or (loop and field == "body"))
            for handler in getattr(stmt, "handlers", []):
                scan(handler.body, in_loop)

    for node in ast.walk(tree):
        if isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            scan(node.finalbody, False)
    return found


def test_the_check_finds_escapes():
    source = dedent("""
        def f(xs):
            for x in xs:
                try:
                    pass
                finally:
                    for y in xs:
                        break
                    if x:
                        continue
                    return 1
    """)
    assert _escapes_from_finally(ast.parse(source)) == [("continue", 9), ("return", 10)]


@pytest.mark.parametrize("func", FUNCTIONS, ids=lambda f: f.__name__)
def test_converted_in_strict_mode_without_warnings(func, strict_mode):
    strict_mode(True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        converted = autoconv.convert(func)
    assert converted.__autoconv_original__ is func


@pytest.mark.parametrize("func", FUNCTIONS, ids=lambda f: f.__name__)
def test_converted_source_compiles_without_warnings_and_escapes_no_finally(func):
    if func.__name__ != "return_in_loop_waits_for_finally":
        assert _escapes_from_finally(ast.parse(inspect.getsource(func)))
    code = autoconv.to_code(func)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # SyntaxWarning included
        compile(code, "<to_code>", "exec")
    assert _escapes_from_finally(ast.parse(code)) == []


CASES = {
    "break_in_finally": (
        """
        def f(xs):
            for x in xs:
                try:
                    print(x)
                finally:
                    break
        """,
        """
        def f(xs):
            def get_state():
                return (break_,)
            def set_state(state):
                nonlocal break_
                [break_] = state
            finally_break: object
            break_ = False
            def if_body():
                nonlocal break_
                break_ = True
            def loop_body(x):
                nonlocal finally_break
                finally_break = False
                try:
                    try:
                        ac.print(x)
                    finally:
                        finally_break = True
                except BaseException:
                    if not finally_break:
                        raise
                ac.if_stmt(finally_break, if_body, None, get_state, set_state, ('break_',))
                return break_
            ac.for_stmt(xs, loop_body, get_state, set_state, ('break_',))
        """,
    ),
    "return_in_finally_overrides_the_body": (
        """
        def f(x):
            try:
                return print(x)
            finally:
                return 0
        """,
        """
        def f(x):
            retval = None
            finally_return = False
            returning = False
            try:
                try:
                    returned = ac.print(x)
                    returning = True
                finally:
                    retval = 0
                    finally_return = True
            except BaseException:
                if not finally_return:
                    raise
            if finally_return:
                pass
            elif returning:
                retval = returned
            return retval
        """,
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_source(name):
    source, expected = CASES[name]
    assert convert_source(source) == dedent(expected)
