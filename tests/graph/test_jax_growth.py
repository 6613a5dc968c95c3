"""Lists grown in `while` loops the graph does not bound, on the JAX backend: a buffer with a
starting capacity that grows by compiling again and re-running the call from the same inputs.
Results, prints, Variables and errors are exactly eager's, and each happens once."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

jax = pytest.importorskip("jax")

import autoconv  # noqa: E402
from autoconv.backends.jax import LoweringError, lists  # noqa: E402
from tests.graph.test_jax_backend import same  # noqa: E402


def program(f, *args):
    """The JAX program of `autoconv.function(f, backend="jax")` traced for `args`."""
    return f.get_concrete_function(*args)._program


# --- the patterns -------------------------------------------------------------------------------


def loss_history(loss, tol):
    history = []
    while loss > tol:
        history.append(loss)
        loss = loss * 0.5
    return np.array(history), len(history)


def countdown_then_final(x):
    steps = []
    while x > 10:
        steps.append(x)
        x = x - 1
    steps.append(x)
    return len(steps), np.stack(steps)


def run_length_encode(x):
    values = []
    counts = []
    i = 0
    n = len(x)
    while i < n:
        j = i
        while j < n and x[j] == x[i]:
            j += 1
        values.append(x[i])
        counts.append(j - i)
        i = j
    return np.array(values), np.array(counts)


def decode_varints(data):
    values = []
    i = 0
    while i < len(data):
        value = 0
        shift = 0
        while True:
            byte = data[i]
            i += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        values.append(value)
    return values


def rows_until_small(x):
    rows = []
    while np.max(np.abs(x)) > 1.0:
        x = x * 0.75
        rows.append(x)
    return rows


def stacked_rows(x):
    rows = []
    while np.max(np.abs(x)) > 1.0:
        x = x * 0.75
        rows.append(x)
    return np.stack(rows, axis=1), len(rows)


def two_lists(n):
    odd, even = [], []
    while n > 1:
        if n % 2 == 0:
            even.append(n)
            n = n // 2
        else:
            odd.append(n)
            n = 3 * n + 1
    return odd, even, len(odd) + len(even)


def nested(limits):
    out = []
    i = 0
    while i < len(limits):
        k = 1.0
        while k < limits[i]:  # no bound: the inner loop grows the outer loop's list
            out.append(k)
            k = k * 2
        i += 1
    return np.array(out, dtype=np.float64), len(out)


def python_ints(n):
    seen = []
    i = 0
    while i * i < n:
        seen.append(i)
        i += 1
    return seen


CASES = [
    (loss_history, (np.float64(1.0), np.float64(0.3))),
    (loss_history, (np.float64(1.0), np.float64(2.0))),  # no items
    (loss_history, (np.float64(1.0), np.float64(1e-200))),  # 665: past the first buffer
    (loss_history, (np.float32(1.0), np.float32(1e-30))),
    (countdown_then_final, (np.float64(3.0),)),
    (countdown_then_final, (np.float64(12.0),)),
    (countdown_then_final, (np.float64(2000.5),)),
    (run_length_encode, (np.array([1, 1, 2, 2, 2, 3, 1, 1]),)),
    (run_length_encode, (np.array([6]),)),
    (run_length_encode, (np.arange(1500) // 2,)),
    (decode_varints, (np.array([0x81, 0x01, 0x05, 0xFF, 0x7F]),)),
    (decode_varints, (np.tile(np.array([0x81, 0x01, 0x05]), 400),)),
    (rows_until_small, (np.array([3.0, -40.0, 1.0]),)),
    (rows_until_small, (np.array([0.5, 0.25]),)),  # no items
    (stacked_rows, (np.array([3.0, -40.0, 1.0]),)),
    (stacked_rows, (np.full(600, 1e9),)),
    (rows_until_small, (np.full(600, 1e9),)),
    (two_lists, (np.int64(27),)),
    (two_lists, (np.int64(1),)),
    (nested, (np.array([3.0, 0.5, 1e30]),)),
    (nested, (np.array([1e300, 1e300, 1e300]),)),
    (python_ints, (np.int64(10),)),
    (python_ints, (np.int64(10**6),)),
]


@pytest.mark.parametrize(
    "fn, args", CASES, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(CASES)]
)
def test_lists_in_unbounded_loops_give_eagers_results(fn, args):
    """Values, dtypes, shapes and Python types exactly eager's, under and past the capacity."""
    same(fn(*args), autoconv.function(fn, backend="jax")(*args))


@pytest.mark.parametrize("i", [2, 9, 14, 16, 22])
def test_keep_on_device_gives_eagers_values(i):
    fn, args = CASES[i]
    got = autoconv.function(fn, backend="jax", keep_on_device=True)(*args)
    expected = fn(*args)
    flat_got, flat_expected = jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(expected)
    assert len(flat_got) == len(flat_expected)
    for g, e in zip(flat_got, flat_expected):
        assert np.shape(g) == np.shape(e) and np.asarray(g).dtype == np.asarray(e).dtype
        np.testing.assert_array_equal(np.asarray(g), e)
        # arrays and NumPy scalars come as JAX arrays, Python numbers as Python numbers
        assert (
            isinstance(g, jax.Array)
            if isinstance(e, np.ndarray | np.generic)
            else type(g) is type(e)
        )


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 300))
def test_trip_counts_across_capacities(n):
    """Items of 64 float64s start at 16 per buffer: trip counts up to 300 cross 16, 32, ...,
    256, in one function that keeps its grown buffers between calls and in fresh ones."""
    assert lists.start_capacity((64,), np.float64) == 16
    same(steps(np.int64(n)), KEPT(np.int64(n)))
    same(steps(np.int64(n)), autoconv.function(steps, backend="jax")(np.int64(n)))


def steps(n):
    out = []
    x = np.zeros(64)
    while n > 0:
        x = x + n
        out.append(x)
        n = n - 1
    return out, len(out)


KEPT = autoconv.function(steps, backend="jax")


def test_recompiles_are_at_most_log2_of_the_count():
    f = autoconv.function(python_ints, backend="jax")
    prog = program(f, np.int64(4))
    assert prog.capacities == [512]  # 4 KiB of int64
    seen = []
    for n in (10, 1000**2, 200**2, 3000**2, 2500**2, 10):
        same(f(np.int64(n)), python_ints(np.int64(n)))
        seen.append((prog.recompiles, prog.capacities[0]))
    # 1000 items: one compile more (1024); 3000: one more (4096); the rest fit.
    assert seen == [(0, 512), (1, 1024), (1, 1024), (2, 4096), (2, 4096), (2, 4096)]
    assert "4096" in f.get_concrete_function(np.int64(1)).code


def test_grown_capacity_doubles_at_least():
    assert lists.grown_capacity(16, 17) == 32
    assert lists.grown_capacity(16, 1000) == 1024
    assert lists.grown_capacity(512, 1024) == 1024
    assert lists.grown_capacity(170, 171) == 340


# --- effects happen once ------------------------------------------------------------------------


def printed(n):
    out = []
    autoconv.print("start", n)
    while n > 0:
        out.append(n)
        if n % 250 == 0:
            autoconv.print("at", n, "items so far:", len(out))
        n = n - 1
    autoconv.print("done", len(out))
    return np.array(out)


@pytest.mark.parametrize("n", [3, 1000])
def test_a_print_in_the_loop_appears_once_and_in_order(n, capsys):
    f = autoconv.function(printed, backend="jax")
    expected = printed(np.int64(n))
    eager_out = capsys.readouterr().out
    same(f(np.int64(n)), expected)
    assert capsys.readouterr().out == eager_out
    assert program(f, np.int64(n)).recompiles == (n > 512)
    same(f(np.int64(n)), expected)  # the grown buffer is kept: no re-run, same text
    assert capsys.readouterr().out == eager_out


def test_a_print_reading_items_past_the_capacity_waits_for_the_rerun(capsys):
    def f(n):
        out = []
        while n > 0:
            out.append(n)
            n = n - 1
        autoconv.print("items", np.array(out))
        return n

    expected = f(np.int64(700))
    eager_out = capsys.readouterr().out
    same(autoconv.function(f, backend="jax")(np.int64(700)), expected)
    assert capsys.readouterr().out == eager_out
    assert eager_out.startswith("items [700 699") and eager_out.endswith(" 2   1]\n")


def test_variables_are_written_once():
    def f(v, n):
        hist = []
        while n > 0:
            v.assign_add(1.0)
            hist.append(v + 0.0)
            n = n - 1
        v.assign(v * 2)
        return np.array(hist)

    eager_v, graph_v = autoconv.Variable(0.5), autoconv.Variable(0.5)
    g = autoconv.function(f, backend="jax")
    for n in (3, 900, 10):
        same(f(eager_v, np.int64(n)), g(graph_v, np.int64(n)))
        same(eager_v.numpy(), graph_v.numpy())


def test_an_error_from_items_past_the_capacity_is_the_reruns():
    def f(n):
        out = []
        while n > 0:
            out.append(n)
            n = n - 1
        if len(out) > 5:
            raise ValueError(f"too many: {np.array(out)}")
        return len(out)

    g = autoconv.function(f, backend="jax")
    assert g(np.int64(4)) == 4
    for n in (600, 20):
        with pytest.raises(ValueError) as eager:
            f(np.int64(n))
        with pytest.raises(ValueError) as graph:
            g(np.int64(n))
        assert str(graph.value) == str(eager.value)
        assert str(eager.value).startswith(f"too many: [{n} {n - 1}")


class _Counting:
    """A host callback with state, following the save/restore protocol: `draws` counts the
    calls, and a re-run must leave it as one run does."""

    def __init__(self):
        self.draws = 0
        self.restored = []

    def __call__(self, *arrays):
        self.draws += 1

    def save(self):
        return self.draws

    def restore(self, token):
        self.restored.append(token)
        self.draws = token


def test_callbacks_with_state_are_saved_and_restored_around_a_rerun():
    prog = program(autoconv.function(python_ints, backend="jax"), np.int64(4))
    counter = _Counting()
    prog.lowered.callbacks.append(counter)  # the program asks the lowering's callbacks
    counter(None)
    prog(np.int64(4))
    assert counter.restored == []
    prog._compile = lambda _old=prog._compile: (_old(), prog.lowered.callbacks.append(counter))
    counter(None)
    same(prog(np.int64(800**2)), python_ints(np.int64(800**2)))
    assert counter.restored == [2] and counter.draws == 2 and prog.recompiles == 1


def test_threads_calling_one_growing_function_get_their_own_results():
    from concurrent.futures import ThreadPoolExecutor

    f = autoconv.function(python_ints, backend="jax")
    ns = [np.int64(k * k) for k in (3, 700, 40, 1500, 900, 5, 2100, 600)]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(f, ns))
    for n, got in zip(ns, results):
        same(got, python_ints(n))
    assert program(f, ns[0]).recompiles <= 3  # 512 -> 1024 -> 2048 -> 4096 at most


def test_items_whose_shape_depends_on_the_data_name_the_list():
    def f(x, n):
        out = []
        while n > 0:
            out.append(x[x > n])
            n = n - 1
        return out

    with pytest.raises(LoweringError, match=r"test_jax_growth.py:\d+.*list `out`.*shape"):
        autoconv.function(f, backend="jax")(np.arange(5.0), np.float64(2.0))
