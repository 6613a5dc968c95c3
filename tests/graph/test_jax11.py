"""The JAX backend's batch-10 classes (tools/fresh_batch10_findings.md, "JAX-only classes"):

- JW1/JW2: a Python int (or bool) read back from a run-time list or a keyed dict, appended in
  a value-or-None, a tuple or a dict, or stored as a dict's value from two reads
  (`Counter + Counter`), came back an np.int64. A number whose Python type is its path's in
  a tuple, dict or value-or-None also lost that type on NumPy.
- JE1: a slice of a run-time list with items known while tracing (`pts[1:]` of `[0.0]` and a
  loop's items) lost its last items on JAX (IndexError from the read check, wrong values).
- JC2: the messages for a tuple holding a run-time list, and for a field of several types.
- `sum()` of a run-time list that may hold no items, appended to another list: Python's `0`.
- Under `jax.jit(autoconv.convert(f))`, `x.round(d)` and `round(t, d)` of a tracer.
"""

import heapq
from collections import Counter, defaultdict

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule, message

pytest.importorskip("jax")

INPUTS = [np.array([5, 3, 9, 1, 2, 2, 3]), np.array([2, 2, 3]), np.array([1])]


# --- JW1 / JW2: Python ints read back keep their type --------------------------------------


def heap_top_or_none(a):
    heap, out = [], []
    for v in a:
        heapq.heappush(heap, int(v))
        if len(heap) > 2:
            heapq.heappop(heap)
        out.append(heap[0] if len(heap) == 2 else None)
    return out


def top_of_stack_or_none(a):
    stack, out = [], []
    for v in a:
        if v > 2:
            stack.append(int(v))
        out.append(stack[-1] if stack else None)
    return out


def last_read_in_a_dict(a):
    seen, out = [], []
    for v in a:
        seen.append(int(v))
        out.append({"last": seen[-1], "n": len(seen), "k": seen[-1] if v > 2 else None})
    return out


def read_in_a_tuple(a):
    seen, out = [], []
    for i, v in enumerate(a):
        seen.append(int(v))
        out.append((i, seen[-1] + 1, bool(v > 2)))
    return out


def popped_in_a_dict(a):
    st, out = [], []
    for v in a:
        st.append(int(v))
        if v > 2:
            out.append({"top": st.pop(), "n": len(st)})
    return out


def count_or_none(a):
    d, out = {}, []
    for v in a.tolist():
        d[v] = d.get(v, 0) + 1
        out.append(d[v] if d[v] > 1 else None)
    return out


def counter_sum(a):
    return dict(Counter(a.tolist()) + Counter({2: 1}))


def counter_difference_and_union(a):
    c = Counter(a.tolist())
    return dict(c - Counter({2: 1})), dict(c | Counter({3: 5})), dict(c & Counter({2: 1}))


def counter_most_common(a):
    return (Counter(a.tolist()) + Counter({2: 1})).most_common(2)


def sums_of_two_dicts(a):
    d, e = {}, {}
    for v in a.tolist():
        d[v] = d.get(v, 0) + 1
        e[v] = e.get(v, 0) + 2
    out = {}
    for k in d:
        out[k] = d[k] + e[k]
    return out, {k: max(d[k], e[k]) for k in d}


def defaultdict_doubled(a):
    d = defaultdict(int)
    for v in a.tolist():
        d[v] += 1
    e = {}
    for k, c in d.items():
        e[k] = c + d[k]
    return e


def running_sum_of_reads(a):
    d, e = {}, {}
    for v in a.tolist():
        e[v] = e.get(v, 0) + 1
        d[v] = d.get(v, 0) + e[v]
    return d


READS = [
    heap_top_or_none,
    top_of_stack_or_none,
    last_read_in_a_dict,
    read_in_a_tuple,
    popped_in_a_dict,
    count_or_none,
    counter_sum,
    counter_difference_and_union,
    counter_most_common,
    sums_of_two_dicts,
    defaultdict_doubled,
    running_sum_of_reads,
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", READS, ids=lambda f: f.__name__)
def test_python_ints_read_back_stay_ints(fn, backend):
    for a in INPUTS:
        follows_the_rule(fn, a, backend=backend)


# A number whose Python type is its path's (`v` or `int(v)`), inside a structure.


def path_typed_or_none(x):
    s = None
    out = []
    for v in x:
        if v > 1:
            s = v if v > 2 else int(v)
        out.append(s)
    return out


def path_typed_in_a_tuple(x):
    return [(1, v if v > 2 else int(v)) for v in x if v >= 0]


def path_typed_in_a_tuple_loop(x):
    out = []
    for v in x:
        out.append((1, v if v > 2 else int(v)))
    return out


def path_typed_in_a_dict(x):
    out = []
    for v in x:
        out.append({"a": 1, "b": v if v > 2 else int(v)})
    return out


PATH_TYPED = {
    path_typed_or_none: "the items appended to list `out` are of several Python types",
    path_typed_in_a_tuple_loop: "item 1 of the tuples appended to list `out` is of several",
    path_typed_in_a_dict: "the value at 'b' of the dicts appended to list `out` is of several",
}


@pytest.mark.parametrize("fn", [*PATH_TYPED, path_typed_in_a_tuple], ids=lambda f: f.__name__)
def test_a_path_typed_number_in_a_structure_keeps_its_type_on_numpy(fn):
    follows_the_rule(fn, np.array([1, 2, 3]))


@pytest.mark.parametrize("fn", PATH_TYPED, ids=lambda f: f.__name__)
def test_a_path_typed_field_on_jax_names_its_place_and_types(fn):
    text = message(fn, np.array([1, 2, 3]), backend="jax")
    assert PATH_TYPED[fn] in text, text
    assert "a NumPy" in text and "a Python int" in text, text
    assert "test_jax11.py:" in text, text


# --- JE1: slices of run-time lists with items known while tracing ---------------------------


def shifted_pairs(y):
    pts = [0.0]
    for v in y:
        pts.append(float(v))
    s = 0.0
    for a, b in zip(pts, pts[1:]):
        s += b - a
    return s


def differences_with_a_tail(y):
    pts = [0.0, 1.0]
    for v in y:
        pts.append(float(v))
    pts.append(9.0)
    return [b - a for a, b in zip(pts[:-1], pts[1:])]


def slices_of_a_known_prefix(y):
    pts = [1, 2]
    for v in y:
        pts.append(int(v))
    return pts[::2], pts[-2:], pts[1:-1], pts[::-1]


def pops_from_the_front(y):
    q = [10, 20]
    for v in y:
        q.append(int(v))
    out = []
    while q:
        out.append(q.pop(0))
    return out


def sums_of_slices(y):
    pts = [0.5, 0.25]
    for v in y:
        pts.append(float(v))
    return sum(pts[1:]), len(pts[1:])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn",
    [shifted_pairs, differences_with_a_tail, slices_of_a_known_prefix, pops_from_the_front],
    ids=lambda f: f.__name__,
)
def test_slices_of_a_list_with_known_items(fn, backend):
    for y in (np.array([1, 0, 1]), np.array([3]), np.array([2, 5, 0, 4, 1])):
        follows_the_rule(fn, y, backend=backend)


def test_a_sum_of_a_slice_with_known_items_on_jax():
    follows_the_rule(sums_of_slices, np.array([2, 5, 0]), backend="jax")


# --- JC2: the messages -----------------------------------------------------------------------


def students_failing_any(scores, cutoff):
    failing = []
    for s, row in enumerate(scores):
        low = [j for j, v in enumerate(row) if v < cutoff]
        if low:
            failing.append((s, low))
    return failing


def test_a_tuple_holding_a_run_time_list_names_the_list_of_lists():
    scores = np.array([[88.0, 52.0], [40.0, 70.0]])
    follows_the_rule(students_failing_any, scores, 60.0)
    text = message(students_failing_any, scores, 60.0, backend="jax")
    assert "list `failing` holds lists whose lengths are known only when the graph runs" in text
    assert "strings" not in text and "test_jax11.py:" in text, text


# --- sum() of a run-time list that may hold no items -----------------------------------------


def sums_of_runs(xs):
    out, cur = [], []
    for v in xs:
        if v == 0:
            out.append(sum(cur))
            cur = []
        else:
            cur.append(v)
    return out


def sums_of_runs_from_a_start(xs):
    out, cur = [], []
    for v in xs:
        if v == 0:
            out.append(sum(cur, 0.5))
            cur = []
        else:
            cur.append(v)
    return out, len(out)


def counts_of_flags(xs):
    out, cur = [], []
    for v in xs:
        if v == 0:
            out.append(sum(cur))
            cur = []
        else:
            cur.append(bool(v > 2))
    return out


def total_of_sums(xs):
    out, cur = [], []
    for v in xs:
        if v == 0:
            out.append(sum(cur))
            cur = []
        else:
            cur.append(v)
    return sum(out), len(out)


SUM_INPUTS = [np.array([1, 2, 0, 3, 0, 0, 4]), np.array([0]), np.array([5, 6])]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn",
    [sums_of_runs, sums_of_runs_from_a_start, counts_of_flags, total_of_sums],
    ids=lambda f: f.__name__,
)
def test_sums_of_runs_that_may_be_empty_keep_their_types(fn, backend):
    for xs in SUM_INPUTS:
        follows_the_rule(fn, xs, backend=backend)


def last_sum(xs):
    out, cur = [], []
    for v in xs:
        if v == 0:
            out.append(sum(cur))
            cur = []
        else:
            cur.append(v)
    return out[-1] if out else None


def test_a_sum_read_back_from_such_a_list_is_a_clear_error_on_jax():
    follows_the_rule(last_sum, SUM_INPUTS[0])
    text = message(last_sum, SUM_INPUTS[0], backend="jax")
    assert "several Python types" in text and "test_jax11.py:" in text, text


# --- the jit way: NumPy's decimal rounding of a tracer -----------------------------------------


def rounded(x, t):
    return x.round(2), round(t, 1), np.round(x, 1), round(x[0], 1), x.round(decimals=3)


def test_round_of_a_tracer_is_numpys_under_jit():
    import jax

    x = np.array([2.4, 0.35, 2.675, -1.25, 1234.5678, 12 / 5, 72 / 30, 1.005, 0.285])
    t = np.float64(72 / 30)
    want = rounded(x, t)
    old = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    try:
        got = jax.jit(autoconv.convert(rounded))(x, t)
    finally:
        jax.config.update("jax_enable_x64", old)
    for w, g in zip(want, got):
        assert np.array_equal(np.asarray(w), np.asarray(g)), (w, g)


def test_round_outside_traces_is_pythons():
    def f(v, w):
        return round(v, 1), round(w), round(2.675, 2), round(7, -1)

    follows_the_rule(f, 2.25, np.float64(3.5))
    assert autoconv.convert(f)(2.25, np.float64(3.5)) == f(2.25, np.float64(3.5))


# --- sorted() of a run-time list of tuples of real numbers ------------------------------------


class Calendar:
    def __init__(self):
        self.booked = []

    def book(self, s, e):
        for bs, be in self.booked:
            if s < be and bs < e:
                return False
        self.booked.append((s, e))
        return True


def calendar_bookings(reqs):
    cal = Calendar()
    res = [cal.book(int(s), int(e)) for s, e in reqs]
    return res, sorted(cal.booked)


def pairs_sorted_both_ways(x):
    out = []
    for i, v in enumerate(x):
        if v > 0:
            out.append((float(v) % 3, -i))
    out.sort(reverse=True)
    return out, sorted(out)


def triples_sorted(x):
    out = [(1, 0.5, True)]
    for v in x:
        out.append((int(v) // 2, float(v), bool(v > 2)))
    return sorted(out)


def pairs_with_zeros(x):
    out = []
    for v in x:
        out.append((1, v))
    return sorted(out)


@pytest.mark.parametrize("backend", BACKENDS)
def test_sorted_lists_of_tuples_of_numbers(backend):
    follows_the_rule(
        calendar_bookings, np.array([[10, 20], [15, 25], [5, 10], [25, 27]]), backend=backend
    )
    follows_the_rule(calendar_bookings, np.array([[1, 2]]), backend=backend)
    follows_the_rule(
        pairs_sorted_both_ways, np.array([3.0, 1.0, 0.0, 5.0, -0.0, 2.0]), backend=backend
    )
    follows_the_rule(triples_sorted, np.array([3, 1, 4, 1, 5]), backend=backend)
    follows_the_rule(pairs_with_zeros, np.array([2.0, -0.0, 0.0]), backend=backend)


def test_a_sorted_list_of_tuples_holding_a_nan_is_a_clear_error_on_jax():
    follows_the_rule(pairs_with_zeros, np.array([1.0, np.nan]))
    text = message(pairs_with_zeros, np.array([1.0, np.nan]), backend="jax")
    assert "found a NaN when the graph ran" in text and "test_jax11.py:" in text, text


def johnson_two_machines(a, b):
    first = sorted([i for i in range(len(a)) if a[i] <= b[i]], key=lambda i: a[i])
    last = sorted([i for i in range(len(a)) if a[i] > b[i]], key=lambda i: -b[i])
    return first + last


def test_sorted_by_key_of_a_run_time_list_names_its_length_on_jax():
    a, b = np.array([3, 1, 4, 1, 5]), np.array([2, 7, 1, 8, 2])
    follows_the_rule(johnson_two_machines, a, b)
    text = message(johnson_two_machines, a, b, backend="jax")
    # (the length, not "may hold no items": a first item would not make it run)
    assert "whose length depends on the data" in text and "test_jax11.py:" in text, text


# --- max() / min() of a run-time list with a default= number -------------------------------------


def extremes_of_a_slice(y):
    pts = [0.5, 0.25]
    for v in y:
        pts.append(float(v))
    return max(pts[2:], default=0.0), min(pts[3:], default=-1.0)


def extremes_or_defaults(y):
    out, ints = [], []
    for v in y:
        if v > 2:
            out.append(v)
            ints.append(int(v))
    return max(out, default=0), min(out, default=np.int64(7)), max(ints, default=-1)


def extreme_of_floats(y):
    out = []
    for v in y:
        if v > 2:
            out.append(float(v))
    return max(out, default=0.5), min(out, default=float("inf"))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn", [extremes_of_a_slice, extremes_or_defaults, extreme_of_floats], ids=lambda f: f.__name__
)
def test_max_and_min_with_a_default(fn, backend):
    for y in (np.array([2, 5, 0]), np.array([1]), np.array([4, 3])):
        follows_the_rule(fn, y, backend=backend)


def int_max_or_a_half(y):
    out = []
    for v in y:
        if v > 2:
            out.append(v)
    return max(out, default=0.5)


def test_a_default_the_items_dtype_cannot_hold_is_a_clear_error_on_jax():
    follows_the_rule(int_max_or_a_half, np.array([1]))
    text = message(int_max_or_a_half, np.array([1]), backend="jax")
    assert "a `default=` number of their dtype" in text and "test_jax11.py:" in text, text
