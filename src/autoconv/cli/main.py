"""The `autoconv` command: argument parsing and dispatch to one module per subcommand.

Exit status: 0 on success, 1 when some input failed (each failure reported as `path:line:
message` on stderr), 2 for a usage error, 130 when interrupted.
"""

import argparse
import os
import sys

from autoconv.cli import convert_cmd, graph_cmd, run_cmd, save_cmd, show_cmd
from autoconv.cli.files import UsageError
from autoconv.cli.targets import TargetError

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def build_parser() -> argparse.ArgumentParser:
    """The parser for `autoconv` and its subcommands."""
    import autoconv

    parser = argparse.ArgumentParser(
        prog="autoconv",
        description="Converts Python control flow into functional form, for files, packages "
        "and single functions, and traces functions into graphs.",
    )
    parser.add_argument("--version", action="version", version=f"autoconv {autoconv.__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    convert_cmd.add_parser(subparsers)
    show_cmd.add_parser(subparsers)
    graph_cmd.add_parser(subparsers)
    save_cmd.add_parser(subparsers)
    run_cmd.add_parser(subparsers)
    return parser


def main(argv: list | None = None) -> int:
    """Runs the command line `argv` (default: `sys.argv[1:]`); returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)  # exits with status 2 on a usage error
    prog = f"autoconv {args.command}"
    try:
        return args.run(args)
    except UsageError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except TargetError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`autoconv convert x.py --stdout | head`): stay quiet, and keep
        # Python from failing again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILED
