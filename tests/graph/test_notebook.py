"""A generated notebook, executed by nbclient in a real ipykernel: a docs/graph-mode.md
example runs in cells, and a Function, a ConcreteFunction, `to_code` and a profile display
with the MIME types a notebook shows (HTML, with the plain text still the code itself)."""

import pathlib
import re
import shutil
import textwrap

import nbclient
import nbformat

ROOT = pathlib.Path(__file__).resolve().parents[2]


def first_python_block(page: str) -> str:
    return re.search(r"```python\n(.*?)```", (ROOT / "docs" / page).read_text(), re.S).group(1)


CELLS = [
    # The kernel imports this checkout's sources, whatever autoconv is installed.
    f"import sys\nsys.path.insert(0, {str(ROOT / 'src')!r})",
    first_python_block("graph-mode.md"),
    textwrap.dedent(
        """
        import numpy as np
        import autoconv

        @autoconv.function
        def clipped(x, limit):
            if np.sum(x) > limit:
                x = x / np.sum(x)
            return x

        clipped(np.ones(4), 2.0).tolist()
        """
    ),
    "clipped",
    "concrete = clipped.get_concrete_function(np.ones(4), 2.0)\nconcrete",
    "autoconv.to_code(clipped)",
    "concrete.profile(np.ones(4), 2.0, runs=3)",
]


def test_a_notebook_runs_the_examples_and_displays_rich_outputs():
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    outputs = [cell.outputs for cell in notebook.cells]
    for i, cell_outputs in enumerate(outputs):
        errors = [o for o in cell_outputs if o.output_type == "error"]
        assert not errors, (i, errors)
    result = {i: o[-1].data for i, o in enumerate(outputs) if o and "data" in o[-1]}
    assert result[2]["text/plain"] == "[0.25, 0.25, 0.25, 0.25]"
    function, concrete, code, profile = (result[i] for i in (3, 4, 5, 6))
    assert "autoconv.Function" in function["text/html"] and "clipped" in function["text/html"]
    assert "autoconv.ConcreteFunction" in concrete["text/html"]
    assert "cond(" in concrete["text/html"]  # the listing of the staged `if`
    assert ("<svg" in concrete["text/html"]) == (shutil.which("dot") is not None)
    # to_code alone in a cell shows the code, not an escaped one-line string.
    assert code["text/plain"].startswith("def clipped(x, limit):\n")
    assert code["text/html"].startswith("<pre") and "if_stmt" in code["text/html"]
    assert profile["text/html"].count("<table") == 2
    assert profile["text/plain"].startswith("profile of clipped: 3 runs")
