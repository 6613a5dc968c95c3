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


# J2 (wrong value, seed 1112): a number whose Python type depends on the path (a helper's
# `return e` from inside its loop, or `return 0.0` after it) kept in a staged loop whose body
# assigns it only on a path it does not take (a Python condition): the loop carried it without
# its kind, and the Python float 0.0 came back np.float64(0.0).
def _first_above(v, c):
    for e in v:
        if e > c:
            return e
    return 0.0


def kind_kept_through_a_loop(x, k):
    t = _first_above(x, 0)
    for _v in x:
        if k > 1:
            t += 1.0
    return t


def kind_kept_through_a_while(x, k):
    t = _first_above(x, 0)
    i = 0
    while i < len(x) and x[i] > 5:
        i += 1
        if x[-1] > 2 and k > 1:
            t = t + 1
    return t


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [kind_kept_through_a_loop, kind_kept_through_a_while])
@pytest.mark.parametrize("x", [[0.0, -1.0], [2.0, -1.0], [6.0, 7.0]])
@pytest.mark.parametrize("k", [1, 2])
def test_a_number_of_a_kind_by_path_kept_through_a_loop(fn, x, k, backend):
    follows_the_rule(fn, np.array(x), k, backend=backend)
