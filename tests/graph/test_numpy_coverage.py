"""The NumPy coverage survey (tools/numpy_coverage.py) as a differential test: each NumPy
function, ndarray method and Generator method it lists, called in a staged `if`, returns
eager's value, type, dtype and shape on each backend, or is a stated limit, an AutoconvError
that names the call (docs/graph-mode.md, docs/backends.md)."""

import importlib.util
import pathlib

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule, message

_PATH = pathlib.Path(__file__).resolve().parents[2] / "tools" / "numpy_coverage.py"
_SPEC = importlib.util.spec_from_file_location("numpy_coverage", _PATH)
survey = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(survey)

# Stated limits on both backends: an AutoconvError naming the call.
CLEAR = {
    "piecewise",  # its functions are Python callables
    "put",  # write `a[idx] = v`
    "place",
    "put_along_axis",
    "linalg.eig",  # a real or complex result, by the values
    "linalg.eigvals",
    ".resize()",
    "rng.bytes-len",  # bytes are no array
}
# The JAX backend's LoweringErrors: sizes from values, and indices XLA cannot check.
CLEAR_JAX = {
    "ascontiguousarray",
    "trim_zeros",
    "partition",
    "argpartition",
    "where-1",
    "nonzero",
    "argwhere",
    "flatnonzero",
    "extract",
    "compress",
    "unique",
    "unique-counts",
    "unique-inverse",
    "unique-index",
    "bincount",
    "bincount-minlength",
    "choose",
    "intersect1d",
    "union1d",
    "setdiff1d",
    "setxor1d",
    "ravel_multi_index",
    ".nonzero",
}
# Open wrong results on the JAX backend (none now: JAX's Cholesky gave NaNs where NumPy raises
# LinAlgError; backends/jax/linalg_checks.py raises it).
WRONG_JAX: set = set()


def _cases():
    for name, kind, call in survey.ENTRIES:
        for backend in BACKENDS:
            marks = ()
            if backend == "jax" and name in WRONG_JAX:
                marks = pytest.mark.xfail(strict=True, reason="JAX linalg errors are NaNs")
            yield pytest.param(name, kind, call, backend, id=f"{name}-{backend}", marks=marks)


@pytest.mark.parametrize(("name", "kind", "call", "backend"), list(_cases()))
def test_survey_entry(name, kind, call, backend):
    want = "clear" if name in CLEAR or backend == "jax" and name in CLEAR_JAX else "ok"
    outcome, detail = survey.judge(name, kind, call, backend)
    assert outcome == want, detail


def test_the_lists_name_entries():
    names = {name for name, _, _ in survey.ENTRIES}
    assert CLEAR | CLEAR_JAX | WRONG_JAX <= names


# Programs of the class written after the fix (tools/numpy_coverage_programs.py).
_PROGRAMS_PATH = _PATH.parent / "numpy_coverage_programs.py"
_SPEC2 = importlib.util.spec_from_file_location("numpy_coverage_programs", _PROGRAMS_PATH)
programs = importlib.util.module_from_spec(_SPEC2)
_SPEC2.loader.exec_module(programs)


def _program_cases():
    for fn, inputs in programs.P:
        for i, args in enumerate(inputs):
            for backend in BACKENDS:
                yield pytest.param(fn, args, backend, id=f"{fn.__name__}-{i}-{backend}")


@pytest.mark.parametrize(("fn", "args", "backend"), list(_program_cases()))
def test_program(fn, args, backend):
    if backend == "jax" and fn.__name__ == "set_report":
        assert "intersect1d" in message(fn, *args, backend=backend)  # a run-time size
    else:
        follows_the_rule(fn, *args, backend=backend)


def fill_argument(d):
    np.fill_diagonal(d, 0.0)
    return d.sum()


def shuffle_alias(seed):
    g = np.random.default_rng(seed)
    deck = np.arange(5)
    hand = deck
    g.shuffle(deck)
    return hand


def test_in_place_call_on_an_argument_is_a_clear_error():
    text = message(fill_argument, np.ones((2, 2)))
    assert "np.fill_diagonal(d, 0.0)" in text and "argument" in text


def test_in_place_call_on_an_array_another_name_holds_is_a_clear_error():
    text = message(shuffle_alias, 3)
    assert "`deck`" in text and "hand" in text
