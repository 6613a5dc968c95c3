"""The docs cannot go stale: the guide's examples run, and every generated block of
docs/conversion.md and docs/guide.md is what the current converter produces.

Blocks are marked as `tools/gen_conversion_docs.py` describes (`<!-- original -->`,
`<!-- generated -->`, `<!-- warning -->`); that script rewrites the generated ones.
"""

import contextlib
import functools
import importlib.util
import io
import linecache
import os
import pathlib
import re
import runpy

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = ["docs/conversion.md", "docs/guide.md"]
FIX = "run `python tools/gen_conversion_docs.py` to regenerate the docs"


def _load_generator():
    path = ROOT / "tools" / "gen_conversion_docs.py"
    spec = importlib.util.spec_from_file_location("gen_conversion_docs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _load_generator()


def _text(doc):
    return (ROOT / doc).read_text(encoding="utf-8")


@functools.cache
def _expected(doc):
    """{line of a generated or warning block: the code it must hold}."""
    return {block.line: value for block, value in gen.expected_blocks(_text(doc))}


def _derived_blocks():
    for doc in DOCS:
        for block in gen.marked_blocks(_text(doc)):
            if block.kind != "original":
                yield pytest.param(doc, block.line, id=f"{doc}:{block.line}:{block.kind}")


@pytest.mark.parametrize(("doc", "line"), list(_derived_blocks()))
def test_generated_block_is_current(doc, line):
    block = next(b for b in gen.marked_blocks(_text(doc)) if b.line == line)
    assert block.code == _expected(doc)[line], f"{doc}:{line} is stale: {FIX}"


@pytest.mark.parametrize("doc", DOCS)
def test_every_original_block_shows_its_result(doc):
    """Each original block is followed by a generated or warning block before the next one."""
    blocks = gen.marked_blocks(_text(doc))
    assert blocks, f"{doc} has no marked blocks"
    for block, after in zip(blocks, blocks[1:] + [None]):
        if block.kind == "original":
            assert after is not None and after.kind != "original", (
                f"{doc}:{block.line}: an original block with no generated or warning block"
            )


def test_conversion_md_covers_every_construct():
    headings = set(re.findall(r"^## (.+)$", _text("docs/conversion.md"), re.M))
    required = [
        "How to read converted code",
        "`if` / `elif` / `else`",
        "`while`",
        "`for`",
        "Loop `else`",
        "`break`",
        "`continue`",
        "`return`",
        "Conditional expressions",
        "`and` / `or` / `not`",
        "Chained comparisons",
        "Calls",
        "Nested functions, lambdas and comprehensions",
        "`global` and `nonlocal`",
        "Annotated locals",
        "Attributes and subscripts",
        "Assignment expressions (`:=`)",
        "`try` / `except` / `finally`",
        "`with`",
        "`match`",
        "Generators and coroutines",
        "`del`",
        "Private names",
        "`super()`",
        "What stays Python and why",
    ]
    assert [h for h in required if h not in headings] == []


_PYTHON_BLOCK = re.compile(
    r"(?:<!-- (?P<kind>\w+)[^\n]*-->[ \t]*\n)?^```python[ \t]*\n(?P<code>.*?)^```[ \t]*$",
    re.S | re.M,
)


def test_guide_examples_run(strict_mode):
    """The guide's Python blocks run in order, in one namespace, each from its own pseudo-file
    (in linecache, so autoconv finds the source), as a reader would paste them."""
    text = _text("docs/guide.md")
    namespace = {"__name__": "guide"}
    files = []
    try:
        for match in _PYTHON_BLOCK.finditer(text):
            if match["kind"] == "generated":
                continue
            code = match["code"]
            line = text.count("\n", 0, match.start("code")) + 1
            filename = f"docs/guide.md:{line}"
            linecache.cache[filename] = (len(code), None, code.splitlines(keepends=True), filename)
            files.append(filename)
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(code, filename, "exec"), namespace)
    finally:
        for filename in files:
            linecache.cache.pop(filename, None)
    assert len(files) >= 8


# A block whose first line starts with SETUP is run before each later block of its page (the
# page's imports and helpers); one starting with AFTER continues the block just above it.
SETUP = "# Run this first"  # also "# Run this first too"
AFTER = "# After the block above"
PAGES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md")) + ["README.md"]


@pytest.mark.parametrize("page", PAGES)
def test_every_block_runs_on_its_own(page, tmp_path, monkeypatch):
    """Each Python block runs when copied alone into a fresh file: after the page's blocks
    marked SETUP above it, and after the one block above it when it starts with AFTER."""
    import warnings

    import autoconv

    text = _text(page)
    setup, previous = [], ""
    for n, match in enumerate(_PYTHON_BLOCK.finditer(text)):
        if match["kind"] == "generated":
            continue
        code = match["code"]
        line = text.count("\n", 0, match.start("code")) + 1
        before = setup + ([previous] if code.startswith(AFTER) else [])
        path = tmp_path / f"block_{n}.py"
        path.write_text("\n".join(before + [code]), encoding="utf-8")
        monkeypatch.setattr(os, "environ", os.environ.copy())
        try:
            with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                runpy.run_path(str(path), run_name="__main__")
        except Exception as e:
            pytest.fail(f"{page}:{line}: the block fails when run on its own: {e!r}")
        finally:
            autoconv.set_strict(False)
            autoconv.set_always_converted(False)
        if code.startswith(SETUP):
            setup.append(code)
        previous = code
