"""Which files a `convert` run reads and writes, and how it writes them.

`plan` turns the SRC arguments into a `Plan`: the Python files to convert and the other files of
package folders to copy, each with its place under the output folder, checked so that no output
is an input. `read_source` decodes a file as Python does; `write_atomic` replaces a file in one
step, so an interrupted run leaves the old file or the new one, never half of one.
"""

import dataclasses
import fnmatch
import io
import os
import tempfile
import tokenize

SKIPPED_DIRS = frozenset({"__pycache__"})
"""Folders never converted or copied (caches that Python rebuilds)."""

SKIPPED_SUFFIXES = (".pyc", ".pyo")


class UsageError(Exception):
    """The command line cannot be carried out as given (exit status 2)."""


class InputError(Exception):
    """One input cannot be read or converted; the message names its line (exit status 1)."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


@dataclasses.dataclass(frozen=True)
class Task:
    """One Python file to convert: where it is, how to name it, and where its output goes."""

    source: str
    """The path to read."""
    display: str
    """The path as the user named it (SRC joined with the path inside a folder)."""
    target: str | None
    """The path to write, or None with `--stdout`."""


@dataclasses.dataclass
class Plan:
    """Everything one `convert` run reads and writes, in a stable order."""

    tasks: list = dataclasses.field(default_factory=list)
    copies: list = dataclasses.field(default_factory=list)
    """(source, target) pairs of non-Python files in package folders."""


def plan(sources: list, out: str | None, exclude: tuple = ()) -> Plan:
    """Returns the files to convert and to copy for `sources` into the folder `out` (None: to
    standard output). Raises `UsageError` for a missing or non-Python SRC, two inputs that would
    be written to the same place, or an output that is an input."""
    if out is not None and os.path.exists(out) and not os.path.isdir(out):
        raise UsageError(f"-o {out}: it is a file; -o names a folder to write into")
    out_real = os.path.realpath(out) if out is not None else None
    result = Plan()
    for src in sources:
        if not os.path.exists(src):
            raise UsageError(f"{src}: no such file or folder")
        if os.path.isdir(src):
            _plan_folder(src, out, out_real, exclude, result)
        elif src.endswith(".py") or os.path.isfile(src) and _is_python_script(src):
            target = os.path.join(out, os.path.basename(src)) if out is not None else None
            result.tasks.append(Task(src, src, target))
        else:
            raise UsageError(
                f"{src}: not a Python file or folder; name .py files or package folders"
            )
    _check_outputs(result)
    return result


def _is_python_script(path: str) -> bool:
    """A file without the .py suffix counts as Python when its first line is a python `#!`."""
    try:
        with open(path, "rb") as f:
            first = f.readline(200)
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


def _plan_folder(src, out, out_real, exclude, result) -> None:
    root = os.path.normpath(src)
    name = os.path.basename(os.path.abspath(root))
    for dirpath, dirnames, filenames in os.walk(root):
        inner = os.path.relpath(dirpath, root)
        inner = "" if inner == "." else inner
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d not in SKIPPED_DIRS
            and not _excluded(os.path.join(inner, d), exclude)
            and (out_real is None or os.path.realpath(os.path.join(dirpath, d)) != out_real)
        )
        for filename in sorted(filenames):
            relative = os.path.join(inner, filename)
            if filename.endswith(SKIPPED_SUFFIXES) or _excluded(relative, exclude):
                continue
            path = os.path.join(dirpath, filename)
            target = os.path.join(out, name, relative) if out is not None else None
            if filename.endswith(".py"):
                result.tasks.append(Task(path, path, target))
            elif target is not None and os.path.isfile(path):
                result.copies.append((path, target))


def _excluded(relative: str, patterns: tuple) -> bool:
    """A pattern with a `/` matches the path inside the SRC folder; one without, any name."""
    name = os.path.basename(relative)
    for pattern in patterns:
        if "/" in pattern.strip("/"):
            if fnmatch.fnmatchcase(relative, pattern.strip("/")):
                return True
        elif fnmatch.fnmatchcase(name, pattern.strip("/")):
            return True
    return False


def _check_outputs(result: Plan) -> None:
    inputs = {os.path.realpath(t.source): t.display for t in result.tasks}
    inputs.update((os.path.realpath(s), s) for s, _ in result.copies)
    seen = {}
    writes = [(t.display, t.target) for t in result.tasks if t.target is not None]
    writes += result.copies
    for source, target in writes:
        real = os.path.realpath(target)
        if real in inputs:
            raise UsageError(
                f"{target}: refusing to write over the input {inputs[real]}; "
                "choose an -o folder outside the inputs"
            )
        if real in seen:
            raise UsageError(
                f"{seen[real]} and {source} would both be written to {target}; "
                "convert them in separate runs or into separate -o folders"
            )
        seen[real] = source


def read_source(path: str) -> str:
    """The text of a Python source file, decoded as Python decodes it (PEP 263).

    Raises `InputError` naming the line when the file cannot be read or decoded.
    """
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise InputError(
            1, f"cannot read the file: {e.strerror or e}; check that it exists and is readable"
        ) from None
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as e:
        raise InputError(_line_of(e), f"{e.msg}; fix its coding declaration") from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise InputError(
            line,
            f"cannot decode the file as {encoding} ({e.reason}); save it as UTF-8 or declare "
            "its encoding in a coding comment (PEP 263)",
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _line_of(error: SyntaxError) -> int:
    return error.lineno or 1


def write_atomic(path: str, data: bytes, mode_from: str | None = None) -> None:
    """Writes `data` to `path` through a temporary file in the same folder and a rename, so
    readers see the old file or the new one, never part of one. With `mode_from`, the new file
    takes that file's permission bits."""
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    fd, temporary = tempfile.mkstemp(
        dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp"
    )
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        mode = _mode(mode_from)
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def copy_atomic(source: str, target: str) -> None:
    """Copies the file `source` to `target` with `write_atomic`."""
    with open(source, "rb") as f:
        data = f.read()
    write_atomic(target, data, mode_from=source)


def _mode(path: str | None) -> int | None:
    if path is None:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        return None
