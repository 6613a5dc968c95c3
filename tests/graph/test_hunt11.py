"""The fifth round of the graph-program generator (issue 24, task hunt11): the classes its
hunt found (tools/generator_hunt11_findings.md), each as a minimal program, on both backends."""

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule


# J1 (an internal error when the graph was built): a branch whose tracing raised Python's own
# error (`e0, e1 = y` of four items), staged to raise when it runs, beside a branch whose
# nested staged `return` makes the return value "a tuple or None" by a run-time tag. The
# stand-ins of the raising path kept that tag, a value of the other branch's block.
def unpacking_fails_beside_a_nested_return(x, y):
    t = 1
    if x[0] <= -1:
        e0, e1 = y
        t = e0 - e1
    else:
        if np.mean(x) < 2:
            return (None,)
    return (t,)


def nested_return_beside_a_failing_unpacking(x, y):
    t = 1
    if x[0] > -1:
        if np.mean(x) < 2:
            return (None,)
    else:
        e0, e1 = y
        t = e0 - e1
    return (f"{t:g}",)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn", [unpacking_fails_beside_a_nested_return, nested_return_beside_a_failing_unpacking]
)
@pytest.mark.parametrize("first", [2, -2, 9])
def test_a_failing_branch_beside_a_nested_return(fn, first, backend):
    x = np.array([first, -3, -3, -1])
    follows_the_rule(fn, x, np.array([0.5, -0.5, 1.5, 2.0], dtype=np.float32), backend=backend)


# J2 (wrong value, seed 1112): a number whose Python type depends on the path (a helper's
# `return e` from inside its loop, or `return 0.0` after it) kept in a staged loop whose body
# assigns it only on a path it does not take (a Python condition): the loop carried it without
# its kind, and the Python float 0.0 came back np.float64(0.0).
def _first_above(v, c):
    for e in v:
        if e > c:
            return e
    return 0.0


def kind_kept_through_a_loop(x, k):
    t = _first_above(x, 0)
    for _v in x:
        if k > 1:
            t += 1.0
    return t


def kind_kept_through_a_while(x, k):
    t = _first_above(x, 0)
    i = 0
    while i < len(x) and x[i] > 5:
        i += 1
        if x[-1] > 2 and k > 1:
            t = t + 1
    return t


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [kind_kept_through_a_loop, kind_kept_through_a_while])
@pytest.mark.parametrize("x", [[0.0, -1.0], [2.0, -1.0], [6.0, 7.0]])
@pytest.mark.parametrize("k", [1, 2])
def test_a_number_of_a_kind_by_path_kept_through_a_loop(fn, x, k, backend):
    follows_the_rule(fn, np.array(x), k, backend=backend)


# J3 (error on code the docs say runs; own programs): an item of an array that a local dict or
# list holds at a constant key (`params["w"][i] -= g`, `bufs[-1][i] = v`), written at a key
# made of names, stayed as written: NumPy's ValueError "setting an array element with a
# sequence" as an error naming the statement. It is now `d["w"] = ac.setitem_in(d, "w", i, v)`,
# which stores the graph's new array where it is held (and branches and loops carry `d["w"]`
# by its path); another name of the array is still the documented shared-array error.
def updates_a_dict_of_arrays(x):
    params = {"w": np.zeros(len(x)), "b": 0.0}
    for _ in range(3):
        for i in range(len(x)):
            g = params["w"][i] - x[i]
            params["w"][i] -= 0.5 * g
        params["b"] += np.sum(x) * 0.1
    return params


def writes_arrays_of_a_dict_in_a_branch(x):
    d = {"pos": np.zeros(len(x)), "neg": np.zeros((len(x), 2))}
    for i, v in enumerate(x):
        if v > 0:
            d["pos"][i] = v
        else:
            d["neg"][i, 1] += -v
    return d["pos"], d["neg"]


def writes_an_array_of_a_list(x):
    bufs = [np.zeros(len(x)), np.ones(len(x))]
    for i in range(len(x)):
        if x[i] > 0:
            bufs[-1][i] = x[i]
    return bufs


def counts_in_a_list_of_a_dict(x):
    d = {"h": [0, 0, 0]}
    for v in x:
        b = int(v > 0) + int(v > 1)
        d["h"][b] += 1
    return d


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn",
    [
        updates_a_dict_of_arrays,
        writes_arrays_of_a_dict_in_a_branch,
        writes_an_array_of_a_list,
        counts_in_a_list_of_a_dict,
    ],
)
@pytest.mark.parametrize("x", [[1.0, -2.0, 0.5, 3.0], [2.0], []])
def test_an_array_held_in_a_dict_or_list_written_by_items(fn, x, backend):
    follows_the_rule(fn, np.array(x), backend=backend)


def another_name_of_a_held_array(x):
    d = {"a": np.zeros(len(x))}
    w = d["a"]
    for i in range(len(x)):
        d["a"][i] = x[i]
    return w


def test_another_name_of_a_held_array_is_the_shared_array_error():
    with pytest.raises(autoconv.AutoconvError, match=r"the NumPy array `d\['a'\]`.*through `w`"):
        autoconv.function(another_name_of_a_held_array)(np.array([1.0, 2.0]))


def constant_item_of_a_held_array(x):
    d = {"w": np.zeros(2)}
    d["w"][0] = x[0]
    return d


def test_a_constant_item_of_a_held_array_is_the_documented_error():
    with pytest.raises(ValueError, match=r'`d\["w"\]\[0\] = x\[0\]` stores a value known only'):
        autoconv.function(constant_item_of_a_held_array)(np.array([1.0, 2.0]))


# J5 (poor message): `type()` of a helper's result that is None on some paths named the
# converter's `retval`; it names the user's argument of `type()`.
def type_of_a_helper_result(x):
    t = _first_above(x, 0)
    return type(t) is float


def test_type_of_a_helper_result_names_the_users_variable():
    with pytest.raises(autoconv.AutoconvError, match=r"`type\(\)` of `t`, .* Test `t is None`"):
        autoconv.function(type_of_a_helper_result)(np.array([1.0, 2.0]))
