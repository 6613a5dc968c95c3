"""Fuzzed and hostile saved files against the contract of `autoconv.load` (docs/saving.md,
"Safety"), with the fuzzer of `tests/saving/fuzz.py`:

- `load` raises only LoadError for a bad file, and ends; it runs no code from the file, opens
  no path but the file's, imports nothing new outside autoconv/NumPy/JAX/the standard library,
  starts no process and unpickles nothing (the audit hook of `fuzz.Audit`);
- the generated code of an accepted file passes the token grammar (`fuzz.token_problems`);
- the load's memory is bounded by what the file declares (`fuzz.ALLOWANCE`);
- calls of an accepted file raise no internal error of autoconv (`fuzz.internal_error`);
- origins are text: no path an origin names is opened, even when a call fails.

The fuzz runs a fixed seed when `CI` is set (a random one otherwise, printed on failure;
`AUTOCONV_FUZZ_SEED` sets it), `AUTOCONV_FUZZ_CASES` cases on NumPy (default 700, about
10 s) and a tenth of them on JAX (`AUTOCONV_FUZZ_JAX_CASES`). `tools/fuzz_saved.py` runs long and prints a table by mutator.
"""

import collections
import json
import os
import random
import re
import sys
import time
import tracemalloc

import numpy as np
import pytest

import autoconv
from autoconv.functions.saving import LoadError, archive
from tests.saving import fuzz

CI = bool(os.environ.get("CI"))
SEED = os.environ.get("AUTOCONV_FUZZ_SEED") or ("0" if CI else str(random.randrange(10**6)))
CASES = int(os.environ.get("AUTOCONV_FUZZ_CASES", "700"))
JAX_CASES = int(os.environ.get("AUTOCONV_FUZZ_JAX_CASES", str(max(CASES // 10, 20))))
X = np.array([1.0, 2.0, 3.0])


def report(outcomes) -> str:
    """The violations of `outcomes`, grouped by their first line's kind."""
    bad = [o for o in outcomes if o.violations]
    groups = collections.defaultdict(list)
    for o in bad:
        groups[re.sub(r"[0-9]+", "N", o.violations[0])[:70]].append(o)
    lines = [f"seed {SEED}: {len(bad)} of {len(outcomes)} cases broke the contract"]
    for kind, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"\n== {kind} ({len(items)} cases), e.g.:")
        lines += [o.summary()[:1500] for o in items[:3]]
    return "\n".join(lines)


def entry(name):
    return next(e for e in fuzz.build_corpus() if e.name == name)


def edited(name, change, fix=True) -> bytes:
    """The corpus file `name` with `change(document)` applied (checksum fixed)."""
    members = dict(entry(name).members)
    document = json.loads(members["graph.json"])
    change(document)
    members["graph.json"] = fuzz.dumps(document)
    return fuzz.build(members, fix_checksum=fix)


@pytest.fixture(scope="module")
def numpy_runner(tmp_path_factory):
    return fuzz.Runner("numpy", folder=str(tmp_path_factory.mktemp("fuzz-numpy")))


@pytest.fixture(scope="module")
def jax_runner(tmp_path_factory):
    jax = pytest.importorskip("jax")
    filtering = jax.config.jax_traceback_filtering
    yield fuzz.Runner("jax", folder=str(tmp_path_factory.mktemp("fuzz-jax")))
    # (the runner turns JAX's filtering off: later tests in this process see JAX's default)
    jax.config.update("jax_traceback_filtering", filtering)


def check(runner, name, data, detail="", special=None):
    case = fuzz.Case(0, "targeted", name, detail, data, special)
    outcome = runner.run_case(case)
    assert not outcome.violations, outcome.summary()
    return outcome


# --- the harness itself ----------------------------------------------------------------------


def test_the_corpus_loads_runs_and_passes_the_grammar(numpy_runner):
    """Every valid file is accepted, its code passes the grammar, its calls raise nothing
    internal: the checks below fail for the fuzzed files only."""
    for e in numpy_runner.corpus:
        outcome = check(numpy_runner, e.name, e.data, "the valid file")
        assert outcome.status == "accepted", outcome.message


def test_the_corpus_runs_on_jax(jax_runner):
    for e in jax_runner.corpus:
        outcome = check(jax_runner, e.name, e.data, "the valid file")
        assert outcome.status == "accepted", outcome.message


def test_the_audit_hook_sees_what_it_guards_against(tmp_path):
    audit = fuzz.audit()
    path = tmp_path / "f.acg"
    path.write_bytes(b"")
    with audit.watching(path):
        open(path, "rb").close()  # the archive: allowed
        open(os.path.join(os.path.dirname(np.__file__), "__init__.py"), "rb").close()
        with open(tmp_path / "other", "w"):  # anything else: recorded
            pass
        exec(compile("x = 1", "<string>", "exec"), {})  # noqa: S102 - the event under test
        os.system("true")  # noqa: S605, S607 - the event under test
    text = "\n".join(audit.violations)
    assert "open of" in text and "other" in text, text
    assert "compile of" in text and "exec of" in text and "os.system" in text, text
    assert len(audit.violations) == 4, text


def test_the_grammar_refuses_what_must_not_reach_code():
    good = "def make_run(\n    c,  # a float\n):\n    def run(v0):\n        return v0 + c\n    return run\n"
    assert fuzz.token_problems(good) == []
    for bad in (
        good.replace("# a float", "# a\rx=1"),
        good.replace("v0 + c", "v0 + c + open"),  # a builtin: allowed; an unknown name is not
        good.replace("v0 + c", "v0 + evil"),
        good.replace("v0 + c", "v0 + f'{c}'"),
        good.replace("# a float", "# \u2028"),
    ):
        problems = fuzz.token_problems(bad)
        assert problems or "open" in bad, bad
    assert fuzz.token_problems(good.replace("v0 + c", "v0 + evil"))


def test_internal_errors_are_told_from_the_operations_own():
    def raise_here():
        raise KeyError("x")

    try:
        raise_here()
    except KeyError as e:
        assert not fuzz.internal_error(e)  # a test file, not autoconv's source
    try:
        autoconv.load(os.devnull, backend="nope")
    except LoadError as e:
        assert not fuzz.internal_error(e)  # an AutoconvError


# --- the fuzz ----------------------------------------------------------------------------------


def test_fuzzed_files_numpy():
    """Each fuzzed file is refused with a LoadError or loads into code of the grammar whose
    calls raise nothing internal; nothing forbidden runs; memory stays bounded. Run in a worker
    process, which is killed and restarted on a hang."""
    outcomes = fuzz.supervise("numpy", SEED, 0, CASES)
    assert len(outcomes) == CASES
    statuses = collections.Counter(o.status for o in outcomes)
    assert statuses["refused"] and statuses["accepted"], statuses
    assert not any(o.violations for o in outcomes), report(outcomes)


def test_fuzzed_files_jax():
    pytest.importorskip("jax")
    outcomes = fuzz.supervise("jax", SEED, 0, JAX_CASES)
    assert len(outcomes) == JAX_CASES
    assert not any(o.violations for o in outcomes), report(outcomes)


def test_every_field_swept(numpy_runner):
    """Every scalar field of the `pick` file set to each of a few injection values, one at a
    time (`tools/fuzz_saved.py --only sweep` sweeps all files with all values)."""
    corpus = fuzz.build_corpus()
    start = 0
    for e in corpus:
        if e.name == "pick":
            break
        start += len(fuzz.scalar_slots(e.document)) * len(fuzz.SWEEP_VALUES)
    size = len(fuzz.scalar_slots(entry("pick").document)) * len(fuzz.SWEEP_VALUES)
    values = {fuzz.SWEEP_VALUES.index(v) for v in (fuzz.PAYLOAD, "\x0c", "\u2028", -1, None, [])}
    indices = [
        i for i in range(start, start + size) if (i - start) % len(fuzz.SWEEP_VALUES) in values
    ]
    outcomes = [numpy_runner.run_case(fuzz.sweep_case(i)) for i in indices]
    assert {o.entry for o in outcomes} == {"pick"}
    assert not any(o.violations for o in outcomes), report(outcomes)


# --- names with line breaks --------------------------------------------------------------------


def _set_origins(document, origin):
    for node in fuzz._walk_nodes(document):
        node["origin"] = list(origin)


def _first_node(document, kind=None):
    return next(n for n in fuzz._walk_nodes(document) if kind is None or n["kind"] == kind)


def _messages(document, text):
    """The messages of `named`'s staged raises set to `text`."""
    for node in fuzz._walk_nodes(document):
        if node["fn"] == "autoconv.raise":
            node["args"][0][2][0] = ["str", text]
        elif node["fn"] == "autoconv.format":
            node["args"][0][1][0] = ["str", text]


def _at(*path, wrap=lambda t: t):
    """A change setting the item at `path` (from the first graph) to `wrap(text)`."""

    def change(document, text):
        target = document["signatures"][0]["graph"] if path[0] != "/" else document
        for key in path[1 if path[0] == "/" else 0 : -1]:
            target = target[key]
        target[path[-1]] = wrap(text)

    return change


def _on_node(kind, *path, wrap=lambda t: t, append=False):
    def change(document, text):
        target = _first_node(document, kind)
        for key in path[:-1]:
            target = target[key]
        if append:
            target[path[-1]].append(wrap(text))
        else:
            target[path[-1]] = wrap(text)

    return change


# (corpus file, what is replaced, how): every place a file holds a name or text.
NAME_PLACES = [
    ("control", "Variable name", _at("/", "variables", 0, "name")),
    ("control", "function name", _at("/", "name")),
    ("control", "graph name", _at("name")),
    ("control", "input name", _at("inputs", 0, "name")),
    ("control", "parameter name", _at("/", "params", 0, "name")),
    ("control", "node op", _on_node(None, "op")),
    ("control", "origin path", lambda d, t: _set_origins(d, [t, 1])),
    ("control", "origin text", lambda d, t: _set_origins(d, ["f.py", 1, t])),
    ("control", "folded attribute", _on_node(None, "attrs", "folded")),
    ("control", "list attribute", _on_node(None, "attrs", "list")),
    ("control", "dict key", _at("outputs", 1, 0, 0, 1)),
    ("control", "printed string", _on_node("print", "args", 0, wrap=lambda t: ["str", t])),
    (
        "control",
        "keyword name",
        _on_node("print", "kwargs", wrap=lambda t: [t, ["int", "1"]], append=True),
    ),
    ("unbound", "Optional name", _at("outputs", 4)),
    ("unbound", "Optional missing name", _at("outputs", 3, wrap=lambda t: ["unbound", t])),
    ("unbound", "Optional missing kind", _at("outputs", 3, wrap=lambda t: [t, "z"])),
    ("first_over", "Mixed name", _at("outputs", 2, 4)),
    ("named", "namedtuple name", _at("outputs", 1)),
    ("named", "namedtuple field", _at("outputs", 2, 0)),
    ("named", "exception message", lambda d, t: _messages(d, t)),
    ("writeback", "write-back name", _at("/", "signatures", 0, "writebacks", 0, 2)),
    (
        "writeback",
        "write-back key",
        _at("/", "signatures", 0, "writebacks", 0, 3, 0, wrap=lambda t: ["str", t]),
    ),
]
TEXTS = [fuzz.PAYLOAD, *fuzz.BREAKS, f"x'),open('{fuzz.MARKER}','w'),('", "\ufb01le"]


@pytest.mark.parametrize("name, place, change", NAME_PLACES, ids=[p[1] for p in NAME_PLACES])
def test_line_breaks_in_names_never_reach_code(numpy_runner, name, place, change):
    """`"\\rx=open('MARKER','w'),*,z=0,#"` and every other character a tokenizer may read as
    a line break, in each name a file holds: refused, or kept out of the code (or only in
    a literal), with nothing run."""
    for text in TEXTS:
        check(
            numpy_runner, name, edited(name, lambda d, t=text: change(d, t)), f"{place} = {text!a}"
        )


@pytest.mark.parametrize("name, place, change", NAME_PLACES, ids=[p[1] for p in NAME_PLACES])
def test_line_breaks_in_names_never_reach_jax_code(jax_runner, name, place, change):
    for text in (fuzz.PAYLOAD, "\x0c", "\u2028"):
        check(jax_runner, name, edited(name, lambda d, t=text: change(d, t)), f"{place} = {text!a}")


# --- origins are text ----------------------------------------------------------------------------


@pytest.fixture
def origin_targets(tmp_path):
    secret = tmp_path / "secret.py"
    secret.write_text("TOP SECRET\n" * 3)
    fifo = tmp_path / "fifo.py"
    os.mkfifo(fifo)
    return ["/proc/self/environ", "/etc/passwd", "/dev/zero", str(fifo), str(secret)]


@pytest.mark.parametrize("backend", ["numpy", "jax"])
@pytest.mark.parametrize(
    "name, args, error",
    [("pick", (X, np.int64(7)), IndexError), ("named", (-X,), ValueError)],
)
def test_origins_are_never_opened_when_a_call_fails(
    tmp_path, origin_targets, backend, name, args, error
):
    """A run-time error names the origin's file and line, without reading it: not
    /proc/self/environ, /etc/passwd, /dev/zero (endless) or a FIFO (blocks)."""
    if backend == "jax":
        pytest.importorskip("jax")
    audit = fuzz.audit()
    for target in origin_targets:
        for origin in ([target, 2], [target, 1, ""]):
            path = tmp_path / "o.acg"
            path.write_bytes(edited(name, lambda d, o=origin: _set_origins(d, o)))
            f = autoconv.load(path, backend=backend)
            with audit.watching(path), fuzz.time_limit(10):
                with pytest.raises(error) as e:
                    f(*args)
                listing = f.graph().as_text()
            assert os.path.abspath(target) not in audit.opened, (target, audit.opened)
            assert "TOP SECRET" not in str(e.value) + listing
            assert not audit.violations, audit.violations


# --- special paths -------------------------------------------------------------------------------


@pytest.mark.parametrize("special", fuzz.SPECIALS)
def test_special_paths_are_refused_at_once(numpy_runner, special):
    start = time.perf_counter()
    outcome = check(numpy_runner, "control", None, special, special)
    assert outcome.status == "refused", outcome
    assert time.perf_counter() - start < 5


# --- bombs and size claims -----------------------------------------------------------------------


def _bounded(path, max_bytes=archive.MAX_BYTES, allowance=fuzz.ALLOWANCE):
    """`load(path)` refused with a LoadError, its peak traced memory within the bound."""
    declared = fuzz.declared_size(path)
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(LoadError) as e, fuzz.time_limit(30):
            autoconv.load(path, max_bytes=max_bytes)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak <= declared + allowance, (
        f"peak {peak} bytes for {declared} declared ({e.value if e else ''})"
    )
    assert time.perf_counter() - start < 20
    return e.value


@pytest.mark.parametrize(
    "member, data",
    [
        ("graph.json", b"[" * 100_000 + b"]" * 100_000),
        ("graph.json", b'{"a":' * 100_000 + b"1" + b"}" * 100_000),
        ("manifest.json", b"[" * 100_000 + b"]" * 100_000),
        ("manifest.json", b"[" * 2000 + b"]" * 2000),
    ],
    ids=["graph-lists", "graph-objects", "manifest-100k", "manifest-2k"],
)
def test_nesting_bombs_are_refused_in_bounded_memory(tmp_path, member, data):
    members = dict(entry("control").members)
    members[member] = data
    path = tmp_path / "n.acg"
    path.write_bytes(fuzz.build(members, fix_checksum=member != "manifest.json"))
    _bounded(path)


@pytest.mark.parametrize("depth", [65, 200, 480, 5000])
def test_deeply_nested_values_are_refused(numpy_runner, depth):
    value = fuzz.Raw('["tuple", [' * depth + '["none"]' + "]]" * depth)

    def change(document):
        document["signatures"][0]["graph"]["outputs"] = value

    outcome = check(numpy_runner, "control", edited("control", change), f"{depth} deep")
    assert outcome.status == "refused"


@pytest.mark.parametrize(
    "graph",
    [
        b"[" + b'"aaaaaaaaaaaaaa",' * 900_000 + b'"a"]',  # 15 MiB of strings: bracket scan
        b"[" + b"1.5e300," * 999_000 + b"0]",  # a million floats
        b"[" + b"0," * 999_000 + b"0]",
    ],
    ids=["strings", "floats", "ints"],
)
def test_json_metadata_is_parsed_in_bounded_memory(tmp_path, graph):
    """graph.json under its size cap: the load's memory stays within what the file declares
    (`fuzz.declared_size`: the parsed graph's cost counted) and a fixed allowance."""
    members = dict(entry("control").members)
    members["graph.json"] = graph
    path = tmp_path / "j.acg"
    path.write_bytes(fuzz.build(members))
    _bounded(path)


def test_a_zip_bomb_is_refused_before_it_is_inflated(tmp_path):
    """1 MiB of deflate data declaring 1 GiB of zeros as an array member."""
    data, crc = fuzz.zeros_deflated(1 << 30)
    assert len(data) < 2 << 20
    members = entry("control").members
    entries = [{"name": n, "data": d} for n, d in members.items()]
    entries.append(
        {"name": f"arrays/{len(entries)}.npy", "data": data, "method": 8, "crc": crc,
         "usize": 1 << 30}
    )  # fmt: skip
    path = tmp_path / "bomb.acg"
    path.write_bytes(fuzz.raw_zip(entries))
    assert "max_bytes" in str(_bounded(path))
    assert "max_bytes" in str(_bounded(path, max_bytes=10 << 20))


def test_many_members_are_refused_in_bounded_memory(tmp_path):
    members = entry("control").members
    entries = [{"name": n, "data": d} for n, d in members.items()]
    start = sum(1 for n in members if n.startswith("arrays/"))
    entries += [{"name": f"arrays/{start + i}.npy", "data": b""} for i in range(65_537)]
    path = tmp_path / "many.acg"
    path.write_bytes(fuzz.raw_zip(entries))
    _bounded(path)


def test_max_bytes_is_checked_before_anything_is_allocated(tmp_path):
    valid = tmp_path / "v.acg"
    valid.write_bytes(entry("control").data)
    assert "max_bytes" in str(_bounded(valid, max_bytes=100))
    # An array that declares 512 MiB: refused under max_bytes=1 MiB without allocating it.
    members = dict(entry("control").members)
    header = fuzz.npy_header("'<f8'", "(67108864,)")
    entries = [{"name": n, "data": d} for n, d in members.items()]
    entries.append(
        {"name": f"arrays/{len(entries)}.npy", "data": header, "usize": len(header) + (512 << 20)}
    )
    big = tmp_path / "big.acg"
    big.write_bytes(fuzz.raw_zip(entries))
    assert "max_bytes" in str(_bounded(big, max_bytes=1 << 20))


@pytest.mark.parametrize(
    "shape",
    ["(10**12,)", "(2**62, 2**62)", "(-1,)", "(3.0,)"],
)
def test_npy_headers_claiming_huge_shapes_are_refused(numpy_runner, shape):
    members = dict(entry("control").members)
    members["arrays/0.npy"] = fuzz.npy_header("'<f8'", shape) + b"\0" * 24
    outcome = check(numpy_runner, "control", fuzz.build(members), shape)
    assert outcome.status == "refused"


# --- constants that would take forever or all memory ----------------------------------------------


def _constant_node(document, kind, fn, args):
    node = _first_node(document)
    node.update(kind=kind, op=fn, fn=fn, args=args, kwargs=[], attrs={}, blocks=[])
    node["outputs"][0].update(shape=[], dtype="<i8", weak=True)


HUGE = [
    ("binop", "**", [["int", "7"], ["int", "999999999999"]]),
    ("binop", "<<", [["int", "1"], ["int", "99999999999"]]),
    ("binop", "*", [["str", "x"], ["int", "99999999999"]]),
    ("binop", "*", [["list", [["int", "1"]]], ["int", "99999999999"]]),
    ("call", "numpy.ones", [["int", "999999999999"]]),
    ("call", "numpy.arange", [["float", "1e15"]]),
    ("call", "numpy.full", [["tuple", [["int", "99999"], ["int", "99999"]]], ["int", "1"]]),
]


def test_operations_on_huge_constants_end():
    """A file whose operation on constants would take hours or terabytes: its load (and a
    call) ends within the time limit, refused or failing with MemoryError, and allocates
    no more than the bound. Run in a worker process with its address space capped (a hang
    there cannot stop the tests)."""
    cases = [
        fuzz.Case(i, "huge", "optional", f"{fn} of {args}"[:100],
                  edited("optional", lambda d, k=kind, f=fn, a=args: _constant_node(d, k, f, a)))
        for i, (kind, fn, args) in enumerate(HUGE)
    ]  # fmt: skip
    outcomes = fuzz.run_cases(cases)
    assert not any(o.violations for o in outcomes), report(outcomes)


# --- the process's random generators -------------------------------------------------------------


@pytest.mark.parametrize("seeder", ["numpy.random.seed", "random.seed", "numpy.random.set_state"])
def test_a_file_cannot_seed_the_process_generators(numpy_runner, seeder):
    def change(document):
        node = next(n for n in fuzz._walk_nodes(document) if n.get("attrs", {}).get("random"))
        node.update(fn=seeder, args=[["int", "0"]], kwargs=[])

    check(numpy_runner, "draws", edited("draws", change), seeder)


# --- describing an accepted file ------------------------------------------------------------------


def test_describing_an_accepted_file_raises_nothing_internal(numpy_runner):
    """A list accumulator where a reshape's shape was: accepted, and its listing must not
    fail with an internal AttributeError."""

    def change(document):
        node = next(n for n in fuzz._walk_nodes(document) if n["op"].endswith("reshape"))
        node["args"][1] = ["listaccum", ["list", []]]

    check(numpy_runner, "matrix", edited("matrix", change), "reshape(listaccum)")


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))


# --- odd arguments ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [None, 3, -1, 1.5, b"\xff/none.acg", "a\x00b", "\ud800.acg", "", ".", "x" * 5000, ["f"]],
    ids=repr,
)
def test_odd_paths_raise_load_errors(path):
    audit = fuzz.audit()
    with audit.watching(None), fuzz.time_limit(10):
        with pytest.raises(LoadError):
            autoconv.load(path)
    opened = [p for p in audit.opened if not p.endswith((".py", ".pyc", ".so"))]
    assert len(opened) <= 1, opened


@pytest.mark.parametrize(
    "options",
    [{"max_bytes": True}, {"max_bytes": -5}, {"backend": "\r"}, {"backend": None}],
    ids=repr,
)
def test_odd_options_raise_load_errors(tmp_path, options):
    path = tmp_path / "f.acg"
    path.write_bytes(entry("control").data)
    with pytest.raises(LoadError):
        autoconv.load(path, **options)
    assert autoconv.load(path, max_bytes=2**80)(X) is not None
