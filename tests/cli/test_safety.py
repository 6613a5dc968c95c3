"""`autoconv convert` never writes over its inputs, and writes each file in one step."""

import os
import pty

import pytest

from autoconv.cli import files
from tests.cli.helpers import PYTHON, run_cli, write

GOOD = "def f(x):\n    return x if x > 0 else -x\n"


def test_an_output_that_is_the_input_file_is_refused(tmp_path):
    src = write(tmp_path / "m.py", GOOD)
    done = run_cli("convert", "m.py", "-o", ".", cwd=tmp_path)
    assert done.returncode == 2
    assert "m.py: refusing to write over the input m.py; choose an -o folder" in done.stderr
    assert src.read_text() == GOOD


def test_a_package_converted_into_its_own_parent_is_refused(tmp_path, package):
    before = (package / "core.py").read_text()
    done = run_cli("convert", package, "-o", package.parent)
    assert done.returncode == 2
    assert "refusing to write over the input" in done.stderr
    assert (package / "core.py").read_text() == before
    assert not any(name.endswith(".tmp") for name in os.listdir(package))


def test_an_output_reached_through_a_symlink_is_still_the_input(tmp_path):
    src = write(tmp_path / "src" / "m.py", GOOD)
    os.symlink(tmp_path / "src", tmp_path / "alias")
    done = run_cli("convert", src, "-o", tmp_path / "alias")
    assert done.returncode == 2 and "refusing to write over the input" in done.stderr
    assert src.read_text() == GOOD


def test_a_report_over_an_input_is_refused(tmp_path):
    src = write(tmp_path / "m.py", GOOD)
    done = run_cli("convert", src, "-o", tmp_path / "out", "--report", src)
    assert done.returncode == 2 and "--report" in done.stderr
    assert src.read_text() == GOOD


def test_an_output_folder_inside_the_package_is_not_read_back_as_input(tmp_path, package):
    out = package / "converted"
    assert run_cli("convert", package, "-o", out).returncode == 0
    again = run_cli("convert", package, "-o", out)
    assert again.returncode == 0, again.stderr
    assert not (out / "pkg" / "converted").exists()


def test_a_rerun_replaces_the_old_output_by_rename_not_in_place(sample, tmp_path):
    out = tmp_path / "out"
    (out).mkdir()
    (out / "sample.py").write_text("old = True\n")
    with open(out / "sample.py") as old:  # a reader holding the old file
        done = run_cli("convert", sample, "-o", out)
        assert done.returncode == 0, done.stderr
        assert old.read() == "old = True\n"
    assert "def collatz" in (out / "sample.py").read_text()
    assert os.listdir(out) == ["sample.py"]  # no temporary file left behind


def test_the_output_keeps_the_permissions_of_the_input(tmp_path):
    src = write(tmp_path / "tool.py", "#!/usr/bin/env python3\n" + GOOD)
    os.chmod(src, 0o751)
    assert run_cli("convert", src, "-o", tmp_path / "out").returncode == 0
    assert os.stat(tmp_path / "out" / "tool.py").st_mode & 0o777 == 0o751


@pytest.mark.parametrize("failure", [KeyboardInterrupt, OSError])
def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch, failure):
    target = tmp_path / "m.py"
    target.write_text("old\n")

    def interrupted(*args):
        raise failure("interrupted")

    monkeypatch.setattr(files.os, "replace", interrupted)
    with pytest.raises(failure):
        files.write_atomic(str(target), b"new\n")
    assert target.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["m.py"]


def test_progress_is_shown_when_stderr_is_a_terminal(package, tmp_path):
    primary, secondary = pty.openpty()
    import subprocess

    process = subprocess.run(
        [PYTHON, "-m", "autoconv", "convert", str(package), "-o", str(tmp_path / "out"), "-q"],
        stderr=secondary,
        stdout=subprocess.DEVNULL,
        timeout=60,
    )
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(primary, 4096)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(primary)
    text = b"".join(chunks).decode()
    assert process.returncode == 0
    assert "[1/4] " in text and "[4/4] " in text and "\x1b[K" in text


def test_no_progress_when_stderr_is_not_a_terminal(package, tmp_path):
    done = run_cli("convert", package, "-o", tmp_path / "out", "-q")
    assert "[1/4]" not in done.stderr and "\x1b" not in done.stderr
