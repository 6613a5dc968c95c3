"""autoconv.function: tracing, retracing, signatures, concrete functions, methods."""

import gc
import warnings

import numpy as np
import pytest

import autoconv
from autoconv.graph.errors import RetracingWarning


def test_one_trace_per_signature_and_cached_calls_run_no_python():
    calls = []

    @autoconv.function
    def f(x):
        calls.append(1)
        return x + 1

    f(np.ones(3)), f(np.zeros(3)), f(np.ones(3, np.float32)), f(np.ones(4))
    assert f.tracing_count == 3
    assert len(calls) == 3


def test_python_values_key_by_value_and_numpy_scalars_by_dtype():
    @autoconv.function
    def f(x, n):
        return x * n

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RetracingWarning)
        f(np.float32(1), 2), f(np.float32(2), 2), f(np.float32(2), 3), f(np.float64(2), 3)
    assert f.tracing_count == 3


def test_structures_are_part_of_the_key():
    @autoconv.function
    def f(d):
        return d["a"] + d["b"][0]

    assert f({"a": np.ones(2), "b": (np.ones(2),)}).tolist() == [2.0, 2.0]
    f({"a": np.zeros(2), "b": (np.ones(2),)})
    assert f.tracing_count == 1


def test_nested_output_structures():
    from collections import namedtuple

    Pair = namedtuple("Pair", "a b")

    @autoconv.function
    def f(x):
        return {"sum": np.sum(x), "pair": Pair(x, [x * 2, 3])}

    out = f(np.arange(3.0))
    assert out["sum"] == 3.0
    assert isinstance(out["pair"], Pair)
    assert out["pair"].b[1] == 3
    np.testing.assert_array_equal(out["pair"].b[0], [0.0, 2.0, 4.0])


def test_concrete_function_from_tensorspec_accepts_matching_shapes():
    @autoconv.function
    def f(x):
        return np.sum(x, axis=0)

    cf = f.get_concrete_function(autoconv.TensorSpec([None, 2], np.float64))
    assert cf.graph.nodes[-1].outputs[0].shape == (2,)
    np.testing.assert_array_equal(cf(np.ones((5, 2))), [5.0, 5.0])
    # Function calls with compatible shapes reuse the more general trace.
    f(np.ones((3, 2)))
    assert f.tracing_count == 1
    with pytest.raises(
        ValueError, match=r"parameter `x` expects float64 Tensor, shape=\(None, 2\)"
    ):
        cf(np.ones((5, 3)))
    with pytest.raises(TypeError, match="parameter `x`"):
        cf(np.ones((5, 2), np.float32))


def test_input_signature_checks_inputs():
    @autoconv.function(input_signature=[autoconv.TensorSpec([None], np.float32)])
    def f(x):
        return x * 2

    np.testing.assert_array_equal(f(np.ones(3, np.float32)), [2, 2, 2])
    np.testing.assert_array_equal(f([1.0, 2.0]), [2.0, 4.0])  # converted to float32
    assert f(np.ones(7, np.float32)).dtype == np.float32
    assert f.tracing_count == 1
    with pytest.raises(TypeError, match="parameter `x` expects float32 Tensor"):
        f(np.ones(3, np.int64))
    with pytest.raises(ValueError, match="parameter `x`.*got shape"):
        f(np.ones((2, 2), np.float32))


def test_reduce_retracing_generalizes_shapes():
    @autoconv.function(reduce_retracing=True)
    def f(x):
        return x.sum()

    for n in range(1, 6):
        assert f(np.ones(n)) == n
    assert f.tracing_count == 2
    assert "shape=(None,)" in f.pretty_printed_concrete_signatures()


def test_retracing_warning_names_function_and_argument():
    @autoconv.function
    def often(x, n):
        return x + n

    with pytest.warns(RetracingWarning, match=r"`often` has been traced 6 times.*argument `n`"):
        for n in range(6):
            often(np.ones(2), n)


def test_methods_share_the_class_function():
    class Model:
        def __init__(self, scale):
            self.scale = scale

        @autoconv.function
        def call(self, x):
            return x * self.scale

    a, b = Model(2.0), Model(3.0)
    assert a.call(np.float64(1)) == 2.0
    assert b.call(np.float64(1)) == 3.0
    assert a.call(np.float64(2)) == 4.0
    # One trace per instance (its attributes are constants of its graph), counted on the
    # class's Function that every instance shares.
    assert a.call.tracing_count == b.call.tracing_count == Model.call.tracing_count == 2


def test_run_functions_eagerly():
    @autoconv.function
    def f(x):
        return type(x).__name__

    autoconv.run_functions_eagerly(True)
    try:
        assert autoconv.functions_run_eagerly()
        assert f(np.ones(2)) == "ndarray"
    finally:
        autoconv.run_functions_eagerly(False)
    assert not autoconv.functions_run_eagerly()
    assert f.tracing_count == 0


def test_python_function_and_nested_functions_inline():
    @autoconv.function
    def inner(x):
        return x * 2

    @autoconv.function
    def outer(x):
        return inner(x) + 1

    assert outer(np.float64(1)) == 3.0
    assert outer.python_function.__name__ == "outer"
    assert inner.tracing_count == 0  # inlined into outer's graph


def test_iterator_argument_is_consumed_while_tracing():
    @autoconv.function
    def f(it):
        total = 0
        for v in it:
            total += v
        return total

    it = iter([np.int64(1), np.int64(2)])
    assert f(it) == 3
    assert list(it) == []


def test_wrong_arguments_raise_type_error_like_python():
    @autoconv.function
    def f(x, y):
        return x + y

    with pytest.raises(TypeError, match="missing a required argument: 'y'"):
        f(np.ones(2))


def test_fast_path_recognizes_exactly_the_traced_signatures():
    @autoconv.function
    def f(x, n):
        return x * n

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RetracingWarning)
        a64, a32 = np.ones(3), np.ones(3, np.float32)
        assert f(a64, 2).dtype == np.float64
        assert f(a32, 2).dtype == np.float32  # another dtype: traced anew
        assert type(f(np.float64(1.5), 2)) is np.float64  # a NumPy scalar
        assert type(f(np.array(1.5), 2)) is np.float64  # a 0-d array: its own trace
        assert f(a64, 2.0).dtype == np.float64 and f(a64, True).dtype == np.float64
        assert f.tracing_count == 6
        for _ in range(3):  # recognized by the generated guards
            assert f(a64, 2).tolist() == [2.0] * 3
            assert f(a32, 2).dtype == np.float32
        assert f.tracing_count == 6
        assert f(np.ones((3, 1)), 2).shape == (3, 1)  # a new shape
        assert f(a64, 3).tolist() == [3.0] * 3  # a new Python value
        assert f(x=a64, n=2).tolist() == [2.0] * 3  # keywords take the general path
        assert f.tracing_count == 8
    assert "def dispatch(args):" in f._dispatch.source


def test_fast_path_reports_run_time_errors_like_the_general_path():
    @autoconv.function(reduce_retracing=True)
    def f(x, y):
        return x + y

    f(np.ones(2), np.ones(2))
    f(np.ones(3), np.ones(3))  # traced with unknown sizes
    with pytest.raises(ValueError, match=r"test_function.py:\d+: \+ failed while the graph ran"):
        f(np.ones(3), np.ones(4))


@pytest.mark.parametrize("enabled", [True, False])
def test_a_trace_pauses_the_garbage_collector_and_leaves_it_as_it_was(enabled):
    seen = []

    def f(x):
        seen.append(gc.isenabled())  # runs while tracing
        return x * 2

    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        np.testing.assert_array_equal(autoconv.function(f)(np.arange(3)), np.arange(3) * 2)
        assert seen == [False]  # the trace's many live objects are not scanned meanwhile
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_what_a_trace_made_goes_to_the_oldest_generation_and_a_freeze_is_kept():
    def f(x):
        return x * 2 + 1

    was = gc.isenabled()
    gc.enable()
    try:
        concrete = autoconv.function(f).get_concrete_function(np.arange(3.0))
        assert gc.get_freeze_count() == 0
        assert any(o is concrete.graph for o in gc.get_objects(generation=2))
        # A program that froze its objects (before a fork) keeps them frozen.
        gc.freeze()
        try:
            g = autoconv.function(f)
            np.testing.assert_array_equal(g(np.arange(4.0)), np.arange(4.0) * 2 + 1)
            assert gc.get_freeze_count() > 0  # (it counts those that still live)
        finally:
            gc.unfreeze()
    finally:
        (gc.enable if was else gc.disable)()
