"""A variable that is unbound on some paths, None on others and a value on the rest (`found =
None` in a loop's `else`, `r = None` in a handler, first bound inside a loop): carried as an
Optional that may be unbound around one that may be None (batch 8 C7)."""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule


def while_else_none(x):
    i = 0
    while i < len(x):
        if x[i] > 10:
            found = i
            break
        i += 1
    else:
        found = None
    return found


def for_else_tested(x):
    for i in range(len(x)):
        if x[i] > 10:
            found = i
            break
    else:
        found = None
    if found is None:
        return -1
    return found * 2


def first_positive_ratio(x):
    for v in x:
        if v > 0:
            ratio = 1.0 / float(v)
            break
    else:
        ratio = None
    return ratio is not None, ratio


def none_in_branch_first_bound_in_loop(x):
    n = 0
    for v in x:
        if v > 0:
            best = float(v)
        else:
            best = None
        if best is not None:
            n += 1
    return n, best


CASES = [
    (f, x)
    for f in (while_else_none, for_else_tested, first_positive_ratio)
    for x in (np.array([1, 20, 3]), np.array([1, 2]), np.zeros(0, dtype=int))
] + [
    (none_in_branch_first_bound_in_loop, np.array([1.0, -2.0])),
    (none_in_branch_first_bound_in_loop, np.array([-1.0, 2.0])),
    (none_in_branch_first_bound_in_loop, np.zeros(0)),  # UnboundLocalError, as eagerly
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,x", CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_none_or_unbound(fn, x, backend):
    follows_the_rule(fn, x, backend=backend)
