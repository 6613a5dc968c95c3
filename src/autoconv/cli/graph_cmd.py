"""`autoconv graph MODULE:QUALNAME --spec SPEC...`: trace one function and print its graph."""

import argparse
import inspect

from autoconv.cli import output, specs, targets
from autoconv.cli.files import UsageError


def add_parser(subparsers) -> None:
    """Declares `graph`."""
    parser = subparsers.add_parser(
        "graph",
        help="trace one function for input specs and print its graph",
        description="Traces one function with autoconv.function for the given inputs and prints "
        "the graph as text or as Graphviz DOT.",
    )
    add_target_and_specs(parser)
    parser.add_argument(
        "--format",
        choices=("text", "dot"),
        default="text",
        help="text listing (default) or Graphviz DOT",
    )
    parser.set_defaults(run=run)


def _spec(text: str):
    try:
        return specs.parse(text)
    except UsageError as e:
        raise argparse.ArgumentTypeError(str(e).removeprefix(f"--spec {text!r}: ")) from None


def _check_arity(target: str, func, arguments: list) -> None:
    """Raises `UsageError` unless the specs fit the function's parameters."""
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(*arguments)
    except TypeError as e:
        raise UsageError(
            f"{target}{signature}: {len(arguments)} --spec given ({e}); give one --spec per "
            "parameter"
        ) from None


def run(args: argparse.Namespace) -> int:
    """Traces and prints; returns the exit status."""
    import autoconv

    func = targets.resolve(args.target)
    arguments = [specs.to_argument(s) for s in args.specs]
    _check_arity(args.target, func, arguments)
    func, arguments, self_note = targets.with_instance(args.target, func, arguments)
    try:
        concrete = autoconv.function(func).get_concrete_function(*arguments)
    except Exception as e:
        shown = ", ".join(str(s) if isinstance(s, specs.Spec) else repr(s) for s in args.specs)
        raise targets.TargetError(
            f"tracing {args.target}({shown}) failed{targets.failed_at(e)}: "
            f"{type(e).__name__}: {e}{self_note}"
        ) from e
    graph = concrete.graph
    text = graph.to_dot() if args.format == "dot" else graph.as_text()
    output.write_stdout(text if text.endswith("\n") else text + "\n")
    return 0


def add_target_and_specs(parser) -> None:
    """The `MODULE:QUALNAME` and `--spec` arguments that `graph` and `save` share."""
    parser.add_argument(
        "target",
        metavar="MODULE:QUALNAME",
        help="dotted module name or .py path, a colon, and the function's name",
    )
    parser.add_argument(
        "--spec",
        dest="specs",
        action="extend",
        nargs="+",
        default=[],
        metavar="SPEC",
        type=_spec,
        help="one per parameter: dtype[dims] (float32[10,10], int64[], "
        "float32[None,3]) or a Python literal such as 3",
    )
