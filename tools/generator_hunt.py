"""Hunts with the graph-program generator (tests/graph/graph_programs.py): runs many examples
of one hypothesis seed through the oracle of tests/graph/test_generated_graphs.py and counts
the outcomes instead of stopping at the first failure.

    PYTHONPATH=src:. python tools/generator_hunt.py --seed 3 --examples 1500 [--out hunt3.txt]

Prints one line per failing example (its kind and the first line of what is wrong) and then
the counts: ok, eager-raise (the graph raised the eager type), limit (an AutoconvError of a
documented limit, tallied by message), known (a finding recorded in
tests/graph/test_generator_findings.py) and the failures by kind. `--out` writes each failing
program with its inputs, for shrinking by hand. Not a test: the generated test stops at the
first failure and shrinks it; this looks at the whole spread.
"""

import argparse
import collections
import pathlib
import sys
import tempfile

from hypothesis import HealthCheck, given, seed, settings

from tests.graph import test_generated_graphs as oracle


def _kind(problem: str) -> str:
    if "still running" in problem:
        return "hang"
    if problem.startswith("graph returned") or "printed" in problem[:10]:
        return "WRONG"
    if problem.startswith("arguments afterwards"):
        return "WRONG"
    if problem.startswith(("AutoconvError without", "poor message")):
        return "poor message"
    if problem.startswith("undocumented AutoconvError"):
        return "bad error"
    if problem.startswith("graph raised"):
        return "crash"
    return "other"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--examples", type=int, default=1500)
    parser.add_argument("--out", default=None)
    parser.add_argument("--ci", action="store_true", help="the examples CI runs (no seed)")
    args = parser.parse_args(argv)
    folder = pathlib.Path(tempfile.mkdtemp(prefix="hunt"))
    counts = collections.Counter()
    limits = collections.Counter()
    failures = []

    @(lambda test: test if args.ci else seed(args.seed)(test))
    @settings(
        max_examples=args.examples,
        deadline=None,
        database=None,
        derandomize=args.ci,
        suppress_health_check=list(HealthCheck),
    )
    @given(example=oracle.examples())
    def run(example):
        program, args_list, setting = example
        problems = oracle.check(program, args_list, setting, folder, tally=limits)
        if problems:
            kind = _kind(problems[0].split(": ", 1)[1])
            counts[kind] += 1
            first = problems[0].split("\n")[0][:160]
            print(f"{kind:13} {first}", flush=True)
            failures.append((kind, setting, problems, program.source))
        else:
            counts["passed"] += 1

    run()
    print()
    which = "CI's examples" if args.ci else f"seed {args.seed}"
    print(f"{which}, {args.examples} examples: {dict(counts)}")
    print("errors accepted as documented limits (per call):")
    for message, n in limits.most_common():
        print(f"  {n:5}  {message}")
    if args.out:
        with open(args.out, "w") as f:
            for kind, setting, problems, source in failures:
                f.write(f"### {kind} (pass setting {setting})\n")
                f.write("\n".join(problems) + "\n" + source + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
