"""A staged loop's variable whose Python kind depends on the path (`out = "none"` before the
loop, `out = v` in some iterations): the loop carries it as a union (trace.tensors.loop_unions),
and the function returns, compares and prints what eager code has. Before, "a staged loop can
only change arrays and numbers"."""

import numpy as np
import pytest

import autoconv
from autoconv.errors import AutoconvError
from tests.graph.agreement import BACKENDS, follows_the_rule


def find_first(x, t):
    out = "none"
    for v in x:
        if v > t:
            out = v
    return out


def last_index(x):
    where = None
    for i in range(len(x)):
        if x[i] < 0:
            where = i
    return where


def status_loop(x):
    s = "start"
    n = 0
    while n < len(x):
        if x[n] > 0:
            s = n
        n += 1
    return s


def first_neg_or_msg(x):
    res = "no negatives"
    for i, v in enumerate(x):
        if v < 0:
            res = i
            break
    return res


def while_search(x, t):
    i = 0
    found = None
    while i < x.shape[0]:
        if x[i] == t:
            found = "at " + "start" if i == 0 else i
        i += 1
    return found


def label_after(x):
    best = "none"
    for v in x:
        if v > 1:
            best = v
    if best == "none":
        return -1.0
    return 2.0


def is_str_after(x):
    best = "none"
    for v in x:
        if v > 1:
            best = v * 2
    return isinstance(best, str), best


def union_before_loop(x):
    r = "neg" if x[0] < 0 else x[0]
    for v in x:
        if v > 5:
            r = v
    return r


def three_kinds(x):
    r = "start"
    for v in x:
        if v > 2:
            r = None
        elif v > 0:
            r = v
    return r


def arrays_or_str(x):
    out = "empty"
    for row in x:
        if np.sum(row) > 0:
            out = row
    return out


def print_union(x):
    r = "none"
    for v in x:
        if v > 0:
            r = int(v)
    print("result:", r)
    return r


def nested(x):
    r = "none"
    for v in x:
        for w in x:
            if v + w > 3:
                r = v * w
    return r


CASES = [
    (find_first, (np.array([1.0, 3.0, 2.0]), 2.0)),
    (find_first, (np.array([1.0]), 2.0)),
    (find_first, (np.zeros(0), 2.0)),
    (first_neg_or_msg, (np.array([1.0, -3.0, 2.0]),)),
    (first_neg_or_msg, (np.array([1.0]),)),
    (while_search, (np.array([1.0, 3.0, 2.0]), 3.0)),
    (while_search, (np.array([3.0, 1.0]), 3.0)),
    (while_search, (np.array([1.0]), 3.0)),
    (label_after, (np.array([1.0, 3.0]),)),
    (label_after, (np.array([0.5]),)),
    (is_str_after, (np.array([1.0, 3.0]),)),
    (is_str_after, (np.array([0.5]),)),
    (union_before_loop, (np.array([-1.0, 6.0]),)),
    (union_before_loop, (np.array([-1.0, 2.0]),)),
    (union_before_loop, (np.array([1.0, 2.0]),)),
    (three_kinds, (np.array([1.0, 3.0]),)),
    (three_kinds, (np.array([3.0, 1.0]),)),
    (three_kinds, (np.array([-1.0]),)),
    (three_kinds, (np.zeros(0),)),
    (arrays_or_str, (np.array([[1.0, 2.0], [-3.0, 1.0]]),)),
    (arrays_or_str, (np.array([[-1.0, 0.0]]),)),
    (print_union, (np.array([1.0, 3.0]),)),
    (print_union, (np.array([-1.0]),)),
    (nested, (np.array([1.0, 3.0]),)),
    (nested, (np.array([1.0]),)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "f, args", CASES, ids=[f"{f.__name__}-{n}" for n, (f, _) in enumerate(CASES)]
)
def test_a_loop_variable_of_another_kind_by_path(f, args, backend):
    follows_the_rule(f, *args, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_printing_the_union_a_loop_left(backend, capsys):
    for x in (np.array([1.0, 3.0]), np.array([-1.0])):
        want = print_union(x)
        eager = capsys.readouterr().out
        got = autoconv.function(print_union, backend=backend)(x)
        assert (type(got), got, capsys.readouterr().out) == (type(want), want, eager)


def test_a_tuple_alternative_stays_a_clear_error():
    def pair_or_msg(x):
        out = "empty"
        for i, v in enumerate(x):
            if v > 0:
                out = (i, v)
        return out

    with pytest.raises(AutoconvError, match="`out` is str 'empty' before this `for` loop"):
        autoconv.function(pair_or_msg)(np.array([1.0, -1.0]))


def returns_by_path_in_nested_loops(x, y, k):
    a = x + 0.0
    lst = [k]
    for _v in y:
        c = 0
        while np.all(y * 0.5 >= 1) and c < 3:
            c += 1
            if k % 2 == 0:
                return a
        if x[-1] < 3.0:
            return (lst[-1], sum(lst), a)
    return (lst[-1], sum(lst), a)


def test_a_union_the_loop_meets_as_a_value_or_none_is_no_internal_error():
    # A generator hunt finding: an internal `TypeError: Union` from the stand-in of a
    # variable that is None before the loop and an array or a tuple after it.
    x, y = np.array([0.5, -1.0]), np.array([2.0, -2.0])
    try:
        got = autoconv.function(returns_by_path_in_nested_loops)(x, y, 4)
    except autoconv.AutoconvError as e:
        assert "test_loop_unions.py:" in str(e)
    else:
        want = returns_by_path_in_nested_loops(x, y, 4)
        assert type(got) is type(want) and np.array_equal(got, want)
