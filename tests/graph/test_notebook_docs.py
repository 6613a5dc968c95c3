"""Every runnable example of docs/guide.md and docs/graph-mode.md, run as notebook cells by
nbclient in a real ipykernel (one kernel per page), with assertions on what the notebook shows.

The cells are the pages' Python blocks, in order, as `tests/doc_pages.py` reads them: a ```text
block right after a Python block is exactly what that cell prints, and so is a
`<!-- generated -->` block after the guide's `print(autoconv.to_code(...))`. Cells appended
after a page's own display the objects it made (a `Function`, a `ConcreteFunction`, a `Graph`,
`to_code`), which must come with their rich MIME types.
"""

import pathlib
import re

import nbclient
import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

_BLOCK = re.compile(
    r"(?:<!-- (?P<kind>\w+)[^\n]*-->[ \t]*\n)?^```(?P<lang>python|text)[ \t]*\n(?P<body>.*?)^```",
    re.S | re.M,
)


def page_cells(page: str) -> list[tuple[str, str | None]]:
    """(source, expected stdout or None) for each runnable Python block of docs/`page`."""
    blocks = [m.groupdict() for m in _BLOCK.finditer((ROOT / "docs" / page).read_text())]
    cells = []
    for block, after in zip(blocks, blocks[1:] + [None]):
        if block["lang"] != "python" or block["kind"] == "generated":
            continue
        expected = None
        if after is not None and (after["lang"] == "text" or after["kind"] == "generated"):
            expected = after["body"]
        cells.append((block["body"], expected))
    return cells


# Cells run after each page's own: (source, the MIME types its display must have, and text
# the plain-text form starts with).
DISPLAYS = {
    "guide.md": [
        ("autoconv.to_code(clamp)", {"text/plain", "text/html"}, "def clamp(x, lo, hi):"),
        ("relu_sum", {"text/plain", "text/html"}, "<autoconv.Function relu_sum"),
    ],
    "graph-mode.md": [
        ("g", {"text/plain", "text/html"}, "<autoconv.Function g"),
        ("concrete", {"text/plain", "text/html"}, ""),
        ("concrete.graph", {"text/plain", "text/html"}, ""),
        ("autoconv.to_code(g)", {"text/plain", "text/html"}, "def g(x):"),
    ],
}

SETUP = (
    # The kernel imports this checkout's sources, whatever autoconv is installed.
    f"import sys\nsys.path.insert(0, {str(ROOT / 'src')!r})\nimport autoconv"
)


def _stream(outputs, name: str) -> str:
    return "".join(o.text for o in outputs if o.output_type == "stream" and o.name == name)


def _run(page: str):
    cells = page_cells(page)
    displays = DISPLAYS[page]
    notebook = nbformat.v4.new_notebook()
    sources = [SETUP] + [source for source, _ in cells] + [source for source, *_ in displays]
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    nbclient.NotebookClient(notebook, timeout=180, kernel_name="python3").execute()
    outputs = [cell.outputs for cell in notebook.cells]
    for i, cell_outputs in enumerate(outputs):
        errors = [f"{o.ename}: {o.evalue}" for o in cell_outputs if o.output_type == "error"]
        assert not errors, (page, sources[i], errors)
    return cells, outputs[1 : 1 + len(cells)], outputs[1 + len(cells) :]


@pytest.fixture(scope="module", params=["guide.md", "graph-mode.md"])
def executed(request):
    return request.param, *_run(request.param)


def test_every_example_runs_and_prints_what_the_page_shows(executed):
    page, cells, outputs, _ = executed
    checked = 0
    for (source, expected), cell_outputs in zip(cells, outputs):
        if expected is not None:
            assert _stream(cell_outputs, "stdout").rstrip("\n") == expected.rstrip("\n"), source
            checked += 1
    assert checked >= {"guide.md": 1, "graph-mode.md": 8}[page]
    assert len(cells) >= {"guide.md": 9, "graph-mode.md": 14}[page]


def test_rich_objects_display_with_their_mime_types(executed):
    page, _, _, display_outputs = executed
    for (source, mimes, plain_start), cell_outputs in zip(DISPLAYS[page], display_outputs):
        results = [o for o in cell_outputs if o.output_type == "execute_result"]
        assert len(results) == 1, source
        data = results[0].data
        assert mimes <= set(data), (source, sorted(data))
        assert data["text/plain"].startswith(plain_start), (source, data["text/plain"][:80])
        assert data["text/html"].strip(), source


def test_page_cells_display_no_plain_repr_for_rich_objects(executed):
    """A page cell whose value is a Function, ConcreteFunction, Graph or code shows HTML."""
    _, _, outputs, _ = executed
    for cell_outputs in outputs:
        for o in cell_outputs:
            if o.output_type == "execute_result" and "autoconv." in o.data["text/plain"]:
                assert "text/html" in o.data, o.data["text/plain"][:80]


# Warnings a page's cell shows on stderr: (text in the cell's source, text in its stderr).
STDERR = {
    "guide.md": [],
    # The trace-time `print` of "What runs when" warns, in the cell that traced it.
    "graph-mode.md": [
        ('print("tracing")', "TraceEffectWarning"),
        ('print("tracing")', "autoconv.print"),
    ],
}


def test_warnings_show_in_the_cell_that_caused_them(executed):
    page, cells, outputs, _ = executed
    for marker, text in STDERR[page]:
        index = next(i for i, (source, _) in enumerate(cells) if marker in source)
        assert text in _stream(outputs[index], "stderr"), (marker, text)
    # No other cell of the page warns.
    warned = {i for i, (source, _) in enumerate(cells) for m, _ in STDERR[page] if m in source}
    for i, cell_outputs in enumerate(outputs):
        if i not in warned:
            assert "Warning" not in _stream(cell_outputs, "stderr"), cells[i][0]


def test_a_cell_run_again_does_not_warn_but_a_function_made_in_a_loop_does():
    """In a notebook, running a cell that makes a Function again (here: three identical cells,
    which ipykernel compiles under one file name) is no mistake; a loop that makes one per
    iteration is, and its RetracingWarning shows in that cell."""
    again = "@autoconv.function\ndef again(x):\n    return x + 1\n\nagain(np.ones(2)).tolist()"
    looped = "for _ in range(3):\n    autoconv.function(lambda x: x * 2)(np.ones(2))"
    sources = [SETUP + "\nimport numpy as np", again, again, again, looped]
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    nbclient.NotebookClient(notebook, timeout=180, kernel_name="python3").execute()
    outputs = [cell.outputs for cell in notebook.cells]
    assert not [o for cell in outputs for o in cell if o.output_type == "error"]
    for cell_outputs in outputs[1:4]:
        assert cell_outputs[-1].data["text/plain"] == "[2.0, 2.0]"
        assert "Warning" not in _stream(cell_outputs, "stderr")
    stderr = _stream(outputs[4], "stderr")
    assert "RetracingWarning" in stderr and "made anew and traced 3 times" in stderr
