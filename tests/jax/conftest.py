"""JAX tests: skipped where `jax` (the `jax` extra) is not installed; CI installs it."""

import pytest

jax = pytest.importorskip("jax")


@pytest.fixture(autouse=True)
def x64():
    """64-bit types, as NumPy has them, for every JAX test (restored after it)."""
    old = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", old)
