"""A dict key (or an object's attribute) that a staged `if` or loop sets where it did not exist
before (found by the tally9 helper): `d["big"] = d.get("big", 0) + 1` in a staged loop raised
an internal TypeError (a stand-in for the missing key was written into the dict), and with a
staged `if` in the loop the graph returned None. Whether the key exists afterwards would be
known only when the graph runs: a clear error that says to give it a value first; a key that
exists before runs, and so does a Counter's: a key it gets in a staged branch is a key of its
run-time dict (it gained `'big': 0` on an input that never took that branch)."""

import collections

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule, message

X = np.array([3, 1, 3])


def counts_in_branches(x):
    d = {}
    for v in x:
        if v > 1:
            d["big"] = d.get("big", 0) + 1
        else:
            d["small"] = d.get("small", 0) + 1
    return d


def counts_in_loop(x):
    c = {}
    for _v in x:
        c["big"] = c.get("big", 0) + 1
    return c


def counts_given_first(x):
    d = {"big": 0, "small": 0}
    for v in x:
        if v > 1:
            d["big"] = d.get("big", 0) + 1
        else:
            d["small"] += 1
    return d


def counter_in_branches(x):
    c = collections.Counter()
    for v in x:
        if v > 1:
            c["big"] += 1
        else:
            c["small"] += 1
    return c


@pytest.mark.parametrize("f", [counts_in_branches, counts_in_loop])
def test_a_key_set_on_some_paths_only_is_a_clear_error(f):
    text = message(f, X)
    assert "is set on some paths of a staged statement" in text
    assert "test_missing_keys9.py:" in text


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f", [counts_given_first, counter_in_branches])
def test_keys_that_exist_or_read_zero_run(f, backend):
    for x in (X, np.array([0]), np.zeros(0, dtype=np.int64)):
        follows_the_rule(f, x, backend=backend)
