"""A returned name that no path binds, in a function that may raise the user's error first:
eager code raises that error where it applies and UnboundLocalError at the `return` otherwise.
The graph records both, in that order (found by the generated programs: the trace raised the
UnboundLocalError for every input, also where eager raises the ValueError)."""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule


def checked_then_unbound(x, k):
    if np.any(x < 0):
        raise ValueError("bad input")
    if np.sum(x) < 0:
        if k > 1:
            u = np.sum(x)
    return x, u


def printed_then_unbound(x):
    print("start")
    if x[0] > 10:
        raise KeyError("big")
    for v in x:
        if v > 100:
            found = v
            del found
    return found  # noqa: F821


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_users_error_first_then_unbound_local_error(backend):
    for x in (np.array([-2.0]), np.array([1.0, 2.0])):
        follows_the_rule(checked_then_unbound, x, 0, backend=backend, text=True)
    for x in (np.array([20.0]), np.array([1.0])):
        follows_the_rule(printed_then_unbound, x, backend=backend)
