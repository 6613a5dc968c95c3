"""The open classes of the last round (issue 24, task left12), each by its mechanism:

- C5, J4: a run-time list whose items are all Python numbers of one type gives that type on a
  read (`ops.pop()`, `xs[0]`, `sum(...)`) while tracing (trace/tensors/item_kinds.py);
- C9: a string bound on one path and not yet bound on the other is a may-be-unbound value, as
  a number is (a staged `try`'s statements after a failure point);
- `(v, n), = c.most_common(1)` and other unpackings of a method's result (`ac.unpack`);
- H7: a union (a function's result of two kinds by path) keeps the kind of a number whose
  Python type is its path's;
- JC2: `math.isqrt` of a run-time int on JAX.
"""

import heapq
import math
from collections import Counter

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule


def c5(x):
    ops, out = [], []
    for v in x:
        if v > 0:
            out.append((0, int(v)))
        else:
            ops.append(int(v))
    while ops:
        out.append((ops.pop(), 0))
    return out


def c5_in_the_loop(x):
    ops, out = [], []
    for v in x:
        if v > 2:
            out.append((0, int(v)))
        else:
            ops.append(int(v))
            if len(ops) > 1:
                out.append((ops.pop(), 1))
    while ops:
        out.append((ops.pop(), 0))
    return out


def popped_floats_in_tuples(x):
    q = []
    for v in x:
        q.append(float(v) / 2)
    t = []
    while q:
        t.append((q.pop(), 0.0))
    return t


def j4(x):
    hits = sum(1 for v in x if v > 0)
    return np.float32(1.5) + hits, hits


def counts_in_a_tuple(x):
    n = sum(1 for v in x if v > 0)
    m = sum(1 for v in x if v < 0)
    return (n, m, np.float32(0.5) * n)


def float32_meets_items(x):
    vals = []
    for v in x:
        if v > 0:
            vals.append(float(v))
    if vals:
        return x[0] * vals[-1], max(vals)
    return x[0], 0.0


def heap_of_floats_meets_float32(x):
    h = []
    for v in x:
        heapq.heappush(h, float(v))
    s = heapq.heappop(h)
    return x[0] * s, s


def mixed_kinds(x):
    # (a Python int on one path, an np.int64 on the other: each item keeps its own type)
    vals = []
    for v in x:
        if v > 0:
            vals.append(int(v))
        else:
            vals.append(v)
    out = []
    while vals:
        out.append(vals.pop())
    return out


INTS = [(np.array([3, -1, 4, -2]),), (np.array([1, 2]),), (np.array([-1, -3]),)]
FLOAT32 = [(np.array([3.0, -1, 4, -2], np.float32),), (np.array([-1.0], np.float32),)]
PY_KINDS = [
    (c5, INTS),
    (c5_in_the_loop, [(np.array([3, 1, 4, 2]),), (np.array([5]),)]),
    (popped_floats_in_tuples, [(np.array([3.0, 1, 4, 2]),), (np.array([5.0]),)]),
    (j4, INTS),
    (counts_in_a_tuple, INTS),
    (float32_meets_items, FLOAT32),
    (heap_of_floats_meets_float32, FLOAT32),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn, inputs", PY_KINDS, ids=[p[0].__name__ for p in PY_KINDS])
def test_items_of_one_python_kind(fn, inputs, backend):
    for args in inputs:
        follows_the_rule(fn, *args, backend=backend)


def test_items_of_kinds_by_path_keep_each_its_own():
    for args in INTS:
        follows_the_rule(mixed_kinds, *args)


def c9(x):
    try:
        assert x[0] > 0
        r = "ok"
    except AssertionError:
        r = "caught"
    return r


def c9_raise(x):
    try:
        if not x[0] > 0:
            raise ValueError("negative")
        r = "ok"
    except ValueError:
        r = "bad"
    return r


def c9_tuple(x):
    try:
        assert x[0] > 0
        r = ("ok", x[0])
    except AssertionError:
        r = ("caught", -x[0])
    return r


def c9_two(x):
    try:
        assert x[0] > 0
        a = "ok"
        assert x[1] > 0
        b = "ok2"
    except AssertionError:
        a = "no"
        b = "no2"
    return a + b


def c9_in_a_loop(x):
    out = []
    for v in x:
        try:
            if v < 0:
                raise ValueError("negative")
            tag = "ok"
        except ValueError:
            tag = "err"
        out.append((tag, v))
    return out


def bound_on_one_path(x):
    if x[0] > 0:
        r = "ok"
    return r  # noqa: F821 - eager raises UnboundLocalError where it is not bound


ONE_PATH = [c9, c9_raise, c9_tuple, c9_two, c9_in_a_loop, bound_on_one_path]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", ONE_PATH, ids=[f.__name__ for f in ONE_PATH])
def test_a_string_bound_on_one_path(fn, backend):
    for x in (np.array([1.0, 2.0]), np.array([-1.0, 2.0]), np.array([1.0, -2.0])):
        follows_the_rule(fn, x, backend=backend)


def most_common_one(x):
    c = Counter()
    for v in x:
        c[int(v)] += 1
    ((v, n),) = c.most_common(1)
    return v, n


def most_common_two(x):
    c = Counter()
    for v in x:
        c[int(v)] += 1
    (v1, n1), (v2, n2) = c.most_common(2)
    return v1, n1, v2, n2


def sorted_starred(x):
    vals = []
    for v in x:
        vals.append(int(v))
    lo, *mid, hi = sorted(vals)
    return lo, hi, len(mid)


def copy_starred(x):
    vals = []
    for v in x:
        if v > 2:
            vals.append(float(v))
    a, *rest = vals.copy()
    return a, rest


UNPACKS = [
    (most_common_one, [(np.array([3, 1, 3, 2]),), (np.array([5, 5]),)]),
    (most_common_two, [(np.array([3, 1, 3, 2]),), (np.array([5, 5]),)]),
    (sorted_starred, [(np.array([3, 1, 3, 2]),), (np.array([5, 4]),), (np.array([5]),)]),
    (copy_starred, [(np.array([3, 1, 3, 2]),), (np.array([1, 1]),)]),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn, inputs", UNPACKS, ids=[p[0].__name__ for p in UNPACKS])
def test_unpacking_a_methods_run_time_list(fn, inputs, backend):
    for args in inputs:
        follows_the_rule(fn, *args, backend=backend)


def h7(x, s):
    t = 0
    m2 = [[0.0, 0.0]]
    if x[0] <= 1:
        return (m2, 0.0)
    if x[0] < 1.5:
        return (t, x)
    if x[0] > 2:
        m2[0][0] += s
    return (m2, 0.0)


def h7_scaled(x, s):
    m = [[0.0], [1.0]]
    if x[0] <= 1:
        return 0
    if x[0] > 2:
        m[1][0] *= s
    return m


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [h7, h7_scaled])
def test_a_union_keeps_a_numbers_kind_by_path(fn, backend):
    for x in (np.array([2.0]), np.array([3.0]), np.array([1.2]), np.array([0.5])):
        follows_the_rule(fn, x, np.float64(-2.0), backend=backend)


def isqrt_each(x):
    return [math.isqrt(int(v)) for v in x]


def isqrt_caught(x):
    out = []
    for v in x:
        try:
            out.append(math.isqrt(int(v)))
        except ValueError:
            out.append(-1)
    return out


def isqrt_of_a_float_in_a_branch(x):
    if x[0] > 10:
        return math.isqrt(x[0] * 0.5)  # eager TypeError, where the branch runs
    return 1


BIG = np.array([2**63 - 1, 2**62, 2**62 - 1, 3037000499**2, 3037000499**2 - 1, 10**18 - 1])


@pytest.mark.parametrize("backend", BACKENDS)
def test_isqrt_of_a_run_time_int(backend):
    for x in (np.array([0, 1, 2, 3, 4, 15, 16, 17]), BIG, np.array([9, -4])):
        follows_the_rule(isqrt_each, x, backend=backend, text=True)
        follows_the_rule(isqrt_caught, x, backend=backend)
    for x in (np.array([4]), np.array([40])):
        follows_the_rule(isqrt_of_a_float_in_a_branch, x, backend=backend, text=True)


def test_a_read_of_python_ints_is_a_python_int_while_tracing():
    # (the graph: no kind tag for the popped item, `int` among its outputs' specs)
    c = autoconv.function(c5).get_concrete_function(np.array([3, -1]))
    assert "kind_index" not in c.graph.as_text()


def lindley_waits(inter, serv):
    # 50 unrolled appends of a value a staged `max` chooses: the kinds of the list's items are
    # read from a graph whose list versions join at every step (once walked 2**50 times)
    w = 0.0
    waits = [w]
    for i in range(1, 50):
        w = max(0.0, w + serv[i - 1] - inter[i])
        waits.append(w)
    return max(waits), sum(1 for v in waits if v > 0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_kinds_of_a_list_grown_through_many_joins(backend):
    rng = np.random.default_rng(41)
    follows_the_rule(
        lindley_waits,
        rng.exponential(1.25, size=50),
        rng.exponential(1.0, size=50),
        backend=backend,
    )
