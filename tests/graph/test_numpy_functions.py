"""NumPy functions on Tensors (`ops_arrays`, `ops_linalg`): each case runs eagerly and through
`autoconv.function` on both backends. The NumPy backend must agree bit for bit; the JAX backend
in Python type, dtype and shape, and in value to rounding. The traced specs must agree with
what ran, also when traced with every dimension unknown."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autoconv
from autoconv.graph.tensor import Tensor

rng = np.random.default_rng(1)
A = rng.normal(size=(3, 3))
B = rng.normal(size=(3, 3))
F32 = rng.normal(size=(4, 3)).astype(np.float32)
V = rng.normal(size=5)
W = rng.normal(size=5)
SORTED = np.sort(V)
SPD = A @ A.T + 3 * np.eye(3)
TALL = rng.normal(size=(5, 3))
INTS = rng.integers(0, 6, size=7)
I32 = rng.integers(-4, 4, size=(3, 4)).astype(np.int32)
NANS = np.where(V > 0.5, np.nan, V)
V3 = rng.normal(size=(4, 3))

CASES = [
    # whole-array comparisons give Python bools
    ("allclose", lambda a, b: (np.allclose(a, b), np.allclose(a, a + 1e-12)), (A, B)),
    ("array_equal", lambda a, b: (np.array_equal(a, b), np.array_equal(a, a)), (A, B)),
    ("array_equal_shapes", lambda a, b: np.array_equal(a, b), (A, V)),
    ("isclose", lambda a, b: np.isclose(a, b, atol=0.5), (A, B)),
    ("isin", lambda a, b: (np.isin(a, b), np.isin(a, b, invert=True)), (INTS, INTS[:3])),
    (
        "norm_orders",
        lambda a, v: (
            np.linalg.norm(v, np.inf),
            np.linalg.norm(v, 1),
            np.linalg.norm(v, ord=0),
            np.linalg.norm(a, "fro"),
            np.linalg.norm(a, 1),
            np.linalg.norm(a, -np.inf),
            np.linalg.norm(a, np.inf, axis=1),
        ),
        (A, V),
    ),
    # searching, evaluating
    ("polyval", lambda p, x: np.polyval(p, x), (V[:3], W)),
    ("polyval_int", lambda p, x: np.polyval(p, x), (INTS[:3], I32)),
    ("unravel_index", lambda i: np.unravel_index(i, (2, 3)), (INTS[:4],)),
    (
        "searchsorted",
        lambda a, x: (np.searchsorted(a, x), np.searchsorted(a, x, "right")),
        (SORTED, W),
    ),
    ("interp", lambda x, xp, fp: np.interp(x, xp, fp), (W, SORTED, V)),
    # reordering
    ("flip", lambda a: (np.flip(a), np.flip(a, 0), np.fliplr(a), np.flipud(a)), (I32,)),
    ("roll", lambda a: (np.roll(a, 1), np.roll(a, -2, axis=1)), (I32,)),
    # building arrays
    ("tile", lambda a: (np.tile(a, 2), np.tile(a, (2, 1, 2))), (I32,)),
    ("diag", lambda a, v: (np.diag(a), np.diag(a, 1), np.diag(a, -2), np.diag(v, 1)), (I32, V)),
    ("trace", lambda a, b: (np.trace(a), np.trace(b, 1)), (I32, F32)),
    ("tril_triu", lambda a, v: (np.tril(a), np.triu(a, 1), np.tril(v)), (I32, V)),
    ("cross", lambda a, b: (np.cross(a, b), np.cross(a[0], b[1])), (V3, V3[::-1])),
    ("linspace", lambda a: np.linspace(a, a + 1, 5), (np.float64(1.5),)),
    ("linspace_retstep", lambda a, b: np.linspace(a, b, 4, retstep=True), (V[:2], W[:2])),
    ("linspace_f32", lambda a: np.linspace(0, a, 3, endpoint=False), (np.float32(2.0),)),
    ("logspace", lambda a, b: (np.logspace(a, b, 4), np.geomspace(1.0, b + 3, 3)), (V[:2], W[:2])),
    ("meshgrid", lambda a, b: np.meshgrid(a, b), (V, W[:3])),
    ("meshgrid_ij_sparse", lambda a, b: np.meshgrid(a, b, indexing="ij", sparse=True), (V, W[:3])),
    ("meshgrid_one", lambda a: np.meshgrid(a), (V,)),
    ("column_stack", lambda a, b, m: (np.column_stack((a, b)), np.column_stack((m, m))), (V, W, A)),
    (
        "atleast",
        lambda s, v: (np.atleast_1d(s), np.atleast_2d(v), np.atleast_1d(s, v)),
        (np.float64(2.0), V),
    ),
    ("atleast_3d", lambda v, m: (np.atleast_3d(v), np.atleast_3d(m)), (V, A)),
    ("pad", lambda a: (np.pad(a, 1), np.pad(a, ((0, 1), (2, 0)), constant_values=7)), (I32,)),
    ("pad_edge", lambda a: (np.pad(a, 2, mode="edge"), np.pad(a, (1, 2), mode="reflect")), (F32,)),
    ("histogram", lambda a: np.histogram(a, bins=4, range=(-2, 2)), (V,)),
    ("histogram_default", lambda a: np.histogram(a), (V,)),
    ("histogram_weights", lambda a, w: np.histogram(a, 3, weights=w, density=True), (V, W)),
    # reductions
    (
        "nan_reductions",
        lambda a: (np.nansum(a), np.nanmean(a), np.nanmax(a), np.nanstd(a)),
        (NANS,),
    ),
    (
        "nan_arg",
        lambda a: (np.nanargmax(a), np.nanargmin(a), np.nanvar(a), np.nanmedian(a)),
        (NANS,),
    ),
    (
        "quantiles",
        lambda a: (np.percentile(a, 50), np.quantile(a, [0.1, 0.9], axis=0), np.median(a, 1)),
        (TALL,),
    ),
    ("quantile_f32", lambda a: (np.quantile(a, 0.3, axis=0), np.median(a)), (F32,)),
    ("quantile_keepdims", lambda a: np.percentile(a, 30, axis=1, keepdims=True), (I32,)),
    ("nanquantile", lambda a: (np.nanpercentile(a, 40), np.nanquantile(a, 0.5)), (NANS,)),
    # differences, convolutions, products
    ("diff", lambda a: (np.diff(a), np.diff(a, 2, axis=0)), (I32,)),
    ("ediff1d", lambda a: (np.ediff1d(a), np.ediff1d(a, to_begin=[0.0], to_end=[9.0, 8.0])), (V,)),
    ("convolve", lambda a, b: (np.convolve(a, b), np.convolve(a, b, "same")), (V, W[:3])),
    ("correlate", lambda a, b: (np.correlate(a, b), np.correlate(a, b, "full")), (V, W[:3])),
    ("outer_kron", lambda a, b: (np.outer(a, b), np.kron(a, b), np.kron(a[0], b)), (I32, F32)),
    ("einsum", lambda a, b: np.einsum("ij,jk->ik", a, b), (A, B)),
    # numpy.linalg
    ("solve", lambda a, b, m: (np.linalg.solve(a, b), np.linalg.solve(a, m)), (SPD, V[:3], B)),
    ("inv_det", lambda a: (np.linalg.inv(a), np.linalg.det(a), np.linalg.slogdet(a)), (SPD,)),
    ("inv_int", lambda a: np.linalg.inv(a[:, :3] + 5 * np.eye(3, dtype=np.int32)), (I32,)),
    ("eigh", lambda a: (np.linalg.eigh(a), np.linalg.eigvalsh(a)), (SPD,)),
    ("cholesky", lambda a: np.linalg.cholesky(a), (SPD,)),
    ("qr", lambda a: (np.linalg.qr(a), np.linalg.qr(a, mode="r")), (TALL,)),
    ("qr_complete", lambda a: np.linalg.qr(a, mode="complete"), (TALL,)),
    ("svd", lambda a: (np.linalg.svd(a), np.linalg.svd(a, compute_uv=False)), (TALL,)),
    ("svd_reduced", lambda a: np.linalg.svd(a, full_matrices=False), (F32,)),
    ("lstsq_tall", lambda a, b: np.linalg.lstsq(a, b), (TALL, V)),
    ("lstsq_square", lambda a, b: np.linalg.lstsq(a, b), (SPD, B)),
    ("pinv", lambda a: np.linalg.pinv(a), (TALL,)),
    (
        "matrix_rank",
        lambda a, b: (np.linalg.matrix_rank(a), np.linalg.matrix_rank(b)),
        (TALL, B[:1] * 0),
    ),
    ("norm", lambda a: (np.linalg.norm(a), np.linalg.norm(a, axis=1)), (TALL,)),
    ("matrix_power", lambda a: np.linalg.matrix_power(a, 3), (SPD,)),
]


def _run(fn, args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # all-NaN slices warn eagerly and in graphs alike
        return fn(*args)


def same(g, e, exact):
    """Same Python type (namedtuples included), and for arrays and NumPy scalars the same dtype,
    shape and bits (`exact`) or values to rounding."""
    assert type(g) is type(e), (type(g), type(e))
    if isinstance(e, (tuple, list)):
        assert len(g) == len(e)
        for x, y in zip(g, e):
            same(x, y, exact)
        return
    ga, ea = np.asarray(g), np.asarray(e)
    assert (ga.dtype, ga.shape) == (ea.dtype, ea.shape)
    if exact:
        assert ga.tobytes() == ea.tobytes(), (g, e)
    else:
        # float64 to 1e-8: well below what a float32 computation would give.
        np.testing.assert_allclose(ga, ea, rtol=1e-5 if ea.dtype == np.float32 else 1e-8)


def _flat(value):
    if isinstance(value, (tuple, list)):
        return [v for item in value for v in _flat(item)]
    return [value]


def _specs_agree(outputs, eager):
    for t, e in zip(_flat(outputs), _flat(eager)):
        if isinstance(t, Tensor):
            assert t.dtype == np.asarray(e).dtype
            assert len(t.shape) == np.ndim(e)
            assert all(d is None or d == s for d, s in zip(t.shape, np.shape(e)))


@pytest.mark.parametrize("name, fn, args", CASES, ids=[c[0] for c in CASES])
def test_numpy_backend_matches_eager(name, fn, args):
    eager = _run(fn, args)
    f = autoconv.function(fn)
    same(_run(f, args), eager, exact=True)
    _specs_agree(f.get_concrete_function(*args).graph.outputs, eager)


# np.cross needs its vectors' length (2 or 3) while tracing.
UNKNOWN = [c for c in CASES if c[0] != "cross"]


@pytest.mark.parametrize("name, fn, args", UNKNOWN, ids=[c[0] for c in UNKNOWN])
def test_unknown_dimensions(name, fn, args):
    specs = [
        autoconv.TensorSpec([None] * np.ndim(a), np.asarray(a).dtype)
        if isinstance(a, np.ndarray)
        else a
        for a in args
    ]
    eager = _run(fn, args)
    cf = autoconv.function(fn).get_concrete_function(*specs)
    _specs_agree(cf.graph.outputs, eager)
    same(_run(cf, args), eager, exact=True)


@pytest.mark.parametrize("name, fn, args", CASES, ids=[c[0] for c in CASES])
def test_jax_backend_matches_eager(name, fn, args):
    pytest.importorskip("jax")
    same(_run(autoconv.function(fn, backend="jax"), args), _run(fn, args), exact=False)


# Sizes NumPy takes from the data (run-time sizes), a run-time exponent, np.partition: the
# NumPy backend runs them; the JAX backend refuses them.
RUN_TIME = [
    ("bincount", lambda x: np.bincount(x), (INTS,)),
    (
        "bincount_weights",
        lambda x, w: np.bincount(x, w[: len(x)], minlength=9),
        (INTS, np.arange(7.0)),
    ),
    ("linspace_tensor_num", lambda a, n: np.linspace(a, a + 1, n), (np.float64(0.5), np.int64(6))),
    ("histogram_auto", lambda a: np.histogram(a, bins="auto"), (V,)),
    ("arange_tensor", lambda n: np.arange(n), (np.int64(4),)),
    ("partition", lambda a: (np.partition(a, 2), np.argpartition(a, (1, 3))), (V,)),
    ("matrix_power_run_time", lambda a, n: np.linalg.matrix_power(a, n), (SPD, np.int64(2))),
    (
        "unique",
        lambda a: (
            np.unique(a),
            np.unique(a, return_counts=True),
            np.unique(a, return_index=True, return_inverse=True),
        ),
        (INTS,),
    ),
]


@pytest.mark.parametrize("name, fn, args", RUN_TIME, ids=[c[0] for c in RUN_TIME])
def test_run_time_sizes(name, fn, args):
    f = autoconv.function(fn)
    same(f(*args), fn(*args), exact=True)
    _specs_agree(f.get_concrete_function(*args).graph.outputs, fn(*args))


@pytest.mark.parametrize("name, fn, args", RUN_TIME, ids=[c[0] for c in RUN_TIME])
def test_jax_refuses_what_it_cannot_match(name, fn, args):
    """Data-dependent sizes and a computed exponent (XLA needs them in advance), and
    jnp.partition's order of the other elements, which is not NumPy's: a LoweringError naming
    the user's line."""
    pytest.importorskip("jax")
    from autoconv.backends.jax import LoweringError

    with pytest.raises(LoweringError, match="test_numpy_functions.py"):
        autoconv.function(fn, backend="jax")(*args)


@pytest.mark.parametrize(
    "fn, args, message",
    [
        (lambda a, b: np.cross(a, b, axis=0), (V3, V3), "only vectors along the last axis"),
        (lambda a: np.cross(a, a), (A[:, :1],), "dimension must be 2 or 3"),
        (lambda a: np.pad(a, 1, mode="linear_ramp"), (A,), "mode='linear_ramp' is not supported"),
        (lambda a, n: np.pad(a, ((n, 1), (0, 0))), (A, np.int64(1)), "pad_width as Python ints"),
        (lambda a: np.linalg.qr(a, mode="raw"), (A,), "mode='raw' is not supported"),
        (lambda a: np.linalg.inv(a), (TALL,), "must be square"),
        (lambda a: np.linalg.det(a), (V,), "Array must be at least two-dimensional"),
        (lambda a: np.fliplr(a), (V,), "input must be >= 2-d"),
        (lambda a: np.partition(a, 7), (V,), r"kth\(=7\) out of bounds"),
        (lambda a: np.diag(a), (np.ones((2, 2, 2)),), "Input must be 1- or 2-d"),
        (lambda a, b: np.convolve(a, b), (A, V), "1-D arrays only"),
        (lambda a: np.linalg.eig(a), (A,), "numpy.linalg.eig is not supported"),
    ],
)
def test_errors_name_the_call(fn, args, message):
    with pytest.raises(autoconv.AutoconvError, match=message) as info:
        autoconv.function(fn)(*args)
    assert "test_numpy_functions.py" in str(info.value)


# Shape rules against NumPy on drawn shapes and arguments, traced with the shapes known and with
# every dimension unknown (the rule then must not claim a size it cannot know).
SHAPED = {
    "tile": lambda a, r: np.tile(a, r),
    "pad": lambda a, r: np.pad(
        a, [(x % 2, x % 3) for x in r[: a.ndim]] + [(1, 0)] * (a.ndim - len(r))
    ),
    "kron": lambda a, r: np.kron(a, np.ones(r)),
    "diag": lambda a, r: np.diag(a.reshape(-1)[: r[0] + 1], r[0] - 1),
    "diag2": lambda a, r: np.diag(a.reshape(a.shape[0] if a.ndim else 1, -1), r[0] - 2),
    "convolve": lambda a, r: np.convolve(
        a.ravel(), np.ones(r[0] + 1), ("full", "same", "valid")[r[-1] % 3]
    ),
    "atleast": lambda a, r: (np.atleast_1d(a), np.atleast_2d(a), np.atleast_3d(a)),
    "meshgrid": lambda a, r: np.meshgrid(
        a.ravel(), np.ones(r[0] + 1), indexing="xy" if r[-1] % 2 else "ij"
    ),
    "quantile": lambda a, r: np.quantile(
        a, [0.2, 0.7], axis=None if a.ndim == 0 else r[0] % a.ndim
    ),
    "roll_flip": lambda a, r: (np.roll(a, r[0]), np.flip(a)),
}


@given(
    name=st.sampled_from(sorted(SHAPED)),
    shape=st.lists(st.integers(1, 4), max_size=3).map(tuple),
    reps=st.lists(st.integers(0, 3), min_size=1, max_size=3).map(tuple),
)
@settings(max_examples=60, deadline=None)
def test_drawn_shapes(name, shape, reps):
    fn = SHAPED[name]
    a = np.arange(float(np.prod(shape))).reshape(shape)
    try:
        eager = fn(a, reps)
    except (ValueError, TypeError):
        # NumPy rejects these arguments (a convolve of an empty vector, np.pad of a 0-d array
        # with an empty pad_width, which it reads as floats)
        return
    f = autoconv.function(fn)
    same(f(a, reps), eager, exact=True)
    _specs_agree(f.get_concrete_function(a, reps).graph.outputs, eager)
    unknown = autoconv.function(fn).get_concrete_function(
        autoconv.TensorSpec([None] * a.ndim, a.dtype), reps
    )
    _specs_agree(unknown.graph.outputs, eager)


def test_saved_and_loaded(tmp_path):
    """The new functions are in the saved-graph table (np.linalg's by their full name)."""

    def f(a, b):
        h, edges = np.histogram(b, bins=3, range=(-1, 1))
        x = np.linalg.solve(a, b[:3])
        return x, np.linalg.det(a), np.linalg.qr(a).R, h, edges, np.allclose(a, a.T), np.tile(b, 2)

    fn = autoconv.function(f)
    specs = (autoconv.TensorSpec((3, 3), np.float64), autoconv.TensorSpec((None,), np.float64))
    fn.save(str(tmp_path / "f.acg"), signatures=[specs])
    loaded = autoconv.load(str(tmp_path / "f.acg"))
    same(loaded(SPD, V), f(SPD, V), exact=True)
