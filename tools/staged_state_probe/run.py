"""Held-out programs for issue 24's staged-state classes (item 2: state changed by called
functions; item 7: lists in nested staged blocks; item 8a: optionals from different sources;
item 5: try/except around a staged raise), each run against eager on the NumPy backend, the
NumPy backend with `optimize=False` and the JAX backend by the graph corpus harness.

    python tools/staged_state_probe/run.py        # failing programs, then counts per class
    python tools/staged_state_probe/run.py -v     # every program
    python tools/staged_state_probe/run.py NAME   # only the named programs

Every program is marked `expect="error"`: a clear AutoconvError naming the user's file:line
counts as `correct-error`; the eager answer as `same`. Keep these programs out of the tests so
that they stay unseen by the fixes they measure.
"""

import collections
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)

import programs as pp  # noqa: E402

from tests.graph_corpus import Program  # noqa: E402
from tests.graph_corpus.harness import run_program, summary, worst  # noqa: E402

SETTINGS = (("numpy", None), ("numpy-noopt", False), ("jax", None))


def main(argv):
    warnings.simplefilter("ignore")
    verbose = "-v" in argv
    only = [a for a in argv if not a.startswith("-")]
    counts = collections.Counter()
    for f, inputs, cls, bind in pp.P:
        if only and f.__name__ not in only:
            continue
        program = Program(f, inputs, (cls,), "probe", f.__name__, "error", None, bind, "")
        for label, optimize in SETTINGS:
            backend = label.partition("-")[0]
            results = run_program(program, optimize=optimize, backend=backend)
            outcome = worst(results)
            counts[(cls, label, outcome)] += 1
            if verbose or outcome != "same":
                print(cls, f.__name__, label, outcome, summary(results)[:300])
    for key in sorted(counts):
        print(*key, counts[key])


if __name__ == "__main__":
    main(sys.argv[1:])
