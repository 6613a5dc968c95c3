"""What the ninth fresh batch found (tools/fresh_batch9.py, tools/fresh_batch9_findings.md):
each wrong-result class's minimal program (the batch found no crash), run eagerly and as
`autoconv.function(f)` on NumPy and on JAX where it is installed. Each open class is a strict
xfail naming the class, checked to fail; a fix turns it into a plain test.
"""

import heapq
import math

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule, message


# W1 (was wrong): a method that raises under a staged condition and then writes an attribute's
# dict at a string key chosen by a staged index, called in a `try` whose handler catches the
# raise, wrote the dict anyway (dataclass_inventory_ops). Now, as with a constant key, the
# documented clear error: the try's check of changed objects sees the run-time dict's lists.
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


@pytest.mark.parametrize("backend", BACKENDS)
def test_handled_raise_then_write_at_chosen_key(backend):
    text = message(inv_remove, np.array([2, 3]), backend=backend)
    assert "goes on to change objects after it" in text
    assert "test_batch9_findings.py:" in text


# W2 (was wrong): union-find with path halving over a Python list of ints, then a sorted set
# of the roots: the graph's items were np.int64 where eager's are Python ints
# (union_find_rank); on JAX an undocumented LoweringError. The nested `find` now rebinds the
# enclosing `parent` it writes (declared nonlocal), which keeps the items' Python types.
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


@pytest.mark.parametrize("backend", BACKENDS)
def test_union_find_roots_stay_python_ints(backend):
    follows_the_rule(uf_roots, np.array([[0, 1], [2, 3]]), 4, backend=backend)
    follows_the_rule(uf_roots, np.array([[0, 1], [1, 2], [3, 0]]), 5, backend=backend)


# C1 (was an error on code the docs say runs): `math.gcd` / `math.lcm` of run-time ints
# (gcd_lcm_of_array) are Python's functions when the graph runs, giving a Python int.
def gcd_fold(a):
    g = 0
    for v in a:
        g = math.gcd(g, int(v))
    return g


def lcm_nonzero(a):
    m = 1
    for v in a:
        if v != 0:
            m = math.lcm(m, int(v))
    return m


@pytest.mark.parametrize("backend", BACKENDS)
def test_gcd_and_lcm_of_run_time_ints(backend):
    for a in (np.array([12, 18, 30]), np.array([-4, 6]), np.zeros(0, dtype=np.int64)):
        follows_the_rule(gcd_fold, a, backend=backend)
    follows_the_rule(lcm_nonzero, np.array([4, 6, 0, 10]), backend=backend)


# JW1 (was wrong, JAX only): np.linalg.inv or solve of a singular matrix gave infinities on the
# JAX backend, and cholesky of a matrix not positive definite NaNs, where eager NumPy raises
# LinAlgError (linalg_error_handling). The JAX backend now tests the arguments and raises
# NumPy's own error (backends/jax/linalg_checks.py). C9: inside a `try` that handles
# LinAlgError, a clear error on both backends (the graph cannot jump to the handler).
def plain_inv(A):
    return np.linalg.inv(A)


def safe_inv(A):
    try:
        return np.linalg.inv(A)
    except np.linalg.LinAlgError:
        return None


def plain_solve(A, b):
    return np.linalg.solve(A, b)


def plain_cholesky(A):
    return np.linalg.cholesky(A)


SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]])
REGULAR = np.array([[2.0, 1.0], [1.0, 3.0]])


@pytest.mark.parametrize("backend", BACKENDS)
def test_singular_matrices_raise_as_eagerly(backend):
    for A in (SINGULAR, REGULAR):
        follows_the_rule(plain_inv, A, backend=backend, text=True)
        follows_the_rule(plain_solve, A, np.ones(2), backend=backend, text=True)
    follows_the_rule(plain_cholesky, np.array([[1.0, 2.0], [2.0, 1.0]]), backend=backend)
    follows_the_rule(plain_cholesky, REGULAR, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_handled_linalg_error_is_a_clear_error(backend):
    text = message(safe_inv, SINGULAR, backend=backend)
    assert "`np.linalg.inv` may raise LinAlgError when the graph runs" in text
    assert "test_batch9_findings.py:" in text


# C8 (was an error naming heapq.py): heapq.nlargest / nsmallest of a Python list of values
# known only when the graph runs (`a.tolist()`) are the staged sort's first n items.
def top_two(a):
    return heapq.nlargest(2, a.tolist()), heapq.nsmallest(2, list(a))


def top_two_by_key(a):
    # (with `key=`: ties in the range's order, as sorted(..., key=key)[:n])
    return heapq.nlargest(2, range(len(a)), key=lambda i: a[i]), heapq.nsmallest(
        2, range(len(a)), key=lambda i: a[i]
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_nlargest_of_a_list_of_run_time_values(backend):
    for a in (np.array([5, 3, 8]), np.array([1]), np.array([2, 2, 1])):
        follows_the_rule(top_two, a, backend=backend)
        follows_the_rule(top_two_by_key, a, backend=backend)
