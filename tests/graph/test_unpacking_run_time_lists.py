"""Unpacking a list whose length is known only when the graph runs: `a, b = out` of a list a
staged loop appended to, `lo, hi = [v for v in x if v > 0]`, `first, *rest = out`. Python
unpacked the traced list's one stand-in, so a correct program raised "not enough values to
unpack" while tracing. The length is now checked when the graph runs (eager's ValueError where
it does not fit) and the items are read at their indices. Eager and graph, both backends."""

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule

INPUTS = [np.array([1.0, -1.0, 2.0]), np.array([1.0, 2.0, 3.0]), np.array([-1.0, -2.0])]


def comprehension_pair(x):
    a, b = [v for v in x if v > 0]
    return a + b


def grown_pair(x):
    out = []
    for v in x:
        if v > 0:
            out.append(float(v))
    lo, hi = out
    return lo, hi


def first_and_rest(x):
    out = []
    for v in x:
        if v > 0:
            out.append(float(v))
    first, *rest = out
    return first, rest


def init_and_last(x):
    out = [float(v) for v in x if v > 0]
    *init, last = out
    return init, last


def known_length(x):
    a, b = [v * 2 for v in x[:2]]
    return a, b


PROGRAMS = [comprehension_pair, grown_pair, first_and_rest, init_and_last, known_length]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_program(f, backend):
    for x in INPUTS:
        follows_the_rule(f, x, backend=backend)


def test_the_converted_code_unpacks_through_the_runtime():
    assert "lo, hi = ac.unpack(out, 2, -1)" in autoconv.to_code(grown_pair)
    assert "first, rest = ac.unpack(out, 2, 1)" in autoconv.to_code(first_and_rest)


def test_starred_unpacking_outside_a_trace_is_pythons():
    assert autoconv.convert(first_and_rest)(np.array([1.0, 2.0])) == (1.0, [2.0])
    with pytest.raises(ValueError, match="expected at least 1, got 0"):
        autoconv.convert(first_and_rest)(np.array([-1.0]))
