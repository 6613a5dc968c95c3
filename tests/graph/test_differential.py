"""Graph-mode differential suite: each function runs eagerly with NumPy and through
autoconv.function; values, dtypes and shapes must agree, and so must the statically inferred
output spec (also when traced with unknown dimensions)."""

import numpy as np
import pytest

import autoconv
from autoconv.graph.tensor import Tensor

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


def _flat(value):
    if isinstance(value, (tuple, list)):
        return [v for item in value for v in _flat(item)]
    return [value]


@pytest.mark.parametrize("name, fn, args", CASES, ids=[c[0] for c in CASES])
def test_graph_matches_eager(name, fn, args):
    eager = fn(*args)
    f = autoconv.function(fn)
    graph = f(*args)
    e_flat, g_flat = _flat(eager), _flat(graph)
    assert len(e_flat) == len(g_flat)
    for e, g in zip(e_flat, g_flat):
        assert type(g) is type(e) or isinstance(e, (int, np.integer)) and np.shape(e) == ()
        assert np.asarray(g).dtype == np.asarray(e).dtype
        assert np.shape(g) == np.shape(e)
        np.testing.assert_array_equal(g, e)
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
        np.testing.assert_array_equal(g, e)
        assert np.asarray(g).dtype == np.asarray(e).dtype
