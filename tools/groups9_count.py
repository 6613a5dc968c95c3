"""Counts tests/graph/groups9_programs.py's programs by outcome on a backend (groups9):
python tools/groups9_count.py [numpy|jax] [NAME ...]"""

import copy
import sys

import autoconv
from tests.graph.agreement import same
from tests.graph.groups9_programs import PROGRAMS


def outcome(fn, args, backend):
    try:
        want = ("return", fn(*copy.deepcopy(args)))
    except Exception as e:  # noqa: BLE001 - an outcome
        want = ("raise", type(e))
    try:
        got = ("return", autoconv.function(fn, backend=backend)(*copy.deepcopy(args)))
    except autoconv.AutoconvError as e:
        if want[0] == "raise" and isinstance(e, want[1]):
            return "ok", ""
        return "error", str(e).splitlines()[0][:300]
    except Exception as e:  # noqa: BLE001 - an outcome
        if want[0] == "raise" and isinstance(e, want[1]):
            return "ok", ""
        return "crash", f"{type(e).__name__}: {str(e)[:300]}"
    if want[0] == "raise":
        return "wrong", f"eager raised {want[1].__name__}"
    if same(want[1], got[1]):
        return "ok", ""
    return "wrong", f"{want[1]!r} != {got[1]!r}"[:300]


def main():
    backend = sys.argv[1] if len(sys.argv) > 1 else "numpy"
    names = sys.argv[2:] or list(PROGRAMS)
    counts = {}
    for name in names:
        fn, inputs = PROGRAMS[name]
        worst, why = "ok", ""
        for args in inputs:
            o, w = outcome(fn, args, backend)
            if o != "ok":
                worst, why = o, w
                break
        counts[worst] = counts.get(worst, 0) + 1
        print(f"{worst:6} {name}: {why}", flush=True)
    print(backend, counts, f"of {len(names)}")


if __name__ == "__main__":
    main()
