"""Where the functional form runs (inside traces, or under `set_always_converted`), errors leave
converted code with no frame of autoconv's runtime or guard in their tracebacks."""

import sys
import traceback
import warnings

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


def _deprecated(level):  # a library's helper: warns at its caller's caller (or further)
    warnings.warn("old", DeprecationWarning, stacklevel=level)


@autoconv.do_not_convert
def warn_at(level):
    _deprecated(level + 1)
    return True


def in_if(level, x):
    if x > 0:
        warn_at(level)
    return x


def in_loop(level, xs):
    for x in xs:
        if x > 0:
            warn_at(level)
    return xs


def in_while_and_expression(level, n):
    while n > 0:
        n -= 1
        y = warn_at(level) if n > 5 or (n > 0 and warn_at(level)) else None
    return y


def caller_of(level, fn, arg):
    return fn(level, arg)


def _where(fn, *args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(*args)
    return [(w.filename, w.lineno) for w in caught]


@pytest.mark.parametrize("level", [1, 2, 3, 4])
@pytest.mark.parametrize(
    "fn, arg", [(in_if, 1), (in_loop, [1, -1, 2]), (in_while_and_expression, 3)]
)
def test_a_warnings_stacklevel_names_the_line_the_original_would(level, fn, arg, always_converted):
    autoconv.set_always_converted(False)
    eager = _where(caller_of, level, fn, arg)
    autoconv.set_always_converted(True)
    converted = autoconv.convert(caller_of)
    assert _where(converted, level, fn, arg) == eager
    assert _where(converted, level, fn, arg) == eager  # the functional form made, reused
