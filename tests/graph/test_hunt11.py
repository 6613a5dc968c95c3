"""The fifth round of the graph-program generator (issue 24, task hunt11): the classes its
hunt found (tools/generator_hunt11_findings.md), each as a minimal program, on both backends."""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule


# J1 (an internal error when the graph was built): a branch whose tracing raised Python's own
# error (`e0, e1 = y` of four items), staged to raise when it runs, beside a branch whose
# nested staged `return` makes the return value "a tuple or None" by a run-time tag. The
# stand-ins of the raising path kept that tag, a value of the other branch's block.
def unpacking_fails_beside_a_nested_return(x, y):
    t = 1
    if x[0] <= -1:
        e0, e1 = y
        t = e0 - e1
    else:
        if np.mean(x) < 2:
            return (None,)
    return (t,)


def nested_return_beside_a_failing_unpacking(x, y):
    t = 1
    if x[0] > -1:
        if np.mean(x) < 2:
            return (None,)
    else:
        e0, e1 = y
        t = e0 - e1
    return (f"{t:g}",)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn", [unpacking_fails_beside_a_nested_return, nested_return_beside_a_failing_unpacking]
)
@pytest.mark.parametrize("first", [2, -2, 9])
def test_a_failing_branch_beside_a_nested_return(fn, first, backend):
    x = np.array([first, -3, -3, -1])
    follows_the_rule(fn, x, np.array([0.5, -0.5, 1.5, 2.0], dtype=np.float32), backend=backend)
