"""`to_code` output is short, readable Python: the four reference functions stay within their
line budgets, and small constructs come out exactly as a careful person would write them."""

import ast
import inspect
import textwrap

import numpy as np
import pytest

import autoconv


def my_function(x):
    if np.sum(x) <= 1:
        return x * x
    else:
        return x - 1


def cube(x):
    o = x
    for _ in range(2):
        o *= x
    return o


def f(n):
    i = 0
    s = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        if s > 20:
            break
        s += i
    return s


def g(xs):
    for x in xs:
        if x > 2:
            return x
    return -1


# (function, most lines allowed, runtime operators it must use, inputs)
REFERENCE = [
    (my_function, 15, ["if_stmt"], [(np.array([0.5]),), (np.array([3.0, 4.0]),), (1,)]),
    (cube, 13, ["for_stmt"], [(2,), (-3,), (1.5,)]),
    (f, 48, ["while_stmt", "if_stmt"], [(0,), (5,), (100,)]),
    (g, 32, ["for_stmt", "if_stmt"], [([1, 2, 3, 4],), ([],), ([0, 1],)]),
]


@pytest.mark.parametrize(
    ("func", "budget", "operators", "inputs"), REFERENCE, ids=[r[0].__name__ for r in REFERENCE]
)
def test_reference_functions_are_short_and_readable(func, budget, operators, inputs):
    code = autoconv.to_code(func)
    lines = code.rstrip("\n").splitlines()
    assert len(lines) <= budget, code
    tree = ast.parse(code)
    [definition] = tree.body
    assert isinstance(definition, ast.FunctionDef) and definition.name == func.__name__
    assert [a.arg for a in definition.args.args] == list(
        func.__code__.co_varnames[: func.__code__.co_argcount]
    )
    for operator in operators:
        assert f"ac.{operator}(" in code
    assert "def get_state():" in code and "def set_state(state):" in code
    assert not any(isinstance(n, (ast.Try, ast.TryStar)) for n in ast.walk(tree)), code
    assert "try:" not in code and "except" not in code
    compile(code, "<to_code>", "exec")


@pytest.mark.parametrize(
    ("func", "budget", "operators", "inputs"), REFERENCE, ids=[r[0].__name__ for r in REFERENCE]
)
def test_reference_functions_behave_the_same(func, budget, operators, inputs):
    converted = autoconv.convert(func)
    for args in inputs:
        expected, got = func(*args), converted(*args)
        assert type(got) is type(expected)
        assert np.array_equal(got, expected)


def test_reference_functions_state_names():
    """The state tuples name exactly the variables a staged statement must carry."""
    assert "('retval',)" in autoconv.to_code(my_function)
    assert "('o',)" in autoconv.to_code(cube)
    code = autoconv.to_code(g)
    assert "('retval', 'do_return')" in code


# -- this source in, this source out --


def simple_if(x):
    if x > 0:
        y = 1
    else:
        y = -1
    return y


def if_without_state(x):
    if x:
        print("yes")


def conditional_expression(x):
    return x if x > 0 else -x


def logic(a, b, c):
    return a and b or not c


def chained(a, b, c):
    return a < b < c


def logic_as_test(a, b, c):
    if a and b or a < b < c:
        print("yes")


def count(n):
    i = 0
    while i < n:
        i += 1
    return i


def total(xs):
    s = 0
    for x in xs:
        s += x
    return s


def guard(x):
    if x is None:
        return 0
    return x + 1


EXPECTED = {
    simple_if: """
        def simple_if(x):
            def get_state():
                return (y,)
            def set_state(state):
                nonlocal y
                [y] = state
            y: object
            def if_body():
                nonlocal y
                y = 1
            def else_body():
                nonlocal y
                y = -1
            ac.if_stmt(x > 0, if_body, else_body, get_state, set_state, ('y',))
            return y
        """,
    if_without_state: """
        def if_without_state(x):
            def if_body():
                ac.print('yes')
            ac.if_stmt(x, if_body)
        """,
    conditional_expression: """
        def conditional_expression(x):
            return ac.if_exp(x > 0, lambda: x, lambda: -x)
        """,
    logic: """
        def logic(a, b, c):
            return ac.or_(ac.and_(a, lambda: b), lambda: ac.not_(c))
        """,
    chained: """
        def chained(a, b, c):
            return ac.and_(a < b, lambda: b < c)
        """,
    logic_as_test: """
        def logic_as_test(a, b, c):
            def if_body():
                ac.print('yes')
            ac.if_stmt(ac.or_(ac.and_(a, lambda: b, test=True), lambda: ac.and_(a < b, lambda: b < c, test=True), test=True), if_body)
        """,
    count: """
        def count(n):
            def get_state():
                return (i,)
            def set_state(state):
                nonlocal i
                [i] = state
            i = 0
            def loop_body():
                nonlocal i
                i += 1
            ac.while_stmt(lambda: i < n, loop_body, get_state, set_state, ('i',))
            return i
        """,
    total: """
        def total(xs):
            def get_state():
                return (s,)
            def set_state(state):
                nonlocal s
                [s] = state
            s = 0
            def loop_body(x):
                nonlocal s
                s += x
            ac.for_stmt(xs, loop_body, get_state, set_state, ('s',))
            return s
        """,
    guard: """
        def guard(x):
            def get_state():
                return (retval,)
            def set_state(state):
                nonlocal retval
                [retval] = state
            retval = None
            def if_body():
                nonlocal retval
                retval = 0
            def else_body():
                nonlocal retval
                retval = x + 1
            ac.if_stmt(ac.is_none(x), if_body, else_body, get_state, set_state, ('retval',))
            return retval
        """,
}


@pytest.mark.parametrize("func", list(EXPECTED), ids=[fn.__name__ for fn in EXPECTED])
def test_source_in_source_out(func):
    expected = textwrap.dedent(EXPECTED[func]).lstrip("\n")
    assert autoconv.to_code(func) == expected


def test_docstring_and_signature_are_kept():
    def documented(a, /, b: int = 2, *args, c, d=4, **kwargs) -> int:
        """Adds things up."""
        if a:
            return b
        return c

    code = autoconv.to_code(documented)
    [converted] = ast.parse(code).body
    [original] = ast.parse(textwrap.dedent(inspect.getsource(documented))).body
    assert ast.dump(converted.args) == ast.dump(original.args)
    assert ast.dump(converted.returns) == ast.dump(original.returns)
    assert ast.get_docstring(converted) == "Adds things up."
    compile(code, "<to_code>", "exec")


def test_function_without_control_flow_is_unchanged():
    def plain(x, y):
        z = x * y
        return z + 1

    assert autoconv.to_code(plain) == "def plain(x, y):\n    z = x * y\n    return z + 1\n"


def _counter():
    calls = 0
    total = np.zeros(3)

    def step(v):
        """Counts its calls.

        And marks one item."""
        nonlocal calls
        calls += 1
        total[0] = v
        return v * 2

    return step


def test_a_closure_declaring_enclosing_variables_nonlocal_shows_code_that_compiles():
    """A `nonlocal` (the user's, or one autoconv adds for an item written through a cell)
    does not compile at a module's top level: the code shows the function inside a stand-in
    for its enclosing function, which binds those variables; the docstring is unchanged."""
    text = autoconv.to_code(_counter())
    tree = ast.parse(text)
    (outer,) = tree.body
    assert outer.name == "_counter"
    assert [type(s) for s in outer.body] == [ast.Assign, ast.FunctionDef, ast.Return]
    assert {t.id for t in outer.body[0].targets} == {"calls", "total"}
    inner = outer.body[1]
    assert inner.name == "step" and [a.arg for a in inner.args.args] == ["v"]
    assert ast.get_docstring(inner, clean=False) == _counter().__doc__
    assert isinstance(inner.body[1], ast.Nonlocal)
    step = autoconv.convert(_counter())
    assert step(3) == 6
