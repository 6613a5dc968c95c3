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
