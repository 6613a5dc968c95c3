"""Tracebacks of user errors leaving `Function` and `ConcreteFunction` calls show the user's
frames and none of autoconv's (as JAX filters its own); `AUTOCONV_TRACEBACK=full` shows all.
The exception itself (type, message, chain) is the one raised."""

import os
import sys
import traceback

import numpy as np
import pytest

import autoconv
from autoconv.graph.errors import StagingError

PACKAGE = os.path.dirname(os.path.abspath(autoconv.__file__)) + os.sep


def ours(filename: str) -> bool:
    return filename.startswith("<autoconv") or os.path.abspath(filename).startswith(PACKAGE)


@autoconv.function
def checks_rows(x):
    if x.shape[0] > 2:
        raise ValueError("at most two rows")  # a Python error while tracing
    return x * 2


@autoconv.function
def mismatched(x):
    return x[:2] + x  # a StagingError while tracing


@autoconv.function
def reads_frame(x):
    sys._getframe()
    return x


@autoconv.function
def adds(a, b):
    return a + b  # shapes known only at run time


def _raised(call):
    with pytest.raises(Exception) as info:
        call()
    return info.value


CASES = {
    "a user error while tracing": (
        lambda: checks_rows(np.ones(3)),
        ValueError,
        ("checks_rows", 'raise ValueError("at most two rows")  # a Python error while tracing'),
    ),
    "a StagingError while tracing": (
        lambda: mismatched(np.ones(3)),
        StagingError,
        ("mismatched", "return x[:2] + x  # a StagingError while tracing"),
    ),
    "get_concrete_function": (
        lambda: mismatched.get_concrete_function(autoconv.TensorSpec([4])),
        StagingError,
        ("mismatched", "return x[:2] + x  # a StagingError while tracing"),
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_user_errors_show_the_users_frames_and_none_of_ours(case, monkeypatch):
    monkeypatch.delenv("AUTOCONV_TRACEBACK", raising=False)
    call, cls, (function, line) = CASES[case]
    error = _raised(call)
    assert type(error) is cls or isinstance(error, cls)
    shown = traceback.extract_tb(error.__traceback__)
    assert not [f.filename for f in shown if ours(f.filename)]
    assert shown[0].name == "_raised"  # the caller's frame is kept
    assert shown[-1].line == line
    # The converted function's frame; a branch body is a function of its own ('if_body').
    assert function in [f.name for f in shown]
    assert shown[-1].filename == __file__ and shown[-1].lineno > 0
    # The message still names the user's line.
    if cls is StagingError:
        assert str(error).startswith(f"{__file__}:{shown[-1].lineno}: ")


def test_the_full_traceback_on_request(monkeypatch):
    monkeypatch.setenv("AUTOCONV_TRACEBACK", "full")
    error = _raised(lambda: mismatched(np.ones(5)))
    files = [f.filename for f in traceback.extract_tb(error.__traceback__)]
    assert any(ours(f) for f in files)
    assert files[-1].startswith(PACKAGE)  # raised by the tracer, below the user's line
    assert __file__ in files


def test_strict_conversion_errors_hide_our_frames(monkeypatch):
    monkeypatch.delenv("AUTOCONV_TRACEBACK", raising=False)
    autoconv.set_strict(True)
    try:
        error = _raised(lambda: reads_frame(np.ones(2)))
    finally:
        autoconv.set_strict(False)
    assert isinstance(error, autoconv.ConversionError)
    assert "_getframe" in str(error)
    shown = traceback.extract_tb(error.__traceback__)
    assert shown and not [f for f in shown if ours(f.filename)]


def test_run_time_errors_hide_our_frames_and_keep_the_numpy_cause(monkeypatch):
    monkeypatch.delenv("AUTOCONV_TRACEBACK", raising=False)
    concrete = adds.get_concrete_function(
        autoconv.TensorSpec([None], np.float64), autoconv.TensorSpec([None], np.float64)
    )
    error = _raised(lambda: concrete(np.ones(2), np.ones(3)))
    assert isinstance(error, ValueError)
    assert isinstance(error.__cause__, ValueError)  # NumPy's own error, chained
    for e in (error, error.__cause__):
        assert not [f for f in traceback.extract_tb(e.__traceback__) if ours(f.filename)]
    # The same through the Function.
    error = _raised(lambda: adds(np.ones((2, 2)), np.ones(3)))
    assert not [f for f in traceback.extract_tb(error.__traceback__) if ours(f.filename)]


def test_errors_caught_inside_traces_are_caught_as_before():
    # An inner Function's error caught by the outer traced code (frames are left whole while
    # a graph is being built: the tracer reads them).
    @autoconv.function
    def outer(x):
        try:
            return checks_rows(x)
        except ValueError:
            return x + 1

    assert outer(np.ones(3)).tolist() == [2.0, 2.0, 2.0]


def takes_frame(x):
    sys._getframe()
    return x


@pytest.mark.parametrize("api", [autoconv.convert, autoconv.to_code], ids=["convert", "to_code"])
def test_conversion_errors_show_the_callers_line_only_each_time(api, monkeypatch):
    monkeypatch.delenv("AUTOCONV_TRACEBACK", raising=False)
    autoconv.set_strict(True)
    try:
        for _ in range(2):  # the cached error raised again: not with the last traceback
            error = _raised(lambda: api(takes_frame))
            shown = traceback.extract_tb(error.__traceback__)
            assert [f.name for f in shown] == ["_raised", "<lambda>"], shown
    finally:
        autoconv.set_strict(False)
    assert isinstance(error, autoconv.ConversionError)


def _positive_check(x):
    if np.sum(x) > 0:
        raise ValueError("positive!")  # staged: the graph raises it when it runs
    return x


@autoconv.function
def staged_raise(x):
    return _positive_check(x) + 1


def test_a_staged_raise_ends_the_traceback_at_the_users_raise(monkeypatch):
    monkeypatch.delenv("AUTOCONV_TRACEBACK", raising=False)
    staged_raise(-np.ones(3))  # traced once; the second call runs the graph only
    assert staged_raise.tracing_count == 1
    with pytest.raises(ValueError, match="positive!") as info:
        staged_raise(np.ones(3))
    assert staged_raise.tracing_count == 1
    frames = traceback.extract_tb(info.value.__traceback__)
    raise_line = _positive_check.__code__.co_firstlineno + 2
    assert (frames[-1].name, frames[-1].lineno) == ("_positive_check", raise_line)
    assert frames[-1].filename == __file__ and frames[-1].line.startswith("raise ValueError")
    assert not any(ours(f.filename) for f in frames)
    assert any(f"test_tracebacks.py:{raise_line}" in note for note in info.value.__notes__)
    # The printed traceback marks no columns inside the user's line.
    printed = "".join(traceback.format_exception(info.value))
    assert "^^^" not in printed.split('raise ValueError("positive!")')[1].split("\n")[1]
    # With autoconv's frames shown, the user's line still ends it, once.
    monkeypatch.setenv("AUTOCONV_TRACEBACK", "full")
    with pytest.raises(ValueError) as info:
        staged_raise(np.ones(3))
    frames = traceback.extract_tb(info.value.__traceback__)
    assert frames[-1].lineno == raise_line and [f.lineno for f in frames].count(raise_line) == 1
