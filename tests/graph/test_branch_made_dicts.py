"""Sets and dicts holding keys known only when the graph runs, made on one path of a staged `if`
and another object on the other (`return dict(cnt)` after an early return, `s = set(...)` in
one branch, a tuple holding such a dict). The `if` chooses between the two paths' run-time
lists of keys and values (trace/tensors/keyed_runs.py). Before, a top-level variable was a
StagingError naming the converter's `retval`, and a dict inside a returned tuple came back as
the empty Python object (generator finding H10). Each program runs eagerly and as one graph
function on every input, on both backends (the JAX backend keys no dict at run-time keys: its
documented LoweringError)."""

import collections

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_or_jax_limit

INPUTS = [np.array([3.0, 1.0, 3.0]), np.array([-1.0, 2.0]), np.zeros(0), np.array([5.0])]


def counter_after_an_early_return(a):
    cnt = collections.Counter()
    if np.any(a < 0):
        return (dict(cnt),)
    for v in a:
        cnt[int(v) % 3] += 1
    return (dict(cnt),)


def dict_returned_from_either_branch(a):
    d = {}
    if a.size == 0 or a[0] < 0:
        return {0: 0}
    for v in a:
        d[int(v)] = d.get(int(v), 0) + 1
    return d


def set_made_in_one_branch(a):
    if np.sum(a) > 3:
        s = {int(v) for v in a}
    else:
        s = {7}
    return sorted(s), len(s), 3 in s


def two_run_time_dicts(a):
    if np.all(a >= 0):
        d = {}
        for v in a:
            d[int(v)] = float(v) * 2
    else:
        d = {}
        for v in a:
            d[int(v) % 2] = 1.0
    return sorted(d.items())


def dict_in_a_list(a):
    seen = {}
    for v in a:
        seen[int(v)] = True
    out = [seen, 1] if np.max(a, initial=0) > 2 else [{}, 2]
    return len(out[0]), out[1]


def defaultdict_chosen(a):
    groups = collections.defaultdict(int)
    for v in a:
        groups[int(v) > 2] += 1
    if len(a) > 2:
        return dict(groups)
    return dict(collections.defaultdict(int))


def string_keys_on_one_path(a):
    if np.sum(a) > 3:
        d = {}
        for v in a:
            d[int(v)] = 1
    else:
        d = {"none": 0}
    return d


PROGRAMS = [
    counter_after_an_early_return,
    dict_returned_from_either_branch,
    set_made_in_one_branch,
    two_run_time_dicts,
    dict_in_a_list,
    defaultdict_chosen,
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_program(f, backend):
    for x in INPUTS:
        follows_or_jax_limit(f, x, backend=backend)


def test_keys_that_cannot_be_chosen_when_the_graph_runs_are_a_clear_error():
    with pytest.raises(autoconv.AutoconvError) as info:
        autoconv.function(string_keys_on_one_path)(INPUTS[0])
    text = str(info.value)
    assert "test_branch_made_dicts.py:" in text and "`d` is a dict" in text
    assert "Make it once before the `if`" in text
