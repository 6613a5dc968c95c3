"""`dict(pairs)` and `d.update(pairs)` of pairs known only when the graph runs: the sorted
items of a dict with run-time keys (`dict(sorted(h.items()))`), a dict's own items, a
comprehension's pairs; each pair is stored as `d[k] = v` is, when the graph runs."""

import numpy as np
import pytest
from agreement import BACKENDS, follows_the_rule


def _histogram(x):
    h = {}
    for v in x:
        b = int(v // 1)
        h[b] = h.get(b, 0) + 1
    return h


def sorted_histogram(x):
    return dict(sorted(_histogram(x).items()))


def items_again(x):
    h = _histogram(x)
    return dict(h.items())


def updated_with_sorted(x):
    out = {-1: 0}
    out.update(sorted(_histogram(x).items(), reverse=True))
    return out


def comprehension_pairs(x):
    return dict([(int(v), float(v) * 2) for v in x if v > 1])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn",
    [sorted_histogram, items_again, updated_with_sorted, comprehension_pairs],
    ids=lambda f: f.__name__,
)
@pytest.mark.parametrize("x", [np.array([1.0, 4.0, 2.0, 1.5]), np.zeros(0)], ids=["four", "empty"])
def test_dicts_of_run_time_pairs(backend, fn, x):
    follows_the_rule(fn, x, backend=backend)
