"""Walking a SRC folder for `convert`: the files to convert and to copy, and what is skipped.

Symlinks to folders are followed like folders (a symlinked subpackage is part of the package);
a link that leads back to a folder being walked is a cycle, reported and not followed. Folders
that cannot be read, FIFOs, devices and sockets, and files over the size limit are reported as
skipped, never dropped silently and never opened.
"""

import os
import stat

from autoconv import temporaries
from autoconv.cli import files


def plan_folder(src: str, out: str | None, out_real: str | None, exclude: tuple, result) -> None:
    """Adds the files under the folder `src` to the plan `result`, in sorted order: the files
    of a folder, then its subfolders."""
    root = os.path.normpath(src)
    name = os.path.basename(os.path.abspath(root))
    walker = _Walker(root, name, out, out_real, exclude, result)
    walker.folder(root, "", _above(root))


def _above(root: str) -> dict:
    """{(device, inode): path} of `root` and of every folder that holds it: a link to any of
    them leads back into the walk."""
    found = {}
    path = os.path.realpath(root)
    while True:
        try:
            status = os.stat(path)
        except OSError:
            break
        found.setdefault((status.st_dev, status.st_ino), path)
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    status = os.stat(root)
    found[(status.st_dev, status.st_ino)] = root
    return found


class _Walker:
    def __init__(self, root, name, out, out_real, exclude, result):
        self.root, self.name, self.out, self.out_real = root, name, out, out_real
        self.exclude, self.result = exclude, result

    def folder(self, path: str, inner: str, ancestors: dict) -> None:
        """Plans the folder `path` (`inner` inside the SRC folder); `ancestors` maps the
        (device, inode) of each folder above it, and its own, to their paths."""
        try:
            with os.scandir(path) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as e:
            reason = f"cannot read the folder: {e.strerror or e}; nothing in it was converted"
            self.result.skipped.append(files.Skipped(path, reason))
            return
        folders = []
        for entry in entries:
            relative = os.path.join(inner, entry.name)
            if files.excluded(relative, self.exclude):
                continue
            try:
                status = entry.stat()  # follows symlinks
            except OSError as e:
                self._broken(entry, relative, e)
                continue
            if stat.S_ISDIR(status.st_mode):
                if entry.name not in files.SKIPPED_DIRS:
                    folders.append((entry, relative, status))
            else:
                self._file(entry, relative, status)
        for entry, relative, status in folders:
            if self.out_real is not None and os.path.realpath(entry.path) == self.out_real:
                continue  # the -o folder inside the package: not input
            key = (status.st_dev, status.st_ino)
            if key in ancestors:
                self.result.skipped.append(
                    files.Skipped(
                        entry.path,
                        f"a symlink cycle: it leads back to {ancestors[key]}; not followed",
                    )
                )
                continue
            self.folder(entry.path, relative, {**ancestors, key: entry.path})

    def _target(self, relative: str) -> str | None:
        return os.path.join(self.out, self.name, relative) if self.out is not None else None

    def _file(self, entry, relative: str, status: os.stat_result) -> None:
        python = entry.name.endswith(".py")
        if entry.name.endswith(files.SKIPPED_SUFFIXES) or temporaries.is_temporary(entry.name):
            return  # bytecode, and what a killed run of autoconv left
        if not stat.S_ISREG(status.st_mode):
            self.result.skipped.append(files.Skipped(entry.path, files.not_regular(status)))
        elif python and status.st_size > files.MAX_SOURCE_BYTES:
            self.result.skipped.append(files.Skipped(entry.path, files.too_large(status.st_size)))
        elif python:
            self.result.tasks.append(files.Task(entry.path, entry.path, self._target(relative)))
        elif self.out is not None:
            self.result.copies.append((entry.path, self._target(relative)))

    def _broken(self, entry, relative: str, error: OSError) -> None:
        """A name whose status cannot be read: a dangling or looping symlink, most often."""
        if entry.name.endswith(".py"):
            # Converting it reports the error at the file, with the other files' results.
            self.result.tasks.append(files.Task(entry.path, entry.path, self._target(relative)))
        else:
            self.result.skipped.append(files.Skipped(entry.path, files.unreadable("it", error)))
