"""What loading accepts at most, checked before anything is read, parsed or allocated (see
docs/saving.md, "Threat model")."""

MAX_BYTES = 1 << 30  # load()'s default cap on a file's declared contents, members uncompressed
MAX_MEMBERS = 65_536
MAX_MANIFEST = 4 << 10  # bytes of manifest.json
MAX_GRAPH = 16 << 20  # bytes of graph.json
MAX_JSON_ITEMS = 1_000_000  # JSON values in graph.json (each costs ~80 bytes once parsed)
MAX_JSON_DEPTH = 1000  # nested JSON arrays and objects
MAX_RATIO = 1100  # uncompressed / compressed size of a member: deflate cannot exceed ~1032
