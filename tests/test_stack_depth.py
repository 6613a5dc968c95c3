"""Recursion depth of converted functions.

Outside traces a converted function runs the original's statements: the same depth exactly
(tests/test_fast_path.py). Its functional form keeps most of it: at least a sixth of what the
original reaches under the same recursion limit (a converted statement adds frames of its own:
the operator and the body function). Measured in the always-converted mode, and while
`autoconv.function` traces, where the functional form of every level is what runs (the depth is
a Python int, so it stays a Python value inside the trace).
"""

import sys

import numpy as np
import pytest

import autoconv


def depth(n):
    if n == 0:
        return 0
    total = 0
    for _ in range(1):
        total += depth(n - 1) + 1
    return total


def parse(tokens, i=0):
    """Parses "[", "]" and atoms into nested lists; returns (items, next index)."""
    items = []
    while i < len(tokens):
        token = tokens[i]
        if token == "[":
            sub, i = parse(tokens, i + 1)
            items.append(sub)
        elif token == "]":
            return items, i + 1
        else:
            items.append(token)
            i += 1
    return items, i


def parse_nested(n):
    items, _ = parse(["["] * n + ["x"] + ["]"] * n)
    return items


def nested_recursion(n):
    """The recursive function is nested, so it is converted together with this one."""

    def rec(k):
        if k == 0:
            return 0
        r = 0
        for _ in range(1):
            r = rec(k - 1) + 1
        return r

    return rec(n)


def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


def _reaches(fn, n) -> bool:
    try:
        fn(n)
    except RecursionError:
        return False
    return True


def max_depth(fn) -> int:
    """The largest n (bisected) for which fn(n) does not raise RecursionError."""
    lo, hi = 0, 2 * sys.getrecursionlimit()
    assert not _reaches(fn, hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _reaches(fn, mid):
            lo = mid
        else:
            hi = mid
    return lo


FUNCTIONS = pytest.mark.parametrize(
    "func",
    [depth, parse_nested, nested_recursion, is_even],
    ids=["depth", "recursive-descent parser", "nested recursive function", "mutual recursion"],
)


@FUNCTIONS
def test_functional_form_reaches_a_sixth_of_the_original_depth(func, always_converted):
    converted = autoconv.convert(func)
    assert converted.__autoconv_original__ is func
    assert converted(20) == func(20)
    original_depth = max_depth(func)
    converted_depth = max_depth(converted)
    assert original_depth > 100  # the measurement means something
    assert converted_depth >= original_depth / 6, (original_depth, converted_depth)


def _traced(func):
    """fn(n) for a Python int n, run inside a trace of `autoconv.function`."""

    def traced(x, n):
        result = func(n)
        return x + (1 if result else 0)

    def call(n):
        return autoconv.function(traced)(np.float32(0), n)

    return call


@FUNCTIONS
def test_traced_recursion_reaches_a_sixth_of_the_original_depth(func):
    """While tracing, the converted form runs, and each converted `if` or loop around the
    recursive call adds two frames (the operator and the body function): these functions have
    at most two such statements around the call, so at most five frames a level, plus the
    trace's own few. (TensorFlow's converted code takes about thirteen.)"""
    assert _traced(func)(20) == (1 if func(20) else 0)
    original_depth = max_depth(func)
    traced_depth = max_depth(_traced(func))
    assert original_depth > 100
    assert traced_depth >= original_depth / 6, (original_depth, traced_depth)
