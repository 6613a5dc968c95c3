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


PERFORMANCE = DOC.parent / "performance.md"


def test_performance_doc_examples_and_their_output(tmp_path, capsys):
    """The Python blocks of docs/performance.md run in order; a `text` block right after one
    is exactly what it prints (the executor source shown there is current)."""
    blocks = re.findall(r"```(python|text)\n(.*?)```", PERFORMANCE.read_text(), re.S)
    source, expected = [], {}
    for i, (kind, body) in enumerate(blocks):
        if kind == "python":
            source += [f"print('<<block {i}>>')", body]
        elif i and blocks[i - 1][0] == "python":
            expected[i - 1] = body
    assert expected, "the page shows no output"
    module = tmp_path / "performance_examples.py"
    module.write_text("\n".join(source))
    runpy.run_path(str(module))
    printed = dict(
        (int(n), text.lstrip("\n"))
        for n, text in re.findall(
            r"<<block (\d+)>>(.*?)(?=<<block|\Z)", capsys.readouterr().out, re.S
        )
    )
    for i, text in expected.items():
        assert printed[i].rstrip("\n") == text.rstrip("\n")
