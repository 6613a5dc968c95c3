"""Backends that run traced graphs: `backends.numpy` (the executor that generates Python calling
NumPy) and, with the `jax` extra, `backends.jax`, which lowers graphs to JAX and compiles them
with XLA. `program` and `check` here are the one place that picks a backend by name."""

BACKENDS = ("numpy", "jax")


def check(backend: str, device=None, keep_on_device: bool = False, who: str = "autoconv.function"):
    """Raises for an unknown backend, for JAX options without the JAX backend, and (with an
    ImportError saying how to install it) for the JAX backend without JAX."""
    if backend == "jax":
        from autoconv.backends.jax.errors import require_jax

        require_jax()
    elif backend != "numpy":
        raise ValueError(f"{who}: backend must be 'numpy' or 'jax', got {backend!r}")
    elif device is not None or keep_on_device:
        raise ValueError(f"{who}: device= and keep_on_device= need backend='jax'")


def program(graph, backend: str = "numpy", device=None, keep_on_device: bool = False):
    """The executable of an optimized graph on `backend` (`.fn(*inputs)`, `.source`,
    `.rewrite(exc)`)."""
    if backend == "jax":
        from autoconv.backends.jax.program import JaxProgram

        return JaxProgram(graph, device, keep_on_device)
    from autoconv.backends.numpy.executor import Program

    return Program(graph)
