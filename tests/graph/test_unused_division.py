"""A division, floor division or modulo of Python numbers known only when the graph runs,
by zero, whose result nothing reads (the generator's H9): eager Python raises
ZeroDivisionError at the statement; the graph kept no node for it and returned. The node is
kept now (it may raise), on both backends, also for a zero divisor written in the code."""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule


def floor_divided_unused(a, k):
    q = (int(np.sum(a)) - 2) // k + 1  # noqa: F841 - unused, as in the generated program
    return a.sum()


def modulo_unused(a, k):
    r = (int(np.sum(a)) - 2) % k  # noqa: F841
    return 1.0


def divided_by_run_time_zero_unused(a, k):
    q = 1.0 / (float(np.sum(a)) * k)  # noqa: F841
    return 1.0


def floor_divided_used(a, k):
    return (int(np.sum(a)) - 2) // k + 1


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "f",
    [floor_divided_unused, modulo_unused, divided_by_run_time_zero_unused, floor_divided_used],
)
def test_a_zero_divisor_raises_as_eagerly(f, backend):
    for k in (0, 3):
        follows_the_rule(f, np.ones(3), k, backend=backend, text=True)
