"""The generated code stays within CPython's parser limits, however long or deep the program.

Unrolled loops make long chains of operations (`v = A @ v` 1,000 times): the NumPy executor
wrote a chain read by an `if` as one expression nested as deep as the chain (`SyntaxError: too
many nested parentheses` past about 200), and walked chains of in-place results recursively
(`RecursionError`). A recursion with a data-dependent `if` nests its branches as deep as it
recurses: both backends failed with `IndentationError` past about 98 levels. Each case runs at
and well past the old limit against eager NumPy; on JAX the deepest ones are only written and
compiled as Python (XLA itself takes seconds for 100 nested conditionals, and crashes on 300).

Tracing a recursion costs several Python frames per level (`test_recursion.py`), so the deep
ones raise the recursion limit; the code generators recurse per level of nesting as well, with
fewer frames.
"""

import re
import sys

import numpy as np
import pytest

import autoconv
from autoconv.backends import nesting
from autoconv.backends.numpy import executor

HERE = re.escape(__file__)
BACKENDS = ["numpy", "jax"]


@pytest.fixture
def deep_stack():
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4000))  # tracing 300 levels takes about 2,500 frames
    yield
    sys.setrecursionlimit(limit)


# These tests are about how long chains are written: the loops stay unrolled (no `roll` pass).
_UNROLLED = {"roll": False}


def _function(fn, backend):
    if backend == "jax":
        pytest.importorskip("jax")
    return autoconv.function(fn, backend=backend)


def _code(f, *args) -> str:
    concrete = f.get_concrete_function(*args)
    return concrete._program.source


def _deepest(source: str) -> tuple[int, int]:
    """(levels of indentation, levels of brackets) of the deepest line of `source`."""
    indent = brackets = 0
    for line in source.splitlines():
        indent = max(indent, (len(line) - len(line.lstrip(" "))) // 4)
        depth = 0
        for ch in line:
            depth += ch in "([{"
            depth -= ch in ")]}"
            brackets = max(brackets, depth)
    return indent, brackets


# --- long chains --------------------------------------------------------------------------


def matmuls_then_if(n):
    def f(A, v):
        for _ in range(n):  # a Python range: unrolled while tracing
            v = A @ v
        if np.sum(v) > 0:  # the chain is read only by this test
            r = 1.0
        else:
            r = -1.0
        return r

    return f


def if_then_matmuls(n):
    def f(A, v):
        if np.sum(v) > 0:
            for _ in range(n):  # the chain ends the branch: written into its result
                v = A @ v
        return v

    return f


@pytest.mark.parametrize("n", [210, 1000, 3000])
@pytest.mark.parametrize("make", [matmuls_then_if, if_then_matmuls])
def test_a_long_chain_read_by_an_if_keeps_its_parentheses_few(make, n):
    A, v = np.eye(3) * 0.5, np.ones(3)
    f = autoconv.function(make(n), optimize=_UNROLLED)
    np.testing.assert_allclose(f(A, v), make(n)(A, v))
    assert _deepest(_code(f, A, v))[1] < 40


@pytest.mark.parametrize("n", [1000, 3000])
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_long_chain_of_in_place_operations(backend, n):
    def f(y):
        for _ in range(n):
            y = np.sin(y)  # in place after the first: each result takes its operand's name
        return y

    y = np.linspace(-1, 1, 5)
    np.testing.assert_allclose(_function(f, backend)(y), f(y))


def test_a_long_chain_of_in_place_operations_in_a_branch_is_written_quickly():
    def f(y):
        if np.sum(y) > 0:
            for _ in range(3000):
                y = np.cos(y) + 1  # (each name was looked up along the whole chain: 24 s)
        return y

    y = np.linspace(-1, 1, 5)
    np.testing.assert_allclose(autoconv.function(f)(y), f(y))


def test_a_long_chain_read_by_an_if_on_jax():
    def f(v):
        for _ in range(1000):
            v = np.cos(v) * 0.5
        if np.sum(v) > 0:
            v = v * 2
        return v

    v = np.ones(3)
    np.testing.assert_allclose(_function(f, "jax")(v), f(v))


# --- deep nesting ---------------------------------------------------------------------------


def descend(x, n):
    """Nests `n` data-dependent `if`s, one in the other (`n` a Python int)."""
    if n == 0:
        return x
    if np.sum(x) > 0:
        x = descend(x - 1, n - 1)
    return x


@pytest.mark.parametrize("depth", [98, 150, 300])
def test_a_deep_recursion_with_a_data_dependent_if(deep_stack, depth):
    x = np.full(3, 1000.0)
    f = autoconv.function(lambda x: descend(x, depth))
    np.testing.assert_allclose(f(x), descend(x, depth))
    np.testing.assert_allclose(f(np.full(3, 100.0)), descend(np.full(3, 100.0), depth))
    indent, _ = _deepest(_code(f, x))
    assert indent <= nesting.MAX_INDENT + 2


@pytest.mark.parametrize("depth", [60, 150, 300])
def test_a_deep_recursion_with_a_data_dependent_if_on_jax(deep_stack, depth):
    x = np.full(3, 1000.0)
    f = _function(lambda x: descend(x, depth), "jax")
    source = _code(f, x)  # written and compiled as Python: no IndentationError
    assert _deepest(source)[0] <= nesting.MAX_INDENT + 2
    assert "partial(_then_" in source
    if depth <= 60:  # (see the module's docstring)
        np.testing.assert_allclose(f(x), descend(x, depth))


def failing(x, y, n):
    if n == 0:
        return x + y  # fails when the shapes disagree
    if np.sum(x) > 0:
        x = failing(x - 1, y, n - 1)
    return x


def test_an_error_deep_inside_names_the_users_line(deep_stack):
    f = autoconv.function(lambda x, y: failing(x, y, 120))
    spec = autoconv.TensorSpec([None])
    concrete = f.get_concrete_function(spec, spec)
    assert re.search(r"def _then_\d+\(", concrete._program.source)
    line = failing.__code__.co_firstlineno + 2
    with pytest.raises(ValueError, match=rf"{HERE}:{line}: \+ failed while the graph ran"):
        concrete(np.full(2, 1000.0, np.float32), np.ones(3, np.float32))


# --- blocks written as functions, at a low limit ------------------------------------------


@pytest.fixture
def low_limits(monkeypatch):
    """Every block nested past two levels is a function, every chain of inlined operations two
    long: the features of blocks, in functions, on small programs."""
    monkeypatch.setattr(nesting, "MAX_INDENT", 2)
    monkeypatch.setattr(executor, "_INLINE_DEPTH", 2)


def features(x, y, v, n):
    if n == 0:
        return x
    acc = x * 1.0
    if np.sum(acc) > n:
        acc += y  # an array from outside the block, in place
        v.assign_add(y)
        acc = features(acc - 1, y, v, n - 1)
    else:
        acc = np.sin(np.cos(np.exp(-acc))) * 2
    i = 0
    while np.sum(acc) > 0 and i < 3:
        acc = acc - 1
        if np.max(acc) < -5:
            break
        i += 1
    return acc


@pytest.mark.parametrize("backend", BACKENDS)
def test_blocks_written_as_functions_run_as_written_in_place(low_limits, backend):
    eager_v = autoconv.Variable(np.zeros(3))
    v = autoconv.Variable(np.zeros(3))
    f = _function(lambda x, y: features(x, y, v, 6), backend)
    for x in (np.full(3, 20.0), np.full(3, 3.0), np.array([-2.0, 0.5, 40.0])):
        y = np.array([0.5, -1.0, 2.0])
        want = features(x.copy(), y, eager_v, 6)
        np.testing.assert_allclose(f(x, y), want)
        np.testing.assert_allclose(v.numpy(), eager_v.numpy())
    source = _code(f, x, y)
    assert re.search(r"def _body_\d+\(", source) and re.search(r"def _then_\d+\(", source)


def test_an_error_in_a_block_written_as_a_function_names_the_users_line(low_limits):
    f = autoconv.function(lambda x, y: failing(x, y, 4))
    spec = autoconv.TensorSpec([None])
    concrete = f.get_concrete_function(spec, spec)
    line = failing.__code__.co_firstlineno + 2
    with pytest.raises(ValueError, match=rf"{HERE}:{line}: \+ failed while the graph ran"):
        concrete(np.full(2, 1000.0, np.float32), np.ones(3, np.float32))


def test_shallow_programs_are_written_as_before():
    """Below the limits nothing changes: a chain of 16 operations (14 products, the sum, the
    comparison) is one expression, nesting 30 deep is written in place."""
    A, v = np.eye(3) * 0.5, np.ones(3)
    for n, inlined in ((14, 14), (15, 14)):
        code = _code(autoconv.function(matmuls_then_if(n), optimize=_UNROLLED), A, v)
        test = next(line for line in code.splitlines() if line.strip().startswith("if "))
        assert test.count("@") == inlined
        assert code.count("@") == n
    code = _code(autoconv.function(lambda x: descend(x, 30)), v)
    assert "def _" not in code
    assert _deepest(code)[0] == 32
