"""What the ninth fresh batch found (tools/fresh_batch9.py, tools/fresh_batch9_findings.md):
each wrong-result class's minimal program (the batch found no crash), run eagerly and as
`autoconv.function(f)` on NumPy and on JAX where it is installed. Each open class is a strict
xfail naming the class, checked to fail; a fix turns it into a plain test.
"""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule


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


# On JAX the same program is a LoweringError ("list `parent` holds items of several Python
# types (NumPy value, int)"), which docs/backends.md does not list: the same mix of NumPy
# values and ints in the list is W2's cause on NumPy.
W2_CASES = [
    pytest.param(
        b,
        marks=xfail(
            "W2: a sorted set of ints read from a list a staged loop wrote gives np.int64 items"
            if b == "numpy"
            else "W2 on JAX: an undocumented LoweringError, list of NumPy values and ints"
        ),
    )
    for b in BACKENDS
]


@pytest.mark.parametrize("backend", W2_CASES)
def test_union_find_roots_stay_python_ints(backend):
    follows_the_rule(uf_roots, np.array([[0, 1], [2, 3]]), 4, backend=backend)
