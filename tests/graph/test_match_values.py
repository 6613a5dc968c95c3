"""A `match` whose cases test values is the `if` / `elif` chain it means
(converters/match_statements.py), so a subject known only when the graph runs is staged."""

import enum

import numpy as np
import pytest
from agreement import BACKENDS, follows_the_rule

import autoconv


class Color(enum.IntEnum):
    RED = 0
    GREEN = 1


def labels(x):
    res = []
    for v in x:
        k = int(v) if not np.isnan(v) else -1
        match k:
            case 0:
                res.append("zero")
            case 1 | 2:
                res.append("small")
            case _:
                res.append("other")
    return res


def guarded(x):
    out = 0.0
    for v in x:
        match int(v) % 3:
            case 0:
                out += v
            case n if n > 1:
                out -= n
            case Color.GREEN:
                out *= 2
    return out


def singletons(x):
    s = np.sum(x)
    match s > 2:
        case True:
            return "big"
        case False:
            return "small"


def captured(x):
    total = 0
    for v in x:
        match int(v):
            case 0 | 1 as small:
                total += small
            case other:
                total += other * 10
    return total


def none_or_value(x):
    best = None
    for v in x:
        if v > 1 and (best is None or v > best):
            best = v
    match best:
        case None:
            return -1.0
        case _:
            return float(best)


PROGRAMS = [labels, guarded, singletons, captured, none_or_value]
INPUTS = [np.array([1.0, 4.0, 2.0, 0.0]), np.array([np.nan, 3.0, 5.0]), np.zeros(0)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", PROGRAMS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", INPUTS, ids=["ints", "nan", "empty"])
def test_match_on_values_is_staged(backend, fn, x):
    follows_the_rule(fn, x, backend=backend)


def test_the_chain_reads_as_the_cases():
    code = autoconv.to_code(guarded)
    assert "subject = ac.int(v) % 3" in code and "n = subject" in code
    assert "match" not in code
    # outside graphs the chain is Python's own, case for case
    for x in (INPUTS[0], np.array([5.0, 2.0, 7.0])):
        assert autoconv.convert(guarded)(x) == guarded(x)
