"""Runs a docs page's Python blocks in order, as one module, and checks its output blocks.

The converter reads source files, so the blocks are written to a real file first. A ```text
block right after a ```python block is exactly what that block prints.
"""

import pathlib
import re
import runpy

DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs"


def run_page(page: str, tmp_path, capsys) -> int:
    """Runs docs/`page` and checks its output blocks; returns how many were checked."""
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
