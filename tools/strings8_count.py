"""Counts the strings8 programs (tests/graph/strings8_programs.py) that follow the graph-mode
rule on each backend: ok (eager's value, type and printed output), error (an AutoconvError or
other exception where eager returns), wrong (a different value or output).

    PYTHONPATH=src:. .venv/bin/python tools/strings8_count.py [NAME ...]
"""

import contextlib
import io
import sys
import warnings

import autoconv
from tests.graph.strings8_programs import PROGRAMS


def outcome(f, inputs, backend):
    g = autoconv.function(f, backend=backend)
    for args in inputs:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                want = ("return", f(*args))
            except Exception as e:  # noqa: BLE001 - an outcome
                want = ("raise", type(e))
        eager = out.getvalue()
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = ("return", g(*args))
        except Exception as e:  # noqa: BLE001 - an outcome
            got = ("raise", type(e))
            if want[0] == "raise" and got[1] is want[1]:
                continue
            return "error", f"{type(e).__name__}: {str(e)[:300]}"
        if want[0] == "raise":
            return "wrong", f"returned {got[1]!r}, eager raised {want[1].__name__}"
        if type(got[1]) is not type(want[1]) or repr(got[1]) != repr(want[1]):
            return "wrong", f"{got[1]!r} != {want[1]!r}"
        if out.getvalue() != eager:
            return "wrong", f"printed {out.getvalue()!r} != {eager!r}"
    return "ok", ""


def main(names):
    counts: dict = {}
    for f, inputs in PROGRAMS:
        if names and f.__name__ not in names:
            continue
        for backend in ("numpy", "jax"):
            kind, detail = outcome(f, inputs, backend)
            counts[backend, kind] = counts.get((backend, kind), 0) + 1
            if kind != "ok":
                print(f"{f.__name__} [{backend}] {kind}: {detail}")
    print(dict(sorted(counts.items())))


if __name__ == "__main__":
    main(sys.argv[1:])
