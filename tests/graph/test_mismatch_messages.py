"""A staged `if` or loop whose variable changes dtype *and* number of dimensions says both, so
that following its advice leads to a graph, not to a second error."""

import numpy as np
import pytest

import autoconv


def mixed_both(x):
    if np.sum(x) > 0:
        y = np.float32(1)
    else:
        y = x * 2
    return y


def mixed_dtype(x):
    if np.sum(x) > 0:
        y = np.ones(3, np.float32)
    else:
        y = x * 2
    return y


def mixed_rank(x):
    if np.sum(x) > 0:
        y = np.float64(1)
    else:
        y = x * 2
    return y


def fixed(x):  # what the first message says to write
    if np.sum(x) > 0:
        y = np.broadcast_to(np.float32(1).astype(np.float64), x.shape)
    else:
        y = x * 2
    return y


def loop_both(x, n):
    y = np.float32(0)
    for _ in range(n):
        y = y + x
    return y


@pytest.mark.parametrize(
    "fn, says, not_says",
    [
        (mixed_both, "must agree in dtype and number of dimensions. Cast one", None),
        (mixed_dtype, "must agree in dtype. Cast one of them (e.g. .astype(...)) so", "reshape"),
        (mixed_rank, "must agree in number of dimensions. Reshape or broadcast", "astype"),
    ],
)
def test_a_branch_mismatch_names_everything_that_differs(fn, says, not_says):
    with pytest.raises(autoconv.AutoconvError) as info:
        autoconv.function(fn)(np.ones(3))
    message = str(info.value)
    assert says in message and "test_mismatch_messages.py:" in message
    assert not_says is None or not_says not in message


def test_following_the_advice_traces_and_matches_eager():
    for x in (np.ones(3), -np.ones(3)):
        got, want = autoconv.function(fixed)(x), fixed(x)
        assert got.dtype == want.dtype and np.array_equal(got, want)


def test_a_loop_variable_changing_dtype_and_rank_says_both():
    with pytest.raises(autoconv.AutoconvError, match="its dtype and number of dimensions must"):
        autoconv.function(loop_both)(np.ones(3), np.int64(2))
