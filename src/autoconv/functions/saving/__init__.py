"""Saving traced graphs to a file of data (never code) and running them without the source.

`save(path, entries, ...)` writes a zip archive (`archive.py`) holding a JSON description of
the optimized graphs (`encode.py`) and `.npy` arrays; `load(path)` checks all of it
(`decode.py`) before it builds the graphs again and returns a `LoadedFunction` (`loaded.py`).
Only the operations of a closed table (`table.py`) can appear in a file.
"""

from autoconv.functions.saving.errors import LoadError, SaveError
from autoconv.functions.saving.limits import MAX_BYTES

__all__ = ["LoadError", "SaveError", "load"]


def load(
    path,
    *,
    backend: str = "numpy",
    device=None,
    keep_on_device: bool = False,
    max_bytes: int = MAX_BYTES,
    key: bytes | str | None = None,
):
    """Returns a callable that runs the graphs saved at `path` (see `LoadedFunction`), with
    NumPy or, with `backend="jax"`, compiled by XLA (`device`, `keep_on_device` as for
    `autoconv.function`). A file declaring more than `max_bytes` of contents is refused
    before anything is allocated; with `key`, one not signed with it (`Function.save(...,
    key=...)`) is refused; every failure is a `LoadError`."""
    from autoconv.functions.saving.loaded import load as _load

    return _load(
        path,
        backend=backend,
        device=device,
        keep_on_device=keep_on_device,
        max_bytes=max_bytes,
        key=key,
    )
