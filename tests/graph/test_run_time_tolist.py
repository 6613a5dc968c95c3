"""`.tolist()` of a flat array whose length is known only when the graph runs (`a[a > 0]`): a
run-time list of its Python numbers, read as any list a staged loop appended to (batch 9's
C2, `sorted(a[a > 0].tolist())`, was an error). The JAX backend cannot lower the mask (its
documented LoweringError); the NumPy graph also saves and loads."""

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule, same

INPUTS = [np.array([3, -1, 2]), np.array([-1.0]), np.zeros(0), np.array([0.5, 2.5, 4.0])]


def sorted_positives(a):
    return sorted(a[a > 0].tolist())


def reads(a):
    v = a[a > 0].tolist()
    return v, len(v), sum(v), max(v, default=-1)


def looped(a):
    out = []
    for v in a[a > 1.5].tolist():
        out.append(v * 2)
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f", [sorted_positives, reads, looped], ids=lambda f: f.__name__)
def test_program(f, backend):
    for x in INPUTS:
        try:
            follows_the_rule(f, x, backend=backend)
        except autoconv.AutoconvError as e:
            assert backend == "jax" and "x[mask] selects as many elements" in str(e), str(e)


def test_saved_and_loaded(tmp_path):
    g = autoconv.function(reads)
    g(INPUTS[0])
    g.save(tmp_path / "reads.acg")
    loaded = autoconv.load(tmp_path / "reads.acg")
    assert same(loaded(np.array([4, -2, 1])), reads(np.array([4, -2, 1])))
