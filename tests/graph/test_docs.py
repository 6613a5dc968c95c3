"""Runs the Python examples of docs/graph-mode.md and docs/performance.md, each page in order as
one module, and checks that each `text` block is exactly what the block before it prints."""

from tests.doc_pages import run_page


def test_graph_mode_doc_examples_and_their_output(tmp_path, capsys):
    assert run_page("graph-mode.md", tmp_path, capsys) >= 8


def test_performance_doc_examples_and_their_output(tmp_path, capsys):
    """The executor source shown in docs/performance.md is current."""
    assert run_page("performance.md", tmp_path, capsys) >= 1
