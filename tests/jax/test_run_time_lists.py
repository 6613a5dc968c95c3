"""Lists a staged loop appended to, read inside the program on the JAX backend: an item
(`lst[-1]`, `lst[k]`), `sum` / `max` / `min`, a `for` loop over one, and lists joined in a
staged branch. Each program runs eagerly and as `autoconv.function(f, backend="jax")` on many
inputs (lists left empty among them): the same values, bits, dtypes and Python types, or the
same exception (type and message) where eager Python raises."""

import numpy as np
import pytest

import autoconv
from autoconv.backends.jax.errors import LoweringError

X = np.array([1.5, -2.0, 3.0, 0.5])
INPUTS = [
    X,
    -X,  # one item
    np.zeros(4),  # no items
    -np.abs(X),  # no items
    np.array([np.nan, 1.0, 2.0, -1.0]),
    np.array([1.0, np.nan, 3.0, 2.0]),
    np.array([2.0, 2.0, -0.0, 0.0]),
    np.array([0.25, 4.0, 4.0, 0.125]),
    np.array([-0.5, 0.5, 1.0, -3.0]),
]


def outcome(f, *args):
    try:
        return "value", f(*args)
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        return "raise", e


def same(a, b) -> bool:
    """The same Python types all the way down, arrays of the same dtype, shape and bits."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, BaseException):
        return str(a) == str(b)
    if isinstance(a, (np.ndarray, np.generic)):
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
    if isinstance(a, float) and a != a:
        return b != b
    return a == b and (not isinstance(a, float) or str(a) == str(b))  # -0.0 is not 0.0


_COMPILED: dict = {}


def check(f, *args):
    graph = _COMPILED.setdefault(f, autoconv.function(f, backend="jax"))
    expected, got = outcome(f, *args), outcome(graph, *args)
    assert expected[0] == got[0] and same(expected[1], got[1]), (f.__name__, args, expected, got)
    return graph


# --- items ----------------------------------------------------------------------------------


def last(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v * 2)
    return out[-1]


def first_and_second(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    return out[0], out[1]


def item_at(x, k):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    return out[k]


def item_with_known_items(x, k):
    out = [1.5, x[0]]  # a Python float, then a NumPy scalar
    for v in x:
        if v > 0:
            out.append(v * 2)
    out.append(7)  # a Python int after the appended items
    return out[k]


def item_in_loop(x):
    out = [x[0]]
    for v in x:
        out.append(out[-1] * 0.5 + v)
    return out[-1], out[-2]


@pytest.mark.filterwarnings("ignore::autoconv.RetracingWarning")  # a trace per constant key
@pytest.mark.parametrize("x", INPUTS)
def test_items(x):
    check(last, x)
    check(first_and_second, x)
    check(item_in_loop, x)
    for k in range(-8, 8):
        check(item_at, x, k)  # a key known while tracing
        check(item_at, x, np.int64(k))  # a key known when the graph runs
        check(item_with_known_items, x, k)
        check(item_with_known_items, x, np.int64(k))


def test_an_index_past_the_end_raises_the_eager_index_error():
    graph = check(item_at, INPUTS[0], 5)
    with pytest.raises(IndexError, match="list index out of range"):
        graph(-X, 1)


# --- sum, max, min --------------------------------------------------------------------------


def sums(x):
    scalars, floats, ints = [], [], []
    for v in x:
        if v > 0:
            scalars.append(v)
            floats.append(float(v) / 3)
            ints.append(int(v * 10))
    return sum(scalars), sum(floats), sum(ints), sum(floats, 0.5), sum(scalars, 1)


def sum_of_arrays(x):
    rows = []
    for v in x:
        if v > 0:
            rows.append(x * v)
    return sum(rows, np.zeros(4))


def sum_with_known_items(x):
    out = [x[1], 2.5]
    for v in x:
        if v > 0:
            out.append(v)
    return sum(out)


def extremes(x):
    out = []
    floats = [0.75]
    for v in x:
        if v > 0.2:
            out.append(v)
        floats.append(float(v))
    return max(out), min(out), max(floats), min(floats)


def extreme_of_python_start(x):
    s = 100.0
    path = [s]  # a Python float, then NumPy scalars: max's type is the winner's
    for r in x:
        s = s * (1.0 + 0.01 * r)
        path.append(s)
    return max(path), min(path)


@pytest.mark.parametrize("x", INPUTS)
def test_sum_max_min(x):
    check(sums, x)
    check(sum_of_arrays, x)
    check(sum_with_known_items, x)
    check(extremes, x)
    check(extreme_of_python_start, x)


def test_max_of_no_items_raises_the_eager_value_error():
    graph = check(extremes, X)
    with pytest.raises(ValueError, match="empty"):
        graph(np.zeros(4))


def test_sum_of_no_items_is_the_python_start():
    graph = check(sums, X)
    assert graph(np.zeros(4)) == (0, 0, 0, 0.5, 1)
    assert [type(v) for v in graph(np.zeros(4))] == [int, int, int, float, int]


def test_compensated_sum_on_the_device():
    """Python 3.12's sum() of Python floats (Neumaier's compensated sum), as lowered there:
    sum([1e16, 1.0, -1e16]) is 1.0, where adding in order gives 0.0."""
    import sys

    import jax.numpy as jnp

    from autoconv.backends.jax.listops import list_sum
    from autoconv.backends.jax.program import x64

    items = [1e16, 1.0, -1e16, 3.0, np.inf]
    with x64():
        buffer = (jnp.asarray(items + [0.0, 0.0]), 3)
        plain, ok = list_sum((), buffer, (), 0, np.float64)
        compensated, _ = list_sum((0.5,), buffer, (2.0,), 0, np.float64, True)
        infinite, _ = list_sum((), (buffer[0], 5), (), 0, np.float64, True)
    assert float(plain) == 0.0 and bool(ok)
    assert float(compensated) == 3.5 and float(infinite) == np.inf
    if sys.version_info >= (3, 12):
        assert sum([0.5, *items[:3], 2.0]) == 3.5 and sum(items) == np.inf


# --- iterating, and lists joined in a branch ----------------------------------------------


def iterate_after(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    total = 0.0
    for o in out:
        total += o
    return total


def iterate_with_breaks(x):
    out = []
    for v in x:
        if v < -1:
            break
        out.append(v)
    total = 0.0
    n = 0
    for o in out:
        if o > 2:
            break
        total = total + o
        n += 1
    return total, n


def early_stop(x):
    losses = []
    w = 0.0
    for _ in range(6):  # a Python loop with a staged `break`: lists joined in branches
        loss = float(np.sum((x - w) * (x - w)))
        losses.append(loss)
        if loss < 3.0:
            break
        w = w + 0.5
    return losses[-1], len(losses), sum(losses), max(losses), losses


def appended_in_a_branch(x):
    out = [x[1]]
    if x[0] > 0:
        for v in x:
            if v > 0:
                out.append(v)
        out.append(x[2])
    return out, sum(out), out[-1], len(out)


def loop_in_a_branch(x):
    out = []
    if x[0] > 0:
        for v in x:
            if v > 0:
                out.append(v)
    return out, sum(out)


@pytest.mark.parametrize("x", INPUTS)
def test_iteration_and_joined_lists(x):
    check(iterate_after, x)
    check(iterate_with_breaks, x)
    check(early_stop, x)
    check(appended_in_a_branch, x)
    check(loop_in_a_branch, x)


def test_joined_lists_are_lowered():
    graph = check(early_stop, X)
    assert "list_concat" in graph.get_concrete_function(X).optimized_graph.as_text()


# --- stacked and reduced --------------------------------------------------------------------


def reduced(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v * 2)
    a = np.array(out)  # np.array([]) where nothing was appended: float64, shape (0,)
    return np.sum(a), a.sum(), len(a), np.sum(a * a + 1), np.mean(a)


def reduced_max(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    return np.max(np.array(out))


def first_and_rows(x):
    out = [x]
    for v in x:
        if v > 0:
            out.append(x * v)
    rows = np.stack(out)
    return rows.sum(axis=0), np.max(rows), rows[-1]


def around(x):
    out = [x[0]]
    for v in x:
        if v > 0:
            out.append(v)
    a = np.array([*out, 9.0])
    t = 0.0
    for r in a:
        t = t * 0.5 + r
    return t, np.mean(a), len(a), a[-1], np.min(a * 2)


def three_levels(x):
    acc = []
    for a in x:
        for b in x:
            for c in x:
                if a + b > c:
                    acc.append(a * b - c)
    return np.sum(np.array(acc))


@pytest.mark.filterwarnings("ignore:Mean of empty slice")
@pytest.mark.filterwarnings("ignore:invalid value encountered")
@pytest.mark.parametrize("x", INPUTS)
def test_stacked_and_reduced(x):
    for f in (reduced, reduced_max, first_and_rows, around):
        check(f, x)
    # (XLA adds 64 numbers in its own order: up to rounding)
    got = autoconv.function(three_levels, backend="jax")(x)
    assert type(got) is np.float64 and np.isclose(got, three_levels(x), equal_nan=True)


def stacked_maybe_empty(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    return np.sum(np.stack(out))


def test_a_stack_that_may_be_empty_names_the_list():
    graph = autoconv.function(stacked_maybe_empty, backend="jax")
    with pytest.raises(LoweringError, match=r"test_run_time_lists.py:\d+.*list `out`.*no items"):
        graph(X)


# --- printed and raised -------------------------------------------------------------------


def printed(x):
    out = [0.5]
    for v in x:
        if v > 0:
            out.append(float(v))
    autoconv.print("last", out[-1], "sum", sum(out), "max", max(out))
    return out[-1]


def raised(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    if len(out) > 0 and out[-1] > 2:
        raise ValueError(f"too big {out[-1]}")
    return len(out)


@pytest.mark.parametrize("x", INPUTS)
def test_printed_and_raised(x, capsys):
    check(printed, x)
    eager = capsys.readouterr().out
    assert eager.count("last") == 2 and len(set(eager.splitlines())) == 1  # eager, then jax
    check(raised, x)


# --- lists grown in loops with no bound -----------------------------------------------------


def grows_while_read(x):
    h = [x[0]]
    while h[-1] < 2000.0:  # more items than the first buffer holds
        h.append(h[-1] + 1.0)
    return len(h), h[-1], sum(h), max(h)


def grows_then_read(x):
    h = []
    y = x[0]
    while y < 1500.0:
        h.append(y)
        y = y + 1.0
    return h[-1], sum(h), min(h)


@pytest.mark.parametrize("x", INPUTS[:4])
def test_lists_that_outgrow_their_buffer(x):
    check(grows_then_read, x)
    graph = check(grows_while_read, x)
    if x[0] < 1000:  # a buffer of 512 first: the call ran again with a larger one
        assert graph.get_concrete_function(x)._program.recompiles >= 1


# --- what stays refused ---------------------------------------------------------------------


def max_of_arrays(x):
    rows = []
    for v in x:
        if v > 0:
            rows.append(x * v)
    return max(rows)


def test_max_of_arrays_names_the_list_and_line():
    graph = autoconv.function(max_of_arrays, backend="jax")
    with pytest.raises(LoweringError, match=r"test_run_time_lists.py:\d+.*list `rows`"):
        graph(X)
