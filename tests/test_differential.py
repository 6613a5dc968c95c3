"""Every function of `tests/corpus/`, original vs converted, on the inputs listed next to it:
same results (value and type), exceptions (type, message, line), output, argument mutations
and outside state (see `differential.py`)."""

import pathlib
import textwrap
import warnings

import pytest

import autoconv
from tests import differential
from tests.differential import REGISTRY, call, check, corpus_modules, params, run, seq, snapshot

MODULES = corpus_modules()
CASES = params(MODULES)


@pytest.mark.parametrize(("entry", "case"), CASES)
def test_same_behaviour(entry, case):
    check(entry, case)


def _converted_entries():
    return [pytest.param(e, id=f"{e.module}.{e.name}") for e in REGISTRY if e.converted]


@pytest.mark.parametrize("entry", _converted_entries())
def test_converted_function_keeps_metadata_and_code_compiles(entry):
    """The converted function passes for the original wherever code looks at it, and its
    `to_code` text is valid Python."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", autoconv.ConversionWarning)  # asserted in the cases
        converted = differential._innermost(differential.convert(entry))
        text = autoconv.to_code(entry.target)
    original = differential._innermost(entry.target)
    for attr in (
        "__name__",
        "__qualname__",
        "__module__",
        "__doc__",
        "__defaults__",
        "__kwdefaults__",
        "__annotations__",
    ):
        assert getattr(converted, attr) == getattr(original, attr), attr
    compile(text, "<to_code>", "exec")


def test_corpus_is_large_enough():
    functions = {id(differential._innermost(e.target)) for e in REGISTRY}
    assert len(functions) >= 120
    assert len(CASES) >= 300


# -- the harness itself must be able to fail --


def _ret_int():
    return 1


def _ret_bool():
    return True


def _raise_a():
    raise ValueError("a")


def _raise_b():
    raise ValueError("b")


def _prints():
    print("x")


def _mutates(xs):
    xs.append(1)


def _keeps(xs):
    pass


@pytest.mark.parametrize(
    ("left", "right", "case"),
    [
        (_ret_int, _ret_bool, ()),  # 1 == True, but not the same type
        (_raise_a, _raise_b, ()),
        (_prints, lambda: None, ()),
        (_mutates, _keeps, ([],)),
    ],
    ids=["result type", "exception message", "stdout", "argument mutation"],
)
def test_harness_sees_differences(left, right, case):
    a, b = run(left, differential._as_case(case)), run(right, differential._as_case(case))
    assert (a.results, a.stdout, a.arguments) != (b.results, b.stdout, b.arguments)


def test_harness_sequences_share_state():
    def append(x, acc=[]):  # noqa: B006
        acc.append(x)
        return len(acc)

    outcome = run(append, seq((1,), (2,), call(3, acc=[])))
    assert [r[1] for r in outcome.results] == [("int", 1), ("int", 2), ("int", 1)]


def test_snapshot_compares_types_deeply():
    assert snapshot([1, (2,)]) != snapshot([1, [2]])
    assert snapshot({"a": 1}) != snapshot({"a": True})
    assert snapshot(float("nan")) == snapshot(float("nan"))


def test_identical_functions_in_two_files(user_module):
    """CPython's code equality ignores the file name: two modules defining the same function
    at the same line must still each get a conversion of their own (their globals differ, and
    tracebacks must name the right file)."""
    body = textwrap.dedent("""
        def f(n):
            out = []
            for i in range(n):
                out.append(i)
            if n < 0:
                raise ValueError(n)
            return out
    """)
    first = user_module(body)
    second = user_module(body + "\n\ndef range(n):\n    return ['user range']\n")
    assert first.f.__code__ == second.f.__code__  # the premise
    assert autoconv.convert(first.f)(2) == first.f(2) == [0, 1]
    converted = autoconv.convert(second.f)
    assert converted(2) == second.f(2) == ["user range"]
    assert converted.__code__.co_filename == second.__file__
    with pytest.raises(ValueError) as info:
        converted(-1)
    assert info.traceback[-1].path == pathlib.Path(second.__file__)
