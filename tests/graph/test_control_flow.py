"""Staged if / while / for: values, break / continue / return, lists, shapes, errors."""

import numpy as np
import pytest

import autoconv
from autoconv.graph.errors import StagingError

HERE = __file__


def both(fn, *args):
    """Runs `fn` eagerly and as an autoconv.function; returns (eager, graph)."""
    return fn(*args), autoconv.function(fn)(*args)


def assert_same(eager, graph):
    assert np.asarray(graph).dtype == np.asarray(eager).dtype
    np.testing.assert_array_equal(graph, eager)


def relu_if(x):
    if np.sum(x) > 0:
        y = x
    else:
        y = np.zeros_like(x)
    return y


def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def first_above_two(xs):
    for x in xs:
        if x > 2:
            return x
    return -1


def sum_until_negative(xs):
    s = np.float32(0)
    for x in xs:
        if x < 0:
            break
        if x > 5:
            continue
        s = s + x
    return s


def doubled(xs):
    out = []
    for x in xs:
        out.append(x * 2)
    return np.stack(out)


def positives(xs):
    out = [np.float64(-1.0)]
    for x in xs:
        if x > 0:
            out.append(x)
    return np.stack(out)


def growing(n):
    x = np.zeros(1)
    i = 0
    while i < n:
        x = np.concatenate([x, x])
        i += 1
    return x


def range_sum(n):
    total = 0
    for i in range(n):
        total += i * i
    return total


def enumerate_zip(xs, ys):
    acc = np.float64(0)
    for i, x in enumerate(xs):
        acc = acc + i * x
    for x, y in zip(xs, ys):
        acc = acc + x * y
    return acc


def logical(x):
    return (x > 0 and x < 10) or x == -5


def conditional_expression(x):
    return x * 2 if np.sum(x) > 0 else -x


@pytest.mark.parametrize(
    "fn, args",
    [
        (relu_if, (np.array([1.0, 2.0]),)),
        (relu_if, (np.array([-3.0, 2.0]),)),
        (collatz, (np.int64(27),)),
        (first_above_two, (np.array([1, 2, 3, 4]),)),
        (first_above_two, (np.array([1, 2]),)),
        (sum_until_negative, (np.array([1.0, 7.0, 2.0, -1.0, 4.0], np.float32),)),
        (doubled, (np.arange(4.0),)),
        (positives, (np.array([1.0, -2.0, 3.0]),)),
        (growing, (np.int64(3),)),
        (range_sum, (np.int64(5),)),
        (enumerate_zip, (np.arange(3.0), np.ones(3))),
        (logical, (np.int64(3),)),
        (logical, (np.int64(-5),)),
        (logical, (np.int64(20),)),
        (conditional_expression, (np.array([1.0, -0.5]),)),
        (conditional_expression, (np.array([-1.0, -0.5]),)),
    ],
    ids=lambda v: getattr(v, "__name__", None) or repr(v)[:20],
)
def test_staged_matches_eager(fn, args):
    eager, graph = both(fn, *args)
    np.testing.assert_allclose(np.asarray(graph, dtype=float), np.asarray(eager, dtype=float))


def test_staged_if_is_one_graph_with_cond():
    f = autoconv.function(relu_if)
    f(np.array([1.0])), f(np.array([-1.0]))
    assert f.tracing_count == 1
    graph = f.get_concrete_function(np.array([1.0])).graph
    assert [n.kind for n in graph.nodes].count("cond") == 1


def test_early_return_inside_staged_loop():
    # TensorFlow raises NotImplementedError for this one.
    f = autoconv.function(first_above_two)
    assert f(np.array([5, 1, 0])) == 5
    assert f(np.array([1, 3, 9])) == 3
    assert f(np.array([0, 0, 0])) == -1
    assert f.tracing_count == 1
    assert "while" in f.get_concrete_function(np.array([5, 1, 0])).graph.as_text()


def test_python_counter_stays_python_int_like_eager():
    eager, graph = both(collatz, np.int64(27))
    assert type(graph) is type(eager) is int
    assert graph == 111


def test_list_grown_in_staged_loop_then_stacked():
    f = autoconv.function(doubled)
    for n in (1, 3, 5):
        xs = np.arange(float(n))
        np.testing.assert_array_equal(f(xs), xs * 2)
    assert f.tracing_count == 3  # one per input shape


def test_loop_variable_shape_is_generalized():
    f = autoconv.function(growing)
    assert f(np.int64(4)).shape == (16,)
    graph = f.get_concrete_function(np.int64(4)).graph
    loop = next(n for n in graph.nodes if n.kind == "while")
    assert loop.outputs[0].shape == (None,)


def test_staged_for_over_symbolic_range_length():
    f = autoconv.function(range_sum, reduce_retracing=True)
    assert f(np.int64(5)) == 30
    assert f(np.int64(0)) == 0


def test_python_conditions_still_run_as_python():
    @autoconv.function
    def f(x, n):
        for _ in range(n):  # Python range: unrolled
            x = x + 1
        if n > 2:  # Python condition: no cond op
            x = -x
        return x

    assert f(np.float64(0), 3) == -3
    kinds = [n.kind for n in f.get_concrete_function(np.float64(0), 3).graph.nodes]
    assert "cond" not in kinds and "while" not in kinds


def _error(fn, *args):
    with pytest.raises(StagingError) as info:
        autoconv.function(fn)(*args)
    return str(info.value)


def defined_in_one_branch(x):
    if x > 0:
        y = x
    return y


def test_variable_defined_in_only_one_branch_is_checked_when_the_graph_runs():
    f = autoconv.function(defined_in_one_branch)
    assert f(np.float64(1.0)) == defined_in_one_branch(np.float64(1.0)) == 1.0
    # The path that leaves `y` unbound raises what eager Python raises, when it runs.
    with pytest.raises(UnboundLocalError, match="'y'"):
        defined_in_one_branch(np.float64(-1.0))
    with pytest.raises(UnboundLocalError, match="'y'"):
        f(np.float64(-1.0))
    assert f.tracing_count == 1


def branch_dtypes(x):
    if x > 0:
        y = x.astype(np.int32)
    else:
        y = x
    return y


def test_branches_disagree_in_dtype():
    message = _error(branch_dtypes, np.float64(1.0))
    assert "`y`" in message and "int32" in message and "float64" in message
    assert "if branch" in message and "else branch" in message
    assert f"{HERE}:" in message


def branch_structure(x):
    if x > 0:
        y = (x, x)
    else:
        y = x
    return y * 2  # a tuple on one path, a number on the other (trace.tensors.unions)


def test_branches_disagree_in_structure():
    message = _error(branch_structure, np.float64(1.0))
    assert "`y`" in message and "a tuple of 2 or a float64" in message and f"{HERE}:" in message


def loop_dtype_change(n):
    x = np.int32(0)
    i = 0
    while i < n:
        x = x + 0.5
        i += 1
    return x


def test_dtype_change_across_iterations():
    message = _error(loop_dtype_change, np.int64(3))
    assert "`x`" in message and "before an iteration" in message and "after it" in message
    assert "int32" in message and "float64" in message and f"{HERE}:" in message


def loop_structure_change(n):
    x = np.float64(0)
    i = 0
    while i < n:
        x = (x, x)
        i += 1
    return x


def test_structure_change_across_iterations():
    message = _error(loop_structure_change, np.int64(3))
    assert "`x`" in message and "structure" in message and f"{HERE}:" in message


def test_tensor_as_bool_outside_converted_code():
    @autoconv.function(autograph=False)
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(autoconv.AutoconvError, match="used as a Python bool.*np.where"):
        f(np.float64(1.0))


def test_iterating_tensor_outside_converted_code():
    def f(xs):
        out = []
        for x in xs:
            out.append(x)
        return out

    # A `for` statement that stays Python goes by index over a first dimension known now.
    graph = autoconv.function(f, autograph=False)
    assert [type(v) for v in graph(np.arange(3.0))] == [np.float64] * 3

    unknown = autoconv.function(
        f, autograph=False, input_signature=[autoconv.TensorSpec([None], np.float64)]
    )
    with pytest.raises(autoconv.AutoconvError, match="cannot be iterated.*unknown until"):
        unknown(np.arange(3.0))

    @autoconv.function(autograph=False)
    def g(xs):
        return [x * 2 for x in xs]  # a comprehension goes by index, as eagerly

    assert [type(v) for v in g(np.arange(3.0))] == [np.float64] * 3
    assert g(np.arange(3.0)) == [0.0, 2.0, 4.0]


def test_variable_in_staged_loop_updates_in_order():
    v = autoconv.Variable(0.0)

    @autoconv.function
    def f(n):
        i = 0
        while i < n:
            v.assign_add(i)
            i += 1
        return v.read_value()

    assert f(np.int64(4)) == 6.0
    assert v.numpy() == 6.0
    assert f(np.int64(2)) == 7.0


def grade(x, marks):
    # An `elif` chain is one flat tuple, the `orelse` of `ac.if_stmt`; on Tensors each test stages a nested `cond`
    # (with a list appended in one branch and a name bound in some branches only).
    s = np.sum(x)
    if s > 10:
        g = x * 3
        marks.append(s)
    elif s > 5:
        g = x * 2
    elif (t := s * 2) > 4:
        g = x + t
    elif s > 0:
        pass
    else:
        g = -x
    return g if s > 0 else x


@pytest.mark.parametrize(
    "x",
    [np.array([6.0, 6.0]), np.array([3.0, 3.0]), np.array([1.5, 1.0]), np.array([0.5, 0.2])]
    + [np.array([-1.0, 0.0])],
    ids=["if", "elif", "elif-walrus", "elif-empty", "else"],
)
def test_elif_chain_stages_every_branch(x):
    eager_marks, graph_marks = [], []
    fn = autoconv.function(grade)
    if 0 < x.sum() <= 2:
        # `g` is unbound on that path: the graph raises what the original raises.
        with pytest.raises(UnboundLocalError):
            grade(x, eager_marks)
        with pytest.raises(UnboundLocalError):
            fn(x, graph_marks)
        return
    eager = grade(x, eager_marks)
    graph = fn(x, graph_marks)
    assert_same(eager, graph)
    assert len(graph_marks) == len(eager_marks)
