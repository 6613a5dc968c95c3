"""Results do not depend on the pass settings: ordinary loop and branch programs, with prints
and Variable updates, run under every entry of `conftest.SETTINGS` (all passes, none, each
alone, each left out) and must match eager NumPy in value, type, dtype, printed output and
effects on Variables, call after call."""

import contextlib
import io

import numpy as np
import pytest

import autoconv
from autoconv.graph import graph as _g

pytestmark = pytest.mark.usefixtures("pass_settings")

X = np.array([1.0, -2.0, 3.0, 0.5], np.float32)
Y = np.array([2.0, 4.0, 0.5, 1.0])
INTS = np.array([3, 1, 4, 1, 5], np.int64)
STATE = autoconv.Variable(np.float32(0.0), name="state")


def count_positive(xs):
    total = 0
    for v in xs:
        if v > 0:
            total += 1
    return total


def running_max(xs):
    best = xs[0]
    for v in xs:
        if v > best:
            best = v
    return best


def newton_sqrt2(a):
    x = a
    i = 0
    while i < 20 and np.abs(x * x - 2.0) > 1e-12:
        x = x - (x * x - 2.0) / (2 * x)
        i += 1
    return x, i


def printed_progress(xs):
    s = 0.0
    for i in range(3):
        s = s + np.sum(xs) * i
        autoconv.print("step", i, s)
    if s > 0:
        autoconv.print("positive")
    else:
        autoconv.print("not positive")
    return s


def print_in_staged_loop(xs):
    i = 0
    s = np.sum(xs) * 0
    while s < 10:
        s = s + np.abs(xs[i % 4])
        autoconv.print("s", s)
        i += 1
    return s, i


def sum_until_negative(xs):
    out = 0.0
    for v in xs:
        if v < 0:
            break
        out += v
    return out


def sum_of_non_negative(xs):
    out = 0.0
    for v in xs:
        if v < 0:
            continue
        out += v
    return out


def first_negative(xs):
    for v in xs:
        if v < 0:
            return v
    return 0.0 * xs[0]


def int_recurrence(xs):
    k = 1
    for v in xs:
        k = k * 2 + v
    return k


def pairwise_gaps(xs):
    t = 0
    for a in xs:
        for b in xs:
            if a > b:
                t += a - b
    return t


def conditional_expressions(xs):
    y = xs[0] if xs[1] > 0 else xs[2]
    z = 1 if np.sum(xs) > 0 else 2
    return y, z


def logical_chain(xs):
    r = 0
    if xs[0] > 0 and xs[1] > 0:
        r = 1
    elif xs[0] > 0 or xs[1] > 0:
        r = 2
    return r


def same_python_values_in_both_branches(xs):
    a = 1
    b = 2.0
    mode = "sum"
    if xs[0] > 0:
        a = 1
        b = 2.0
        mode = "sum"
        c = xs * 2
    else:
        c = xs * 3
    return a, b, mode, c


def weak_numbers_assigned_in_a_branch(x):
    a = 1
    b = 1
    for i in range(3):
        if x > i:
            a = a + 1
            b = a
    return a, b


def same_int_in_staged_loop(xs):
    k = 3
    t = (1, 2)
    for v in xs:
        if v > 0:
            k = 3
            t = (1, 2)
    return k, t


def tuple_state(xs):
    p = (0.0, 1.0)
    for v in xs:
        p = (p[1], p[0] + p[1] * v)
    return p


def dict_state(xs):
    d = {"s": 0.0, "n": 0}
    for v in xs:
        d = {"s": d["s"] + v, "n": d["n"] + 1}
    return d


def doubled_stacked(xs):
    out = []
    for v in xs:
        out.append(v * 2)
    return np.stack(out)


def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def squares_below(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


def equality_tests(xs):
    c = 0
    for v in xs:
        if v == 3.0:
            c = c + 10
        elif v != 1.0:
            c = c + 1
    return c


def nested_branches_in_while(xs):
    i = 0
    acc = 0.0
    while i < 4:
        if xs[i] > 0:
            if xs[i] > 2:
                acc = acc + 2 * xs[i]
            else:
                acc = acc + xs[i]
        i = i + 1
    return acc


def printed_where_loop(xs):
    y = xs
    for i in range(3):
        y = np.where(y > 0, y - 1, y + 1)
        autoconv.print(i, y)
    return y


def variable_updates_in_branches(xs):
    for v in xs:
        if v > 0:
            STATE.assign_add(v)
        else:
            STATE.assign_sub(1.0)
    autoconv.print("state", STATE.read_value())
    return STATE.read_value()


def variable_read_in_condition(xs):
    STATE.assign(0.0)
    for v in xs:
        STATE.assign(STATE + v)
        if STATE > 2.0:
            autoconv.print("big", STATE.read_value())
    return STATE + 0.0


def variable_as_loop_bound(xs):
    n = 0
    while STATE < 3.0:
        STATE.assign_add(1.0)
        n += 1
    return n, STATE.read_value()


def _checked_below(x, limit):
    autoconv.print("test", x)
    return x < limit


def print_in_while_test(x):
    while _checked_below(x, 5.0):
        x = x * 2
    return x


def variable_update_in_while_test(x):
    n = 0
    while STATE.assign_add(1.0) < 5:
        x = x * 2
        n += 1
    return x, n, STATE.read_value()


def print_in_while_test_with_break(xs):
    i = np.argmax(xs) * 0
    while _checked_below(i, 4):
        if xs[i] < 0:
            autoconv.print("negative at", i)
            break
        i += 1
    return i


def counter_local_to_one_branch(xs):
    a = np.sum(xs) * 0.0 + 1.0
    b = xs * 1.0
    for _ in xs:
        if np.sum(b) > a:
            j = np.argmax(xs) * 0
            while j < 3:
                j = j + 1
                a = a - 1
            while j < 3:
                j = j + 1
                b = np.where(b > a, b - 1.0, b * 0.5)
        else:
            for v in xs:
                a = a - v
    return a, b


def counter_local_to_a_loop_body(xs):
    c = 0
    i = np.argmax(xs) * 0
    while i < 3:
        i = i + 1
        for _ in xs:
            j = np.argmax(xs) * 0
            while j < 3:
                j = j + 1
                c = c + 1
    return c


def counter_assigned_in_two_loops(xs):
    a = np.sum(xs)
    if STATE > 1.0:
        i = np.argmax(xs) * 0
        while i < 3:
            i = i + 1
            j = np.argmax(xs) * 0
        for _ in xs:
            j = np.argmax(xs) * 0
            while j < 3:
                j = j + 1
                a = a - 1
    return a


def counter_defined_in_one_branch_then_reassigned_in_a_loop(xs):
    a = np.sum(xs)
    for _ in xs:
        if a > 0:
            j = np.argmax(xs) * 0
            while j < 3:
                j = j + 1
                a = a + 1
        for w in xs:
            j = np.argmax(xs) * 0
            a = a + w
    return a


PROGRAMS = [
    (count_positive, (X,)),
    (running_max, (X,)),
    (newton_sqrt2, (np.float64(1.0),)),
    (printed_progress, (X,)),
    (print_in_staged_loop, (X,)),
    (sum_until_negative, (X,)),
    (sum_of_non_negative, (X,)),
    (first_negative, (X,)),
    (first_negative, (Y,)),
    (int_recurrence, (INTS,)),
    (pairwise_gaps, (INTS,)),
    (conditional_expressions, (X,)),
    (conditional_expressions, (-X,)),
    (logical_chain, (X,)),
    (logical_chain, (-X,)),
    (same_python_values_in_both_branches, (X,)),
    (weak_numbers_assigned_in_a_branch, (np.float32(2.0),)),
    (same_int_in_staged_loop, (X,)),
    (tuple_state, (X,)),
    (dict_state, (X,)),
    (doubled_stacked, (X,)),
    (collatz_steps, (np.int64(7),)),
    (squares_below, (np.int64(5),)),
    (equality_tests, (X,)),
    (nested_branches_in_while, (X,)),
    (printed_where_loop, (X,)),
    (variable_updates_in_branches, (X,)),
    (variable_read_in_condition, (X,)),
    (variable_as_loop_bound, (X,)),
    (print_in_while_test, (np.float32(1.0),)),
    (print_in_while_test, (np.float32(7.0),)),
    (variable_update_in_while_test, (np.float64(1.0),)),
    (print_in_while_test_with_break, (X,)),
    (print_in_while_test_with_break, (Y,)),
    (counter_local_to_one_branch, (X,)),
    (counter_local_to_a_loop_body, (X,)),
    (counter_assigned_in_two_loops, (X,)),
    (counter_defined_in_one_branch_then_reassigned_in_a_loop, (X,)),
]


def _run(fn, args):
    """What a caller observes: the result, what was printed and the Variable afterwards."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = fn(*args)
    return result, out.getvalue(), STATE.numpy()


def _assert_identical(graph, eager, path="result"):
    assert type(graph) is type(eager), f"{path}: {type(graph)} != {type(eager)}"
    if isinstance(eager, (tuple, list)):
        assert len(graph) == len(eager), path
        for k, (g, e) in enumerate(zip(graph, eager)):
            _assert_identical(g, e, f"{path}[{k}]")
    elif isinstance(eager, dict):
        assert list(graph) == list(eager), path
        for k in eager:
            _assert_identical(graph[k], eager[k], f"{path}[{k!r}]")
    elif isinstance(eager, (np.ndarray, np.generic)):
        assert graph.dtype == eager.dtype and graph.shape == eager.shape, path
        assert graph.tobytes() == eager.tobytes(), f"{path}: {graph!r} != {eager!r}"
    else:
        assert graph == eager, f"{path}: {graph!r} != {eager!r}"


@pytest.mark.parametrize(
    "fn, args", PROGRAMS, ids=[f"{fn.__name__}-{k}" for k, (fn, _) in enumerate(PROGRAMS)]
)
def test_program_matches_eager_with_every_setting(fn, args):
    STATE.assign(np.float32(0.0))
    eager = [_run(fn, args) for _ in range(2)]
    STATE.assign(np.float32(0.0))
    graph_fn = autoconv.function(fn)
    graph = [_run(graph_fn, args) for _ in range(2)]
    assert graph_fn.tracing_count == 1
    for (g_result, g_out, g_state), (e_result, e_out, e_state) in zip(graph, eager):
        _assert_identical(g_result, e_result)
        assert g_out == e_out
        _assert_identical(g_state, e_state, "state")


def _ops(graph):
    return [node.op for node in graph.walk()]


def test_merging_branches_records_no_comparison():
    """Deciding whether a variable kept its value in both branches is autoconv's bookkeeping:
    it must not add a `==` to the graph (without dead-code elimination such a node ran, and
    read a value of another block)."""
    traced = autoconv.function(count_positive).get_concrete_function(X).graph
    assert "==" not in _ops(traced)


class _Holder:
    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return self.value == other.value

    __hash__ = object.__hash__


def test_user_equality_over_tensors_records_nothing():
    """An object whose `__eq__` compares Tensors is not "the same" in both branches; asking
    must not leave the comparison in the graph."""

    def f(xs):
        h = _Holder(xs[0])
        if xs[1] > 0:
            h = _Holder(xs[0])
        return h.value

    # (objects made in a branch are carried by their attributes: the graph returns eager's)
    traced = autoconv.function(f)
    assert np.array_equal(traced(X), f(X))
    assert "==" not in _ops(traced.get_concrete_function(X).graph)


def test_no_recording_scope_refuses_new_nodes():
    traced = autoconv.function(count_positive).get_concrete_function(X).graph
    with _g.build(traced), _g.no_recording(), pytest.raises(_g.RecordingForbidden):
        _g.add_node(_g.Node("const", "const", attrs={"value": 1}), [((), np.dtype(int))])
    assert all(node.op != "const" or node.attrs["value"] != 1 for node in traced.nodes)
