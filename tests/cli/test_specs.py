"""Parsing `--spec`: array specs with a dtype and a shape, or Python literals."""

import numpy as np
import pytest

import autoconv
from autoconv.cli.files import UsageError
from autoconv.cli.specs import Spec, parse, to_argument


@pytest.mark.parametrize(
    "text, expected",
    [
        ("float32[10,10]", Spec("float32", (10, 10))),
        ("int64[]", Spec("int64", ())),
        ("float32[None,3]", Spec("float32", (None, 3))),
        (" float64 [ 2 , None ] ", Spec("float64", (2, None))),
        ("bool[4]", Spec("bool", (4,))),
        ("complex64[?]", Spec("complex64", (None,))),
        ("3", 3),
        ("-2.5", -2.5),
        ("True", True),
        ("None", None),
        ("'abc'", "abc"),
        ("(1, 2)", (1, 2)),
    ],
    ids=repr,
)
def test_parse(text, expected):
    assert parse(text) == expected


@pytest.mark.parametrize(
    "text, message",
    [
        ("float33[3]", "unknown dtype 'float33'"),
        ("str[3]", "unknown dtype 'str'"),
        ("float32[3.5]", "dimension '3.5' must be a size"),
        ("float32[x]", "dimension 'x' must be a size"),
        ("int64", "give a shape, e.g. int64[] for a scalar"),
        ("x + 1", "not a spec or a Python literal"),
    ],
)
def test_parse_errors_say_what_to_write(text, message):
    with pytest.raises(UsageError, match="--spec") as info:
        parse(text)
    assert message in str(info.value)


def test_to_argument_makes_a_tensor_spec():
    spec = to_argument(parse("float32[None,3]"))
    assert isinstance(spec, autoconv.TensorSpec)
    assert tuple(spec.shape) == (None, 3) and np.dtype(spec.dtype) == np.float32
    assert to_argument(parse("3")) == 3


def test_str_round_trips():
    assert str(parse("float32[None, 3]")) == "float32[None,3]"
