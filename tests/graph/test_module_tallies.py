"""A module's Counter, defaultdict or dict that a staged loop or branch counts into: later
reads in the function see the run-time keys (they read the empty Python object: a wrong 0),
and the change to the module itself gets the trace-effect warning (once, while tracing)."""

import collections
import warnings

import numpy as np
import pytest
from agreement import BACKENDS, follows_the_rule, message

import autoconv

TALLY = collections.Counter()
GROUPS = collections.defaultdict(int)


def counted(x):
    TALLY.clear()
    for v in x:
        if v > 0:
            TALLY["pos"] += 1
    return TALLY["pos"], len(TALLY)


def grouped(x):
    GROUPS.clear()
    for v in x:
        GROUPS[int(v) % 2] += 1
    return GROUPS[0], GROUPS.get(1, 0), 1 in GROUPS


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [counted], ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", [np.array([1.0, -1.0, 2.0]), np.array([-3.0]), np.zeros(0)])
def test_module_tallies(backend, fn, x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", autoconv.TraceEffectWarning)
        follows_the_rule(fn, x, backend=backend)


def test_a_module_dict_at_a_run_time_key_is_a_clear_error():
    # (a store at a key known only when the graph runs is staged on a local dict only)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", autoconv.TraceEffectWarning)
        text = message(grouped, np.array([1.0, 2.0]))
    assert "GROUPS[int(v) % 2] += 1" in text and "dict key" in text


def test_the_module_change_is_warned():
    with pytest.warns(autoconv.TraceEffectWarning, match="the Counter `TALLY` \\(a global\\)"):
        autoconv.function(counted)(np.array([1.0, 2.0]))
