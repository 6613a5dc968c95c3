"""`tools/third_party.py` without the network: its verdicts, and one real run of its layout,
conversion and pytest plugin on a small package made here."""

import importlib.util
import os
import shutil
import sys

import pytest

import autoconv
from tests.cli.helpers import write

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "third_party.py")
AUTOCONV_SRC = os.path.dirname(os.path.dirname(os.path.abspath(autoconv.__file__)))

PACKAGE = """
def sign(x):
    if x > 0:
        return 1
    return -1 if x < 0 else 0
"""
TESTS = """
from mypkg import sign

def test_positive():
    assert sign(3) == 1

def test_negative():
    assert sign(-2) == -1

def test_broken():
    assert sign(0) == 5
"""


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("third_party", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules["third_party"] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    yield module
    del sys.modules["third_party"]


def result(tool, original: dict, converted: dict):
    made = tool.Result(tool.Package("p", "1", ("p",)))
    made.runs = {
        "original": tool.Run(original, times=[1.0], walls=[1.5]),
        "converted": tool.Run(converted, times=[2.0], walls=[4.5]),
    }
    return made


def test_a_test_passing_on_the_original_and_not_on_the_copy_is_a_regression(tool):
    made = result(
        tool,
        {"a": "pass", "b": "pass", "c": "fail", "d": "skip", "e": "pass"},
        {"a": "pass", "b": "error", "c": "fail", "d": "skip"},
    )
    assert made.regressions("converted") == ["b", "e"]
    row = tool.table([made], ("original", "converted"))[2]
    assert "| 3 / 1 / 0 | 1 / 1 / 1 | 2 | 1.00 s | 2.00 s | 2.00× | 3.00× | 1 / 1 |" in row


def test_a_json_file_renders_the_same_table_again(tool, tmp_path):
    made = result(tool, {"a": "pass", "b": "pass"}, {"a": "pass", "b": "fail"})
    made.runs["converted"].details = {"b": "assert 1 == 2"}
    tool.write_json(str(tmp_path / "r.json"), [made])
    again = tool.read_json(str(tmp_path / "r.json"))
    assert again[0].regressions("converted") == ["b"]
    modes = ("original", "converted")
    assert tool.table(again, modes) == tool.table([made], modes)


def test_a_run_without_a_result_counts_as_no_result_not_as_regressions(tool):
    made = result(tool, {"a": "pass"}, {})
    made.runs["converted"].problem = "timed out after 10 s"
    assert made.regressions("converted") == []
    assert "no result" in tool.table([made], ("original", "converted"))[2]
    assert "timed out" in tool.failures([made], ("original", "converted"), 10, False)[0]


@pytest.fixture
def tree(tmp_path):
    source = tmp_path / "mypkg-1.0"
    write(source / "mypkg" / "__init__.py", PACKAGE)
    write(source / "mypkg" / "tests" / "__init__.py", "")
    write(source / "mypkg" / "tests" / "test_sign.py", TESTS)
    return source


def test_the_converted_copy_runs_the_suite_and_keeps_the_tests_as_written(tool, tree, tmp_path):
    package = tool.Package("mypkg", "1.0", ("mypkg",))
    work, made = str(tmp_path / "work"), tool.Result(package)
    tool.write_plugin(work)
    copies = tool.lay_out(package, str(tree), work, AUTOCONV_SRC, made)
    assert made.totals["converted"] == 1 and made.failed_files == []
    converted = os.path.join(copies["converted"], "mypkg")
    assert "autoconv.runtime" in open(os.path.join(converted, "__init__.py")).read()
    tests = open(os.path.join(converted, "tests", "test_sign.py")).read()
    assert tests == (tree / "mypkg" / "tests" / "test_sign.py").read_text()

    for mode in ("original", "converted"):
        data = tool.run_suite(package, copies[mode], mode, sys.executable, work, AUTOCONV_SRC, 120)
        assert "problem" not in data, data.get("problem")
        assert data["outcomes"] == {
            "mypkg/tests/test_sign.py::test_positive": "pass",
            "mypkg/tests/test_sign.py::test_negative": "pass",
            "mypkg/tests/test_sign.py::test_broken": "fail",
        }
        assert "assert 0 == 5" in data["details"]["mypkg/tests/test_sign.py::test_broken"]
        assert data["imported"]["mypkg"] == os.path.join(copies[mode], "mypkg", "__init__.py")
        assert data["runtime_loaded"] == (mode == "converted")


def test_a_package_imported_from_elsewhere_is_caught(tool, tree, tmp_path):
    # What pytest's rootdir insertion can do: put another copy of the package first on sys.path.
    decoy = tmp_path / "decoy"
    write(decoy / "mypkg" / "__init__.py", PACKAGE)
    shutil.rmtree(tree / "mypkg" / "tests")
    write(tree / "tests" / "test_sign.py", TESTS)
    write(tree / "conftest.py", f"import sys\nsys.path.insert(0, {str(decoy)!r})\nimport mypkg\n")
    package = tool.Package("mypkg", "1.0", ("mypkg",))
    work, made = str(tmp_path / "work"), tool.Result(package)
    tool.write_plugin(work)
    copies = tool.lay_out(package, str(tree), work, AUTOCONV_SRC, made)
    data = tool.run_suite(
        package, copies["converted"], "converted", sys.executable, work, AUTOCONV_SRC, 120
    )
    assert data["problem"].startswith("imported from the wrong place")
    assert data["imported"]["mypkg"] == str(decoy / "mypkg" / "__init__.py")


def test_the_table_in_docs_cli_has_the_columns_the_tool_writes(tool, tmp_path):
    page = open(os.path.join(ROOT, "docs", "cli.md"), encoding="utf-8").read()
    block = page.split("<!-- third-party:begin -->")[1].split("<!-- third-party:end -->")[0]
    assert tool.table([], tool.MODES)[0] in block.splitlines()
    copy = tmp_path / "cli.md"
    copy.write_text(page, encoding="utf-8")
    tool.update_docs(str(copy), "NEW TABLE")
    assert copy.read_text(encoding="utf-8") == page.replace(block, "\nNEW TABLE\n")
