"""The table of run-time sets' and dicts' shadows (`runtime.keyed._SHADOWS`) is bounded: when
it fills, the oldest shadows go, never those of the trace going on (clearing it all dropped
them mid-trace, so a set read as the empty Python object: `sorted({1, 4, 11} & present)` gave
[] on the JAX backend after a long test session)."""

import numpy as np
import pytest

import autoconv.runtime.keyed as keyed
from tests.graph.agreement import BACKENDS, follows_the_rule


def intersection(x):
    present = set(x.tolist())
    return sorted({1, 4, 11} & present), sorted(set(range(5)) - present)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_full_table_keeps_the_shadows_of_the_trace(backend):
    for i in range(1020):
        keyed._SHADOWS[-i - 1] = keyed.Shadow({}, "")  # as a long session leaves it
    try:
        follows_the_rule(intersection, np.ones(3, dtype=np.int64), backend=backend)
    finally:
        for key in [k for k in keyed._SHADOWS if type(k) is int and k < 0]:
            del keyed._SHADOWS[key]
