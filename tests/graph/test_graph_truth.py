"""Graph mode tells the truth: each idiom below runs eagerly and as a graph, on inputs that take
every path, and must give the same values, dtypes, shapes, Python types and argument effects, or
the same exception type when the graph runs. Every test runs under every pass setting.

The larger suites (tests/graph_corpus, test_generated_graphs.py) cover the same ground on
programs written to look like real code; these are the specification, one idiom per case.
"""

import copy
import types

import numpy as np
import pytest

import autoconv

pytestmark = [
    pytest.mark.usefixtures("pass_settings"),
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
]

HERE = __file__


def same(expected, got) -> bool:
    if type(expected) is not type(got):
        return False
    if isinstance(expected, (tuple, list)):
        return len(expected) == len(got) and all(map(same, expected, got))
    if isinstance(expected, dict):
        return expected.keys() == got.keys() and all(same(expected[k], got[k]) for k in expected)
    if isinstance(expected, (np.ndarray, np.generic)):
        return (
            expected.dtype == got.dtype
            and np.shape(expected) == np.shape(got)
            and np.array_equal(expected, got, equal_nan=True)
        )
    return expected == got


def outcome(fn, args):
    try:
        return "value", fn(*args)
    except Exception as e:  # the exception type is what must agree
        return "raises", type(e)


def check(fn, *inputs):
    """One graph for all `inputs` (later calls reuse it), each compared with eager code."""
    graph = autoconv.function(fn)
    for args in inputs:
        eager_args, graph_args = copy.deepcopy(args), copy.deepcopy(args)
        kind, expected = outcome(fn, eager_args)
        got_kind, got = outcome(graph, graph_args)
        if kind == "raises":
            assert got_kind == "raises" and issubclass(got, expected), (args, expected, got)
        else:
            assert got_kind == "value" and same(expected, got), (args, expected, got)
        assert same(list(eager_args), list(graph_args)), "effects on the arguments differ"


# --- 1. loop state ---------------------------------------------------------------------------


def halve_until_close(x, tol):
    delta = 1.0
    while delta > tol:  # only the test reads `delta`
        new = x * 0.5
        delta = np.abs(new - x)
        x = new
    return x


def test_a_variable_only_the_while_test_reads_is_loop_state():
    check(halve_until_close, (np.float64(8.0), 0.1), (np.float64(0.01), 0.1))


def stuck(x):
    flag = np.sum(x) > 0
    n = 0
    while flag:
        n += 1
    return n


def test_a_loop_whose_test_cannot_change_raises_where_eager_would_hang():
    f = autoconv.function(stuck)
    assert f(-np.ones(2)) == stuck(-np.ones(2)) == 0
    with pytest.raises(autoconv.AutoconvError, match="would never end"):
        f(np.ones(2))


# --- 2. None and unbound values ----------------------------------------------------------------


def best_of(xs):
    best = None
    for v in xs:
        if best is None or v > best:
            best = v
    return best


def find(xs, t):
    for i, v in enumerate(xs):
        if v == t:
            return i
    return None


def last(xs):
    for v in xs:
        if v > 0:
            found = v
    return found


def found_flag(xs):
    for v in xs:
        if v > 10:
            found = True
            break
    else:
        found = False
    return found


def test_none_sentinels_and_return_none():
    check(best_of, (np.array([-3.0, -1.0, -2.0]),), (np.array([2.0, 5.0]),))
    check(find, (np.array([1.0, 2.0]), 2.0), (np.array([1.0, 2.0]), 7.0))


def test_unbound_variables_raise_unboundlocalerror_when_the_graph_runs():
    check(last, (np.array([1.0, -1.0]),), (np.array([-1.0, -2.0]),))


def test_a_variable_bound_on_every_path_is_defined():
    check(found_flag, (np.array([1.0, 20.0]),), (np.array([1.0, 2.0]),))


# --- 3. containers and attributes as state -----------------------------------------------------


def dict_item(x, y):
    best = {"value": x}
    if np.sum(y) > np.sum(x):
        best["value"] = y
    return best["value"]


def dict_counts(xs):
    stats = {"n": 0, "total": 0.0}
    for v in xs:
        if v > 0:
            stats["n"] += 1
            stats["total"] += v
    return stats["n"], stats["total"]


def namespace(x):
    state = types.SimpleNamespace(scale=1.0, shift=x)
    if np.sum(x) > 0:
        state.scale = 2.0
        state.shift = x * 0
    return x * state.scale + state.shift


def update_argument(params, g):
    if np.sum(g) > 0:
        params["w"] = params["w"] - g
    params["n"] += 1
    return params["w"]


def test_items_and_attributes_are_state():
    check(dict_item, (np.array([1.0]), np.array([2.0])), (np.array([3.0]), np.array([2.0])))
    check(dict_counts, (np.array([1.0, -2.0, 3.0]),), (np.array([-1.0]),))
    check(namespace, (np.array([1.0]),), (np.array([-1.0]),))


def test_changes_to_argument_containers_are_written_back():
    check(
        update_argument,
        ({"w": np.ones(2), "n": 0}, np.ones(2)),
        ({"w": np.ones(2), "n": 3}, -np.ones(2)),
    )


class Model:
    def __init__(self):
        self.w = np.ones(3)
        self.steps = 0
        self.best = None

    def step(self, g):
        if np.sum(g) > 1.0:
            g = g / np.sum(g)
        self.w = self.w - 0.1 * g
        self.steps += 1
        return self.w

    def track(self, loss):
        if self.best is None or loss < self.best:
            self.best = loss
        return self.best


def test_attributes_holding_arrays_and_numbers_are_read_and_stored_on_every_call():
    eager, traced = Model(), Model()
    step = autoconv.function(traced.step)
    for g in (np.array([3.0, 0.0, 0.0]), np.array([0.1, 0.0, 0.0]), np.array([0.2, 0.0, 0.0])):
        assert same(eager.step(g), step(g))
        assert same(eager.w, traced.w) and same(eager.steps, traced.steps)
    assert step.tracing_count == 1


def test_changing_an_attribute_that_holds_none_is_an_error_and_leaves_no_tensor():
    m = Model()
    with pytest.raises(autoconv.AutoconvError, match=r"changes `self\.best`, which held None"):
        autoconv.function(m.track)(np.float64(1.0))
    assert m.best is None


# --- 4. merging: Python number kinds -------------------------------------------------------------


def int_or_float(x):
    if np.sum(x) > 0:
        r = 1
    else:
        r = 0.5
    return r


def minus_one_or_value(x):
    i = 0
    while i < 10:
        if x[i % 3] > 5:
            return x[i % 3] * i
        i += 1
    return -1.0


def total_of_positives(xs):
    total = 0.0
    for v in xs:
        if v > 0:
            total += v
    return total


def test_each_path_returns_its_own_python_type():
    check(int_or_float, (np.array([1.0]),), (np.array([-1.0]),))
    check(minus_one_or_value, (np.array([1.0, 2.0, 6.0]),), (np.array([1.0, 2.0, 3.0]),))
    check(total_of_positives, (np.array([1.0, -1.0]),), (np.array([-1.0, -2.0]),))


# --- 5. loops people write -------------------------------------------------------------------------


def years_to_double(rate):
    balance = 1.0
    years = 0
    while balance < 2.0:  # starts in Python, meets a Tensor test
        balance *= 1 + rate
        years += 1
    return years


def sum_until_negative(x, n):
    s = 0.0
    for i in range(n):  # a Python range with a Tensor break
        if x[i] < 0:
            break
        s += x[i]
    return s


def first_positive_index(x):
    i = 0
    while True:
        if x[i] > 0:
            return i
        i += 1


def weighted(x):
    s = 0.0
    for i, v in zip(range(3), x):
        s += i * v
    return s


def test_python_loops_that_meet_tensor_conditions_are_staged_from_there():
    check(years_to_double, (np.float64(0.1),), (np.float64(1.5),))
    check(sum_until_negative, (np.array([1.0, 2.0, -1.0, 3.0]), 4), (np.arange(4.0), 4))
    check(first_positive_index, (np.array([-1.0, -2.0, 3.0]),), (np.array([4.0, 1.0, 1.0]),))
    check(weighted, (np.arange(3.0),))


# --- 6. branches not taken ---------------------------------------------------------------------------


def validate(x):
    if np.any(x < 0):
        raise ValueError(f"negative values: {np.sum(x < 0)}")
    return x * 2


def checked(x):
    assert np.all(x > 0), "must be positive"
    return np.log(x)


def test_raise_and_assert_fire_only_on_the_path_that_runs():
    check(validate, (np.array([1.0]),), (np.array([-1.0, -2.0]),))
    check(checked, (np.array([1.0]),), (np.array([-1.0]),))
    with pytest.raises(ValueError) as info:
        autoconv.function(validate)(np.array([-1.0, -2.0]))
    assert str(info.value) == "negative values: 2"  # the user's message, made at run time
    assert any(HERE in note for note in getattr(info.value, "__notes__", [HERE]))


def fact(n):
    if n <= 0:
        return 1.0
    return n * fact(n - 1)


def test_recursion_on_a_tensor_is_a_clear_error():
    with pytest.raises(autoconv.AutoconvError, match="loop"):
        autoconv.function(fact)(np.int64(3))


# --- 7. lists grown in loops -----------------------------------------------------------------------


def kept(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    return len(out), np.array(out), out


def kept_or_empty(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    if out:
        return np.stack(out)
    return np.zeros(0)


def test_lists_grown_in_staged_loops_have_run_time_lengths():
    check(kept, (np.array([1.0, -1.0, 2.0]),), (np.array([-1.0, -2.0]),))
    check(kept_or_empty, (np.array([1.0, -1.0, 2.0]),), (np.array([-1.0]),))


def largest_run(x):
    best = 1
    run = 1
    for i in range(1, len(x)):
        if x[i] > x[i - 1]:
            run += 1
        else:
            run = 1
        best = max(best, run)
    return best


def test_max_and_min_of_tensors():
    check(largest_run, (np.array([1, 2, 3, 1, 2]),), (np.array([5, 4]),))


def appended_after_the_loop(x):
    out = []
    while x > 10:
        out.append(x)
        x = x - 1
    out.append(x)  # after the stand-in for the loop's items
    while x > 5:
        out.append(x * 2)
        x = x - 1
    return len(out), np.stack(out)


def test_items_appended_after_a_staged_loop_count():
    check(appended_after_the_loop, (np.float64(3.0),), (np.float64(12.0),), (np.float64(7.0),))


# --- 6. arrays changed in place inside staged statements ---------------------------------------


def adds_in_place(x, d):
    i = 0
    while i < x:
        d += 1  # eagerly this writes into the caller's array on every iteration
        i += 1
    return d


def alias_adds_in_place(x, d):
    a = d
    i = 0
    while i < x:
        a += 1
        i += 1
    return a


def local_array_in_place(x):
    acc = np.zeros(2)
    i = 0
    while i < x:
        acc += 1  # no Tensor involved, but a staged loop: `acc` becomes a graph value
        i += 1
    return acc


def local_item_in_place(x):
    acc = np.zeros(2)
    if x > 0:
        acc[0] = 5
    return acc


def accumulates_tensors(x):
    acc = np.zeros(2)
    for i in range(x):
        acc += i  # the Tensor `i` makes this a graph operation: a new array, as eager
    return acc


@pytest.mark.parametrize(
    "fn, args, message",
    [
        (adds_in_place, (np.int64(3), np.zeros(2)), r"loop variable whose value before the loop"),
        (alias_adds_in_place, (np.int64(3), np.zeros(2)), r"argument of the function"),
    ],
)
def test_in_place_changes_that_a_graph_cannot_make_are_errors(fn, args, message):
    with pytest.raises(autoconv.AutoconvError, match=message):
        autoconv.function(fn)(*copy.deepcopy(args))


def test_in_place_accumulation_of_graph_values_into_a_local_array():
    check(accumulates_tensors, (np.int64(3),), (np.int64(0),))


def test_a_local_array_changed_in_place_in_a_staged_statement_is_a_graph_value():
    check(local_array_in_place, (np.int64(3),), (np.int64(0),))
    check(local_item_in_place, (np.int64(3),), (np.int64(-1),))


def test_an_error_while_tracing_leaves_arrays_made_outside_the_graph_unchanged():
    shared = np.zeros(2)

    def adds_to_shared(x):
        acc = shared
        i = 0
        while i < x:
            acc += 1
            i += 1
        return acc

    with pytest.raises(autoconv.AutoconvError):
        autoconv.function(adds_to_shared)(np.int64(3))
    assert shared.tolist() == [0.0, 0.0]


# --- 7. printing a number whose Python type differs by path ----------------------------------


def prints_mixed(x):
    z = 0.5  # a Python float on one path, a NumPy float64 on the other
    if x > 0:
        z = x * 2
    autoconv.print(f"{z:.2f} {z} {z!r} {z!s}", str(z), repr(z), z)
    return z


def test_autoconv_print_formats_each_paths_eager_value(capsys):
    graph = autoconv.function(prints_mixed)
    for x in (np.float64(1.0), np.float64(-1.0)):
        expected = prints_mixed(x)
        eager_out = capsys.readouterr().out
        assert same(expected, graph(x))
        assert capsys.readouterr().out == eager_out


# --- 8. an exception while tracing, after what the graph does first ------------------------------


def checked_then_undefined(x):
    if np.any(x < 0):
        raise ValueError("bad input")  # staged: raises when the graph runs, on these inputs
    return x, name_defined_nowhere  # noqa: F821 - eager code raises NameError here


def raises_on_every_path(x):
    if np.sum(x) > 0:
        raise ValueError("positive")
    else:
        raise KeyError("not positive")


def prints_then_stacks_nothing(x):
    autoconv.print("stacking", x)
    return np.stack([])


def test_an_exception_while_tracing_is_raised_where_eager_code_raises_it(capsys):
    check(checked_then_undefined, (np.array([-2.0]),), (np.array([2.0]),))
    check(raises_on_every_path, (np.array([1.0]),), (np.array([-1.0]),))
    check(prints_then_stacks_nothing, (np.float64(1.0),))
    capsys.readouterr()
    graph = autoconv.function(prints_then_stacks_nothing)
    for _ in range(2):  # the print happens on every call, before NumPy's error, as eagerly
        with pytest.raises(ValueError, match="need at least one array"):
            graph(np.float64(2.0))
    assert capsys.readouterr().out == "stacking 2.0\nstacking 2.0\n"


def half_or_difference(v, w):
    if v > w:
        return v - w  # a NumPy float64
    return w * 0.5  # a Python float


def sum_of_two_mixed(a, b):
    return half_or_difference(np.sum(a), 0) + half_or_difference(np.sum(b), 0)


def test_operations_on_two_numbers_whose_types_differ_by_path():
    pos, neg = np.array([2.0]), np.array([-3.0])
    check(sum_of_two_mixed, (neg, neg), (pos, neg), (neg, pos), (pos, pos))


def appends_in_one_nested_branch(x):
    a = x
    out = []
    for v in x:
        if np.any(a < 0):
            if v > -1:
                a = a * 2
            else:
                out.append(np.sum(a))
    return a, len(out)


def test_appends_in_one_branch_of_a_nested_staged_if():
    check(appends_in_one_nested_branch, (np.array([-2.0]),), (np.array([-0.5, -3.0]),))
    check(appends_in_one_nested_branch, (np.array([2.0]),))


def one_line_check(x):
    if np.sum(x) < 0: raise ValueError("negative sum")  # noqa: E701  # fmt: skip
    return x


def test_a_raise_on_the_line_of_its_if_is_a_run_time_check():
    check(one_line_check, (np.array([1.0]),), (np.array([-1.0]),))


def appends_through_nested_loops(x):
    a = x
    out = []
    n = 0
    while np.sum(a) < 0 and n < 3:
        n += 1
        for _ in range(len(x)):
            out.append(np.sum(a))
        for _ in range(0):
            pass
        else:
            if np.any(a < 0):
                break
        out.append(np.sum(a))
    return a, out


def test_appends_through_nested_loops_before_a_break():
    # (was 'appended to a different number of times ... cannot stage': the list, carried
    # whole, is appended to unevenly after its run-time items; lists7)
    check(
        appends_through_nested_loops,
        (np.array([-2.0]),),
        (np.array([-1.0, -3.0]),),
        (np.array([1.0]),),
    )
