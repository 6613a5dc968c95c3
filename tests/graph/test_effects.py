"""Side effects, Variables, non-strict execution, listings, run-time errors."""

import numpy as np
import pytest

import autoconv

HERE = __file__


def test_autoconv_print_runs_on_every_call_in_order(capsys):
    @autoconv.function
    def f(x):
        print("tracing")
        autoconv.print("x is", x)
        y = x * 2
        autoconv.print("y is", y, sep=":")
        return y

    f(np.array([1, 2]))
    f(np.array([3, 4]))
    assert capsys.readouterr().out == "tracing\nx is [1 2]\ny is:[2 4]\nx is [3 4]\ny is:[6 8]\n"


def test_autoconv_print_matches_eager(capsys):
    def f(x):
        autoconv.print(np.sum(x), x)

    f(np.arange(3))
    eager = capsys.readouterr().out
    autoconv.function(f)(np.arange(3))
    assert capsys.readouterr().out == eager


def test_variable_is_read_at_run_time_not_baked_in():
    v = autoconv.Variable(np.float32(1.0))

    @autoconv.function
    def f(x):
        return x * v

    assert f(np.float32(2)) == 2.0
    v.assign(5.0)
    assert f(np.float32(2)) == 10.0
    assert f.tracing_count == 1


def test_variable_updates_happen_in_order_and_are_visible():
    v = autoconv.Variable(np.zeros(2), name="v")

    @autoconv.function
    def f(x):
        before = np.sum(v)
        v.assign_add(x)
        middle = np.sum(v)
        v.assign(v * 10)
        return before, middle

    before, middle = f(np.ones(2))
    assert (before, middle) == (0.0, 2.0)
    np.testing.assert_array_equal(v.numpy(), [10.0, 10.0])
    assert f(np.ones(2)) == (20.0, 22.0)


def test_variable_assign_errors():
    v = autoconv.Variable(np.zeros(2, np.float32), name="w")
    with pytest.raises(ValueError, match="shape"):
        v.assign(np.zeros(3))

    @autoconv.function
    def f(x):
        v.assign(x)

    with pytest.raises(autoconv.AutoconvError, match=r"Variable 'w'"):
        f(np.zeros(3, np.float32))


def test_variable_behaves_as_array_eagerly():
    v = autoconv.Variable([1.0, 2.0])
    assert np.asarray(v).tolist() == [1.0, 2.0]
    assert (v + 1).tolist() == [2.0, 3.0]
    assert np.sum(v) == 3.0
    assert v.dtype == np.float64 and v.shape == (2,)


def test_non_strict_runs_only_what_is_needed():
    @autoconv.function
    def f(x):
        np.take(x, [5])  # unused: never runs
        autoconv.print("kept")  # effect: runs
        return x + 1

    assert f(np.zeros(1)) == 1.0
    code = f.get_concrete_function(np.zeros(1)).code
    assert "take" not in code and "print" in code
    assert "take" in f.get_concrete_function(np.zeros(1)).graph.as_text()


def test_graph_listings():
    @autoconv.function
    def f(x):
        if np.sum(x) > 0:
            x = x * 2
        return x

    graph = f.get_concrete_function(autoconv.TensorSpec([None, 3], np.float32)).graph
    text = graph.as_text()
    assert text.startswith("graph f(%0 x: float32[None, 3]):")
    assert "cond(" in text and "float32[None, 3]" in text
    assert "test_effects.py:" in text
    line = next(ln for ln in text.splitlines() if "* 2" in ln)
    assert "float32[None, 3]" in line
    dot = graph.to_dot()
    assert dot.startswith('digraph "f"') and "->" in dot


def test_runtime_error_names_user_line():
    @autoconv.function
    def f(x, y):
        return x + y  # shapes only known at run time

    cf = f.get_concrete_function(autoconv.TensorSpec([None]), autoconv.TensorSpec([None]))
    with pytest.raises(ValueError, match=rf"{HERE}:\d+: \+ failed while the graph ran") as info:
        cf(np.ones(2, np.float32), np.ones(3, np.float32))
    assert isinstance(info.value, autoconv.AutoconvError)


def test_trace_time_shape_error_names_user_line():
    @autoconv.function
    def f(x, y):
        return x @ y

    with pytest.raises(autoconv.AutoconvError, match=rf"{HERE}:\d+: matmul"):
        f(np.ones((2, 3)), np.ones((2, 3)))


def test_unsupported_numpy_function_is_named():
    @autoconv.function
    def f(x):
        return np.linalg.eig(x)  # real or complex depending on the values: not supported

    with pytest.raises(autoconv.AutoconvError, match=r"numpy\.linalg\.eig is not supported"):
        f(np.ones((2, 2)))


def test_runtime_error_inside_an_inlined_test_names_the_operation():
    @autoconv.function
    def f(x, y):
        if np.sum(x + y) > 0:  # written as one `if` expression
            return x
        return y

    cf = f.get_concrete_function(autoconv.TensorSpec([None]), autoconv.TensorSpec([None]))
    assert "if np_add_reduce((v0 + v1), " in cf.code
    with pytest.raises(ValueError, match=rf"{HERE}:\d+: \+ failed while the graph ran"):
        cf(np.ones(2, np.float32), np.ones(3, np.float32))
