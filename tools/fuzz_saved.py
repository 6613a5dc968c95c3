"""Fuzzes `autoconv.load` for a long time and prints a table of outcomes by mutator:
accepted, refused (LoadError) and violations of the contract (see tests/saving/fuzz.py).

    python tools/fuzz_saved.py                         # 20000 NumPy cases, 2000 JAX ones
    python tools/fuzz_saved.py --cases 5000 --backend numpy --seed 7
    python tools/fuzz_saved.py --only json_field,json_arith --save-failures /tmp/fuzz-failures

Cases run in worker processes (a hang or a crash kills the worker, is recorded, and a new
one goes on). `AUTOCONV_FUZZ_CASES` sets the default number of cases. With
`--save-failures DIR`, each violating case's file is written there (case<N>.acg, with a
.txt of what it broke) to reproduce it: `autoconv.load("DIR/case<N>.acg")`.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from tests.saving import fuzz  # noqa: E402 - after the repository is on the path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cases", type=int, default=int(os.environ.get("AUTOCONV_FUZZ_CASES", 20000))
    )
    parser.add_argument("--jax-cases", type=int, default=None, help="default: a tenth of --cases")
    parser.add_argument("--backend", choices=["numpy", "jax", "both"], default="both")
    parser.add_argument("--seed", default=os.environ.get("AUTOCONV_FUZZ_SEED", "0"))
    parser.add_argument("--start", type=int, default=0, help="the first case's index")
    parser.add_argument("--only", default=None, help="mutators to draw from, comma-separated")
    parser.add_argument("--save-failures", default=None, metavar="DIR")
    parser.add_argument("--quiet", action="store_true", help="no line per violation")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    unknown = (only or set()) - set(fuzz.MUTATORS)
    if unknown:
        parser.error(f"unknown mutators {sorted(unknown)}; known: {', '.join(fuzz.MUTATORS)}")
    runs = []
    if args.backend in ("numpy", "both"):
        runs.append(("numpy", args.cases))
    if args.backend in ("jax", "both"):
        runs.append(("jax", args.jax_cases if args.jax_cases is not None else args.cases // 10))
    if args.save_failures:
        os.makedirs(args.save_failures, exist_ok=True)
    failed = 0
    for backend, count in runs:
        if not count:
            continue
        start = time.time()
        done = [0]

        def seen(outcome, backend=backend, count=count, done=done):
            done[0] += 1
            if outcome.violations:
                if not args.quiet:
                    print(f"[{backend}] {outcome.summary()[:2000]}", flush=True)
                if args.save_failures:
                    _save(args.save_failures, backend, args.seed, outcome, only)
            if done[0] % 500 == 0:
                print(f"[{backend}] {done[0]}/{count} cases", file=sys.stderr, flush=True)

        outcomes = fuzz.supervise(backend, args.seed, args.start, count, only, on_outcome=seen)
        print(_table(backend, args.seed, outcomes, time.time() - start))
        failed += sum(1 for o in outcomes if o.violations)
    return 1 if failed else 0


def _save(folder, backend, seed, outcome, only):
    case = fuzz.make_case(seed, outcome.index, only)
    stem = os.path.join(folder, f"{backend}-case{outcome.index}")
    if case.data is not None:
        with open(stem + ".acg", "wb") as f:
            f.write(case.data)
    with open(stem + ".txt", "w") as f:
        f.write(f"seed {seed}, backend {backend}\n{outcome.summary()}\n")


def _row(name, c) -> str:
    cases = c["accepted"] + c["refused"] + c["violation"]
    return (
        f"{name:<16}{cases:>8}{c['accepted']:>10}{c['refused']:>11}{c['violation']:>11}"
        f"{c['timeout']:>14}"
    )


def _table(backend, seed, outcomes, seconds) -> str:
    by = collections.defaultdict(collections.Counter)
    kinds = collections.Counter()
    for o in outcomes:
        by[o.mutator][o.status] += 1
        # A call past the time limit: a file's loop may legitimately never end (no violation).
        by[o.mutator]["timeout"] += o.message.startswith("calls:") and "timeout" in o.message
        for v in o.violations:
            kinds[re.sub(r"[0-9]+", "N", v)[:90]] += 1
    header = f"{'mutator':<16}{'cases':>8}{'accepted':>10}{'LoadError':>11}{'violation':>11}"
    header += f"{'call timeout':>14}"
    lines = [
        f"\n{backend}: {len(outcomes)} cases, seed {seed}, {seconds:.0f} s",
        header,
        "-" * len(header),
    ]
    total = collections.Counter()
    for name in sorted(by):
        c = by[name]
        total.update(c)
        lines.append(_row(name, c))
    lines.append("-" * len(header))
    lines.append(_row("all", total))
    if kinds:
        lines.append("\nviolations by kind:")
        lines += [f"{n:>6}  {k}" for k, n in kinds.most_common()]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
