"""Error paths of `autoconv convert`: each reported as `path:line: message`, with exit status 1
for a bad input (the others still converted) and 2 for a usage error."""

import os

import pytest

from tests.cli.helpers import run_cli, write

GOOD = "def f(x):\n    return x if x > 0 else -x\n"


def test_a_syntax_error_names_file_and_line_and_the_other_files_are_converted(tmp_path):
    bad = write(tmp_path / "src" / "bad.py", "x = 1\n\ndef f(:\n    pass\n")
    good = write(tmp_path / "src" / "good.py", GOOD)
    out = tmp_path / "out"
    done = run_cli("convert", bad, good, "-o", out)
    assert done.returncode == 1
    assert f"{bad}:3: syntax error: invalid syntax; fix it and run again" in done.stderr
    assert os.listdir(out) == ["good.py"]
    assert "1 file failed" in done.stderr.splitlines()[-1]


def test_a_file_that_cannot_be_decoded_names_the_line(tmp_path):
    bad = tmp_path / "latin.py"
    bad.write_bytes(b"x = 1\ny = 2\ns = '\xe9t\xe9'\n")
    done = run_cli("convert", bad, "-o", tmp_path / "out")
    assert done.returncode == 1
    assert f"{bad}:3: cannot decode the file as utf-8" in done.stderr
    assert "declare its encoding in a coding comment (PEP 263)" in done.stderr


def test_a_declared_encoding_is_honoured_and_the_output_is_utf8(tmp_path):
    src = tmp_path / "latin.py"
    src.write_bytes(b"# -*- coding: latin-1 -*-\ndef f():\n    return '\xe9t\xe9' if 1 else ''\n")
    out = tmp_path / "out"
    done = run_cli("convert", src, "-o", out)
    assert done.returncode == 0, done.stderr
    assert "'été'" in (out / "latin.py").read_text(encoding="utf-8")


def test_an_unreadable_file_in_a_package_is_reported_and_the_rest_converted(tmp_path):
    pkg = tmp_path / "pkg"
    write(pkg / "good.py", GOOD)
    os.symlink(tmp_path / "missing.py", pkg / "gone.py")  # listed, but cannot be read
    out = tmp_path / "out"
    done = run_cli("convert", pkg, "-o", out)
    assert done.returncode == 1
    assert f"{pkg / 'gone.py'}:1: cannot read the file: No such file or directory" in done.stderr
    assert os.listdir(out / "pkg") == ["good.py"]


def test_an_unwritable_output_folder_is_an_input_failure(tmp_path):
    good = write(tmp_path / "good.py", GOOD)
    blocker = tmp_path / "out" / "sub"
    blocker.parent.mkdir()
    blocker.write_text("a file where a folder should be")
    pkg = tmp_path / "sub"
    write(pkg / "m.py", GOOD)
    done = run_cli("convert", pkg, good, "-o", tmp_path / "out")
    assert done.returncode == 1
    assert f"{pkg / 'm.py'}:1: cannot write " in done.stderr
    assert (tmp_path / "out" / "good.py").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "the following arguments are required: COMMAND"),
        (["convert", "GOOD"], "one of the arguments -o/--output/--out --stdout is required"),
        (["convert", "GOOD", "-o", "OUT", "--stdout"], "not allowed with argument"),
        (["convert", "-o", "OUT"], "the following arguments are required: SRC"),
        (["convert", "GOOD", "-o", "OUT", "--jobs", "-1"], "argument -j/--jobs: expected 0"),
        (["convert", "GOOD", "-o", "OUT", "--jobs", "two"], "expected a whole number"),
        (["convert", "nowhere.py", "-o", "OUT"], "nowhere.py: no such file or folder"),
        (["convert", "notes.txt", "-o", "OUT"], "notes.txt: not a Python file or folder"),
        (["convert", "GOOD", "-o", "notes.txt"], "-o notes.txt: it is a file; -o names a folder"),
        (["convert", "empty", "-o", "OUT"], "no Python files found in empty"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["show", "json.decoder"], "expected MODULE:QUALNAME"),
        (["show", "json:a.<locals>.b"], "is not a dotted name"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_usage_errors_exit_with_status_2(tmp_path, args, message):
    write(tmp_path / "good.py", GOOD)
    (tmp_path / "notes.txt").write_text("not Python")
    (tmp_path / "empty").mkdir()
    args = [{"GOOD": "good.py", "OUT": "out"}.get(a, a) for a in args]
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert not (tmp_path / "out").exists()


def test_two_inputs_written_to_the_same_place_are_refused(tmp_path):
    one = write(tmp_path / "a" / "m.py", GOOD)
    two = write(tmp_path / "b" / "m.py", GOOD)
    done = run_cli("convert", one, two, "-o", tmp_path / "out")
    assert done.returncode == 2
    assert f"{one} and {two} would both be written to {tmp_path / 'out' / 'm.py'}" in done.stderr
    assert not (tmp_path / "out").exists()


def test_the_exit_status_is_0_when_every_input_converts(tmp_path):
    done = run_cli("convert", write(tmp_path / "good.py", GOOD), "-o", tmp_path / "out")
    assert done.returncode == 0 and done.stdout == ""


def test_a_report_that_cannot_be_written_fails_the_run_after_converting(tmp_path):
    good = write(tmp_path / "good.py", GOOD)
    (tmp_path / "blocker").write_text("a file where a folder should be")
    done = run_cli("convert", good, "-o", tmp_path / "out", "--report", tmp_path / "blocker" / "r")
    assert done.returncode == 1
    assert "cannot write the report" in done.stderr
    assert (tmp_path / "out" / "good.py").exists()


def test_stdout_into_a_closed_pipe_exits_quietly(tmp_path):
    import subprocess
    import sys

    doc = "x" * 2000  # 200 functions of 2 kB: more than a pipe holds, quick to convert
    text = "".join(f"def f{i}(x):\n    '{doc}'\n    return x if x else {i}\n" for i in range(200))
    write(tmp_path / "big.py", text)
    # `true` exits without reading: the write fails with a broken pipe.
    shell = f"{sys.executable} -m autoconv convert big.py --stdout | true; exit ${{PIPESTATUS[0]}}"
    done = subprocess.run(["bash", "-c", shell], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr
