"""The NumPy coverage survey (tools/numpy_coverage.py) as a differential test: each NumPy
function, ndarray method and Generator method it lists, called in a staged `if`, returns
eager's value, type, dtype and shape on each backend, or is a stated limit, an AutoconvError
that names the call (docs/graph-mode.md, docs/backends.md)."""

import importlib.util
import pathlib

import pytest

from tests.graph.agreement import BACKENDS

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
# Open: JAX's Cholesky gives NaNs where NumPy raises LinAlgError (not positive definite).
WRONG_JAX = {"linalg.cholesky"}


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
