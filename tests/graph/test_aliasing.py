"""In-place writes in graph mode follow what NumPy really shares: a single item read
(`tmp = a[i]`) is a copy, basic slices are views, fancy indexing copies; a fresh array written
in place is private however many staged statements made it; several fresh arrays in one frame
do not see one another; a statement over several lines names its target.

Each program runs eagerly and as `autoconv.function` on both backends: the same values, or,
where eager NumPy would show a change through another name, view or container, a
`StagingError` at the user's line saying so.
"""

import numpy as np
import pytest

import autoconv
from autoconv.errors import StagingError

try:
    import jax  # noqa: F401

    BACKENDS = ["numpy", "jax"]
except ImportError:  # the JAX backend is an optional extra
    BACKENDS = ["numpy"]


def bubble_pass(a):
    a = a.copy()
    for i in range(a.shape[0] - 1):
        if a[i] > a[i + 1]:
            tmp = a[i]
            a[i] = a[i + 1]
            a[i + 1] = tmp
    return a


def normalise_row(m):
    m = m.copy()
    piv = m[0, 0]
    m[0, :] = m[0, :] / piv
    m[1, 1] = piv
    return m


def two_fresh_arrays(x):
    a = np.zeros(2)
    b = np.zeros(2)
    a[0] = x[0]
    b[0] = x[1]
    b[1] = a[0] * 2
    return a, b


def floyd_warshall(d):
    d = d.copy()
    n = d.shape[0]
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if d[i, k] + d[k, j] < d[i, j]:
                    d[i, j] = d[i, k] + d[k, j]
    return d


def statement_over_lines(x):
    out = np.zeros(3)
    out[0] = x[0]
    out[1] = x[0] + 1.0
    return out


def old_item_kept(x):  # own
    y = x.copy()
    first = y[0]
    y[0] = y[0] * 10
    return first, y


def fancy_copy_kept(x):  # own
    y = x.copy()
    picked = y[[0, 1]]
    y[0] = -1.0
    return picked, y


def running_min_in_place(x):  # own
    out = x.copy()
    for i in range(1, out.shape[0]):
        if out[i] > out[i - 1]:
            out[i] = out[i - 1]
    return out


X = np.array([3.0, 1.0, 2.0, -0.5])
M = np.array([[2.0, 4.0], [1.0, 3.0]])
D4 = np.array([[0, 3, 9, 1], [3, 0, 1, 9], [9, 1, 0, 2], [1, 9, 2, 0]], dtype=float)
D5 = np.array(
    [[0, 7, 9, 1, 4], [7, 0, 1, 9, 9], [9, 1, 0, 2, 8], [1, 9, 2, 0, 3], [4, 9, 8, 3, 0]],
    dtype=float,
)

RUNS = [
    (bubble_pass, (X,)),
    (normalise_row, (M,)),
    (two_fresh_arrays, (X,)),
    (floyd_warshall, (D4,)),
    (floyd_warshall, (D5,)),
    (statement_over_lines, (X,)),
    (old_item_kept, (X,)),
    (fancy_copy_kept, (X,)),
    (running_min_in_place, (X,)),
]


def _same(expected, got):
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for e, g in zip(expected, got):
            _same(e, g)
        return
    assert type(got) is type(expected), (type(got), type(expected))
    assert np.asarray(got).dtype == np.asarray(expected).dtype
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "func, args", RUNS, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(RUNS)]
)
def test_writes_that_nothing_else_sees_run(func, args, backend):
    expected = func(*[a.copy() for a in args])
    got = autoconv.function(func, backend=backend)(*[a.copy() for a in args])
    _same(expected, got)


def another_name(x):
    a = np.zeros(2)
    b = a
    a[0] = x[0]
    return b


def held_in_a_list(x):
    a = np.zeros(2)
    keep = [a]
    a[0] = x[0]
    return keep[0]


def view_read_after(x):
    y = x * 2
    v = y[1:]
    y[1] = 0.0
    return v


def row_view_read_after(m):  # own
    m = m * 1.0
    row = m[0]
    m[0, 0] = -1.0
    return row


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "func, args, names",
    [
        (another_name, (X,), "`a[0] = x[0]`"),
        (held_in_a_list, (X,), "`a[0] = x[0]`"),
        (view_read_after, (X,), "`y[1] = 0.0`"),
        (row_view_read_after, (M,), "`m[0, 0] = -1.0`"),
    ],
)
def test_writes_another_name_or_view_would_see_are_clear_errors(func, args, names, backend):
    with pytest.raises(StagingError) as info:
        autoconv.function(func, backend=backend)(*args)
    message = str(info.value)
    assert message.startswith(f"{__file__}:"), message
    assert names in message, message


def test_a_statement_over_several_lines_is_quoted_whole():
    def shared(x):
        a = np.zeros(3)
        b = a
        a[0] = x[0]
        return b

    with pytest.raises(
        StagingError, match=r"`a\[0\] = x\[0\]` writes a Tensor into the NumPy array `a`"
    ):
        autoconv.function(shared)(X)
