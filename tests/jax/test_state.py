"""The state of staged statements under `jax.jit(autoconv.convert(f))` follows graph mode and
eager NumPy: weak Python numbers, zero-trip loops, composite names (`d['k']`, `o.attr`),
variables first bound in a loop, lists grown by a loop, NumPy calls on values JAX computes.

Each program runs eagerly (NumPy) and under `jax.jit` with `np` as `jax.numpy` (or as NumPy
where named), 64-bit types on; values, dtypes, shapes and structure must agree
(`tests/jax/corpus.compare`), or the traced run is a clear `JaxStagingError` on the user's line.
Programs marked `# own` are not the brief's examples: written with them, before the fix, and
not used to tune it.
"""

import copy
import inspect

import numpy as np
import pytest

import autoconv
from tests.jax import corpus

jax = pytest.importorskip("jax")
jnp = jax.numpy

I32 = np.array([3, 1, 4, 1, 5], dtype=np.int32)
F32 = np.array([0.5, -1.25, 2.0], dtype=np.float32)
EMPTY_F32 = np.zeros((0,), dtype=np.float32)
EMPTY_ROWS = np.zeros((0, 3), dtype=np.float32)
F64 = np.array([1.0, -2.0, 3.5])
NEG = np.array([-1.0, -4.0])


def traced(func, args, numpy=False):
    """`jax.jit(convert(func))` with array arguments traced (NumPy kept as `np` if `numpy`)."""
    func = func if numpy else corpus.jax_version(func)
    return corpus.traced_call(func, copy.deepcopy(args))


def agrees(func, *args, numpy=False):
    expected = func(*copy.deepcopy(args))
    got = traced(func, args, numpy)
    found = corpus.compare(expected, got)
    assert found is None, found
    return got


# --- 1. weak Python numbers -----------------------------------------------------------------


def digits(xs):
    s = 0
    for v in xs:
        s = s * 10 + v
    return s


def float_sum(xs):
    s = 0.0
    for v in xs:
        s += v
    return s


def positive_sum_cond(xs):
    s = 0
    for v in xs:
        if v > 2:
            s = s + v
    return s


def branch_number(x, xs):
    y = 0
    if x > 0:
        y = 2
    return xs * y


def while_count(xs):  # own
    n = 0
    k = 0
    while n < 3:
        k = k + xs[n]
        n += 1
    return k


def mixed_weak_kinds(xs):  # own
    s = 0
    for v in xs:  # noqa: B007 - `v` is used after the loop
        s = s + 0.5
    return s + v


def weak_then_strong(xs):  # own
    s = 0
    for v in xs:  # noqa: B007 - `v` is used after the loop
        s = s + np.int64(1)
    return s + v


def scaled_if(x, xs):  # own
    scale = 1.0
    if x > 1:
        scale = 0.5
    return xs * scale


WEAK = [
    (digits, (I32,)),
    (float_sum, (F32,)),
    (positive_sum_cond, (I32,)),
    (branch_number, (np.int32(1), I32)),
    (branch_number, (np.int32(-1), I32)),
    (while_count, (I32,)),
    (mixed_weak_kinds, (I32,)),
    (weak_then_strong, (I32,)),
    (scaled_if, (np.float32(2), F32)),
    (scaled_if, (np.float32(0), F32)),
]


@pytest.mark.parametrize(
    "func,args", WEAK, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(WEAK)]
)
def test_weak_numbers_keep_the_arrays_dtype(func, args):
    agrees(func, *args)


# --- 2. zero-trip loops ---------------------------------------------------------------------


def sum_rows(x):
    total = np.zeros(3, dtype=np.float32)
    for row in x:
        total = total + row
    return total


def count_empty(x):
    n = 0
    for v in x:
        if v > 0:
            n += 1
    return n


def enumerate_empty(x):  # own
    best, where = -1.0, -1
    for i, v in enumerate(x):
        if v > best:
            best, where = v, i
    return best, where


def zip_empty(x, y):  # own
    acc = 0.0
    for a, b in zip(x, y):
        acc = acc + a * b
    return acc


def break_empty(x):  # own
    found = -1.0
    for v in x:
        if v > 0:
            found = v
            break
    return found


ZERO = [
    (float_sum, (EMPTY_F32,)),
    (digits, (np.zeros((0,), np.int32),)),
    (sum_rows, (EMPTY_ROWS,)),
    (count_empty, (EMPTY_F32,)),
    (enumerate_empty, (EMPTY_F32,)),
    (zip_empty, (EMPTY_F32, F32)),
    (break_empty, (EMPTY_F32,)),
]


@pytest.mark.parametrize(
    "func,args", ZERO, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(ZERO)]
)
def test_zero_trip_loops_give_the_initial_state(func, args):
    agrees(func, *args)


# --- 3. composite names ---------------------------------------------------------------------


def dict_item_loop(x):
    d = {"k": 0.0, "n": 0}
    for v in x:
        d["k"] = d["k"] + v
    return d


def list_item_loop(x):
    acc = [0.0, 1.0]
    for v in x:
        acc[0] += v
    return acc


class Counter:
    def __init__(self):
        self.total = 0.0
        self.calls = 0

    def add_all(self, x):
        for v in x:
            self.total += v
        return self.total

    def add_positive(self, x):
        if x > 0:
            self.total += x
        return self.total


def attribute_loop(x):
    c = Counter()
    return c.add_all(x), c.total


def attribute_if(x):
    c = Counter()
    return c.add_positive(x)


def dict_item_if(x):
    d = {"k": x * 0}
    if x > 0:
        d["k"] = x * 2
    return d["k"]


def nested_dict_loop(x):  # own
    stats = {"sum": 0.0, "sq": 0.0}
    for v in x:
        stats["sum"] += v
        stats["sq"] = stats["sq"] + v * v
    return stats["sq"] - stats["sum"]


def list_item_if(x):  # own
    pair = [x, x]
    if x < 1:
        pair[1] = x - 1
    return pair


class Box:
    def __init__(self, value):
        self.value = value


def attribute_while(x):  # own
    b = Box(x)
    while b.value > 1:
        b.value = b.value / 2
    return b.value


COMPOSITE = [
    (dict_item_loop, (F64,)),
    (list_item_loop, (F64,)),
    (attribute_loop, (F64,)),
    (attribute_if, (np.float64(2.0),)),
    (attribute_if, (np.float64(-2.0),)),
    (dict_item_if, (np.float64(3.0),)),
    (dict_item_if, (np.float64(-3.0),)),
    (nested_dict_loop, (F64,)),
    (list_item_if, (np.float64(0.0),)),
    (list_item_if, (np.float64(4.0),)),
    (attribute_while, (np.float64(9.0),)),
]


@pytest.mark.parametrize(
    "func,args", COMPOSITE, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(COMPOSITE)]
)
def test_composite_names_are_state(func, args):
    agrees(func, *args)


def new_key(x):
    d = {}
    for v in x:
        d["k"] = v
    return d


def new_key_traced_count(x, n):
    d = {}
    i = 0
    while i < n:
        d["k"] = x
        i += 1
    return d


def test_an_item_first_set_in_a_loop():
    """Like a variable first bound in the loop (4.): there after a static trip count, a clear
    error where it is used after a traced one."""
    agrees(new_key, F64)
    with pytest.raises(autoconv.AutoconvError, match=r"d\['k'\]"):
        traced(new_key_traced_count, (np.float64(1.0), np.int64(2)))


# --- 4. variables first bound in a loop -----------------------------------------------------


def last_double(x):
    for v in x:
        last = v * 2
    return last


def last_row_sum(x):
    for row in x:
        s = row.sum()
    return s


def last_index(x):  # own
    for i, v in enumerate(x):
        where = i
        value = v + 1
    return where, value


def last_in_while(x):  # own
    n = 0
    while n < 3:
        last = x * n
        n += 1
    return last


def bound_then_unused(x):  # own
    total = 0.0
    for v in x:
        tmp = v * v
        total = total + tmp
    return total


FIRST_BOUND = [
    (last_double, (F64,)),
    (last_row_sum, (np.ones((2, 3)),)),
    (last_index, (F32,)),
    (last_in_while, (np.float64(2.0),)),
    (bound_then_unused, (F64,)),
    (bound_then_unused, (np.zeros(0),)),
]


@pytest.mark.parametrize(
    "func,args", FIRST_BOUND, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(FIRST_BOUND)]
)
def test_variables_first_bound_in_a_loop(func, args):
    agrees(func, *args)


@pytest.mark.parametrize("func", [last_double, last_index])
def test_zero_trips_leave_it_unbound(func):
    with pytest.raises(UnboundLocalError):
        func(np.zeros(0))
    with pytest.raises(UnboundLocalError):
        traced(func, (np.zeros(0),))


def traced_count(x, n):
    i = 0
    while i < n:
        last = x * i
        i += 1
    return last


def read_before_bound(x):
    for i, v in enumerate(x):
        if i > 0:
            prev = prev + v  # noqa: F821 - bound in the first iteration
        else:
            prev = v
    return prev


def test_traced_trip_count_is_a_clear_error_where_it_is_used():
    """Graph mode checks at run time that the loop ran; JAX cannot raise at run time, so a
    use of the value that may be unbound is an error while tracing, on the user's line."""
    with pytest.raises(autoconv.AutoconvError, match="`last`") as info:
        traced(traced_count, (np.float64(2.0), np.int64(3)))
    assert f"{__file__}:" in str(info.value)


def test_read_in_the_body_before_it_is_bound_is_not_zeros():
    with pytest.raises(autoconv.AutoconvError, match="prev"):
        traced(read_before_bound, (F64,))


# --- 5. lists grown by a loop ---------------------------------------------------------------


def doubled(x):
    out = []
    for v in x:
        out.append(v * 2)
    return np.stack(out)


def pairs(x):
    out = [x[0]]
    for i, v in enumerate(x):
        out.append(v + i)
        out.append(v - i)
    return len(out), np.stack(out)


def rows_kept(x):  # own
    kept = []
    for row in x:
        kept.append(row.sum())
    return kept


def tuples_appended(x):  # own
    out = []
    total = 0.0
    for v in x:
        total = total + v
        out.append((v, total))
    return out, total


def empty_growth(x):  # own
    out = []
    for v in x:
        out.append(v)
    return len(out)


def nested_growth(x):  # own
    out = []
    for row in x:
        for v in row:
            out.append(v * 3)
    return np.stack(out)


GROWN = [
    (doubled, (F64,)),
    (pairs, (F32,)),
    (rows_kept, (np.ones((3, 2)),)),
    (tuples_appended, (F64,)),
    (empty_growth, (np.zeros(0),)),
    (nested_growth, (np.arange(6.0).reshape(2, 3),)),
]


@pytest.mark.parametrize(
    "func,args", GROWN, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(GROWN)]
)
def test_lists_grown_by_a_static_loop(func, args):
    agrees(func, *args)


def grows_in_while(x):
    out = []
    while x > 1:
        x = x / 2
        out.append(x)
    return out


def grows_with_break(x):
    out = []
    for v in x:
        if v < 0:
            break
        out.append(v)
    return out


def reads_while_growing(x):
    out = []
    for v in x:
        out.append(v)
        n = len(out)
    return n


@pytest.mark.parametrize(
    "func,args",
    [
        (grows_in_while, (np.float64(9.0),)),
        (grows_with_break, (F64,)),
        (reads_while_growing, (F64,)),
    ],
)
def test_lists_whose_length_is_not_static_are_a_clear_error(func, args):
    with pytest.raises(autoconv.AutoconvError, match="`out`") as info:
        traced(func, args)
    assert f"{__file__}:" in str(info.value)


# --- 6. NumPy on traced values inside converted code ----------------------------------------


def numpy_pair(x):
    s = 0.0
    for v in x:
        s = s + v
    return np.array([s, s])


def numpy_if(x):  # own
    if x > 0:
        y = x
    else:
        y = -x
    return np.abs(y)


def test_tracer_array_conversion_is_jax_design_not_ours():
    """`np.array` of a tracer in the user's own code is JAX's error (by design), raised from the
    user's own line; no frame of autoconv's JAX lowering converts a tracer to NumPy."""
    for func, args in [(numpy_pair, (F64,)), (numpy_if, (np.float64(2.0),))]:
        with pytest.raises(jax.errors.TracerArrayConversionError) as info:
            agrees(func, *args, numpy=True)
        frames = []
        tb = info.value.__traceback__
        while tb is not None:
            frames.append((tb.tb_frame.f_code.co_filename, tb.tb_frame.f_code.co_name))
            tb = tb.tb_next
        assert (__file__, func.__name__) in frames
        assert not [f for f in frames if "/autoconv/trace/jax/" in f[0]], frames


# --- max and min of traced values -------------------------------------------------------------


def running_max(xs):
    m = -1.0
    for v in xs:
        m = max(m, v)
    return m


def smallest_of_three(xs):
    return min(xs[0], xs[1], 0.5)


def test_max_and_min_of_traced_values_are_staged_choices():
    agrees(running_max, F64)
    agrees(running_max, np.zeros(0))
    agrees(smallest_of_three, F64)


# --- None sentinels ---------------------------------------------------------------------------


def none_in_a_tuple(xs):  # own
    pair = (None, 0.0)
    for v in xs:
        if v > 0:
            pair = (v, v * 2)
    return pair[1]


def none_in_a_dict_branch(x):  # own
    out = {"hit": None, "count": 0}
    if x[0] > 0:
        out = {"hit": x[0], "count": 1}
    return out["count"] + (0.0 if out["hit"] is None else 1.0)


def contains(xs):  # own
    for v in xs:
        if v == 3.5:
            found = True
            break
    else:
        found = False
    return found


def index_or_minus_one(xs):  # own
    for i, v in enumerate(xs):
        if v < 0:
            where = i
            break
    else:
        where = -1
    return where


def best_of(xs):
    best = None
    for v in xs:
        if best is None or v > best:
            best = v
    return best


def best_index(xs):  # own
    best, where = None, -1
    for i, v in enumerate(xs):
        if best is None or v < best:
            best, where = v, i
    return where


def dict_sentinel(xs):  # own
    d = {"low": None}
    for v in xs:
        if d["low"] is None or v < d["low"]:
            d["low"] = v
    return d["low"] if d["low"] is not None else 0.0


def sentinel_break(xs):  # own
    first = None
    for v in xs:
        if first is None:
            first = v
        if v < 0:
            break
    return first * 2


def sentinel_appends(xs):  # own
    prev, steps = None, []
    for v in xs:
        if prev is not None:
            steps.append(v - prev)
        prev = v
    return prev, np.stack(steps) if steps else np.zeros(0)


@pytest.mark.parametrize(
    "func, args",
    [
        (best_of, (F64,)),
        (best_of, (F64[:1],)),
        (best_of, (np.zeros(0),)),
        (best_index, (F64,)),
        (best_index, (np.zeros(0),)),
        (dict_sentinel, (F64,)),
        (dict_sentinel, (np.zeros(0),)),
        (sentinel_break, (F64,)),
        (sentinel_break, (np.array([-1.0, 2.0]),)),
        (sentinel_appends, (F64,)),
        (sentinel_appends, (F64[:1],)),
        (contains, (F64,)),
        (contains, (NEG,)),
        (contains, (np.zeros(0),)),
        (index_or_minus_one, (F64,)),
        (index_or_minus_one, (np.ones(2),)),
        (none_in_a_tuple, (F64,)),
        (none_in_a_tuple, (NEG,)),
        (none_in_a_dict_branch, (F64,)),
        (none_in_a_dict_branch, (NEG,)),
    ],
)
def test_none_sentinels(func, args):
    agrees(func, *args)


def sometimes_set(xs):
    best = None
    for v in xs:
        if v > 2:
            best = v
    return best


def test_a_sentinel_set_on_some_paths_only_is_a_clear_error():
    with pytest.raises(autoconv.errors.StagingError, match="`best` is None on some paths") as info:
        traced(sometimes_set, (F64,))
    assert "test_state.py" in str(info.value)


# --- counts -----------------------------------------------------------------------------------


def test_programs_of_our_own_in_each_class():
    """Each class has programs beyond the brief's examples (marked `# own`)."""
    lines = inspect.getsource(inspect.getmodule(test_programs_of_our_own_in_each_class))
    assert lines.count("# own") >= 26
