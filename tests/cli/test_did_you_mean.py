"""`autoconv show` and `autoconv graph` suggest close names for a mistyped function or method,
and say that specs are positional (`n=2`)."""

import json

import pytest

from autoconv.cli.suggest import close_names, did_you_mean
from tests.cli.helpers import run_cli, write

MODEL = """
    import numpy as np


    def relu_sum(x, n):
        return np.maximum(x, 0) * n


    class Layer:
        def scale(self, x):
            return x * 2.0
"""


@pytest.mark.parametrize(
    "command, target, message",
    [
        ("show", "model.py:relu_smu", "has no attribute 'relu_smu'; did you mean 'relu_sum'?"),
        ("show", "model.py:layer.scale", "did you mean 'Layer'?"),
        (
            "show",
            "model.py:Layer.sclae",
            "model.py:Layer has no attribute 'sclae'; did you mean 'scale'?",
        ),
        ("graph", "model.py:Relu_Sum", "did you mean 'relu_sum'?"),
    ],
)
def test_a_mistyped_or_wrong_target_gets_a_hint(tmp_path, command, target, message):
    write(tmp_path / "model.py", MODEL)
    done = run_cli(command, target, cwd=tmp_path)
    assert done.returncode == 1
    assert message in done.stderr, done.stderr


def test_close_names_come_best_first_and_far_names_give_no_hint():
    assert set(close_names("dumsp", json)[:2]) == {"dump", "dumps"}
    assert close_names("LOADS", json)[0] == "loads"
    assert did_you_mean("zzzz", json) == ""
    assert did_you_mean("load", json).startswith("; did you mean 'load'")


def test_a_keyword_spec_says_that_specs_are_positional(tmp_path):
    write(tmp_path / "model.py", MODEL)
    done = run_cli("graph", "model.py:relu_sum", "--spec", "float64[3]", "n=2", cwd=tmp_path)
    assert done.returncode == 2
    assert "specs are positional, one per parameter in order; write --spec 2 in n's place" in (
        done.stderr
    )
    done = run_cli("graph", "model.py:relu_sum", "--spec", "float64[3]", "2", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
