"""`autoconv show MODULE:QUALNAME`: the converted source of one function."""

import argparse
import types

from autoconv.cli import output, targets


def add_parser(subparsers) -> None:
    """Declares `show`."""
    parser = subparsers.add_parser(
        "show",
        help="print the converted source of one function",
        description="Prints autoconv.to_code of one function, e.g. "
        "`autoconv show json.decoder:JSONDecoder.raw_decode` or `autoconv show file.py:func`.",
    )
    parser.add_argument(
        "target",
        metavar="MODULE:QUALNAME",
        help="dotted module name or .py path, a colon, and the function's name",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Prints the converted source; returns the exit status."""
    from autoconv import ConversionError, to_code

    func = targets.resolve(args.target)
    if isinstance(func, type):
        raise targets.TargetError(class_message(args.target, func))
    try:
        text = to_code(func)
    except ConversionError as e:
        raise targets.TargetError(f"{args.target}: {e}") from None
    output.write_stdout(text)
    return 0


def class_message(target: str, klass: type) -> str:
    """What to write instead of `show` on a class."""
    methods = [
        name
        for name, value in vars(klass).items()
        if isinstance(value, (types.FunctionType, staticmethod, classmethod, property))
    ]
    example = f"; e.g. autoconv show {target}.{methods[0]}" if methods else ""
    return (
        f"{target} is a class; show works on one function or method at a time{example} "
        "(or convert the whole module with autoconv convert FILE -o OUT)"
    )
