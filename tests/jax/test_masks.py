"""Boolean-mask selections `x[mask]` with `backend="jax"` (backends/jax/masks.py): each reduction
of a selection gives eager NumPy's value, dtype, Python type, exception and warnings, and so
does `backend="numpy"`; any other use raises a LoweringError naming the line of `x[mask]`."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import autoconv
from autoconv.backends.jax import LoweringError
from autoconv.graph.errors import RetracingWarning

DTYPES = ["bool", "int8", "int32", "int64", "float32", "float64"]


_FUNCTIONS: dict = {}


def run(fn, *args, backend=None):
    """`(result, exception, warnings)` of one call: eagerly (`backend` None) or converted (one
    autoconv.function per backend, as a user makes it)."""
    call = fn
    if backend is not None:
        call = _FUNCTIONS.get((fn, backend))
        if call is None:
            call = _FUNCTIONS[fn, backend] = autoconv.function(fn, backend=backend)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result, exc = call(*args), None
        except Exception as e:  # noqa: BLE001 - compared with eager's below
            result, exc = None, e
    ours = (RetracingWarning,)  # dtypes and masks vary from call to call
    return result, exc, [(w.category, str(w.message)) for w in caught if w.category not in ours]


def close(a, b):
    """Same Python type, dtype and shape; values equal (floats up to XLA's summation order)."""
    assert type(a) is type(b), (a, b)
    if isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            close(x, y)
        return
    if isinstance(a, (np.ndarray, np.generic)):
        assert a.dtype == b.dtype and np.shape(a) == np.shape(b), (a, b)
        if a.dtype.kind == "f":
            rtol = {2: 1e-3, 4: 1e-5}.get(a.dtype.itemsize, 1e-12)
            np.testing.assert_allclose(a, b, rtol=rtol, atol=0)
        else:
            np.testing.assert_array_equal(a, b)
    else:
        assert a == b or (a != a and b != b), (a, b)


def agree(fn, *args):
    """Eager NumPy, backend="numpy" and backend="jax" agree on `fn(*args)`: results, exception
    types and messages, and the warnings NumPy gives. Returns eager's result."""
    eager, eager_exc, eager_warns = run(fn, *args)
    for backend in ("numpy", "jax"):
        result, exc, warns = run(fn, *args, backend=backend)
        if eager_exc is not None:
            assert isinstance(exc, type(eager_exc)), (backend, exc)
            assert str(eager_exc) in str(exc), (backend, exc)  # the NumPy backend adds the line
        else:
            assert exc is None, (backend, exc)
            close(eager, result)
        assert warns == eager_warns, backend
    return eager


# --- every reduction of a 1-D selection ----------------------------------------------------
def sum_method(x, m):
    return x[m].sum()


def sum_func(x, m):
    return np.sum(x[m])


def prod_func(x, m):
    return np.prod(x[m])


def mean_method(x, m):
    return x[m].mean()


def mean_func(x, m):
    return np.mean(x[m])


def min_method(x, m):
    return x[m].min()


def max_func(x, m):
    return np.max(x[m])


def amin_func(x, m):
    return np.amin(x[m])


def any_func(x, m):
    return np.any(x[m])


def all_method(x, m):
    return x[m].all()


def count_nonzero(x, m):
    return np.count_nonzero(x[m])


def counts(x, m):
    s = x[m]
    return len(s), s.shape[0], s.size, np.size(s)


REDUCTIONS = [
    sum_method,
    sum_func,
    prod_func,
    mean_method,
    mean_func,
    min_method,
    max_func,
    amin_func,
    any_func,
    all_method,
    count_nonzero,
    counts,
]
MASKS = {
    "some": np.array([True, False, True, False, True]),
    "empty": np.zeros(5, bool),
    "full": np.ones(5, bool),
}


@pytest.mark.parametrize("mask", list(MASKS))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fn", REDUCTIONS, ids=lambda f: f.__name__)
def test_each_reduction_agrees_with_eager(fn, dtype, mask):
    x = np.array([3, 0, -2, 5, 1]).astype(dtype)
    agree(fn, x, MASKS[mask])


def test_the_mask_can_be_computed_in_the_function():
    def f(x):
        return x[x > 0].sum(), np.mean(x[x > 0]), len(x[x > 1]), x[x < 0].max()

    assert agree(f, np.array([1.0, -2.0, 3.0])) == (4.0, 2.0, 1, -2.0)


def test_an_empty_min_or_max_raises_numpys_value_error():
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        autoconv.function(max_func, backend="jax")(np.arange(3.0), np.zeros(3, bool))
    agree(min_method, np.arange(3.0), np.zeros(3, bool))


def test_an_empty_mean_is_nan_with_numpys_warnings():
    with pytest.warns(RuntimeWarning) as caught:
        value = autoconv.function(mean_func, backend="jax")(np.arange(3.0), np.zeros(3, bool))
    assert np.isnan(value) and type(value) is np.float64
    messages = [str(w.message) for w in caught]
    assert messages == ["Mean of empty slice", "invalid value encountered in scalar divide"]
    # The method form warns at the user's line, as eager NumPy does.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        autoconv.function(mean_method, backend="jax")(np.arange(3.0), np.zeros(3, bool))
    assert caught[0].filename == __file__ and "Mean of empty slice" in str(caught[0].message)


# --- options and forms ------------------------------------------------------------------------
def dtypes_and_keepdims(x, m):
    s = x[m]
    return (
        s.sum(dtype=np.float32),
        np.mean(s, dtype=np.float32),
        np.sum(s, keepdims=True),
        s.max(axis=0),
        np.min(s, axis=-1, keepdims=True),
        np.any(s > 3),
        np.all(s > -3, axis=0),
    )


def elementwise_then_reduce(x, m):
    s = x[m]
    return (
        (s * 2 + 1).sum(),
        np.sum(s**2),
        np.abs(s).max(),
        np.sqrt(np.abs(s)).mean(),
        (s - s).any(),
    )


@pytest.mark.parametrize("mask", list(MASKS))
@pytest.mark.parametrize("fn", [dtypes_and_keepdims, elementwise_then_reduce])
def test_options_and_elementwise_operations(fn, mask):
    m = MASKS[mask]
    if mask != "empty":
        agree(fn, np.array([3.0, 0.0, -2.0, 5.0, 1.0]), m)
        agree(fn, np.array([3, 0, -2, 5, 1], dtype=np.int8), m)
    else:
        agree(fn, np.array([3.0, 0.0, -2.0, 5.0, 1.0]), m)  # max of nothing: the ValueError


# --- rows of a 2-D array ----------------------------------------------------------------------
def row_reductions(points, m):
    rows = points[m]
    return (
        rows.mean(axis=0),
        np.sum(rows, axis=0, keepdims=True),
        np.max(rows, axis=0),
        rows.min(0),
        np.mean(rows),
        rows.sum(),
        len(rows),
        rows.shape[0],
        rows.size,
        np.count_nonzero(rows, axis=0),
        np.any(rows > 2, axis=0),
    )


def row_means(points, m):
    rows = points[m]
    return rows.mean(axis=0), np.mean(rows), (rows - points[0]).sum(0)


@pytest.mark.parametrize("mask", list(MASKS))
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_rows_of_a_2d_array(dtype, mask):
    points = np.arange(10).reshape(5, 2).astype(dtype)
    agree(row_reductions, points, MASKS[mask])
    agree(row_means, points, MASKS[mask])


def test_a_2d_mask_over_a_3d_array():
    def f(x, m):
        s = x[m]  # (n, 2): one row of 2 per true element of the (3, 4) mask
        return s.sum(axis=0), s.mean(), len(s), s.max(axis=0)

    x = np.arange(24.0).reshape(3, 4, 2)
    m = (np.arange(12) % 5 == 0).reshape(3, 4)
    agree(f, x, m)


# --- inside staged loops and branches ---------------------------------------------------------
def kmeans(points, centroids, steps):
    for _ in range(steps):
        d = np.sum((points[:, None, :] - centroids[None, :, :]) ** 2, axis=-1)
        labels = np.argmin(d, axis=1)
        rows = []
        for j in range(centroids.shape[0]):
            mask = labels == j
            if np.any(mask):
                row = points[mask].mean(axis=0)
            else:
                row = centroids[j]
            rows.append(row)
        centroids = np.stack(rows)
    return centroids


def kmeans_where(points, centroids, iters):
    i = 0
    while i < iters:
        labels = np.argmin(np.sum((points[:, None] - centroids[None]) ** 2, axis=-1), axis=1)
        centroids = np.stack(
            [
                np.where(np.any(labels == j), points[labels == j].mean(0), centroids[j])
                for j in range(centroids.shape[0])
            ]
        )
        i += 1
    return centroids


def test_kmeans_in_staged_loops():
    rng = np.random.default_rng(0)
    points = np.concatenate([rng.normal(0, 1, (20, 2)), rng.normal(6, 1, (20, 2))])
    far = np.array([[0.0, 0.0], [5.0, 5.0], [100.0, 100.0]])  # the last cluster stays empty
    agree(kmeans, points, far, np.int64(4))
    agree(kmeans_where, points, far, np.int64(4))


def branch_on_count(x, t):
    sel = x[x > t]
    if len(sel) > 2:
        total = sel.sum()
    else:
        total = -np.max(x[x <= t])
    return total


def loop_over_selection(x):
    total = 0.0
    for v in x[x > 0]:
        total += v * 2
        if total > 10:
            autoconv.print("big", total)
    return total


# one trace per input shape, on purpose
@pytest.mark.filterwarnings("ignore::autoconv.RetracingWarning")
def test_branches_and_loops_over_a_selection(capsys):
    for t in (np.float64(0.0), np.float64(10.0), np.float64(-10.0)):
        agree(branch_on_count, np.array([1.0, -2.0, 3.0, 4.0]), t)
    for x in (np.array([1.0, -2.0, 3.0, 4.0]), np.array([-1.0]), np.arange(10.0)):
        capsys.readouterr()
        eager = loop_over_selection(x)
        eager_out = capsys.readouterr().out
        got = autoconv.function(loop_over_selection, backend="jax")(x)
        assert capsys.readouterr().out == eager_out
        close(eager, got)


def index_selection(x, i):
    s = x[x > 0]
    return s[i], s[-1] + s[0]


def test_an_index_into_a_selection_is_checked_against_its_count():
    x = np.array([1.0, -2.0, 3.0, 4.0])
    for i in (0, 2, -3, 3, -4):
        agree(index_selection, x, np.int64(i))
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        autoconv.function(index_selection, backend="jax")(x, np.int64(3))


# --- hypothesis: random arrays and masks ------------------------------------------------------
def many(x, m):
    s = x[m]
    return (
        s.sum(),
        np.mean(s),
        np.prod(s),
        np.any(s > 2),
        np.all(s < 5),
        len(s),
        np.count_nonzero(s),
        s.max() if len(s) else x.min(),
    )


@settings(max_examples=30, deadline=None)
@given(
    data=st.data(),
    dtype=st.sampled_from(["int8", "int64", "float32", "float64"]),
    n=st.integers(1, 8),
)
def test_random_arrays_and_masks_agree_with_eager(data, dtype, n):
    x = data.draw(hnp.arrays(dtype, n, elements=st.integers(-4, 6)))
    m = data.draw(hnp.arrays(bool, n))
    agree(many, x, m)


# --- what is not lowered ----------------------------------------------------------------------
def returned(x):
    return x[x > 0]


def stacked(x):
    s = x[x > 0]
    return np.stack([s, s])


def doubled_and_returned(x):
    return x[x > 0] * 2


def reduced_along_rows(x):
    return x[x[:, 0] > 0].sum(axis=1)


def tuple_key(x):
    return x[x[:, 0] > 0, 0].sum()


@pytest.mark.parametrize(
    "fn, x",
    [
        (returned, np.array([1.0, -1.0])),
        (stacked, np.array([1.0, -1.0])),
        (doubled_and_returned, np.array([1.0, -1.0])),
        (reduced_along_rows, np.ones((3, 2))),
        (tuple_key, np.ones((3, 2))),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_other_uses_name_the_line_and_what_to_write(fn, x):
    line = fn.__code__.co_firstlineno + 1  # the line of x[mask]
    with pytest.raises(LoweringError) as e:
        autoconv.function(fn, backend="jax")(x)
    text = str(e.value)
    assert f"test_masks.py:{line}:" in text
    assert "depends on the data" in text and "XLA cannot compile" in text
    assert "np.where(mask, x, 0)" in text and "backend='numpy'" in text
    assert isinstance(e.value, autoconv.AutoconvError)
    agree_numpy = autoconv.function(fn)(x)  # the NumPy backend runs it
    close(fn(x), agree_numpy)


def test_rows_of_no_elements():
    # Rows of size 0: eager NumPy's max along the rows raises only where no row is selected
    # (np.empty((0, 0)).max(axis=0) raises, np.empty((2, 0)).max(axis=0) is empty).
    def f(x, m):
        rows = x[m]
        return rows.max(axis=0), rows.mean(axis=0), rows.sum(), len(rows)

    for m in (np.array([True, False, True]), np.zeros(3, bool)):
        agree(f, np.ones((3, 0)), m)


def test_numpy_integer_axes_and_indices():
    def f(x):
        s = x[x > 0]
        return s.sum(axis=np.int64(0)), s[np.int64(1)]

    agree(f, np.array([1.0, -2.0, 3.0]))


def mean_in_a_loop_test(x):
    t = 0.0
    while np.mean(x[x > t]) < 10:  # nan when nothing is left: the loop ends
        t += 1
    return t


def means_in_a_loop(x, n):
    s = 0.0
    for i in range(n):
        m = np.mean(x[x > i])
        s += np.where(m == m, m, 0.0)
    return s


def raise_after_an_empty_mean(x):
    m = np.mean(x[x > 10])
    if m != m:
        raise ValueError("no values above 10")
    return m


@pytest.mark.parametrize(
    "fn, args",
    [
        (mean_in_a_loop_test, (np.array([1.0, 2.0, 3.0, 4.0]),)),
        (means_in_a_loop, (np.array([1.0, 2.0]), np.int64(4))),  # empty twice: warned twice
        (raise_after_an_empty_mean, (np.array([1.0, 2.0]),)),  # the warnings, then the error
        (raise_after_an_empty_mean, (np.array([11.0, 12.0]),)),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_warnings_of_empty_means_in_loops_and_before_a_raise(fn, args):
    agree(fn, *args)


def max_in_a_loop(x, n):
    s = 0.0
    for i in range(n):
        s += np.max(x[x > i])  # empty from i = 2 on: NumPy's ValueError
    return s


def max_in_a_loop_test(x):
    t = 0.0
    while np.max(x[x > t]) > 0:
        t += 1
    return t


def means_and_max(x):
    pos = x[x > 0]
    return np.mean(pos), np.mean(x[x > 5]), pos.max(), len(pos)


@pytest.mark.parametrize(
    "fn, args",
    [
        (max_in_a_loop, (np.array([1.0, 2.0]), np.int64(2))),
        (max_in_a_loop, (np.array([1.0, 2.0]), np.int64(5))),
        (max_in_a_loop_test, (np.array([1.0, 2.0]),)),
        (means_and_max, (np.array([1.0, 2.0]),)),
        (means_and_max, (np.array([-1.0, -2.0]),)),  # warnings, then the error
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_empty_min_and_max_in_loops(fn, args):
    agree(fn, *args)


def max_with_prints(x, m):
    autoconv.print("before")
    v = x[m].max()
    autoconv.print("after", v)
    return v


def test_an_empty_max_stops_the_prints_after_it(capsys):
    f = autoconv.function(max_with_prints, backend="jax")
    assert f(np.arange(3.0), np.array([True, False, True])) == 2.0
    assert capsys.readouterr().out == "before\nafter 2.0\n"
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        f(np.arange(3.0), np.zeros(3, bool))
    assert capsys.readouterr().out == "before\n"


def test_reductions_of_selections_make_no_host_call():
    # A host call costs about 0.8 ms per call on a CPU even where it never runs: empty means
    # and empty min/max are found on the device, and warned about or raised after the call.
    x = np.arange(20.0).reshape(10, 2)
    for f, args in [(kmeans_where, (x, x[:3].copy(), np.int64(2))), (means_and_max, (x[0],))]:
        code = autoconv.function(f, backend="jax").get_concrete_function(*args).code
        assert "where=" in code and "check(" not in code and "callback(" not in code


def grows_prints_and_means(x, tol):
    history = []
    loss = 1.0
    while loss > tol:  # no bound: a buffer that grows, and a second run where it overflows
        history.append(loss)
        loss = loss * 0.5
    autoconv.print("steps", len(history))
    return np.array(history), np.mean(x[x > 10])


def test_a_program_that_runs_again_warns_once(capsys):
    for tol in (np.float64(0.1), np.float64(1e-200)):
        eager = agree(grows_prints_and_means, np.array([1.0, 2.0]), tol)
        assert capsys.readouterr().out == f"steps {len(eager[0])}\n" * 3
