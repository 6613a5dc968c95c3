"""Effects inside staged expressions and helpers: a list appended to in one side of `and`,
`or` or a conditional expression; a `nonlocal` variable or an attribute that a function the
staged statement calls changes (carried as one of its variables, as eager code sees it)."""

import numpy as np
import pytest

import autoconv
from tests.graph.test_staged_writes_and_appends import same

INPUTS = [np.array([1.0, -2.0, 3.0]), np.array([-1.0]), np.zeros(0), np.array([0.5, 2.0])]


def append_under_and(x):
    log = []
    for v in x:
        v > 0 and log.append(v)
    return len(log), log


def append_under_or(x):
    log = []
    for v in x:
        v > 0 or log.append(-v)
    return log


def nonlocal_counter(x):
    negatives = 0

    def visit(v):
        nonlocal negatives
        if v < 0:
            negatives += 1
            return -v
        return v

    total = 0.0
    for v in x:
        total += visit(v)
    return total, negatives


class Tracker:
    def __init__(self):
        self.best = -1.0
        self.updates = 0

    def offer(self, v):
        if v > self.best:
            self.best = v
            self.updates += 1


def method_changes_attributes(x):
    t = Tracker()
    for v in x:
        t.offer(v)
    return t.best, t.updates


class Stopper:
    def __init__(self, patience):
        self.patience = patience
        self.wait = 0
        self.best = np.inf

    def step(self, loss):
        if loss < self.best:
            self.best = loss
            self.wait = 0
        else:
            self.wait += 1
        return self.wait >= self.patience


def method_called_in_a_branch(x):
    s = Stopper(2)
    n = 0
    for v in x:
        n += 1
        if v > -5:
            if s.step(v):
                break
    return n, s.best, s.wait


PROGRAMS = [
    append_under_and,
    append_under_or,
    nonlocal_counter,
    method_changes_attributes,
    method_called_in_a_branch,
]


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_effects_in_staged_expressions_and_helpers_match_eager(f):
    g = autoconv.function(f)
    for x in INPUTS:
        same(g(x), f(x))


def test_type_of_a_tensor_is_the_eager_type():
    def name(x):
        s = np.sum(x)
        return type(s).__name__, type(x) is np.ndarray

    assert autoconv.function(name)(INPUTS[0]) == name(INPUTS[0])


def test_type_of_a_value_whose_type_depends_on_the_path_is_a_clear_error():
    def kind(x):
        s = 0
        for v in x:
            if v > 0:
                s += v
        return isinstance(s, int), type(s).__name__

    with pytest.raises(autoconv.AutoconvError) as info:
        autoconv.function(kind)(INPUTS[0])
    assert "test_effects_in_expressions.py:" in str(info.value)
    assert "`s`" in str(info.value)


def membership_in_a_display(b):
    n = 0
    for v in b:
        live = v * 2
        if live in (2, 4) and v not in [5.0]:
            n += 1
    return n, bool(np.all(b == b)), 3.0 in (np.sum(b), 1.0)


def default_of_a_list_with_items(x):
    squares = [int(v) ** 2 for v in x]
    return sum(squares), max(squares, default=0), min(squares, default=-1)


def append_under_elif(x):
    hubs = []
    isolated = 0
    for node, d in enumerate(x):
        if d == 0:
            isolated += 1
        elif d >= 2:
            hubs.append(node)
    return hubs, isolated


def none_or_number_returned_from_a_loop(x):
    log_sum = 0.0
    for v in x:
        if v <= 0:
            return 0.0 if v == 0 else None
        log_sum += np.log(v)
    return np.exp(log_sum / max(len(x), 1))


@pytest.mark.parametrize(
    "f",
    [
        membership_in_a_display,
        default_of_a_list_with_items,
        append_under_elif,
        none_or_number_returned_from_a_loop,
    ],
    ids=lambda f: f.__name__,
)
def test_everyday_constructs_on_tensors_match_eager(f):
    g = autoconv.function(f)
    for x in [*INPUTS, np.array([2.0, 0.0, 3.0]), np.array([1.0, 2.0, 5.0])]:
        same(g(x), f(x))


def nonzero_and_where(x):
    idx = np.nonzero(x > 0)[0]
    (pos,) = np.where(x > 0)
    grid = np.nonzero(np.outer(x, x) > 0)
    return idx.ndim, idx, pos, len(grid), np.argwhere(x > 0), np.flatnonzero(x)


def divmod_and_star_arguments(x):
    m, s = divmod(np.sum(x), 60)
    a, b = divmod(7, np.sum(x) + 1)
    return m, s, a, b, np.hypot(*x[:2]), [*x[:2]]


def equals_none(x):
    best = None
    for v in x:
        if best == None or v > best:  # noqa: E711 - what users write
            best = v
    return best, best != None  # noqa: E711


def int_and_bool_in_a_test(x):
    n = 0
    for v in range(len(x)):
        if x[v] and x[v] < 2:
            n += 1
        if x[v] or x[v] > 5:
            n += 10
    return n


@pytest.mark.parametrize(
    "f",
    [nonzero_and_where, divmod_and_star_arguments, equals_none, int_and_bool_in_a_test],
    ids=lambda f: f.__name__,
)
def test_numpy_and_python_idioms_on_tensors_match_eager(f):
    g = autoconv.function(f)
    for x in (np.array([-1.0, 3.0, 2.0]), np.array([0.0, 1.0, 125.0]), np.array([4.0, 0.5])):
        same(g(x), f(x))


def filtered_comprehensions(x):
    pos = [v for v in x if v > 0]
    small = [v * 2 for v in x if v > 0 and v < 2.5]
    return len(pos), pos, small, sum(small), [i for i in range(3) if i != 1]


def test_a_comprehension_filtered_by_tensors_matches_eager():
    g = autoconv.function(filtered_comprehensions)
    for x in [*INPUTS, np.array([2.0, 0.0, 3.0])]:
        same(g(x), filtered_comprehensions(x))


def test_a_filtered_comprehension_outside_a_trace_is_the_comprehension():
    assert autoconv.convert(filtered_comprehensions)(INPUTS[0]) == filtered_comprehensions(
        INPUTS[0]
    )
    code = autoconv.to_code(filtered_comprehensions)
    assert "ac.filtered(x, lambda v: v > 0, lambda v: v)" in code


def mean_of_python_ints(x):
    waits = []
    for v in x:
        if v > 0:
            waits.append(int(v))
    return sum(waits) / len(waits) if waits else 0.0


@pytest.mark.parametrize("backend", ["numpy", "jax"])
def test_a_python_division_keeps_the_python_type_of_each_path(backend):
    if backend == "jax":
        pytest.importorskip("jax")
    g = autoconv.function(mean_of_python_ints, backend=backend)
    for x in (np.array([3.0, 1.0, 0.0, 2.0]), np.array([-1.0])):
        same(g(x), mean_of_python_ints(x))


def reciprocal_with_except(x):
    out = []
    for v in x:
        try:
            out.append(1.0 / float(v))
        except ZeroDivisionError:
            out.append(-1.0)
    return out


def test_a_run_time_error_a_handler_catches_takes_the_handler():
    x = np.array([2.0, 0.0])
    assert autoconv.function(reciprocal_with_except)(x) == reciprocal_with_except(x)


def reciprocals_in_a_loop_in_the_try(x):
    out = []
    try:
        for v in x:
            out.append(1.0 / float(v))
    except ZeroDivisionError:
        out = []
    return out


def test_a_run_time_error_a_handler_cannot_stage_is_a_clear_error():
    """The error would leave the loop midway: a graph cannot stage that (test_staged_try.py)."""
    with pytest.raises(autoconv.AutoconvError) as info:
        autoconv.function(reciprocals_in_a_loop_in_the_try)(np.array([2.0, 0.0]))
    message = str(info.value)
    assert "ZeroDivisionError" in message and "`try` at line" in message
    assert "test_effects_in_expressions.py:" in message


def numpy_scalar_types(x):
    a = np.float32(np.sum(x))
    b = np.int64(x[0])
    n = 0
    for j in range(np.int64(np.sum(x))):
        n += j
    return (a, b, np.float64(x), n), type(a).__name__


@pytest.mark.parametrize("backend", ["numpy", "jax"])
def test_numpy_scalar_types_of_tensors_match_eager(backend):
    if backend == "jax":
        pytest.importorskip("jax")
    x = np.array([1.5, 2.0])
    got, name = autoconv.function(numpy_scalar_types, backend=backend)(x)
    want, want_name = numpy_scalar_types(x)
    same(got, want)
    assert name == want_name


def test_range_of_a_float_tensor_raises_type_error_as_eagerly():
    def count(x):
        n = 0
        for _ in range(np.mean(x)):
            n += 1
        return n

    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        count(np.array([1.0, 2.0]))
    with pytest.raises(TypeError, match="cannot be interpreted as an integer") as info:
        autoconv.function(count)(np.array([1.0, 2.0]))
    assert isinstance(info.value, autoconv.AutoconvError)
    assert "test_effects_in_expressions.py:" in str(info.value)


def test_python_errors_in_a_staged_loop_body_raise_where_it_runs():
    def unpack_in_body(x):
        while np.sum(x) < 0:
            e0, e1 = x
            x = x + e0
        return x

    graph = autoconv.function(unpack_in_body)
    x = np.array([1.0, 2.0, 3.0])
    assert graph(x).tolist() == unpack_in_body(x).tolist()  # the body never runs
    with pytest.raises(ValueError, match="too many values to unpack") as info:
        graph(-x)  # its first iteration raises, as eagerly
    assert not isinstance(info.value, autoconv.AutoconvError)


def test_an_error_about_a_traced_value_in_a_loop_body_names_the_loop():
    def missing_method_in_body(x):
        while np.sum(x) < 0:
            x = x.no_such_method()
        return x

    with pytest.raises(AttributeError, match="while tracing the body of this staged `while` loop"):
        autoconv.function(missing_method_in_body)(np.array([1.0, 2.0, 3.0]))


def first_above(v, c):
    for e in v:
        if e > c:
            return e
    return 0.0


def python_float_from_a_helper(x):
    return 0.5 - first_above(x, 2)


def test_a_helpers_python_float_on_one_path_stays_a_python_float():
    g = autoconv.function(python_float_from_a_helper)
    for x in (np.array([0.0, 1.0]), np.array([0.0, 3.0])):
        same(g(x), python_float_from_a_helper(x))


def test_a_name_bound_on_no_path_raises_unbound_local_error():
    def unbound(x, k):
        if np.sum(x) < 0:
            if k > 1:
                u = np.sum(x)
        return u  # noqa: F821 - bound on no path for k <= 1

    with pytest.raises(UnboundLocalError):
        unbound(np.array([-2.0]), 0)
    with pytest.raises(UnboundLocalError) as info:
        autoconv.function(unbound)(np.array([-2.0]), 0)
    assert isinstance(info.value, autoconv.AutoconvError)


def item_write_in_a_python_loop(y):
    b = y * 1.0
    for _ in range(2):
        b[0] = 0.0
    return b


def test_an_item_write_on_a_graph_array_in_a_python_loop_rebinds_it():
    x = np.array([1.0, 2.0])
    same(autoconv.function(item_write_in_a_python_loop)(x), item_write_in_a_python_loop(x))


def constant_key_in_a_branch(m):
    m = m.copy()
    if m[0] > 0:
        m[0] = m[1]
    return m


def constant_key_in_a_loop(m):
    m = m * 1.0
    for v in m:
        if v > 2:
            m[0] = v
    return m


@pytest.mark.parametrize("backend", ["numpy", "jax"])
@pytest.mark.parametrize("f", [constant_key_in_a_branch, constant_key_in_a_loop])
def test_a_constant_key_write_into_a_graph_array_carries_the_array(f, backend):
    if backend == "jax":
        pytest.importorskip("jax")
    g = autoconv.function(f, backend=backend)
    for x in (np.array([1.0, 5.0]), np.array([-1.0, 3.0])):
        same(g(x), f(x.copy()))
