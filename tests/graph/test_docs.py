"""Runs the Python examples of docs/graph-mode.md and docs/performance.md, each page in order as
one module; a `text` block right after a Python block is exactly what that block prints.

The converter reads source files, so the examples are written to a real file first.
"""

import pathlib
import re
import runpy

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"


def run_page(page, tmp_path, capsys) -> int:
    """Runs `page`'s Python blocks in order and checks the output blocks; returns how many
    outputs were checked."""
    blocks = re.findall(r"```(python|text)\n(.*?)```", (DOCS / page).read_text(), re.S)
    source, expected = [], {}
    for i, (kind, body) in enumerate(blocks):
        if kind == "python":
            source += [f"print('<<block {i}>>')", body]
        elif i and blocks[i - 1][0] == "python":
            expected[i - 1] = body
    module = tmp_path / (page.replace("-", "_").replace(".md", "_examples.py"))
    module.write_text("\n".join(source))
    runpy.run_path(str(module))
    printed = dict(
        (int(n), text.lstrip("\n"))
        for n, text in re.findall(
            r"<<block (\d+)>>(.*?)(?=<<block|\Z)", capsys.readouterr().out, re.S
        )
    )
    for i, text in expected.items():
        assert printed[i].rstrip("\n") == text.rstrip("\n"), (page, blocks[i][1])
    return len(expected)


def test_graph_mode_doc_examples_and_their_output(tmp_path, capsys):
    assert run_page("graph-mode.md", tmp_path, capsys) >= 8


def test_performance_doc_examples_and_their_output(tmp_path, capsys):
    """The executor source shown in docs/performance.md is current."""
    assert run_page("performance.md", tmp_path, capsys) >= 1
