"""Where the functional form runs (inside traces, or under `set_always_converted`), errors leave
converted code with no frame of autoconv's runtime or guard in their tracebacks."""

import sys
import traceback

import pytest

import autoconv


def reraise(tp, value, tb=None):  # six.reraise, whose own test counts traceback entries
    try:
        if value is None:
            value = tp()
        if value.__traceback__ is not tb:
            raise value.with_traceback(tb)
        raise value
    finally:
        value = None
        tb = None


def nested(xs):
    total = 0
    for x in xs:
        if x < 0 and x != -100:
            raise ValueError(f"negative: {x}")
        total += x
    return total


def _names(error):
    return [(f.name, f.lineno) for f in traceback.extract_tb(error.__traceback__)]


@pytest.mark.usefixtures("always_converted")
def test_six_reraise_keeps_the_callers_traceback_under_the_functional_form():
    converted = autoconv.convert(reraise)
    for _ in range(2):  # the first call makes the functional form, the second reuses it
        e = Exception("blah")
        try:
            raise e
        except Exception:
            tp, val, tb = sys.exc_info()
        try:
            converted(tp, val, tb)
        except Exception:
            tp2, value2, tb2 = sys.exc_info()
        assert value2 is e and tb2.tb_next.tb_next is tb  # six's own assertion


def test_no_runtime_or_guard_frames_in_the_functional_forms_tracebacks(always_converted):
    converted = autoconv.convert(nested)
    with pytest.raises(ValueError) as info:
        converted([1, -2])
    every = traceback.extract_tb(info.value.__traceback__)
    assert all(f.filename == __file__ for f in every), every
    first = nested.__code__.co_firstlineno
    # The function at its loop, the loop's body at the `if`, the `if`'s body at the `raise`.
    assert [f.lineno - first for f in every[1:]] == [2, 3, 4]


def test_the_full_traceback_keeps_autoconvs_frames(always_converted, monkeypatch):
    monkeypatch.setenv("AUTOCONV_TRACEBACK", "full")
    with pytest.raises(ValueError) as info:
        autoconv.convert(nested)([1, -2])
    files = {f.filename for f in traceback.extract_tb(info.value.__traceback__)}
    assert any(f.endswith("control_flow.py") for f in files)
