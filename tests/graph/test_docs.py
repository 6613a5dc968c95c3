"""Runs the Python examples of docs/graph-mode.md, in order, as one module.

The converter reads source files, so the examples are written to a real file first.
"""

import pathlib
import re
import runpy

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "graph-mode.md"


def test_graph_mode_doc_examples(tmp_path, capsys):
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) >= 5
    module = tmp_path / "graph_mode_examples.py"
    module.write_text("\n".join(blocks))
    runpy.run_path(str(module))
    out = capsys.readouterr().out
    assert "tracing\nx = 1\nx = 2\n" in out
    assert "scale(x, factor)" in out
