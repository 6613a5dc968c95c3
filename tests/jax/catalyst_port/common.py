"""Helpers of the port of Catalyst's AutoGraph tests: `jax.jit(autoconv.convert(f))` where
Catalyst writes `qjit(autograph=True)`, compared with the same function run eagerly by Python on
NumPy copies of the arguments."""

import copy

import numpy as np
import pytest

import autoconv

jax = pytest.importorskip("jax")
jnp = jax.numpy


def jit(fn):
    """What Catalyst's `qjit(autograph=True)` is here."""
    return jax.jit(autoconv.convert(fn))


def eager(fn, *args):
    """`fn(*args)` run by Python, JAX arrays given as NumPy arrays (which can change in place,
    as the code assumes) and containers copied (the traced run must not see the change)."""
    return fn(*[np.array(a) if isinstance(a, jax.Array) else copy.deepcopy(a) for a in args])


def assert_same(got, want):
    """The same containers, and leaves with eager's values and kind of number."""
    got_leaves, got_tree = jax.tree_util.tree_flatten(got)
    want_leaves, want_tree = jax.tree_util.tree_flatten(want)
    assert got_tree == want_tree, (got, want)
    for g, w in zip(got_leaves, want_leaves):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape, (g, w)
        assert g.dtype.kind == w.dtype.kind, (g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


def same(fn, *args):
    """The converted, jitted `fn` gives what eager Python gives; returns the value."""
    got = jit(fn)(*args)
    assert_same(got, eager(fn, *args))
    return got
