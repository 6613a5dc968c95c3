"""Backends that run traced graphs: the NumPy executor (`autoconv.graph.executor`) and, with
the `jax` extra, `backends.jax`, which lowers graphs to JAX and compiles them with XLA."""
