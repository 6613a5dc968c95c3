"""Errors under `jax.jit(autoconv.convert(f))` show the user's frames and none of autoconv's,
in the error and in the errors chained to it; `AUTOCONV_TRACEBACK=full` shows them all. JAX's
messages name the user's function as the one traced, not autoconv's."""

import os
import traceback

import pytest

import autoconv

jax = pytest.importorskip("jax")
jnp = jax.numpy

PACKAGE = os.path.dirname(os.path.abspath(autoconv.__file__)) + os.sep


def undefined_on_one_path(x):
    if x > 0:
        y = x
    return y


def float_of_a_tracer(x):
    if x > 0:
        x = float(x) + 1
    return x


def int_in_a_loop(x):
    i = 0
    while x > 1:
        x = x / 2
        i = int(x)
    return x + i


def shapes_differ(x):
    if x > 0:
        y = x * jnp.ones(2)
    else:
        y = x
    return y


def float_of_a_branch_value(x):
    if x > 0:
        z = x * 2
        x = float(z)
    return x


CASES = {
    "undefined on one path": (undefined_on_one_path, "`y` is defined in the if branch"),
    "float() of a tracer in a staged if": (float_of_a_tracer, "ConcretizationTypeError"),
    "int() of a tracer in a staged while": (int_in_a_loop, "ConcretizationTypeError"),
    "shapes differ between branches": (
        shapes_differ,
        "float64[2] and float64[]: the shapes must agree",
    ),
}


def _frames(error):
    """The file names of every frame of `error` and of the errors chained to it."""
    files, seen = [], set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        files += [f.filename for f in traceback.extract_tb(error.__traceback__)]
        error = error.__cause__ or error.__context__
    return files


def _raised(f):
    with pytest.raises(autoconv.AutoconvError) as info:
        jax.jit(autoconv.convert(f))(2.0)
    return info.value


@pytest.mark.parametrize("case", list(CASES))
def test_no_autoconv_frame_in_the_traceback(case, monkeypatch):
    monkeypatch.delenv("AUTOCONV_TRACEBACK", raising=False)
    f, text = CASES[case]
    error = _raised(f)
    assert text in str(error)
    files = _frames(error)
    assert __file__ in files
    assert not [name for name in files if name.startswith(PACKAGE)], files
    assert PACKAGE not in "".join(str(e) for e in (error, error.__cause__))


@pytest.mark.parametrize("case", list(CASES))
def test_the_switch_shows_every_frame(case, monkeypatch):
    monkeypatch.setenv("AUTOCONV_TRACEBACK", "full")
    error = _raised(CASES[case][0])
    assert [name for name in _frames(error) if name.startswith(PACKAGE)]


def test_jax_names_the_users_branch_as_the_function_traced(monkeypatch):
    monkeypatch.delenv("AUTOCONV_TRACEBACK", raising=False)
    error = _raised(float_of_a_branch_value)  # `z` is a value of the branch's own trace
    assert f"the function if_body at {__file__}:" in str(error.__cause__)
