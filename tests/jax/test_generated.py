"""Generated programs (tests/graph/graph_programs.py) run a third way:
`jax.jit(autoconv.convert(f))` with `jax.numpy` for NumPy and 64-bit types on.

Each call must agree with the eager NumPy call, or give a clear `AutoconvError` naming the
generated file and a line, or JAX's own error for what it does not do by design (see
tests/jax/corpus.py). Programs whose arrays are 32-bit are left out: `jax.numpy` promotes
mixed 32- and 64-bit values differently from NumPy, by design (int32 with float32 gives float32
in JAX, float64 in NumPy). Examples per run: `AUTOCONV_JAX_EXAMPLES` (default 25), the same
ones every run when CI is set.
"""

import itertools
import os

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.graph.graph_programs import inputs, programs
from tests.jax import corpus
from tests.test_generated_programs import _load

jax = pytest.importorskip("jax")

_folders = itertools.count()


@st.composite
def examples(draw):
    program = draw(programs())
    sig = program.signature
    assume("32" not in sig.x_dtype + sig.y_dtype + sig.s_dtype)
    return program, [draw(inputs(sig)) for _ in range(2)]


@settings(
    max_examples=int(os.environ.get("AUTOCONV_JAX_EXAMPLES", 25)),
    deadline=None,
    derandomize=bool(os.environ.get("CI")),
    database=None if os.environ.get("CI") else settings.default.database,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(example=examples())
def test_generated_program_agrees_or_fails_clearly(tmp_path_factory, example):
    program, args = example
    folder = tmp_path_factory.mktemp(f"jaxgen{next(_folders)}")
    func, path = _load(folder, program.source)
    for a in args:
        found = corpus.outcome(func, a, path)
        assert found[0] in corpus.CORRECT, f"{found}\n{program.source}\ninputs: {a!r}"
