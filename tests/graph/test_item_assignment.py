"""Item assignment in traced code: `out[i] = v` (converters/item_assignment.py rewrites it as
`out = ac.setitem(out, i, v)`). Where no other name, container, view or caller sees the array,
the graph gives the name a new array with the item set, the same as eager code; otherwise a
clear error at the user's line. On Python values and outside traces nothing changes."""

import contextlib
import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autoconv
from autoconv.graph.errors import StagingError
from tests.graph.agreement import follows_the_rule

BACKENDS = ["numpy"]
try:
    import jax  # noqa: F401

    BACKENDS.append("jax")
except ImportError:
    pass

X = np.array([3.0, 1.0, 4.0, 1.0, 5.0])


def same(got, want):
    assert type(got) is type(want), (got, want)
    if isinstance(want, tuple):
        for a, b in zip(got, want, strict=True):
            same(a, b)
        return
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    assert np.asarray(got).dtype == np.asarray(want).dtype


def agree(f, *args, backend="numpy"):
    g = autoconv.function(f, backend=backend)
    for _ in range(2):
        want = f(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
        got = g(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
        same(got, want)
    return g


def fill(x):
    y = np.zeros(x.shape[0])
    for i in range(x.shape[0]):  # a Python loop: unrolled while tracing
        y[i] = x[i] * 2
    return y


def running_sum(x):
    out = np.empty_like(x)
    s = 0.0
    for i in range(len(x)):
        s += x[i]
        out[i] = s
    return out


def staged_fill(x, n):
    out = np.zeros_like(x)
    for i in range(n):  # n is a Tensor: a staged loop that carries `out`
        out[i] = x[i] * 2
    return out


def branches(x):
    out = np.zeros_like(x, shape=5)
    for i in range(5):
        if x[i] > 2:
            out[i] = x[i]
        else:
            out[i] = -1
    return out


def rows_and_slices(x):
    m = np.zeros((3, 3))
    for i in range(3):
        m[i, :] = x[i : i + 3]
        m[i, i] = 1
    m[1:, 0] = x[0]
    return m


def while_fill(x):
    out = np.zeros_like(x)
    i = 0
    while x[i] > 0 and i < 4:  # staged: the test reads data
        out[i] = x[i] + 1
        i += 1
    return out, i


def histogram(x):
    h = np.zeros_like(x, shape=3)
    for i in range(len(x)):
        h[i % 3] += x[i]
        if x[i] > 2:  # staged
            h[i % 2] -= 1
    return h


def into_list_and_dict(x):
    items = [0.0, 0.0]
    items[1] = x[0]
    table = {}
    table["a"] = x[1]
    return items, table["a"]


def constants_only(x):
    y = np.zeros(3)
    y[1] = 2.0  # nothing symbolic: stored while tracing, as eagerly
    return x[:3] + y


def key_with_a_call(x):
    y = np.zeros(3)
    y[abs(0)] = x[0]  # the value, then the key, bound to names first: a new array
    return y


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "f, args",
    [
        (fill, (X,)),
        (running_sum, (X,)),
        (staged_fill, (X, np.int64(3))),
        (branches, (X,)),
        (rows_and_slices, (X,)),
        (while_fill, (X,)),
        (histogram, (X,)),
        (constants_only, (X,)),
        (key_with_a_call, (X,)),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_item_assignment_matches_eager(f, args, backend):
    agree(f, *args, backend=backend)


def test_lists_and_dicts_hold_tensors_as_they_are():
    items, a = autoconv.function(into_list_and_dict)(X)
    assert items == [0.0, 3.0] and type(items[1]) is np.float64 and a == 1.0


@given(
    st.integers(1, 6),
    st.lists(st.tuples(st.integers(-6, 5), st.floats(-5, 5, allow_nan=False)), max_size=6),
)
@settings(max_examples=40, deadline=None)
def test_generated_writes(n, writes):
    def f(x):
        out = np.zeros(n)
        for i, v in writes:
            if -n <= i < n:
                out[i] = x[0] * v
        return out

    agree(f, np.array([1.5]))


# --- what a graph cannot do: errors at the user's line --------------------------------------


def aliased(x):
    out = np.zeros(5)
    keep = out
    out[0] = x[0]
    return keep


def argument(x):
    x[0] = 5.0
    return x


def held_by_list(x):
    out = np.zeros(5)
    hold = [out]
    out[0] = x[0]
    return hold[0]


def view_then_write(x):
    out = np.zeros(5)
    v = out[1:3]
    out[1] = x[0]
    return v


def tensor_view_returned(x):
    out = x * 1
    v = out[1:3]
    out[1] = 7.0
    return v


def numpy_array_in_staged_loop(x, n):
    out = np.zeros(5)
    for i in range(n):
        out[i] = x[i]
    return out


class Buffer:
    def __init__(self):
        self.buf = np.zeros(3)

    def write(self, x):
        self.buf[0] = x[0]  # the caller's object holds the array
        return self.buf


def constant_key_in_a_staged_loop(x):
    acc = np.zeros_like(x, shape=2)
    for v in x:
        acc[0] += v  # `acc` is only ever a NumPy array: rebound, not carried by its path
    return acc


def variable_key_in_a_staged_loop(x):
    acc = np.zeros_like(x, shape=2)
    k = 0
    for v in x:
        acc[k] += v
    return acc


def test_the_variable_key_the_error_asks_for_works():
    agree(variable_key_in_a_staged_loop, X)


def test_a_constant_key_into_a_numpy_array_in_a_staged_loop_works():
    agree(constant_key_in_a_staged_loop, X)


@pytest.mark.parametrize(
    "f, args, line, words",
    [
        (Buffer().write, (X,), "self.buf[0] = x[0]", "the caller would see the change"),
        (aliased, (X,), "out[0] = x[0]", "also refers"),
        (argument, (X,), "x[0] = 5.0", "argument"),
        (held_by_list, (X,), "out[0] = x[0]", "also refers"),
        (view_then_write, (X,), "out[1] = x[0]", "also refers"),
        (tensor_view_returned, (X,), "out[1] = 7.0", "returns an array"),
    ],
    ids=lambda v: getattr(v, "__name__", None),
)
def test_writes_others_would_see_raise_at_the_users_line(f, args, line, words):
    with pytest.raises(StagingError) as e:  # (NumPy's ValueError for a sequence, before)
        autoconv.function(f)(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    message = str(e.value)
    assert "test_item_assignment.py:" in message and line in message and words in message


def test_a_numpy_array_written_in_a_staged_loop_becomes_a_graph_value():
    for backend in ("numpy", "jax"):
        agree(numpy_array_in_staged_loop, X, np.int64(2), backend=backend)
        agree(numpy_array_in_staged_loop, X, np.int64(0), backend=backend)


# --- the conversion ---------------------------------------------------------------------------


def test_converted_code_rebinds_the_name():
    code = autoconv.to_code(rows_and_slices)
    assert "m = ac.setitem(m, ac.index[i, :], ac.item_at(x, ac.index[i:i + 3]))" in code
    assert "m = ac.setitem(m, (i, i), 1)" in code
    assert (
        "h = ac.setitem(h, i % 3, ac.item_op('+=', ac.item(h, i % 3), ac.item_at(x, i)))"
        in autoconv.to_code(histogram)
    )


def nested_lists(n):
    grid = [[0], [1]]
    inner = grid[0]
    grid[0] += [n]  # the inner list changes in place, and `inner` sees it
    return grid, inner


def test_augmented_item_assignment_keeps_pythons_in_place_operator():
    assert autoconv.function(nested_lists)(5) == ([[0, 5], [1]], [0, 5])
    autoconv.set_always_converted(True)
    try:
        assert autoconv.convert(nested_lists)(5) == ([[0, 5], [1]], [0, 5])
    finally:
        autoconv.set_always_converted(False)


order = []


def key():
    order.append("key")
    return 0


def value():
    order.append("value")
    return 1


def keys_with_calls(x):
    out = [0, 0]
    out[key()] = value()  # Python evaluates the value first, then the key
    return out


def test_keys_with_calls_are_bound_first_in_pythons_order():
    code = autoconv.to_code(keys_with_calls)
    assert "value_1 = ac.converted(value)()\n    key_1 = ac.converted(key)()\n" in code
    assert "out = ac.setitem(out, key_1, value_1)" in code
    autoconv.set_always_converted(True)
    try:
        order.clear()
        assert autoconv.convert(keys_with_calls)(1) == [1, 0]
        assert order == ["value", "key"]
    finally:
        autoconv.set_always_converted(False)


def test_outside_traces_and_always_converted_nothing_changes():
    autoconv.set_always_converted(True)
    try:
        f = autoconv.convert(keys_with_calls)
        order.clear()
        assert f(X) == [1, 0] and order == ["value", "key"]
        g = autoconv.convert(fill)
        np.testing.assert_array_equal(g(X), fill(X))
        shared = np.zeros(2)

        def writes_through(a):
            a[0] = 9.0  # eagerly the caller's array changes

        autoconv.convert(writes_through)(shared)
        assert shared[0] == 9.0
    finally:
        autoconv.set_always_converted(False)


def test_prints_nothing_extra():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        agree(fill, X)
    assert out.getvalue() == ""


def masked_store(x):
    y = x.copy()
    y[y < 2] = 0
    y[(y > 3) & (y < 5)] = -1.0
    return y


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_mask_as_key(backend):
    agree(masked_store, X, backend=backend)
    assert "y = ac.setitem(y, y < 2, 0)" in autoconv.to_code(masked_store)


def swap_with_a_key_that_calls_len(x):
    b = x.copy()
    for i in range(len(x)):
        b[0], b[i % len(b)] = b[i % len(b)], b[0]
    for v in x:
        if v > 0:
            b[0], b[int(abs(v)) % len(b)] = b[int(abs(v)) % len(b)], b[0]
    return b


def test_a_swap_whose_key_calls_len_is_staged():
    # It was "writes into `b` in place; Tensors cannot be changed in place" (a generated
    # program of the graph-program generator).
    for x in (np.array([-2.0]), np.array([1.0, 3.0, -2.0]), np.zeros(0)):
        for backend in BACKENDS:
            follows_the_rule(swap_with_a_key_that_calls_len, x, backend=backend)
