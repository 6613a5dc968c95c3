"""Clear messages for what autoconv cannot convert or trace as given: NumPy's functions,
classes, objects with `__call__` (a model), and a TensorSpec passed to an ordinary call."""

import numpy as np
import pytest

import autoconv
from autoconv import ConversionError, ConversionWarning
from autoconv.callables import SpecInCallError


class Model:
    def __init__(self):
        self.w = np.float64(2.0)

    def __call__(self, x):
        return x * self.w


def test_function_of_a_numpy_ufunc_says_to_call_it_inside_a_function():
    with pytest.raises(ConversionError, match=r"numpy\.sin: it is a NumPy function") as info:
        autoconv.function(np.sin)
    assert "return np.sin(x)" in str(info.value)
    assert "built-in or C" not in str(info.value)


def test_to_code_of_a_numpy_function_names_it():
    with pytest.raises(ConversionError, match=r"cannot convert numpy\.sum: it is a NumPy"):
        autoconv.to_code(np.sum)


def test_function_of_a_class_says_to_wrap_a_method():
    with pytest.raises(
        ConversionError, match=r"trace Model: it is a class, not a function"
    ) as info:
        autoconv.function(Model)
    assert "`autoconv.function(model.__call__)`" in str(info.value)
    with pytest.raises(ConversionError, match="Model: it is a class; convert its methods"):
        autoconv.to_code(Model)


class Gated:
    """A model whose `__call__` has data-dependent control flow and state in attributes."""

    def __init__(self):
        self.w = np.float64(2.0)
        self.calls = 0

    def __call__(self, x):
        self.calls += 1
        if x.sum() > 0:
            return x * self.w
        return -x


def gated_eager(x, w=2.0):
    return x * w if x.sum() > 0 else -x


def test_a_model_object_is_converted_through_its_bound_call(recwarn):
    # As `tf.function(model)`: `convert(model)` and `function(model)` convert the bound
    # `__call__`, so its `if` on data is staged, and its attributes are read and set as eagerly.
    model = Gated()
    for wrapped in (autoconv.function(model), autoconv.function(model, backend="numpy")):
        for x in (np.ones(2), -np.ones(2)):
            np.testing.assert_array_equal(wrapped(x), gated_eager(x))
    assert model.calls == 4
    model.w = np.float64(5.0)  # an attribute read as a graph input: the new value is used
    np.testing.assert_array_equal(autoconv.function(model)(np.ones(2)), np.full(2, 5.0))
    converted = autoconv.convert(model)
    np.testing.assert_array_equal(converted(-np.ones(2)), np.ones(2))
    assert converted.__self__ is model and model.calls == 6
    assert "def __call__(self, x):" in autoconv.to_code(model)
    assert not [w for w in recwarn if issubclass(w.category, ConversionWarning)]


@autoconv.function
def double(x, scale=2.0):
    return x * scale


def test_a_tensorspec_in_an_ordinary_call_says_to_use_get_concrete_function():
    spec = autoconv.TensorSpec([3], np.float32)
    for _ in range(2):  # before and after a graph for float32[3] exists
        with pytest.raises(SpecInCallError, match=r"double\(\) got a TensorSpec for `x`") as info:
            double(spec)
        assert isinstance(info.value, TypeError)
        assert "double.get_concrete_function(" in str(info.value)
        assert str(info.value).startswith(f"{__file__}:")
        double(np.ones(3, np.float32))
    with pytest.raises(SpecInCallError, match="for `x`"):
        double([spec, spec])
    # What the message suggests works.
    concrete = double.get_concrete_function(spec)
    np.testing.assert_array_equal(concrete(np.ones(3, np.float32)), np.full(3, 2.0))
