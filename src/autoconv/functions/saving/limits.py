"""What loading accepts at most, checked before anything is read, parsed or allocated (see
docs/saving.md, "Threat model")."""

MAX_BYTES = 1 << 30  # load()'s default cap on a file's declared contents, members uncompressed
MAX_MEMBERS = 10_000  # zipfile makes an object per member (~500 bytes) before any check
MAX_MANIFEST = 4 << 10  # bytes of manifest.json
MAX_GRAPH = 64 << 20  # bytes of graph.json, whatever max_bytes allows
METADATA_SHARE = 8  # graph.json may cost at most max_bytes / 8 of memory (128 MiB by default)
MAX_NAMEDTUPLES = 256  # namedtuple classes made for one file (each is a class of its own)
# Memory that loading takes per JSON value of graph.json, parsed and built into a graph to run
# (measured: ~315 bytes on a 1,000-step unrolled loop, whose file holds 150,000 values).
BYTES_PER_JSON_ITEM = 320
MAX_JSON_DEPTH = 1000  # nested JSON arrays and objects
MAX_RATIO = 1100  # uncompressed / compressed size of a member: deflate cannot exceed ~1032


def json_items(data: bytes) -> int:
    """At least how many values a JSON text holds (commas inside strings count too)."""
    return data.count(b",") + data.count(b"[") + data.count(b"{")


def metadata_cost(data: bytes) -> int:
    """The memory that loading `graph.json` takes, at most (see BYTES_PER_JSON_ITEM)."""
    return 2 * len(data) + BYTES_PER_JSON_ITEM * json_items(data)


def metadata_budget(max_bytes: int) -> int:
    """How much of `max_bytes` the graph's metadata may take."""
    return max_bytes // METADATA_SHARE
