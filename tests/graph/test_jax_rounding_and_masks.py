"""Two JAX-backend classes batch 10 found (tools/fresh_batch10_findings.md):

- `np.round(x, d)`, `np.around`, `x.round(d)` and `round(v, d)` give NumPy's values: NumPy
  divides by the power of ten, where jax.numpy (and XLA's simplifier) multiplied by its
  inverse (`np.round(2.4, 1)` was 2.4000000000000004: a wrong result).
- A boolean mask over an array's leading axes stores one value or one row at each place it
  selects (`per36[mins == 0] = 0.0` of a 2-D array raised JAX's NonConcreteBooleanIndexError).
"""

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import follows_the_rule

pytest.importorskip("jax")

VALUES = np.random.default_rng(3).uniform(-2000, 2000, 400) / np.array([1, 3, 7, 10] * 100)
SPECIAL = np.array([2.4, 0.35, 2.675, -1.25, 1234.5678, 12 / 5, 72 / 30, 15.0, 25.0, 0.0, -0.0])


def rounded(x):
    return np.round(x, 1), x.round(2), np.around(x, -1), np.round(x, 3), round(x[0], 1)


def rows_zeroed(box):
    mins = box[:, 3].astype(float)
    per = box[:, :3] / np.where(mins > 0, mins, 1.0)[:, None] * 36
    per[mins == 0] = 0.0
    per[per[:, 0] > 11] = np.array([1.0, 2.0, 3.0])
    return per


@pytest.mark.parametrize("x", [VALUES, SPECIAL], ids=["random", "special"])
def test_rounding_is_numpys(x):
    follows_the_rule(rounded, x, backend="jax")


def test_a_mask_over_rows_stores_a_value_or_a_row():
    box = np.array([[10, 5, 2, 30], [4, 1, 0, 0], [8, 8, 8, 36]])
    for b in (box, box[:1], np.zeros((0, 4), dtype=np.int64)):
        follows_the_rule(rows_zeroed, b, backend="jax")


def test_a_count_of_values_for_a_mask_is_still_a_clear_error():
    def stores_selected(x):
        y = x.copy()
        y[x > 0] = x[x > 0] * 2  # as many values as the mask selects
        return y

    with pytest.raises(autoconv.AutoconvError) as info:
        autoconv.function(stores_selected, backend="jax")(np.array([1.0, -2.0, 3.0]))
    assert "test_jax_rounding_and_masks.py:" in str(info.value)


def test_rounding_under_jax_jit_is_numpys():
    import jax

    def f(x):
        return np.round(x * 1.0, 1), np.around(x, 2)

    old = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)  # (float64, as NumPy computes)
    try:
        got = jax.jit(autoconv.convert(f))(SPECIAL)
    finally:
        jax.config.update("jax_enable_x64", old)
    for want, value in zip(f(SPECIAL), got):
        assert np.asarray(value).tolist() == want.tolist()
