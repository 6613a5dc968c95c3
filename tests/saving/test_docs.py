"""The Python blocks of docs/saving.md run in order; a `text` block right after one is exactly
what it prints."""

import pathlib
import re
import runpy

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "saving.md"


def test_saving_doc_examples_and_their_output(tmp_path, capsys):
    blocks = re.findall(r"```(python|text)\n(.*?)```", DOC.read_text(), re.S)
    source, expected = [], {}
    for i, (kind, body) in enumerate(blocks):
        if kind == "python":
            source += [f"print('<<block {i}>>')", body]
        elif i and blocks[i - 1][0] == "python":
            expected[i - 1] = body
    assert len(expected) >= 2
    module = tmp_path / "saving_examples.py"
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


def test_documented_fields_are_the_ones_written():
    """Every attribute and value tag of the table appears in the page."""
    from autoconv.graph.saving import table

    text = DOC.read_text()
    for name in table.ATTRS:
        assert f"`{name}`" in text or f"{name}`" in text, name
    for kind in table.KINDS:
        assert f"`{kind}`" in text, kind
