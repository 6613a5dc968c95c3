"""The program frame both backends share (`autoconv.backends.frame`): the generated source is in
`linecache` while its program lives and gone after, and an error raised by a generated line is
traced back to its node and reported at the user's line, on the NumPy and the JAX backend."""

import gc
import linecache

import numpy as np
import pytest

import autoconv
from autoconv.backends.frame import ProgramFrame
from autoconv.backends.numpy.executor import Program


class _Frame(ProgramFrame):
    def __init__(self):
        super().__init__("test", "frame")


def test_make_run_compiles_the_lines_inside_make_run():
    frame = _Frame()
    lines = ["def run(x):", "    y = x + one", "    return y / zero"]
    run = frame.make_run(
        lines, {"one": 1, "zero": 0}, {2: "add", 3: "div"}, describe=lambda v: f"int {v}"
    )
    assert frame.source.splitlines()[:4] == [
        "def make_run(",
        "    one,  # int 1",
        "    zero,  # int 0",
        "):",
    ]
    assert frame.line_nodes == {6: "add", 7: "div"}  # counted in the whole source
    assert frame.source.splitlines()[6] == "        return y / zero"
    with pytest.raises(ZeroDivisionError) as e:
        run(1)
    assert frame.node_of(e.value) == "div"


def test_an_error_inside_an_inlined_expression_is_its_node():
    frame = _Frame()
    line = "    return (x / zero) + one"
    start = line.index("x / zero")
    spans = {2: [(start, start + len("x / zero"), "div")]}
    run = frame.make_run(["def run(x):", line], {"one": 1, "zero": 0}, {2: "add"}, spans)
    with pytest.raises(ZeroDivisionError) as e:
        run(1)
    assert frame.node_of(e.value) == "div"
    assert frame.node_of(ValueError("not from the program")) is None


def test_source_that_is_not_printable_ascii_never_runs():
    frame = _Frame()
    with pytest.raises(AssertionError, match="was not run"):
        frame.make_run(["def run():", "    return '\u00e9'"], {}, {})


def _graph(backend="numpy"):
    def f(x):
        return np.sum(x * 2.0)

    return autoconv.function(f, backend=backend).get_concrete_function(np.ones(3)).optimized_graph


def _registered_while_alive(make):
    program = make()
    filename = program.filename
    assert filename.startswith("<autoconv ") and filename.endswith(">")
    assert linecache.getlines(filename) == program.source.splitlines(True)
    del program
    gc.collect()
    assert filename not in linecache.cache


def test_numpy_program_source_is_in_linecache_while_it_lives():
    graph = _graph()
    _registered_while_alive(lambda: Program(graph))


def test_jax_program_source_is_in_linecache_while_it_lives():
    pytest.importorskip("jax")
    from autoconv.backends.jax.program import JaxProgram

    graph = _graph("jax")
    _registered_while_alive(lambda: JaxProgram(graph))


def _line_of(marker: str) -> int:
    with open(__file__) as f:
        return next(n for n, text in enumerate(f, 1) if marker in text)


def broadcasts(a, b):
    return a + b  # the failing line


def counts(x):
    return np.arange(np.sum(x > 0))  # the rejected line


def test_a_numpy_program_error_names_the_users_line():
    f = autoconv.function(broadcasts, input_signature=[autoconv.TensorSpec([None], np.float64)] * 2)
    line = _line_of("# the failing line")
    with pytest.raises(ValueError) as e:
        f(np.ones(2), np.ones(3))
    assert str(e.value).startswith(f"{__file__}:{line}: + failed while the graph ran: ")
    # The program's own error, before it is re-made: its traceback holds the generated line.
    program = f.get_concrete_function(np.ones(2), np.ones(3))._program
    with pytest.raises(ValueError) as raw:
        program.fn(np.ones(2), np.ones(3))
    assert program.node_of(raw.value).origin == (__file__, line)
    assert str(program.rewrite(raw.value)) == str(e.value)


def test_a_jax_program_error_names_the_users_line():
    pytest.importorskip("jax")
    from autoconv.backends.jax import LoweringError

    with pytest.raises(LoweringError) as e:
        autoconv.function(counts, backend="jax")(np.array([1.0, -1.0]))
    line = _line_of("# the rejected line")
    assert str(e.value).startswith(f"{__file__}:{line}: `arange` cannot be lowered to JAX: ")
