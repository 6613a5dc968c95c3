"""Files written atomically: through a temporary next to the target, renamed over it.

`replace_atomic` is how `run -o` and `Function.save` write (and `convert` names its temporaries
the same way): the target holds either its old contents or the whole new ones, never a part. A
temporary is `.NAME.autoconv-PID-RANDOM.tmp` next to its target NAME, where PID is the writing
process. A kill between the write and the rename leaves one behind; `remove_stale` deletes those
of processes that are gone, and only files that match this exact pattern. The name never exceeds
the folder's NAME_MAX: a long NAME is cut and a hash of it keeps names apart.
"""

import hashlib
import os
import re
import secrets

_PATTERN = re.compile(r"^\..+\.autoconv-([0-9]+)-[0-9a-f]{8}\.tmp$")
_DEFAULT_NAME_MAX = 255


def name_for(target: str) -> str:
    """The path of a fresh temporary file for `target`, in the same folder."""
    folder, name = os.path.split(target)
    suffix = f".autoconv-{os.getpid()}-{secrets.token_hex(4)}.tmp"
    limit = _name_max(folder or ".") - len(suffix) - 1  # 1 for the leading dot
    if len(name.encode("utf-8", "surrogateescape")) > limit:
        digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:12]
        keep = max(limit - len(digest) - 1, 1)
        head = name.encode("utf-8", "surrogateescape")[:keep].decode("utf-8", "ignore")
        name = f"{head}~{digest}"
    return os.path.join(folder, f".{name}{suffix}")


def _name_max(folder: str) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        return _DEFAULT_NAME_MAX


def is_temporary(name: str) -> bool:
    """Whether a file name is one of autoconv's temporary names."""
    return _PATTERN.match(name) is not None


def remove_stale(folder: str) -> list:
    """Deletes the temporaries in `folder` left by processes that no longer run; returns their
    paths. Files of live processes, and every other file, are left alone."""
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = _PATTERN.match(entry.name)
        if match is None or _alive(int(match.group(1))):
            continue
        try:
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(entry.path)
        except OSError:
            pass  # another run removed it first, or the folder is read-only: leave it
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # it exists (another user's process) or cannot be asked: keep the file
    return True


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


def replace_atomic(path: str, write, mode: int | None = None, durable: bool = True) -> None:
    """Calls `write(f)` with a binary file open on a temporary next to `path`, gives it `mode`
    (default: the permissions the umask gives a new file) and renames it over `path`; with
    `durable`, flushed and fsynced first, and the rename synced. On any failure (or an
    interrupt) the temporary is removed and `path` is left as it was."""
    temporary, fd = _create_temporary(path)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.chmod(temporary, 0o666 & ~umask() if mode is None else mode)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    if durable:
        _sync_folder(os.path.dirname(path) or ".")


def _create_temporary(path: str) -> tuple:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for attempt in range(3):
        temporary = name_for(path)
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
