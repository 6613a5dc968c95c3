"""Runs the graph corpus (tests/graph_corpus/) three ways and prints one table of outcomes.

    python tools/three_paths.py              # the table
    python tools/three_paths.py --failures   # and every call that is not correct, by path
    python tools/three_paths.py -k search.   # only programs whose id contains "search."
    python tools/three_paths.py --fresh      # the programs of tests/test_three_paths.py instead

The three paths:

- `numpy`: graph mode, `autoconv.function(f)` (tests/graph_corpus/harness.py);
- `jax-backend`: graph mode with the JAX backend, `autoconv.function(f, backend="jax")`
  (the same harness);
- `jit`: `jax.jit(autoconv.convert(f))` with the program's NumPy replaced by `jax.numpy`, on
  the programs `tests.jax.corpus.eligible` admits, with 64-bit types on as tests/jax does
  (tests/jax/corpus.py).

Rows are the outcomes as the two harnesses name them (a `-` where a path has no such outcome;
the jit harness counts any `AutoconvError` naming the user's line as `autoconv-error`, the
graph harness only for programs that expect an error). Each path has two columns: calls
(one per input) and programs (under their worst outcome over their inputs). `not run` counts
what a path leaves out: the programs `eligible` refuses, and the calls after a hang.
The JAX paths are left out (with a note) where `jax` is not installed.
"""

import argparse
import collections
import importlib.util
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.graph_corpus import harness, programs  # noqa: E402

PATHS = ("numpy", "jax-backend", "jit")
NOT_RUN = "not run"
# The jit harness's outcomes, worst first (its own module imports jax, so they are named here).
JIT_OUTCOMES = ("crash", "wrong", "autoconv-error", "jax-design", "same")
JIT_CORRECT = ("same", "autoconv-error", "jax-design")
GRAPH_OUTCOMES = harness.OUTCOMES + (harness.LOWERING,)
ROWS = (
    ("same", "same", "same"),
    ("correct error", harness.CORRECT_ERROR, "autoconv-error"),
    ("", harness.LOWERING, None),
    ("", None, "jax-design"),
    ("wrong", harness.WRONG_VALUE, "wrong"),
    ("", harness.WRONG_TYPE, None),
    ("", harness.MISSING, None),
    ("crash", harness.CRASH, "crash"),
    ("other", harness.UNEXPECTED, None),
    ("", harness.HANG, None),
    ("", NOT_RUN, NOT_RUN),
)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failures", action="store_true", help="list the calls not correct")
    parser.add_argument("-k", default="", help="only programs whose id contains this text")
    parser.add_argument(
        "--fresh", action="store_true", help="run tests/test_three_paths.py's programs instead"
    )
    options = parser.parse_args(argv)
    if options.fresh:
        from tests.test_three_paths import PROGRAMS as pool
    else:
        pool = programs()
    chosen = [p for p in pool if options.k in p.id]
    paths = PATHS if importlib.util.find_spec("jax") else PATHS[:1]
    jit = None
    if "jit" in paths:
        import jax

        from tests.jax import corpus as jit

        jax.config.update("jax_enable_x64", True)
    # (path, program id) -> [(outcome, detail)] per input, None for an input not run
    results = {}
    for p in chosen:
        for path in paths:
            if path == "jit":
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # NumPy's RuntimeWarnings, eagerly
                    calls = jit.run_program(p) if jit.eligible(p) else []
            else:
                backend = "jax" if path == "jax-backend" else "numpy"
                calls = [(r.outcome, r.detail) for r in harness.run_program(p, backend=backend)]
            results[path, p.id] = calls + [None] * (len(p.inputs) - len(calls))
        print(".", end="", flush=True, file=sys.stderr)
    print(file=sys.stderr)
    cases = sum(len(p.inputs) for p in chosen)
    print(f"{len(chosen)} programs, {cases} inputs")
    if len(paths) < len(PATHS):
        print("jax is not installed: the jax-backend and jit paths are left out")
    print()
    _table(chosen, results, paths)
    if options.failures:
        _failures(chosen, results, paths)
    bad = sum(
        1
        for (path, _), calls in results.items()
        for c in calls
        if c is not None and c[0] not in _correct(path)
    )
    return 1 if bad else 0


def _correct(path):
    return JIT_CORRECT if path == "jit" else harness.CORRECT


def _worst(path, calls):
    run = [c[0] for c in calls if c is not None]
    if not run:
        return NOT_RUN
    order = JIT_OUTCOMES if path == "jit" else harness._SEVERITY
    return next(o for o in order if o in run)


def _table(chosen, results, paths):
    per_call = {path: collections.Counter() for path in paths}
    per_program = {path: collections.Counter() for path in paths}
    for p in chosen:
        for path in paths:
            calls = results[path, p.id]
            per_call[path].update(NOT_RUN if c is None else c[0] for c in calls)
            per_program[path][_worst(path, calls)] += 1
    width = 32
    head = "".join(f"{path:>20}" for path in paths)
    sub = "".join(f"{'calls':>11}{'programs':>9}" for _ in paths)
    print(f"{'':<14}{'outcome':<{width}}{head}")
    print(f"{'':<14}{'':<{width}}{sub}")
    for group, graph_name, jit_name in ROWS:
        name = " / ".join(n for n in dict.fromkeys((graph_name, jit_name)) if n)
        cells = ""
        for path in paths:
            key = jit_name if path == "jit" else graph_name
            if key is None:
                cells += f"{'-':>11}{'-':>9}"
            else:
                cells += f"{per_call[path][key]:>11}{per_program[path][key]:>9}"
        print(f"{group:<14}{name:<{width}}{cells}")
    totals = "".join(
        f"{sum(per_call[path].values()):>11}{sum(per_program[path].values()):>9}" for path in paths
    )
    print(f"{'total':<14}{'':<{width}}{totals}")
    correct = ""
    for path in paths:
        ok = _correct(path)
        calls = sum(n for o, n in per_call[path].items() if o in ok)
        progs = sum(n for o, n in per_program[path].items() if o in ok)
        correct += f"{calls:>11}{progs:>9}"
    print(f"{'correct':<14}{'':<{width}}{correct}")


def _failures(chosen, results, paths):
    for path in paths:
        ok = _correct(path)
        lines = []
        for p in chosen:
            for i, c in enumerate(results[path, p.id]):
                if c is not None and c[0] not in ok:
                    lines.append(f"  {p.id} input {i}: {c[0]}: {c[1]}")
        print(f"\n{path}: {len(lines)} calls not correct")
        if lines:
            print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
