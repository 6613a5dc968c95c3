"""`autoconv show MODULE:QUALNAME`: the converted source of one function."""

import argparse
import sys

from autoconv.cli import targets


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
    try:
        text = to_code(func)
    except ConversionError as e:
        raise targets.TargetError(f"{args.target}: {e}") from None
    sys.stdout.write(text)
    return 0
