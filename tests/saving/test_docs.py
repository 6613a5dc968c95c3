"""The Python blocks of docs/saving.md run in order; a `text` block right after one is exactly
what it prints."""

from tests.doc_pages import DOCS, run_page

DOC = DOCS / "saving.md"


def test_saving_doc_examples_and_their_output(tmp_path, capsys):
    assert run_page("saving.md", tmp_path, capsys) >= 2


def test_documented_fields_are_the_ones_written():
    """Every attribute and value tag of the table appears in the page."""
    from autoconv.functions.saving import table

    text = DOC.read_text()
    for name in table.ATTRS:
        assert f"`{name}`" in text or f"{name}`" in text, name
    for kind in table.KINDS:
        assert f"`{kind}`" in text, kind
