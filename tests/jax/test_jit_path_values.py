"""Values the third path, `jax.jit(autoconv.convert(f))`, made up (issue 24): a string of a
traced value, `type()` of one. Each program runs eagerly with NumPy and under `jax.jit` with
`np` as `jax.numpy`, 64-bit types on (`tests/jax/corpus.outcome`, as `tools/three_paths.py` judges its
`jit` path): the same values, or an `AutoconvError` naming the program's line.
"""

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import autoconv  # noqa: E402
from tests.jax import corpus  # noqa: E402

X = np.array([1.0, 2.5, 3.0])


def outcome(func, args=(X,)):
    return corpus.outcome(func, args, __file__)


def refused(func, what):
    kind, detail = outcome(func)
    assert kind == "autoconv-error", (kind, detail)
    assert what in detail and "JAX knows only when the program runs" in detail, detail


def test_an_f_string_of_a_traced_value_is_an_error_not_the_tracer_s_name():
    def f(x):
        coins = x.sum()
        return f"{coins} coins left"

    refused(f, "makes a string of a traced float64[]")


def test_str_repr_and_format_of_a_traced_value_are_errors():
    def with_str(x):
        return str(x.sum())

    def with_repr(x):
        return repr(x[0])

    def with_format(x):
        return format(x.sum(), ".2f")

    refused(with_str, "with str()")
    refused(with_repr, "with repr()")
    refused(with_format, "with format()")


def test_f_strings_of_python_values_still_make_strings():
    def f(x):
        n = len(x)
        return f"{n} items", x.sum()

    assert outcome(f) == ("same", "")


def test_a_printed_f_string_shows_the_run_time_values_with_their_specs(capfd):
    def f(x):
        total = x.sum()
        print(f"total {total:.2f} first {x[0]!r} n={len(x)}")
        print("raw", total)
        return total

    eager = f(X)
    expected = capfd.readouterr().out
    jitted = jax.jit(autoconv.convert(corpus.jax_version(f)))
    got = jitted(X)
    jax.effects_barrier()
    assert capfd.readouterr().out == expected
    assert float(got) == float(eager)
    assert "Tracer" not in expected


def test_type_of_a_traced_array_is_ndarray_as_eagerly():
    def f(x):
        doubled = x * 2
        return type(doubled).__name__, type(x[1:]).__name__

    assert outcome(f) == ("same", "")


def test_type_of_a_traced_0d_value_is_an_error_not_the_tracer_class():
    def f(x):
        return type(x.sum()).__name__

    refused_type = outcome(f)
    assert refused_type[0] == "autoconv-error", refused_type
    assert "`type()` of a traced float64[]" in refused_type[1], refused_type


MANY = (np.array([3.0, -1.0, 3.0, 2.0]),)


def test_in_and_count_on_a_list_of_traced_values_compare_when_the_program_runs():
    def f(x):
        vals = [x[0], x[1], x[2], x[3]]
        return x[2] in vals, x[3] * 10 in vals, 2.0 in vals, vals.count(x[0]), "a" in vals

    for args in (MANY, (np.array([1.0, 5.0, 2.0, 0.1]),)):
        assert outcome(f, args) == ("same", ""), args


def test_index_and_remove_of_an_item_of_the_list_itself_are_exact():
    def f(x):
        vals = [x[0], x[1], x[2], x[3]]
        third = vals[2]
        at = vals.index(third)  # the first item equal to it: 0 where x[0] == x[2]
        vals.remove(third)
        return at, vals

    for args in (MANY, (np.array([1.0, 5.0, 2.0, 0.1]),)):
        assert outcome(f, args) == ("same", ""), args


def test_index_of_a_value_that_may_be_missing_is_an_error_naming_the_call():
    def f(x):
        vals = [x[0], x[1], x[2]]
        best = max(vals)
        return vals.index(best)

    kind, detail = outcome(f, MANY)
    assert kind == "autoconv-error", (kind, detail)
    assert "vals.index(best)" in detail and "`index()`" in detail, detail


def test_sort_of_a_list_of_traced_values_is_an_error_naming_the_call():
    def f(x):
        events = [(t, i) for i, t in enumerate(x)]
        events.sort()
        return events[0][1]

    kind, detail = outcome(f, MANY)
    assert kind == "autoconv-error", (kind, detail)
    assert "events.sort()" in detail and "`sort()`" in detail, detail


def test_math_of_a_traced_value_is_an_error_naming_the_call():
    import math

    def rms(x):
        total = 0.0
        for v in x:
            total += v * v
        return math.sqrt(total / len(x))

    def log_ratio(x):
        return math.log(x[1] / x[0])

    def of_a_loop_value(x):
        out = 0.0
        for v in x:
            if v > 1:
                out += math.exp(v)
        return out

    for func, name in ((rms, "sqrt"), (log_ratio, "log"), (of_a_loop_value, "exp")):
        kind, detail = outcome(func)
        assert kind == "autoconv-error", (func, kind, detail)
        assert f"`math.{name}()` of a traced float64[]" in detail, detail


def test_math_of_python_numbers_still_runs_under_jit():
    import math

    def f(x):
        scale = math.sqrt(len(x)) * math.pi
        return x.sum() / scale, math.floor(2.5)

    assert outcome(f) == ("same", "")
