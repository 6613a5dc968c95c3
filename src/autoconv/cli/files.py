"""Which files a `convert` run reads and writes, and how it writes them.

`plan` turns the SRC arguments into a `Plan`: the Python files to convert and the other files of
package folders to copy, each with its place under the output folder, checked so that no output
is an input. `read_source` decodes a file as Python does; `write_atomic` replaces a file in one
step, so an interrupted run leaves the old file or the new one, never half of one.
"""

import dataclasses
import errno
import fnmatch
import io
import os
import stat
import tokenize

from autoconv import temporaries
from autoconv.cli import walk

SKIPPED_DIRS = frozenset({"__pycache__"})
"""Folders never converted or copied (caches that Python rebuilds)."""

SKIPPED_SUFFIXES = (".pyc", ".pyo")

MAX_SOURCE_BYTES = 64 * 2**20
"""Larger files are not read: no real module is this big, and `/dev/zero` behind a symlink is
endless."""


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


@dataclasses.dataclass(frozen=True)
class Skipped:
    """An input that is not converted or copied, and why."""

    path: str
    reason: str


@dataclasses.dataclass
class Plan:
    """Everything one `convert` run reads and writes, in a stable order."""

    tasks: list = dataclasses.field(default_factory=list)
    copies: list = dataclasses.field(default_factory=list)
    """(source, target) pairs of non-Python files in package folders."""
    skipped: list = dataclasses.field(default_factory=list)
    """`Skipped` inputs: folders that cannot be read, symlink cycles and loops, FIFOs, devices
    and sockets, files over the size limit. Each makes the run's exit status 1."""


def plan(sources: list, out: str | None, exclude: tuple = ()) -> Plan:
    """Returns the files to convert and to copy for `sources` into the folder `out` (None: to
    standard output), and the inputs it cannot take (`Plan.skipped`). Raises `UsageError` for a
    missing or non-Python SRC, two inputs that would be written to the same place, or an output
    that is an input."""
    if out is not None and os.path.exists(out) and not os.path.isdir(out):
        raise UsageError(f"-o {out}: it is a file; -o names a folder to write into")
    out_real = os.path.realpath(out) if out is not None else None
    result = Plan()
    for src in sources:
        try:
            status = os.stat(src)
        except OSError as e:
            if not os.path.lexists(src):
                raise UsageError(f"{src}: no such file or folder") from None
            result.skipped.append(Skipped(src, unreadable("it", e)))
            continue
        if stat.S_ISDIR(status.st_mode):
            walk.plan_folder(src, out, out_real, exclude, result)
        elif not stat.S_ISREG(status.st_mode):
            if not src.endswith(".py"):
                raise UsageError(
                    f"{src}: not a Python file or folder; name .py files or package folders"
                )
            result.skipped.append(Skipped(src, not_regular(status)))
        elif src.endswith(".py") or _is_python_script(src):
            if status.st_size > MAX_SOURCE_BYTES:
                result.skipped.append(Skipped(src, too_large(status.st_size)))
                continue
            target = os.path.join(out, os.path.basename(src)) if out is not None else None
            result.tasks.append(Task(src, src, target))
        else:
            raise UsageError(
                f"{src}: not a Python file or folder; name .py files or package folders"
            )
    _check_outputs(result)
    return result


def not_regular(status: os.stat_result) -> str:
    """Why a FIFO, device or socket named like a source file is not read."""
    kind = _KINDS.get(stat.S_IFMT(status.st_mode), "not a regular file")
    return f"{kind}, not a regular file; not read (a read could block or never end)"


def too_large(size: int) -> str:
    """Why a file over `MAX_SOURCE_BYTES` is not read."""
    return (
        f"{_size_text(size)} is over the {_size_text(MAX_SOURCE_BYTES)} limit for a source "
        "file; not read (split the module, or --exclude it)"
    )


def _size_text(size: int) -> str:
    return f"{size / 2**20:.1f} MiB" if size >= 2**20 else f"{size} bytes"


def unreadable(what: str, error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return f"{what} is a symlink loop (or a chain of over 40 symlinks); fix or remove the link"
    if error.errno == errno.ENOENT:
        return f"{what} is a symlink to a missing file or folder; fix or remove the link"
    return f"cannot read {what}: {error.strerror or error}; check its permissions"


_KINDS = {
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def _is_python_script(path: str) -> bool:
    """A file without the .py suffix counts as Python when its first line is a python `#!`."""
    try:
        with open(path, "rb") as f:
            first = f.readline(200)
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


def excluded(relative: str, patterns: tuple) -> bool:
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

    Raises `InputError` naming the line when the file cannot be read or decoded, is not a
    regular file, or is over `MAX_SOURCE_BYTES`.
    """
    data = read_bytes(path, MAX_SOURCE_BYTES)
    # detect_encoding reads lines ending in \n; a file with old Mac (\r) line ends is one line
    # to it, so give it the first two lines as Python sees them.
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(_universal_newlines(data)).readline)
    except SyntaxError as e:
        raise InputError(_line_of(e), f"{e.msg}; fix its coding declaration") from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        raise InputError(
            line_at(data, e.start),
            f"cannot decode the file as {encoding} ({e.reason}); save it as UTF-8 or declare "
            "its encoding in a coding comment (PEP 263)",
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_bytes(path: str, limit: int) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them. A FIFO or device is never
    read (opened without blocking, then refused); raises `InputError`."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise InputError(
            1, f"cannot read the file: {e.strerror or e}; check that it exists and is readable"
        ) from None
    with os.fdopen(fd, "rb") as f:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise InputError(1, not_regular(status))
        try:
            data = f.read(limit + 1)
        except OSError as e:
            raise InputError(1, f"cannot read the file: {e.strerror or e}") from None
    if len(data) > limit:
        raise InputError(1, too_large(max(status.st_size, len(data))))
    return data


def _universal_newlines(data: bytes) -> bytes:
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def line_at(data: bytes, offset: int) -> int:
    """The line (from 1) holding byte `offset` of `data`, counting \n, \r\n and \r line ends
    as Python does."""
    return _universal_newlines(data[:offset]).count(b"\n") + 1


def _line_of(error: SyntaxError) -> int:
    return error.lineno or 1


def write_atomic(path: str, data: bytes, mode_from: str | None = None) -> None:
    """Writes `data` to `path` through a temporary file in the same folder and a rename, so
    readers see the old file or the new one, never part of one. With `mode_from`, the new file
    takes that file's permission bits."""
    _replace(path, lambda f: f.write(data), _mode(mode_from))


def copy_atomic(source: str, target: str) -> None:
    """Copies the regular file `source` to `target` like `write_atomic`, in chunks (data files
    may be large)."""
    import shutil

    fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as f:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise OSError(errno.EINVAL, not_regular(status))
        _replace(target, lambda out: shutil.copyfileobj(f, out), status.st_mode & 0o777)


def _replace(path: str, write, mode: int | None) -> None:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    # Not fsynced: a conversion writes many files, and can be run again.
    temporaries.replace_atomic(path, write, mode, durable=False)


def _mode(path: str | None) -> int | None:
    if path is None:
        return None  # replace_atomic gives what the umask gives a new file
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        return None
