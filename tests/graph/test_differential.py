"""Graph-mode differential suite: each function runs eagerly with NumPy and through
autoconv.function; values (bit for bit), types, dtypes and shapes must agree, and so must the
statically inferred output spec (also when traced with unknown dimensions). Every test runs
once per pass setting (`conftest.SETTINGS`): all passes, none, each alone, each left out."""

import numpy as np
import pytest

import autoconv
from autoconv.graph.tensor import Tensor

pytestmark = [
    pytest.mark.usefixtures("pass_settings"),
    # Infinities and NaNs warn eagerly and in graphs alike.
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
]

rng = np.random.default_rng(0)
F32 = rng.normal(size=(3, 4)).astype(np.float32)
F64 = rng.normal(size=(4, 2))
I32 = rng.integers(-5, 5, size=(3, 4)).astype(np.int32)
I8 = rng.integers(-5, 5, size=(4,)).astype(np.int8)
U8 = rng.integers(0, 5, size=(4,)).astype(np.uint8)
B = F32 > 0
V3 = np.arange(3.0)
S32 = np.float32(2.5)

CASES = [
    # operators, with NEP 50 weak Python scalars
    ("add_int", lambda x: x + 1, (I32,)),
    ("mul_float_scalar", lambda x: x * 2.5, (I32,)),
    ("int8_plus_int", lambda x: x + 3, (I8,)),
    ("uint8_times_float", lambda x: x * 0.5, (U8,)),
    ("rsub", lambda x: 1 - x, (F32,)),
    ("truediv_int", lambda x: x / 2, (I32,)),
    ("floordiv_mod", lambda x: (x // 3, x % 3), (I32,)),
    ("pow", lambda x: x**2, (F32,)),
    ("neg_abs_invert", lambda x, b: (-x, abs(x), ~b), (I32, B)),
    ("compare", lambda x: (x < 0, x >= 1, x == 2, x != 3), (I32,)),
    ("mixed_dtypes", lambda x, y: x + y, (F32, I32)),
    ("broadcast", lambda x, y: x[:, :, None] * y, (F32, V3)),
    ("matmul", lambda x, y: x @ y, (F32, F64)),
    ("rmatmul_array", lambda y: F32 @ y, (F64,)),
    ("scalar_f32", lambda s: s * 2 + 1, (S32,)),
    ("bitwise", lambda x: (x & 3, x | 1, x ^ 2, x << 1, x >> 1), (I32,)),
    # ufuncs
    ("ufuncs", lambda x: (np.sqrt(np.abs(x)), np.exp(x), np.log1p(np.abs(x)), np.tanh(x)), (F32,)),
    ("maximum", lambda x: np.maximum(0.0, x), (F32,)),
    ("divmod", lambda x: np.divmod(x, 3), (I32,)),
    (
        "ufunc_reduce",
        lambda x: (np.add.reduce(x, axis=1), np.multiply.accumulate(x, axis=0)),
        (F32,),
    ),
    ("ufunc_outer", lambda x: np.add.outer(x, x), (V3,)),
    ("isnan_sign", lambda x: (np.isnan(x), np.sign(x)), (F32,)),
    # reductions
    ("sum_all", lambda x: np.sum(x), (I32,)),
    ("sum_axis_keepdims", lambda x: np.sum(x, axis=0, keepdims=True), (F32,)),
    ("mean_int", lambda x: np.mean(x, axis=1), (I32,)),
    ("prod_max_min", lambda x: (np.prod(x, axis=-1), np.max(x), np.min(x, axis=(0, 1))), (F32,)),
    ("any_all", lambda b: (np.any(b), np.all(b, axis=0)), (B,)),
    ("argmax_argmin", lambda x: (np.argmax(x), np.argmin(x, axis=1)), (F32,)),
    ("cumsum", lambda x: (np.cumsum(x), np.cumsum(x, axis=1)), (I32,)),
    ("std_var", lambda x: (np.std(x), np.var(x, axis=0)), (F32,)),
    ("methods", lambda x: (x.sum(axis=1), x.mean(), x.max(0), x.argmax(), x.cumsum(1)), (F32,)),
    # linear algebra
    ("dot", lambda x, y: (np.dot(x, y), np.dot(V3, V3)), (F32, F64)),
    ("tensordot", lambda x, y: np.tensordot(x, y, axes=([1], [0])), (F32, F64)),
    (
        "einsum",
        lambda x, y: (
            np.einsum("ij,jk->ik", x, y),
            np.einsum("ij->j", x),
            np.einsum("ij,ij", x, x),
        ),
        (F32, F64),
    ),
    # differences, stacking, norms
    ("diff", lambda x: (np.diff(x), np.diff(x, n=2, axis=0), np.diff(x, axis=0)), (F32,)),
    (
        "vstack_hstack",
        lambda x, v: (np.vstack([x, x]), np.hstack([v, v]), np.vstack([v, v])),
        (F32, V3),
    ),
    (
        "norm",
        lambda x, m: (np.linalg.norm(x), np.linalg.norm(m, axis=1), np.linalg.norm(m)),
        (V3, F64),
    ),
    # shapes
    ("reshape", lambda x: (np.reshape(x, (4, 3)), x.reshape(-1), x.reshape(2, -1)), (F32,)),
    (
        "transpose",
        lambda x: (np.transpose(x), x.T, x.transpose(1, 0), np.swapaxes(x, 0, 1)),
        (F32,),
    ),
    (
        "expand_squeeze",
        lambda x: (np.expand_dims(x, 0), np.squeeze(x[None]), np.expand_dims(x, (0, 3))),
        (F32,),
    ),
    (
        "concatenate_stack",
        lambda x, y: (
            np.concatenate([x, y]),
            np.stack([x, y], axis=1),
            np.concatenate([x, y], axis=None),
        ),
        (F32, F32),
    ),
    ("concat_mixed", lambda x, y: np.concatenate([x, y], axis=1), (F32, I32)),
    ("where", lambda x: (np.where(x > 0, x, 0), np.where(x > 0, x, 0.5)), (I32,)),
    ("clip", lambda x: (np.clip(x, -1, 1), np.clip(x, 0.0, None)), (I32,)),
    (
        "like",
        lambda x: (np.zeros_like(x), np.ones_like(x, dtype=np.int8), np.full_like(x, 7)),
        (F32,),
    ),
    ("take", lambda x: (np.take(x, [0, 2]), np.take(x, [1, 0], axis=1)), (F32,)),
    ("sort_argsort", lambda x: (np.sort(x), np.argsort(x, axis=0), np.sort(x, axis=None)), (F32,)),
    ("astype", lambda x: (x.astype(np.int16), x.astype("float64")), (F32,)),
    ("shape_size", lambda x: (np.shape(x), np.size(x), x.shape, x.ndim, len(x)), (F32,)),
    ("round_ravel", lambda x: (np.round(x, 1), np.ravel(x), x.flatten()), (F32,)),
    # indexing
    (
        "basic_index",
        lambda x: (x[0], x[1:], x[:, ::2], x[-1, 1:3], x[None, ..., 0], x[..., None]),
        (F32,),
    ),
    (
        "int_array_index",
        lambda x: (x[[0, 2]], x[:, [1, 3]], x[[0, 1], [1, 2]], x[np.array([[0], [1]]), [0, 1]]),
        (F32,),
    ),
    ("separated_advanced", lambda x: x[0, :, [1, 0]], (np.ones((2, 3, 4)),)),
    ("bool_mask", lambda x: (x[x > 0], x[x[:, 0] > 0]), (F32,)),
    ("tensor_index", lambda x, i: (x[i], x[:, i], x[i:]), (F32, np.int64(1))),
]

# Special float values: signed zeros, infinities, NaN.
NZ = np.array([-0.0, 0.0, 1.5, -2.0, np.inf, -np.inf, np.nan, 3.0], np.float32)
F32B = rng.normal(size=(3, 4)).astype(np.float32)
F16 = F32.astype(np.float16)
X3 = rng.normal(size=(2, 3, 4))
Z0 = np.array(2.5, np.float32)  # a 0-d array, not a NumPy scalar
W = rng.normal(size=(4, 4)).astype(np.float32)
BIAS = rng.normal(size=4).astype(np.float32)


def _chain(a, b, c, d):
    return a * b + c - d


def _log_of_zeros(x):
    with np.errstate(divide="ignore"):
        return np.log(np.zeros_like(x)) + x


def _const_branch(x):
    if np.sum(np.ones_like(x)) > 2:
        y = x * 2
    else:
        y = x - 1
    return y


def _dead_branch_result(x):
    if np.sum(x) > 0:
        y, z = x * 2, np.sqrt(np.abs(x))
    else:
        y, z = x - 1, np.exp(x)
    return y, np.shape(z)


def _negate_twice(x):
    y = -x
    return -y, -(x * 2)


def _dead_loop_variable(x, n):
    i = 0
    unused = x * 0
    total = x
    while i < n:
        unused = unused + np.exp(total)
        total = total + 1
        i += 1
    return total


def _loop_invariant_repeat(x, n):
    i = 0
    total = np.zeros_like(x)
    while i < n:
        total = total + np.sin(x) * np.sin(x)
        i += 1
    return total + np.sin(x)


def _views_and_inplace(x):
    y = x * 2
    z = y.T
    return z, y + 1


def _used_twice(x):
    y = x * 3
    return y + 1, y * 2


def _returned_and_reused(x):
    y = x * 2
    return y, y + 1


# Cases aimed at the optimizing passes (each holds with every pass setting).
PASS_CASES = [
    # constant folding
    ("fold_ones_like", lambda x: np.ones_like(x) * 3 + x, (F32,)),
    ("fold_chain", lambda x: np.cumsum(np.ones_like(x)) / np.size(x) + x.ravel(), (F32,)),
    ("fold_returned", lambda x: (np.zeros_like(x), np.full_like(x, 7) - x), (F32,)),
    ("fold_0d", lambda s: (np.zeros_like(s), np.ones_like(s) + s), (S32,)),
    ("fold_0d_array", lambda s: (np.zeros_like(s), np.ones_like(s) + s), (Z0,)),
    ("fold_warns_at_run_time", _log_of_zeros, (F32,)),
    ("fold_constant_branch", _const_branch, (F32,)),
    # common subexpressions
    ("cse_repeat", lambda x: np.sin(x) * np.cos(x) + np.sin(x) * np.cos(x), (F32,)),
    ("cse_distinct_outputs", lambda x: (x + 1, x + 1, x[0], x[0]), (F32,)),
    ("cse_scalar_types", lambda x: (x + 1, x + 1.0, x + True, x + np.int8(1)), (I32,)),
    ("cse_signed_zero", lambda x: (x + 0.0, x + (-0.0), x * 0.0, x * -0.0), (NZ,)),
    ("cse_loop_invariant", _loop_invariant_repeat, (F32, np.int64(3))),
    # algebraic simplification
    ("simplify_float", lambda x: (x * 1, 1 * x, x - 0, x / 1, x**1, _negate_twice(x)), (NZ,)),
    ("simplify_add_zero_float", lambda x: (x + 0, 0 + x, x + 0.0, x + (-0.0), x - 0.0), (NZ,)),
    ("simplify_int", lambda x: (x + 0, x * 1, x - 0, x**1, _negate_twice(x), 0 - x), (I32,)),
    ("simplify_dtype_changes", lambda b, x: (b * 1, x * 1.0, x / 1, x + np.int64(0)), (B, I8)),
    ("simplify_0d", lambda s: (s * 1, s + 0, s.astype(np.float32), s.reshape(())), (Z0,)),
    ("simplify_scalar", lambda s: (s * 1, s - 0, s.astype(np.float32)), (S32,)),
    (
        "simplify_transposes",
        lambda x: (
            x.T.T,
            np.transpose(np.transpose(x, (1, 2, 0)), (2, 0, 1)),
            np.transpose(np.transpose(x, (1, 2, 0)), (1, 2, 0)),
            x.transpose(2, 0, 1).T + 1,
        ),
        (X3,),
    ),
    (
        "simplify_reshape_astype",
        lambda x: (
            x.reshape(3, 4),
            np.reshape(x, (-1, 4)) + 1,
            x.astype(np.float32),
            x.astype(np.float32) * 2,
        ),
        (F32,),
    ),
    # in-place buffer reuse
    ("inplace_chain", _chain, (F32, F32B, F32, F32B)),
    (
        "inplace_reverse",
        lambda a, b: (2.0 - a * b, 2.0 ** (a * b), np.maximum(0.5, a * b)),
        (F32, F32B),
    ),
    (
        "inplace_powers",
        lambda x: ((x * 2) ** 2, (x * 2) ** 0.5, (x * 1) ** -1, (x * 3) ** 1),
        (NZ,),
    ),
    ("inplace_dense", lambda x: np.maximum(0.0, x @ W + BIAS), (F32,)),
    ("inplace_dtype_change", lambda x: ((x * 2) / 3, (x * 2) * 0.5, (x * 2) > 1), (I32,)),
    ("inplace_broadcast", lambda x, v: ((x * 2) + v, (v * 2) + x), (F32, BIAS)),
    ("inplace_views", _views_and_inplace, (F32,)),
    ("inplace_used_twice", _used_twice, (F32,)),
    ("inplace_returned", _returned_and_reused, (F32,)),
    ("inplace_unary", lambda x: (-(x * 2), abs(x * 3), ~(x * 2), np.negative(x * 5)), (I32,)),
    ("inplace_wrapping", lambda x, u: ((x * 2) + 100, (x * 2) << 1, (u * 2) - 1), (I8, U8)),
    ("inplace_ufunc_chain", lambda x: np.tanh(np.exp(np.sin(x * 2)) + 1), (F64,)),
    # lowered reductions
    (
        "lower_reductions",
        lambda x: (
            np.sum(x),
            x.sum(),
            np.sum(x, axis=0),
            x.sum(1, keepdims=True),
            np.prod(x, axis=1),
            np.max(x),
            x.min(axis=0),
            np.any(x > 0),
            x.all(),
            np.amax(x, 0),
            np.sum(x, dtype=np.float64),
            x.any(axis=1),
        ),
        (F32,),
    ),
    ("lower_int_reductions", lambda x: (np.sum(x), x.prod(), np.max(x), x.sum(axis=0)), (I8,)),
    ("lower_mean_f32", lambda x: (np.mean(x), x.mean(), np.mean(x * 3)), (F32,)),
    ("lower_mean_f64", lambda x: (np.mean(x), x.mean()), (F64,)),
    ("lower_mean_int", lambda x, u, b: (np.mean(x), u.mean(), np.mean(b)), (I32, U8, B)),
    ("lower_mean_f16", lambda x: (np.mean(x), x.mean()), (F16,)),
    ("lower_mean_special", lambda x: (np.mean(x), np.sum(x), np.max(x)), (NZ,)),
    # dead code
    ("dce_branch_result", _dead_branch_result, (F32,)),
    ("dce_loop_variable", _dead_loop_variable, (F32, np.int64(3))),
]
CASES = CASES + PASS_CASES


def _flat(value):
    if isinstance(value, (tuple, list)):
        return [v for item in value for v in _flat(item)]
    return [value]


def assert_identical(g, e):
    """Same type, dtype, shape and bits (signed zeros and NaNs included)."""
    assert type(g) is type(e) or isinstance(e, (int, np.integer)) and np.shape(e) == ()
    ga, ea = np.asarray(g), np.asarray(e)
    assert ga.dtype == ea.dtype
    assert ga.shape == ea.shape
    if ea.dtype.kind in "biufc":
        assert ga.tobytes() == ea.tobytes(), f"{g!r} != {e!r}"
    else:
        np.testing.assert_array_equal(g, e)


def _aliasing(values, inputs) -> list:
    """Which results are the same object as another result or an input, and which share memory
    with an input; and whether each result array is writable."""
    out = []
    for i, v in enumerate(values):
        same = [j for j, w in enumerate(values[:i]) if w is v]
        ins = [j for j, a in enumerate(inputs) if a is v]
        shares = [
            j
            for j, a in enumerate(inputs)
            if isinstance(v, np.ndarray) and isinstance(a, np.ndarray) and np.shares_memory(v, a)
        ]
        writable = v.flags.writeable if isinstance(v, np.ndarray) else None
        out.append((same, ins, shares, writable))
    return out


@pytest.mark.parametrize("name, fn, args", CASES, ids=[c[0] for c in CASES])
def test_graph_matches_eager(name, fn, args):
    eager = fn(*args)
    f = autoconv.function(fn)
    graph = f(*args)
    e_flat, g_flat = _flat(eager), _flat(graph)
    assert len(e_flat) == len(g_flat)
    for e, g in zip(e_flat, g_flat):
        assert_identical(g, e)
    # The caller sees the same sharing as eagerly: no result is an input or another result
    # unless it is so eagerly; results are writable where they are eagerly.
    assert _aliasing(g_flat, args) == _aliasing(e_flat, args)
    # Changing a result does not change the next call's results.
    for g in g_flat:
        if isinstance(g, np.ndarray) and g.flags.writeable and not any(g is a for a in args):
            g[...] = 0 if g.dtype.kind != "b" else False
    for e, g in zip(_flat(fn(*args)), _flat(f(*args))):
        assert_identical(g, e)
    # The static specs agree with what ran.
    outputs = _flat(f.get_concrete_function(*args).graph.outputs)
    for t, e in zip(outputs, e_flat):
        if isinstance(t, Tensor):
            assert t.dtype == np.asarray(e).dtype
            assert all(d is None or d == s for d, s in zip(t.shape, np.shape(e)))
            assert len(t.shape) == np.ndim(e)


UNKNOWN = [
    c
    for c in CASES
    if c[0] not in {"shape_size", "reshape", "bool_mask", "tensor_index", "expand_squeeze"}
]


@pytest.mark.parametrize("name, fn, args", UNKNOWN, ids=[c[0] for c in UNKNOWN])
def test_graph_with_unknown_dimensions(name, fn, args):
    specs = [autoconv.TensorSpec([None] * np.ndim(a), np.asarray(a).dtype) for a in args]
    cf = autoconv.function(fn).get_concrete_function(*specs)
    for t, e in zip(_flat(cf.graph.outputs), _flat(fn(*args))):
        if isinstance(t, Tensor):
            assert t.dtype == np.asarray(e).dtype
            assert len(t.shape) == np.ndim(e)
            assert all(d is None or d == s for d, s in zip(t.shape, np.shape(e)))
    for g, e in zip(_flat(cf(*args)), _flat(fn(*args))):
        assert_identical(g, e)
