"""An error raised while a graph runs (found only at run time: the shapes of `a + b`, a zero
divisor, an index) has the type eager NumPy raises, names the operation, the user's file and
line and the user's source text, and chains NumPy's own error as its cause."""

import linecache

import numpy as np
import pytest

import autoconv
from autoconv.graph.errors import GraphExecutionError
from tests.graph.agreement import BACKENDS, follows_the_rule, message

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


def index_past_the_end_in_a_branch(x):
    out = np.zeros(3)
    if x[0] > 100:
        out[5] = 1.0
    return out


def view_of_nothing_in_a_branch(x):
    b = x * 1.0
    if np.min(x) > 2:
        w = b[1:]
        w[0] = 7.0
    return b


def read_past_the_end_in_a_branch(x):
    if x[0] > 100:
        return x[7]
    return x[0]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn",
    [index_past_the_end_in_a_branch, view_of_nothing_in_a_branch, read_past_the_end_in_a_branch],
)
def test_an_index_out_of_a_known_size_in_a_staged_branch_raises_where_it_runs(fn, backend):
    # It raised while tracing, also where eager code never takes the branch.
    for x in (np.array([1.0]), np.array([500.0]), np.array([3.0])):
        follows_the_rule(fn, x, backend=backend, text=True)


def handled_past_the_end_in_a_branch(x):
    try:
        if x[0] > 1:
            v = x[5]
        else:
            v = x[0]
    except IndexError:
        v = -1.0
    return v


def test_an_index_out_of_a_known_size_handled_in_a_staged_branch_is_a_clear_error():
    # It took the handler on every input while tracing: -1.0 where eager gives 1.0.
    text = message(handled_past_the_end_in_a_branch, np.array([1.0]))
    assert "test_run_time_errors.py:" in text and "cannot jump to the handler" in text, text
