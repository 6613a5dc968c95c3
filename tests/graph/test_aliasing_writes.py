"""In-place writes that another name sees (issue 24), differential on both backends.

A function that writes into its array parameter (`sift(a, lo, hi)` swapping `a[i], a[j]`)
changes the caller's array eagerly: its caller's name gets the new array
(converters/written_params.py). An attribute's array written in place (`self.stock[i] -= q`,
`self.w += v`) rebinds the attribute, which staged loops and branches carry. Where something
else would see the change (another name, a view, an object, a caller that does not take the
array back), a clear error at the user's line names it.
"""

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule, message

R = np.array([3.0, -1.0, 2.0, 5.0, -4.0, 0.5])
INPUTS = [R, np.array([1.0]), np.array([2.0, 7, 1, 8, 2, 8, 1, 8]), np.zeros(0)]


# --- a function that writes into its parameter: the caller sees the change ------------------


def heap_sort_helpers(x):
    data = x.copy()
    n = len(data)

    def down(arr, first, last):
        parent = first
        while 2 * parent + 1 < last:
            kid = 2 * parent + 1
            if kid + 1 < last and arr[kid] < arr[kid + 1]:
                kid += 1
            if arr[parent] < arr[kid]:
                arr[parent], arr[kid] = arr[kid], arr[parent]
                parent = kid
            else:
                return

    for s in range(n // 2 - 1, -1, -1):
        down(data, s, n)
    for last in range(n - 1, 0, -1):
        data[0], data[last] = data[last], data[0]
        down(data, 0, last)
    return data


def bubble_with_swap(x):
    arr = x.copy()

    def swap(a, i, j):
        a[i], a[j] = a[j], a[i]

    n = len(arr)
    for i in range(n):
        for j in range(n - 1 - i):
            if arr[j] > arr[j + 1]:
                swap(arr, j, j + 1)
    return arr


def lomuto_partition(x):
    a = x.copy()

    def partition(a, lo, hi):
        pivot = a[hi]
        i = lo
        for j in range(lo, hi):
            if a[j] < pivot:
                a[i], a[j] = a[j], a[i]
                i += 1
        a[i], a[hi] = a[hi], a[i]
        return i

    k = partition(a, 0, len(a) - 1) if len(a) else -1
    return a, k


def prefix_while_non_negative(x):
    a = x.copy()

    def cumulate(a):
        i = 1
        while i < len(a) and a[i - 1] >= 0:
            a[i] += a[i - 1]
            i += 1

    cumulate(a)
    return a


def fill_numpy_array(x):
    a = np.zeros(len(x))

    def fill(a, v):
        for i in range(len(v)):
            if v[i] > 0:
                a[i] = v[i]

    fill(a, x)
    return a


def augmented_parameter(x):
    a = x.copy()

    def bump(a, v):
        a += v

    for i in range(len(x)):
        if x[i] > 0:
            bump(a, x[i])
    return a


def number_parameter(x):
    n = 0

    def inc(n):
        n += 1  # a number: the caller's `n` does not change
        return n

    total = 0
    for v in x:
        if v > 0:
            total = inc(total)
    inc(n)
    return n, total


class Tally:
    def __init__(self):
        self.calls = 0

    def add_to(self, a, i, v):
        a[i] += v
        self.calls += 1


def method_writes_argument(x):
    a = np.zeros(len(x))
    tally = Tally()
    for i in range(len(x)):
        if x[i] > 0:
            tally.add_to(a, i, x[i])
    return a, tally.calls


def call_inside_expression(x):
    a = x.copy()

    def negate_first(a):
        a[0] = -a[0]
        return 1

    r = negate_first(a) + 1 if len(a) else 0
    return a, r


def halve_even_ints(x):
    a = (x * 10).astype(np.int64)

    def halve(a, k):
        a[k] //= 2

    for k in range(len(a)):
        if a[k] % 2 == 0:
            halve(a, k)
    return a


# --- swaps, temporaries, several arrays, copies ----------------------------------------------


def swap_through_temporary(x):
    a = x.copy()
    n = len(a)
    for i in range(n):
        for j in range(n - 1 - i):
            if a[j] > a[j + 1]:
                tmp = a[j]  # an item: a copy
                a[j] = a[j + 1]
                a[j + 1] = tmp
    return a


def two_arrays_alternately(x):
    a = np.zeros(len(x))
    b = np.ones(len(x))
    for i in range(len(x)):
        if i % 2 == 0:
            a[i] = x[i]
        else:
            b[i] = a[i - 1] + x[i]
    return a, b


def copies_break_aliasing(x):
    a = x.copy()
    b = np.copy(a)
    c = a.copy()
    for i in range(len(x)):
        if x[i] > 0:
            a[i] = -1.0
    return a, b, c


# --- attributes written in place --------------------------------------------------------------


class Stock:
    def __init__(self, levels):
        self.levels = levels.copy()
        self.missed = 0

    def take(self, item, qty):
        if self.levels[item] >= qty:
            self.levels[item] -= qty
            return True
        self.missed += 1
        return False


def orders(levels, items, qtys):
    stock = Stock(levels)
    filled = 0
    for it, q in zip(items, qtys):
        if stock.take(it, q):
            filled += 1
    return filled, stock.missed, stock.levels


class Weights:
    def __init__(self, n):
        self.w = np.zeros(n)

    def step(self, v, i):
        self.w += v
        self.w[i] = 7.0


def attribute_in_method(x):
    m = Weights(len(x))
    for i in range(len(x)):
        if x[i] > 0:
            m.step(x[i], i)
    return m.w


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "f",
    [
        heap_sort_helpers,
        bubble_with_swap,
        lomuto_partition,
        prefix_while_non_negative,
        fill_numpy_array,
        number_parameter,
        method_writes_argument,
        halve_even_ints,
        call_inside_expression,
        swap_through_temporary,
        two_arrays_alternately,
        copies_break_aliasing,
        attribute_in_method,
    ],
)
def test_writes_follow_numpy(f, backend):
    for x in INPUTS:
        follows_the_rule(f, x, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_attribute_array_written_in_a_method(backend):
    follows_the_rule(
        orders,
        np.array([5, 3, 0]),
        np.array([0, 2, 1, 0]),
        np.array([2, 2, 1, 4]),
        backend=backend,
    )
    follows_the_rule(orders, np.array([1]), np.array([0]), np.array([1]), backend=backend)


# --- what another name would see: clear errors -----------------------------------------------


def alias_before_staged_while(x):
    a = x.copy()
    b = a
    i = 0
    while i < len(x) and x[i] > 0:
        a[i] = 0.0
        i += 1
    return b


def caller_alias(x):
    a = x.copy()
    b = a

    def zero_negative(a):
        for i in range(len(a)):
            if a[i] < 0:
                a[i] = 0.0

    zero_negative(a)
    return b


def call_in_an_if_test(x):
    a = x.copy()

    def negate_first(a):
        a[0] = -a[0]
        return 1

    if negate_first(a) > 0:  # a test, not a statement: `a` is not given the new array
        a = a + 0
    return a


def numpy_array_not_taken_back(x):
    a = np.zeros(len(x))

    def fill(a, v):
        for i in range(len(v)):
            if v[i] > 0:
                a[i] = v[i]
        return 1

    if fill(a, x) > 0:  # a test: `a` is not given the new array
        pass
    return a


def two_levels_of_helpers(x):
    a = x.copy()

    def order(a, i):
        if a[i] > a[i + 1]:
            a[i], a[i + 1] = a[i + 1], a[i]

    def one_pass(a):
        for i in range(len(a) - 1):
            order(a, i)

    one_pass(a)
    return a


def view_written(x):
    a = x.copy()
    v = a[1:]
    for i in range(len(v)):
        if x[i] > 0:
            v[i] = 100.0
    return a


def attribute_also_held(x):
    m = Weights(len(x))
    keep = m.w
    for i in range(len(x)):
        m.w[i] = x[i]
    return keep


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "f, line, words",
    [
        (alias_before_staged_while, "a[i] = 0.0", "`b` also refers"),
        (caller_alias, "a[i] = 0.0", "changed in place"),
        (call_in_an_if_test, "a[0] = -a[0]", "changed in place"),
        (augmented_parameter, "a += v", "changed in place"),
        (numpy_array_not_taken_back, "if fill(a, x) > 0:", "writes into a NumPy array"),
        (two_levels_of_helpers, "a[i], a[i + 1] = a[i + 1], a[i]", "changed in place"),
        (attribute_also_held, "m.w[i] = x[i]", "also reachable through `keep`"),
    ],
    ids=lambda v: getattr(v, "__name__", None),
)
def test_writes_others_would_see_are_clear_errors(f, line, words, backend):
    text = message(f, R.copy(), backend=backend)
    assert "test_aliasing_writes.py:" in text and line in text and words in text, text


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_write_through_a_view_of_a_local_array_changes_the_array(backend):
    # It was a clear error; converters/views.py writes the array too (tests/graph/test_view_writes.py).
    follows_the_rule(view_written, R.copy(), backend=backend)


def test_a_write_through_a_view_under_jax_jit_changes_the_array():
    jax = pytest.importorskip("jax")

    def scale_rows(img):
        out = img.copy()
        for i in range(out.shape[0]):
            row = out[i]  # eagerly a view of `out`
            for j in range(out.shape[1]):
                row[j] = row[j] * 2.0
        return out

    x = np.arange(6.0).reshape(2, 3)
    got = jax.jit(autoconv.convert(scale_rows))(x)
    assert np.array_equal(np.asarray(got), scale_rows(x.copy()))


def test_a_copy_read_by_fancy_indexing_under_jax_jit_is_written_as_eagerly():
    jax = pytest.importorskip("jax")

    def fancy(x):
        out = x.copy()
        rows = out[np.array([0, 1])]  # advanced indexing: a copy, eagerly too
        rows[0, 0] = 5.0
        return out, rows

    x = np.arange(6.0).reshape(2, 3)
    want = fancy(x.copy())
    got = jax.jit(autoconv.convert(fancy))(x)
    assert all(np.array_equal(w, np.asarray(g)) for w, g in zip(want, got))


@pytest.mark.parametrize(
    "f",
    [
        heap_sort_helpers,
        bubble_with_swap,
        lomuto_partition,
        prefix_while_non_negative,
        number_parameter,
        halve_even_ints,
    ],
)
def test_helpers_writing_their_parameters_under_jax_jit(f):
    """`jax.jit(autoconv.convert(f))`: the caller's name takes the array the helper ended with
    (a JAX array cannot change; eagerly the caller's array does)."""
    jax = pytest.importorskip("jax")
    old = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    try:
        for x in INPUTS[:3]:
            want = f(x.copy())
            got = jax.jit(autoconv.convert(f))(x)
            want = want if isinstance(want, tuple) else (want,)
            got = got if isinstance(got, tuple) else (got,)
            assert all(np.allclose(w, np.asarray(g)) for w, g in zip(want, got)), (want, got)
    finally:
        jax.config.update("jax_enable_x64", old)
