"""Fills the generated parts of the docs from the code they document.

    python tools/gen_conversion_docs.py           # rewrite docs/conversion.md and docs/guide.md
    python tools/gen_conversion_docs.py --check   # exit 1 if either is stale (nothing written)

The docs mark their code blocks with an HTML comment on the line before the fence:

    <!-- original -->             a Python block: runs as a module named `example`, from a file
                                  named `example.py`; its first top-level function is the subject
    <!-- original: EXPR -->       the same, with EXPR (evaluated in the block's namespace, e.g.
                                  `Box.set` or `make_counter()`) as the subject
    <!-- generated -->            `autoconv.to_code(subject)`, exactly
    <!-- warning -->              the warnings converting the subject gives, one a line (at its
                                  first trace; at `autoconv.convert` in strict mode)

A `generated` or `warning` block belongs to the nearest `original` block above it. Other blocks
are prose examples: `tests/test_docs.py` runs the guide's Python blocks, and checks, as this
script's `--check` does, that every generated block is what the current converter produces.
"""

import argparse
import ast
import contextlib
import io
import linecache
import pathlib
import re
import sys
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = [ROOT / "docs" / "conversion.md", ROOT / "docs" / "guide.md"]
EXAMPLE_FILE = "example.py"

# A marker comment, then a fenced block; group "code" is the block's text.
_BLOCK = re.compile(
    r"<!-- (?P<kind>original|generated|warning)(?::[ \t]*(?P<arg>[^\n]*?))?[ \t]*-->[ \t]*\n"
    r"(?P<fence>```+)(?P<lang>[\w-]*)[ \t]*\n(?P<code>.*?)^(?P=fence)[ \t]*$",
    re.S | re.M,
)


class Block:
    def __init__(self, match):
        self.kind = match["kind"]
        self.arg = (match["arg"] or "").strip()
        self.lang = match["lang"]
        self.code = match["code"]
        self.span = match.span("code")
        self.line = match.string.count("\n", 0, match.start("code")) + 1


def marked_blocks(text: str) -> list:
    """The marked blocks of a Markdown text, in order."""
    return [Block(m) for m in _BLOCK.finditer(text)]


def run_example(code: str) -> dict:
    """Runs an original block as the module `example` (source in `example.py`, through
    linecache, so autoconv can read it; what it prints is dropped) and returns its
    namespace."""
    lines = code.splitlines(keepends=True)
    linecache.cache[EXAMPLE_FILE] = (len(code), None, lines, EXAMPLE_FILE)
    namespace = {"__name__": "example", "__file__": EXAMPLE_FILE}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, EXAMPLE_FILE, "exec"), namespace)
    return namespace


def subject(block, namespace):
    if block.arg:
        return eval(block.arg, namespace)
    for node in ast.parse(block.code).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return namespace[node.name]
    raise ValueError(f"line {block.line}: an original block with no top-level function")


def render(original: Block) -> dict:
    """{'generated': text, 'warning': text} for an original block (text ends with a newline;
    'generated' is None when the subject cannot be converted)."""
    import autoconv
    from autoconv.conversion.api import functional

    try:
        namespace = run_example(original.code)
        func = subject(original, namespace)
        try:
            generated = autoconv.to_code(func)
        except autoconv.ConversionError:
            generated = None
        strict = autoconv.is_strict()
        autoconv.set_strict(False)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                converted = autoconv.convert(func)
                if converted is not func:
                    functional(converted)  # what its first trace does
        finally:
            autoconv.set_strict(strict)
    finally:
        linecache.cache.pop(EXAMPLE_FILE, None)
    warning = "".join(f"{w.message}\n" for w in caught)
    return {"generated": generated, "warning": warning}


def expected_blocks(text: str) -> list:
    """(block, expected code) for every generated or warning block of a Markdown text."""
    out, current, rendered = [], None, None
    for block in marked_blocks(text):
        if block.kind == "original":
            current, rendered = block, None
            continue
        if current is None:
            raise ValueError(f"line {block.line}: a {block.kind} block with no original above")
        if rendered is None:
            rendered = render(current)
        value = rendered[block.kind]
        if value is None:
            raise ValueError(
                f"line {block.line}: the original block at line {current.line} cannot be "
                "converted, so it has no generated code (use a warning block)"
            )
        out.append((block, value))
    return out


def regenerate(text: str) -> str:
    pieces, last = [], 0
    for block, value in expected_blocks(text):
        start, end = block.span
        pieces.append(text[last:start])
        pieces.append(value)
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report stale docs, write nothing")
    parser.add_argument(
        "files",
        nargs="*",
        type=pathlib.Path,
        default=DOCS,
        help="Markdown files (default: docs/conversion.md, docs/guide.md)",
    )
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "src"))
    stale = []
    for path in args.files:
        text = path.read_text(encoding="utf-8")
        new = regenerate(text)
        if new != text:
            stale.append(path)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    for path in stale:
        print(f"{'stale' if args.check else 'updated'}: {path}")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
