"""Errors in a real notebook (nbclient, ipykernel): functions typed into cells that fail while
converting, while tracing and while their graph runs. The error output names the cell as
IPython does (`Cell In[3], line 4`, lines counted in the cell), the shown traceback has no
frame of autoconv's, and a graph listing names cells the same way."""

import pathlib
import re
import textwrap

import nbclient
import nbformat

ROOT = pathlib.Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;]*m")

# In[n] is the n-th cell below (each cell runs once, in order).
CELLS = [
    f"import sys\nsys.path.insert(0, {str(ROOT / 'src')!r})",
    "import numpy as np\nimport autoconv",
    # 3: fails while converting (strict mode)
    """
    autoconv.set_strict(True)
    @autoconv.function
    def reads_frame(x):
        sys._getframe()
        return x
    reads_frame(np.ones(2))
    """,
    # 4: fails while tracing
    """
    @autoconv.function
    def mismatched(x):
        y = x * 2
        return y[:2] + y
    mismatched(np.ones(3))
    """,
    # 5: fails while the graph runs
    """
    autoconv.set_strict(False)
    @autoconv.function
    def adds(a, b):
        return a + b
    spec = autoconv.TensorSpec([None], np.float64)
    concrete = adds.get_concrete_function(spec, spec)
    print(concrete.graph.as_text())
    concrete(np.ones(2), np.ones(3))
    """,
    # 6: a Python error of the user's, while tracing
    """
    @autoconv.function
    def checks(x):
        if x.shape[0] > 2:
            raise ValueError("at most two rows")
        return x
    checks(np.ones(3))
    """,
    # 7: a warning: a function left as Python
    """
    def gen(n):
        yield n
    autoconv.convert(gen)
    """,
    # 8: a TraceEffectWarning
    """
    seen = []
    @autoconv.function
    def keeps(x):
        seen.append(1)
        return x
    keeps(np.ones(2))
    """,
    # 9: a RetracingWarning
    """
    @autoconv.function
    def retraced(x):
        return x + 1
    for n in range(7):
        retraced(np.ones(n))
    """,
]


def _run():
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell(textwrap.dedent(source).strip()) for source in CELLS
    ]
    client = nbclient.NotebookClient(
        notebook, timeout=120, kernel_name="python3", allow_errors=True
    )
    client.execute()
    return notebook.cells


def _error(cell):
    (error,) = [o for o in cell.outputs if o.output_type == "error"]
    return error.ename, error.evalue, ANSI.sub("", "\n".join(error.traceback))


def test_notebook_errors_name_cells_and_hide_autoconv_frames():
    cells = _run()
    for i in (0, 1):
        assert not [o for o in cells[i].outputs if o.output_type == "error"]
    assert [c.execution_count for c in cells] == list(range(1, len(cells) + 1))

    shown = {}
    for number in (3, 4, 5, 6):
        ename, evalue, traceback = _error(cells[number - 1])
        shown[number] = ename, evalue, traceback
        # No frame of autoconv's in what the notebook shows; the failing cell is named.
        assert "autoconv/" not in traceback.replace("autoconv/errors", ""), traceback
        assert f"Cell In[{number}], line " in traceback

    ename, evalue, traceback = shown[3]
    assert ename == "ConversionError"
    assert "reads_frame (Cell In[3], line 2)" in evalue
    assert "the sys._getframe() at Cell In[3], line 4 cannot be converted" in evalue
    assert "Cell In[3], line 6" in traceback  # the call

    ename, evalue, traceback = shown[4]
    assert ename == "StagingError"
    assert evalue.startswith("Cell In[4], line 4: operands of add could not be broadcast")
    assert "Cell In[4], line 5" in traceback and "Cell In[4], line 4" in traceback
    assert "return y[:2] + y" in traceback

    ename, evalue, traceback = shown[5]
    assert ename == "ValueError"
    assert evalue.startswith("Cell In[5], line 4: + failed while the graph ran: ValueError")
    assert evalue.endswith("\n    return a + b")
    assert "Cell In[5], line 8" in traceback  # the call
    listing = "".join(o.get("text", "") for o in cells[4].outputs if o.output_type == "stream")
    assert re.search(r"%\d+ = %\d+ \+ %\d+ .* Cell In\[5\], line 4", listing), listing

    ename, evalue, traceback = shown[6]
    assert (ename, evalue) == ("ValueError", "at most two rows")
    assert "Cell In[6], line 4" in traceback and 'raise ValueError("at most two rows")' in traceback

    # A warning keeps the file name Python's warnings module shows; its message names the cell.
    warned = "".join(o.get("text", "") for o in cells[6].outputs if o.output_type == "stream")
    assert "ConversionWarning" in warned
    assert "the yield at Cell In[7], line 2 cannot be converted" in warned, warned

    warned = "".join(o.get("text", "") for o in cells[7].outputs if o.output_type == "stream")
    assert "TraceEffectWarning: Cell In[8], line 4: `seen.append(...)` changes" in warned, warned
    warned = "".join(o.get("text", "") for o in cells[8].outputs if o.output_type == "stream")
    assert "RetracingWarning: Cell In[9], line 5: autoconv.function `retraced`" in warned, warned
