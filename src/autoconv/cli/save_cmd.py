"""`autoconv save MODULE:QUALNAME --spec SPEC... -o FILE`: trace one function and save it."""

import argparse
import sys

from autoconv.cli import graph_cmd, specs, targets


def add_parser(subparsers) -> None:
    """Declares `save`."""
    parser = subparsers.add_parser(
        "save",
        help="trace one function for input specs and save the graph to a file",
        description="Traces one function with autoconv.function for the given inputs and "
        "writes the graph to FILE (the format of Function.save), which `autoconv run` and "
        "autoconv.load run without the Python code.",
    )
    graph_cmd.add_target_and_specs(parser)
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="file to write")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Traces and saves; returns the exit status."""
    import autoconv

    func = targets.resolve(args.target)
    if not isinstance(func, autoconv.Function):
        func = autoconv.function(func)
    arguments = [specs.to_argument(s) for s in args.specs]
    graph_cmd._check_arity(args.target, func.python_function, arguments)
    try:
        func.save(args.output, signatures=[tuple(arguments)])
    except autoconv.AutoconvError as e:
        raise targets.TargetError(f"saving {args.target} failed: {e}") from e
    except OSError as e:
        raise targets.TargetError(f"cannot write {args.output}: {e}") from e
    except Exception as e:
        raise targets.TargetError(f"tracing {args.target} failed: {type(e).__name__}: {e}") from e
    print(f"saved {args.target} to {args.output}", file=sys.stderr)
    return 0
