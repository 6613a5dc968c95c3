"""What the ninth fresh batch found (tools/fresh_batch9.py, tools/fresh_batch9_findings.md):
each wrong-result class's minimal program (the batch found no crash), run eagerly and as
`autoconv.function(f)` on NumPy and on JAX where it is installed. Each open class is a strict
xfail naming the class, checked to fail; a fix turns it into a plain test.
"""

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
