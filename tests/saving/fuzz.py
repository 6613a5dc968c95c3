"""A fuzzer for `autoconv.load`: damaged and hostile saved files, and what loading them may do.

A library, not a test module (pytest collects only `test_*.py`): `tests/saving/test_fuzz.py`
runs it briefly with a fixed seed, `tools/fuzz_saved.py` runs it long and prints a table.

Pieces:

- `build_corpus()`: valid saved files of small functions covering what a file can hold
  (control flow, loops, prints, Variables, optionals, namedtuple and dict outputs, lists grown
  in loops, random draws, raises in a branch, write-backs into arguments), each with example
  arguments that run it.
- `MUTATORS`: each makes a damaged or hostile file from a corpus file (`make_case`): byte flips,
  truncation, zip-level corruption, JSON fields replaced one at a time by injection strings
  (`INJECTIONS`: line breaks CPython's tokenizer sees, quotes, comment and bracket characters,
  huge and non-identifier names, odd numbers, raw JSON), table-name swaps, structural edits,
  nesting bombs, npy headers and zip directories claiming huge sizes, many members, and special
  paths (a FIFO, /dev/zero, a folder, symlinks to them). For JSON edits the manifest's checksum
  is recomputed (so that the validator is tested, not the checksum), except in a few cases.
- `Audit`: an audit hook (installed once per process: `sys.addaudithook` cannot be removed)
  recording, while active, what a load or a call must never do (see `Audit._check` for the
  events and the precise allowances).
- `token_problems(source)`: the token grammar of generated code.
- `Runner.run_case(case)`: loads the case, calls an accepted file with the corpus example's
  arguments, and returns an `Outcome` listing every violation of the contract:
  load raises only LoadError and ends; no audit violation; the generated code of an accepted
  file passes the token grammar; the load's peak traced memory is at most
  `declared + ALLOWANCE` (`declared_size`: the members' sizes, arrays once, and the parsed
  graph's cost); calls raise
  no internal error (`internal_error`); the process's global RNGs are untouched; no path named
  by a node origin is opened.
- `supervise(...)`: runs cases in a worker subprocess (`python -m tests.saving.fuzz --worker`),
  killing and restarting it when a case hangs or crashes the interpreter (used for JAX, whose
  compiler cannot be interrupted by a signal, and by the long runs).
"""

from __future__ import annotations

import ast
import builtins
import collections
import contextlib
import dataclasses
import io
import json
import keyword
import os
import random
import re
import select
import site
import struct
import subprocess
import symtable
import sys
import tempfile
import time
import tokenize
import tracemalloc
import warnings
import zipfile
import zlib

import numpy as np

import autoconv
from autoconv.errors import AutoconvError
from autoconv.functions.saving import LoadError, archive, limits, table
from tests.differential import TimedOut, time_limit

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGE = os.path.dirname(os.path.abspath(autoconv.__file__))  # src/autoconv
MARKER = "AUTOCONV_FUZZ_MARKER"  # what the injected code would create
ALLOWANCE = 16 << 20  # bytes a load may use beyond what the file declares (`declared_size`)
LOAD_LIMIT = 20.0  # seconds a load may take before it counts as a hang
CALL_LIMIT = 5.0  # seconds a call may take: a file's loop may legitimately never end
RESULT = "@@autoconv-fuzz@@ "  # the worker's result lines (a loaded graph may print too)


# --- the corpus ---------------------------------------------------------------------------------

Pair = collections.namedtuple("Pair", ["lo", "hi"])


def _corpus_functions(state):
    """The functions of the corpus, with example arguments (made anew in each process)."""

    def control(x, n=3):
        i = 0
        y = x
        while i < n:
            if np.max(y) > 2.0:
                y = y * 0.5
            else:
                y = y + 1.0
            i += 1
        autoconv.print("control", y, i)
        state.assign_add(y)
        return {"y": y, "i": i, "nan": np.nan}

    def optional(x):
        y = None
        if np.sum(x) > 0:
            y = x / np.sum(x)
        return y

    def unbound(x):
        if np.sum(x) > 0:
            z = x * 2.0
        return z  # noqa: F821 - set on one path only: an Optional with a missing name

    def first_over(x, limit):
        for v in x:
            if v > limit:
                return v
        return -1

    def named(x):
        if np.any(x < 0):
            raise ValueError(f"negative input, min {np.min(x)}")
        if np.max(x) > 1e6:
            raise OverflowError("too big")
        return Pair(np.min(x), np.max(x))

    def grown(x):
        out = []
        k = 0
        while k < x.shape[0]:
            out.append(x[k] * k)
            k += 1
        return np.stack(out), [x, x + 1]

    def draws(x):
        rng = np.random.default_rng(3)
        noise = np.random.normal(size=3) + random.random()
        return x + noise + rng.uniform(size=3), np.random.randint(0, 5, size=2)

    def text(x, label="s"):
        autoconv.print(label, x, sep="|", end="!\n")
        autoconv.print(f"max={np.max(x)}")
        return {"label": label, "sum": np.sum(x), ("k", 1): x[::-1]}

    def writeback(d):
        d["k"] = d["x"] + 1.0
        return d["x"] * 2.0

    def pick(x, i):
        return x[i] * 2.0  # an index out of range fails at run time, naming the origin

    def matrix(a, b):
        c = a @ b.T
        d = c.reshape(-1)[1:3].astype(np.float32)
        e = np.add.reduce(a, axis=0) + np.linalg.norm(b)
        a2 = a.copy()
        a2[0, 1] = 7.0
        return d, e[..., None], a2[0, ::2], np.transpose(a).shape, np.int32(3)

    x = np.array([1.0, 2.0, 3.0])
    a = np.arange(6.0).reshape(2, 3)
    deep = _deep_function()
    return [
        (control, [(x,), (x, 5)]),
        (optional, [(x,), (-x,)]),
        (unbound, [(x,), (-x,)]),
        (first_over, [(x, 1.5), (x, 9.0)]),
        (named, [(x,), (-x,)]),
        (grown, [(x,)]),
        (draws, [(x,)]),
        (text, [(x,), (x, "t")]),
        (writeback, [({"x": x},)]),
        (matrix, [(a, a)]),
        (pick, [(x, np.int64(1)), (x, np.int64(7))]),
        (deep, [(x,), (-x,)]),
    ]


DEEP = 42  # staged ifs nested past the backends' 40 levels: blocks written as functions apart


def _deep_function():
    """`deep(x)`, with DEEP nested staged ifs and a loop inside (written to a module file:
    autoconv reads a function's source)."""
    lines = ["import numpy as np", "", "", "def deep(x):", "    y = x"]
    for level in range(DEEP):
        pad = "    " * (level + 1)
        lines += [f"{pad}if np.sum(y) > {level - DEEP}:", f"{pad}    y = y + 1.0"]
    pad = "    " * (DEEP + 1)
    lines += [f"{pad}while np.max(y) > 0:", f"{pad}    y = y - 50.0", "    return y", ""]
    folder = tempfile.mkdtemp(prefix="autoconv-fuzz-deep-")
    path = os.path.join(folder, "autoconv_fuzz_deep.py")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    import importlib.util

    spec = importlib.util.spec_from_file_location("autoconv_fuzz_deep", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.deep


@dataclasses.dataclass
class Entry:
    """A valid saved file of the corpus: its bytes, members and graph.json document, and the
    argument tuples that a call of the loaded function is tried with."""

    name: str
    data: bytes
    members: dict
    document: dict
    examples: list


_CORPUS: list = []


def build_corpus() -> list:
    """The valid files (made once per process, in a temporary folder)."""
    if _CORPUS:
        return _CORPUS
    state = autoconv.Variable(np.zeros(3), name="state")
    folder = tempfile.mkdtemp(prefix="autoconv-fuzz-corpus-")
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        for fn, examples in _corpus_functions(state):
            f = autoconv.function(fn)
            for args in examples:
                with contextlib.suppress(Exception):  # some examples raise, as they should
                    f(*_fresh(args))
            path = os.path.join(folder, fn.__name__ + ".acg")
            f.save(path)
            with open(path, "rb") as file:
                data = file.read()
            members = read_members(data)
            document = json.loads(members["graph.json"])
            _CORPUS.append(Entry(fn.__name__, data, members, document, examples))
    return _CORPUS


def _fresh(args):
    """Copies of example arguments (a call may store into a dict argument or an array)."""

    def copy(a):
        if isinstance(a, dict):
            return {k: copy(v) for k, v in a.items()}
        return a.copy() if isinstance(a, np.ndarray) else a

    return tuple(copy(a) for a in args)


# --- archives -----------------------------------------------------------------------------------


def read_members(data: bytes) -> dict:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n) for n in z.namelist()}


def build(members: dict, fix_checksum: bool = True, method=zipfile.ZIP_DEFLATED) -> bytes:
    """An archive of `members`; with `fix_checksum`, its manifest's checksum matches them
    (when the manifest is still a JSON object)."""
    if fix_checksum and "manifest.json" in members:
        try:
            manifest = json.loads(members["manifest.json"])
        except ValueError:
            manifest = None
        if isinstance(manifest, dict):
            manifest["checksum"] = archive.checksum(members)
            members = {**members, "manifest.json": json.dumps(manifest).encode()}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def build_raw(members: dict, fix_checksum: bool = True) -> bytes:
    """As `build`, but written by `raw_zip` (names kept exactly: zipfile cuts them at a NUL)."""
    if fix_checksum and "manifest.json" in members:
        with contextlib.suppress(ValueError):
            manifest = json.loads(members["manifest.json"])
            if isinstance(manifest, dict):
                manifest["checksum"] = archive.checksum(members)
                members = {**members, "manifest.json": json.dumps(manifest).encode()}
    return raw_zip([{"name": n, "data": d} for n, d in members.items()])


def raw_zip(entries) -> bytes:
    """A zip archive written field by field, so that it can claim anything: `entries` are
    dicts with `name` (bytes or str), `data` (the stored bytes), and optional `method`,
    `crc`, `usize` (the claimed uncompressed size), `csize`, `flags`, `extra`."""
    out = bytearray()
    central = bytearray()
    for e in entries:
        name = e["name"].encode() if isinstance(e["name"], str) else e["name"]
        data = e["data"]
        method = e.get("method", 0)
        crc = e.get("crc", zlib.crc32(data))
        csize = e.get("csize", len(data))
        usize = e.get("usize", len(data))
        flags = e.get("flags", 0)
        extra = e.get("extra", b"")
        offset = len(out)
        out += struct.pack(
            "<IHHHHHIIIHH", 0x04034B50, 20, flags, method, 0, 0x21, crc, csize, usize, len(name),
            len(extra),
        )  # fmt: skip
        out += name + extra + data
        central += struct.pack(
            "<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, flags, method, 0, 0x21, crc, csize, usize,
            len(name), len(extra), 0, 0, 0, 0, offset,
        )  # fmt: skip
        central += name + extra
    start = len(out)
    out += central
    n = len(entries)
    if n > 0xFFFF:  # a ZIP64 end record and its locator carry the count
        end64 = len(out)
        out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, n, n, len(central), start)
        out += struct.pack("<IIQI", 0x07064B50, 0, end64, 1)
        n = 0xFFFF
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, len(central), start, 0)
    return bytes(out)


def zeros_deflated(size: int) -> tuple:
    """`(raw deflate stream, crc32)` of `size` zero bytes (a multiple of 1 MiB), made without
    compressing them all: one fully flushed block of 1 MiB of zeros, repeated."""
    chunk = 1 << 20
    assert size % chunk == 0
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = c.compress(b"\0" * chunk) + c.flush(zlib.Z_FULL_FLUSH)
    end = zlib.compressobj(9, zlib.DEFLATED, -15).flush(zlib.Z_FINISH)
    crc = 0
    zero = b"\0" * chunk
    for _ in range(size // chunk):
        crc = zlib.crc32(zero, crc)
    return block * (size // chunk) + end, crc


def npy_header(descr, shape, fortran=False, version=(1, 0)) -> bytes:
    """A `.npy` header as NumPy writes it (padded), with any `descr` and `shape` text."""
    text = f"{{'descr': {descr}, 'fortran_order': {fortran}, 'shape': {shape}, }}"
    pre = 10 if version == (1, 0) else 12
    pad = 64 - (pre + len(text) + 1) % 64
    body = (text + " " * pad + "\n").encode("latin1")
    size = struct.pack("<H", len(body)) if version == (1, 0) else struct.pack("<I", len(body))
    return b"\x93NUMPY" + bytes(version) + size + body


# --- injections ---------------------------------------------------------------------------------

PAYLOAD = f"\rx=open('{MARKER}','w'),*,z=0,#"


class Raw(str):
    """JSON text put in a document as it is (numbers json.dumps cannot write, lone
    surrogates, non-standard constants)."""


BREAKS = ["\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\u2028", "\u2029", "\x85", "\x00", "\n"]
INJECTIONS = [
    PAYLOAD,
    *BREAKS,
    *(f"a{b}open('{MARKER}','w')#" for b in BREAKS),
    f"x'),open('{MARKER}','w'),('",
    f'x")\nopen("{MARKER}","w")\n#',
    f"x' # \\\nopen('{MARKER}','w')",
    "'",
    '"',
    "'''",
    '"""',
    "\\",
    "\\'",
    "#",
    ")",
    "(",
    "]",
    "}",
    ":",
    "\r\n",
    "\t",
    "\x7f",
    "\u200b",
    "\ufeff",
    "\ue000",
    "\ud800",
    "x" * 100_000,
    "é" * 3000,
    "a" * 300,
    "",
    " ",
    "1abc",
    "a-b",
    "a b",
    "é",
    "\u210c",  # ℌ: an identifier that NFKC makes "H"
    "\ufb01le",  # ﬁle: an identifier that NFKC makes "file"
    "\uff58",  # ｘ: fullwidth x
    "class",
    "None",
    "True",
    "__import__",
    "__builtins__",
    "__class__",
    "_",
    "v0",
    "run",
    "make_run",
    "var",
    "np",
    "print",
    "{}",
    "%s",
    "{0.__class__}",
    "-1",
    "0",
    "99999999999",
    "1e308",
    "nan",
    "-inf",
    "0x10",
    "1_000",
    "\u0661\u0662",  # Arabic-Indic digits: int() reads them
    "numpy.load",
    "numpy.save",
    "numpy.fromfile",
    "numpy.empty",
    "numpy.random.seed",
    "random.seed",
    "builtins.eval",
    "eval",
    "exec",
    "open",
    "os.system",
    "autoconv.raise",
    "O",
    "V8",
    "<U1000000",
    "|S0",
    "M8[as]",
    "<f8",
    -1,
    0,
    1,
    2,
    3,
    7,
    2**31,
    2**31 - 1,
    2**48 + 1,
    2**63,
    -(2**63),
    10**40,
    1.5,
    -0.0,
    1e308,
    True,
    False,
    None,
    [],
    {},
    ["t", 0],
    ["t", 1],
    ["none"],
    ["fn", "builtins.eval"],
    ["str", PAYLOAD],
    ["int", "1" * 5000],
    [[[[[]]]]],
    {"a": 1},
    list(range(1000)),
    Raw("1" + "0" * 5000),
    Raw("1e999"),
    Raw("-1e999"),
    Raw("NaN"),
    Raw("Infinity"),
    Raw("-0"),
    Raw('"\\ud800"'),
    Raw('"\\udfff\\ud800x"'),
]


# --- JSON editing ---------------------------------------------------------------------------------


def scalar_slots(doc) -> list:
    """`(parent, key)` of every string, number, bool and null of a JSON document."""
    return _slots(doc, containers=False)


def container_slots(doc) -> list:
    """`(parent, key)` of every list and object below the top."""
    return _slots(doc, containers=True)


def _slots(doc, containers: bool) -> list:
    out = []
    stack = [doc]
    while stack:
        v = stack.pop()
        items = v.items() if isinstance(v, dict) else enumerate(v)
        for k, x in items:
            nested = isinstance(x, (dict, list))
            if nested:
                stack.append(x)
            if nested == containers:
                out.append((v, k))
    return out


def dumps(doc) -> bytes:
    """`doc` as JSON, with `Raw` strings put in as they are."""
    raws = {}

    def swap(v):
        if isinstance(v, Raw):
            key = f"\ue123{len(raws)}\ue123"
            raws[key] = str(v)
            return key
        if isinstance(v, dict):
            return {swap(k) if isinstance(k, Raw) else k: swap(x) for k, x in v.items()}
        if isinstance(v, list):
            return [swap(x) for x in v]
        return v

    text = json.dumps(swap(doc), ensure_ascii=False)
    for key, raw in raws.items():
        text = text.replace(json.dumps(key, ensure_ascii=False), raw)
    return text.encode("utf-8", "surrogatepass")


def _describe(value) -> str:
    text = repr(value)
    return ascii(text[:60] + ("..." if len(text) > 60 else ""))


def _path_of(doc, parent, key) -> str:
    """A short JSON path to `parent[key]` (for reports)."""
    found = []

    def walk(v, path):
        if v is parent:
            found.append(f"{path}[{key!r}]")
            return True
        items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ()
        for k, x in items:
            if isinstance(x, (dict, list)) and walk(x, f"{path}[{k!r}]"):
                return True
        return False

    walk(doc, "")
    text = found[0] if found else f"?[{key!r}]"
    return text if len(text) <= 160 else "..." + text[-157:]


# --- cases and mutators ---------------------------------------------------------------------------


@dataclasses.dataclass
class Case:
    index: int
    mutator: str
    entry: str
    detail: str
    data: bytes | None = None
    special: str | None = None  # a special path to load instead of data


def _graph_case(rng, entry, change, fix=True, where="graph.json"):
    members = dict(entry.members)
    doc = json.loads(members[where])
    detail = change(doc)
    members[where] = dumps(doc)
    return build(members, fix_checksum=fix), detail


def m_flip(rng, entry):
    data = bytearray(entry.data)
    n = rng.choice([1, 1, 2, 4, 16])
    spots = []
    for _ in range(n):
        i = rng.randrange(len(data))
        data[i] ^= rng.randrange(1, 256)
        spots.append(i)
    return bytes(data), f"flipped bytes at {spots[:4]}"


def m_truncate(rng, entry):
    data = entry.data
    cut = rng.randrange(len(data))
    if rng.random() < 0.5:
        return data[:cut], f"cut at {cut}"
    end = min(len(data), cut + rng.randrange(1, 64))
    return data[:cut] + data[end:], f"removed bytes {cut}:{end}"


_CD = "<IHHHHHHIIIHHHHHII"
_CD_FIELDS = [
    (3, "flags"),
    (4, "method"),
    (7, "crc"),
    (8, "csize"),
    (9, "usize"),
    (10, "name length"),
    (11, "extra length"),
    (12, "comment length"),
    (13, "disk"),
    (16, "offset"),
]
_LH = "<IHHHHHIIIHH"
_LH_FIELDS = [(2, "flags"), (3, "method"), (6, "crc"), (7, "csize"), (8, "usize"), (9, "nlen")]
_EOCD = "<IHHHHIIH"
_EOCD_FIELDS = [(1, "disk"), (2, "cd disk"), (3, "entries here"), (4, "entries"), (5, "cd size")]
_EOCD_FIELDS += [(6, "cd offset"), (7, "comment length")]


def _odd_value(rng, old, width):
    top = (1 << (8 * width)) - 1
    return rng.choice([0, 1, top, top // 2, old + 1, max(old - 1, 0), rng.randrange(top + 1)])


def m_zip_fields(rng, entry):
    """A field of the zip's central directory, a local header or the end record set to an odd
    value."""
    data = bytearray(entry.data)
    eocd = data.rfind(b"PK\x05\x06")
    fields = struct.unpack_from(_EOCD, data, eocd)
    cd_start, count = fields[6], fields[4]
    choice = rng.random()
    if choice < 0.5:
        pos = cd_start
        for _ in range(rng.randrange(count)):
            f = struct.unpack_from(_CD, data, pos)
            pos += 46 + f[10] + f[11] + f[12]
        what = _odd_field(rng, data, _CD, _CD_FIELDS, pos)
        return bytes(data), f"central directory entry at {pos}: {what}"
    if choice < 0.8:
        offsets = [m.start() for m in re.finditer(b"PK\x03\x04", bytes(data))]
        pos = rng.choice(offsets)
        what = _odd_field(rng, data, _LH, _LH_FIELDS, pos)
        return bytes(data), f"local header at {pos}: {what}"
    return bytes(data), f"end record: {_odd_field(rng, data, _EOCD, _EOCD_FIELDS, eocd)}"


def _odd_field(rng, data: bytearray, fmt: str, fields: list, pos: int) -> str:
    """Sets one of `fields` of the `fmt` record at `pos` to an odd value; `name = value`."""
    f = list(struct.unpack_from(fmt, data, pos))
    i, what = rng.choice(fields)
    width = struct.calcsize("<" + fmt[1 + i])
    f[i] = _odd_value(rng, f[i], width) & ((1 << 8 * width) - 1)
    struct.pack_into(fmt, data, pos, *f)
    return f"{what} = {f[i]}"


def m_zip_shape(rng, entry):
    """Garbage around or inside the archive, or members duplicated, renamed, dropped."""
    data = entry.data
    kind = rng.randrange(7)
    if kind == 0:
        return os.urandom(rng.randrange(1, 4096)) + data, "garbage before the archive"
    if kind == 1:
        return data + os.urandom(rng.randrange(1, 4096)), "garbage after the archive"
    members = dict(entry.members)
    names = sorted(members)
    if kind == 2:
        name = rng.choice(names)
        del members[name]
        return build(members, rng.random() < 0.5), f"member {name} removed"
    if kind == 3:
        name = rng.choice(names)
        new = rng.choice(
            ["../x.npy", "/etc/passwd", "arrays/../../x", "arrays/01.npy", "arrays/9999999.npy",
             "arrays/1.npy\x00", "Manifest.json", "arrays/", "graph.json/", "a" * 65_000,
             "arrays/\u0661.npy", "arrays/-1.npy", "arrays/1.NPY", PAYLOAD]
        )  # fmt: skip
        members[new] = members.pop(name)
        data = build_raw(members, rng.random() < 0.5)
        return data, f"member {name} renamed {new[:40]!a}"
    if kind == 4:
        entries = [{"name": n, "data": d} for n, d in members.items()]
        entries.append(dict(rng.choice(entries)))
        return raw_zip(entries), f"member {entries[-1]['name']} twice"
    if kind == 5:
        # Arrays that are not numbered from 0, or an extra array nothing uses.
        arrays = [n for n in names if n.startswith("arrays/")]
        if arrays and rng.random() < 0.5:
            del members[rng.choice(arrays)]
            return build(members), "an array member missing (checksum fixed)"
        members[f"arrays/{len(arrays) + rng.choice([0, 1, 5])}.npy"] = archive.npy_bytes(
            np.zeros(3)
        )
        return build(members), "an extra array member"
    # Stored instead of deflated, or members in another order.
    items = list(members.items())
    rng.shuffle(items)
    return build(dict(items), method=zipfile.ZIP_STORED), "members stored, in another order"


def m_member_flip(rng, entry):
    """Bytes flipped inside one member, the archive rebuilt with a matching checksum."""
    members = dict(entry.members)
    name = rng.choice(sorted(members))
    data = bytearray(members[name])
    for _ in range(rng.choice([1, 2, 8])):
        if data:
            data[rng.randrange(len(data))] ^= rng.randrange(1, 256)
    members[name] = bytes(data)
    return build(members), f"bytes of {name} flipped (checksum fixed)"


def m_json_field(rng, entry):
    """One (or a few) string/number fields of graph.json replaced by injection values."""
    fix = rng.random() < 0.9
    details = []

    def change(doc):
        slots = scalar_slots(doc)
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            parent, key = rng.choice(slots)
            value = rng.choice(INJECTIONS)
            details.append(f"{_path_of(doc, parent, key)} = {_describe(value)}")
            parent[key] = value
        return "; ".join(details) + ("" if fix else " (checksum not fixed)")

    return _graph_case(rng, entry, change, fix)


def m_json_key(rng, entry):
    """A key of a JSON object of graph.json renamed to an injection string."""

    def change(doc):
        objects = [doc] + [p[k] for p, k in container_slots(doc) if isinstance(p[k], dict)]
        obj = rng.choice([o for o in objects if o])
        key = rng.choice(sorted(obj))
        new = rng.choice([s for s in INJECTIONS if isinstance(s, str) and not isinstance(s, Raw)])
        obj[new] = obj.pop(key)
        return f"key {key!r} renamed {_describe(new)}"

    return _graph_case(rng, entry, change)


def _table_names():
    names = sorted(table.FUNCTIONS)
    names += [f"numpy.{u}.{m}" for u in ("add", "maximum", "multiply") for m in table.UFUNC_METHODS]
    return names


_TABLE_NAMES: list = []
_DTYPES = ["<f8", "<f4", "<f2", "<i8", "<i4", "|i1", "|u1", "<u8", "|b1", "<c16", "<U3", "|S2"]
_DTYPES += ["<M8[s]", "<m8[ns]", ">f8", "=i4", "<c8", "<U0", "|S0"]


def m_json_swap(rng, entry):
    """A field set to another value a valid file could hold there: a table name, operator,
    method, kind, dtype, shape, Tensor id or tag of the file (plausible but wrong files)."""
    if not _TABLE_NAMES:
        _TABLE_NAMES.extend(_table_names())

    def change(doc):
        details = []
        nodes = list(_walk_nodes(doc))
        for _ in range(rng.choice([1, 1, 2])):
            node = rng.choice(nodes)
            field = rng.choice(["fn", "kind", "dtype", "shape", "ref", "tag", "attr", "value"])
            if field == "fn":
                pool = {
                    "binop": sorted(table.BINOPS),
                    "unop": sorted(table.UNOPS),
                    "method": sorted(table.METHODS),
                    "attr": sorted(table.ATTRIBUTES),
                }.get(node["kind"], _TABLE_NAMES)
                node["fn"] = rng.choice(pool)
                details.append(f"{node['op']}: fn = {node['fn']!r}")
            elif field == "kind":
                node["kind"] = rng.choice(table.KINDS)
                details.append(f"{node['op']}: kind = {node['kind']!r}")
            elif field in ("dtype", "shape") and node.get("outputs"):
                out = rng.choice(node["outputs"])
                if field == "dtype":
                    out["dtype"] = rng.choice(_DTYPES)
                else:
                    out["shape"] = rng.choice([[], [0], [1], [3], [None], [2, 3], [3, 2], [2**40]])
                details.append(f"{node['op']}: output {field} = {out[field]!r}")
            elif field == "ref":
                refs = [v for v in _walk_values(node.get("args", [])) if v[0] == "t"]
                if refs:
                    ref = rng.choice(refs)
                    ids = [o["id"] for n in nodes for o in n.get("outputs", [])]
                    ref[1] = rng.choice(ids + [0, 1]) if ids else 0
                    details.append(f"{node['op']}: a reference = %{ref[1]}")
            elif field == "tag":
                values = list(_walk_values(node.get("args", [])))
                if values:
                    v = rng.choice(values)
                    v[0] = rng.choice(_TAGS)
                    details.append(f"{node['op']}: a value's tag = {v[0]!r}")
            elif field == "attr":
                key = rng.choice(sorted(table.ATTRS))
                node.setdefault("attrs", {})[key] = rng.choice(
                    [True, False, 0, 1, 2, "x", ["none"], ["int", "2"]]
                )
                details.append(f"{node['op']}: attrs[{key!r}] = {node['attrs'][key]!r}")
            else:
                values = list(_walk_values(node.get("args", [])))
                if values:
                    v = rng.choice(values)
                    new = rng.choice(_PLAUSIBLE)
                    v[:] = new
                    details.append(f"{node['op']}: a value = {new!r}")
        return "; ".join(details) or "no change"

    return _graph_case(rng, entry, change)


_TAGS = ["t", "none", "bool", "int", "float", "complex", "str", "bytes", "tuple", "list", "dict"]
_TAGS += ["slice", "listaccum", "optional", "mixed", "namedtuple", "array", "scalar", "dtype"]
_TAGS += ["type", "exctype", "exc", "fn", "variable", "ellipsis"]
_PLAUSIBLE = [
    ["none"],
    ["int", "0"],
    ["int", "-1"],
    ["int", "99999999999"],
    ["float", "nan"],
    ["float", "-inf"],
    ["bool", True],
    ["str", PAYLOAD],
    ["bytes", "00ff"],
    ["ellipsis"],
    ["slice", ["none"], ["int", "2"], ["int", "-1"]],
    ["tuple", [["int", "1"], ["int", "2"]]],
    ["array", 0],
    ["scalar", 0],
    ["dtype", "<f8"],
    ["type", "int"],
    ["exctype", "ValueError"],
    ["exc", "KeyError", [["str", PAYLOAD]]],
    ["exc", "SystemExit", [["int", "3"]]],
    ["exc", "KeyboardInterrupt", []],
    ["exctype", "BaseException"],
    ["fn", "numpy.sum"],
    ["fn", "autoconv.raise"],
    ["variable", 0],
    ["namedtuple", "Pair", ["lo", "hi"], [["int", "1"], ["int", "2"]]],
    ["namedtuple", "_P", ["_0"], [["none"]]],
    ["optional", ["bool", False], ["none"], [PAYLOAD, PAYLOAD], PAYLOAD],
    ["mixed", ["int", "1"], ["int", "0"], ["int", "numpy.float64"], PAYLOAD],
    ["dict", [[["str", "k"], ["int", "1"]]]],
    ["listaccum", ["list", []]],
]


def _walk_nodes(doc):
    stack = [s["graph"]["block"] for s in doc.get("signatures", []) if isinstance(s, dict)]
    while stack:
        block = stack.pop()
        for node in block.get("nodes", []):
            yield node
            stack.extend(node.get("blocks", []))


def _walk_values(values):
    stack = list(values)
    while stack:
        v = stack.pop()
        if isinstance(v, list) and v and isinstance(v[0], str):
            yield v
            for x in v[1:]:
                if isinstance(x, list):
                    stack.extend(x if x and isinstance(x[0], list) else [x])


_OPERANDS = [
    ["int", "999999999999"],
    ["int", "99999999999999999999"],
    ["int", "7"],
    ["int", "-1"],
    ["int", "0"],
    ["int", "1" + "0" * 3999],
    ["float", "1e308"],
    ["float", "nan"],
    ["complex", "1e308", "-inf"],
    ["str", "x"],
    ["bytes", "00"],
    ["tuple", [["int", "1"]]],
    ["list", [["int", "1"], ["int", "2"]]],
    ["bool", True],
    ["none"],
]
_HEAVY_CALLS = [
    "numpy.ones", "numpy.zeros", "numpy.full", "numpy.arange", "numpy.eye", "numpy.identity",
    "numpy.tile", "numpy.repeat", "numpy.linspace", "numpy.empty", "numpy.random.normal",
    "numpy.random.randint", "numpy.power", "numpy.left_shift", "numpy.zeros_like", "int",
    "round", "len", "numpy.random.default_rng", "numpy.random.seed", "random.seed",
    "numpy.broadcast_to", "numpy.ones_like", "numpy.concatenate", "numpy.outer",
]  # fmt: skip


def m_json_arith(rng, entry):
    """A node made an operation on huge or odd Python constants (`7 ** 999999999999`, `'x' *
    10**11`, `numpy.ones(10**12)`...), its declared outputs kept: a load or a call must
    refuse, fail or end, never hang or exhaust memory."""

    def change(doc):
        nodes = [n for n in _walk_nodes(doc) if n.get("outputs")]
        if not nodes:
            return "no node with outputs"
        node = rng.choice(nodes)
        args = [rng.choice(_OPERANDS) for _ in range(rng.choice([1, 2, 2, 3]))]
        if rng.random() < 0.5:
            op = rng.choice(["**", "<<", ">>", "*", "+", "@", "//", "%", "pow"])
            op = "**" if op == "pow" else op
            node.update(kind="binop", op=op, fn=op, args=args[:2] + [args[0]] * (2 - len(args)))
            detail = f"{node['op']} of {args[:2]}"
        else:
            fn = rng.choice(_HEAVY_CALLS)
            node.update(kind="call", op=fn.rpartition(".")[2], fn=fn, args=args)
            detail = f"{fn}(*{args})"
        node.update(kwargs=[], attrs={}, blocks=[])
        if rng.random() < 0.5:
            out = node["outputs"][0]
            out.update(shape=[], dtype="<i8", weak=True)
            detail += " declared a Python int"
        return detail[:300]

    return _graph_case(rng, entry, change)


def m_json_structure(rng, entry):
    """A list item dropped or duplicated, a key deleted, or a subtree replaced by another
    one of the document (type confusion)."""

    def change(doc):
        slots = container_slots(doc)
        parent, key = rng.choice(slots)
        kind = rng.randrange(4)
        if kind == 0 and isinstance(parent, dict):
            del parent[key]
            return f"deleted {_path_of(doc, parent, key)}"
        if kind == 1 and isinstance(parent[key], list) and parent[key]:
            items = parent[key]
            i = rng.randrange(len(items))
            items.insert(i, json.loads(json.dumps(items[i])))
            return f"duplicated item {i} of {_path_of(doc, parent, key)}"
        if kind == 2 and isinstance(parent[key], list) and parent[key]:
            items = parent[key]
            i = rng.randrange(len(items))
            del items[i]
            return f"dropped item {i} of {_path_of(doc, parent, key)}"
        other_parent, other_key = rng.choice(slots)
        where = _path_of(doc, parent, key)
        parent[key] = json.loads(json.dumps(other_parent[other_key]))
        return f"{where} replaced by a copy of {_path_of(doc, other_parent, other_key)}"

    return _graph_case(rng, entry, change)


def m_manifest(rng, entry):
    """A field of manifest.json replaced, or the manifest replaced by other JSON."""
    members = dict(entry.members)
    manifest = json.loads(members["manifest.json"])
    kind = rng.randrange(3)
    if kind == 0:
        key = rng.choice(sorted(manifest))
        manifest[key] = rng.choice(INJECTIONS[:60] + [0, 2, -1, 2**64, True, None, [], {}])
        detail = f"manifest {key} = {_describe(manifest[key])}"
    elif kind == 1:
        manifest[rng.choice(INJECTIONS[:30])] = rng.choice([1, "x" * 5000, [[[]]]])
        detail = "manifest with an extra key"
    else:
        manifest = rng.choice([[], "text", 1, None, [manifest]])
        detail = f"manifest = {_describe(manifest)}"
    members["manifest.json"] = dumps(manifest)
    return build(members, fix_checksum=False), detail


def m_nesting(rng, entry):
    """Nesting bombs: `[[[...]]]` as graph.json or manifest.json, deeply nested objects,
    deeply nested tagged values in a node's value or in the outputs."""
    kind = rng.randrange(6)
    members = dict(entry.members)
    depth = rng.choice([500, 1001, 5000, 100_000])
    if kind == 0:
        members["graph.json"] = b"[" * depth + b"]" * depth
        return build(members), f"graph.json = [[[...]]] {depth} deep"
    if kind == 1:
        members["graph.json"] = b'{"a":' * depth + b"1" + b"}" * depth
        return build(members), f'graph.json = {{"a": ...}} {depth} deep'
    if kind == 2:
        members["manifest.json"] = b"[" * depth + b"]" * depth
        return build(members, fix_checksum=False), f"manifest.json = [[[...]]] {depth} deep"
    if kind == 3:
        members["graph.json"] = b"[" + b"[]," * rng.choice([10_000, 2_000_000]) + b"[]]"
        return build(members), "graph.json = a list of very many empty lists"
    tag_depth = rng.choice([60, 64, 65, 200, 480, 2000])

    def change(doc):
        # Written as JSON text: json.dumps itself recurses, and would fail thousands deep.
        wrappers = [
            ('["tuple", [', "]]"),
            ('["list", [', "]]"),
            ('["dict", [[["int", "0"], ', "]]]"),
            ('["optional", ["bool", true], ', ', null, "x"]'),
        ]
        chosen = [rng.choice(wrappers) for _ in range(tag_depth)]
        value = Raw(
            "".join(a for a, _ in chosen) + '["int", "1"]' + "".join(b for _, b in chosen[::-1])
        )
        if kind == 4:
            doc["signatures"][0]["graph"]["outputs"] = value
            return f"graph outputs nested {tag_depth} deep"
        consts = [n for n in _walk_nodes(doc) if n.get("kind") == "const"]
        if consts:
            rng.choice(consts)["attrs"]["value"] = value
            return f"a constant nested {tag_depth} deep"
        doc["params"][0]["default"] = value
        return f"a default nested {tag_depth} deep"

    return _graph_case(rng, entry, change)


def m_npy(rng, entry):
    """An array member whose .npy header claims a huge or odd shape or dtype, or carries code."""
    members = dict(entry.members)
    arrays = sorted(n for n in members if n.startswith("arrays/"))
    name = rng.choice(arrays) if arrays else "arrays/0.npy"
    descr, shape, body, fortran, version = "'<f8'", "(3,)", b"\0" * 24, False, (1, 0)
    kind = rng.randrange(12)
    if kind == 0:
        shape = rng.choice(["(10**12,)", "(1000000000000,)", "(2**62, 2**62)", "(4294967296, 4)"])
    elif kind == 1:
        shape = rng.choice(["(-1,)", "(3.0,)", "('3',)", "(True,)", "[3]", "3", "(None,)", "()"])
    elif kind == 2:
        descr = rng.choice(["'O'", "'|O'", "'V8'", "[('a', '<f8')]", "'<U1000000000'", "'|S0'",
                            "('<f8', (2,))", "'<M8[as]'", "'object'", "'<f16'", "'>f8'"])  # fmt: skip
    elif kind == 3:
        descr = f"__import__('os').system('touch {MARKER}')"
    elif kind == 4:
        shape = f"(open('{MARKER}', 'w'),)"
    elif kind == 5:
        version = rng.choice([(2, 0), (3, 0), (9, 9), (0, 0)])
    elif kind == 6:
        fortran = rng.choice(["True", "1", "'yes'"])
        shape, body = "(3, 1)", b"\0" * 24
    elif kind == 7:
        body = b"\0" * rng.choice([0, 23, 25, 1 << 20])
    elif kind == 8:
        shape = "(" + "1, " * rng.choice([32, 33, 64, 65, 1000]) + ")"
        body = b"\0" * 8
    elif kind == 9:
        members[name] = b"\x93NUMPY\x01\x00\xff\xff" + b"{" * 65535
        return build(members), f"{name}: a 64 KiB header of '{{'"
    elif kind == 10:
        members[name] = b"\x93NUMPY\x03\x00" + struct.pack("<I", 1 << 30) + b"{'descr'"
        return build(members), f"{name}: a header claiming 1 GiB"
    else:
        members[name] = b"\x93NUMPY\x01\x00" + struct.pack("<H", 20) + b"{'descr': '\xff\xfe'}"
        return build(members), f"{name}: a header that is not text"
    header = npy_header(descr, shape, fortran, version)
    members[name] = header + body
    text = f"descr={descr[:40]} shape={shape[:40]} fortran={fortran} v={version} body={len(body)}"
    return build(members), f"{name}: {text}"


def m_zip_claims(rng, entry):
    """Zip directory entries claiming sizes: huge, beyond max_bytes, beyond what deflate can
    give, a real high-ratio deflate member, many members, unsupported methods, encryption."""
    members = dict(entry.members)
    entries = [
        {"name": n, "data": zlib.compress(d)[2:-4], "method": 8, "crc": zlib.crc32(d),
         "usize": len(d)}
        for n, d in members.items()
    ]  # fmt: skip
    kind = rng.randrange(8)
    target = rng.choice([e for e in entries if e["name"] != "manifest.json"])
    if kind == 0:
        target["usize"] = rng.choice([2**32 - 1, (1 << 30) + 1, 1 << 30, 10**9, 200 << 20])
        return raw_zip(entries), f"{target['name']} claims {target['usize']} bytes"
    if kind == 1:
        target["usize"] = len(target["data"]) * rng.choice([1000, 1032, 1100, 1101, 5000])
        return raw_zip(entries), f"{target['name']} claims {target['usize']} bytes (ratio)"
    if kind == 2:
        size = rng.choice([1, 8, 64]) << 20
        data, crc = zeros_deflated(size)
        entries.append({"name": f"arrays/{len(entries)}.npy", "data": data, "method": 8,
                        "crc": crc, "usize": size})  # fmt: skip
        return raw_zip(entries), f"an extra {size >> 20} MiB deflated member of zeros"
    if kind == 3:
        n = rng.choice([1000, 65_535, 65_537])
        start = sum(1 for e in entries if e["name"].startswith("arrays/"))
        empty = {"data": b"", "method": 0}
        entries += [{**empty, "name": f"arrays/{start + i}.npy"} for i in range(n)]
        return raw_zip(entries), f"{n} more empty members"
    if kind == 4:
        target["method"] = rng.choice([1, 9, 12, 14, 93, 98, 99])
        return raw_zip(entries), f"{target['name']} with compression method {target['method']}"
    if kind == 5:
        target["flags"] = rng.choice([1, 8, 0x41, 0x800, 0xFFFF])
        return raw_zip(entries), f"{target['name']} with flags {target['flags']:#x}"
    if kind == 6:
        target["csize"] = rng.choice([0, 2**32 - 1, len(target["data"]) + 1000])
        return raw_zip(entries), f"{target['name']} claims {target['csize']} compressed bytes"
    # A ZIP64 extra field claiming huge sizes.
    target["usize"] = target["csize"] = 0xFFFFFFFF
    target["extra"] = struct.pack("<HHQQ", 1, 16, 2**62, len(target["data"]))
    return raw_zip(entries), f"{target['name']} with a zip64 field claiming 2**62 bytes"


# Every scalar field of every corpus file set to each of these, one at a time (`sweep_case`).
SWEEP_VALUES = [PAYLOAD, *BREAKS, "", "x" * 300, "\ufb01le", -1, 2**31, 10**40, 1.5, None, True]
SWEEP_VALUES += [[], {}]


def sweep_case(index: int) -> Case:
    """Case `index` of the sweep: every scalar field of every corpus file set to every value of
    `SWEEP_VALUES`, one at a time (checksum fixed), in order; `index` wraps around."""
    corpus = build_corpus()
    sizes = [len(scalar_slots(e.document)) * len(SWEEP_VALUES) for e in corpus]
    i = index % sum(sizes)
    n = 0
    while i >= sizes[n]:
        i -= sizes[n]
        n += 1
    entry = corpus[n]
    slot, value = divmod(i, len(SWEEP_VALUES))
    value = SWEEP_VALUES[value]
    members = dict(entry.members)
    doc = json.loads(members["graph.json"])
    parent, key = scalar_slots(doc)[slot]
    detail = f"{_path_of(doc, parent, key)} = {_describe(value)}"
    parent[key] = value
    members["graph.json"] = dumps(doc)
    return Case(index, "sweep", entry.name, detail, build(members))


SPECIALS = ["fifo", "devzero", "folder", "link_devzero", "link_fifo", "missing", "devnull"]
SPECIALS += ["proc_environ", "link_loop"]


def m_special(rng, entry):
    return None, rng.choice(SPECIALS)


# name -> (mutator, weight)
MUTATORS = {
    "flip": (m_flip, 6),
    "truncate": (m_truncate, 3),
    "zip_fields": (m_zip_fields, 5),
    "zip_shape": (m_zip_shape, 3),
    "member_flip": (m_member_flip, 6),
    "json_field": (m_json_field, 30),
    "json_key": (m_json_key, 4),
    "json_swap": (m_json_swap, 20),
    "json_structure": (m_json_structure, 8),
    "json_arith": (m_json_arith, 6),
    "manifest": (m_manifest, 3),
    "nesting": (m_nesting, 3),
    "npy": (m_npy, 5),
    "zip_claims": (m_zip_claims, 3),
    "special": (m_special, 1),
    "sweep": (None, 0),  # drawn only alone (`--only sweep`): see `sweep_case`
}


def make_case(seed, index: int, only=None) -> Case:
    """Case `index` of the run with `seed` (the same case in every process). `only`: the
    mutator names to draw from."""
    if only == {"sweep"}:
        return sweep_case(index)
    corpus = build_corpus()
    rng = random.Random(f"{seed}/{index}")
    names = [n for n in MUTATORS if (only is None or n in only) and n != "sweep"]
    weights = [MUTATORS[n][1] for n in names]
    name = rng.choices(names, weights)[0]
    entry = rng.choice(corpus)
    data, detail = MUTATORS[name][0](rng, entry)
    if name == "special":
        return Case(index, name, entry.name, detail, None, detail)
    return Case(index, name, entry.name, detail, data)


# --- the audit hook -------------------------------------------------------------------------------

_FORBIDDEN = {
    "os.system",
    "os.exec",
    "os.posix_spawn",
    "os.spawn",
    "os.fork",
    "os.forkpty",
    "os.kill",
    "os.killpg",
    "subprocess.Popen",
    "pickle.find_class",
    "shutil.rmtree",
    "shutil.copyfile",
    "shutil.move",
    "webbrowser.open",
    "urllib.Request",
    "builtins.input",
    "sys.setprofile",
    "sys.settrace",
    "sys.remote_exec",
}
_FORBIDDEN_PREFIXES = ("ctypes.", "socket.", "http.", "ftplib.", "smtplib.", "winreg.", "_winapi.")
# What changes the file system: allowed only for a `__pycache__` folder under the allowed roots
# (a lazy import may write the byte code of a module whose cached one is stale).
_FS_CHANGES = {"os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown"}
_FS_CHANGES |= {"os.truncate", "os.link", "os.symlink", "os.utime", "os.chflags"}
# Modules a lazy import may load during a load or a call: autoconv and NumPy, JAX and what
# JAX itself imports (jaxlib, ml_dtypes, opt_einsum, scipy), and the standard library.
ALLOWED_PACKAGES = {"autoconv", "numpy", "jax", "jaxlib", "ml_dtypes", "opt_einsum", "scipy"}
_IMPORT_SUFFIXES = (".py", ".pyc", ".so", ".pyi")
_NAMEDTUPLE_NEW = re.compile(
    r"lambda _cls, ((?:[A-Za-z][A-Za-z0-9_]*)(?:, [A-Za-z][A-Za-z0-9_]*)*)?: "
    r"_tuple_new\(_cls, \(\1,?\)\)"
)


def _allowed_roots() -> tuple:
    """Folders whose files a lazy import may read: the Python installation (standard library),
    the environment's site-packages (NumPy, JAX), and autoconv's own package folder (an
    editable install's src/autoconv). Not the repository, not the current folder, not /tmp."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, PACKAGE}
    for getter in (site.getsitepackages, lambda: [site.getusersitepackages()]):
        with contextlib.suppress(Exception):
            roots.update(getter())
    return tuple(sorted({os.path.realpath(r) + os.sep for r in roots if r}))


def _under(path: str, roots) -> bool:
    return any(path.startswith(r) for r in roots)


def _writes(mode, flags) -> bool:
    if isinstance(mode, str) and any(c in mode for c in "wax+"):
        return True
    if isinstance(flags, int):
        return bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND))
    return False


class Audit:
    """Records, while `watching(archive)` is active, what a load or call must never do:

    - `exec`/`compile` of anything but autoconv's generated code (a file name starting with
      `<autoconv`), whose source must then pass `token_problems`. Allowed besides: `ast.parse`
      (it only makes a syntax tree: NumPy reads a `.npy` header with `ast.literal_eval`),
      `collections.namedtuple`'s `eval` of its `lambda _cls, a, b: _tuple_new(_cls, (a, b))`
      (the fields checked as ASCII identifiers here), `symtable.symtable` (only a symbol
      table: the backends read the names of a block they write apart), and the import
      system compiling and running a module's code from a `.py`/`.pyc` file under the
      allowed roots.
    - `open` of any path but the archive's (for reading only). Allowed besides: reads of
      `.py`/`.pyc`/`.so` files under the allowed roots (`_allowed_roots`: a lazy import of an
      installed module), and writes inside their `__pycache__` folders (its byte code).
      An open of a file descriptor is not recorded (opening it was). Every path opened is
      kept in `opened`, so that a test can check that a given path was never opened at all.
    - `import` of a module outside the standard library and `ALLOWED_PACKAGES` (the event is
      raised only for a module not imported yet).
    - os.system, os.exec*, os.spawn*, os.posix_spawn, os.fork, subprocess.Popen,
      pickle.find_class, every ctypes.* and socket.* event, and changes to the file system.
    """

    def __init__(self):
        self.active = False
        self.archive = None
        self.violations: list = []
        self.opened: list = []
        self.roots = _allowed_roots()
        self._busy = False
        self._stdlib = set(getattr(sys, "stdlib_module_names", ()))
        self._ast = os.path.realpath(ast.__file__)
        self._symtable = os.path.realpath(symtable.__file__)
        self._collections = os.path.realpath(collections.__file__)

    def hook(self, event, args):
        if not self.active or self._busy:
            return
        self._busy = True
        try:
            problem = self._check(event, args, sys._getframe(1))
        except Exception as e:  # noqa: BLE001 - a bug here is reported, never raised into load
            problem = f"the audit hook failed on {event}: {type(e).__name__}: {e}"
        finally:
            self._busy = False
        if problem:
            self.violations.append(problem)

    @contextlib.contextmanager
    def watching(self, archive_path):
        self.archive = os.path.abspath(archive_path) if archive_path is not None else None
        self.violations = []
        self.opened = []
        self.active = True
        try:
            yield self
        finally:
            self.active = False

    def _check(self, event, args, frame):
        if event in _FORBIDDEN or event.startswith(_FORBIDDEN_PREFIXES):
            return f"audit event {event} {_short(args)}"
        if event == "open":
            return self._open(*args[:3])
        if event == "compile":
            return self._compile(args[0], args[1], frame)
        if event == "exec":
            return self._exec(args[0], frame)
        if event == "import":
            top = str(args[0]).partition(".")[0]
            if top not in ALLOWED_PACKAGES and top not in self._stdlib:
                return f"import of {args[0]!a}"
            return None
        if event in _FS_CHANGES:
            paths = [a for a in args if isinstance(a, (str, bytes, os.PathLike))]
            for p in paths:
                full = os.path.realpath(os.fsdecode(p))
                if not (_under(full, self.roots) and f"{os.sep}__pycache__" in full):
                    return f"audit event {event} {_short(args)}"
        return None

    def _open(self, path, mode, flags):
        if isinstance(path, int) or path is None:
            return None
        text = os.fsdecode(os.fspath(path))
        full = os.path.abspath(text)
        self.opened.append(full)
        writes = _writes(mode, flags)
        if full == self.archive and not writes:
            return None
        real = os.path.realpath(full)
        if _under(real, self.roots):
            if writes and f"{os.sep}__pycache__{os.sep}" in real:
                return None
            if not writes and real.endswith(_IMPORT_SUFFIXES):
                return None
        return f"open of {text!a} (mode {mode!r}, flags {flags!r})"

    def _compile(self, source, filename, frame):
        name = os.fsdecode(filename) if isinstance(filename, (str, bytes)) else repr(filename)
        if isinstance(source, bytes):
            text = source.decode("utf-8", "replace")
        elif isinstance(source, str):
            text = source
        else:
            text = None  # an AST
        if name.startswith("<autoconv"):
            if text is None:
                return f"compile of a syntax tree as {name!a}"
            problems = token_problems(text, dispatch=name == "<autoconv dispatch>")
            if problems:
                return f"generated code {name!a} breaks the token grammar: {problems[0]}"
            return None
        code = frame.f_code
        caller = os.path.realpath(code.co_filename)
        if (caller, code.co_name) in ((self._ast, "parse"), (self._symtable, "symtable")):
            return None
        if caller == self._collections and code.co_name == "namedtuple":
            if text is not None and _NAMEDTUPLE_NEW.fullmatch(text) and text.isascii():
                return None
            return f"namedtuple compiled {_short(text)}"
        if self._module_code(name, frame):
            return None
        return f"compile of {_short(text)} as {name!a}"

    def _exec(self, code, frame):
        name = getattr(code, "co_filename", "")
        if name.startswith("<autoconv"):
            return None
        caller = frame.f_code
        if name == "<string>" and os.path.realpath(caller.co_filename) == self._collections:
            if caller.co_name == "namedtuple":
                return None
        if getattr(code, "co_name", "") == "<module>" and self._module_code(name, frame):
            return None
        return f"exec of code from {name!a} ({getattr(code, 'co_name', '?')})"

    def _module_code(self, filename, frame) -> bool:
        """Whether the import system is compiling or running a module's file from the roots."""
        if not frame.f_code.co_filename.startswith("<frozen importlib"):
            return False
        real = os.path.realpath(filename) if os.path.isabs(filename) else ""
        return bool(real) and _under(real, self.roots) and real.endswith(_IMPORT_SUFFIXES)


def _short(value) -> str:
    text = repr(value)
    return ascii(text[:120] + ("..." if len(text) > 120 else ""))


_AUDIT_KEY = "_autoconv_fuzz_audit"


def audit() -> Audit:
    """The process's one `Audit` (installed on first use; kept on `sys` so that importing this
    module twice, as a script and as a module, installs one hook)."""
    found = getattr(sys, _AUDIT_KEY, None)
    if found is None:
        found = Audit()
        setattr(sys, _AUDIT_KEY, found)
        sys.addaudithook(found.hook)
    return found


# --- the token grammar of generated code ----------------------------------------------------------

_KNOWN_NAMES = frozenset(
    set(keyword.kwlist) | set(keyword.softkwlist) | set(dir(builtins)) | {"run", "make_run"}
)
# Names the backends' writers themselves put in the code (not from any file): the NumPy
# executor's Variable accesses, the JAX program's helpers and locals.
BACKEND_NAMES = frozenset(
    {"_lock", "_value", "err", "stop", "c_", "jnp", "lax", "fix", "truth", "carry", "cond"}
    | {"while_loop", "all_of", "carry_list", "append", "callback", "check", "draw", "_set"}
    | {"partial", "nonempty"}
)
# Values, state and the functions of branches and loops (`_then_v12`, `_body_w3`; written
# apart past 40 levels of nesting: `_then_2`, `_body_7`).
_GENERATED_NAME = re.compile(r"[vs]\d+|_(then|else|test|body|loop|if|else)_[vnw]?\d+")
# The dispatcher's (functions/dispatch.py): its own names and those of its namespace.
DISPATCH_NAMES = frozenset(
    {"dispatch", "args", "e", "MISS", "ndarray", "jarray", "used", "dtype", "shape", "aval"}
    | {"NoneType"}
)
# Parameters and their types (`a0`, `t0`), items of containers and their types (`a0_1_2`,
# `Ta0_1`), per-entry functions, and values of the namespace named by entry and path.
_DISPATCH_NAME = re.compile(r"[at]\d+|T?a\d+(_\d+)+|(run|fail)_\d+|[dspTocML]\d+(_\d+)+")


def token_problems(source: str, dispatch: bool = False) -> list:
    """What in generated `source` breaks its grammar (an empty list: nothing): only printable
    ASCII and newlines; NAME tokens that are keywords, builtins, `run`, `make_run`,
    `v<digits>`, make_run's parameters or the backends' own fixed names (`BACKEND_NAMES`,
    `_GENERATED_NAME`); an attribute may also be an ndarray method or attribute of the
    table, and a keyword argument's name any ASCII identifier (a file's keyword names reach
    the code there, checked as identifiers); NUMBER and OP tokens; STRING tokens that
    `ast.literal_eval` reads as str or bytes; COMMENTs of printable ASCII. With `dispatch`,
    the names are the dispatcher's (`DISPATCH_NAMES`, `_DISPATCH_NAME`)."""
    problems = []
    bad = re.search(r"[^\x20-\x7e\n]", source)
    if bad:
        problems.append(f"the character {bad.group()!a} at offset {bad.start()}")
        return problems
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        return [f"it does not parse ({e})"]
    params = set()
    keywords = set()  # (line, column) of each keyword argument's name
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "make_run":
            a = node.args
            params |= {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
            params |= {p.arg for p in (a.vararg, a.kwarg) if p is not None}
        elif isinstance(node, ast.keyword) and node.arg is not None:
            keywords.add((node.lineno, node.col_offset))
    attributes = table.METHODS | table.ATTRIBUTES
    previous = None
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            kind, text = tok.type, tok.string
            if kind == tokenize.NAME:
                if dispatch:
                    known = text in DISPATCH_NAMES or _DISPATCH_NAME.fullmatch(text)
                else:
                    known = (
                        text in params
                        or text in BACKEND_NAMES
                        or _GENERATED_NAME.fullmatch(text)
                        or (previous == "." and text in attributes)
                    )
                known = known or text in _KNOWN_NAMES or tok.start in keywords
                if not (text.isascii() and text.isidentifier() and known):
                    problems.append(f"the name {text!a} (line {tok.start[0]})")
            elif kind == tokenize.STRING:
                try:
                    value = ast.literal_eval(text)
                except (ValueError, SyntaxError):
                    value = None
                if not isinstance(value, (str, bytes)):
                    problems.append(f"the string token {text[:60]!a} (line {tok.start[0]})")
            elif kind == tokenize.COMMENT:
                if not all(" " <= c <= "~" for c in text):
                    problems.append(f"the comment {text[:60]!a}")
            elif kind not in (
                tokenize.NUMBER,
                tokenize.OP,
                tokenize.NEWLINE,
                tokenize.NL,
                tokenize.INDENT,
                tokenize.DEDENT,
                tokenize.ENDMARKER,
            ):
                problems.append(f"a {tokenize.tok_name[kind]} token {text[:40]!a}")
            previous = text if kind == tokenize.OP else None
    except (tokenize.TokenError, SyntaxError) as e:
        problems.append(f"it does not tokenize ({e})")
    return problems


# --- classifying errors ---------------------------------------------------------------------------

# Where autoconv raises a call's exceptions on purpose: the user's staged `raise`/`assert`,
# the eager error of a name set on one path only, and the documented TypeError of arguments
# that match no saved signature.
_DELIBERATE = {
    ("graph/helpers.py", "raise_copy"),
    ("graph/helpers.py", "raise_new"),
    ("graph/helpers.py", "checked"),
    ("graph/helpers.py", "optional_output"),
    ("functions/saving/loaded.py", "_find"),
    ("functions/saving/loaded.py", "_values"),
}
# Where a backend raises again an error it recorded while the graph ran (the JAX program's
# host checks: an index out of range, a staged raise), with its note naming the user's line.
_RERAISED = {("backends/jax/program.py", "_call_once")}


def innermost(e: BaseException):
    """`(filename, line, function)` of the innermost frame of `e`'s traceback, or None."""
    tb = e.__traceback__
    if tb is None:
        return None
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    return code.co_filename, tb.tb_lineno, code.co_name


def internal_error(e: BaseException) -> bool:
    """Whether `e`, raised by a loaded function's call, is an internal error: not an
    AutoconvError, and raised by a frame of autoconv's own source (not the generated program,
    whose file name starts with `<autoconv`, nor a deliberate raise of `_DELIBERATE`)."""
    if isinstance(e, AutoconvError):
        return False
    where = innermost(e)
    if where is None:
        return False
    filename, _, function = where
    if not os.path.realpath(filename).startswith(os.path.realpath(PACKAGE) + os.sep):
        return False
    relative = os.path.relpath(os.path.realpath(filename), os.path.realpath(PACKAGE))
    place = (relative.replace(os.sep, "/"), function)
    if place in _RERAISED:
        notes = getattr(e, "__notes__", None) or []
        return not any(n.startswith("raised by the graph at") for n in notes)
    return place not in _DELIBERATE


def describe_error(e: BaseException) -> str:
    where = innermost(e)
    place = ""
    if where is not None:
        filename, line, function = where
        if filename.startswith(PACKAGE):
            filename = "src/autoconv/" + os.path.relpath(filename, PACKAGE)
        place = f" at {filename}:{line} in {function}"
    message = str(e).splitlines()[0] if str(e) else ""
    return f"{type(e).__name__}: {ascii(message[:160])[1:-1]}{place}"


# --- running cases --------------------------------------------------------------------------------


@contextlib.contextmanager
def address_space(margin):
    """Caps the process's address space at its present size plus `margin` bytes, so that a
    hostile file's huge allocation fails with MemoryError instead of exhausting the machine
    (None: no cap)."""
    try:
        import resource
    except ImportError:
        resource = None
    if margin is None or resource is None:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    try:
        with open("/proc/self/statm") as f:
            size = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        yield
        return
    cap = size + margin
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@dataclasses.dataclass
class Outcome:
    index: int
    mutator: str
    entry: str
    detail: str
    status: str = "refused"  # accepted | refused | violation
    violations: list = dataclasses.field(default_factory=list)
    message: str = ""  # the LoadError's, or what the calls gave
    seconds: float = 0.0
    peak: int = 0
    declared: int = 0

    def summary(self) -> str:
        head = f"case {self.index} [{self.mutator} on {self.entry}] {self.detail}"
        return head + "".join(f"\n    - {v}" for v in self.violations)


def declared_size(path) -> int:
    """What a load may use by what the file declares (docs/saving.md, "Threat model"): the
    uncompressed sizes of its members, and for graph.json what its values cost once parsed
    (`limits.metadata_cost`); 0 when unreadable."""
    try:
        with zipfile.ZipFile(path) as z:
            total = sum(i.file_size for i in z.infolist())
            info = z.getinfo("graph.json")
            if info.file_size <= limits.MAX_GRAPH:
                total += limits.metadata_cost(z.read(info))
            return total
    except Exception:  # noqa: BLE001 - any damage: nothing declared
        return 0


def origins_of(path) -> set:
    """The paths the file's node origins name (when its graph.json can be read)."""
    found = set()
    try:
        with zipfile.ZipFile(path) as z:
            info = z.getinfo("graph.json")
            if info.file_size > 64 << 20:
                return found
            doc = json.loads(z.read(info))
        for node in _walk_nodes(doc):
            origin = node.get("origin")
            if isinstance(origin, list) and origin and isinstance(origin[0], str):
                with contextlib.suppress(ValueError):
                    found.add(os.path.abspath(origin[0]))
    except Exception:  # noqa: BLE001 - an unreadable file names no origin
        pass
    return found


class Runner:
    """Runs cases on one backend in this process (see the module's docstring for what an
    outcome checks). `memory`: measure the load's peak with tracemalloc; `margin`: the
    address-space cap's margin (bytes, or None)."""

    def __init__(self, backend="numpy", folder=None, memory=True, margin=2 << 30):
        self.backend = backend
        self.memory = memory
        self.margin = margin
        self.folder = folder or tempfile.mkdtemp(prefix="autoconv-fuzz-")
        self.corpus = build_corpus()
        self.audit = audit()
        if backend == "jax":
            import jax

            # JAX cuts its own frames from tracebacks; `internal_error` needs the real ones.
            jax.config.update("jax_traceback_filtering", "off")
        self._warm_up()

    def _warm_up(self):
        """Loads and calls each valid file once unwatched: what they need is imported now, so
        that a lazy import during a case is one a hostile file caused."""
        for entry in self.corpus:
            path = os.path.join(self.folder, "warm.acg")
            with open(path, "wb") as f:
                f.write(entry.data)
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
                warnings.simplefilter("ignore")
                f = autoconv.load(path, backend=self.backend)
                _ = f.code, f.signatures, f.graph().as_text()
                for args in entry.examples:
                    with contextlib.suppress(Exception):
                        f(*_fresh(args))
        # Errors reported by a call (and their notes) import what formatting them needs.
        with contextlib.suppress(LoadError):
            autoconv.load(os.path.join(self.folder, "missing.acg"))

    def path_for(self, case: Case) -> str:
        folder = os.path.join(self.folder, f"case{case.index}")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "f.acg")
        for name in os.listdir(folder):
            full = os.path.join(folder, name)
            if os.path.isdir(full) and not os.path.islink(full):
                os.rmdir(full)
            else:
                os.unlink(full)
        if case.special is None:
            with open(path, "wb") as f:
                f.write(case.data)
            return path
        kind = case.special
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "folder":
            os.mkdir(path)
        elif kind == "devzero":
            return "/dev/zero"
        elif kind == "devnull":
            return "/dev/null"
        elif kind == "proc_environ":
            return "/proc/self/environ"
        elif kind == "link_devzero":
            os.symlink("/dev/zero", path)
        elif kind == "link_fifo":
            os.mkfifo(path + ".fifo")
            os.symlink(path + ".fifo", path)
        elif kind == "link_loop":
            os.symlink(path, path)
        return path  # "missing": nothing there

    def run_case(self, case: Case) -> Outcome:
        out = Outcome(case.index, case.mutator, case.entry, case.detail)
        path = self.path_for(case)
        out.declared = declared_size(path) if case.special is None else 0
        origins = origins_of(path) if case.special is None else set()
        entry = next(e for e in self.corpus if e.name == case.entry)
        rng_state = (np.random.get_state(), random.getstate())
        marker = os.path.abspath(MARKER)
        loaded = None
        start = time.perf_counter()
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            with address_space(self.margin):
                with self.audit.watching(path) as watch:
                    loaded = self._load(path, case, out)
                    out.seconds = time.perf_counter() - start
                    if loaded is not None:
                        self._use(loaded, entry, out)
            violations = list(watch.violations)
            opened = set(watch.opened)
        out.violations[:0] = violations
        if (np.random.get_state()[1] != rng_state[0][1]).any() or random.getstate() != rng_state[1]:
            out.violations.append("the process's global random generators changed")
            np.random.set_state(rng_state[0])
            random.setstate(rng_state[1])
        read = sorted(p for p in origins & opened if p != os.path.abspath(path))
        if read:
            out.violations.append(f"opened paths the file's origins name: {read[:3]}")
        if os.path.exists(marker):
            out.violations.append(f"{MARKER} was created: code from the file ran")
            with contextlib.suppress(OSError):
                os.unlink(marker)
        if self.memory and out.peak > out.declared + ALLOWANCE:
            out.violations.append(
                f"the load's peak traced memory was {out.peak} bytes for {out.declared} "
                f"declared (bound {out.declared + ALLOWANCE})"
            )
        if out.violations:
            out.status = "violation"
        return out

    def _load(self, path, case, out):
        if self.memory:
            tracemalloc.start()
        try:
            with time_limit(LOAD_LIMIT):
                loaded = autoconv.load(path, backend=self.backend)
        except LoadError as e:
            out.status = "refused"
            out.message = str(e)[:200]
            return None
        except TimedOut:
            out.violations.append(f"load did not end within {LOAD_LIMIT} s")
            return None
        except Exception as e:  # noqa: BLE001 - anything but a LoadError is a violation
            out.violations.append(f"load raised {describe_error(e)}")
            return None
        finally:
            if self.memory:
                out.peak = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
        out.status = "accepted"
        return loaded

    def _use(self, loaded, entry, out):
        try:
            code = loaded.code
        except Exception as e:  # noqa: BLE001
            out.violations.append(f"loaded.code raised {describe_error(e)}")
            code = ""
        for problem in token_problems(code)[:3]:
            out.violations.append(f"generated code breaks the token grammar: {problem}")
        try:
            with time_limit(CALL_LIMIT):
                _ = loaded.signatures, repr(loaded), loaded.graph().as_text()
        except TimedOut:
            out.violations.append(f"describing the loaded function took over {CALL_LIMIT} s")
        except Exception as e:  # noqa: BLE001
            out.violations.append(f"describing the loaded function raised {describe_error(e)}")
        results = []
        for args in entry.examples:
            try:
                with time_limit(CALL_LIMIT), contextlib.redirect_stdout(io.StringIO()):
                    loaded(*_fresh(args))
                results.append("ok")
            except TimedOut:
                # A file's loop may legitimately never end: reported, not a violation.
                results.append("timeout")
                break
            except Exception as e:  # noqa: BLE001 - classified below
                if internal_error(e):
                    out.violations.append(f"a call raised an internal error: {describe_error(e)}")
                results.append(type(e).__name__)
        out.message = "calls: " + ", ".join(results)


def run(backend, seed, start, count, only=None, memory=True, on_outcome=None, runner=None):
    """Runs cases `start` to `start + count - 1` in this process; returns their outcomes."""
    runner = runner or Runner(backend, memory=memory)
    outcomes = []
    for index in range(start, start + count):
        outcome = runner.run_case(make_case(seed, index, only))
        outcomes.append(outcome)
        if on_outcome is not None:
            on_outcome(outcome)
    return outcomes


# --- running cases in a worker process --------------------------------------------------------------


def _worker(argv):
    """The worker's loop: `random BACKEND SEED START COUNT ONLY` runs fuzz cases,
    `files BACKEND FOLDER START COUNT` the cases `run_cases` wrote to FOLDER."""
    mode, backend, source, start, count = argv[0], argv[1], argv[2], int(argv[3]), int(argv[4])
    if mode == "random":
        only = None if argv[5] == "-" else set(argv[5].split(","))

        def case_of(index):
            return make_case(source, index, only)

    else:

        def case_of(index):
            return _read_case(source, index)

    out = os.fdopen(os.dup(1), "w", buffering=1)
    runner = Runner(backend)
    out.write(RESULT + json.dumps({"ready": True}) + "\n")
    for index in range(start, start + count):
        out.write(RESULT + json.dumps({"start": index}) + "\n")
        outcome = runner.run_case(case_of(index))
        out.write(RESULT + json.dumps(dataclasses.asdict(outcome)) + "\n")
    out.write(RESULT + json.dumps({"end": True}) + "\n")


def _write_case(folder, index, case: Case) -> None:
    with open(os.path.join(folder, f"{index}.bin"), "wb") as f:
        f.write(case.data or b"")
    meta = {k: v for k, v in dataclasses.asdict(case).items() if k != "data"}
    meta["has_data"] = case.data is not None
    with open(os.path.join(folder, f"{index}.json"), "w") as f:
        json.dump(meta, f)


def _read_case(folder, index) -> Case:
    with open(os.path.join(folder, f"{index}.json")) as f:
        meta = json.load(f)
    with open(os.path.join(folder, f"{index}.bin"), "rb") as f:
        data = f.read()
    has_data = meta.pop("has_data")
    return Case(**{**meta, "index": index, "data": data if has_data else None})


def supervise(backend, seed, start, count, only=None, case_limit=None, on_outcome=None):
    """Runs fuzz cases `start` to `start + count - 1` in worker processes: a worker that stops
    answering for `case_limit` seconds within a case (or dies) is killed, its case recorded as
    a violation, and a new worker goes on with the next case."""
    extra = [",".join(sorted(only)) if only else "-"]

    def case_of(index):
        return make_case(seed, index, only)

    return _supervise(backend, ["random", backend, str(seed)], extra, case_of, start, count,
                      case_limit, on_outcome)  # fmt: skip


def run_cases(cases, backend="numpy", case_limit=None) -> list:
    """Runs the given cases in worker processes, as `supervise` does (a hang or a crash cannot
    take the caller with it); their outcomes keep the cases' own indices and details."""
    with tempfile.TemporaryDirectory(prefix="autoconv-fuzz-cases-") as folder:
        for i, case in enumerate(cases):
            _write_case(folder, i, case)
        outcomes = _supervise(backend, ["files", backend, folder], [],
                              lambda i: _read_case(folder, i), 0, len(cases), case_limit, None)  # fmt: skip
    for case, outcome in zip(cases, outcomes):
        outcome.index, outcome.mutator, outcome.detail = case.index, case.mutator, case.detail
    return outcomes


def _supervise(backend, head, extra, case_of, start, count, case_limit, on_outcome):
    case_limit = case_limit or (LOAD_LIMIT + 2 * CALL_LIMIT + 10)
    outcomes = []
    index = start
    end = start + count
    while index < end:
        cmd = [sys.executable, "-m", "tests.saving.fuzz", "--worker", *head]
        cmd += [str(index), str(end - index), *extra]
        env = {**os.environ, "PYTHONPATH": REPO + os.pathsep + os.environ.get("PYTHONPATH", "")}
        with tempfile.TemporaryFile() as errors:
            proc = subprocess.Popen(
                cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=errors,
                stdin=subprocess.DEVNULL,
            )  # fmt: skip
            current, ended, hung = None, False, False
            deadline = time.monotonic() + 300  # importing, building the corpus, warming up
            buffer = b""
            try:
                while True:
                    left = deadline - time.monotonic()
                    if left <= 0 or not select.select([proc.stdout], [], [], left)[0]:
                        hung = True
                        break
                    chunk = os.read(proc.stdout.fileno(), 65536)
                    if not chunk:
                        break  # died or ended
                    buffer += chunk
                    *lines, buffer = buffer.split(b"\n")
                    for line in lines:
                        text = line.decode("utf-8", "replace")
                        if not text.startswith(RESULT):
                            continue
                        msg = json.loads(text[len(RESULT) :])
                        if "start" in msg:
                            current = msg["start"]
                            deadline = time.monotonic() + case_limit
                        elif "end" in msg:
                            ended = True
                        elif "index" in msg:
                            outcome = Outcome(**msg)
                            outcomes.append(outcome)
                            index = outcome.index + 1
                            current = None
                            if on_outcome is not None:
                                on_outcome(outcome)
                    if ended:
                        break
            finally:
                if proc.poll() is None:
                    proc.kill()
                proc.wait()
            if ended:
                break
            errors.seek(0)
            tail = errors.read().decode("utf-8", "replace").strip().splitlines()[-3:]
            if current is None:
                raise RuntimeError(f"the fuzz worker failed before case {index}: {tail}")
            case = case_of(current)
            reason = (
                f"the worker hung for {case_limit} s (killed)"
                if hung
                else f"the worker died (exit status {proc.returncode}): {tail}"
            )
            outcome = Outcome(current, case.mutator, case.entry, case.detail, "violation", [reason])
            outcomes.append(outcome)
            if on_outcome is not None:
                on_outcome(outcome)
            index = current + 1
    return outcomes


if __name__ == "__main__" and sys.argv[1:2] == ["--worker"]:
    _worker(sys.argv[2:])
