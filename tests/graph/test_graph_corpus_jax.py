"""The graph corpus with `backend="jax"`: every 4th program (all of them with
`AUTOCONV_JAX_CORPUS=all`), each call compared with the eager call as in test_graph_corpus.py.
Correct outcomes: the same result (floats equal up to rounding: XLA orders sums and fuses
multiply-adds its own way), the `AutoconvError` of graph mode, or a `LoweringError` naming the
user's file:line for an operation without a JAX form."""

import os

import pytest

pytest.importorskip("jax")

from tests.graph_corpus import programs  # noqa: E402
from tests.graph_corpus.harness import CORRECT, run_program, summary, worst  # noqa: E402

STEP = 1 if os.environ.get("AUTOCONV_JAX_CORPUS") == "all" else 4
PROGRAMS = programs()[::STEP]


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.id for p in PROGRAMS])
def test_jax_graph_matches_eager(program):
    results = run_program(program, backend="jax")
    outcome = worst(results)
    assert outcome in CORRECT, f"{outcome}\n{summary(results)}"
