"""The graph corpus (tests/graph_corpus/): ordinary NumPy programs, each traced ONCE with
`autoconv.function` and called on all of its inputs in order, every call compared with the
eager call. A program passes when every call gives what eager code gives, or, for a program
marked `expect="error"`, a clear `AutoconvError` naming the user's file and line. Every program
runs with the default passes and with `optimize=False`.

A failure message names the outcome of each call that went wrong: wrong value, wrong type,
hang, crash (an exception that is not an AutoconvError, from autoconv's code or from an ordinary
line of the user's code run on a wrong value), unexpected AutoconvError or missing error
(tests/graph_corpus/harness.py says exactly what each means).
`python tools/graph_corpus_report.py` prints the counts per class of issue 9.
"""

import collections

import numpy as np
import pytest

from tests.graph_corpus import programs
from tests.graph_corpus.harness import (
    CORRECT,
    diff,
    located,
    picture,
    run_program,
    summary,
    worst,
)

PROGRAMS = programs()
Pair = collections.namedtuple("Pair", "a b")
SETTINGS = [("default", None), ("noopt", False)]


@pytest.mark.parametrize("optimize", [s for _, s in SETTINGS], ids=[n for n, _ in SETTINGS])
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.id for p in PROGRAMS])
def test_graph_matches_eager(program, optimize):
    results = run_program(program, optimize=optimize)
    outcome = worst(results)
    classes = ",".join(map(str, program.classes))
    assert outcome in CORRECT, f"{outcome} [issue classes {classes}]\n{summary(results)}"


def test_corpus_size():
    """At least 200 programs, covering every class of issue 9 (class 9, the pass settings, is
    covered by running every program with `optimize=False` as well)."""
    assert len(PROGRAMS) >= 200
    covered = {c for p in PROGRAMS for c in p.classes}
    assert covered >= set(range(1, 12))
    assert len({p.id for p in PROGRAMS}) == len(PROGRAMS), "two programs share a name"


# -- the harness itself: what it tells apart --


@pytest.mark.parametrize(
    "a, b",
    [
        (1, np.int64(1)),  # an int stays an int
        (1.0, np.float64(1.0)),
        (np.float32(1.0), np.float64(1.0)),
        (np.array(1.0), np.float64(1.0)),  # a 0-d array is not a scalar
        (np.zeros(2), np.zeros(3)),
        (np.zeros(2, np.float32), np.zeros(2)),
        ([1], (1,)),
        ({"a": 1}, {"b": 1}),
        (None, 0.0),
        (True, 1),
        (Pair(1, 2), (1, 2)),
    ],
)
def test_harness_tells_types_apart(a, b):
    assert diff(picture(a), picture(b), "r")[0] == "wrong-type"


@pytest.mark.parametrize(
    "a, b",
    [
        (0.0, -0.0),
        (np.array([0.0]), np.array([-0.0])),
        (np.float64(1.0), np.float64(1.0 + 2**-52)),
        ({"a": [1, 2]}, {"a": [1, 3]}),
    ],
)
def test_harness_tells_values_apart(a, b):
    assert diff(picture(a), picture(b), "r")[0] == "wrong-value"


def test_harness_nan_equals_nan():
    assert diff(picture(np.array([np.nan, 1.0])), picture(np.array([-np.nan, 1.0])), "r") is None
    assert diff(picture(float("nan")), picture(float("nan")), "r") is None


def test_harness_looks_into_objects():
    class Box:
        def __init__(self, value):
            self.value = value

    assert diff(picture(Box(1.0)), picture(Box(object())), "after")[0] == "wrong-type"
    assert diff(picture(Box(1.0)), picture(Box(2.0)), "after")[0] == "wrong-value"
    assert diff(picture(Box(1.0)), picture(Box(1.0)), "after") is None


def test_harness_located():
    path = "/any/tests/graph_corpus/numerics.py"
    assert located(f"{path}:12: something", path)
    assert not located("numerics.py: something", path)
