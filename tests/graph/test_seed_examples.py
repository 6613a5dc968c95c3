"""The seed guides' tf.function examples, with NumPy in place of TensorFlow."""

import warnings

import numpy as np
import pytest

import autoconv
from autoconv.graph.errors import RetracingWarning


def test_matmul_and_add():
    @autoconv.function
    def add_and_matmul(a, b, c):
        return a @ b + c

    a = np.array([[1.0, 2.0]], np.float32)
    b = np.array([[2.0], [3.0]], np.float32)
    c = np.array([[4.0]], np.float32)
    out = add_and_matmul(a, b, c)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [[12.0]])


def inner_function(x, y, b):
    x = np.matmul(x, y)
    x = x + b
    return x


def test_outer_function_calls_unconverted_inner():
    @autoconv.function
    def outer_function(x):
        y = np.array([[2.0], [3.0]], np.float32)
        b = np.array(4.0, np.float32)
        return inner_function(x, y, b)

    np.testing.assert_array_equal(outer_function(np.array([[1.0, 2.0]], np.float32)), [[12.0]])
    assert outer_function.tracing_count == 1


@autoconv.function
def square_if_small(x):
    if np.sum(x) <= 1:
        return x * x
    else:
        return x - 1


def test_data_dependent_if():
    np.testing.assert_allclose(square_if_small(np.array([0.2, 0.3])), [0.04, 0.09])
    np.testing.assert_allclose(square_if_small(np.array([2.0, 3.0])), [1.0, 2.0])
    # same signature: one graph holding both branches
    assert square_if_small.tracing_count == 1
    text = square_if_small.get_concrete_function(np.array([0.2, 0.3])).graph.as_text()
    assert "cond" in text


def simple_relu(x):
    if np.greater(x, 0):
        return x
    else:
        return np.zeros_like(x)


def test_simple_relu():
    tf_simple_relu = autoconv.function(simple_relu)
    assert tf_simple_relu(np.float32(1.0)) == 1.0
    assert tf_simple_relu(np.float32(-1.0)) == 0.0
    assert tf_simple_relu.tracing_count == 1
    code = autoconv.to_code(simple_relu)
    assert "ac.if_stmt" in code


def test_my_relu_signatures():
    @autoconv.function
    def my_relu(x):
        return np.maximum(0.0, x)

    assert my_relu(np.float32(5.5)) == np.float32(5.5)
    np.testing.assert_array_equal(my_relu([1, -1]), [1.0, 0.0])
    np.testing.assert_array_equal(my_relu(np.array([3.0, -3.0], np.float32)), [3.0, 0.0])
    assert my_relu.tracing_count == 3
    text = my_relu.pretty_printed_concrete_signatures()
    assert text.count("my_relu(x)") == 3
    assert "x: float32 Tensor, shape=()" in text
    assert "x: [1, -1]" in text
    assert "x: float32 Tensor, shape=(2,)" in text
    assert "float32 Tensor, shape=(2,)" in text.split("Returns:")[-1]


def test_python_print_runs_only_while_tracing(capsys):
    @autoconv.function
    def get_mse(y_true, y_pred):
        print("Calculating MSE!")
        return np.mean(np.square(y_pred - y_true))

    y_true = np.array([1, 2, 3], np.int32)
    y_pred = np.array([2, 2, 4], np.int32)
    for _ in range(3):
        get_mse(y_true, y_pred)
    assert capsys.readouterr().out == "Calculating MSE!\n"
    autoconv.run_functions_eagerly(True)
    try:
        for _ in range(3):
            assert get_mse(y_true, y_pred) == pytest.approx(2 / 3)
    finally:
        autoconv.run_functions_eagerly(False)
    assert capsys.readouterr().out == "Calculating MSE!\n" * 3


def test_non_strict_unused_take():
    @autoconv.function
    def unused_return_graph(x):
        np.take(x, [1])  # would fail on a length-1 x, but nothing needs it
        return x

    np.testing.assert_array_equal(unused_return_graph(np.array([0.0])), [0.0])

    def unused_return_eager(x):
        np.take(x, [1])
        return x

    with pytest.raises(IndexError):
        unused_return_eager(np.array([0.0]))


def test_retracing_on_new_python_arguments_only():
    @autoconv.function
    def a_function_with_python_side_effect(x):
        print("Tracing!")
        return x * x + 2

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RetracingWarning)
        assert a_function_with_python_side_effect(np.int32(2)) == 6
        assert a_function_with_python_side_effect(np.int32(3)) == 11
        assert a_function_with_python_side_effect.tracing_count == 1
        assert a_function_with_python_side_effect(2) == 6
        assert a_function_with_python_side_effect(3) == 11
        assert a_function_with_python_side_effect.tracing_count == 3


def power(x, y):
    result = np.eye(10, dtype=np.int32)
    for _ in range(y):
        result = np.matmul(x, result)
    return result


def test_power():
    x = np.random.default_rng(0).integers(-2, 2, size=(10, 10)).astype(np.int32)
    f = autoconv.function(power)
    out = f(x, 100)
    np.testing.assert_array_equal(out, power(x, 100))
    assert out.dtype == np.int32


class Dense:
    def __init__(self, rng, n):
        self.w = rng.normal(size=(n, n)).astype(np.float32) * 0.1
        self.b = np.zeros(n, np.float32)

    def __call__(self, x):
        return np.maximum(0.0, x @ self.w + self.b)


class SequentialModel:
    def __init__(self, n_layers=100, width=10):
        rng = np.random.default_rng(0)
        self.layers = [Dense(rng, width) for _ in range(n_layers)]

    def call(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def test_model_with_100_layers_wrapped_call():
    model = SequentialModel()
    x = np.random.default_rng(1).normal(size=(20, 10)).astype(np.float32)
    expected = model.call(x)
    model.call = autoconv.function(model.call)
    np.testing.assert_allclose(model.call(x), expected, rtol=1e-6)
    model.call(x)
    assert model.call.tracing_count == 1


def test_concrete_function_rejects_other_dtype():
    @autoconv.function
    def double(a):
        return a + a

    double_strings = double.get_concrete_function(autoconv.TensorSpec(shape=(), dtype=np.str_))
    assert double_strings(np.str_("a")) == "aa"
    with pytest.raises(TypeError, match="parameter `a` expects"):
        double_strings(np.int32(1))

    f32 = double.get_concrete_function(autoconv.TensorSpec([None], np.float32))
    np.testing.assert_array_equal(f32(np.ones(3, np.float32)), [2.0, 2.0, 2.0])
    with pytest.raises(TypeError, match="float32"):
        f32(np.ones(3, np.int64))


def test_keyword_and_default_python_arguments():
    @autoconv.function
    def f(x, training=True):
        if training:
            return x * 2
        return x

    x = np.ones(2, np.float32)
    np.testing.assert_array_equal(f(x), [2.0, 2.0])
    np.testing.assert_array_equal(f(x, training=True), [2.0, 2.0])
    assert f.tracing_count == 1
    np.testing.assert_array_equal(f(x, training=False), [1.0, 1.0])
    np.testing.assert_array_equal(f(x, False), [1.0, 1.0])
    assert f.tracing_count == 2


def test_linear_regression_with_variable():
    rng = np.random.default_rng(0)
    xs = rng.normal(size=100).astype(np.float32)
    ys = (3.0 * xs + 2.0).astype(np.float32)
    w = autoconv.Variable(np.float32(0.0), name="w")
    b = autoconv.Variable(np.float32(0.0), name="b")

    @autoconv.function
    def train_step(x, y, lr):
        pred = w * x + b
        err = pred - y
        w.assign_sub(lr * np.mean(2 * err * x))
        b.assign_sub(lr * np.mean(2 * err))
        return np.mean(err * err)

    first = train_step(xs, ys, 0.1)
    for _ in range(200):
        loss = train_step(xs, ys, 0.1)
    assert train_step.tracing_count == 1
    assert loss < first
    assert w.numpy() == pytest.approx(3.0, abs=1e-3)
    assert b.numpy() == pytest.approx(2.0, abs=1e-3)


def test_cube():
    @autoconv.function
    def cube(x):
        return x * x * x

    assert cube(np.int32(3)) == 27
    np.testing.assert_array_equal(cube(np.arange(3.0)), [0.0, 1.0, 8.0])


def test_square_if_any_negative():
    @autoconv.function
    def f(x):
        if np.any(x < 0):
            return np.square(x)
        return x

    np.testing.assert_array_equal(f(np.array([-1.0, 2.0])), [1.0, 4.0])
    np.testing.assert_array_equal(f(np.array([1.0, 2.0])), [1.0, 2.0])
    assert f.tracing_count == 1
