"""docs/jax-tracing.md: its Python blocks run, in order, in one module (from a file, since
autoconv converts functions from their source), and every design difference it lists has a
test in test_design_differences.py."""

import importlib.util
import pathlib
import re

import pytest

jax = pytest.importorskip("jax")

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "jax-tracing.md"


def test_python_blocks_run(tmp_path):
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 2
    path = tmp_path / "jax_tracing_page.py"
    path.write_text("\n\n".join(blocks))
    spec = importlib.util.spec_from_file_location("jax_tracing_page", path)
    spec.loader.exec_module(importlib.util.module_from_spec(spec))


def test_every_listed_difference_has_a_test():
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## What differs by JAX's design")[1].split("\n## ")[0]
    items = re.findall(r"^(\d+)\. ", section, re.M)
    tests = (pathlib.Path(__file__).parent / "test_design_differences.py").read_text()
    numbered = re.findall(r'"""(\d+)\. ', tests)
    assert items == numbered == [str(i) for i in range(1, len(items) + 1)]
