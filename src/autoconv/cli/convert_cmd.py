"""`autoconv convert`: Python files and package folders in, drop-in converted modules out."""

import argparse
import os
import sys
import warnings

from autoconv import temporaries
from autoconv.cli import files, output, report
from autoconv.cli.files import InputError, Task, UsageError


def add_parser(subparsers) -> None:
    """Declares `convert` and its options."""
    parser = subparsers.add_parser(
        "convert",
        help="convert Python files and package folders into drop-in modules",
        description=(
            "Converts every function and method of each module into functional form. A file "
            "SRC/name.py becomes OUT/name.py; a folder SRC/pkg becomes OUT/pkg/, with its layout "
            "and its non-Python files. Inputs are never written over."
        ),
    )
    parser.add_argument("sources", nargs="+", metavar="SRC", help=".py file or package folder")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "-o",
        "--output",
        "--out",
        dest="out",
        metavar="OUT",
        help="folder to write the converted files to",
    )
    where.add_argument(
        "--stdout", action="store_true", help="print the converted source instead of writing files"
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="convert in N processes (0: one per CPU; default 1)",
    )
    parser.add_argument("--report", metavar="PATH", help="write the summary as JSON to PATH")
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="skip files and folders whose name matches GLOB (or, with a '/', "
        "whose path inside a SRC folder matches); repeatable",
    )
    talk = parser.add_mutually_exclusive_group()
    talk.add_argument(
        "-q", "--quiet", action="store_true", help="print only errors and the totals on stderr"
    )
    talk.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="list each generator and coroutine left as Python, not only their number",
    )
    parser.set_defaults(run=run)


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("expected 0 (one per CPU) or more")
    return value or os.cpu_count() or 1


def run(args: argparse.Namespace) -> int:
    """Converts the planned files; returns the exit status (0, or 1 if some input failed or was
    skipped)."""
    plan = files.plan(args.sources, args.out, tuple(args.exclude))
    if not plan.tasks and not plan.copies and not plan.skipped:
        raise UsageError("no Python files found in " + ", ".join(args.sources))
    if args.report is not None:
        _refuse_report_over_input(args.report, plan)
    _remove_stale_temporaries(plan, args.report)
    try:
        results = _convert_all(plan.tasks, args.jobs)
        failed_copies = _copy_all(plan.copies)
    finally:
        _remove_stale_temporaries(plan, args.report)  # those of workers that died mid-write

    if args.stdout:
        several = len(results) > 1
        for result in results:
            if result.text is not None:
                if several:
                    output.write_stdout(f"# autoconv: {result.path}\n")
                output.write_stdout(result.text)
        sys.stdout.flush()
    for result in results:
        lines = report.summary_lines(result, args.verbose)
        if args.quiet:
            lines = lines[:1] if result.failed else []
        for line in lines:
            output.print_stderr(line)
    for item in plan.skipped:
        output.print_stderr(report.skipped_line(item))
    for line in failed_copies:
        output.print_stderr(line)
    output.print_stderr(
        report.total_line(results, len(plan.copies) - len(failed_copies), plan.skipped)
    )
    status = 1 if failed_copies or plan.skipped or any(r.failed for r in results) else 0
    if args.report is not None:
        try:
            files.write_atomic(args.report, report.to_json(results, plan.skipped).encode())
        except OSError as e:
            output.print_stderr(
                f"autoconv convert: cannot write the report {args.report}: {e.strerror or e}; "
                "check that its folder exists and is writable"
            )
            status = 1
    return status


def _remove_stale_temporaries(plan: files.Plan, report_path: str | None) -> None:
    """Deletes the temporaries that killed runs left in the folders this run writes to."""
    targets = [t.target for t in plan.tasks if t.target is not None]
    targets += [target for _, target in plan.copies]
    if report_path is not None:
        targets.append(report_path)
    for folder in sorted({os.path.dirname(t) or "." for t in targets}):
        temporaries.remove_stale(folder)


def _refuse_report_over_input(path: str, plan: files.Plan) -> None:
    real = os.path.realpath(path)
    inputs = [t.source for t in plan.tasks] + [s for s, _ in plan.copies]
    if any(os.path.realpath(p) == real for p in inputs):
        raise UsageError(f"--report {path}: refusing to write over an input; choose another path")


def convert_file(task: Task) -> report.FileResult:
    """Converts one file and writes its output (or keeps its text for `--stdout`)."""
    from autoconv.conversion.modules import convert_module

    result = report.FileResult(task.display, task.target)
    try:
        source = files.read_source(task.source)
        try:
            with warnings.catch_warnings():
                # SyntaxWarnings and DeprecationWarnings about the source itself: Python shows
                # them again when it compiles the converted file.
                warnings.simplefilter("ignore")
                module = convert_module(source, task.source)
        except SyntaxError as e:
            raise InputError(
                e.lineno or 1,
                f"syntax error: {e.msg}; fix it and run again (this file was not converted)",
            ) from None
        except RecursionError:
            raise InputError(
                1,
                "the file nests too deeply to convert (RecursionError); "
                "simplify its deepest expression",
            ) from None
        except Exception as e:  # a converter bug: report it and go on with the other files
            raise InputError(
                1,
                f"internal error while converting: {type(e).__name__}: {e}; please report this "
                "as an autoconv bug (this file was not converted)",
            ) from None
        if task.target is None:
            result.text = module.text
        else:
            try:
                files.write_atomic(task.target, module.text.encode(), mode_from=task.source)
            except OSError as e:
                raise InputError(
                    1,
                    f"cannot write {task.target}: {e.strerror or e}; check that "
                    "the -o folder is writable",
                ) from None
    except InputError as e:
        result.error_line, result.error = e.line, e.message
        return result
    result.functions = len(module.functions)
    result.converted = module.converted
    result.left = [
        report.Left(f.name, f.line, f.reason, f.is_generator_or_coroutine) for f in module.left
    ]
    return result


def _convert_all(tasks: list, jobs: int) -> list:
    """Results in the order of `tasks`, converted in `jobs` processes."""
    progress = _Progress(len(tasks)) if sys.stderr.isatty() and len(tasks) > 1 else None
    results = [None] * len(tasks)
    try:
        if jobs <= 1 or len(tasks) <= 1:
            for i, task in enumerate(tasks):
                results[i] = convert_file(task)
                if progress:
                    progress.step(task.display)
        else:
            _convert_in_processes(tasks, jobs, results, progress)
    finally:
        if progress:
            progress.clear()
    return results


def _convert_in_processes(tasks, jobs, results, progress) -> None:
    from autoconv.cli import workers

    def done(i):
        if progress:
            progress.step(tasks[i].display)

    # Largest first: the long files start early and do not finish last on their own.
    order = sorted(range(len(tasks)), key=lambda i: -_size(tasks[i].source))
    results[:] = workers.convert_all(tasks, order, jobs, convert_file, done)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _copy_all(copies: list) -> list:
    """Copies the non-Python files; returns a `path:line: message` for each that failed."""
    failed = []
    for source, target in copies:
        try:
            files.copy_atomic(source, target)
        except OSError as e:
            failed.append(
                f"{source}:1: cannot copy to {target}: {e.strerror or e}; check that "
                "the file is readable and the -o folder writable"
            )
    return failed


class _Progress:
    """A one-line `[done/total] path` counter on a terminal's stderr."""

    def __init__(self, total: int):
        self.total, self.done = total, 0

    def step(self, path: str) -> None:
        self.done += 1
        text = f"[{self.done}/{self.total}] {path}"
        sys.stderr.write("\r\x1b[K" + text[:200])
        sys.stderr.flush()

    def clear(self) -> None:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()
