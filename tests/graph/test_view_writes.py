"""A write through a view of a local array (`row = out[i]; row[j] = v`) changes the array, as
eager NumPy's view does (converters/views.py): on both backends, converted in Python, and
under `jax.jit(autoconv.convert(f))` with jax.numpy."""

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule, same


def clip_rows(img, g):
    out = img.copy()
    h, w = out.shape
    saturated = 0
    for i in range(h):
        row = out[i]
        for j in range(w):
            v = row[j] ** (1 / g) * 1.1
            if v > 1.0:
                v = 1.0
                saturated += 1
            row[j] = v
    return out, saturated


def zero_negatives_of_first_row(a):
    b = a.copy()
    first = b[0]
    for j in range(b.shape[1]):
        if first[j] < 0:
            first[j] = 0.0
    return b


def columns_of_zeros(x):
    b = np.zeros((3, 3))
    for i in range(3):
        col = b[:, i]
        for k in range(x.shape[0]):
            if x[k] > i:
                col[k % 3] += x[k]
    return b, col


def rows_in_a_staged_loop(a, limit):
    b = a.copy()
    for i in range(len(a)):
        r = b[i]
        if r.sum() > limit:
            r[0] = r[0] * 2
            r[1:] -= 1
    return b


def rows_of_an_array_loop(a):
    b = np.zeros_like(a)
    for i, v in enumerate(a[:, 0]):
        r = b[i]
        r[0] = v
        if v > 0:
            r[1] = v * 10
    return b


def segment(x):
    y = x * 1.0
    seg = y[1:3]
    seg[0] = -seg[0]
    seg[1] += 5
    return y, seg


def fancy_key_is_a_copy(a):
    b = a.copy()
    sel = b[[0, 1]]
    for j in range(2):
        if sel[j, 0] > 0:
            sel[j, 0] = -1.0
    return b, sel


CASES = [
    (clip_rows, (np.array([[0.1, 0.5, 0.9], [0.3, 0.99, 0.2]]), 1.2)),
    (clip_rows, (np.full((2, 2), 0.9), 2.0)),
    (clip_rows, (np.zeros((0, 3)), 0.5)),
    (zero_negatives_of_first_row, (np.array([[1.0, -2.0], [-3.0, 4.0]]),)),
    (zero_negatives_of_first_row, (np.eye(3),)),
    (columns_of_zeros, (np.array([0.5, 1.5, 2.5, 3.0]),)),
    (columns_of_zeros, (np.array([-1.0]),)),
    (rows_in_a_staged_loop, (np.array([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]]), 2.0)),
    (rows_in_a_staged_loop, (np.arange(6.0).reshape(3, 2), 100.0)),
    (rows_of_an_array_loop, (np.array([[1.0, 0.0], [-2.0, 0.0], [3.0, 1.0]]),)),
    (rows_of_an_array_loop, (np.zeros((0, 2)),)),
    (segment, (np.arange(5.0),)),
    (fancy_key_is_a_copy, (np.array([[1.0, 2.0], [-1.0, 3.0]]),)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn, args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_a_write_through_a_view_changes_the_array(fn, args, backend):
    follows_the_rule(fn, *args, backend=backend)


@pytest.mark.parametrize("fn, args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_converted_code_writes_through_the_view_as_written(fn, args):
    assert same(fn(*args), autoconv.convert(fn)(*args))


def test_the_converted_code_shows_both_writes():
    code = autoconv.to_code(zero_negatives_of_first_row)
    assert "first_at = 0" in code
    assert "first, b = ac.setitem_view(first, j, 0.0, b, first_at, 'b')" in code


def rebound_base(a):
    b = a.copy()
    row = b[0]
    b = np.zeros_like(a)  # `row` views the first array; the write must not reach this one
    row[0] = 7.0
    return b, row


def two_views(a):
    b = a.copy()
    r = b[0]
    c = b[:, 0]  # overlaps `r`: a write through `r` changes `c[0]` eagerly
    r[0] = 9.0
    return b, c


@pytest.mark.parametrize("fn", [rebound_base, two_views])
def test_what_the_converter_cannot_follow_stays_eager_or_a_clear_error(fn):
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    want = fn(a.copy())
    assert same(want, autoconv.convert(fn)(a.copy()))
    try:
        got = autoconv.function(fn)(a.copy())
    except autoconv.AutoconvError as e:
        assert "in place" in str(e)
    else:
        assert same(want, got)


def test_under_jax_jit_the_view_write_reaches_the_array():
    jax = pytest.importorskip("jax")
    jnp = jax.numpy

    def first_row_doubled(a):
        b = a + 0.0
        row = b[0]
        row[1] = row[1] * 2
        return b

    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    got = jax.jit(autoconv.convert(first_row_doubled))(jnp.asarray(a))
    assert np.allclose(np.asarray(got), first_row_doubled(a.copy()))
