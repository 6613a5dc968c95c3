"""Saving and loading: what a loaded function offers, Variables, prints, signatures, atomic
writes, the errors of things that cannot be saved, and a fresh process after the source is
deleted."""

import collections
import os
import subprocess
import sys
import textwrap
import zipfile

import numpy as np
import pytest

import autoconv
from autoconv.functions.saving import LoadError, SaveError, archive

Pair = collections.namedtuple("Pair", "low high")
X = np.array([1.0, -2.0, 3.0])


def test_round_trip_keeps_values_types_structure_and_constants(tmp_path):
    @autoconv.function
    def f(x, scale=2.0):
        y = x * scale
        if np.sum(x) > 0:
            y = y + np.float32(0.5)
        return Pair(y[1:], {"n": x[2:], "k": (np.nan, -0.0, float("inf"), None, "a'\n\"b")})

    expected = f(X)
    f.save(tmp_path / "f.acg")
    g = autoconv.load(tmp_path / "f.acg")
    got = g(X)
    assert type(got).__name__ == "Pair" and got._fields == ("low", "high")
    np.testing.assert_array_equal(got.low, expected.low)
    assert got.low.dtype == expected.low.dtype
    assert repr(got.high["k"]) == repr(expected.high["k"])
    assert np.signbit(got.high["k"][1])


def test_signatures_graph_code_and_save_again(tmp_path):
    @autoconv.function
    def f(x):
        return x[2:] * 2

    f(X)
    f(np.arange(4, dtype=np.int32))
    f.save(tmp_path / "f.acg")
    g = autoconv.load(tmp_path / "f.acg")
    assert len(g.signatures) == 2
    assert "x: float64 Tensor, shape=(3,)" in g.signatures[0]
    assert "x: int32 Tensor, shape=(4,)" in g.signatures[1]
    assert "%0[2:]" in g.graph(X).as_text()  # a slice, not the index 2
    assert g.graph(np.arange(4, dtype=np.int32)).inputs[0].dtype == np.int32
    assert "def run(" in g.code and "# signature 1" in g.code
    g.save(tmp_path / "again.acg")
    h = autoconv.load(tmp_path / "again.acg")
    np.testing.assert_array_equal(h(np.arange(4, dtype=np.int32)), [4, 6])


def test_a_call_matching_no_signature_names_the_parameter_and_the_specs(tmp_path):
    @autoconv.function
    def f(x, n):
        return x * n

    f(X, 3)
    f.save(tmp_path / "f.acg")
    g = autoconv.load(tmp_path / "f.acg")
    with pytest.raises(TypeError, match=r"parameter `x` expects float64 Tensor, shape=\(3,\)") as e:
        g(np.zeros(4), 3)
    assert "n: 3" in str(e.value)
    with pytest.raises(TypeError, match="parameter `n` was traced with the Python value 3"):
        g(X, 4)
    with pytest.raises(TypeError, match="missing a required argument"):
        g(X)


def test_tensorspec_signatures_are_traced_and_saved(tmp_path):
    def f(x):
        return np.sum(x * x, axis=0)

    fn = autoconv.function(f)
    fn.save(tmp_path / "f.acg", signatures=[autoconv.TensorSpec((None, 2), np.float32)])
    g = autoconv.load(tmp_path / "f.acg")
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    np.testing.assert_array_equal(g(x), f(x))
    assert g(x).dtype == np.float32
    assert g(x[:1]).shape == (2,)


def test_concrete_function_save(tmp_path):
    fn = autoconv.function(lambda x: x + 1)
    fn.get_concrete_function(autoconv.TensorSpec((2,), np.int64)).save(tmp_path / "c.acg")
    assert autoconv.load(tmp_path / "c.acg")(np.array([1, 2])).tolist() == [2, 3]


V = autoconv.Variable(np.zeros(2), name="total")


def test_variables_are_saved_with_their_values_and_keep_their_updates(tmp_path):
    @autoconv.function
    def step(x):
        V.assign_add(x)
        return V.read_value() * 1.0

    step(np.ones(2))
    step.save(tmp_path / "s.acg")
    g = autoconv.load(tmp_path / "s.acg")
    (var,) = g.variables
    assert var.name == "total" and var.numpy().tolist() == [1.0, 1.0]
    assert g(np.ones(2)).tolist() == [2.0, 2.0]
    assert g(np.ones(2)).tolist() == [3.0, 3.0]
    assert V.numpy().tolist() == [1.0, 1.0]  # the loaded copy is its own
    g.save(tmp_path / "s2.acg")
    assert autoconv.load(tmp_path / "s2.acg").variables[0].numpy().tolist() == [3.0, 3.0]


def test_prints_are_identical(tmp_path, capsys):
    @autoconv.function
    def f(x):
        s = np.sum(x)
        autoconv.print("sum", s, f"{s:.3f}", sep="|", end="!\n")
        return s

    f(X)
    capsys.readouterr()
    f(X)
    expected = capsys.readouterr().out
    f.save(tmp_path / "f.acg")
    autoconv.load(tmp_path / "f.acg")(X)
    assert capsys.readouterr().out == expected == "sum|2.0|2.000!\n"


def test_a_staged_raise_raises_the_same_error(tmp_path):
    @autoconv.function
    def f(x):
        if np.sum(x) > 100:
            raise ValueError("too big")
        return x

    f(X)
    f.save(tmp_path / "f.acg")
    with pytest.raises(ValueError, match="too big"):
        autoconv.load(tmp_path / "f.acg")(X * 100)


class Mine(Exception):
    pass


@pytest.mark.parametrize(
    "body, hint",
    [
        ("if np.sum(x) > 1:\n        raise Mine('no')\n    return x", "built-in exceptions"),
        ("autoconv.print(x, file=sys.stderr)\n    return x", "file="),
    ],
)
def test_what_cannot_be_saved_raises_save_error_with_the_line(tmp_path, body, hint):
    namespace = {"np": np, "autoconv": autoconv, "Mine": Mine, "sys": sys}
    source = f"def f(x):\n    {body}\n"
    path = tmp_path / "mod.py"
    path.write_text(source)
    exec(compile(source, str(path), "exec"), namespace)
    fn = autoconv.function(namespace["f"])
    with pytest.raises(SaveError, match=hint) as e:
        fn.save(tmp_path / "f.acg", signatures=[(X,)])
    assert str(path) in str(e.value)
    assert not (tmp_path / "f.acg").exists()


def test_object_arguments_cannot_be_saved(tmp_path):
    fn = autoconv.function(lambda x, rng: x + rng.normal())
    fn(X, np.random.default_rng(0))
    with pytest.raises(SaveError, match="the argument `rng`, an object"):
        fn.save(tmp_path / "f.acg")


def test_nothing_traced_is_an_error(tmp_path):
    with pytest.raises(SaveError, match="no traced signature"):
        autoconv.function(lambda x: x).save(tmp_path / "f.acg")


def test_saving_is_atomic(tmp_path, monkeypatch):
    fn = autoconv.function(lambda x: x + 1)
    fn(X)
    target = tmp_path / "f.acg"
    fn.save(target)
    before = target.read_bytes()
    fn(np.zeros(5))

    def broken(self, name, data, *a, **k):
        if name.startswith("arrays/"):
            raise OSError("disk full")
        return original(self, name, data, *a, **k)

    original = zipfile.ZipFile.writestr
    monkeypatch.setattr(zipfile.ZipFile, "writestr", broken)
    with pytest.raises(OSError, match="disk full"):
        fn.save(target)
    monkeypatch.undo()
    assert target.read_bytes() == before  # the old file, whole
    assert os.listdir(tmp_path) == ["f.acg"]  # no temporary file left
    assert len(autoconv.load(target).signatures) == 1


def test_backend_argument(tmp_path):
    fn = autoconv.function(lambda x: x + 1)
    fn(X)
    fn.save(tmp_path / "f.acg")
    assert autoconv.load(tmp_path / "f.acg", backend="numpy")(X).tolist() == [2.0, -1.0, 4.0]
    with pytest.raises(LoadError, match="unknown backend"):
        autoconv.load(tmp_path / "f.acg", backend="tpu")
    with pytest.raises(ValueError, match="need backend='jax'"):
        autoconv.load(tmp_path / "f.acg", device="cpu")


def newton_sqrt(a):
    x = a
    steps = 0
    while np.abs(x * x - a) > 1e-12:
        x = 0.5 * (x + a / x)
        steps += 1
    autoconv.print("steps", steps)
    return x, steps


def test_a_loaded_graph_runs_on_the_jax_backend(tmp_path, capsys):
    pytest.importorskip("jax")  # the `jax` extra, which CI installs
    fn = autoconv.function(newton_sqrt)
    expected = fn(np.float64(2.0))
    fn.save(tmp_path / "n.acg")
    capsys.readouterr()
    loaded = autoconv.load(tmp_path / "n.acg", backend="jax")
    for a in (np.float64(2.0), np.float64(9.0)):
        eager = newton_sqrt(a)
        printed = capsys.readouterr().out
        got = loaded(a)
        assert capsys.readouterr().out == printed
        assert type(got[0]) is type(eager[0]) and type(got[1]) is int
        assert got[1] == eager[1] and abs(got[0] - eager[0]) <= 1e-12 * abs(eager[0])
    assert loaded(np.float64(2.0))[0] == expected[0]
    assert "lax.while_loop" in loaded.code or "while_loop" in loaded.code


def test_format_layout(tmp_path):
    fn = autoconv.function(lambda x: x * np.arange(3.0))
    fn(X)
    fn.save(tmp_path / "f.acg")
    with zipfile.ZipFile(tmp_path / "f.acg") as z:
        names = z.namelist()
        manifest = z.read("manifest.json")
    assert names[:2] == ["manifest.json", "graph.json"]
    assert all(n.startswith("arrays/") and n.endswith(".npy") for n in names[2:])
    import json

    m = json.loads(manifest)
    assert m["format"] == "autoconv-graph" and m["version"] == 1
    assert m["checksum"].startswith("sha256:")
    assert archive.MANIFEST == "manifest.json"


def test_fresh_process_after_the_source_is_deleted(tmp_path):
    module = tmp_path / "model.py"
    module.write_text(
        textwrap.dedent(
            """
            import numpy as np
            import autoconv

            w = autoconv.Variable(np.array([0.5, -1.0]), name="w")

            @autoconv.function
            def predict(x, steps=3):
                h = x @ w
                i = 0
                while i < steps:
                    h = np.tanh(h) + 1
                    i += 1
                autoconv.print("h", h)
                w.assign(w * 0.5)
                return h
            """
        )
    )
    src = os.path.abspath(os.path.join(os.path.dirname(autoconv.__file__), os.pardir))
    env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{tmp_path}"}
    save = (
        "import numpy as np, model\n"
        "x = np.array([[1.0, 2.0], [3.0, 4.0]])\n"
        "model.predict.save('f.acg', signatures=[(x,)])\n"
        "print(model.predict(x).tolist(), model.predict(x).tolist())\n"
    )
    first = subprocess.run(
        [sys.executable, "-c", save], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert first.returncode == 0, first.stderr
    module.unlink()
    for cached in (tmp_path / "__pycache__").glob("*"):
        cached.unlink()
    run = (
        "import numpy as np, autoconv, importlib.util\n"
        "assert importlib.util.find_spec('model') is None\n"
        "f = autoconv.load('f.acg')\n"
        "x = np.array([[1.0, 2.0], [3.0, 4.0]])\n"
        "print(f(x).tolist(), f(x).tolist())\n"
    )
    second = subprocess.run(
        [sys.executable, "-c", run], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert second.returncode == 0, second.stderr
    assert second.stdout == first.stdout


def test_an_older_version_is_upgraded_step_by_step(tmp_path, monkeypatch):
    """The version rule: a file of version v loads after the upgrades v -> v+1 ... run."""
    from autoconv.functions.saving import files

    fn = autoconv.function(lambda x: x + 1)
    fn(X)
    fn.save(tmp_path / "f.acg")
    seen = []

    def upgrade(document):
        seen.append(document["name"])
        return {**document, "name": "upgraded"}

    monkeypatch.setattr(files, "VERSION", 2)
    monkeypatch.setattr(files, "_UPGRADES", {1: upgrade})
    g = autoconv.load(tmp_path / "f.acg")
    assert seen == ["<lambda>"] and g.name == "upgraded"
    assert g(X).tolist() == [2.0, -1.0, 4.0]
