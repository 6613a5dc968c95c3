"""Saved files are data: `save -o` and `run -o` never write over their inputs, `run -o` writes in
one step with the umask's permissions, and a damaged file or a failing graph is one line."""

import os
import zipfile

import numpy as np
import pytest

import autoconv
from autoconv import temporaries
from autoconv.cli import main, outputs
from tests.cli.helpers import run_cli, write

MODEL = """
    import numpy as np


    def double(x):
        return x * 2


    def pick(x, i):
        return x[i]
"""


def snapshot(folder) -> dict:
    """Every file in `folder`: its bytes and mtime."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir() if p.is_file()}


def leftovers(folder) -> list:
    return [n for n in os.listdir(folder) if ".autoconv-" in n or n.endswith(".tmp")]


@pytest.fixture
def saved(tmp_path):
    """`model.py` and `double.acg` (double, float64[3]) in tmp_path; returns tmp_path."""
    write(tmp_path / "model.py", MODEL)
    done = run_cli(
        "save", "model.py:double", "--spec", "float64[3]", "-o", "double.acg", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    return tmp_path


# --- 1. outputs that are inputs ----------------------------------------------------------------


@pytest.mark.parametrize("out", ["model.py", "./model.py"])
def test_save_over_the_module_source_is_refused(saved, out):
    before = snapshot(saved)
    done = run_cli("save", "model.py:double", "--spec", "float64[3]", "-o", out, cwd=saved)
    assert done.returncode == 2
    assert done.stderr == (
        f"autoconv save: error: -o {out}: refusing to write over the source of model.py; "
        "choose another output file\n"
    )
    assert snapshot(saved) == before and not leftovers(saved)


def test_save_over_the_source_of_a_dotted_module_is_refused(saved):
    before = snapshot(saved)
    done = run_cli("save", "model:double", "--spec", "float64[3]", "-o", "model.py", cwd=saved)
    assert done.returncode == 2
    assert "refusing to write over the source of model" in done.stderr
    assert "Traceback" not in done.stderr
    assert snapshot(saved) == before


def test_save_over_the_source_through_a_symlink_is_refused(saved):
    os.symlink("model.py", saved / "alias.py")
    before = snapshot(saved)
    done = run_cli("save", "model.py:double", "--spec", "float64[3]", "-o", "alias.py", cwd=saved)
    assert done.returncode == 2 and "refusing to write over the source" in done.stderr
    assert snapshot(saved) == before


def test_save_over_the_file_that_defines_the_function_is_refused(saved):
    write(saved / "facade.py", "from model import double\n")
    before = snapshot(saved)
    done = run_cli("save", "facade.py:double", "--spec", "float64[3]", "-o", "model.py", cwd=saved)
    assert done.returncode == 2
    assert "model.py, the source of the function" in done.stderr
    assert snapshot(saved) == before


def test_run_over_the_saved_graph_is_refused(tmp_path):
    write(tmp_path / "model.py", MODEL)
    # A saved graph may be named .npz; `run -o` names the same file.
    args = ("save", "model.py:double", "--spec", "float64[3]", "-o", "model.npz")
    assert run_cli(*args, cwd=tmp_path).returncode == 0
    before = snapshot(tmp_path)
    done = run_cli("run", "model.npz", "--input", "x=[1, 2, 3]", "-o", "model.npz", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == (
        "autoconv run: error: -o model.npz: refusing to write over the saved graph model.npz; "
        "choose another output file\n"
    )
    assert snapshot(tmp_path) == before
    # `-o model` is numpy.savez's `model.npz` too.
    again = run_cli("run", "model.npz", "--input", "x=[1, 2, 3]", "-o", "model", cwd=tmp_path)
    assert again.returncode == 2 and "refusing to write over the saved graph" in again.stderr
    assert snapshot(tmp_path) == before and not leftovers(tmp_path)


def test_run_over_an_input_file_is_refused(saved):
    np.save(saved / "x.npy", np.arange(3.0))
    os.link(saved / "x.npy", saved / "hard.npz")  # the same file under other names
    os.symlink("x.npy", saved / "soft.npz")
    before = snapshot(saved)
    for out in ("hard.npz", "soft.npz", "soft"):
        done = run_cli("run", "double.acg", "--input", "x=x.npy", "-o", out, cwd=saved)
        assert done.returncode == 2, done.stderr
        assert "refusing to write over the input x.npy (--input x)" in done.stderr
    assert snapshot(saved) == before and not leftovers(saved)


def test_same_file_compares_files_when_both_exist_and_paths_otherwise(tmp_path):
    (tmp_path / "a").write_text("a")
    os.link(tmp_path / "a", tmp_path / "b")
    assert outputs.same_file(str(tmp_path / "a"), str(tmp_path / "b"))
    assert outputs.same_file(str(tmp_path / "new"), str(tmp_path / "." / "new"))
    assert not outputs.same_file(str(tmp_path / "a"), str(tmp_path / "new"))


# --- 2. run -o writes in one step ------------------------------------------------------------


def test_a_missing_output_folder_is_one_line(saved):
    before = snapshot(saved)
    for command in (
        ("run", "double.acg", "--input", "x=[1, 2, 3]", "-o", "nowhere/out.npz"),
        ("save", "model.py:double", "--spec", "float64[3]", "-o", "nowhere/d.acg"),
    ):
        done = run_cli(*command, cwd=saved)
        assert done.returncode == 2
        assert done.stderr == (
            f"autoconv {command[0]}: error: -o {command[-1]}: the folder nowhere does not exist; "
            "create it first or name a file in an existing folder\n"
        )
    assert snapshot(saved) == before and not (saved / "nowhere").exists()


def test_an_output_that_is_a_folder_is_refused(saved):
    (saved / "out.npz").mkdir()
    done = run_cli("run", "double.acg", "--input", "x=[1, 2, 3]", "-o", "out.npz", cwd=saved)
    assert done.returncode == 2 and "it is a folder" in done.stderr


def test_run_replaces_the_previous_output_by_rename(saved):
    (saved / "out.npz").write_bytes(b"previous")
    with open(saved / "out.npz", "rb") as reader:  # a reader holding the previous file
        done = run_cli("run", "double.acg", "--input", "x=[1, 2, 3]", "-o", "out.npz", cwd=saved)
        assert done.returncode == 0, done.stderr
        assert reader.read() == b"previous"
    with np.load(saved / "out.npz") as z:
        assert z["output"].tolist() == [2.0, 4.0, 6.0]
    assert not leftovers(saved)


@pytest.mark.parametrize("mask", [0o022, 0o027, 0o077])
def test_the_output_honours_the_umask(saved, mask):
    old = os.umask(mask)  # the CLI's process inherits it
    try:
        done = run_cli("run", "double.acg", "--input", "x=[1, 2, 3]", "-o", "o.npz", cwd=saved)
    finally:
        os.umask(old)
    assert done.returncode == 0, done.stderr
    assert os.stat(saved / "o.npz").st_mode & 0o777 == 0o666 & ~mask


def test_umask_is_read_without_changing_it():
    old = os.umask(0o027)
    try:
        assert temporaries.umask() == 0o027
        assert os.umask(0o027) == 0o027
    finally:
        os.umask(old)


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"), KeyboardInterrupt])
def test_a_failed_write_leaves_the_previous_output_and_no_temporary(
    saved, monkeypatch, capsys, failure
):
    (saved / "out.npz").write_bytes(b"previous")
    before = snapshot(saved)

    def savez(f, **arrays):
        f.write(b"PK\x03\x04 half an archive")
        raise failure

    monkeypatch.chdir(saved)
    monkeypatch.setattr(np, "savez", savez)
    argv = ["run", "double.acg", "--input", "x=[1, 2, 3]", "-o", "out.npz"]
    status = main.main(argv)
    err = capsys.readouterr().err
    if failure is KeyboardInterrupt:
        assert status == 130 and err == "autoconv run: interrupted\n"
    else:
        assert status == 1
        assert err == (
            "autoconv run: error: cannot write out.npz: No space left on device; a previous "
            "out.npz, if any, is unchanged\n"
        )
    assert snapshot(saved) == before and not leftovers(saved)


@pytest.mark.parametrize("failure", [KeyboardInterrupt, OSError])
def test_replace_atomic_cleans_up_when_the_rename_fails(tmp_path, monkeypatch, failure):
    target = tmp_path / "out.npz"
    target.write_bytes(b"old")

    def interrupted(*args):
        raise failure("interrupted")

    monkeypatch.setattr(temporaries.os, "replace", interrupted)
    with pytest.raises(failure):
        temporaries.replace_atomic(str(target), lambda f: f.write(b"new"))
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["out.npz"]


# --- 5. damaged files and failing graphs ------------------------------------------------------


def pick(x, i):
    return x[i]


@pytest.fixture
def picker(tmp_path):
    f = autoconv.function(pick)
    f.save(tmp_path / "pick.acg", signatures=[(autoconv.TensorSpec((3,), np.float64), 0)])
    autoconv.function(pick).save(
        tmp_path / "index.acg",
        signatures=[(autoconv.TensorSpec((3,), np.float64), autoconv.TensorSpec((), np.int64))],
    )
    return tmp_path


def tampered(source, target, change):
    with zipfile.ZipFile(source) as z:
        members = {n: z.read(n) for n in z.namelist()}
    change(members)
    with zipfile.ZipFile(target, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)


@pytest.mark.parametrize(
    "change, message",
    [
        (
            lambda m: m.update({"graph.json": m["graph.json"].replace(b"getitem", b"system")}),
            "the checksum does not match the contents",
        ),
        (lambda m: m.pop("graph.json"), "not a saved autoconv graph"),
        (
            lambda m: m.update({"manifest.json": b'{"format": "autoconv-graph", "version": 99}'}),
            "version 99",
        ),
        (lambda m: m.update({"../../evil.sh": b"rm -rf /"}), "unexpected member"),
    ],
)
def test_a_damaged_or_hostile_file_is_one_line(picker, change, message):
    tampered(picker / "pick.acg", picker / "bad.acg", change)
    done = run_cli("run", "bad.acg", "--input", "x=[1, 2, 3]", "--input", "i=0", cwd=picker)
    assert done.returncode == 1
    assert done.stderr.startswith("autoconv run: error: bad.acg: ")
    assert message in done.stderr
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_saved_graph_that_is_not_a_regular_file_is_refused_without_reading(picker):
    os.mkfifo(picker / "pipe.acg")
    done = run_cli("run", "pipe.acg", cwd=picker)  # a read would block
    assert done.returncode == 1
    assert done.stderr == (
        "autoconv run: error: pipe.acg: not a regular file; a saved autoconv graph is a regular "
        "file\n"
    )


def test_an_error_raised_while_the_graph_runs_is_its_type_and_message(picker):
    done = run_cli("run", "index.acg", "--input", "x=[1, 2, 3]", "--input", "i=7", cwd=picker)
    assert done.returncode == 1
    assert done.stderr.startswith("autoconv run: error: pick raised IndexError: ")
    assert "index 7 is out of bounds" in done.stderr
    assert "Traceback" not in done.stderr
    assert not done.stdout
