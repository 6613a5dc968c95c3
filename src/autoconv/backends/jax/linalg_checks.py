"""Where `np.linalg` raises and XLA does not: NumPy's `inv` and `solve` of a singular matrix
raise LinAlgError ("Singular matrix"), and its `cholesky` of a matrix that is not positive
definite; XLA gives infinities or NaNs. The lowering tests the arguments with `FAILS` and, where
one holds, replays NumPy's function on the host, which raises eager's error (`lowering.py`).

LAPACK's LU (NumPy's `gesv`, JAX's `lu` on the CPU) finds a matrix singular where a pivot is
exactly zero: the same test here gives the same answer as NumPy's for the same matrix.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np


def _float(a):
    """`a` as NumPy's `linalg` computes it: an int matrix in float64."""
    a = jnp.asarray(a)
    return a if jnp.issubdtype(a.dtype, jnp.inexact) else a.astype(jnp.float64)


def _singular(a, *rest):
    lu = jax.lax.linalg.lu(_float(a))[0]
    return jnp.any(jnp.diagonal(lu, axis1=-2, axis2=-1) == 0)


def _not_positive_definite(a):
    a = _float(a)
    return jnp.all(jnp.isfinite(a)) & jnp.any(jnp.isnan(jnp.linalg.cholesky(a)))


FAILS = {
    np.linalg.inv: _singular,
    np.linalg.solve: _singular,
    np.linalg.cholesky: _not_positive_definite,
}


def fails(node):
    """The test of `node`'s arguments where it calls one of FAILS on a graph value, or None."""
    from autoconv.graph.tensor import Tensor

    if node.kind != "call" or not node.args or not isinstance(node.args[0], Tensor):
        return None
    try:
        return FAILS.get(node.fn)
    except TypeError:  # unhashable
        return None
