"""The files that `save -o` and `run -o` write: checked before anything runs, written in one step.

`check_target` refuses an output whose folder is missing or that names a folder; `refuse_inputs`
refuses an output that is one of the command's inputs (the same file by `os.path.samefile` when
both exist, else by resolved path), so a saved graph, a module's source or an input array is
never replaced by an output. `replace_atomic` writes a file through a temporary in the same
folder (`temporaries.name_for`), flushed and fsynced, then renamed over the target: a failed or
interrupted write leaves the previous file as it was and no temporary behind. The new file's
permissions are `0o666` less the umask, as for a file the user's shell creates.
"""

import os

from autoconv.cli import temporaries
from autoconv.cli.files import UsageError


def check_target(path: str, option: str = "-o") -> None:
    """Raises `UsageError` when `path` cannot be written as a new or replaced file: its folder
    does not exist (or is not a folder), or `path` is a folder."""
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        what = "is not a folder" if os.path.exists(folder) else "does not exist"
        raise UsageError(
            f"{option} {path}: the folder {folder} {what}; create it first or name a file in "
            "an existing folder"
        )
    if os.path.isdir(path):
        raise UsageError(f"{option} {path}: it is a folder; {option} names the file to write")


def same_file(a: str, b: str) -> bool:
    """Whether the paths `a` and `b` name the same file: `os.path.samefile` when both exist
    (hard links, symlinks, `./x` and `x`), else the same resolved path."""
    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)


def refuse_inputs(path: str, inputs: list, option: str = "-o") -> None:
    """Raises `UsageError` when `path` is one of `inputs`, pairs `(input path, what it is)`."""
    for source, what in inputs:
        if source is not None and same_file(path, source):
            raise UsageError(
                f"{option} {path}: refusing to write over {what}; choose another output file"
            )


def umask() -> int:
    """The process's umask. Read from /proc where there is one; elsewhere set and restored at
    once, through a restrictive value (a file another thread creates meanwhile is private, not
    public)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def replace_atomic(path: str, write) -> None:
    """Calls `write(f)` with a binary file open on a temporary next to `path`, flushes and
    fsyncs it, gives it the umask's permissions and renames it over `path`. On any failure
    (or an interrupt) the temporary is removed and `path` is left as it was."""
    temporary, fd = _create_temporary(path)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temporary, 0o666 & ~umask())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    _sync_folder(os.path.dirname(path) or ".")


def _create_temporary(path: str) -> tuple:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for attempt in range(3):
        temporary = temporaries.name_for(path)
        try:
            return temporary, os.open(temporary, flags, 0o600)
        except FileExistsError:
            if attempt == 2:
                raise


def _sync_folder(folder: str) -> None:
    """Makes the rename durable where the system allows it (best effort)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
