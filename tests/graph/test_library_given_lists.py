"""Library code that autoconv does not convert, given a list a staged loop grew: where it
fails reading the list as a Python list, a clear error naming the function, the user's line and
what to write (it raised the library's own TypeError from inside autoconv's stand-in)."""

import math
import statistics

import numpy as np
import pytest
from agreement import BACKENDS, follows_the_rule, message

import autoconv


def library_mean(x):
    vals = [float(v) for v in x if v > 0]
    return statistics.mean(vals) if len(vals) > 1 else None


def library_fsum(x):
    vals = []
    for v in x:
        if v > 0:
            vals.append(float(v))
    return math.fsum(vals)


def numpy_of_the_list(x):
    vals = [float(v) for v in x if v > 0]
    return float(np.mean(np.array(vals))) if len(vals) > 1 else None


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [library_mean, library_fsum], ids=lambda f: f.__name__)
def test_library_code_given_a_run_time_list(backend, fn):
    text = message(fn, np.array([1.0, 4.0, 2.0]), backend=backend)
    assert "items a staged loop appended" in text and "test_library_given_lists.py:" in text
    if fn is library_mean:  # (math.fsum asks the stand-in for a float: its own message)
        assert "`statistics.mean` is given a list" in text and "np.mean" in text


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_advice_runs(backend):
    follows_the_rule(numpy_of_the_list, np.array([1.0, 4.0, 2.0]), backend=backend)


def test_outside_graphs_the_call_is_the_librarys():
    x = np.array([1.0, 4.0, 2.0])
    assert autoconv.convert(library_mean)(x) == library_mean(x)
    assert autoconv.convert(library_fsum)(x) == library_fsum(x)
