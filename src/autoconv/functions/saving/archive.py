"""The file: a zip archive of `manifest.json`, `graph.json` and `arrays/<n>.npy`.

`manifest.json` holds the format name, its version and a SHA-256 checksum over every other
member (name, length and bytes, in name order). The checksum detects damage (a truncated copy,
flipped bits), not tampering: whoever can change a file can recompute it. Arrays are NumPy
`.npy` files, read here by their header and bytes only (never with pickle).

Reading treats the file as hostile until every check has passed, and bounds its memory before
anything is parsed or allocated: only a regular file is opened (never a FIFO or a device,
which could block or never end); the sizes the zip directory declares are checked against
`max_bytes` (and the metadata against small fixed caps) before a member is read; each member
is read at most to its declared size; each array is read once, straight into the array that
the graph will use; the checksum is checked before any JSON is parsed, and the JSON's item
count and nesting depth before it is parsed.

Writing is atomic (`autoconv.temporaries.replace_atomic`): the archive is written to a temporary
file in the target's folder, flushed, given the permissions the umask gives a new file, then
renamed over the target, so `path` holds either the old file or the whole new one.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import math
import os
import re
import stat
import struct
import zipfile
import zlib

import numpy as np

from autoconv import temporaries
from autoconv.functions.saving.errors import LoadError, LoadFileNotFoundError, brief_error
from autoconv.functions.saving.limits import (
    MAX_BYTES,
    MAX_GRAPH,
    MAX_JSON_DEPTH,
    MAX_MANIFEST,
    MAX_MEMBERS,
    MAX_RATIO,
    METADATA_SHARE,
    json_items,
    metadata_budget,
    metadata_cost,
)

MANIFEST = "manifest.json"
GRAPH = "graph.json"
_ARRAY_NAME = re.compile(r"arrays/(0|[1-9][0-9]{0,6})\.npy")

_CHUNK = 1 << 20


def checksum(members: dict) -> str:
    """The manifest's checksum of the members `{name: bytes}` (all but the manifest)."""
    h = hashlib.sha256()
    for name in sorted(members):
        if name != MANIFEST:
            _hash_header(h, name, len(members[name]))
            h.update(members[name])
    return "sha256:" + h.hexdigest()


def _hash_header(h, name: str, size: int) -> None:
    h.update(name.encode() + b"\0" + size.to_bytes(8, "little"))


def npy_bytes(array: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=False)
    return buf.getvalue()


def write(path, document: dict, arrays: list, version: int, fmt: str, key=None) -> None:
    """Writes the archive to `path` atomically; with `key` (bytes), signed."""
    members = {GRAPH: json.dumps(document, allow_nan=False, separators=(",", ":")).encode()}
    for i, array in enumerate(arrays):
        members[f"arrays/{i}.npy"] = npy_bytes(array)
    manifest = {"format": fmt, "version": version, "checksum": checksum(members)}
    if key is not None:
        manifest["signature"] = _signature(key, manifest)
    members[MANIFEST] = json.dumps(manifest, indent=1).encode()
    path = os.fspath(path)
    # A save killed between its write and its rename leaves a temporary: the next save in the
    # folder removes those of processes that are gone.
    temporaries.remove_stale(os.path.dirname(os.path.abspath(path)))

    def write_zip(f):
        with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as z:
            for name in [MANIFEST, GRAPH] + sorted(n for n in members if n.startswith("a")):
                z.writestr(name, members[name])

    temporaries.replace_atomic(path, write_zip)


class Contents:
    """What `read` gives: the parsed `manifest`, the checked `graph.json` bytes (parsed only
    after `verify`), the arrays by member index, and the checksum computed while reading."""

    def __init__(self, manifest: dict, graph: bytes, arrays: dict, digest: str):
        self.manifest = manifest
        self.graph = graph
        self.arrays = arrays
        self.digest = digest


def open_regular(path):
    """A binary file object for `path`, which must name a regular file. Opened without
    blocking, so that a FIFO is refused rather than waited on."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise LoadFileNotFoundError(f"{path}: no such file") from None
    except (OSError, ValueError, TypeError) as e:
        raise LoadError(f"{path}: cannot be opened ({brief_error(e)})") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
            raise LoadError(f"{path}: {kind}; a saved autoconv graph is a regular file")
        f = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    return f


def read(path, max_bytes: int = MAX_BYTES) -> Contents:
    """Reads an archive after checking its names and declared sizes (in all, at most
    `max_bytes`), hashing every member as it is read. Nothing is parsed but the small
    manifest; the arrays' headers are checked and their bytes read into their arrays."""
    with open_regular(path) as f:
        # Larger than any file whose declared contents fit the cap (zipfile would read its
        # directory, which can be most of it, before a member is checked).
        size = os.fstat(f.fileno()).st_size
        if size > max_bytes + max_bytes // 32 + MAX_GRAPH + MAX_MANIFEST + _CHUNK:
            raise LoadError(
                f"{path}: the file is {size} bytes, more than max_bytes={max_bytes} allows"
            )
        _check_member_count(path, f, size)
        try:
            z = zipfile.ZipFile(f)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, OverflowError) as e:
            raise LoadError(
                f"{path}: not a saved autoconv graph (not a readable zip file: {brief_error(e)})"
            ) from None
        with z:
            infos = _checked_directory(path, z, max_bytes)
            try:
                manifest = _parse_manifest(path, _read_member(z, infos[MANIFEST], path))
                graph = _read_member(z, infos[GRAPH], path)
                # What the graph will cost once parsed, checked before any array is made.
                arrays_size = sum(i.file_size for n, i in infos.items() if n.startswith("a"))
                cost = metadata_cost(graph)
                if cost > metadata_budget(max_bytes) or arrays_size + cost > max_bytes:
                    raise LoadError(
                        f"{path}: the graph holds {json_items(graph)} JSON values, ~{cost} bytes "
                        f"to load (with {arrays_size} bytes of arrays), more than max_bytes="
                        f"{max_bytes} allows (the graph at most 1/{METADATA_SHARE} of it); if "
                        "you trust the file, load it with a larger max_bytes"
                    )
                h = hashlib.sha256()
                arrays = {}
                for name in sorted(n for n in infos if n != MANIFEST):
                    info = infos[name]
                    _hash_header(h, name, info.file_size)
                    if name == GRAPH:
                        h.update(graph)
                    else:
                        index = int(_ARRAY_NAME.fullmatch(name).group(1))
                        arrays[index] = _read_array(z, info, h, f"{path}: {name}")
            except (
                zipfile.BadZipFile,
                OSError,
                ValueError,
                EOFError,
                NotImplementedError,
                OverflowError,
                zlib.error,
            ) as e:
                raise LoadError(f"{path}: the archive is damaged ({brief_error(e)})") from None
    return Contents(manifest, graph, arrays, "sha256:" + h.hexdigest())


def _check_member_count(path, f, size: int) -> None:
    """Refuses an archive whose end record declares more than MAX_MEMBERS members, or a
    central directory larger than they need, before `zipfile` reads the directory (it makes an
    object per member). An archive without a readable end record is left to `zipfile`."""
    tail_size = min(size, 22 + 65535)
    f.seek(size - tail_size)
    tail = f.read(tail_size)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or at + 22 > len(tail):
        return
    count, directory = struct.unpack("<HI", tail[at + 10 : at + 16])
    if count == 0xFFFF and at >= 20 and tail[at - 20 : at - 16] == b"PK\x06\x07":
        # ZIP64: the count is in the ZIP64 end record the locator points at.
        (record,) = struct.unpack("<Q", tail[at - 12 : at - 4])
        if record + 56 <= size:
            f.seek(record)
            head = f.read(56)
            if head[:4] == b"PK\x06\x06":
                count, directory = struct.unpack("<QQ", head[32:48])
    if count > MAX_MEMBERS or directory > MAX_MEMBERS * 512:
        raise LoadError(
            f"{path}: the archive declares {count} members in a {directory}-byte directory "
            f"(at most {MAX_MEMBERS} members)"
        )
    f.seek(0)


def _checked_directory(path, z, max_bytes) -> dict:
    """`{name: ZipInfo}` after checking the names, methods and declared sizes."""
    infos = z.infolist()
    if len(infos) > MAX_MEMBERS:
        raise LoadError(f"{path}: the archive has {len(infos)} members (at most {MAX_MEMBERS})")
    by_name: dict = {}
    total = 0
    for info in infos:
        name = info.filename
        if name in by_name:
            raise LoadError(f"{path}: the archive names a member twice")
        if name not in (MANIFEST, GRAPH) and not _ARRAY_NAME.fullmatch(name):
            raise LoadError(f"{path}: unexpected member {name[:80]!a} in the archive")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise LoadError(f"{path}: member {name!r} uses an unsupported compression")
        if info.flag_bits & 0x1:
            raise LoadError(f"{path}: member {name!r} is encrypted")
        limit = {
            MANIFEST: MAX_MANIFEST,
            GRAPH: min(MAX_GRAPH, metadata_budget(max_bytes) // 2),
        }.get(name)
        if info.file_size > (max_bytes if limit is None else limit):
            if limit is None:
                cap = f"max_bytes={max_bytes}"
            elif name == GRAPH and limit < MAX_GRAPH:
                cap = f"max_bytes={max_bytes} allows for {name} ({limit})"
            else:
                cap = f"at most {limit} for {name}"
            raise LoadError(
                f"{path}: member {name!r} declares {info.file_size} bytes, more than {cap}"
            )
        if info.file_size > MAX_RATIO * max(info.compress_size, 1) + _CHUNK:
            raise LoadError(
                f"{path}: member {name!r} declares {info.file_size} bytes from "
                f"{info.compress_size} compressed ones, more than compression can give"
            )
        total += info.file_size
        by_name[name] = info
    if total > max_bytes:
        raise LoadError(
            f"{path}: the file declares {total} bytes of contents, more than max_bytes="
            f"{max_bytes}; if you trust it, load it with a larger max_bytes"
        )
    if MANIFEST not in by_name or GRAPH not in by_name:
        raise LoadError(f"{path}: not a saved autoconv graph (no {MANIFEST} or {GRAPH})")
    return by_name


def _read_member(z, info, path) -> bytes:
    """A small member's bytes, read no further than its declared size."""
    with z.open(info) as f:
        data = f.read(info.file_size + 1)
    if len(data) != info.file_size:
        raise LoadError(f"{path}: member {info.filename!r} has the wrong size")
    return data


def _parse_manifest(path, data: bytes) -> dict:
    manifest = parse_json(data, f"{path}: {MANIFEST}")
    if not isinstance(manifest, dict):
        raise LoadError(f"{path}: {MANIFEST} is not a JSON object")
    return manifest


def signing_key(key, error) -> bytes | None:
    """`key` as bytes (a str is UTF-8), or None; `error` is raised for anything else."""
    if key is None or type(key) is bytes:
        return key
    if type(key) is str:
        return key.encode()
    raise error(f"key={type(key).__name__}: a signing key is bytes or a str")


def _signature(key: bytes, manifest: dict) -> str:
    """HMAC-SHA256 over the format, version and checksum (which covers every other member)."""
    text = json.dumps([manifest.get("format"), manifest.get("version"), manifest.get("checksum")])
    return "hmac-sha256:" + hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


def verify(path, contents: Contents, key: bytes | None = None) -> None:
    """Checks the manifest's checksum against the one computed while reading, and with `key`,
    that the file was signed with it."""
    if key is not None:
        signature = contents.manifest.get("signature")
        if type(signature) is not str or not hmac.compare_digest(
            signature, _signature(key, contents.manifest)
        ):
            raise LoadError(
                f"{path}: the file is not signed with this key"
                + (" (it is not signed at all)" if signature is None else "")
                + ": it was changed after it was saved, or saved with another key"
            )
    expected = contents.manifest.get("checksum")
    if not isinstance(expected, str) or contents.digest != expected:
        raise LoadError(
            f"{path}: the checksum does not match the contents: the file is damaged, or was "
            "changed after it was saved (the checksum detects damage, not tampering: a file "
            "from an untrusted source can carry a matching one)"
        )


def _no_constant(text):
    raise ValueError(f"non-standard JSON constant {text}")


def parse_json(data: bytes, what: str):
    """The JSON value of `data`, after bounding how deeply it nests (a deep recursion); how many
    values it holds was bounded by `read` (see `limits.metadata_cost`)."""
    depth = _json_depth(data)
    if depth > MAX_JSON_DEPTH:
        raise LoadError(f"{what}: JSON nested {depth} deep (at most {MAX_JSON_DEPTH})")
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise LoadError(f"{what}: not valid JSON ({str(e)[:100]})") from None


_JSON_CHUNK = 1 << 18  # bytes scanned at once: the scan's arrays stay a few MB


def _json_depth(data: bytes) -> int:
    """How deeply the arrays and objects of a JSON text nest (brackets inside strings are not
    counted). Linear in the text, NumPy doing the per-byte work a chunk at a time, with what a
    chunk leaves open (a string, a run of backslashes, the depth) carried to the next."""
    depth = deepest = 0
    in_string = 0
    slashes = 0  # the backslashes that end the previous chunk
    for start in range(0, len(data), _JSON_CHUNK):
        b = np.frombuffer(data, np.uint8, min(_JSON_CHUNK, len(data) - start), start)
        quote = b == ord('"')
        inside = None
        if in_string or quote.any():
            slash = b == ord("\\")
            idx = np.arange(len(b), dtype=np.int32)
            last_other = np.maximum.accumulate(np.where(slash, np.int32(-1), idx))
            run = idx - last_other  # backslashes ending at each position (0 where none)
            run[last_other < 0] += slashes  # a run that began in the previous chunk
            before = np.concatenate((np.array([slashes], np.int32), run[:-1]))
            quote &= before % 2 == 0  # a quote after an odd run of backslashes is escaped
            count = np.cumsum(quote, dtype=np.int32) + in_string
            inside = (count % 2 == 1) | quote
            in_string = int(count[-1] % 2)
            slashes = int(run[-1])
        opens = (b == ord("[")) | (b == ord("{"))
        closes = (b == ord("]")) | (b == ord("}"))
        if inside is not None:
            opens &= ~inside
            closes &= ~inside
        if opens.any() or closes.any():
            level = np.cumsum(opens.astype(np.int32) - closes) + depth
            deepest = max(deepest, int(level.max()))
            depth = int(level[-1])
    return deepest


def _npy_header(head: bytes, size: int, what: str) -> tuple:
    """`(shape, fortran, dtype, header length)` of `.npy` bytes starting with `head`, checked: no
    objects, and a body of exactly `size` bytes in all (so a huge shape allocates nothing)."""
    buf = io.BytesIO(head)
    try:
        major, minor = np.lib.format.read_magic(buf)
        if (major, minor) == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(buf)
        elif (major, minor) in ((2, 0), (3, 0)):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(buf)
        else:
            raise ValueError(f"unknown .npy version {major}.{minor}")
    except (ValueError, OSError, SyntaxError, TypeError, EOFError, MemoryError) as e:
        raise LoadError(f"{what}: not a valid .npy array ({brief_error(e)})") from None
    if dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None:
        raise LoadError(f"{what}: arrays of dtype {dtype} are not allowed")
    if type(shape) is not tuple or any(type(d) is not int or d < 0 for d in shape):
        raise LoadError(f"{what}: invalid shape {shape!r:.80}")
    header = buf.tell()
    nbytes = math.prod(shape) * dtype.itemsize
    if header + nbytes != size:
        raise LoadError(
            f"{what}: the header says shape {shape} of {dtype} ({nbytes} bytes) but the "
            f"member holds {size - header}"
        )
    return shape, fortran, dtype, header


def _shaped(flat: np.ndarray, shape: tuple, fortran: bool) -> np.ndarray:
    return flat.reshape(shape[::-1]).T if fortran else flat.reshape(shape)


def read_npy(data: bytes, what: str) -> np.ndarray:
    """The array of `.npy` bytes (checked as a saved file's arrays are), as an own copy."""
    shape, fortran, dtype, header = _npy_header(data[: 10 + 65536], len(data), what)
    flat = np.frombuffer(data, dtype=dtype, count=math.prod(shape), offset=header)
    return _shaped(flat.copy(), shape, fortran)


def _read_array(z, info, h, what: str) -> np.ndarray:
    """The array of a `.npy` member: header checked (no objects, a size matching the
    member's declared size), its bytes read in chunks straight into the new array (held
    once) and hashed on the way."""
    with z.open(info) as f:
        head = f.read(min(info.file_size, 10 + 65536))
        shape, fortran, dtype, header = _npy_header(head, info.file_size, what)
        nbytes = info.file_size - header
        h.update(head[:header])
        array = np.empty(math.prod(shape), dtype)
        view = memoryview(array.view(np.uint8))
        done = len(head) - header
        view[:done] = head[header:]
        while done < nbytes:
            n = f.readinto(view[done : done + _CHUNK])
            if not n:
                raise LoadError(f"{what}: the member ends early")
            done += n
        if f.read(1):
            raise LoadError(f"{what}: the member is longer than declared")
        h.update(view)
    return _shaped(array, shape, fortran)
