"""The file: a zip archive of `manifest.json`, `graph.json` and `arrays/<n>.npy`.

`manifest.json` holds the format name, its version and a SHA-256 checksum over every other
member (name, length and bytes, in name order). Arrays are NumPy `.npy` files, read here by
their header and bytes only (never with pickle). Writing is atomic: the archive is written to
a temporary file in the target's folder, flushed, then renamed over the target, so `path`
holds either the old file or the whole new one.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import re
import tempfile
import zipfile
import zlib

import numpy as np

from autoconv.graph.saving.errors import LoadError

MANIFEST = "manifest.json"
GRAPH = "graph.json"
_ARRAY_NAME = re.compile(r"arrays/(0|[1-9][0-9]{0,6})\.npy")
MAX_MEMBERS = 100_000
MAX_JSON = 64 << 20  # bytes of graph.json or manifest.json
MAX_TOTAL = 1 << 30  # bytes of all members together, uncompressed


def checksum(members: dict) -> str:
    h = hashlib.sha256()
    for name in sorted(members):
        if name == MANIFEST:
            continue
        data = members[name]
        h.update(name.encode() + b"\0" + len(data).to_bytes(8, "little"))
        h.update(data)
    return "sha256:" + h.hexdigest()


def npy_bytes(array: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=False)
    return buf.getvalue()


def write(path, document: dict, arrays: list, version: int, fmt: str) -> None:
    """Writes the archive to `path` atomically."""
    members = {GRAPH: json.dumps(document, allow_nan=False, separators=(",", ":")).encode()}
    for i, array in enumerate(arrays):
        members[f"arrays/{i}.npy"] = npy_bytes(array)
    manifest = {"format": fmt, "version": version, "checksum": checksum(members)}
    members[MANIFEST] = json.dumps(manifest, indent=1).encode()
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".autoconv-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as z:
                for name in [MANIFEST, GRAPH] + sorted(n for n in members if n.startswith("a")):
                    z.writestr(name, members[name])
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read(path) -> tuple:
    """`(manifest, members)` of an archive, after checking its names, sizes and checksum."""
    try:
        z = zipfile.ZipFile(path)
    except FileNotFoundError:
        raise
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
        raise LoadError(
            f"{path}: not a saved autoconv graph (not a readable zip file: {e})"
        ) from None
    with z:
        infos = z.infolist()
        if len(infos) > MAX_MEMBERS:
            raise LoadError(f"{path}: the archive has {len(infos)} members (at most {MAX_MEMBERS})")
        names = [i.filename for i in infos]
        if len(set(names)) != len(names):
            raise LoadError(f"{path}: the archive names a member twice")
        total = 0
        for info in infos:
            name = info.filename
            if name not in (MANIFEST, GRAPH) and not _ARRAY_NAME.fullmatch(name):
                raise LoadError(f"{path}: unexpected member {name!r} in the archive")
            limit = MAX_JSON if name.endswith(".json") else MAX_TOTAL
            if info.file_size > limit:
                raise LoadError(f"{path}: member {name!r} is too large ({info.file_size} bytes)")
            total += info.file_size
        if total > MAX_TOTAL:
            raise LoadError(f"{path}: the archive holds {total} bytes (at most {MAX_TOTAL})")
        if MANIFEST not in names or GRAPH not in names:
            raise LoadError(f"{path}: not a saved autoconv graph (no {MANIFEST} or {GRAPH})")
        members = {}
        try:
            for info in infos:
                with z.open(info) as f:
                    data = f.read(info.file_size + 1)
                if len(data) != info.file_size:
                    raise LoadError(f"{path}: member {info.filename!r} has the wrong size")
                members[info.filename] = data
        except (
            zipfile.BadZipFile,
            OSError,
            ValueError,
            EOFError,
            NotImplementedError,
            zlib.error,
        ) as e:
            raise LoadError(f"{path}: the archive is damaged ({e})") from None
    manifest = parse_json(members[MANIFEST], f"{path}: {MANIFEST}")
    if not isinstance(manifest, dict):
        raise LoadError(f"{path}: {MANIFEST} is not a JSON object")
    return manifest, members


def verify(path, manifest: dict, members: dict) -> None:
    expected = manifest.get("checksum")
    if not isinstance(expected, str) or checksum(members) != expected:
        raise LoadError(
            f"{path}: the checksum does not match the contents: the file is damaged or was "
            "changed after it was saved"
        )


def _no_constant(text):
    raise ValueError(f"non-standard JSON constant {text}")


def parse_json(data: bytes, what: str):
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise LoadError(f"{what}: not valid JSON ({str(e)[:100]})") from None


def read_npy(data: bytes, what: str) -> np.ndarray:
    """The array of `.npy` bytes: header checked, dtype without objects, size matching the
    bytes present (a header claiming a huge shape allocates nothing)."""
    buf = io.BytesIO(data)
    try:
        major, minor = np.lib.format.read_magic(buf)
        if (major, minor) == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(buf)
        elif (major, minor) in ((2, 0), (3, 0)):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(buf)
        else:
            raise ValueError(f"unknown .npy version {major}.{minor}")
    except (ValueError, OSError, SyntaxError, TypeError, EOFError) as e:
        raise LoadError(f"{what}: not a valid .npy array ({str(e)[:100]})") from None
    if dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None:
        raise LoadError(f"{what}: arrays of dtype {dtype} are not allowed")
    if any(type(d) is not int or d < 0 for d in shape):
        raise LoadError(f"{what}: invalid shape {shape}")
    body = data[buf.tell() :]
    count = math.prod(shape)
    if count * dtype.itemsize != len(body):
        raise LoadError(
            f"{what}: the header says shape {shape} of {dtype} ({count * dtype.itemsize} bytes) "
            f"but {len(body)} bytes follow"
        )
    flat = np.frombuffer(body, dtype=dtype, count=count)
    array = flat.reshape(shape[::-1]).T if fortran else flat.reshape(shape)
    return np.array(array)  # an own, writeable copy
