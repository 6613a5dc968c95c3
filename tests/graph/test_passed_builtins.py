"""Built-ins passed as functions (`map(str, xs)`, `map(round, ...)`) while tracing are the
runtime's forms that converted code calls where `str(v)` is written: a Tensor is never made a
string of its placeholder (`"-".join(map(str, xs))` once gave "<autoconv.Tensor %29 ...>"), and a
separator's `join` reads strings made when the graph runs, also in a function with no control
flow."""

import numpy as np
import pytest
from agreement import BACKENDS, follows_the_rule


def joined_kept(x):
    return "-".join(map(str, [int(v) for v in x if v == v]))


def joined_listed(x):
    parts = list(map(str, x.tolist()))
    return ",".join(parts)


def joined_reprs(x):
    return ", ".join(map(repr, [round(float(v), 1) for v in x]))


def rounded(x):
    return list(map(round, x.tolist()))


def sorted_abs(x):
    return sorted(map(abs, [v - 2 for v in x if v > 0]))


def formatted(x):
    return " ".join(map(lambda v: f"{v:.2f}", x))


def summed_ints(x):
    return sum(map(int, x.tolist())), max(map(float, x), default=None)


def joined_appended(x):
    out = []
    for v in x:
        out.append(v * 2)
    return "|".join(map(str, out))


def truths(x):
    return list(map(bool, x)), any(map(lambda v: v > 3, x)), all(map(bool, x))


PROGRAMS = [
    joined_kept,
    joined_listed,
    joined_reprs,
    rounded,
    sorted_abs,
    formatted,
    summed_ints,
    joined_appended,
    truths,
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", PROGRAMS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", [np.array([1.0, 4.0, 2.0]), np.array([-1.5, 3.0]), np.zeros(0)])
def test_builtins_passed_as_functions(backend, fn, x):
    follows_the_rule(fn, x, backend=backend)


# --- the text of a list a staged loop grew (str(), repr(), f-strings, str.format) ---------------


def texts_of_a_grown_list(x):
    out = []
    for v in x:
        if v > 1:
            out.append(v)
    return str(out), repr(out), f"{out}", f"{out!r}", "{}".format(out), "%s" % (out,)  # noqa: UP031, UP032


def texts_nested(x):
    out = [0.5]
    for v in x:
        if v > 1:
            out.append(float(v))
    return str([1, out]), str((out,)), str({"a": out})


def texts_of_rows_and_strings(x):
    rows, names = [], []
    for i, v in enumerate(x):
        names.append("big" if v > 1 else "small")
        if v > 1:
            rows.append((i, v))
    return str(rows), str(names)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn", [texts_of_a_grown_list, texts_nested, texts_of_rows_and_strings], ids=lambda f: f.__name__
)
@pytest.mark.parametrize("x", [np.array([1.0, 4.0, 2.0]), np.zeros(0)], ids=["three", "empty"])
def test_text_of_a_grown_list(backend, fn, x):
    follows_the_rule(fn, x, backend=backend)
