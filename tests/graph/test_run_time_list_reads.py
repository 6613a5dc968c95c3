"""Lists whose items a staged loop or filter made (known only when the graph runs) read as
eager code reads them: slices with a step, `reversed`, `==` and `!=` of two lists, and NumPy
functions given such lists (`np.array_equal(kept, ref)`), which take the array NumPy makes of
each; and a list chosen by a staged conditional expression cannot be changed through it
(batch 8 W3, W4)."""

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule, message


def palindrome(x):
    kept = [v for v in x if v != 0]
    return kept == kept[::-1]


def reversed_copy(x):
    kept = [v for v in x if v != 0]
    return kept[::-1], kept[1:], kept[::2]


def appended_palindrome(x):
    kept = []
    for v in x:
        if v != 0:
            kept.append(v)
    return kept == list(reversed(kept)), kept != kept[::-1]


def equal_to_written(x):
    kept = [v for v in x if v > 0]
    return kept == [1, 2, 1], [3] != kept


def numpy_of_lists(x):
    kept = []
    for v in x:
        if v > 0:
            kept.append(v)
    return np.array_equal(kept, np.array([1, 2, 1])), np.allclose(kept[::-1], kept)


def iterate_reversed(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v * 2)
    total = 0
    for v in reversed(out):
        total = total * 10 + v
    return total


# Comparing the items of a run-time list stacks them (np.array of the list); on the JAX
# backend that is np.array_equal of mask selections, also of a list that may be empty
# (backends/jax/mask_equal.py). np.allclose of such a list stays docs/backends.md's
# LoweringError there.
COMPARED = (palindrome, appended_palindrome, equal_to_written, numpy_of_lists)
CASES = [
    (f, x)
    for f in (reversed_copy, iterate_reversed, *COMPARED)
    for x in (np.array([1, 2, 1]), np.array([1, 2, 3]), np.array([0, 1, 0]), np.array([3]))
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,x", CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_run_time_list_reads(fn, x, backend):
    if backend == "jax" and fn is numpy_of_lists:
        with pytest.raises(autoconv.AutoconvError, match="may hold no items"):
            autoconv.function(fn, backend="jax")(x)
        return
    follows_the_rule(fn, x, backend=backend)


def append_to_chosen(x):
    pos, neg = [], []
    for v in x:
        (pos if v > 0 else neg).append(float(v))
    return len(pos), len(neg)


def test_changing_a_chosen_list_is_a_clear_error():
    text = message(append_to_chosen, np.array([1.0, -2.0]))
    assert "chooses between two lists" in text and "`if` statement" in text
    assert "test_run_time_list_reads.py:" in text
