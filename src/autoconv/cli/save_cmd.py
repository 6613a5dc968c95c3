"""`autoconv save MODULE:QUALNAME --spec SPEC... -o FILE`: trace one function and save it.

FILE is checked before the module is imported: its folder must exist, and it must not be the
module's source file (nor, once imported, the file that defines the function), so a slip such
as `save model.py:f -o model.py` cannot replace code with a graph.
"""

import argparse
import inspect
import os
import sys

from autoconv.cli import graph_cmd, outputs, specs, targets


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
    parser.add_argument(
        "-o",
        "--output",
        "--out",
        dest="output",
        required=True,
        metavar="FILE",
        help="file to write",
    )
    parser.set_defaults(run=run)


def _module_file(module_name: str) -> str | None:
    """The source file that `MODULE` names as a path, before anything is imported."""
    if module_name.endswith(".py") or os.sep in module_name or "/" in module_name:
        return module_name
    return None


def _sources(module_name: str, func) -> list:
    """`(path, what)` of the files the target came from, once imported: the module's file and
    the file that defines the function (it may be imported from elsewhere)."""
    found = []
    module = sys.modules.get(module_name)
    path = _module_file(module_name) or getattr(module, "__file__", None)
    if isinstance(path, str):
        found.append((path, f"the source of {module_name}"))
    python = getattr(func, "python_function", func)
    python = getattr(python, "__func__", python)  # a static or class method
    try:
        code = getattr(inspect.unwrap(python), "__code__", None)
    except ValueError:  # a cycle of __wrapped__
        code = None
    if code is not None and os.path.isfile(code.co_filename):
        found.append((code.co_filename, f"{code.co_filename}, the source of the function"))
    return found


def run(args: argparse.Namespace) -> int:
    """Traces and saves; returns the exit status."""
    import autoconv

    module_name, _ = targets.split(args.target)
    outputs.check_target(args.output)
    source = _module_file(module_name)
    if source is not None:
        outputs.refuse_inputs(args.output, [(source, f"the source of {module_name}")])
    func = targets.resolve(args.target)
    outputs.refuse_inputs(args.output, _sources(module_name, func))
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
        raise targets.TargetError(
            f"tracing {args.target} failed{targets.failed_at(e)}: {type(e).__name__}: {e}"
        ) from e
    print(f"saved {args.target} to {args.output}", file=sys.stderr)
    return 0
