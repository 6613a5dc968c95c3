"""`tools/stdlib_conformance.py`: its verdicts, and one real run on a small module."""

import importlib.util
import os
import subprocess
import sys
import types

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "stdlib_conformance.py")


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("stdlib_conformance", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def row(tool, original: dict, copy: dict, seconds=(1.0, 1.5)):
    result = tool.Row(tool.Module("m", "test.test_m"), functions=10, converted=10)
    result.original = tool.Run(
        run=len(original), seconds=seconds[0], outcomes={k: (v, "") for k, v in original.items()}
    )
    result.copy = tool.Run(
        run=len(copy), seconds=seconds[1], outcomes={k: (v, "") for k, v in copy.items()}
    )
    return result


def test_a_test_passing_on_the_original_and_not_on_the_copy_is_a_regression(tool):
    r = row(
        tool,
        {"a": "pass", "b": "pass", "c": "fail", "d": "skip"},
        {"a": "pass", "b": "error", "c": "fail", "d": "skip"},
    )
    assert r.regressions == ["b"]
    line, failures = tool.verdict([r], types.SimpleNamespace(min_rate=0.95, max_ratio=3.0))
    assert failures == ["m: regression: b"]
    assert line.startswith("1 modules; 1 regressions; conversion rate 100.0%")


def test_a_test_missing_from_the_converted_run_is_a_regression(tool):
    assert row(tool, {"a": "pass"}, {}).regressions == ["a"]


def test_slow_copies_and_unconverted_functions_fail_the_run(tool):
    r = row(tool, {"a": "pass"}, {"a": "pass"}, seconds=(1.0, 4.0))
    r.converted = 9
    _, failures = tool.verdict([r], types.SimpleNamespace(min_rate=0.95, max_ratio=3.0))
    assert failures == ["conversion rate 90.0% is under 95%", "time ratio 4.00× is over 3.0×"]


def test_the_converted_copy_must_be_the_module_under_test(tool, tmp_path):
    module = tool.Module("heapq", "test.test_heapq")
    folder = str(tmp_path)
    inside = {"under_test": [str(tmp_path / "heapq.py")], "runtime_loaded": True}
    outside = {"under_test": ["/usr/lib/python3/heapq.py"], "runtime_loaded": True}
    assert tool._check_under_test(module, folder, True, inside) == ""
    assert tool._check_under_test(module, folder, False, outside) == ""
    assert "not the converted copy" in tool._check_under_test(module, folder, True, outside)
    no_runtime = dict(inside, runtime_loaded=False)
    assert "never imported" in tool._check_under_test(module, folder, True, no_runtime)
    assert "used the converted copy" in tool._check_under_test(module, folder, False, inside)


def test_a_real_run_on_colorsys(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            TOOL,
            "--modules",
            "colorsys",
            "--repeat",
            "1",
            "--json",
            str(tmp_path / "r.json"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "| colorsys | 7 | 7 | 0 (0) | 100.0% | 7 | 0 / 0 | 0 / 0 | 0 |" in done.stdout
    assert "1 modules; 0 regressions" in done.stdout
