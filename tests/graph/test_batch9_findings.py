"""What the ninth fresh batch found (tools/fresh_batch9.py, tools/fresh_batch9_findings.md):
each wrong-result class's minimal program (the batch found no crash), run eagerly and as
`autoconv.function(f)` on NumPy and on JAX where it is installed. Each open class is a strict
xfail naming the class, checked to fail; a fix turns it into a plain test.
"""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule, message


def xfail(why):
    return pytest.mark.xfail(strict=True, reason=why)


# W1 (wrong): a method that raises under a staged condition and then writes an attribute's
# dict at a string key chosen by a staged index, called in a `try` whose handler catches the
# raise, writes the dict anyway (dataclass_inventory_ops). With a constant key it is the
# documented clear error.
class Inv:
    def __init__(self):
        self.items = {}

    def remove(self, name, qty):
        have = self.items.get(name, 0)
        if qty > have:
            raise KeyError(name)
        self.items[name] = have - qty


def inv_remove(ops):
    inv = Inv()
    names = ["bolt", "nut"]
    for i, q in enumerate(ops):
        try:
            inv.remove(names[i % 2], int(q))
        except KeyError:
            pass
    return inv.items


@xfail("W1: a handled raise in a method, then a write at a chosen key, writes anyway")
@pytest.mark.parametrize("backend", BACKENDS)
def test_handled_raise_then_write_at_chosen_key(backend):
    follows_the_rule(inv_remove, np.array([2, 3]), backend=backend)


# W2 (wrong): union-find with path halving over a Python list of ints, then a sorted set of
# the roots: the graph's items are np.int64 where eager's are Python ints (union_find_rank).
def uf_roots(edges, n):
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in edges:
        ra, rb = find(int(a)), find(int(b))
        if ra != rb:
            parent[rb] = ra
    return sorted({find(i) for i in range(n)})


@xfail("W2: a sorted set of ints read from a list a staged loop wrote gives np.int64 items")
def test_union_find_roots_stay_python_ints():
    follows_the_rule(uf_roots, np.array([[0, 1], [2, 3]]), 4)


# On JAX the same program is the documented LoweringError of a list mixing Python numbers and
# NumPy values (docs/backends.md), the same mix that is W2's cause on NumPy.
@pytest.mark.skipif("jax" not in BACKENDS, reason="JAX is not installed")
def test_union_find_roots_on_jax_name_the_mixed_list():
    text = message(uf_roots, np.array([[0, 1], [2, 3]]), 4, backend="jax")
    assert "list `parent` holds items of several Python types" in text


# JW1 (wrong, JAX only): np.linalg.inv of a singular matrix gives infinities on the JAX
# backend where eager NumPy raises LinAlgError, and so a `try: ... except LinAlgError:` never
# takes its handler (linalg_error_handling). On NumPy the plain call raises LinAlgError as
# eagerly; the handled one is C9, a clear error (not tested here).
def plain_inv(A):
    return np.linalg.inv(A)


def safe_inv(A):
    try:
        return np.linalg.inv(A)
    except np.linalg.LinAlgError:
        return None


def test_singular_inverse_raises_as_eagerly_on_numpy():
    follows_the_rule(plain_inv, np.array([[1.0, 2.0], [2.0, 4.0]]))


@pytest.mark.skipif("jax" not in BACKENDS, reason="JAX is not installed")
@xfail("JW1: inv of a singular matrix on JAX is inf where eager raises LinAlgError")
def test_singular_inverse_raises_on_jax():
    follows_the_rule(plain_inv, np.array([[1.0, 2.0], [2.0, 4.0]]), backend="jax")


def plain_solve(A, b):
    return np.linalg.solve(A, b)


def plain_cholesky(A):
    return np.linalg.cholesky(A)


@pytest.mark.skipif("jax" not in BACKENDS, reason="JAX is not installed")
@xfail("JW1: solve of a singular matrix on JAX is inf where eager raises LinAlgError")
def test_singular_solve_raises_on_jax():
    follows_the_rule(plain_solve, np.array([[1.0, 2.0], [2.0, 4.0]]), np.ones(2), backend="jax")


@pytest.mark.skipif("jax" not in BACKENDS, reason="JAX is not installed")
@xfail("JW1: cholesky of a matrix not positive definite on JAX is NaN, eager LinAlgError")
def test_indefinite_cholesky_raises_on_jax():
    follows_the_rule(plain_cholesky, np.array([[1.0, 2.0], [2.0, 1.0]]), backend="jax")


@pytest.mark.skipif("jax" not in BACKENDS, reason="JAX is not installed")
@xfail("JW1: inv of a singular matrix on JAX is inf, so the LinAlgError handler never runs")
def test_singular_inverse_handler_on_jax():
    follows_the_rule(safe_inv, np.array([[1.0, 2.0], [2.0, 4.0]]), backend="jax")
