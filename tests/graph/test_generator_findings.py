"""What the graph-program generator found (tools/generator_findings.md): each finding's minimal
program, run eagerly and as `autoconv.function(f)` on the NumPy backend (and on JAX where it
is installed), as a strict xfail until the lead fixes the class. When one starts to pass, pytest
reports it (XPASS fails under strict): remove its mark here and its entry in
`tests/graph/test_generated_graphs.KNOWN`, so the generated test stops tolerating it.

`test_every_known_finding_has_its_case` keeps the two lists in step.
"""

import copy
import inspect
import pathlib
import re

import numpy as np
import pytest

import autoconv

try:
    import jax  # noqa: F401
except ImportError:  # jax is optional
    BACKENDS = ["numpy"]
else:
    BACKENDS = ["numpy", "jax"]

HERE = __file__
DOCS = (pathlib.Path(__file__).parents[2] / "docs" / "graph-mode.md").read_text()


class Box:
    def __init__(self, v):
        self.v = v


def same(expected, got) -> bool:
    if type(expected) is not type(got):
        return False
    if isinstance(expected, (tuple, list)):
        return len(expected) == len(got) and all(map(same, expected, got))
    if isinstance(expected, (np.ndarray, np.generic)):
        return expected.dtype == got.dtype and np.array_equal(expected, got, equal_nan=True)
    if isinstance(expected, Box):
        return same(expected.v, got.v)
    return expected == got


def follows_the_rule(fn, *args, backend):
    """The eager answer, or the eager exception's type."""
    try:
        want = ("return", fn(*copy.deepcopy(args)))
    except Exception as e:  # noqa: BLE001 - an outcome
        want = ("raise", type(e))
    graph = autoconv.function(fn, backend=backend)
    if want[0] == "raise":
        with pytest.raises(want[1]):
            graph(*args)
    else:
        assert same(want[1], graph(*args))


def message(fn, *args, backend):
    with pytest.raises(autoconv.AutoconvError) as info:
        autoconv.function(fn, backend=backend)(*args)
    return str(info.value)


def line_of(fn, text):
    """The line number in this file of the line of `fn` that holds `text`."""
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def xfail(why):
    return pytest.mark.xfail(strict=True, reason=why)


# -- W1: a nonlocal counter bumped in a staged `if` that holds a staged `return` --


def nonlocal_in_if_with_return(x):
    calls = 0

    def bump(v):
        nonlocal calls
        calls += 1
        return v

    if np.sum(x) > 0:
        bump(1)
        if np.max(x) > 5:
            return calls
    return calls


@pytest.mark.parametrize("backend", BACKENDS)
def test_nonlocal_bumped_in_an_if_with_a_return(backend):
    follows_the_rule(nonlocal_in_if_with_return, np.array([1.0, 2.0]), backend=backend)


# -- W2: a list returned from inside a staged loop, its item written after the loop --


def list_returned_in_loop(x):
    cnt = [0, 1]
    c = 0
    while c < 3 and np.mean(x) < 2:
        c += 1
        if np.any(x <= 3.0):
            return cnt
    cnt[0] += 1
    return cnt


@pytest.mark.parametrize("backend", BACKENDS)
def test_list_returned_in_a_loop_then_written(backend):
    follows_the_rule(list_returned_in_loop, np.array([3.0, 4.0]), backend=backend)


# -- B6: the same list written at a key after the loop, with a staged raise in it --


def list_returned_in_loop_with_raise(x, k):
    cnt = [0, 1, 0]
    while np.mean(x) < 2:
        if np.max(x) >= -1:
            raise ValueError("bad input")
        if np.any(x <= 3.0):
            return cnt
    cnt[k % 3] += 1
    return cnt


@pytest.mark.parametrize("backend", BACKENDS)
def test_list_returned_in_a_loop_with_a_raise(backend):
    follows_the_rule(list_returned_in_loop_with_raise, np.array([-2.0, -3.0]), 2, backend=backend)


# -- W4: a helper returns a Tensor from inside its loop or a Python float after it --


def first_above(v, c):
    for e in v:
        if e > c:
            return e
    return 0.0


def float_from_helper(x):
    return 0.5 - first_above(x, 2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_python_float_returned_by_a_helper_on_one_path(backend):
    follows_the_rule(float_from_helper, np.array([0.0, 1.0]), backend=backend)


# -- W5: `range()` of a float Tensor runs where eager raises TypeError --


def range_of_a_float(x):
    out = []
    for j in range(np.mean(x)):
        out.append(j)
    return len(out)


@pytest.mark.parametrize("backend", BACKENDS)
def test_range_of_a_float_raises_type_error(backend):
    follows_the_rule(range_of_a_float, np.array([1.0, 2.0]), backend=backend)


# -- W6: `int()` of a NaN whose result is never used --


def unused_int_of_nan(y):
    t = int(np.sum(y))  # noqa: F841 - unused on purpose: eager raises here all the same
    return y


@pytest.mark.parametrize("backend", BACKENDS)
def test_unused_int_of_nan_raises(backend):
    follows_the_rule(unused_int_of_nan, np.array([np.nan]), backend=backend)


def unused_round_in_a_loop(y):
    for v in y:
        r = round(v)  # noqa: F841 - unused: eager raises on a NaN or an infinity all the same
    return y


@pytest.mark.parametrize("value", [np.nan, np.inf, 2.5])
@pytest.mark.parametrize("backend", BACKENDS)
def test_unused_round_and_int_in_a_loop_keep_their_errors(backend, value):
    follows_the_rule(unused_round_in_a_loop, np.array([1.0, value]), backend=backend)
    follows_the_rule(unused_int_of_nan, np.array([value]), backend=backend)


# -- W7: a list item, a Python int, plus a Python float in a staged loop --


def list_item_plus_float(x, k):
    t = 0.0
    cnt = [0, 1, 0]
    for _ in x:
        cnt[k % 3] += t
    return cnt


@pytest.mark.parametrize("backend", BACKENDS)
def test_list_item_int_plus_float_in_a_staged_loop(backend):
    follows_the_rule(list_item_plus_float, np.array([-2.0]), 0, backend=backend)


# -- W3 (JAX backend): NaN stored into an integer array --


def nan_into_int_array(y):
    buf = np.zeros(3, dtype=np.int64)
    buf[0] = np.sum(y)
    return buf


@pytest.mark.skipif("jax" not in BACKENDS, reason="the JAX backend needs jax")
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_nan_stored_into_an_int_array_on_the_jax_backend():
    follows_the_rule(nan_into_int_array, np.array([np.nan, 2.0]), backend="jax")


def float_into_int32_in_a_loop(y):
    buf = np.zeros(3, dtype=np.int32)
    for i in range(2):
        buf[i] = np.sum(y) * 1e9
    return buf


@pytest.mark.parametrize("value", [np.nan, np.inf, 2.0, -1.0, 1e-3])
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_float_stored_into_an_int_array_raises_as_numpy(backend, value):
    # 2e9 is out of int32's range: NumPy's OverflowError; -1e9 and 1e6 are stored.
    follows_the_rule(float_into_int32_in_a_loop, np.array([value]), backend=backend)
    follows_the_rule(nan_into_int_array, np.array([value, 2.0]), backend=backend)


def floats_to_ints_in_a_staged_loop(y):
    buf = np.zeros(3, dtype=np.int64)
    t = 0
    for k, v in enumerate(y):
        buf[k % 3] = v * 2
        t = t + int(v)
    return buf, t


@pytest.mark.parametrize("value", [np.nan, np.inf, 2.0])
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_float_to_int_checks_inside_a_staged_loop(backend, value):
    follows_the_rule(floats_to_ints_in_a_staged_loop, np.array([1.0, value]), backend=backend)


# -- C1: Python's error from tracing a staged `while` body the data never enters --


def unpack_in_untaken_while(x):
    while np.sum(x) < 0:
        e0, e1 = x
        x = x + e0
    return x


@pytest.mark.parametrize("backend", BACKENDS)
def test_unpacking_in_a_while_body_never_entered(backend):
    follows_the_rule(unpack_in_untaken_while, np.array([1.0, 2.0, 3.0]), backend=backend)
    follows_the_rule(unpack_in_untaken_while, np.array([-1.0, -2.0, -3.0]), backend=backend)


# The same mechanism: Python's error in the user's code of a staged branch or loop body is a
# staged raise, taken where that code runs (an `if`'s branch; a loop's first iteration).


def unpack_in_a_for_body(x, y):
    for _ in y:
        e0, e1 = x
        x = x + e0
    return x


def missing_key_in_a_branch(x):
    autoconv.print("before")
    if np.sum(x) < 0:
        d = {}
        x = x + d["k"]
    return x


def index_past_a_list_in_a_nested_loop_branch(x):
    lst = [1.0, 2.0]
    while np.sum(x) < 0:
        if np.max(x) > -1:
            x = x + lst[5]
        x = x + 1.0
    return x


def numpy_error_on_python_values_in_a_branch(x):
    lst = []
    if np.sum(x) > 0:
        return x
    return np.stack(lst)  # eager NumPy raises ValueError on this path only


def undefined_name_after_a_dict_write(x, s):
    d = {"k": s}
    if np.any(x >= 2):
        return (undefined_name, d)  # noqa: F821 - eager raises NameError on either path
    d["k"] = s + np.min(x)
    return (undefined_name, d)  # noqa: F821


def raise_in_a_while_body(x):
    while np.sum(x) < 0:
        x = x + 1.0
        raise ValueError("negative input")
    return x


def missing_method_in_a_branch(x):
    if np.sum(x) < 0:
        return x.no_such_method()
    return x


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_python_errors_of_staged_code_raise_where_it_runs(backend, sign, capsys):
    x = sign * np.array([1.0, 2.0, 3.0])
    follows_the_rule(unpack_in_a_for_body, x, np.array([]), backend=backend)
    follows_the_rule(unpack_in_a_for_body, x, np.array([1.0]), backend=backend)
    follows_the_rule(missing_key_in_a_branch, x, backend=backend)
    follows_the_rule(index_past_a_list_in_a_nested_loop_branch, x, backend=backend)
    follows_the_rule(index_past_a_list_in_a_nested_loop_branch, x * 0.1, backend=backend)
    follows_the_rule(raise_in_a_while_body, x, backend=backend)
    follows_the_rule(numpy_error_on_python_values_in_a_branch, x, backend=backend)
    # A dict item changed before the error on that path: raised while tracing, as before,
    # at the user's line.
    follows_the_rule(undefined_name_after_a_dict_write, x, 1.0, backend=backend)
    with pytest.raises(NameError) as info:
        autoconv.function(undefined_name_after_a_dict_write, backend=backend)(x, 1.0)
    assert f"{HERE}:" in str(info.value) or not isinstance(info.value, autoconv.AutoconvError)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_error_about_a_traced_value_stays_the_documented_error(backend):
    # `x.no_such_method()` fails on the traced value (not on eager's ndarray): not staged.
    text = message(missing_method_in_a_branch, np.array([1.0, 2.0]), backend=backend)
    assert "while tracing a branch of a staged `if`" in text, text


# -- B1: an item write on a graph array with a call in its key --


def call_in_key(x):
    b = x.copy()
    b[len(b) - 1] = 5.0
    return b


@pytest.mark.parametrize("backend", BACKENDS)
def test_call_in_the_key_of_an_item_write_on_a_graph_array(backend):
    follows_the_rule(call_in_key, np.array([1.5, 2.0]), backend=backend)


# -- B3: an item write on a graph array with a constant key in a Python loop --


def write_in_python_loop(y):
    b = y * 1.0
    for _ in range(2):
        b[0] = 0.0
    return b


@pytest.mark.parametrize("backend", BACKENDS)
def test_item_write_on_a_graph_array_in_a_python_loop(backend):
    follows_the_rule(write_in_python_loop, np.array([3.0, 4.0]), backend=backend)


# -- B9: a returned name that no traced path binds --


def bound_under_python_if(x, k):
    if np.sum(x) < 0:
        if k > 1:
            u = np.sum(x)
    return u


@pytest.mark.parametrize("backend", BACKENDS)
def test_returning_a_name_bound_on_no_traced_path(backend):
    follows_the_rule(bound_under_python_if, np.array([-2.0]), 0, backend=backend)


# -- B2: an object whose attributes hold graph values, returned --


def returns_object(x):
    o = Box(x[0])
    return o


@xfail("B2: an error docs/graph-mode.md does not list, at the `def` line")
@pytest.mark.parametrize("backend", BACKENDS)
def test_returning_an_object_runs_or_is_a_documented_limit(backend):
    try:
        got = autoconv.function(returns_object, backend=backend)(np.array([1.0, 2.0]))
    except autoconv.AutoconvError as e:
        assert re.search(r"returns a \w+ object whose attribute", DOCS), "not documented"
        assert f"{HERE}:{line_of(returns_object, 'return o')}" in str(e), str(e)
    else:
        assert same(Box(np.float64(1.0)), got)


# -- B8: items of two dtypes appended in a staged loop (undocumented limit) --


def appends_of_two_dtypes(x):
    lst = []
    for v in x:
        lst.append(v + 1)
        lst.append(v * 0.5)
    return np.stack(lst)


@pytest.mark.parametrize("backend", BACKENDS)
def test_appends_of_two_dtypes_run_or_are_a_documented_limit(backend):
    try:
        follows_the_rule(appends_of_two_dtypes, np.array([1, 2]), backend=backend)
    except autoconv.AutoconvError:
        assert "must all have the same dtype" in DOCS, "not documented"


# -- P1: a return value of two structures is named `retval`, or `Optional <retval ...>` --


def return_structures_in_if(x):
    if np.sum(x) >= 3.0:
        return x
    return (x, x[0])


def return_structures_in_loop(x):
    if np.sum(x) >= 3.0:
        return x
    for v in x:
        return (x, v)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("x", [np.array([1.0, 0.5]), np.array([2.0, 1.5])])
def test_return_structures_in_an_if_run(x, backend):
    # Was an error naming `retval`; an array on one path and a tuple on the other is now a
    # union of the two (trace/tensors/unions.py), returned as the path gives it.
    follows_the_rule(return_structures_in_if, x, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_return_structures_in_a_loop_message_shows_both(backend):
    text = message(return_structures_in_loop, np.array([1.0, 0.5]), backend=backend)
    assert "retval" not in text and "Optional <" not in text, text
    assert "tuple" in text, text


# -- P2: an item write with a constant key in a staged block: the error points at `def` --
# The generator's programs (a local array) now run: a local name's array is carried whole. The
# limit is left for an attribute's array, whose message names it at the write.


def constant_key_in_if(x):
    b = x * 1.0
    if np.mean(b) <= -1:
        b[0] = b[1] + 1
    return b


def constant_key_after_break(x):
    b = x * 1.0
    c0 = 0
    while c0 < 2 and np.mean(b) <= -1:
        c0 += 1
        if np.all(b > 0):
            break
        b[0] = b[1] + 1
    return b


class Acc:
    def __init__(self, v):
        self.acc = v


def constant_key_of_an_attribute(x):
    a = Acc(x * 1.0)
    if np.sum(x) > 0:
        a.acc[0] = 5.0
    return a.acc


def constant_key_of_an_attribute_bound_first(x):
    a = Acc(x * 1.0)
    acc = a.acc
    if np.sum(x) > 0:
        acc[0] = 5.0
    a.acc = acc
    return a.acc


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("x", [np.array([-2.0, -5.0]), np.array([2.0, 5.0])])
def test_constant_key_writes_of_a_local_array_run(backend, x):
    follows_the_rule(constant_key_in_if, x, backend=backend)
    follows_the_rule(constant_key_after_break, x, backend=backend)
    follows_the_rule(constant_key_of_an_attribute_bound_first, x, backend=backend)


def constant_key_of_an_attribute_after_break(x):
    a = Acc(x * 1.0)
    c0 = 0
    while c0 < 2 and np.mean(a.acc) <= -1:
        c0 += 1
        if np.all(a.acc > 0):
            break
        a.acc[0] = a.acc[1] + 1
    return a.acc


@pytest.mark.parametrize("backend", BACKENDS)
def test_constant_key_error_points_at_the_write(backend):
    text = message(constant_key_of_an_attribute, np.array([2.0, 5.0]), backend=backend)
    assert f"{HERE}:{line_of(constant_key_of_an_attribute, 'a.acc[0] = ')}" in text, text
    assert "`a.acc[0]`" in text and "acc = a.acc" in text, text


@pytest.mark.parametrize("backend", BACKENDS)
def test_constant_key_error_after_a_break_names_the_array(backend):
    fn = constant_key_of_an_attribute_after_break
    text = message(fn, np.array([-2.0, -5.0]), backend=backend)
    assert "`a.acc[0]`" in text and "`t`" not in text, text
    assert f"{HERE}:{line_of(fn, 'a.acc[0] = ')}" in text, text


# -- C2: a run-time error of an expression, then an undefined name later in it --


def stack_then_undefined(x):
    lst = []
    if np.sum(x) > 0:
        lst.append(np.sum(x))
    return np.stack(lst), undefined_name  # noqa: F821 - eager raises before reaching it


@pytest.mark.parametrize("backend", BACKENDS)
def test_run_time_error_before_an_undefined_name(backend):
    follows_the_rule(stack_then_undefined, np.array([-1.0, 0.5]), backend=backend)
    follows_the_rule(stack_then_undefined, np.array([1.0, 0.5]), backend=backend)


def unused_stack_of_a_list_that_may_be_empty(x):
    lst = []
    for v in x:
        if v > 0:
            lst.append(v)
    s = np.stack(lst)  # noqa: F841 - unused: eager raises on no items all the same
    return x


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("x", [np.array([-1.0, -0.5]), np.array([-1.0, 0.5])])
def test_unused_stack_of_no_items_raises(backend, x):
    follows_the_rule(unused_stack_of_a_list_that_may_be_empty, x, backend=backend)


# -- P3: a list's items of kinds by path: the message says "this list" --


def sum_of_items_by_path(x, k):
    lst = [np.sum(x)]
    for _ in range(k):
        if x[0] > 0:
            return sum(lst)
        lst.append(0.5)
    return sum(lst)


@pytest.mark.parametrize("backend", BACKENDS)
def test_list_kind_message_names_the_list(backend):
    text = message(sum_of_items_by_path, np.array([-1, 2]), 2, backend=backend)
    assert "this list" not in text and "`lst`" in text, text


# -- P4: an internal repr in the message of a documented limit --


def call_in_key_of_numpy_array(x):
    b = np.zeros(len(x))
    for i, v in enumerate(x):
        b[i % len(b)] += v
    return b


def call_in_key_of_an_attribute(x):
    a = Acc(np.zeros(2))
    for i, v in enumerate(x):
        a.acc[i % len(a.acc)] += v
    return a.acc


def tensor_key_into_a_numpy_table(x):
    table = np.arange(4.0)
    return table[np.argmax(x) % 4]


@pytest.mark.parametrize("backend", BACKENDS)
def test_call_in_key_of_a_local_array_runs(backend):
    follows_the_rule(call_in_key_of_numpy_array, np.array([1.0, 2.0, 4.0]), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_call_in_key_of_an_attribute_runs(backend):
    # (its key is bound first, and the write goes through ac.setitem_attr)
    for x in (np.array([1.0, 2.0, 4.0]), np.zeros(0)):
        follows_the_rule(call_in_key_of_an_attribute, x, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_call_in_key_message_shows_no_internal_repr(backend):
    text = message(tensor_key_into_a_numpy_table, np.array([1.0, 2.0]), backend=backend)
    assert "<autoconv." not in text and "`np.argmax(x) % 4`" in text, text


# -- P5: an augmented write into a Python list at a Tensor index: a switch over its items --


def list_item_added_at_a_tensor_index(x):
    cnt = [0, 1, 0]
    for i, _ in enumerate(x):
        cnt[i % 3] += 1
    return cnt


def long_list_item_added_at_a_tensor_index(x):
    cnt = [0] * 65  # longer than a switch may be (trace/tensors/switch.py): the list message
    for i, _ in enumerate(x):
        cnt[i % 3] += 1
    return cnt


@pytest.mark.parametrize("backend", BACKENDS)
def test_list_item_added_at_a_tensor_index_runs(backend):
    for x in (np.array([-2.0]), np.arange(5.0), np.zeros(0)):
        follows_the_rule(list_item_added_at_a_tensor_index, x, backend=backend)
    text = message(long_list_item_added_at_a_tensor_index, np.array([-2.0]), backend=backend)
    assert "a Python list or dict needs the index now" in text and "<autoconv." not in text, text


# -- B5: a list with an item before, appended to in nested staged branches --


def appends_in_nested_branches(x):
    lst = [x]
    if x[0] > 0:
        if x[1] > 0:
            lst.append(x * 2)
    elif x[1] > 1:
        lst.append(x * 3)
    return len(lst)


@pytest.mark.parametrize("backend", BACKENDS)
def test_list_appended_in_nested_staged_branches(backend):
    follows_the_rule(appends_in_nested_branches, np.array([1.0, 2.0]), backend=backend)


def test_every_known_finding_has_its_case():
    """Each entry of the generated test's KNOWN names a test of this file."""
    from tests.graph.test_generated_graphs import KNOWN

    names = {name for name in globals() if name.startswith("test_")}
    for finding, (test_name, _) in KNOWN.items():
        assert test_name in names, (finding, test_name)


# -- G42 (seed 42): a dict entry a staged loop writes, and the dict returned from inside it --


def dict_entry_and_early_return(x):
    d = {"k": 0}
    c = 0
    while c < 1 and np.any(x < 0):
        c += 1
        if np.sum(x) < 0:
            return d["k"], d
        d["k"] = d["k"] + np.sum(x)
    return d["k"], d


def dict_entry_returned_with_its_dict(x):
    # One branch returns the dict, the other changes its entry: each keeps its own.
    d = {"k": 0.0, "n": {"m": 1}}
    for v in x:
        if v < 0:
            return (d["k"], d)
        d["k"] = d["k"] + v
        d["n"]["m"] = d["n"]["m"] + 1
    return None


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("x", [[-2.0], [-2.0, 5.0], [1.0], [3.0, -1.0]])
def test_dict_entry_written_in_a_loop_and_returned_from_it(backend, x):
    follows_the_rule(dict_entry_and_early_return, np.array(x), backend=backend)
    follows_the_rule(dict_entry_returned_with_its_dict, np.array(x), backend=backend)
