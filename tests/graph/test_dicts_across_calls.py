"""Dicts and sets that hold keys known only when the graph runs, crossing a call: returned by a
helper of the user's (`d = count(x)`, then `3 in d`, `d[3]`), or passed to one (`k in d`,
`d[k]` of a parameter). The converter cannot see their kind there; `in` and item reads of such
names go through the runtime, which reads any other value as Python does. Before, `3 in d`
was False and `d[3]` raised KeyError where eager finds the key. Each program runs eagerly and
as one graph function on every input, on both backends: the JAX backend gives eager's answer
or its documented LoweringError for run-time keys."""

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_or_jax_limit

INPUTS = [np.array([3, 1, 3]), np.array([5]), np.array([2, 2, 2, 7])]


def count(x):
    d = {}
    for v in x:
        d[int(v)] = d.get(int(v), 0) + 1
    return d


def uniq(x):
    s = set()
    for v in x:
        s.add(int(v))
    return s


def lookup(d, k):
    return d[k] if k in d else 0


def doubled(d, k):
    return d.get(k, 0) * 2


def mode(d):
    best, best_count = None, -1
    for k, c in d.items():
        if c > best_count:
            best, best_count = k, c
    return best


def helper_result_in_and_item(x):
    d = count(x)
    found = 3 in d
    return found, d[3] if found else -1, len(d)


def helper_result_item(x):
    d = count(x)
    return d[int(x[0])]


def passed_to_a_lookup(x):
    d = count(x)
    return lookup(d, 3), doubled(d, 1)


def iterated_after_the_call(x):
    d = count(x)
    total = 0
    for k in d:
        total += k * d[k]
    return total, sorted(d), max(d, key=d.get)


def views_after_the_call(x):
    d = count(x)
    return list(d.items()), sum(d.values())


def mode_of_a_count(x):
    return mode(count(x))


def written_after_the_call(x):
    d = count(x)
    d[99] = 1
    return len(d), d[99], 99 in d, 4 not in d


def a_set_from_a_helper(x):
    s = uniq(x)
    return 3 in s, len(s), sorted(s)


def a_run_time_key_into_a_passed_dict(x):
    d = count(x)
    return lookup(d, int(x[-1]))


PROGRAMS = [
    helper_result_in_and_item,
    helper_result_item,
    passed_to_a_lookup,
    iterated_after_the_call,
    views_after_the_call,
    mode_of_a_count,
    written_after_the_call,
    a_set_from_a_helper,
    a_run_time_key_into_a_passed_dict,
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_program(f, backend):
    for x in INPUTS:
        follows_or_jax_limit(f, x, backend=backend)


def test_a_parameter_tested_with_in_is_read_through_the_runtime():
    text = autoconv.to_code(lookup)
    assert "ac.in_(k, d)" in text and "ac.keyed_item(d, k)" in text
