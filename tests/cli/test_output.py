"""What `convert`, `show` and `graph` write: UTF-8 on any terminal, files with names as long as
the system allows, temporaries that re-runs clean up, errors at the right line."""

import os
import subprocess
import sys

import pytest

from autoconv import temporaries
from tests.cli.helpers import PYTHON, run_cli, write

UNICODE = "def größe(x):\n    return 'é' if x > 0 else '∞'\n"


def ascii_env():
    env = dict(os.environ, PYTHONIOENCODING="ascii", LC_ALL="C", LANG="C")
    env.pop("PYTHONUTF8", None)
    return env


@pytest.mark.parametrize("command", ["convert", "show"])
def test_stdout_is_utf8_on_an_ascii_terminal(tmp_path, command):
    write(tmp_path / "u.py", UNICODE)
    args = ["convert", "u.py", "--stdout"] if command == "convert" else ["show", "u.py:größe"]
    done = subprocess.run(
        [PYTHON, "-m", "autoconv", *args], cwd=tmp_path, env=ascii_env(), capture_output=True
    )
    assert done.returncode == 0, done.stderr.decode()
    text = done.stdout.decode("utf-8")
    assert "def größe(x):" in text and "'é'" in text and "'∞'" in text
    assert b"UnicodeEncodeError" not in done.stderr


def test_messages_on_an_ascii_stderr_are_escaped_not_a_crash(tmp_path):
    bad = write(tmp_path / "ünïcode.py", "def f(:\n")
    done = subprocess.run(
        [PYTHON, "-m", "autoconv", "convert", bad.name, "-o", "out"],
        cwd=tmp_path,
        env=ascii_env(),
        capture_output=True,
    )
    assert done.returncode == 1
    assert b"Traceback" not in done.stderr and b"syntax error" in done.stderr


@pytest.mark.parametrize("length", [242, 250, 255])
def test_file_names_up_to_the_system_limit_convert(tmp_path, length):
    name = "m" * (length - 3) + ".py"
    src = write(tmp_path / "src" / name, "def f(x):\n    return x if x else -1\n")
    out = tmp_path / "out"
    done = run_cli("convert", src, "-o", out)
    assert done.returncode == 0, done.stderr
    assert os.listdir(out) == [name]


@pytest.mark.parametrize("name", ["a.py", "m" * 200 + ".py", "é" * 126 + ".py", "m" * 252 + ".py"])
def test_temporary_names_fit_name_max_and_are_recognised(tmp_path, name):
    path = temporaries.name_for(str(tmp_path / name))
    base = os.path.basename(path)
    assert len(base.encode()) <= 255 and os.path.dirname(path) == str(tmp_path)
    assert temporaries.is_temporary(base)
    assert base.startswith("." + name[:20]) and base.endswith(".tmp")
    open(path, "w").close()  # the file system takes it


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_rerun_removes_stale_temporaries_of_dead_runs_only(sample, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    stale = out / f".sample.py.autoconv-{dead_pid()}-0123abcd.tmp"
    live = out / f".sample.py.autoconv-{os.getpid()}-0123abcd.tmp"
    someone_elses = out / ".sample.py.x7k2p9.tmp"
    for path in (stale, live, someone_elses):
        path.write_text("partial")
    in_the_input = sample.parent / f".sample.py.autoconv-{dead_pid()}-0123abcd.tmp"
    in_the_input.write_text("partial")
    done = run_cli("convert", sample, "-o", out)
    assert done.returncode == 0, done.stderr
    assert sorted(os.listdir(out)) == sorted(["sample.py", live.name, someone_elses.name])
    assert in_the_input.exists()  # only output folders are cleaned


def test_temporaries_inside_a_package_are_not_copied(package, tmp_path):
    (package / f".core.py.autoconv-{dead_pid()}-0123abcd.tmp").write_text("partial")
    out = tmp_path / "out"
    assert run_cli("convert", package, "-o", out).returncode == 0
    assert not any(temporaries.is_temporary(n) for _, _, names in os.walk(out) for n in names)


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"], ids=["LF", "CRLF", "CR"])
def test_a_byte_that_cannot_be_decoded_is_reported_at_its_line(tmp_path, newline):
    bad = tmp_path / "bad.py"
    bad.write_bytes(newline.join([b"# a comment", b"x = 1", b"", b"y = '\xff'", b""]))
    done = run_cli("convert", bad, "-o", tmp_path / "out")
    assert done.returncode == 1
    assert f"{bad}:4: cannot decode the file as utf-8" in done.stderr


def test_show_on_a_class_says_to_name_a_method(tmp_path):
    write(tmp_path / "m.py", "class Shape:\n    def area(self):\n        return 1\n")
    done = run_cli("show", "m.py:Shape", cwd=tmp_path)
    assert done.returncode == 1
    assert (
        "m.py:Shape is a class; show works on one function or method at a time; e.g. "
        in done.stderr
    )
    assert "autoconv show m.py:Shape.area" in done.stderr and "built-in" not in done.stderr


def test_to_code_on_a_class_says_it_is_a_class():
    import json

    import autoconv

    with pytest.raises(
        autoconv.ConversionError, match="JSONDecoder: it is a class; convert its methods"
    ):
        autoconv.to_code(json.JSONDecoder)
