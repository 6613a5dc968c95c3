"""Tracing: converted code run on symbolic values builds graphs.

`core` holds what both tracers share (the values of staged state, how two paths' values join,
the messages); `tensors` traces autoconv's own Tensors into `autoconv.graph` graphs (graph
mode); `jax` is the client for JAX tracers (`jax.jit(autoconv.convert(f))`), imported only when
a JAX value appears.
"""
