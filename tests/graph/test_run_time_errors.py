"""An error raised while a graph runs (found only at run time: the shapes of `a + b`, a zero
divisor, an index) has the type eager NumPy raises, names the operation, the user's file and
line and the user's source text, and chains NumPy's own error as its cause."""

import linecache

import numpy as np
import pytest

import autoconv
from autoconv.graph.errors import GraphExecutionError

S = autoconv.TensorSpec


def adds(a, b):
    c = a * 2
    return c + b


def floor_divides(a, b):
    return a // b


def picks(a, i):
    return a[i] + 1


def reshapes(a, n):
    return np.reshape(a, (n, -1)).sum()


CASES = [
    ("broadcast", adds, (S([None], np.float64),) * 2, (np.ones(2), np.ones(3)), "+"),
    (
        "zero divisor",
        floor_divides,
        (S([None], np.int64),) * 2,
        (np.ones(2, np.int64), np.zeros(2, np.int64)),
        "//",
    ),
    (
        "index",
        picks,
        (S([None], np.float64), S([], np.int64)),
        (np.ones(2), np.int64(5)),
        "getitem",
    ),
    (
        "reshape",
        reshapes,
        (S([None], np.float64), S([], np.int64)),
        (np.ones(5), np.int64(2)),
        "reshape",
    ),
]


@pytest.mark.parametrize("name, func, specs, args, op", CASES, ids=[c[0] for c in CASES])
def test_run_time_errors_name_the_users_line_and_keep_numpys_type(name, func, specs, args, op):
    with np.errstate(all="raise"):
        with pytest.raises(Exception) as eager:
            func(*args)
        concrete = autoconv.function(func).get_concrete_function(*specs)  # traces fine
        with pytest.raises(Exception) as graph:
            concrete(*args)
    eager, graph = eager.value, graph.value
    assert isinstance(graph, type(eager)) and type(graph).__name__ == type(eager).__name__
    assert isinstance(graph, GraphExecutionError)
    # NumPy's error, the one eager code raises, is the cause.
    assert type(graph.__cause__) is type(eager) and str(graph.__cause__) == str(eager)
    # The line that failed: eager code's innermost frame in this file.
    tb = eager.__traceback__
    while tb.tb_next is not None and tb.tb_next.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    line = tb.tb_lineno
    source = linecache.getline(__file__, line).strip()
    message = str(graph)
    assert message.startswith(f"{__file__}:{line}: {op} failed while the graph ran: ")
    assert f"{type(eager).__name__}: {eager}" in message
    assert message.endswith("\n    " + source)


def test_a_staged_raise_keeps_its_exception_and_notes_the_line():
    @autoconv.function
    def checked(x):
        if np.sum(x) > 3:
            raise ValueError("too large")
        return x

    with pytest.raises(ValueError) as info:
        checked(np.ones(5))
    assert type(info.value) is ValueError and str(info.value) == "too large"
    (note,) = info.value.__notes__
    assert note.startswith(f"raised by the graph at {__file__}:")
    assert note.endswith('\n    raise ValueError("too large")')
