"""Random graph-mode programs (tests/graph/graph_programs.py) run with `backend="jax"`: each
agrees with eager NumPy under the rule of graph mode (the same result, floats up to rounding;
or a clear AutoconvError naming the program's line, a LoweringError included)."""

import contextlib
import copy
import io
import os
import warnings

import numpy as np
import pytest

pytest.importorskip("jax")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import autoconv  # noqa: E402
from tests.graph.graph_programs import inputs, programs  # noqa: E402
from tests.graph.test_generated_graphs import _located, _time_limit  # noqa: E402
from tests.test_generated_programs import _load  # noqa: E402

EXAMPLES = int(os.environ.get("AUTOCONV_JAX_EXAMPLES", 60))


def _call(fn, args):
    args = copy.deepcopy(args)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with _time_limit(30):
                return "return", fn(*args), out.getvalue(), args
        except Exception as e:  # noqa: BLE001 - exceptions are outcomes too
            return "raise", e, out.getvalue(), args


def close(a, b) -> bool:
    """Same types, dtypes and shapes all the way down; floats equal up to rounding."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(close(a[k], b[k]) for k in a)
    if isinstance(a, (np.ndarray, np.generic, float, complex)):
        x, y = np.asarray(a), np.asarray(b)
        if x.dtype != y.dtype or x.shape != y.shape:
            return False
        if x.dtype.kind in "fc":
            tol = 1e-9 if x.dtype.itemsize >= 8 else 1e-4
            return bool(np.allclose(x, y, rtol=tol, atol=tol * 1e-3, equal_nan=True))
        return bool(np.array_equal(x, y))
    if hasattr(a, "__dict__") and type(a).__module__ != "builtins":
        return close(vars(a), vars(b))
    return a == b


@st.composite
def examples(draw):
    program = draw(programs())
    return program, [draw(inputs(program.signature)) for _ in range(2)]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("generated_jax")


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(example=examples())
def test_generated_program_on_jax(folder, example):
    program, args_list = example
    original, path = _load(folder, program.source)
    graph = autoconv.function(original, backend="jax")
    for args in args_list:
        kind, value, printed, after = _call(original, args)
        g_kind, g_value, g_printed, g_after = _call(graph, args)
        where = f"inputs {args}\n{program.source}"
        if g_kind == "raise":
            if isinstance(g_value, autoconv.AutoconvError):
                assert _located(g_value, path, program.source), f"{g_value!r}\n{where}"
                continue
            assert kind == "raise" and isinstance(g_value, type(value)), f"{g_value!r}\n{where}"
            continue
        assert kind == "return", f"eager raised {value!r}, graph returned {g_value!r}\n{where}"
        assert close(value, g_value), f"graph {g_value!r}, eager {value!r}\n{where}"
        assert g_printed == printed, where
        assert close(after, g_after), where
