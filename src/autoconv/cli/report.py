"""What a `convert` run says about each file: the summary on stderr and the `--report` JSON.

JSON shape: `{"files": [{"path", "output", "functions", "converted", "left": [{"name", "line",
"reason"}], "error"}], "skipped": [{"path", "reason"}], "totals": {...}}`. `error` is null, or
`{"line", "message"}` for a file that could not be converted; `skipped` lists the inputs never
read (unreadable folders, symlink cycles and loops, FIFOs and devices, files over the size
limit). Functions left as Python include generators and coroutines, which
stay Python by design; their entries have `"generator_or_coroutine": true`.
"""

import dataclasses
import json


@dataclasses.dataclass
class Left:
    """One function left as Python."""

    name: str
    line: int
    reason: str
    generator_or_coroutine: bool = False


@dataclasses.dataclass
class FileResult:
    """The outcome of converting one file."""

    path: str
    output: str | None = None
    functions: int = 0
    converted: int = 0
    left: list = dataclasses.field(default_factory=list)
    error_line: int | None = None
    error: str | None = None
    text: str | None = None
    """The converted source, kept only when it goes to standard output."""

    @property
    def failed(self) -> bool:
        return self.error is not None

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "output": self.output,
            "functions": self.functions,
            "converted": self.converted,
            "left": [dataclasses.asdict(item) for item in self.left],
            "error": None
            if self.error is None
            else {"line": self.error_line, "message": self.error},
        }


def error_line(result: FileResult) -> str:
    """`path:line: message` for a file that could not be converted."""
    return f"{result.path}:{result.error_line}: {result.error}"


def summary_lines(result: FileResult, verbose: bool = False) -> list:
    """The stderr summary of one converted file: counts, then one line per function left.
    Generators and coroutines, which stay Python by design, get one line together unless
    `verbose` (a package can have hundreds; `--report` lists them all)."""
    if result.failed:
        return [error_line(result)]
    lines = [
        f"{result.path}: {result.functions} {_plural(result.functions, 'function')}, "
        f"{result.converted} converted, {len(result.left)} left as Python"
    ]
    by_design = 0
    for item in result.left:
        if item.generator_or_coroutine and not verbose:
            by_design += 1
            continue
        reason = item.reason or "(no reason given)"
        lines.append(f"  {result.path}:{item.line}: {item.name}: left as Python: {reason}")
    if by_design:
        lines.append(
            f"  {result.path}: {by_design} {_plural(by_design, 'generator')} or "
            f"{_plural(by_design, 'coroutine')} left as Python, as they stay by design "
            "(listed with -v and in --report)"
        )
    return lines


def skipped_line(item) -> str:
    """`path: skipped: reason` for an input that was not read."""
    return f"{item.path}: skipped: {item.reason}"


def totals(results: list, skipped: list = ()) -> dict:
    """Counts over all files; `rate` leaves out generators and coroutines, which stay Python by
    design."""
    functions = sum(r.functions for r in results)
    converted = sum(r.converted for r in results)
    by_design = sum(item.generator_or_coroutine for r in results for item in r.left)
    counted = functions - by_design
    return {
        "files": len(results),
        "failed": sum(r.failed for r in results),
        "skipped": len(skipped),
        "functions": functions,
        "converted": converted,
        "left": functions - converted,
        "generators_and_coroutines": by_design,
        "rate": round(converted / counted, 4) if counted else 1.0,
    }


def total_line(results: list, copied: int, skipped: list = ()) -> str:
    """The last line of a run's summary."""
    t = totals(results, skipped)
    text = (
        f"autoconv: {t['files']} {_plural(t['files'], 'file')}, {t['functions']} "
        f"{_plural(t['functions'], 'function')}: {t['converted']} converted, {t['left']} left as "
        f"Python ({t['generators_and_coroutines']} "
        f"{_plural(t['generators_and_coroutines'], 'generator')} or "
        f"{_plural(t['generators_and_coroutines'], 'coroutine')})"
    )
    if copied:
        text += f"; {copied} other {_plural(copied, 'file')} copied"
    if t["failed"]:
        text += f"; {t['failed']} {_plural(t['failed'], 'file')} failed"
    if t["skipped"]:
        text += f"; {t['skipped']} skipped"
    return text


def to_json(results: list, skipped: list = ()) -> str:
    """The `--report` document."""
    document = {
        "files": [r.to_json() for r in results],
        "skipped": [{"path": item.path, "reason": item.reason} for item in skipped],
        "totals": totals(results, skipped),
    }
    return json.dumps(document, indent=1) + "\n"


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"
