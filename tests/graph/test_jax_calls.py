"""The JAX backend's call path (issue 25, thin calls): what a call returns in both regimes,
NumPy arrays in and out, and JAX arrays kept on the device (`keep_on_device=True`), through the
program's fast call and through the dispatcher's guards, which also recognize JAX arrays.

Each case runs eagerly and with the JAX backend, with JAX's global 64-bit setting left off (as
a user has it): values, dtypes and Python types must be eager NumPy's, 64-bit values exactly.
"""

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import autoconv  # noqa: E402
from autoconv.backends.jax.program import x64  # noqa: E402

BIG = np.array([2**53 + 1, -(2**62) + 3, 7], dtype=np.int64)
THIRD = np.array([1 / 3, np.pi, 1e-300, 1 + 2.0**-52])  # (XLA flushes subnormals to zero)


def kinds(x):
    """An array, a NumPy scalar, a 0-d array and the three Python number kinds."""
    return x * 3, np.sum(x), np.asarray(x[0]), len(x), float(x.shape[0]) / 2, x.shape[0] > 2


def one_array(x):
    return x - 1


def one_int(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def one_scalar(x):
    return np.max(x)


def on_device(*args):
    """`args` with arrays placed on JAX's device as 64-bit JAX arrays."""
    with x64():
        return tuple(jax.device_put(a) if isinstance(a, np.ndarray) else a for a in args)


def same_numpy(got, want):
    assert type(got) is type(want), (got, want)
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            same_numpy(g, w)
    elif isinstance(want, (np.ndarray, np.generic)):
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got, want), (got, want)
        if isinstance(want, np.ndarray):
            assert got.flags.writeable  # as NumPy's own results
    else:
        assert got == want


def same_kept(got, want):
    """A kept result: arrays and NumPy scalars as JAX arrays of NumPy's dtype, shape and
    values; Python numbers as Python numbers of eager's type."""
    if isinstance(want, tuple):
        assert type(got) is tuple and len(got) == len(want)
        for g, w in zip(got, want):
            same_kept(g, w)
    elif isinstance(want, (np.ndarray, np.generic)):
        assert isinstance(got, jax.Array), got
        assert got.dtype == want.dtype and got.shape == np.shape(want)
        assert np.array_equal(np.asarray(got), want)
    else:
        assert type(got) is type(want) and got == want


@pytest.mark.parametrize("x", [BIG, THIRD, np.array([True, False, True])], ids=str)
@pytest.mark.parametrize("f", [kinds, one_array, one_scalar])
def test_numpy_in_numpy_out(f, x):
    if f is kinds and x.dtype == bool:
        x = x.astype(np.int64)
    want = f(x)
    fn = autoconv.function(f, backend="jax")
    for _ in range(2):  # the first call traces; the second goes through the guards
        same_numpy(fn(x), want)
    assert fn.tracing_count == 1


@pytest.mark.parametrize("x", [BIG, THIRD], ids=str)
@pytest.mark.parametrize("f", [kinds, one_array, one_scalar])
def test_kept_on_device(f, x):
    want = f(x)
    fn = autoconv.function(f, backend="jax", keep_on_device=True)
    for args in [(x,), on_device(x), on_device(x)]:
        same_kept(fn(*args), want)
    # JAX arrays are keyed as the ndarrays they stand for: one trace for both.
    assert fn.tracing_count == 1


def test_kept_python_int_from_a_staged_loop():
    fn = autoconv.function(one_int, backend="jax", keep_on_device=True)
    for n in [np.int64(27), *on_device(np.asarray(np.int64(27)))]:
        got = fn(n)
        assert type(got) is int and got == one_int(np.int64(27)) == 111


def test_jax_arrays_through_the_guards_match_dtype_and_shape():
    fn = autoconv.function(one_array, backend="jax", keep_on_device=True)
    (a64,) = on_device(THIRD)
    fn(a64)
    fn(a64)
    assert fn.tracing_count == 1
    # Another dtype or shape is another signature, whether the array is JAX's or NumPy's.
    a32 = jax.device_put(THIRD.astype(np.float32))
    same_kept(fn(a32), one_array(THIRD.astype(np.float32)))
    assert fn.tracing_count == 2
    (short,) = on_device(THIRD[:2])
    same_kept(fn(short), one_array(THIRD[:2]))
    assert fn.tracing_count == 3
    same_kept(fn(THIRD), one_array(THIRD))
    assert fn.tracing_count == 3


def test_numpy_results_from_jax_arguments():
    fn = autoconv.function(kinds, backend="jax")
    (big,) = on_device(BIG)
    for _ in range(2):
        same_numpy(fn(big), kinds(BIG))
    assert fn.tracing_count == 1


def test_a_concrete_function_called_with_jax_arrays():
    fn = autoconv.function(one_array, backend="jax", keep_on_device=True)
    concrete = fn.get_concrete_function(THIRD)
    (x,) = on_device(THIRD)
    same_kept(concrete(x), one_array(THIRD))
    same_kept(concrete(THIRD), one_array(THIRD))


def test_errors_of_a_kept_call_name_the_users_line():
    def bad(x, y):
        return x + y  # sizes known only when the program runs

    spec = autoconv.TensorSpec(shape=(None,), dtype=np.float64)
    fn = autoconv.function(bad, backend="jax", keep_on_device=True, input_signature=[spec, spec])
    same_kept(fn(*on_device(np.ones(3), np.ones(3))), bad(np.ones(3), np.ones(3)))
    with pytest.raises(ValueError) as eager:
        bad(np.ones(2), np.ones(3))
    with pytest.raises(ValueError) as staged:
        fn(*on_device(np.ones(2), np.ones(3)))
    assert str(eager.value) in str(staged.value)
    assert "test_jax_calls.py" in str(staged.value)


def test_an_input_signature_takes_jax_arrays_of_its_dtype_only():
    spec = autoconv.TensorSpec(shape=(None,), dtype=np.float64)
    fn = autoconv.function(one_array, backend="jax", input_signature=[spec])
    (x,) = on_device(THIRD)
    same_numpy(fn(x), one_array(THIRD))
    with pytest.raises(TypeError, match="parameter `x` expects float64 Tensor.*float32"):
        fn(jax.device_put(THIRD.astype(np.float32)))
    with pytest.raises(ValueError, match=r"parameter `x` expects .*got shape \(2, 2\)"):
        fn(*on_device(np.ones((2, 2))))


@pytest.fixture
def x64_on():
    """JAX's 64-bit types enabled globally, as users who compute in float64 often have them
    (the fast call then skips its own 64-bit scope), and turned off again after."""
    before = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", before)


@pytest.mark.parametrize("f", [kinds, one_array, one_scalar])
def test_calls_with_64_bit_types_enabled_globally(f, x64_on):
    want = f(BIG)
    fn = autoconv.function(f, backend="jax")
    kept = autoconv.function(f, backend="jax", keep_on_device=True)
    for _ in range(2):
        same_numpy(fn(BIG), want)
        same_kept(kept(BIG), want)
        same_kept(kept(*on_device(BIG)), want)
    # Turned off again around a call: the program still computes in 64 bits.
    with jax.enable_x64(False):
        same_numpy(fn(BIG), want)
        same_kept(kept(BIG), want)
    assert fn.tracing_count == kept.tracing_count == 1


def test_the_guards_read_jax_arrays_dtype_and_shape():
    from autoconv.functions.dispatch import MISS

    fn = autoconv.function(one_array, backend="jax", keep_on_device=True)
    for n in (2, 3):
        fn(THIRD[:n])
    for n in (2, 3, 2):
        (x,) = on_device(THIRD[:n])
        # The guards of the NumPy calls' signatures recognize the JAX arrays (no general path).
        same_kept(fn._dispatch((x,)), one_array(THIRD[:n]))
    for other in (THIRD[:4], np.ones((2, 2)), THIRD[:2].astype(np.float32)):
        (x,) = on_device(other)
        assert fn._dispatch((x,)) is MISS  # another size, rank or dtype: the general path
        same_kept(fn(x), one_array(other))
    assert fn.tracing_count == 5
