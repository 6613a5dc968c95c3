"""The staged-state core both tracers use: it imports neither `autoconv.graph` nor `jax`.

* `values`: `Undefined` (a variable with no value on some path) and what counts as missing;
* `join`: how the values of one variable on two paths (branches, or a loop's state before and
  after an iteration) join leaf by leaf: NumPy's weak-scalar rule, sizes, and a `Policy` for
  what differs by design between graph mode and JAX (static shapes, promotion);
* `messages`: the errors both give, worded once.
"""
