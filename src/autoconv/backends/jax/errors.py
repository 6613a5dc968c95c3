"""Errors of the JAX backend (importable without jax)."""

from __future__ import annotations

from autoconv.graph.errors import StagingError, where

INSTALL = "pip install 'autoconv[jax]'"


class LoweringError(StagingError):
    """An operation of a traced graph has no JAX form (or JAX rejected it): raised when the
    graph is lowered or first compiled, naming the operation and the user's file:line. The
    JAX backend never falls back to NumPy silently: use `backend="numpy"` for such a function."""


def lowering_error(node, why: str) -> LoweringError:
    origin = node.origin if node is not None else None
    op = node.op if node is not None else "graph"
    return LoweringError(
        f"{where(origin)}: `{op}` cannot be lowered to JAX: {why}. Use autoconv.function(..., "
        "backend='numpy') for this function, or rewrite this line."
    )


def require_jax():
    """Imports jax, or raises an ImportError saying how to install it."""
    try:
        import jax
    except ImportError as e:
        raise ImportError(
            f"autoconv.function(backend='jax') needs JAX, which is not installed: {INSTALL}"
        ) from e
    return jax
