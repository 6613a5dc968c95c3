"""A staged `raise` that nothing in the traced function handles still fires when the graph runs
(one a handler catches takes the handler there: test_staged_try.py)."""

import numpy as np
import pytest

import autoconv
from autoconv.errors import StagingError

try:
    import jax  # noqa: F401 - the JAX backend is an optional extra

    BACKENDS = ["numpy", "jax"]
except ImportError:
    BACKENDS = ["numpy"]

X = np.array([0.5, 2.0, -1.0])


def handled_elsewhere(x):
    try:
        if np.any(x < 0):
            raise ValueError("negative")
        r = np.sqrt(x)
    except KeyError:
        r = np.zeros_like(x)
    return r


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_raise_no_handler_catches_still_fires_when_the_graph_runs(backend):
    traced = autoconv.function(handled_elsewhere, backend=backend)
    np.testing.assert_array_equal(traced(np.abs(X)), np.sqrt(np.abs(X)))
    with pytest.raises(ValueError, match="negative"):
        traced(X)
    # The caller's own `try` around the call is outside the graph: it catches the run-time raise.
    try:
        traced(X)
    except ValueError:
        caught = True
    assert caught


def fallback_on_any_error(x):
    try:
        y = np.fft.fft(x).real  # not something a graph can stage
    except Exception:
        y = x
    return y


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_broad_handler_never_hides_an_error_of_tracing(backend):
    """Eagerly the `try` body runs; a graph that silently took the handler would be wrong."""
    with pytest.raises(StagingError, match="fft"):
        autoconv.function(fallback_on_any_error, backend=backend)(X)


def index_error_handled(x):
    try:
        v = x[5]
    except IndexError:
        v = x[0]
    return v


def test_errors_of_an_eager_type_still_reach_the_handler():
    assert autoconv.function(index_error_handled)(X) == X[0]
