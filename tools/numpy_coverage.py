"""A survey of the NumPy functions, ndarray methods and Generator methods users call most, each
called inside a function with a staged `if` around it (issue 24). Every entry runs eagerly and
as a graph (NumPy backend, JAX backend) on two inputs that take the two branches, and is judged:

    ok      the graph returns what eager NumPy returns (types, dtypes, shapes, values)
    clear   an AutoconvError that names the call (a stated limit)
    bad     an AutoconvError that does not name the call, or an exception of another type
            than eager's where eager raises
    wrong   a value, dtype, shape or type that differs from eager's
    crash   an internal exception (not an AutoconvError) where eager returns

    python tools/numpy_coverage.py            # the table of outcomes that are not ok, counts
    python tools/numpy_coverage.py --all      # every entry
    python tools/numpy_coverage.py NAME ...   # only these entries, with full messages

`ENTRIES` is what tests/graph/test_numpy_coverage.py runs for the entries marked ok.
"""

from __future__ import annotations

import copy
import sys
import warnings

import numpy as np

import autoconv
from autoconv import AutoconvError

V = np.array([0.5, -1.2, 3.0, 2.0, -0.7, 1.5])  # floats
VI = np.array([3, 1, 4, 1, 5, 9, 2, 6])  # ints (non-negative, repeats)
VS = np.array([-2.0, -1.0, 0.0, 0.5, 1.0, 4.0])  # sorted floats
M = np.array(
    [[4.0, 1.0, 0.5, 0.0], [1.0, 3.0, 0.2, 0.1], [0.5, 0.2, 2.0, 0.3], [0.0, 0.1, 0.3, 1.5]]
)
MI = np.array([[3, 0, 2, 7], [1, 5, 5, 0], [4, 2, 8, 6]])  # 3x4 ints
B = np.array([True, False, True, True, False, False])
INPUTS = {"v": V, "vi": VI, "vs": VS, "m": M, "mi": MI, "b": B}


def make(call):
    """The program each entry is: `call` on either branch of an `if` on a run-time flag."""

    def program(x, flag):
        if flag > 0:
            y = call(x)
        else:
            y = call(x[::-1])
        return y

    return program


# --- helpers for in-place methods and Generator methods (converted with the program) --------


def sort_inplace(x):
    a = x.copy()
    a.sort()
    return a


def sort_inplace_axis0(x):
    a = x.copy()
    a.sort(axis=0)
    return a


def fill_inplace(x):
    a = x.copy()
    a.fill(7)
    return a


def fill_diagonal_inplace(x):
    a = x.copy()
    np.fill_diagonal(a, 0.0)
    return a


def put_inplace(x):
    a = x.copy()
    np.put(a, [0, 2], [10, 20])
    return a


def place_inplace(x):
    a = x.copy()
    np.place(a, a > 1, 0)
    return a


def copyto_inplace(x):
    a = np.zeros_like(x)
    np.copyto(a, x)
    return a


def put_along_axis_inplace(x):
    a = x.copy()
    np.put_along_axis(a, np.argmax(a, axis=1, keepdims=True), 0, axis=1)
    return a


def resize_method(x):
    a = x.copy()
    a.resize(3, refcheck=False)
    return a


def shuffle_inplace(x):
    g = np.random.default_rng(5)
    a = x.copy()
    g.shuffle(a)
    return a


def shuffle_rows(x):
    g = np.random.default_rng(5)
    a = x.copy()
    g.shuffle(a, axis=0)
    return a


def choice_then_write(x):
    g = np.random.default_rng(4)
    s = g.choice([-1, 1], size=x.shape[0])
    s[0] = -s[0]
    return s * x


def rng(name, *args, **kwargs):
    """`default_rng(3).name(*args, **kwargs)` as a call (the draw made in the graph)."""
    return lambda x: getattr(np.random.default_rng(3), name)(*args, **kwargs)


def rng_x(name, **kwargs):
    return lambda x: getattr(np.random.default_rng(3), name)(x, **kwargs)


def E(name, kind, call):  # noqa: N802 (a table row)
    return (name, kind, call)


ENTRIES = [
    # array creation
    E("zeros", "v", lambda x: np.zeros(x.shape) + x),
    E("ones", "v", lambda x: np.ones(3) * x[0]),
    E("empty-shape", "v", lambda x: np.empty(x.shape).shape),
    E("full", "v", lambda x: np.full((2, 3), x[0])),
    E("zeros_like", "m", lambda x: np.zeros_like(x)),
    E("ones_like", "vi", lambda x: np.ones_like(x)),
    E("full_like", "v", lambda x: np.full_like(x, 2.5)),
    E("empty_like-shape", "v", lambda x: np.empty_like(x).shape),
    E("arange", "v", lambda x: np.arange(6) * x),
    E("arange-float", "v", lambda x: np.arange(0.0, 3.0, 0.5) + x),
    E("linspace", "v", lambda x: np.linspace(0, 1, 6) * x),
    E("logspace", "v", lambda x: np.logspace(0, 2, 6) + x),
    E("geomspace", "v", lambda x: np.geomspace(1, 8, 4) * x[0]),
    E("eye", "m", lambda x: np.eye(4) @ x),
    E("identity", "m", lambda x: np.identity(4) + x),
    E("array-of-tensors", "v", lambda x: np.array([x[0], x[1]])),
    E("asarray", "v", lambda x: np.asarray(x)),
    E("array-copy", "v", lambda x: np.array(x)),
    E("copy", "v", lambda x: np.copy(x)),
    E("ascontiguousarray", "m", lambda x: np.ascontiguousarray(x.T)),
    E("asarray-dtype", "vi", lambda x: np.asarray(x, dtype=float)),
    E("meshgrid", "v", lambda x: np.meshgrid(x, x[:3])),
    E("indices", "m", lambda x: np.indices((2, 3)).sum() + x),
    E("tri", "m", lambda x: np.tri(4) * x),
    E("tril", "m", lambda x: np.tril(x)),
    E("triu", "m", lambda x: np.triu(x, 1)),
    E("diag-vector", "v", lambda x: np.diag(x)),
    E("diag-matrix", "m", lambda x: np.diag(x)),
    E("diagflat", "v", lambda x: np.diagflat(x)),
    E("diagonal", "m", lambda x: np.diagonal(x)),
    E("vander", "v", lambda x: np.vander(x, 3)),
    # shape manipulation
    E("reshape", "v", lambda x: np.reshape(x, (2, 3))),
    E("ravel", "m", lambda x: np.ravel(x)),
    E("transpose", "m", lambda x: np.transpose(x)),
    E("swapaxes", "m", lambda x: np.swapaxes(x, 0, 1)),
    E("moveaxis", "m", lambda x: np.moveaxis(x[None], 0, 2)),
    E("expand_dims", "v", lambda x: np.expand_dims(x, 0)),
    E("squeeze", "v", lambda x: np.squeeze(x[None])),
    E("atleast_2d", "v", lambda x: np.atleast_2d(x)),
    E("concatenate", "v", lambda x: np.concatenate([x, x[:2]])),
    E("stack", "v", lambda x: np.stack([x, x], axis=1)),
    E("vstack", "v", lambda x: np.vstack([x, x])),
    E("hstack", "v", lambda x: np.hstack([x, x])),
    E("column_stack", "v", lambda x: np.column_stack([x, x])),
    E("dstack", "v", lambda x: np.dstack([x, x])),
    E("split", "v", lambda x: np.split(x, 3)),
    E("array_split", "v", lambda x: np.array_split(x, 4)),
    E("hsplit", "m", lambda x: np.hsplit(x, 2)),
    E("vsplit", "m", lambda x: np.vsplit(x, 2)),
    E("tile", "v", lambda x: np.tile(x, 2)),
    E("repeat", "v", lambda x: np.repeat(x, 2)),
    E("flip", "v", lambda x: np.flip(x)),
    E("fliplr", "m", lambda x: np.fliplr(x)),
    E("roll", "v", lambda x: np.roll(x, 2)),
    E("rot90", "m", lambda x: np.rot90(x)),
    E("broadcast_to", "v", lambda x: np.broadcast_to(x, (2, 6))),
    E("broadcast_arrays", "v", lambda x: np.broadcast_arrays(x, x[:1])),
    E("pad", "v", lambda x: np.pad(x, 1)),
    E("pad-edge", "m", lambda x: np.pad(x, ((1, 0), (0, 2)), mode="edge")),
    E("append", "v", lambda x: np.append(x, 1.0)),
    E("insert", "v", lambda x: np.insert(x, 2, 9.0)),
    E("insert-axis", "m", lambda x: np.insert(x, 1, 0.0, axis=0)),
    E("delete", "v", lambda x: np.delete(x, 1)),
    E("delete-axis", "m", lambda x: np.delete(np.delete(x, 0, axis=0), 2, axis=1)),
    E("delete-list", "v", lambda x: np.delete(x, [0, 3])),
    E("trim_zeros", "v", lambda x: np.trim_zeros(x)),
    E("resize", "v", lambda x: np.resize(x, 9)),
    # math (ufuncs and friends)
    E("abs", "v", lambda x: np.abs(x)),
    E("sqrt", "vi", lambda x: np.sqrt(x)),
    E("exp", "v", lambda x: np.exp(x)),
    E("log", "vi", lambda x: np.log(x + 1)),
    E("log1p", "v", lambda x: np.log1p(np.abs(x))),
    E("sin-cos", "v", lambda x: np.sin(x) + np.cos(x)),
    E("arctan2", "v", lambda x: np.arctan2(x, 2.0)),
    E("hypot", "v", lambda x: np.hypot(x, 1.0)),
    E("power", "vi", lambda x: np.power(x, 2)),
    E("floor-ceil", "v", lambda x: np.floor(x) + np.ceil(x)),
    E("round", "v", lambda x: np.round(x, 1)),
    E("rint", "v", lambda x: np.rint(x)),
    E("trunc", "v", lambda x: np.trunc(x)),
    E("sign", "v", lambda x: np.sign(x)),
    E("clip", "v", lambda x: np.clip(x, -1, 1)),
    E("maximum", "v", lambda x: np.maximum(x, 0)),
    E("minimum", "vi", lambda x: np.minimum(x, 3)),
    E("fmax", "v", lambda x: np.fmax(x, 0.0)),
    E("mod", "vi", lambda x: np.mod(x, 3)),
    E("floor_divide", "vi", lambda x: np.floor_divide(x, 2)),
    E("divmod", "vi", lambda x: np.divmod(x, 3)),
    E("square", "v", lambda x: np.square(x)),
    E("reciprocal", "v", lambda x: np.reciprocal(x)),
    E("isnan", "v", lambda x: np.isnan(x)),
    E("isfinite", "v", lambda x: np.isfinite(x / 0.5)),
    E("nan_to_num", "v", lambda x: np.nan_to_num(x / x[0])),
    E("logical_and", "b", lambda x: np.logical_and(x, x[::-1])),
    E("logical_not", "b", lambda x: np.logical_not(x)),
    E("bitwise_and", "vi", lambda x: np.bitwise_and(x, 3)),
    E("left_shift", "vi", lambda x: np.left_shift(x, 1)),
    E("isclose", "v", lambda x: np.isclose(x, 2.0)),
    E("allclose", "v", lambda x: np.allclose(x, x)),
    E("array_equal", "vi", lambda x: np.array_equal(x, x[::-1])),
    E("interp", "vs", lambda x: np.interp(0.25, np.sort(x), np.arange(6.0))),
    E("convolve", "v", lambda x: np.convolve(x, [1.0, 0.5])),
    E("gradient", "v", lambda x: np.gradient(x)),
    E("deg2rad", "v", lambda x: np.deg2rad(x)),
    E("exp2", "v", lambda x: np.exp2(x)),
    E("heaviside", "v", lambda x: np.heaviside(x, 0.5)),
    E("real", "v", lambda x: np.real(x)),
    E("conj", "v", lambda x: np.conj(x)),
    E("angle", "v", lambda x: np.angle(x)),
    E("add.reduce", "v", lambda x: np.add.reduce(x)),
    E("add.accumulate", "v", lambda x: np.add.accumulate(x)),
    E("multiply.outer", "v", lambda x: np.multiply.outer(x, x)),
    E("maximum.accumulate", "v", lambda x: np.maximum.accumulate(x)),
    E("add.at", "vi", lambda x: _add_at(x)),
    # reductions
    E("sum", "m", lambda x: np.sum(x)),
    E("sum-axis-keepdims", "m", lambda x: np.sum(x, axis=1, keepdims=True)),
    E("mean-axis", "m", lambda x: np.mean(x, axis=0)),
    E("prod", "vi", lambda x: np.prod(x)),
    E("max-axis", "mi", lambda x: np.max(x, axis=1)),
    E("min", "v", lambda x: np.min(x)),
    E("argmax", "v", lambda x: np.argmax(x)),
    E("argmin-axis", "mi", lambda x: np.argmin(x, axis=0)),
    E("any", "b", lambda x: np.any(x)),
    E("all-axis", "mi", lambda x: np.all(x > 0, axis=0)),
    E("std", "v", lambda x: np.std(x)),
    E("var-ddof", "v", lambda x: np.var(x, ddof=1)),
    E("ptp", "v", lambda x: np.ptp(x)),
    E("count_nonzero", "mi", lambda x: np.count_nonzero(x, axis=1)),
    E("nansum", "v", lambda x: np.nansum(x)),
    E("nanmean", "v", lambda x: np.nanmean(x)),
    E("average", "v", lambda x: np.average(x)),
    E("average-weights", "v", lambda x: np.average(x, weights=np.arange(1.0, 7.0))),
    E("median", "v", lambda x: np.median(x)),
    E("median-axis", "m", lambda x: np.median(x, axis=1)),
    E("percentile", "v", lambda x: np.percentile(x, 75)),
    E("percentile-list", "v", lambda x: np.percentile(x, [25, 50])),
    E("quantile", "v", lambda x: np.quantile(x, 0.3)),
    E("histogram", "v", lambda x: np.histogram(x, bins=4)),
    E("histogram-range", "v", lambda x: np.histogram(x, bins=3, range=(-2, 4))),
    E("corrcoef", "m", lambda x: np.corrcoef(x)),
    E("cov", "m", lambda x: np.cov(x)),
    E("trapezoid-or-trapz", "v", lambda x: _trapezoid(x)),
    # cumulative
    E("cumsum", "v", lambda x: np.cumsum(x)),
    E("cumsum-axis", "m", lambda x: np.cumsum(x, axis=1)),
    E("cumprod", "vi", lambda x: np.cumprod(x)),
    E("diff", "v", lambda x: np.diff(x)),
    E("diff-n2", "v", lambda x: np.diff(x, n=2)),
    E("ediff1d", "v", lambda x: np.ediff1d(x)),
    # sorting, searching
    E("sort", "v", lambda x: np.sort(x)),
    E("sort-axis0", "m", lambda x: np.sort(x, axis=0)),
    E("argsort", "v", lambda x: np.argsort(x)),
    E("argsort-stable", "vi", lambda x: np.argsort(x, kind="stable")),
    E("lexsort", "vi", lambda x: np.lexsort((x, x % 2))),
    E("partition", "v", lambda x: np.partition(x, 2)[2]),
    E("argpartition", "v", lambda x: np.sort(np.argpartition(x, 2)[:2])),
    E("searchsorted", "vs", lambda x: np.searchsorted(np.sort(x), 0.7)),
    E("searchsorted-right", "vs", lambda x: np.searchsorted(np.sort(x), x, side="right")),
    E("where-3", "v", lambda x: np.where(x > 0, x, 0.0)),
    E("where-1", "v", lambda x: np.where(x > 0)),
    E("nonzero", "vi", lambda x: np.nonzero(x > 3)),
    E("argwhere", "mi", lambda x: np.argwhere(x > 4)),
    E("flatnonzero", "vi", lambda x: np.flatnonzero(x > 2)),
    E("extract", "v", lambda x: np.extract(x > 0, x)),
    E("compress", "v", lambda x: np.compress(x > 0, x)),
    E("unique", "vi", lambda x: np.unique(x)),
    E("unique-counts", "vi", lambda x: np.unique(x, return_counts=True)),
    E("unique-inverse", "vi", lambda x: np.unique(x, return_inverse=True)),
    E("unique-index", "vi", lambda x: np.unique(x, return_index=True)),
    E("bincount", "vi", lambda x: np.bincount(x)),
    E("bincount-minlength", "vi", lambda x: np.bincount(x, minlength=12)),
    E("digitize", "v", lambda x: np.digitize(x, [-1.0, 0.0, 1.0])),
    E("select", "v", lambda x: np.select([x < 0, x > 2], [-x, x * 2], 0.0)),
    E("choose", "vi", lambda x: np.choose(x % 2, [x, -x])),
    E("piecewise", "v", lambda x: np.piecewise(x, [x < 0, x >= 0], [-1.0, 1.0])),
    E("count-of-max", "vi", lambda x: np.sum(x == np.max(x))),
    # set operations
    E("isin", "vi", lambda x: np.isin(x, [1, 5])),
    E("in1d", "vi", lambda x: np.isin(x, np.array([2, 9]))),
    E("intersect1d", "vi", lambda x: np.intersect1d(x, [1, 2, 3])),
    E("union1d", "vi", lambda x: np.union1d(x, [0, 10])),
    E("setdiff1d", "vi", lambda x: np.setdiff1d(x, [1, 9])),
    E("setxor1d", "vi", lambda x: np.setxor1d(x, [1, 7])),
    # indexing helpers
    E("take", "v", lambda x: np.take(x, [0, 2, 4])),
    E("take-axis", "m", lambda x: np.take(x, [1, 0], axis=1)),
    E("take_along_axis", "m", lambda x: np.take_along_axis(x, np.argsort(x, axis=1), axis=1)),
    E("put", "vi", put_inplace),
    E("place", "v", place_inplace),
    E("copyto", "v", copyto_inplace),
    E("put_along_axis", "m", put_along_axis_inplace),
    E("fill_diagonal", "m", fill_diagonal_inplace),
    E("diag_indices", "m", lambda x: x[np.diag_indices(4)]),
    E("tril_indices", "m", lambda x: x[np.tril_indices(4)]),
    E("triu_indices", "m", lambda x: x[np.triu_indices(4, 1)]),
    E("unravel_index", "m", lambda x: np.unravel_index(np.argmax(x), x.shape)),
    E("ravel_multi_index", "mi", lambda x: np.ravel_multi_index((x[0] % 3, x[1] % 4), (3, 4))),
    E("ix_", "m", lambda x: x[np.ix_([0, 2], [1, 3])]),
    E("trace", "m", lambda x: np.trace(x)),
    # linear algebra
    E("dot", "m", lambda x: np.dot(x, x)),
    E("matmul", "m", lambda x: np.matmul(x, x[:, 0])),
    E("vdot", "v", lambda x: np.vdot(x, x)),
    E("inner", "v", lambda x: np.inner(x, x)),
    E("outer", "v", lambda x: np.outer(x, x)),
    E("cross", "v", lambda x: np.cross(x[:3], x[3:])),
    E("einsum", "m", lambda x: np.einsum("ij,jk->ik", x, x)),
    E("kron", "v", lambda x: np.kron(x[:2], x[:3])),
    E("tensordot", "m", lambda x: np.tensordot(x, x, axes=1)),
    E("linalg.inv", "m", lambda x: np.linalg.inv(x)),
    E("linalg.det", "m", lambda x: np.linalg.det(x)),
    E("linalg.solve", "m", lambda x: np.linalg.solve(x, np.ones(4))),
    E("linalg.norm", "m", lambda x: np.linalg.norm(x)),
    E("linalg.norm-axis", "m", lambda x: np.linalg.norm(x, axis=1)),
    E("linalg.eigh", "m", lambda x: np.linalg.eigh(x)[0]),
    E("linalg.eigvalsh", "m", lambda x: np.linalg.eigvalsh(x)),
    E("linalg.eig", "m", lambda x: np.sort(np.linalg.eig(x)[0].real)),
    E("linalg.eigvals", "m", lambda x: np.sort(np.linalg.eigvals(x).real)),
    E("linalg.svd-s", "m", lambda x: np.linalg.svd(x, compute_uv=False)),
    E("linalg.qr-r", "m", lambda x: np.abs(np.linalg.qr(x)[1])),
    E("linalg.cholesky", "m", lambda x: np.linalg.cholesky(x)),
    E("linalg.lstsq", "m", lambda x: np.linalg.lstsq(x, np.ones(4), rcond=None)[0]),
    E("linalg.pinv", "m", lambda x: np.linalg.pinv(x)),
    E("linalg.matrix_rank", "m", lambda x: np.linalg.matrix_rank(x)),
    E("linalg.matrix_power", "m", lambda x: np.linalg.matrix_power(x, 3)),
    E("linalg.slogdet", "m", lambda x: np.linalg.slogdet(x)),
    E("linalg.cond", "m", lambda x: np.linalg.cond(x)),
    E("polyval", "v", lambda x: np.polyval([1.0, 2.0, 3.0], x)),
    E("polyfit", "v", lambda x: np.polyfit(np.arange(6.0), x, 1)),
    # ndarray methods
    E(".sum", "m", lambda x: x.sum(axis=0)),
    E(".mean", "m", lambda x: x.mean()),
    E(".max", "vi", lambda x: x.max()),
    E(".argmax", "m", lambda x: x.argmax(axis=1)),
    E(".cumsum", "v", lambda x: x.cumsum()),
    E(".reshape", "v", lambda x: x.reshape(3, 2)),
    E(".reshape-neg", "v", lambda x: x.reshape(-1, 2)),
    E(".T", "m", lambda x: x.T),
    E(".transpose", "m", lambda x: x.transpose()),
    E(".flatten", "m", lambda x: x.flatten()),
    E(".ravel", "m", lambda x: x.ravel()),
    E(".astype", "v", lambda x: x.astype(np.int32)),
    E(".copy", "v", lambda x: x.copy()),
    E(".tolist", "vi", lambda x: x.tolist()),
    E(".item", "v", lambda x: x[2:3].item()),
    E(".clip", "v", lambda x: x.clip(0, 2)),
    E(".round", "v", lambda x: x.round(1)),
    E(".dot", "m", lambda x: x.dot(x)),
    E(".argsort", "v", lambda x: x.argsort()),
    E(".nonzero", "vi", lambda x: x.nonzero()),
    E(".take", "v", lambda x: x.take([1, 2])),
    E(".repeat", "v", lambda x: x.repeat(2)),
    E(".squeeze", "v", lambda x: x[None].squeeze()),
    E(".swapaxes", "m", lambda x: x.swapaxes(0, 1)),
    E(".std", "v", lambda x: x.std()),
    E(".var", "v", lambda x: x.var()),
    E(".prod", "vi", lambda x: x.prod()),
    E(".min", "m", lambda x: x.min(axis=0)),
    E(".any", "b", lambda x: x.any()),
    E(".all", "b", lambda x: x.all()),
    E(".cumprod", "vi", lambda x: x.cumprod()),
    E(".diagonal", "m", lambda x: x.diagonal()),
    E(".trace", "m", lambda x: x.trace()),
    E(".ptp-or-max-min", "v", lambda x: x.max() - x.min()),
    E(".searchsorted", "vs", lambda x: np.sort(x).searchsorted(0.7)),
    E(".conj", "v", lambda x: x.conj()),
    E(".view-shape", "v", lambda x: x.view().shape),
    E(".ndim-size-shape", "m", lambda x: (x.ndim, x.size, x.shape)),
    E(".dtype", "v", lambda x: x.dtype),
    E(".sort()", "v", sort_inplace),
    E(".sort(axis=0)", "m", sort_inplace_axis0),
    E(".fill()", "v", fill_inplace),
    E(".resize()", "v", resize_method),
    # Generator methods
    E("rng.random", "v", rng("random", 3)),
    E("rng.random-scalar", "v", rng("random")),
    E("rng.normal", "v", rng("normal", size=4)),
    E("rng.normal-loc", "v", rng("normal", 1.0, 2.0, size=(2, 2))),
    E("rng.standard_normal", "v", rng("standard_normal", 3)),
    E("rng.uniform", "v", rng("uniform", -1, 1, size=5)),
    E("rng.integers", "v", rng("integers", 0, 10, size=4)),
    E("rng.integers-scalar", "v", rng("integers", 5)),
    E("rng.binomial", "v", rng("binomial", 10, 0.3, size=3)),
    E("rng.poisson", "v", rng("poisson", 2.0, size=3)),
    E("rng.exponential", "v", rng("exponential", 1.5, size=3)),
    E("rng.choice-int", "v", rng("choice", 5, size=3)),
    E("rng.choice-array", "v", rng_x("choice", size=3)),
    E("rng.choice-noreplace", "v", rng_x("choice", size=3, replace=False)),
    E("rng.choice-p", "v", rng("choice", 3, size=4, p=[0.2, 0.5, 0.3])),
    E("rng.permutation-int", "v", rng("permutation", 6)),
    E("rng.permutation-array", "v", rng_x("permutation")),
    E("rng.permuted", "m", rng_x("permuted", axis=1)),
    E("rng.shuffle", "v", shuffle_inplace),
    E("rng.shuffle-rows", "m", shuffle_rows),
    E("rng.choice-write", "v", choice_then_write),
    E("rng.gamma", "v", rng("gamma", 2.0, size=3)),
    E("rng.beta", "v", rng("beta", 2.0, 3.0, size=3)),
    E("rng.multinomial", "v", rng("multinomial", 10, [0.2, 0.8])),
    E("rng.multivariate_normal", "v", rng("multivariate_normal", [0.0, 0.0], np.eye(2))),
    E("rng.geometric", "v", rng("geometric", 0.3, size=3)),
    E("rng.standard_exponential", "v", rng("standard_exponential", 2)),
    E("rng.lognormal", "v", rng("lognormal", size=2)),
    E("rng.laplace", "v", rng("laplace", size=2)),
    E("rng.bytes-len", "v", lambda x: len(np.random.default_rng(3).bytes(4))),
]


def _add_at(x):
    a = np.zeros(10, dtype=x.dtype)
    np.add.at(a, x, 1)
    return a


def _trapezoid(x):
    f = getattr(np, "trapezoid", None) or np.trapz
    return f(x)


def _outcome(fn, args):
    try:
        return "value", fn(*copy.deepcopy(args))
    except Exception as e:  # noqa: BLE001 - an outcome
        return "raise", e


def same(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, (np.ndarray, np.generic)):
        if a.dtype != b.dtype or np.shape(a) != np.shape(b):
            return False
        if a.dtype.kind in "fc":
            return bool(np.allclose(a, b, equal_nan=True))
        return bool(np.array_equal(a, b))
    if isinstance(a, float):
        return (a != a and b != b) or abs(a - b) <= 1e-9 * max(1.0, abs(a))
    return a == b


def _named(name: str, message: str) -> bool:
    if "object has no attribute" in message:
        return False  # Python's own AttributeError, not a message about the call
    words = name.lstrip(".").replace("rng.", "").replace("linalg.", "").split("-")[0]
    return any(w and w in message for w in words.replace("()", "").split("."))


def judge(name, kind, call, backend) -> tuple[str, str]:
    """`(outcome, detail)` of one entry on one backend."""
    program = make(call)
    graph = autoconv.function(program, backend=backend)
    x = INPUTS[kind]
    for flag in (np.array(1), np.array(-1)):
        want_kind, want = _outcome(program, (x, flag))
        got_kind, got = _outcome(graph, (x, flag))
        if got_kind == "raise":
            text = f"{type(got).__name__}: {got}"
            if want_kind == "raise" and isinstance(got, type(want)):
                continue
            if isinstance(got, AutoconvError):
                return ("clear" if _named(name, str(got)) else "bad"), text
            return ("bad" if want_kind == "raise" else "crash"), text
        if want_kind == "raise":
            return "wrong", f"the graph returns {got!r} where eager raises {want!r}"
        if not same(want, got):
            return "wrong", f"eager {want!r} vs graph {got!r}"
    return "ok", ""


def survey(names=None, backends=("numpy", "jax")):
    """Judges the entries (`names`: only these) on each backend: `{(name, backend): (outcome,
    detail)}`."""
    results = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, kind, call in ENTRIES:
            if names and name not in names:
                continue
            for backend in backends:
                results[name, backend] = judge(name, kind, call, backend)
    return results


def main(argv) -> None:
    show_all = "--all" in argv
    names = [a for a in argv if not a.startswith("--")]
    try:
        import jax  # noqa: F401
    except ImportError:
        backends = ("numpy",)
    else:
        backends = ("numpy", "jax")
    results = survey(names or None, backends)
    counts = {b: {} for b in backends}
    for (name, backend), (outcome, detail) in results.items():
        counts[backend][outcome] = counts[backend].get(outcome, 0) + 1
        if show_all or names or outcome != "ok":
            text = detail if names else detail.split("\n")[0][:150]
            print(f"{name:26s} {backend:5s} {outcome:6s} {text}")
    total = len({n for n, _ in results})
    for backend in backends:
        order = ("ok", "clear", "bad", "wrong", "crash")
        print(
            f"{backend:5s} {total} entries: "
            + ", ".join(f"{k} {counts[backend].get(k, 0)}" for k in order)
        )


if __name__ == "__main__":
    main(sys.argv[1:])
