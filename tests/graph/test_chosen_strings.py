"""Strings (and None) that a helper returns from an `if`/`elif` chain or from inside a loop,
used by the caller: `grade(v).upper()`, `g, pts = grade(v)`, `Counter(labels)["A"]`, `" ".join`.

The converter lowers the returns with `retval = None` and a `do_return` flag, so after the
first staged `if` the value is a Choice among the strings *and None*; where `do_return` is true
(the fall-through `if not do_return: retval = "F"`), None can no longer be picked
(trace/tensors/implied.py follows the tag and the flag through the `cond`s and loops that made
them). Before, every method, `len`, `+` and dict key of such a value failed while tracing (or
raised `AttributeError` from inside: a crash) for every input; a None that can really be picked
now raises eager's exception on the path that picks it. `Counter(...)[k]` and `k in
Counter(...)` of a call read its run-time keys (before: 0 and False, wrong results), and
`dict(c)` / `c.copy()` of a Counter holding keys written in the code keep them. Each program
runs eagerly and as a graph on every input, on both backends (the JAX backend's documented
LoweringError for string keys passes there)."""

from collections import Counter

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_or_jax_limit, follows_the_rule

INPUTS = [
    np.array([95.0, 85.0, -75.0, 3.0, 0.0]),
    np.array([0.0, 0.0]),
    np.array([-1.0, 71.0, 2.0]),
    np.array([]),
]


def first_sign(x):
    for v in x:
        if v > 0:
            return "pos"
        if v < 0:
            return "neg"
    return "zero"


def grade(v):
    if v >= 90:
        return "A", 4.0
    elif v >= 80:
        return "B", 3.0
    elif v >= 70:
        return "C", 2.0
    return "F", 0.0


def letter(v):
    if v >= 90:
        return "A"
    elif v >= 80:
        return "B"
    return "F"


def over_under(x, t):
    i = 0
    while i < x.shape[0]:
        if x[i] > t:
            return "over"
        i += 1
    return "under"


def maybe(v):
    if v > 0:
        return "pos"
    return None


def upper_and_len(x):
    return first_sign(x).upper(), len(first_sign(x))


def reports(x):
    out = []
    for v in x:
        g, pts = grade(v)
        out.append(f"{g}:{pts}")
    return out


def letters_and_mean(x):
    total = 0.0
    letters = ""
    for v in x:
        g, pts = grade(v)
        total += pts
        letters += g
    return letters, total, len(letters)


def concatenated(x):
    lab = over_under(x, 2.0)
    return lab + "!", lab == "over"


def guard_clause(x):
    r = maybe(x[0]) if len(x) else None
    if r is None:
        return "nothing"
    return r.upper()


def most_common_letters(x):
    c = Counter(grade(v)[0] for v in x)
    return c.most_common(2), c["A"]


def tallied_in_a_dict(x):
    d = {"A": 0, "B": 0, "C": 0, "F": 0}
    for v in x:
        d[grade(v)[0]] += 1
    return d


def joined(x):
    return " ".join([first_sign(x[i:]) for i in range(len(x))])


def string_methods(x):
    s = first_sign(x)
    return s.startswith("p"), s.replace("o", "0"), s[0], s[::-1]


def counter_of_named_list(x):
    letters = [letter(v) for v in x]
    return dict(Counter(letters)), letters


def counter_item_of_a_call(x):
    return Counter(["A" if v > 0 else "B" for v in x])["A"]


def in_counter_of_a_call(x):
    return "B" in Counter(["A" if v > 0 else "B" for v in x])


def counter_of_staged_comprehension(x):
    c = Counter(["A" if v > 0 else "B" for v in x[x != 0]])
    return c["A"], "A" in c, c.most_common(1), len(c)


def counter_copy(x):
    c = Counter(int(v) for v in x)
    d = c.copy()
    d[1] += 5
    return c[99], d[99], dict(c), dict(d), type(d).__name__


def join_maybe(x):
    return " ".join([maybe(v) for v in x])


def method_of_maybe(x):
    s = None if len(x) and x[0] > 0 else "ab"
    return s.lower()


PROGRAMS = [
    upper_and_len,
    reports,
    letters_and_mean,
    concatenated,
    guard_clause,
    most_common_letters,
    tallied_in_a_dict,
    joined,
    string_methods,
    counter_of_named_list,
    counter_item_of_a_call,
    in_counter_of_a_call,
    counter_of_staged_comprehension,
    counter_copy,
    join_maybe,
    method_of_maybe,
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_program(f, backend):
    for x in INPUTS:
        follows_or_jax_limit(f, x, backend=backend)


def test_a_none_that_can_be_picked_raises_eagers_error_on_its_path_only():
    # (`None.lower()`: AttributeError where the graph picks None, the string's method elsewhere)
    follows_the_rule(method_of_maybe, np.array([1.0]), text=True)
    assert autoconv.function(method_of_maybe)(np.array([-1.0])) == "ab"


def test_an_item_and_a_membership_of_a_calls_counter_read_its_run_time_keys():
    text = autoconv.to_code(counter_item_of_a_call)
    assert "ac.keyed_item(ac.converted(Counter)(" in text
    assert "ac.in_('B', ac.converted(Counter)(" in autoconv.to_code(in_counter_of_a_call)
