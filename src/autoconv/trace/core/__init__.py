"""The staged-state core both tracers use: it imports neither `autoconv.graph` nor `jax`.

* `values`: `Undefined` (a variable with no value on some path) and what counts as unbound;
* `join`: how one variable's values on two paths (branches, or a loop's state before and after
  an iteration) merge leaf by leaf (`plan_leaf`, `join`): NumPy's weak-scalar rule, sizes, and
  a `Policy` for what differs by design between graph mode and JAX (static shapes, promotion,
  exactness);
* `fixed_point`: a staged loop traced until what it carries settles (`settle`);
* `closures`: what a staged body reaches through the converter's closure cells;
* `messages`: the errors both give, worded once.
"""
