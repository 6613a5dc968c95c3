"""The graph corpus and the program generator, run a third way: `jax.jit(autoconv.convert(f))`
with the program's NumPy replaced by `jax.numpy` and 64-bit types on (tests/jax/corpus.py).

Each call must agree with eager NumPy (values to 1e-9, dtypes, shapes, structure), or give a
clear `AutoconvError` naming the program's file and line, or JAX's own error for what JAX does
not do by design (`corpus.DESIGN`, listed in docs/jax-tracing.md). CI runs a fixed sample of
the corpus (every program: `AUTOCONV_JAX_CORPUS=all`) to keep within its time.
"""

import os

import pytest

from tests.graph_corpus import programs
from tests.jax import corpus

jax = pytest.importorskip("jax")

ELIGIBLE = [p for p in programs() if corpus.eligible(p)]
SAMPLE = ELIGIBLE if os.environ.get("AUTOCONV_JAX_CORPUS") == "all" else ELIGIBLE[::8]


@pytest.mark.parametrize("program", SAMPLE, ids=[p.id for p in SAMPLE])
def test_corpus_program_agrees_or_fails_clearly(program):
    results = corpus.run_program(program)
    bad = [(i, r) for i, r in enumerate(results) if r[0] not in corpus.CORRECT]
    assert not bad, f"{program.id}: " + "; ".join(f"input {i}: {o}: {d}" for i, (o, d) in bad)


@pytest.mark.parametrize("program_id", sorted(corpus.EXPECTED_DESIGN))
def test_listed_design_differences_still_differ(program_id):
    """Each corpus program listed as differing by JAX's design does differ that way (so the
    list stays true), and no other way."""
    program = next(p for p in ELIGIBLE if p.id == program_id)
    outcomes = {o for o, _ in corpus.run_program(program)}
    assert corpus.DESIGN_ERROR in outcomes and outcomes <= set(corpus.CORRECT)


def test_sample_covers_the_corpus():
    assert len(ELIGIBLE) >= 150
    assert len(SAMPLE) >= 20
    assert len({p.module for p in SAMPLE}) >= 8
