"""Inputs `convert` cannot take are reported, never dropped silently: symlinked folders are
followed, cycles refused, unreadable folders, FIFOs, devices and huge files skipped with a reason,
each making the exit status 1 and listed under `skipped` in the report."""

import json
import os

import pytest

from autoconv.cli import files
from autoconv.cli.main import main
from tests.cli.helpers import run_cli, write

GOOD = "def f(x):\n    return x if x > 0 else -x\n"


def test_a_symlinked_subpackage_is_followed_and_converted(tmp_path):
    write(tmp_path / "elsewhere" / "sub" / "m.py", GOOD)
    write(tmp_path / "pkg" / "__init__.py", "")
    os.symlink(tmp_path / "elsewhere" / "sub", tmp_path / "pkg" / "sub")
    out = tmp_path / "out"
    done = run_cli("convert", tmp_path / "pkg", "-o", out)
    assert done.returncode == 0, done.stderr
    assert "__ac__.if_exp(" in (out / "pkg" / "sub" / "m.py").read_text()
    assert not os.path.islink(out / "pkg" / "sub")


def test_a_symlink_cycle_is_reported_and_the_rest_converted(tmp_path):
    pkg = tmp_path / "pkg"
    write(pkg / "a.py", GOOD)
    write(pkg / "inner" / "b.py", GOOD)
    os.symlink("..", pkg / "inner" / "up")
    out, report = tmp_path / "out", tmp_path / "report.json"
    done = run_cli("convert", pkg, "-o", out, "--report", report)
    assert done.returncode == 1
    assert (
        f"{pkg / 'inner' / 'up'}: skipped: a symlink cycle: it leads back to {pkg}" in done.stderr
    )
    assert sorted(os.listdir(out / "pkg")) == ["a.py", "inner"]
    assert os.listdir(out / "pkg" / "inner") == ["b.py"]
    document = json.loads(report.read_text())
    assert document["skipped"] == [
        {
            "path": str(pkg / "inner" / "up"),
            "reason": f"a symlink cycle: it leads back to {pkg}; not followed",
        }
    ]
    assert document["totals"]["skipped"] == 1 and document["totals"]["failed"] == 0
    assert done.stderr.splitlines()[-1].endswith("; 1 skipped")


def test_an_unreadable_folder_is_reported_in_the_summary_and_report(tmp_path, monkeypatch, capsys):
    # Run in-process: the tests may run as root, for whom permission bits do not stop a read.
    pkg = tmp_path / "pkg"
    write(pkg / "a.py", GOOD)
    write(pkg / "locked" / "b.py", GOOD)
    real_scandir = os.scandir

    def scandir(path):
        if os.path.basename(path) == "locked":
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    report = tmp_path / "report.json"
    status = main(["convert", str(pkg), "-o", str(tmp_path / "out"), "--report", str(report)])
    assert status == 1
    reason = "cannot read the folder: Permission denied; nothing in it was converted"
    assert f"{pkg / 'locked'}: skipped: {reason}" in capsys.readouterr().err
    assert json.loads(report.read_text())["skipped"] == [
        {"path": str(pkg / "locked"), "reason": reason}
    ]
    assert os.listdir(tmp_path / "out" / "pkg") == ["a.py"]


@pytest.mark.parametrize("as_src", [False, True], ids=["in-a-package", "as-SRC"])
def test_a_fifo_named_py_is_skipped_without_opening_it(tmp_path, as_src):
    pkg = tmp_path / "pkg"
    write(pkg / "a.py", GOOD)
    os.mkfifo(pkg / "x.py")
    sources = [pkg / "a.py", pkg / "x.py"] if as_src else [pkg]
    done = run_cli("convert", *sources, "-o", tmp_path / "out")  # a read would hang: timeout
    assert done.returncode == 1
    assert (
        f"{pkg / 'x.py'}: skipped: a FIFO (named pipe), not a regular file; not read" in done.stderr
    )
    assert "a.py" in os.listdir(tmp_path / "out" / ("" if as_src else "pkg"))


def test_a_symlink_to_dev_zero_is_skipped_without_memory_error(tmp_path):
    pkg = tmp_path / "pkg"
    write(pkg / "a.py", GOOD)
    os.symlink("/dev/zero", pkg / "zero.py")
    done = run_cli("convert", pkg, "-o", tmp_path / "out")
    assert done.returncode == 1
    assert f"{pkg / 'zero.py'}: skipped: a character device, not a regular file" in done.stderr
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr


def test_a_file_over_the_size_limit_is_skipped_with_a_clear_error(tmp_path):
    big = tmp_path / "big.py"
    with open(big, "wb") as f:
        f.truncate(files.MAX_SOURCE_BYTES + 1)  # sparse: no disk space used
    done = run_cli("convert", big, "-o", tmp_path / "out")
    assert done.returncode == 1
    assert f"{big}: skipped: 64.0 MiB is over the 64.0 MiB limit for a source file" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_file_that_grows_past_the_limit_after_planning_is_an_input_error(tmp_path, monkeypatch):
    path = tmp_path / "m.py"
    path.write_bytes(b"x = 1\n" * 10)
    monkeypatch.setattr(files, "MAX_SOURCE_BYTES", 20)
    with pytest.raises(files.InputError, match="60 bytes is over the 20 bytes limit"):
        files.read_source(str(path))


def test_a_symlink_loop_given_as_src_fails_alone(tmp_path):
    loop = tmp_path / "loop.py"
    os.symlink(loop.name, loop)
    good = write(tmp_path / "good.py", GOOD)
    done = run_cli("convert", loop, good, "-o", tmp_path / "out")
    assert done.returncode == 1
    assert f"{loop}: skipped: it is a symlink loop" in done.stderr
    assert os.listdir(tmp_path / "out") == ["good.py"]
    assert "Traceback" not in done.stderr


def test_only_skipped_inputs_still_exit_1_not_2(tmp_path):
    loop = tmp_path / "loop.py"
    os.symlink(loop.name, loop)
    done = run_cli("convert", loop, "-o", tmp_path / "out")
    assert done.returncode == 1, done.stderr
    assert "1 skipped" in done.stderr.splitlines()[-1]


def test_a_link_to_a_folder_above_the_package_is_a_cycle(tmp_path):
    pkg = tmp_path / "pkg"
    write(pkg / "a.py", GOOD)
    write(tmp_path / "other" / "b.py", GOOD)
    os.symlink(tmp_path, pkg / "top")  # would walk pkg's parent, and pkg again inside it
    done = run_cli("convert", pkg, "-o", tmp_path / "out")
    assert done.returncode == 1
    assert f"{pkg / 'top'}: skipped: a symlink cycle: it leads back to {tmp_path}" in done.stderr
    assert os.listdir(tmp_path / "out" / "pkg") == ["a.py"]
