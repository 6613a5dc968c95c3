"""The `save` and `run` examples of docs/cli.md are what the commands print."""

import pathlib
import re
import shlex
import subprocess

from tests.cli.helpers import PYTHON, run_cli, write
from tests.cli.test_save_run import MODEL

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def examples() -> list:
    """The tested `save` and `run` console blocks, as lists of (command, output lines)."""
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(
        r"<!-- tested: tests/cli/test_docs_save_run.py -->\n```console\n(.*?)```", text, re.S
    )
    out = []
    for block in blocks:
        steps = []
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                steps[-1][1].append(line)
        out.append(steps)
    return out


def test_the_save_and_run_examples_are_what_the_commands_print(tmp_path):
    write(tmp_path / "model.py", MODEL)
    blocks = examples()
    assert len(blocks) == 2, "docs/cli.md lost a tested save/run example"
    for steps in blocks:
        for command, expected in steps:
            argv = shlex.split(command)
            if argv[0] == "autoconv":
                done = run_cli(*argv[1:], cwd=tmp_path)
            else:
                assert argv[0] == "python"
                done = subprocess.run(
                    [PYTHON, *argv[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=60
                )
            printed = (done.stdout + done.stderr).splitlines()  # stdout comes first in each
            if expected and expected[-1].strip() == "...":
                expected = expected[:-1]
                printed = printed[: len(expected)]
            assert printed == expected, command
