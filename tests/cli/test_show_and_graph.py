"""`autoconv show` and `autoconv graph`: one function, named as MODULE:QUALNAME."""

import textwrap

import pytest

from tests.cli.helpers import run_cli, write

MODEL = """
    import numpy as np


    def relu_sum(x, n):
        total = np.zeros_like(x)
        for i in range(n):
            if np.sum(x) > 0:
                total = total + np.maximum(x, 0)
            else:
                total = total - x
        return total


    class Layer:
        def scale(self, x):
            return x * 2.0 if self is None else x

        @staticmethod
        def clip(x):
            if x > 1:
                return 1
            return x

        @classmethod
        def make(cls, n):
            while n > 0:
                n -= 1
            return cls()


    def numbers(n):
        yield n


    def predict(x, steps):
        for _ in range(steps):
            x = x * 0.5
        return x


    class Weighted:
        def __init__(self):
            self.w = np.full(3, 2.0)

        def apply(self, x):
            return x * self.w


    class Scaled:
        def __init__(self, scale):
            self.scale = scale

        def apply(self, x):
            return x * self.scale


    class Broken:
        def __init__(self):
            raise RuntimeError("no model file")

        def apply(self, x):
            return x
"""


@pytest.fixture
def model(tmp_path):
    return write(tmp_path / "model.py", MODEL)


def test_show_prints_to_code_of_a_function_in_a_file(model, tmp_path):
    done = run_cli("show", "model.py:relu_sum", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("def relu_sum(x, n):\n")
    assert "ac.for_stmt(" in done.stdout and "ac.if_stmt(" in done.stdout
    compile(done.stdout, "shown", "exec")


@pytest.mark.parametrize(
    "target, expected",
    [
        ("model:Layer.scale", "def scale(self, x):"),
        ("model:Layer.clip", "def clip(x):"),
        ("model:Layer.make", "def make(cls, n):"),
        ("json.decoder:JSONDecoder.raw_decode", "def raw_decode(self, s, idx=0):"),
    ],
)
def test_show_finds_modules_on_the_path_and_methods_of_every_kind(
    model, tmp_path, target, expected
):
    done = run_cli("show", target, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == expected


@pytest.mark.parametrize(
    "target, message",
    [
        ("model.py:Layer.nope", "model.py:Layer has no attribute 'nope'; it has: clip, make"),
        ("nomodule:f", "no module named 'nomodule'; run from the folder that holds it"),
        ("missing.py:f", "missing.py: no such file"),
        ("model.py:numbers", "stays Python: the yield at"),
    ],
)
def test_show_errors_exit_with_status_1_and_say_what_is_wrong(model, tmp_path, target, message):
    done = run_cli("show", target, cwd=tmp_path)
    assert done.returncode == 1
    assert message in done.stderr and done.stdout == ""


def test_show_reports_a_syntax_error_in_the_named_file_with_its_line(tmp_path):
    write(tmp_path / "broken.py", "x = 1\ndef f(:\n")
    done = run_cli("show", "broken.py:f", cwd=tmp_path)
    assert done.returncode == 1
    assert "broken.py:2: syntax error: invalid syntax" in done.stderr


def test_graph_prints_the_traced_graph_as_text(model, tmp_path):
    done = run_cli("graph", "model.py:relu_sum", "--spec", "float32[None,3]", "2", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("graph relu_sum(") and "float32[None, 3]" in lines[0]
    assert sum("cond(" in line for line in lines) == 2  # the Python loop ran twice
    assert any("zeros_like(%0)" in line and "model.py:5" in line for line in lines)


def test_graph_prints_graphviz_dot(model, tmp_path):
    done = run_cli(
        "graph", "model:relu_sum", "--spec", "float32[2,3]", "1", "--format", "dot", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith('digraph "relu_sum" {')
    assert done.stdout.rstrip().endswith("}") and "->" in done.stdout


def test_graph_traces_a_method_with_a_literal_for_self(model, tmp_path):
    done = run_cli("graph", "model.py:Layer.scale", "--spec", "None", "float64[]", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "float64[]" in done.stdout.splitlines()[0]


@pytest.mark.parametrize(
    "specs, status, message",
    [
        (["float33[3]"], 2, "unknown dtype 'float33'"),
        (["float32"], 2, "give a shape, e.g. float32[] for a scalar"),
        (["float32[3]"], 2, "relu_sum(x, n): 1 --spec given"),
        (["float32[3]", "1", "2"], 2, "give one --spec per parameter"),
        (["float32[-1]", "1"], 2, "dimension '-1' must be a size"),
    ],
)
def test_graph_spec_errors(model, tmp_path, specs, status, message):
    done = run_cli("graph", "model.py:relu_sum", "--spec", *specs, cwd=tmp_path)
    assert done.returncode == status, done.stderr
    assert message in done.stderr


def line_of(text: str) -> int:
    """The line of model.py (as `write` writes MODEL) that holds `text`."""
    lines = textwrap.dedent(MODEL).lstrip("\n").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_a_failure_while_tracing_names_the_users_file_and_line(model, tmp_path):
    done = run_cli("graph", "model.py:predict", "--spec", "float32[3]", "3.5", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    at = f"failed at model.py:{line_of('in range(steps)')} (`for _ in range(steps):`)"
    assert f"{at}: TypeError: 'float'" in done.stderr


def test_graph_builds_the_object_for_a_method_given_none_for_self(model, tmp_path):
    done = run_cli("graph", "model.py:Weighted.apply", "--spec", "None", "float64[3]", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "[2.,2.,2.]" in done.stdout  # the object's weights, read through `self`


@pytest.mark.parametrize(
    "target, message",
    [
        (
            "Scaled.apply",
            f"failed at model.py:{line_of('* self.scale')} (`return x * self.scale`): AttributeError: 'NoneType' object "
            "has no attribute 'scale'; `self` was None (--spec None) since Scaled() needs "
            "arguments: trace a function that builds the object and calls the method",
        ),
        (
            "Broken.apply",
            f"building Broken() for `self` (--spec None) failed at model.py:{line_of('no model')} "
            '(`raise RuntimeError("no model file")`): RuntimeError: no model file',
        ),
    ],
)
def test_a_method_whose_object_cannot_be_built_says_how(model, tmp_path, target, message):
    done = run_cli("graph", f"model.py:{target}", "--spec", "None", "float64[3]", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert message in done.stderr
