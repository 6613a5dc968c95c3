"""Hunts with the graph-program generator (tests/graph/graph_programs.py): runs many examples
of one hypothesis seed through the oracle of tests/graph/test_generated_graphs.py and counts
the outcomes instead of stopping at the first failure.

    PYTHONPATH=src:. python tools/generator_hunt.py --seed 3 --examples 1500 [--out hunt3.txt]

Prints one line per failing example (its kind and the first line of what is wrong) and then
the counts: ok, eager-raise (the graph raised the eager type), limit (an AutoconvError of a
documented limit, tallied by message), known (a finding recorded in
tests/graph/test_generator_findings.py) and the failures by kind. `--out` writes each failing
program with its inputs, for shrinking by hand. `--path jax` runs the checks of
tests/graph/test_generated_graphs_jax.py instead (`autoconv.function(f, backend="jax")`, floats
up to rounding), `--path jit` those of tests/jax/test_generated.py (`jax.jit(autoconv.convert(f))`
with `jax.numpy`; 32-bit signatures are skipped as there). Not a test: the generated test stops
at the first failure and shrinks it; this looks at the whole spread.
"""

import argparse
import collections
import pathlib
import re
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


def _check_jax(program, args_list, setting, folder, tally=None) -> list:
    """The problems of `program` on the JAX backend, as test_generated_graphs_jax judges."""
    import autoconv
    from tests.graph import test_generated_graphs_jax as jx

    original, path = oracle._load(folder, program.source)
    graph = autoconv.function(original, backend="jax")
    problems = []
    for args in args_list:
        kind, value, printed, after = jx._call(original, args)
        g_kind, g_value, g_printed, g_after = jx._call(graph, args)
        if g_kind == "raise":
            if isinstance(g_value, autoconv.AutoconvError):
                if oracle._located(g_value, path, program.source):
                    limit = oracle.limit_of(g_value)
                    if limit is None and type(g_value).__name__ == "LoweringError":
                        limit = "JAX lowering: " + str(g_value).split(": ", 1)[-1][:100]
                    if limit is None:  # the JAX test lets it through; the hunt shows it
                        what = oracle._describe(g_value)
                        problems.append(f"inputs {args}: undocumented AutoconvError: {what}")
                    elif tally is not None:
                        tally[limit[:150]] += 1
                    continue
                problems.append(
                    f"inputs {args}: AutoconvError without the file and line: {g_value}"
                )
            elif not (kind == "raise" and isinstance(g_value, type(value))):
                eager = f"raised {value!r}" if kind == "raise" else "returned"
                problems.append(
                    f"inputs {args}: graph raised {oracle._describe(g_value)}; eager {eager}"
                )
        elif kind == "raise":
            problems.append(f"inputs {args}: graph returned {g_value!r}; eager raised {value!r}")
        elif not jx.close(value, g_value):
            problems.append(f"inputs {args}: graph returned {g_value!r}, eager {value!r}")
        elif g_printed != printed:
            problems.append(f"inputs {args}: printed {g_printed!r}, eager printed {printed!r}")
        elif not jx.close(after, g_after):
            problems.append(f"inputs {args}: arguments afterwards {g_after!r}, eager {after!r}")
    return problems


def _check_jit(program, args_list, setting, folder, tally=None) -> list:
    """The problems of `program` as `jax.jit(autoconv.convert(f))`, as tests/jax judges."""
    import jax

    from tests.jax import corpus

    jax.config.update("jax_enable_x64", True)  # as tests/jax/conftest.py does
    sig = program.signature
    if "32" in sig.x_dtype + sig.y_dtype + sig.s_dtype:
        if tally is not None:
            tally["skipped: 32-bit signature"] += 1
        return []
    func, path = oracle._load(folder, program.source)
    problems = []
    for args in args_list:
        found, detail = corpus.outcome(func, args, path)
        if found in corpus.CORRECT:
            if tally is not None and found != corpus.SAME:
                tally[f"{found}: {detail}"[:150]] += 1
        else:
            words = "graph returned" if found == corpus.WRONG else "graph raised"
            problems.append(f"inputs {args}: {words} ({found}) {detail}")
    return problems


def _tally_messages():
    """Makes the tally of limits count each message (its first line, files left out) rather
    than each limit's name: which variables and constructs the limits meet."""
    by_name = oracle.limit_of

    def limit_of(e):
        name = by_name(e)
        if name is None:
            return None
        text = re.sub(r"\S*generated_program_\d+\.py:\d+:? ?", "", str(e).split("\n")[0])
        return f"{name}: {text}"[:160]

    oracle.limit_of = limit_of


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--examples", type=int, default=1500)
    parser.add_argument("--out", default=None)
    parser.add_argument("--path", choices=("numpy", "jax", "jit"), default="numpy")
    parser.add_argument(
        "--detail", action="store_true", help="tally the limits by message, not by name"
    )
    parser.add_argument("--ci", action="store_true", help="the examples CI runs (no seed)")
    args = parser.parse_args(argv)
    folder = pathlib.Path(tempfile.mkdtemp(prefix="hunt"))
    if args.detail:
        _tally_messages()
    check = {"numpy": oracle.check, "jax": _check_jax, "jit": _check_jit}[args.path]
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
        problems = check(program, args_list, setting, folder, tally=limits)
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
    which = ("CI's examples" if args.ci else f"seed {args.seed}") + f", path {args.path}"
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
