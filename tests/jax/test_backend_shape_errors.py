"""With `None` dimensions in the signature, an operation whose operands' sizes disagree in a
call raises, on the JAX backend, the error NumPy raises and the NumPy backend reports: the same
type, message and user line."""

import numpy as np
import pytest

import autoconv

pytest.importorskip("jax")

ANY = autoconv.TensorSpec([None], np.float64)
MATRIX = autoconv.TensorSpec([None, None], np.float64)


def adds(a, b):
    return a + b


def scaled_sum(a, b):
    c = a * 2.0
    return np.sum(c * b)


def matmul(m, v):
    return np.matmul(m, v)


CASES = [
    (adds, [ANY, ANY], (np.ones(2), np.ones(3)), (np.ones(3), np.ones(3))),
    (scaled_sum, [ANY, ANY], (np.ones(4), np.ones(3)), (np.ones(1), np.ones(3))),
    (matmul, [MATRIX, ANY], (np.ones((2, 3)), np.ones(2)), (np.ones((2, 3)), np.ones(3))),
]


def _error(f, signature, args):
    with pytest.raises(Exception) as info:
        autoconv.function(f, input_signature=signature, backend="jax")(*args)
    return info.value


@pytest.mark.parametrize(
    ("f", "signature", "bad", "good"), CASES, ids=lambda v: getattr(v, "__name__", "")
)
def test_the_jax_backend_raises_what_numpy_raises(f, signature, bad, good):
    with pytest.raises(Exception) as eager:
        f(*bad)
    numpy_backend = autoconv.function(f, input_signature=signature, backend="numpy")
    with pytest.raises(Exception) as numpy_info:
        numpy_backend(*bad)
    jax_backend = autoconv.function(f, input_signature=signature, backend="jax")
    for _ in range(2):  # every call, not only the one that compiles for these sizes
        with pytest.raises(type(eager.value)) as info:
            jax_backend(*bad)
        assert str(info.value) == str(numpy_info.value)
        assert str(eager.value) in str(info.value)
        assert type(info.value.__cause__) is type(eager.value)
    # Sizes that agree still run, with NumPy's values.
    np.testing.assert_allclose(jax_backend(*good), f(*good))
