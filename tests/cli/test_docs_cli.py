"""docs/cli.md cannot go stale: its tested console example is what the command prints, and its
report example has the keys a real report has."""

import json
import os
import pathlib
import re

from tests.cli.helpers import run_cli, write

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def console_example() -> list:
    text = DOC.read_text(encoding="utf-8")
    block = re.search(
        r"<!-- tested: tests/cli/test_docs_cli.py -->\n```console\n(.*?)```", text, re.S
    )
    assert block, "docs/cli.md lost its tested example"
    return block.group(1).splitlines()


def report_example() -> dict:
    text = DOC.read_text(encoding="utf-8")
    return json.loads(
        re.search(r"`--report PATH` writes:\n\n```json\n(.*?)```", text, re.S).group(1)
    )


def test_the_skipped_inputs_example_is_what_convert_prints(tmp_path):
    lines = console_example()
    assert lines[0] == "$ autoconv convert mylib/ -o converted/"
    write(tmp_path / "mylib" / "core.py", "def f(x):\n    return x if x else 0\n")
    os.mkfifo(tmp_path / "mylib" / "pipe.py")
    (tmp_path / "mylib" / "sub").mkdir()
    os.symlink("..", tmp_path / "mylib" / "sub" / "back")
    done = run_cli("convert", "mylib/", "-o", "converted/", cwd=tmp_path)
    status = lines.index("$ echo $?")
    assert done.stderr.splitlines() == lines[1:status]
    assert str(done.returncode) == lines[status + 1]


def test_the_report_example_has_the_keys_of_a_real_report(tmp_path):
    write(tmp_path / "mylib" / "core.py", "def f(x):\n    return x if x else 0\n")
    os.mkfifo(tmp_path / "mylib" / "pipe.py")
    report = tmp_path / "report.json"
    run_cli("convert", "mylib", "-o", "converted", "--report", report, cwd=tmp_path)
    real, documented = json.loads(report.read_text()), report_example()
    assert real.keys() == documented.keys()
    assert real["totals"].keys() == documented["totals"].keys()
    assert real["files"][0].keys() == documented["files"][0].keys()
    assert real["skipped"] == documented["skipped"]
