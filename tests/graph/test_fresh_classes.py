"""Classes found by running programs nobody here wrote (issue 24): each case runs eagerly and as
a graph on the NumPy and JAX backends (and with no optimizing passes), and must give the eager
answer, or an AutoconvError of the eager exception's type that names the user's construct, the
user's file:line and what to write instead."""

import copy

import numpy as np
import pytest

import autoconv
from autoconv.errors import AutoconvError
from autoconv.graph import passes

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

HERE = __file__

try:
    import jax
    import jax.numpy as jnp
except ImportError:  # jax is optional
    jax = None

BACKENDS = ["numpy", "numpy-unoptimized"] + (["jax"] if jax is not None else [])


def same(expected, got) -> bool:
    if type(expected) is not type(got):
        return False
    if isinstance(expected, (tuple, list)):
        return len(expected) == len(got) and all(map(same, expected, got))
    if isinstance(expected, (np.ndarray, np.generic)):
        return (
            expected.dtype == got.dtype
            and np.shape(expected) == np.shape(got)
            and np.array_equal(expected, got, equal_nan=True)
        )
    return expected == got


def graph_of(fn, backend):
    if backend == "jax":
        return autoconv.function(fn, backend="jax")
    return autoconv.function(fn)


def run(fn, backend, args):
    graph = graph_of(fn, backend)
    if backend == "numpy-unoptimized":
        with passes.options(passes.Settings.none()):
            return graph(*args)
    return graph(*args)


def check(fn, backend, *inputs):
    """The graph gives what eager code gives (value and Python/NumPy types, or exception type)."""
    for args in inputs:
        eager_args, graph_args = copy.deepcopy(args), copy.deepcopy(args)
        try:
            expected = fn(*eager_args)
        except Exception as e:
            with pytest.raises(type(e)):
                run(fn, backend, graph_args)
            continue
        got = run(fn, backend, graph_args)
        assert same(expected, got), (args, expected, got)
        assert same(list(eager_args), list(graph_args)), "effects on the arguments differ"


def refused(fn, backend, args, eager_type, *words):
    """The graph refuses at trace time with an AutoconvError that is also `eager_type`, names
    this file and says `words`."""
    with pytest.raises(AutoconvError) as info:
        run(fn, backend, args)
    assert isinstance(info.value, eager_type), type(info.value).__mro__
    message = str(info.value)
    assert HERE in message, message
    for word in words:
        assert word in message, message
    return message


# --- item 3: Tensors as dict keys and set members -----------------------------------------


def count_distinct(x):
    counts = {}
    for v in x:
        counts[v] = counts.get(v, 0) + 1
    return len(counts)


def count_repeats(x):
    seen = set()
    n = 0
    for v in x:
        if v in seen:
            n += 1
        seen.add(v)
    return n


def key_of_first(x):
    table = {1.0: "one"}
    return table.get(x[0], "other")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_tensor_dict_key_is_found_by_value(backend):
    x = np.array([1.0, 2.0, 1.0, 3.0])
    assert count_distinct(x) == 3  # eager counts by value; identity would say 0 or 4
    check(count_distinct, backend, (x,))  # run-time sets: device buffers on JAX
    check(count_repeats, backend, (x,))
    # A dict of number keys known now, read at a key known only when the graph runs: a switch
    # on key equality (trace.tensors.run_time_index).
    check(key_of_first, backend, (x,), (x[::-1],))


def python_keys(x):
    table = {}  # Python keys holding Tensors are fine: only the values are symbolic
    for k in ("a", "b"):
        table[k] = np.sum(x) * len(k)
    return table["a"] + table["b"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_tensor_values_under_python_keys_still_run(backend):
    check(python_keys, backend, (np.arange(3.0),))


# --- item 4: autoconv's own exceptions are never the user's `raise` -----------------------


def sort_in_branch(x):
    y = x * 2
    if np.sum(x) > 0:
        y.sort()
    return y


def fill_then_use(x):
    y = x + 1
    y.fill(0)
    return y


def no_such_method(x):
    y = x * 2
    if np.sum(x) > 0:
        y.frobnicate()
    return y


def user_raise_in_branch(x):
    if np.sum(x) > 100:
        raise ValueError("too large")
    return x * 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_in_place_methods_say_what_to_write(backend):
    x = np.array([3.0, 1.0, 2.0])
    refused(sort_in_branch, backend, (x,), AttributeError, "`y.sort()`", "y = np.sort(y)")


@pytest.mark.parametrize("backend", BACKENDS)
def test_fill_of_a_local_array_is_staged(backend):
    # It was an error saying what to write; converters/inplace_calls.py rebinds the name now.
    for x in (np.array([3.0, 1.0, 2.0]), np.array([-3.0, 1.0])):
        want = fill_then_use(x.copy())
        got = run(fill_then_use, backend, (x.copy(),))
        assert type(got) is type(want) and got.dtype == want.dtype
        assert np.array_equal(got, want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_missing_method_fails_while_tracing_not_when_run(backend):
    # Eager raises AttributeError whichever way the data goes; the graph must not record
    # autoconv's own AttributeError as the user's `raise` (it fired only when run).
    refused(no_such_method, backend, (np.ones(3),), AttributeError, "frobnicate")
    refused(no_such_method, backend, (-np.ones(3),), AttributeError, "frobnicate")


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_users_raise_is_still_staged(backend):
    check(user_raise_in_branch, backend, (np.ones(3),), (np.full(3, 50.0),))


@pytest.mark.skipif(jax is None, reason="jax is not installed")
def test_jax_tracer_sort_is_refused_not_ignored():
    # A JAX array's .sort() returns a copy: under jax.jit(convert(f)) `y.sort()` would leave
    # y unsorted where NumPy sorts it in place.
    with pytest.raises(AutoconvError) as info:
        jax.jit(autoconv.convert(sort_in_branch))(jnp.asarray([3.0, 1.0, 2.0]))
    assert "y = np.sort(y)" in str(info.value) and HERE in str(info.value)


# --- item 10: an integer index outside a size known now is an IndexError ------------------


def read_or_default(x):
    try:
        v = x[5]
    except IndexError:
        v = -1.0
    return v


def write_or_shift(x):
    y = x * 1
    try:
        y[5] = 1.0
    except IndexError:
        y = y + 100
    return y


def read_out_of_range(x):
    return x[3, 0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_out_of_range_index_is_an_index_error(backend):
    check(read_or_default, backend, (np.arange(3.0),), (np.arange(8.0),))
    check(write_or_shift, backend, (np.arange(3.0),), (np.arange(8.0),))
    check(read_out_of_range, backend, (np.ones((2, 2)),))
    message = refused(read_out_of_range, backend, (np.ones((2, 2)),), IndexError, "index 3")
    assert "size 2" in message


# --- item 11: unpacking a Tensor whose first dimension is known ---------------------------


def unpack_row(x):
    a, b = x[0]
    return a * 10 + b


def unpack_edges(edges):
    total = 0.0
    for a, b in edges:
        total += a * b
    return total


def unpack_enumerated(arr):
    total = 0.0
    for i, (p, q) in enumerate(arr):
        total += i * p + q
    return total


def unpack_star(x):
    first, *rest = x
    return first + len(rest)


def unpack_wrong_count(x):
    a, b = x
    return a


def unpack_drawn(n):
    rng = np.random.default_rng(0)
    i, j = rng.choice(n, 2, replace=False)
    return i + j


def unpack_in_branch(x):
    r = 0.0
    if np.sum(x) > 0:
        a, b = x
        r = a - b
    return r


@pytest.mark.parametrize("backend", BACKENDS)
def test_unpacking_by_index(backend):
    pairs = np.arange(6.0).reshape(3, 2)
    check(unpack_row, backend, (pairs,))
    check(unpack_edges, backend, (pairs,), (np.zeros((0, 2)),))
    check(unpack_enumerated, backend, (pairs,))
    check(unpack_star, backend, (np.arange(4.0),))
    check(unpack_wrong_count, backend, (np.arange(3.0),), (np.arange(1.0),))
    check(unpack_drawn, backend, (5,))
    check(unpack_in_branch, backend, (np.array([3.0, 1.0]),), (np.array([-3.0, 1.0]),))


def comprehension_over_rows(x):
    best = 0.0
    for v in x:
        if v > best:
            best = v
    doubled = [v * 2 for v in x[:2]]
    return best + doubled[1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_comprehension_over_a_known_length_goes_by_index(backend):
    check(comprehension_over_rows, backend, (np.array([1.0, 3.0, 2.0]),))


# --- item 12: names a comprehension or lambda binds are not the enclosing variable ---------


def comprehension_reuses_loop_name(xs):
    s = 0.0
    for x in xs:
        s += x
    return [s * x for x in range(3)]


def lambda_reuses_loop_name(xs):
    s = 0.0
    for x in xs:
        if x > 1:
            s += x
    double = lambda x: 2 * x  # noqa: E731 - the construct under test
    return double(s)


def generator_and_dict_reuse_loop_name(xs):
    s = 0.0
    for x in xs:
        s += x
    d = {x: s for x in range(2)}
    return d[1] + sum(s * x for x in range(3))


NESTED_SCOPES = [
    comprehension_reuses_loop_name,
    lambda_reuses_loop_name,
    generator_and_dict_reuse_loop_name,
]


@pytest.mark.parametrize("fn", NESTED_SCOPES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("backend", BACKENDS)
def test_nested_scopes_reusing_a_loop_name(fn, backend):
    check(fn, backend, (np.array([1.0, 2.0, 3.0]),), (np.zeros(0),))


@pytest.mark.skipif(jax is None, reason="jax is not installed")
@pytest.mark.parametrize("fn", NESTED_SCOPES, ids=lambda f: f.__name__)
def test_nested_scopes_reusing_a_loop_name_under_jax_jit(fn):
    x = np.array([1.0, 2.0, 3.0])
    got = jax.jit(autoconv.convert(fn))(jnp.asarray(x))
    assert np.allclose(np.asarray(got, dtype=float), np.asarray(fn(x), dtype=float))


# --- item 8b: `and`/`or` in a test folded when a later side is a Python constant ----------


def longest_run(x):
    start = None
    best = 0
    for i in range(x.shape[0]):
        if x[i] <= 0 and start is not None:
            best = max(best, i - start)  # dead while `start` is None: never traced
            start = None
    return best


def index_when_set(x):
    start = None
    n = 0.0
    if x[0] > 0 and start is not None:
        n = x[start]
    return n


def either_unset(x):
    limit = None
    r = x[0]
    if x[0] > 5 or limit is None:
        r = x[0] * 2
    return r


@pytest.mark.parametrize(
    "fn", [longest_run, index_when_set, either_unset], ids=lambda f: f.__name__
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_side_known_now_decides_the_test(fn, backend):
    check(fn, backend, (np.array([1.0, -2.0, 3.0]),), (np.array([-1.0, 2.0, 3.0]),))


# --- item 9: item writes after converter-made branches ------------------------------------


def write_after_early_return(x, flag):
    out = np.zeros(2)
    if flag:
        return out
    out[0] = np.sum(x)
    return out


def write_constant_key_in_python_loop(x):
    out = np.zeros(2)
    for i in range(3):
        out[0] += x[i]
    out[1] = np.max(x)
    return out


def write_in_python_branch(x, k):
    out = np.zeros(2)
    if k > 1:
        out[1] = np.max(x)
    else:
        out[0] = np.min(x)
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_item_writes_after_converter_made_branches(backend):
    x = np.array([1.0, 4.0, 2.0])
    check(write_after_early_return, backend, (x, False), (x, True))
    check(write_constant_key_in_python_loop, backend, (x,))
    check(write_in_python_branch, backend, (x, 2), (x, 0))


# --- item 13: zero-trip loops and Python loops that stop under a staged condition ---------


def double_by_index(x):
    y = np.zeros_like(x)
    for n, v in enumerate(x):
        y[n] = v * 2
    return y


def last_item(x):
    for v in x:
        w = v
    return w  # unbound after a loop with no items, as eagerly


def first_window_over(x):
    for r in range(3):
        if np.sum(x[r : r + 2]) > 5:
            return r
    return -1


def first_window_over_long(x):
    for r in range(40):
        if np.sum(x[r : r + 2]) > 50:
            return r
    return -1


@pytest.mark.parametrize("backend", BACKENDS)
def test_zero_trip_loops(backend):
    check(double_by_index, backend, (np.zeros(0),), (np.arange(3.0),))
    check(last_item, backend, (np.zeros(0),), (np.arange(3.0),))


@pytest.mark.parametrize("backend", BACKENDS)
def test_python_range_with_a_staged_return_unrolls(backend):
    # The slice keeps its size only if `r` stays a Python int (XLA needs the size).
    check(first_window_over, backend, (np.arange(5.0),), (np.zeros(5),), (np.arange(2.0),))
    check(first_window_over_long, backend, (np.arange(45.0),), (np.zeros(45),))


# --- messages and item 6: swaps, scalar reads -----------------------------------------------


def bubble_sort(x):
    a = x.copy()
    n = a.shape[0]
    for i in range(n):
        for j in range(n - 1 - i):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
    return a


def lomuto(x):
    a = x.copy()
    pivot = a[-1]
    store = 0
    for i in range(a.shape[0] - 1):
        if a[i] < pivot:
            a[store], a[i] = a[i], a[store]
            store += 1
    a[store], a[-1] = a[-1], a[store]
    return a, store


def swap_through_temporary(x):
    a = x.copy()
    for i in range(a.shape[0] - 1):
        if a[i] > a[i + 1]:
            tmp = a[i]  # a scalar read is a copy, not a view of `a`
            a[i] = a[i + 1]
            a[i + 1] = tmp
    return a


def normalise_pivot_row(m):
    m = m.copy()
    piv = m[0, 0]
    m[0, :] = m[0, :] / piv
    return m, piv


def swap_argument(a, i, store):
    a[store], a[i] = a[i], a[store]
    return a


@pytest.mark.parametrize("backend", BACKENDS)
def test_swaps_and_scalar_reads(backend):
    x = np.array([3.0, 1.0, 4.0, 1.5, 2.0])
    check(bubble_sort, backend, (x,))
    check(lomuto, backend, (x,), (x[::-1].copy(),))
    check(swap_through_temporary, backend, (x,))
    check(normalise_pivot_row, backend, (np.arange(1.0, 5.0).reshape(2, 2),))


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_swap_in_an_argument_names_it(backend):
    message = refused(swap_argument, backend, (np.arange(3.0), 0, 2), Exception, "`a`")
    assert "`a = a.copy()`" in message and "`t`" not in message and "the array" not in message


def two_arrays_written(x):
    a = np.zeros(2)
    b = np.zeros(2)
    a[0] = x[0]
    b[0] = x[1]  # checking `a` must not make `b` look shared
    return a + b


def floyd_warshall(d):
    d = d.copy()
    n = d.shape[0]
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if d[i, k] + d[k, j] < d[i, j]:
                    d[i, j] = d[i, k] + d[k, j]
    return d


def write_over_two_lines(x):
    out = np.zeros(3)
    out[1] = (x[0]
              + x[1])  # fmt: skip
    return out


def aliased_write(x):
    out = np.zeros(2)
    view = out
    out[0] = x[0]
    return view


@pytest.mark.parametrize("backend", BACKENDS)
def test_aliasing_analysis_on_correct_code(backend):
    rng = np.random.default_rng(3)
    check(two_arrays_written, backend, (np.arange(3.0),))
    check(floyd_warshall, backend, (rng.uniform(1, 9, (4, 4)),), (rng.uniform(1, 9, (5, 5)),))
    check(write_over_two_lines, backend, (np.arange(3.0),))
    # A real alias is still refused, naming the variable written to.
    message = refused(aliased_write, backend, (np.arange(3.0),), Exception, "`out`")
    assert "the array" not in message


# --- messages -----------------------------------------------------------------------------


def list_item_at_run_time_index(x):
    out = [0.0, 0.0, 0.0]
    i = np.argmax(x)
    out[i] = 1.0
    return out


def long_list_item_at_run_time_index(x):
    out = [0.0] * 65  # longer than a switch over its items may be (trace/tensors/switch.py)
    i = np.argmax(x)
    out[i] = 1.0
    return out


def match_on_a_tensor(x):
    # (a sequence pattern keeps the `match` Python; value patterns alone become an `if`)
    k = np.argmax(x)
    match k:
        case 0:
            return 10
        case [*_]:
            return 20
        case _:
            return 30


def match_by_values(x):
    k = np.argmax(x)
    match k:
        case 0:
            return 10
        case 1 | 2:
            return 20
        case _:
            return 30


@pytest.mark.parametrize("backend", BACKENDS)
def test_item_write_and_match_messages(backend):
    x = np.array([0.0, 5.0, 1.0])
    check(list_item_at_run_time_index, backend, (x,))  # a switch over the items
    message = refused(long_list_item_at_run_time_index, backend, (x,), TypeError, "`out`")
    assert "np.take" not in message and "np.zeros" in message
    with pytest.warns(autoconv.ConversionWarning, match="match"):
        message = refused(match_on_a_tensor, backend, (x,), Exception, "`case 0:`")
    assert "stays Python" in message and "elif" in message
    check(match_by_values, backend, (x,))


def test_signatures_are_listed_in_trace_order():
    g = autoconv.function(lambda x: x * 2)
    for n in (2, 3, 2, 2, 4, 2, 3):
        g(np.ones(n))
    listing = g.pretty_printed_concrete_signatures()
    shapes = [line.split("shape=")[1] for line in listing.splitlines() if "x: " in line]
    assert shapes == ["(2,)", "(3,)", "(4,)"]


# --- found by the fresh batch -------------------------------------------------------------


def nested_rows(x):
    grid = [[x[i] * x[j] for j in range(2)] for i in range(2)]
    return np.array(grid)


def nested_with_numbers(x):
    return np.array([[x[0], 1.0], [2.0, x[1]]], dtype=np.float32)


def builtin_sum(x):
    return sum(x)


def builtin_list(x):
    return list(x[:3])


def histogram_into_constant(x):
    bins = np.zeros(4, dtype=np.int64)
    for v in x:
        b = np.clip(np.floor(v + 2), 0, 3).astype(np.int64)
        bins[b] += 1
    return bins


def histogram_into_graph_array(x):
    bins = np.zeros_like(x, shape=4, dtype=np.int64)  # what the message asks for
    for v in x:
        b = np.clip(np.floor(v + 2), 0, 3).astype(np.int64)
        bins[b] += 1
    return bins


@pytest.mark.parametrize("backend", BACKENDS)
def test_nested_lists_and_builtins_over_tensors(backend):
    x = np.array([1.5, 2.0, -3.0, 0.25])
    check(nested_rows, backend, (x,))
    check(nested_with_numbers, backend, (x,))
    check(builtin_sum, backend, (x,))
    check(builtin_list, backend, (x,))
    check(histogram_into_graph_array, backend, (x,))
    # An array made with np.zeros before the loop becomes a graph value the loop writes into.
    check(histogram_into_constant, backend, (x,))


def knapsack_into_constant(w, cap):
    dp = np.zeros(cap + 1)
    dp[0] = 1
    for i in range(w.shape[0]):
        for c in range(cap, -1, -1):
            if c >= w[i]:
                dp[c] = dp[c] + dp[c - w[i]]
    return dp[cap]


def knapsack_into_graph_array(w, cap):
    dp = np.zeros_like(w, shape=cap + 1, dtype=float)  # what the message asks for
    dp[0] = 1
    for i in range(w.shape[0]):
        for c in range(cap, -1, -1):
            if c >= w[i]:
                dp[c] = dp[c] + dp[c - w[i]]
    return dp[cap]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_table_updated_from_its_own_items(backend):
    w = np.array([2, 3, 5, 7])
    check(knapsack_into_graph_array, backend, (w, 10))
    check(knapsack_into_constant, backend, (w, 10))
