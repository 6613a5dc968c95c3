"""Runs the graph corpus (tests/graph_corpus/) and prints outcome counts per class of issue 9.

    python tools/graph_corpus_report.py              # the tables
    python tools/graph_corpus_report.py --failures   # and every failing program, by class
    python tools/graph_corpus_report.py -k search.   # only programs whose id contains "search."
    python tools/graph_corpus_report.py --all-settings  # also every single pass alone / left out

A program counts once in each class it is tagged with, under its worst outcome over its inputs.
Class 9 (pass settings) also gets a row of its own: programs whose outcome with
`optimize=False` differs from their outcome with the default passes.
"""

import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.graph_corpus import CLASSES, programs  # noqa: E402
from tests.graph_corpus.harness import CORRECT, OUTCOMES, run_program, worst  # noqa: E402

SETTINGS = (("default", None), ("noopt", False))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failures", action="store_true", help="list the failing programs")
    parser.add_argument("-k", default="", help="only programs whose id contains this text")
    parser.add_argument(
        "--limits", action="store_true", help="list the known limits (@limit programs) and stop"
    )
    parser.add_argument(
        "--all-settings",
        action="store_true",
        help="also run with each pass setting of tests/graph/conftest.py (class 9)",
    )
    options = parser.parse_args(argv)
    chosen = [p for p in programs() if options.k in p.id]
    if options.limits:
        limited = [p for p in chosen if p.limit]
        print(f"{len(limited)} of {len(chosen)} programs meet a known limit (a clear error):")
        for p in limited:
            print(f"  {p.id} [classes {','.join(map(str, p.classes))}]: {p.limit}")
        return 0
    outcomes = {}  # (program id, setting) -> (outcome, first bad detail)
    for p in chosen:
        for setting, optimize in SETTINGS:
            results = run_program(p, optimize=optimize)
            outcome = worst(results)
            first = next(r for r in results if r.outcome == outcome)
            detail = f"input {first.index}: {first.detail}" if first.detail else ""
            outcomes[p.id, setting] = (outcome, detail)
            print(".", end="", flush=True, file=sys.stderr)
    print(file=sys.stderr)
    cases = sum(len(p.inputs) for p in chosen)
    print(f"{len(chosen)} programs, {cases} inputs, settings: default passes and optimize=False\n")
    for setting, _ in SETTINGS:
        _table(chosen, outcomes, setting)
    differ = [p for p in chosen if outcomes[p.id, "default"][0] != outcomes[p.id, "noopt"][0]]
    print(f"class 9: {len(differ)} programs whose outcome depends on the pass settings")
    for p in differ:
        print(
            f"  {p.id}: default {outcomes[p.id, 'default'][0]}, noopt {outcomes[p.id, 'noopt'][0]}"
        )
    if options.all_settings:
        _all_settings(chosen, outcomes)
    if options.failures:
        _failures(chosen, outcomes)
    failed = sum(o not in CORRECT for o, _ in outcomes.values())
    return 1 if failed else 0


def _table(chosen, outcomes, setting):
    rows = collections.defaultdict(collections.Counter)
    for p in chosen:
        outcome = outcomes[p.id, setting][0]
        for c in p.classes:
            rows[c][outcome] += 1
        rows["all"][outcome] += 1
    print(f"passes: {setting}")
    print("class  " + " ".join(OUTCOMES) + "  total")
    for c in (*CLASSES, "all"):
        counts = rows[c]
        cells = " ".join(f"{counts[o]:>{len(o)}}" for o in OUTCOMES)
        print(f"{c!s:>5}  {cells}  {sum(counts.values()):>5}")
    print()


def _all_settings(chosen, outcomes):
    """Outcome counts under every pass setting of the graph tests, and the programs whose
    outcome differs from the one with the default passes."""
    from autoconv.graph import passes
    from tests.graph.conftest import SETTINGS as PASS_SETTINGS

    print("\nevery pass setting (tests/graph/conftest.py); 'differ' = outcome not as with defaults")
    print(f"{'setting':>16}  " + " ".join(OUTCOMES) + "  differ")
    for name, settings in PASS_SETTINGS:
        counts, differ = collections.Counter(), []
        for p in chosen:
            with passes.options(settings):
                outcome = worst(run_program(p))
            counts[outcome] += 1
            if outcome != outcomes[p.id, "default"][0]:
                differ.append(p.id)
        cells = " ".join(f"{counts[o]:>{len(o)}}" for o in OUTCOMES)
        print(f"{name:>16}  {cells}  {len(differ):>6}  {' '.join(differ)[:400]}")
    print()


def _failures(chosen, outcomes):
    print("\nfailures, grouped by issue class (a program tagged with several shows under each)")
    print("one line per program: its outcome with the default passes and with optimize=False,")
    print("then the first call that gave the worse of the two")
    for c in CLASSES:
        lines = []
        for p in chosen:
            default, noopt = outcomes[p.id, "default"], outcomes[p.id, "noopt"]
            if c not in p.classes or default[0] in CORRECT and noopt[0] in CORRECT:
                continue
            shown = default if default[0] not in CORRECT else noopt
            tags = ",".join(map(str, p.classes))
            lines.append(
                f"  {p.id} [classes {tags}] default={default[0]} noopt={noopt[0]}: {shown[1]}"
            )
        print(f"\nclass {c}: {len(lines)} programs")
        print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
