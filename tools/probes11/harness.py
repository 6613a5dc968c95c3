"""The probes of issue 24's round 11 (2026-11-30): everyday programs written without looking at
the fixes, each run eagerly and as `autoconv.function(f, backend=...)` on five inputs (a NaN
and an empty array among them). A program counts as ok when every input gives eager's repr, or
an exception of eager's type (messages may differ).

    PYTHONPATH=src:. python tools/probes11/probe1.py [numpy|jax]
"""

import sys
import warnings

import numpy as np

import autoconv

INPUTS = [
    np.array([1.0, 4.0, 2.0]),
    np.array([3.0, 2.0, 0.0, -1.0]),
    np.array([0.5, 0.5, 5.0]),
    np.array([np.nan, 2.0, 3.0]),
    np.array([]),
]


def outcome(fn, x, backend=None):
    """`(repr of the result, None)` or `(the message, the exception's type)`."""
    try:
        got = fn(x) if backend is None else autoconv.function(fn, backend=backend)(x)
        return repr(got), None
    except Exception as e:  # noqa: BLE001 - an outcome
        return f"raises {type(e).__name__}: {str(e)[:300]}", type(e)


def main(names: dict) -> None:
    """Runs the `p_*` functions of a probe module (`globals()`) and prints the ones not ok."""
    warnings.simplefilter("ignore")
    backend = sys.argv[1] if len(sys.argv) > 1 else "numpy"
    programs = [v for k, v in names.items() if k.startswith("p_")]
    ok = 0
    for f in programs:
        for x in INPUTS:
            (want, eager), (got, graph) = outcome(f, x), outcome(f, x, backend)
            same_type = eager is not None and graph is not None and issubclass(graph, eager)
            if want != got and not same_type:
                print(f.__name__, x, want, "|", got)
                break
        else:
            ok += 1
    print("ok", ok, "of", len(programs))
