"""The JAX backend: lowers an optimized graph to a `jax.numpy` function compiled by `jax.jit`.

`lowering` writes the JAX code of a graph, `ops` maps each NumPy operation to its JAX form,
`program` compiles it and converts inputs and results so that they match the NumPy backend.
Importing this package needs `jax` (`pip install 'autoconv[jax]'`).
"""

from autoconv.backends.jax.errors import LoweringError, require_jax

__all__ = ["LoweringError", "require_jax"]
