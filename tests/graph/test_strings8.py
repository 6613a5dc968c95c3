"""Strings made when the graph runs (task strings8, issue 24): chosen strings concatenated,
strings a staged loop builds (`s += sym` in a staged `while`), `len()` and `hex()`/`bin()` of
run-time values, chosen strings compared and printed inside lists.

Each program of tests/graph/strings8_programs.py runs eagerly and as one graph function on
several inputs in turn, on every backend; the result (type and repr) and the printed output of
every call must be eager's, or the program raises the documented clear error.
"""

import warnings

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule, message
from tests.graph.strings8_programs import PROGRAMS

# Programs that stay documented limits: (name, backend or None for all) -> a part of the message.
LIMITS = {
    ("in_string", None): "`in` on it",
    ("labelled_dict", "jax"): "holds strings, which this backend does not key",
    ("replace_and_strip", None): "calls `.split()` of a string made when the graph runs",
    ("names_sorted", None): "this set holds keys written in the code",
    ("key_value_names", "jax"): "holds strings, which this backend does not key",
}


def _limit(name, backend):
    return LIMITS.get((name, backend)) or LIMITS.get((name, None))


def _same_as_eager(capsys, f, inputs, backend):
    g = autoconv.function(f, backend=backend)
    for args in inputs:
        capsys.readouterr()
        try:
            expected = ("return", f(*args))
        except Exception as e:  # noqa: BLE001 - an outcome
            expected = ("raise", type(e))
        eager = capsys.readouterr()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", autoconv.TraceEffectWarning)
            if expected[0] == "raise":
                with pytest.raises(expected[1]):
                    g(*args)
                continue
            got = g(*args)
        graph = capsys.readouterr()
        assert graph.out == eager.out, args
        assert type(got) is type(expected[1]), (got, expected[1])
        assert repr(got) == repr(expected[1])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f,inputs", PROGRAMS, ids=[f.__name__ for f, _ in PROGRAMS])
def test_program(capsys, f, inputs, backend):
    limit = _limit(f.__name__, backend)
    if limit is None:
        _same_as_eager(capsys, f, inputs, backend)
        return
    with pytest.raises(autoconv.AutoconvError) as info:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", autoconv.TraceEffectWarning)
            autoconv.function(f, backend=backend)(*inputs[0])
    assert limit in str(info.value)
    assert "strings8_programs.py:" in str(info.value)  # the user's own line


def test_counts_line_of_a_built_string():
    # `s += "*"` in a staged `while` carries a string made when the graph runs; a state
    # machine over a few strings stays a choice among them (it compares on the JAX backend).
    def machine(x):
        state = "a"
        for _v in x:
            if state == "a":
                state = "b"
            elif state == "b":
                state = "c"
            elif state == "c":
                state = "d"
            elif state == "d":
                state = "e"
            else:
                state = "a"
        return state

    for backend in BACKENDS:
        g = autoconv.function(machine, backend=backend)
        for n in (0, 3, 7):
            assert g(np.ones(n)) == machine(np.ones(n))


def _last_over_one(x):
    out = "none"
    for v in x:
        if v > 1:
            out = v
    return out + 1  # eager: TypeError where `out` is still "none"; graph mode: a clear error


def _none_big_or_value(x):
    out = None
    for v in x:
        if v > 1:
            out = "big"
        elif v < 0:
            out = v
    return out


def test_union_through_a_loop_names_each_kind_once():
    # The loop's own value of an alternative is the kind its plan found: the message named
    # it twice ("a float64 or a number").
    text = message(_last_over_one, np.array([1.0, 2.0]))
    assert "`out` is str 'none' or a float64 depending on the path" in text
    assert "or a number" not in text


@pytest.mark.parametrize("backend", BACKENDS)
def test_none_a_string_or_a_number_through_a_loop(backend):
    # None before the loop, a string or a number by the path: the message said the same kinds
    # before and after an iteration ("str 'big' or a float64 object").
    for x in ([1.0, 2.0, -3.0], [2.0], [0.0], [-1.0, 5.0]):
        follows_the_rule(_none_big_or_value, np.array(x), backend=backend)


def test_text_indexed_at_a_run_time_key_is_a_clear_error():
    def f(x):
        s = f"{x[0]:.2f}"
        return s[int(x[1])]

    assert "indexes a string made when the graph runs" in message(f, np.array([1.5, 0.0]))


def _pos_or_rate(x):
    if x[0] > 0:
        return "pos"
    return 1.5


def _uses_helper_result(x):
    r = _pos_or_rate(x)
    return r + 1


def test_union_named_for_the_variable_that_holds_it():
    # The union a helper returns was named "the function's return value" (its `retval`).
    text = message(_uses_helper_result, np.array([1.0]))
    assert text.startswith(f"{__file__}:") or "test_strings8.py:" in text
    assert "`r` is str 'pos' or float 1.5" in text


def _chosen_plus_int(x):
    s = "a" if x[0] > 0 else "b"
    return s + 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_chosen_string_operation_every_option_rejects_raises_eagers_type(backend):
    follows_the_rule(_chosen_plus_int, np.array([1.0]), backend=backend)
    follows_the_rule(_chosen_plus_int, np.array([-1.0]), backend=backend)


def _chosen_as_key(x):
    return {("pos" if x[0] > 0 else "neg"): 1}


def test_chosen_value_of_an_expression_is_not_shown_as_a_name():
    text = message(_chosen_as_key, np.array([1.0]))
    assert "the conditional expression's value is 'pos' or 'neg'" in text
    assert "(`value == ...`)" in text


def _joined_choices(x):
    s = "a" if x[0] > 0 else "b"
    t = "c" if x[1] > 0 else "d"
    return (s + t) == "ac", (s + t) != "bd"


@pytest.mark.skipif("jax" not in BACKENDS, reason="jax is not installed")
def test_jit_joined_chosen_strings_compare():
    # Under jax.jit a chosen string + another is a choice among the joined strings.
    import jax

    f = jax.jit(autoconv.convert(_joined_choices))
    for x in ([3, 4], [-1, 4], [-1, -1]):
        got = f(np.array(x))
        assert tuple(bool(g) for g in got) == _joined_choices(np.array(x))
