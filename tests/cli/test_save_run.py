"""`autoconv save` and `autoconv run`: save a graph in one process, run it in another where
the Python code is gone."""

import numpy as np

from tests.cli.helpers import run_cli, write

MODEL = """
    import numpy as np
    import autoconv


    def predict(x, steps):
        h = x * 2.0
        for _ in range(steps):
            if np.sum(h) > 0:
                h = h - 1
        autoconv.print("sum", np.sum(h))
        return h, {"max": np.max(h)}


    def numbers(n):
        yield n
"""


def test_save_then_run_without_the_source(tmp_path):
    src = write(tmp_path / "model.py", MODEL)
    saved = run_cli(
        "save", f"{src}:predict", "--spec", "float32[None]", "3", "-o", "m.acg", cwd=tmp_path
    )
    assert saved.returncode == 0, saved.stderr
    src.unlink()
    np.save(tmp_path / "x.npy", np.array([1.0, 2.0, 3.0], np.float32))
    ran = run_cli("run", "m.acg", "--input", "x=x.npy", "--input", "steps=3", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == (
        "sum 3.0\noutput[0] = [-1.,  1.,  3.]  # float32[3]\noutput[1]['max'] = 3.  # float32[]\n"
    )
    out = run_cli(
        "run", "m.acg", "--input", "x=[1, 2]", "--input", "steps=3", "-o", "o.npz", cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr
    with np.load(tmp_path / "o.npz") as z:
        assert z["output[0]"].tolist() == [-1.0, 1.0] and z["output[0]"].dtype == np.float32
        assert z["output[1]['max']"] == 1.0


def test_run_errors(tmp_path):
    src = write(tmp_path / "model.py", MODEL)
    assert (
        run_cli(
            "save", f"{src}:predict", "--spec", "float32[3]", "3", "-o", "m.acg", cwd=tmp_path
        ).returncode
        == 0
    )
    wrong = run_cli("run", "m.acg", "--input", "x=[1, 2, 3]", "--input", "steps=4", cwd=tmp_path)
    assert wrong.returncode == 1
    assert "parameter `steps` was traced with the Python value 3, got 4" in wrong.stderr
    assert "steps: 3" in wrong.stderr
    unknown = run_cli("run", "m.acg", "--input", "y=1", cwd=tmp_path)
    assert unknown.returncode == 2 and "has no parameter 'y'" in unknown.stderr
    missing = run_cli("run", "nothing.acg", cwd=tmp_path)
    assert missing.returncode == 1 and "no such file" in missing.stderr
    (tmp_path / "bad.acg").write_bytes(b"not a zip")
    bad = run_cli("run", "bad.acg", cwd=tmp_path)
    assert bad.returncode == 1 and "not a saved autoconv graph" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_save_errors(tmp_path):
    src = write(tmp_path / "model.py", MODEL)
    no_out = run_cli("save", f"{src}:predict", "--spec", "float32[3]", "3", cwd=tmp_path)
    assert no_out.returncode == 2
    arity = run_cli("save", f"{src}:predict", "--spec", "float32[3]", "-o", "m.acg", cwd=tmp_path)
    assert arity.returncode == 2 and "one --spec per parameter" in arity.stderr
    gen = run_cli("save", f"{src}:numbers", "--spec", "3", "-o", "g.acg", cwd=tmp_path)
    assert gen.returncode == 1 and "autoconv save: error:" in gen.stderr
    assert not (tmp_path / "g.acg").exists()


def test_output_and_out_are_one_option_for_save_and_run(tmp_path):
    src = write(tmp_path / "model.py", MODEL)
    for option, name in (("--output", "a"), ("--out", "b")):
        saved = run_cli(
            "save",
            f"{src}:predict",
            "--spec",
            "float32[2]",
            "1",
            option,
            f"{name}.acg",
            cwd=tmp_path,
        )
        assert saved.returncode == 0, saved.stderr
        ran = run_cli(
            "run",
            f"{name}.acg",
            "--input",
            "x=[1, 2]",
            "--input",
            "steps=1",
            option,
            name,
            cwd=tmp_path,
        )
        assert ran.returncode == 0, ran.stderr
        with np.load(tmp_path / f"{name}.npz") as z:
            assert z["output[0]"].tolist() == [1.0, 3.0]
