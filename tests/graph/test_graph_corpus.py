"""The graph corpus (tests/graph_corpus/): ordinary NumPy programs, each traced ONCE with
`autoconv.function` and called on all of its inputs in order, every call compared with the
eager call. A program passes when every call gives what eager code gives, or, for a program
marked `expect="error"`, a clear `AutoconvError` naming the user's file and line. Every program
runs with the default passes and with `optimize=False`.

A failure message names the outcome of each call that went wrong: wrong value, wrong type,
hang, crash (an exception from autoconv's own code), unexpected AutoconvError or missing error.
`python tools/graph_corpus_report.py` prints the counts per class of issue 9.
"""

import pytest

from tests.graph_corpus import programs
from tests.graph_corpus.harness import CORRECT, run_program, summary, worst

PROGRAMS = programs()
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
