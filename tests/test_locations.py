"""Locations in messages, listings, pictures and profiles: `file:line` for files, and for code
typed into an IPython cell the name IPython's own tracebacks use, `Cell In[3], line 4`.

The cells run in a real IPython shell in a fresh process (a shell is process-wide state)."""

import pathlib
import subprocess
import sys
import textwrap

from autoconv.locations import cell_label, describe

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_a_file_is_named_by_path_and_line():
    assert cell_label(__file__) is None
    assert describe("/a/b/model.py", 5) == "/a/b/model.py:5"
    assert describe("/a/b/model.py", 5, short=True) == "model.py:5"
    assert describe("/a/b/model.py") == "/a/b/model.py"
    assert describe("<string>", 2, short=True) == "<string>:2"


# Each cell is one string; the shell numbers them In[1], In[2], ...
CELLS = [
    "import numpy as np, autoconv, warnings\nwarnings.simplefilter('always')",
    """
    @autoconv.function
    def f(x):
        y = x + 1
        if np.sum(y) > 0:
            y = y * 2
        return y
    """,
    """
    c = f.get_concrete_function(np.ones(3))
    print("LISTING", c.graph.as_text())
    print("DOT", c.to_dot())
    print("PROFILE", c.profile(np.ones(3), runs=2))
    """,
    """
    @autoconv.function
    def g(x):
        for i in range(3):
            x = x + 1
        x = x[:2] + x
        return x
    """,
    """
    try:
        g(np.ones(3))
    except autoconv.AutoconvError as e:
        print("STAGING", e)
    """,
    """
    def gen(n):
        for i in range(n):
            yield i
    with warnings.catch_warnings(record=True) as caught:
        autoconv.convert(gen)
    print("WARNING", caught[0].message)
    """,
]

SCRIPT = """
import sys
sys.path.insert(0, {src!r})
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance(colors="nocolor")
for cell in {cells!r}:
    result = shell.run_cell(cell, store_history=True)
    if result.error_in_exec is not None:
        raise SystemExit(f"cell failed: {{result.error_in_exec!r}}")
"""


def _run_cells() -> dict:
    cells = [textwrap.dedent(c).strip() for c in CELLS]
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(src=str(ROOT / "src"), cells=cells)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    sections, key = {}, None
    for line in out.splitlines():
        head = line.split(" ", 1)[0]
        if head in ("LISTING", "DOT", "PROFILE", "STAGING", "WARNING"):
            key = head
            line = line[len(head) + 1 :]
        if key is not None:
            sections.setdefault(key, []).append(line)
    return {k: "\n".join(v) for k, v in sections.items()}


def test_code_in_ipython_cells_is_named_as_ipython_names_it():
    shown = _run_cells()
    # `f` was typed into the second cell: its lines are lines 2-5 of In[2].
    listing = shown["LISTING"]
    assert "Cell In[2], line 3" in listing and "Cell In[2], line 5" in listing, listing
    assert "ipykernel" not in listing and "<ipython-input" not in listing
    assert "Cell In[2], line 5" in shown["DOT"]
    assert "Cell In[2], line 3" in shown["PROFILE"]
    assert shown["STAGING"].startswith("Cell In[4], line 5: "), shown["STAGING"]
    assert "the yield at Cell In[6], line 3 cannot be converted" in shown["WARNING"]
