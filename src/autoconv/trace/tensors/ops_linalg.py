"""Shape and dtype rules for `numpy.linalg` on Tensors, registered with `ops.rule(...,
module=np.linalg)` (`np.linalg.norm`'s rule is in `ops`).

Dtypes come from NumPy itself on stand-ins of ones (an identity, so `inv` of an int matrix does
not fail on a singular stand-in). Results NumPy gives as a namedtuple (`eigh`, `qr`, `svd`,
`slogdet`) are that namedtuple of Tensors, so `w, v = eigh(a)` and `eigh(a).eigenvalues` work.
"""

from __future__ import annotations

import warnings

import numpy as np

from autoconv.graph import shapes
from autoconv.graph.shapes import fail, shape_of
from autoconv.graph.tensor import Tensor
from autoconv.trace.tensors.ops import rule, spec_of
from autoconv.trace.tensors.recording import emit
from autoconv.trace.tensors.user_code import refuse_if_handled


def _standin(value):
    if isinstance(value, Tensor) and value.weak:
        return shapes._standin(value)  # a Python number (`matrix_power(a, n)`)
    if isinstance(value, (Tensor, np.ndarray)):
        return np.ones((1,) * value.ndim, value.dtype)
    return value


def _result(func, args, kwargs):
    """NumPy's own result on stand-ins of ones (dimensions 1): its dtypes and its type."""
    args = tuple(_standin(a) for a in args)
    kwargs = {k: _standin(v) for k, v in kwargs.items()}
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return func(*args, **kwargs)
        except (TypeError, ValueError, np.linalg.LinAlgError) as e:
            fail(f"numpy.linalg.{func.__name__}: {e}")


def _dtypes(p, args, kwargs) -> list:
    result = _result(p["__func__"], args, kwargs)
    results = result if isinstance(result, tuple) else (result,)
    return [np.asarray(r).dtype for r in results]


def _record(func, args, kwargs):
    """One call node; a namedtuple result (`EighResult`, ...) is rebuilt around its Tensors."""
    outs = emit("call", func.__name__, func, args, kwargs, spec_of(func, args, kwargs))
    kind = type(_result(func, args, kwargs))
    if issubclass(kind, tuple):
        return kind(*outs) if hasattr(kind, "_fields") else tuple(outs)
    return outs[0]


def _matrix(p, name="a", square=False):
    shape = tuple(shape_of(p[name]))
    func = p["__func__"].__name__
    if len(shape) < 2:
        fail(
            f"numpy.linalg.{func}: {len(shape)}-dimensional array given. Array must be at least "
            "two-dimensional"
        )
    if square and None not in shape[-2:] and shape[-2] != shape[-1]:
        fail(f"numpy.linalg.{func}: Last 2 dimensions of the array must be square")
    return shape


def _min(a, b):
    return None if a is None or b is None else min(a, b)


def linalg_rule(*names):
    return rule(*names, module=np.linalg, handler=_record)


@linalg_rule("inv", "cholesky", "matrix_power")
def _same(p, args, kwargs):
    if p["__func__"] is not np.linalg.matrix_power:
        _handled(p["__func__"])
    return [(_matrix(p, square=True), _dtypes(p, args, kwargs)[0])]


def _handled(func) -> None:
    """`inv`, `solve`, `cholesky` raise LinAlgError when the graph runs for a singular (or not
    positive definite) matrix: inside a `try` that handles it, a clear error now."""
    refuse_if_handled((np.linalg.LinAlgError,), f"`np.linalg.{func.__name__}`")


@linalg_rule("det", "slogdet")
def _det(p, args, kwargs):
    batch = _matrix(p, square=True)[:-2]
    return [(batch, d) for d in _dtypes(p, args, kwargs)]


@linalg_rule("eigh", "eigvalsh")
def _eigh(p, args, kwargs):
    shape = _matrix(p, square=True)
    dtypes = _dtypes(p, args, kwargs)
    if p["__func__"] is np.linalg.eigvalsh:
        return [(shape[:-1], dtypes[0])]
    return [(shape[:-1], dtypes[0]), (shape, dtypes[1])]


@linalg_rule("solve")
def _solve(p, args, kwargs):
    _handled(np.linalg.solve)
    a = _matrix(p, square=True)
    b = tuple(shape_of(p["b"]))
    dtype = _dtypes(p, args, kwargs)[0]
    if len(b) == 1:  # NumPy 2: a 1-D `b` is one vector
        shapes.unify(a[-1], b[0], "numpy.linalg.solve: a and b")
        return [(a[:-1], dtype)]
    if len(b) < 2:
        fail("numpy.linalg.solve: b must be at least 1-dimensional")
    shapes.unify(a[-1], b[-2], "numpy.linalg.solve: a and b")
    batch = shapes.broadcast(a[:-2], b[:-2], what="numpy.linalg.solve operands")
    return [(batch + b[-2:], dtype)]


@linalg_rule("qr")
def _qr(p, args, kwargs):
    shape = _matrix(p)
    batch, (m, n) = shape[:-2], shape[-2:]
    k = _min(m, n)
    mode = p.get("mode", "reduced")
    dtypes = _dtypes(p, args, kwargs)
    if mode == "reduced":
        return [(batch + (m, k), dtypes[0]), (batch + (k, n), dtypes[1])]
    if mode == "complete":
        return [(batch + (m, m), dtypes[0]), (batch + (m, n), dtypes[1])]
    if mode == "r":
        return [(batch + (k, n), dtypes[0])]
    fail(
        f"numpy.linalg.qr: mode={mode!r} is not supported in graph mode; use 'reduced', "
        "'complete' or 'r'"
    )


@linalg_rule("svd")
def _svd(p, args, kwargs):
    shape = _matrix(p)
    batch, (m, n) = shape[:-2], shape[-2:]
    k = _min(m, n)
    dtypes = _dtypes(p, args, kwargs)
    if not p.get("compute_uv", True):
        return [(batch + (k,), dtypes[0])]
    if p.get("full_matrices", True):
        return [(batch + (m, m), dtypes[0]), (batch + (k,), dtypes[1]), (batch + (n, n), dtypes[2])]
    return [(batch + (m, k), dtypes[0]), (batch + (k,), dtypes[1]), (batch + (k, n), dtypes[2])]


@linalg_rule("pinv")
def _pinv(p, args, kwargs):
    shape = _matrix(p)
    return [(shape[:-2] + (shape[-1], shape[-2]), _dtypes(p, args, kwargs)[0])]


@linalg_rule("matrix_rank")
def _matrix_rank(p, args, kwargs):
    shape = tuple(shape_of(p["A"]))
    return [(shape[:-2] if len(shape) >= 2 else (), _dtypes(p, args, kwargs)[0])]


@linalg_rule("lstsq")
def _lstsq(p, args, kwargs):
    a, b = _matrix(p), tuple(shape_of(p["b"]))
    if len(a) != 2 or len(b) not in (1, 2):
        fail("numpy.linalg.lstsq: a must be 2-D and b 1-D or 2-D")
    (m, n), k = a, b[1:]
    shapes.unify(m, b[0], "numpy.linalg.lstsq: Incompatible dimensions")
    dtypes = _dtypes(p, args, kwargs)
    # The residuals are empty unless m > n and the rank (known when it runs) is n.
    residuals = (0,) if m is not None and n is not None and m <= n else (None,)
    return [
        ((n, *k), dtypes[0]),
        (residuals, dtypes[1]),
        ((), dtypes[2]),
        ((_min(m, n),), dtypes[3]),
    ]
