"""Programs of the classes batch 11 found (tools/fresh_batch11_findings.md), written anew for
each class, run eagerly and as one graph function on every input, on both backends: where the
JAX backend cannot lower a construct, its documented LoweringError naming the user's line.

- W1: a conditional expression choosing between two lists of Tensors, returned (the caller
  got autoconv's Tensor objects).
- W2 / C1: `==` / `!=` of a list made in place (display, `sorted`, `list`, `.tolist()`) with
  another list: a helper's run-time list (compared by its stand-in's length), or a list of
  Tensors (an item's comparison taken as a Python bool).
- E1: an `assert` on data in a `try` body whose `except AssertionError` handles it.
- C2: `acc[i] += v` of a row of a NumPy array made in the function, `v` a Tensor.
- W3 (found minimizing C2): `rows += 0.5` of a row, slice or mask's selection of an int array
  gave a cast value where eager NumPy raises its casting error.
- C3: `max(d.values())`, `min`, of a dict holding Tensor values.
- C4: a `math` function in a `key=` lambda of `max`, `min` or `sorted`.
- C7: a value-or-None appended under `if v is not None:` (a number, not a value-or-None).
- C10: worklist deques bound by one tuple assignment (`hi, lo = deque(), deque()`).
- H (found by tests/graph/test_generated_graphs.py once its f-strings were valid 3.11): an
  unused item of a run-time list read past its end (`t = sorted(vals)[len(vals) // 2]`)
  returned where eager raises IndexError.
- E2 (run 2): a value-or-None given to a NumPy function that takes None (`range=`, `a_max`):
  the graph raised "is None here" where eager passes None on.
"""

import math
from collections import deque

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_or_jax_limit, follows_the_rule

P = []


def prog(*inputs):
    def add(f):
        P.append((f, inputs))
        return f

    return add


# W1 ------------------------------------------------------------------------------------------


@prog(np.array([1.0, 2.0, 3.5]), np.array([-1.0, 0.0, 1.0]), np.zeros(3))
def shares_or_raw(x):
    bins = [0.0, 0.0]
    for a in x:
        bins[int(abs(a)) % 2] += a
    total = sum(bins)
    return [round(b / total, 4) for b in bins] if total else bins


@prog(np.array([2.0, 5.0]), np.array([-2.0, 5.0]))
def doubled_first_or_same(x):
    pair = [x[0], x[1]]
    chosen = [pair[0] * 2, pair[1]] if x[0] > 0 else pair
    return chosen, {"chosen": chosen}, (len(chosen), chosen)


# W2 / C1 -------------------------------------------------------------------------------------


def _expand(runs):
    out = []
    for v, n in runs:
        out.extend([v] * n)
    return out


@prog(np.array([1, 1, 2, 2, 2, 0]), np.array([5]), np.array([3, 4]))
def run_length_round_trip(a):
    runs = []
    for v in a.tolist():
        if runs and runs[-1][0] == v:
            runs[-1][1] += 1
        else:
            runs.append([v, 1])
    back = _expand(runs)
    return back == a.tolist(), back != a.tolist(), a.tolist() == back


@prog(np.array([3, 2]), np.array([3, 1]), np.array([2, 0]))
def repeated_equals_display(a):
    back = []
    back.extend([a[0]] * a[1])
    return back == [3, 3], [3] != back


@prog(np.array([3, 1, 2]), np.array([1, 2, 2]), np.array([2, 1, 3]))
def is_permutation_of_range(x):
    return sorted(x.tolist()) == [1, 2, 3], list(range(1, 4)) == x.tolist(), [1, 2] == [3]


@prog(np.array([1.0, 2.0, 2.0, 5.0]), np.array([0.0, 0.0, 9.0, 9.0]))
def hand_histogram_matches(x):
    counts = [0, 0]
    for v in x:
        counts[int(v > x.mean())] += 1
    ref = [int(np.sum(x <= x.mean())), int(np.sum(x > x.mean()))]
    return counts == ref, counts == np.bincount(x > 2, minlength=2).tolist()


# E1 ------------------------------------------------------------------------------------------


@prog(np.array([1.0, 4.0]), np.array([1.0, -4.0]), np.array([-9.0]))
def roots_or_message(x):
    try:
        assert (x >= 0).all(), "negative input"
        return np.sqrt(x)
    except AssertionError:
        return "negative input"  # (pytest rewrites this file's asserts' messages)


@prog(np.array([2.0, 1.0]), np.array([-2.0, 1.0]))
def checked_count(x):
    n = 0
    try:
        assert x[0] > 0
        n = 1
    except AssertionError:
        n = -1
    return n


# C2 ------------------------------------------------------------------------------------------


@prog(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]]), np.array([[1.0, 1.0]]))
def pull_towards_others(pos):
    n = pos.shape[0]
    acc = np.zeros((n, 2))
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            acc[i] += pos[j] - pos[i]
        acc[i, :] *= 0.5
    return acc


@prog(np.array([[1.5, 2.0]]), np.array([[1.0, 2.0]]))
def int_rows_cannot_take_floats(x):
    acc = np.zeros((2, 2), dtype=int)
    acc[1] += int(x[0, 1])
    acc[0] += x[0]  # NumPy's casting error (float64 into int64), as eagerly
    return acc


@prog(np.array([[1.5, 2.0], [3.0, 4.0]]), np.array([[1.0, 2.0]]))
def int_copy_rows_and_masks(x):
    acc = x.astype(int)
    acc[0, 0] += x[0, 0]  # one item: a NumPy scalar's result, stored with a cast
    acc[acc > 1] *= 2
    if acc[0, 0] > 2:
        acc[acc > 2] -= 1
    acc[acc > 3] += 0.5  # eagerly NumPy's casting error: not silently cast
    return acc


# C3 ------------------------------------------------------------------------------------------


@prog(np.array([3, 2, 4]), np.array([1, 1, 1]))
def latest_finish(durations):
    finish = {}
    for i in range(len(durations)):
        start = max((finish[d] for d in range(max(0, i - 2), i)), default=0)
        finish[i] = start + int(durations[i])
    return max(finish.values()), min(finish.values()), max(finish.keys())


# C4 ------------------------------------------------------------------------------------------


@prog(np.array([[0.0, 0.0], [3.0, 4.0], [-2.0, 0.5]]), np.array([[1.0, 1.0]]))
def farthest_and_nearest(pts):
    points = [(float(a), float(b)) for a, b in pts]
    far = max(points, key=lambda p: math.hypot(p[0], p[1]))
    near = min(points, key=lambda p: math.sqrt(p[0] ** 2 + p[1] ** 2))
    order = sorted(points, key=lambda p: math.atan2(p[1], p[0]))
    return far, near, order


# C7 ------------------------------------------------------------------------------------------


@prog(np.array([4, 2, 9, 1, 0, 9, 9]), np.array([9, 9]), np.array([7]), np.zeros(0, dtype=int))
def numbers_between_nines(digits):
    nums = []
    cur = None
    for d in digits:
        if d == 9:
            if cur is not None:
                nums.append(cur)
            cur = None
        else:
            cur = int(d) if cur is None else cur * 10 + int(d)
    if cur is not None:
        nums.append(cur)
    return nums, sum(nums), max(nums, default=-1)


@prog(np.array([1.0, 3.0, 2.0, 5.0]), np.array([2.0]))
def rises_from_previous(x):
    out = []
    prev = None
    for v in x:
        if prev is None:
            pass
        else:
            out.append(v - prev)
        prev = v
    return out, np.array(out).sum() if out else 0.0


# E2 ------------------------------------------------------------------------------------------


@prog(np.array([1.0, 2.0, 5.0, 2.5]), np.array([3.0, 3.0]), np.array([0.5]))
def histogram_over_span_or_default(x):
    lo, hi = x.min(), x.max()
    counts, edges = np.histogram(x, bins=3, range=(lo, hi) if hi > lo else None)
    return counts, edges.round(6)


@prog(np.array([1.0, 2.0, 5.0]), np.array([-1.0, 4.0]))
def clip_to_bound_if_any(x):
    bound = x.max() / 2 if x[0] > 0 else None
    return np.clip(x, 0.0, bound), np.clip(x, None, 3.0)


@prog(np.array([1.0, 2.0]), np.array([-1.0, 2.0]))
def none_in_arithmetic_still_raises(x):
    m = x.max() if x[0] > 0 else None
    return np.add(x, m)  # eagerly a TypeError where m is None


# C10 -----------------------------------------------------------------------------------------


@prog(np.array([1.0, 3.0, 2.0, 5.0, 4.0, 0.5]), np.array([2.0]), np.zeros(0))
def window_extremes_two_deques(x):
    hi, lo = deque(), deque()
    out = []
    for i, v in enumerate(x):
        while hi and x[hi[-1]] <= v:
            hi.pop()
        while lo and x[lo[-1]] >= v:
            lo.pop()
        hi.append(i)
        lo.append(i)
        if hi[0] <= i - 3:
            hi.popleft()
        if lo[0] <= i - 3:
            lo.popleft()
        out.append((float(x[hi[0]]), float(x[lo[0]])))
    return out


# H -------------------------------------------------------------------------------------------


@prog(np.array([1.5, -0.5, 0.0]), np.array([-1.0, -2.0]))
def unused_middle_of_negatives(x):
    vals = []
    if np.sum(x) < 0:
        for v in x:
            if v < 0:
                vals.append(v)
    t = sorted(vals)[len(vals) // 2]  # noqa: F841 (eagerly IndexError where vals is empty)
    return x * 2


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f,inputs", P, ids=[f.__name__ for f, _ in P])
def test_program(f, inputs, backend):
    for x in inputs:
        follows_or_jax_limit(f, x, backend=backend)


@pytest.mark.parametrize("f,inputs", P, ids=[f.__name__ for f, _ in P])
def test_program_numpy_strict(f, inputs):
    """On the NumPy backend every program runs: eager's answer, or eager's exception."""
    for x in inputs:
        follows_the_rule(f, x)
