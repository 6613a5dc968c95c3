"""NumPy arrays written inside staged statements, and lists appended to by nested staged
statements: graph mode gives eager NumPy's values, or an error naming what would see the
array change (another name, a view, a list, an object, a global)."""

import numpy as np
import pytest

import autoconv
from autoconv import AutoconvError

BACKENDS = ["numpy", "jax"]
X = np.array([1.5, -2.0, 3.0, 0.5])


def same(got, want):
    assert type(got) is type(want), (got, want)
    if want is None:
        return
    if isinstance(want, dict):
        assert got.keys() == want.keys()
        for k in want:
            same(got[k], want[k])
        return
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for a, b in zip(got, want):
            same(a, b)
        return
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-15)
    assert np.asarray(got).dtype == np.asarray(want).dtype


def agree(f, *args, backend="numpy"):
    g = autoconv.function(f, backend=backend)
    for _ in range(2):
        same(g(*[np.copy(a) for a in args]), f(*[np.copy(a) for a in args]))


# --- arrays made before a staged statement and written inside it ------------------------------


def branch_write(x):
    y = np.zeros(3)
    if x.sum() > 0:
        y[0] = x[0]
    else:
        y[1] = x[1]
    return y


def branch_write_dead(x):
    y = np.zeros(3)
    if x[0] > 0:
        y[0] = 1.0  # `y` is not read after the `if`
    return x * 2


def bins(x):
    counts = np.zeros(4, dtype=np.int64)
    for v in x:
        b = int(abs(v)) % 4
        counts[b] += 1
    return counts


def low_high(x):
    lo = np.zeros(2)
    for v in x:
        if v > 0:
            lo[0] += v
        else:
            lo[1] += v
    return lo


def clip_into(x):
    y = np.zeros(x.shape[0])
    for i in range(x.shape[0]):  # unrolled: each `if` is staged
        if x[i] > 1.0:
            y[i] = 1.0
        elif x[i] < -1.0:
            y[i] = -1.0
        else:
            y[i] = x[i]
    return y


def pairwise(x):
    m = np.zeros((4, 4))
    for i in range(4):
        for j in range(4):
            if x[i] > x[j]:
                m[i, j] = x[i] - x[j]
    return m


def extremes(x):
    lohi = np.array([np.inf, -np.inf])
    for v in x:
        if v < lohi[0]:
            lohi[0] = v
        if v > lohi[1]:
            lohi[1] = v
    return lohi


def window(x):
    buf = np.zeros(3)
    out = []
    for v in x:
        buf[0] = buf[1]
        buf[1] = buf[2]
        buf[2] = v
        out.append(buf.sum())
    return np.array(out)


def in_place_no_tensor(x):
    acc = np.zeros(2)
    i = 0
    while i < x.shape[0]:
        acc += 1
        i += 1
    return acc


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "f",
    [
        branch_write,
        branch_write_dead,
        bins,
        low_high,
        clip_into,
        pairwise,
        extremes,
        window,
        in_place_no_tensor,
    ],
    ids=lambda f: f.__name__,
)
def test_an_array_made_before_a_staged_statement_takes_its_writes(f, backend):
    agree(f, X, backend=backend)
    agree(f, -X, backend=backend)


class Box:
    pass


G = np.zeros(3)


def seen_by_another_name(x):
    y = np.zeros(3)
    z = y
    if x.sum() > 0:
        y[0] = 1.0
    return z


def seen_through_a_view(x):
    y = np.zeros(3)
    v = y[1:]
    if x.sum() > 0:
        y[1] = 1.0
    return v


def seen_through_a_list(x):
    y = np.zeros(3)
    keep = [y]
    if x.sum() > 0:
        y[1] = 1.0
    return keep[0], y


def seen_through_an_object(x):
    b = Box()
    y = np.zeros(3)
    b.buf = y
    if x.sum() > 0:
        y[1] = 1.0
    return b.buf, y


def seen_in_a_loop_through_a_view(x):
    y = np.zeros(3)
    w = y[:2]
    for v in x:
        if v > 0:
            y[0] += v
    return w


def a_global(x):
    y = G
    for v in x:
        y[0] += v
    return y * 1


@pytest.mark.parametrize(
    "f, words",
    [
        (seen_by_another_name, "`z`"),
        (seen_through_a_view, "`v`"),
        (seen_through_a_list, "`keep`"),
        (seen_through_an_object, "`b`"),
        (seen_in_a_loop_through_a_view, "`w`"),
        (a_global, "NumPy array"),
    ],
    ids=lambda v: getattr(v, "__name__", v),
)
def test_an_array_something_else_sees_is_an_error_naming_it(f, words):
    with pytest.raises(AutoconvError) as info:
        autoconv.function(f)(X.copy())
    message = str(info.value)
    assert message.startswith(__file__), message
    assert words in message, message
    assert G.tolist() == [0.0, 0.0, 0.0]


# --- lists appended to by staged statements nested in staged loops ---------------------------


def nested_loops(x):
    out = []
    for v in x:
        for w in x:
            if v > w:
                out.append(v - w)
    return np.array(out)


def before_and_after_the_inner_loop(x):
    out = []
    for v in x:
        out.append(v)
        for w in x:
            if w > v:
                out.append(w - v)
        out.append(-v)
    return np.array(out), len(out)


def while_in_for(x):
    out = []
    for v in x:
        k = v
        while k > 0.5:
            out.append(k)
            k = k / 2
    return np.array(out), len(out)


def three_levels(x):
    acc = []
    for a in x:
        for b in x:
            for c in x:
                if a + b > c:
                    acc.append(a * b - c)
    return np.stack(acc)


def first_then_appended(x):
    h = [x[0] * 0.0]
    for v in x:
        if v > 0:
            h.append(h[0] + v)
    return np.stack(h)


@pytest.mark.parametrize(
    "f",
    [
        nested_loops,
        before_and_after_the_inner_loop,
        while_in_for,
        three_levels,
        first_then_appended,
    ],
    ids=lambda f: f.__name__,
)
def test_lists_appended_in_nested_staged_statements(f):
    agree(f, X)
    agree(f, -X)
    agree(f, X[:1])


@pytest.mark.parametrize(
    "f",
    [nested_loops, before_and_after_the_inner_loop, first_then_appended],
    ids=lambda f: f.__name__,
)
def test_lists_appended_in_nested_staged_statements_on_jax(f):
    agree(f, X, backend="jax")
    agree(f, -X, backend="jax")


# --- int() and float() of a Tensor ---------------------------------------------------------


def int_and_float(x):
    n = int(np.sum(x > 0))
    return n * 2, float(np.mean(x)) + 1, int(x[1])


@pytest.mark.parametrize("backend", BACKENDS)
def test_int_and_float_of_numbers_are_python_numbers(backend):
    agree(int_and_float, X, backend=backend)
    agree(int_and_float, -X, backend=backend)


# --- reading lists whose length is known only when the graph runs ----------------------------


def train(x):
    w = np.zeros(2)
    X = np.stack([x, x**2], axis=1)
    y = 3.0 * x - 1.0
    losses = []
    for _ in range(20):
        err = X @ w - y
        loss = float(np.mean(err**2))
        losses.append(loss)
        if loss < 1.0:
            break
        w -= 0.01 * (X.T @ err) / len(x)
    return w, losses[-1], losses[0], len(losses)


def path_extremes(x):
    s = 100.0
    path = [s]
    for r in x:
        s = s * np.exp(0.01 * r)
        path.append(s)
    return max(path), min(path), path[-1], path[-2], path[0]


def positives_total(x):
    vals = []
    for v in x:
        if v > 0:
            vals.append(v)
    return sum(vals) if vals else 0.0, sum(vals, 10.0)


def last_of_empty_is_index_error(x):
    vals = []
    for v in x:
        if v > 100:
            vals.append(v)
    return vals[-1]


@pytest.mark.parametrize(
    "f, args",
    [
        (train, (X,)),
        (train, (X * 0.1,)),
        (path_extremes, (X,)),
        (path_extremes, (X[:1],)),
        (positives_total, (X,)),
        (positives_total, (-X,)),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_items_sums_and_extremes_of_lists_grown_when_the_graph_runs(f, args):
    agree(f, *args)


def test_an_item_past_the_end_raises_what_eager_raises():
    with pytest.raises(IndexError):
        last_of_empty_is_index_error(X)
    with pytest.raises(IndexError):
        autoconv.function(last_of_empty_is_index_error)(X)


def test_the_jax_backend_reads_them_inside_the_program():
    agree(positives_total, X, backend="jax")
    agree(positives_total, -X, backend="jax")
    # (np.exp on the device may round its last bit otherwise: types exact, values close)
    got, expected = autoconv.function(path_extremes, backend="jax")(X), path_extremes(X)
    assert [type(v) for v in got] == [type(v) for v in expected]
    assert np.allclose(got, expected, rtol=1e-15, atol=0)
    with pytest.raises(IndexError, match="list index out of range"):
        autoconv.function(last_of_empty_is_index_error, backend="jax")(X)


def test_list_items_outside_traces_are_python_indexing():
    code = autoconv.to_code(path_extremes)
    assert "ac.list_item(path, -1)" in code and "ac.max(path)" in code
    assert autoconv.convert(path_extremes)(X) == path_extremes(X)


def iterate_after(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    total = 0.0
    for o in out:
        total += o * o
    return total


@pytest.mark.parametrize("x", [X, -X, X * 0.0])
def test_iterating_a_list_grown_when_the_graph_runs(x):
    agree(iterate_after, x)


# --- list items replaced in a staged branch ---------------------------------------------------


def replace_arrays(x):
    layers = [np.ones(2), np.ones(2) * 2]
    for k in range(2):  # unrolled: `k` is a Python int
        if x[k] > 0:
            layers[k] = layers[k] * x[k]
    return layers[0] + layers[1]


def replace_python_floats(x):
    acc = [0.0, 0.0]
    for i in range(2):
        if x[i] > 0:
            acc[i] = acc[i] + x[i]
        else:
            acc[i] = -1.0
    return acc


def replace_in_elif(x):
    parts = [x[0], x[1], x[2]]
    if x[3] > 1:
        parts[0] = parts[0] * 2
    elif x[3] > 0:
        parts[1] = parts[1] * 3
    else:
        parts[2] = 0.0 * parts[2]
    return np.stack(parts)


def replace_and_append(x):
    lst = [x[0]]
    if x[1] > 0:
        lst[0] = x[1]  # a constant key: carried by its path
        lst.append(x[2])
    else:
        lst.append(x[3])
    return np.stack(lst)


def swap_items(x):
    lst = [x[0], x[1]]
    if x[2] > 0:
        lst[0], lst[1] = lst[1], lst[0]
    return lst


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "f",
    [replace_arrays, replace_python_floats, replace_in_elif, replace_and_append, swap_items],
    ids=lambda f: f.__name__,
)
def test_items_replaced_in_a_staged_branch(f, backend):
    for x in (X, -X, np.array([0.25, 0.5, -0.75, 2.5])):
        agree(f, x, backend=backend)


# --- any() and all() of symbolic items ---------------------------------------------------------


def any_all(x):
    return any(v > 2 for v in x), all(v > -3 for v in x), any([x[0] > 1, False]), all([])


def any_in_if(x):
    if any(v < 0 for v in x):
        return x * 0
    return x


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f", [any_all, any_in_if], ids=lambda f: f.__name__)
def test_any_and_all_of_symbolic_items_are_python_bools_when_the_graph_runs(f, backend):
    for x in (X, -X, X * 0.0):
        agree(f, x, backend=backend)


# --- items of an array made with NumPy updated at an index known only when the graph runs ----


def histogram_unrolled(x):
    counts = np.zeros(4, dtype=np.int64)
    for i in range(x.shape[0]):  # a Python loop: unrolled while tracing
        b = int(abs(x[i])) % 4
        counts[b] += 1
    return counts


def histogram_by_labels(x):
    labels = (np.abs(x) * 2).astype(np.int64) % 3
    counts = np.zeros(3)
    for i in range(4):
        counts[labels[i]] += x[i]
    return counts


def bump_the_largest(x):
    out = np.zeros((2, 4))
    k = np.argmax(x)
    out[1, k] += 1.0
    out[0, k] *= 3
    return out


def a_second_name_sees_it(x):
    out = np.zeros(4)
    keep = out
    k = np.argmax(x)
    out[k] += 1.0
    return keep


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "f", [histogram_unrolled, histogram_by_labels, bump_the_largest], ids=lambda f: f.__name__
)
def test_an_item_updated_at_a_symbolic_index_outside_staged_statements(f, backend):
    for x in (X, -X, np.array([0.25, 0.5, -0.75, 2.5])):
        agree(f, x, backend=backend)


def test_an_item_update_that_another_name_would_see_is_still_an_error():
    with pytest.raises(AutoconvError, match="refers to that array"):
        autoconv.function(a_second_name_sees_it)(X)


def sums_of_lists_that_may_be_empty(x):
    floats, arrays = [], []
    for v in x:
        if v > 0:
            floats.append(float(v))
            arrays.append(v)
    return sum(floats), sum(arrays), sum(arrays, 0.5), (max(floats) if floats else -1.0)


@pytest.mark.parametrize("x", [X, -X, np.array([-2.0, 1.0, -1.0, 0.0])])
def test_a_sum_or_item_of_a_run_time_list_has_eagers_python_type(x):
    agree(sums_of_lists_that_may_be_empty, x)  # `0` (a Python int) for no items, as eagerly


# --- containers chosen by a staged statement keep their identity -------------------------------


def kept_then_changed(x):
    d = {"k": 0}
    r = None
    if x[0] > 0:
        r = (x[0], d)
    d["k"] = d["k"] + x[1]
    return r


def returned_early_then_changed(x):
    d = {"k": 0}
    if np.all(x < 0):
        if np.sum(x) < 0:
            return x, d["k"], d
    d["k"] = d["k"] + np.sum(x)
    return x, d["k"], d


@pytest.mark.parametrize("f", [kept_then_changed, returned_early_then_changed])
def test_a_dict_held_by_a_value_chosen_by_a_staged_if_is_the_same_dict(f):
    for x in (np.array([1.0, 2.0]), np.array([-1.0, 2.0]), np.array([-2.0, -0.0])):
        agree(f, x)


def nan_into_an_int_array(x):
    buf = np.zeros(3, dtype=np.int64)
    buf[0] = np.sum(x)  # nothing reads `buf`: eager NumPy still raises for a NaN
    return x


def test_storing_a_nan_into_an_int_array_raises_even_when_nothing_reads_it():
    with pytest.raises(ValueError, match="cannot convert float NaN to integer"):
        nan_into_an_int_array(np.array([np.nan]))
    graph = autoconv.function(nan_into_an_int_array)
    same(graph(X), X)
    with pytest.raises(ValueError, match="cannot convert float NaN to integer"):
        graph(np.array([np.nan]))


def floats_into_an_int_array(x):
    out = np.zeros(4, dtype=np.int64)
    for i in range(4):
        out[i] = x[i] * 1.8  # NumPy truncates what it stores: 2.7 is 2, -3.6 is -3
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_floats_stored_into_an_int_array_are_truncated_as_numpy_stores_them(backend):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)  # JAX's implicit cast in `.at[].set`
        agree(floats_into_an_int_array, X, backend=backend)
        agree(floats_into_an_int_array, -X, backend=backend)


def sum_of_a_number_whose_type_depends_on_the_path(x):
    t = 0
    lst = []
    if np.sum(x) < 0:
        lst.append(np.sum(x))
        t = np.sum(x)
    lst.append(t)
    return sum(lst)


def running_max_into_a_list(x):
    m = -np.inf  # a Python float before the first item, a float64 after: stacks as eagerly
    out = []
    for v in x:
        m = max(m, v)
        out.append(m)
    return np.array(out)


def test_a_number_whose_type_depends_on_the_path_in_a_run_time_list():
    with pytest.raises(AutoconvError, match=r"`t` is a NumPy value or a Python int, depending on"):
        autoconv.function(sum_of_a_number_whose_type_depends_on_the_path)(X)
    agree(running_max_into_a_list, X)
    agree(running_max_into_a_list, -X)
