"""Items written into lists a staged loop appends to, and what such lists keep.

`counts[-1] += 1` in one branch and `counts.append(1)` in the other (run-length encoding) write
an item of a list whose length only the run knows: the write is a `setitem` of the run-time
list, and the branch merge keeps the one list object. Items appended with a Python type that
depends on the path (`100.0 if l == 0 else g / l`) keep each path's type on the NumPy backend;
a list method in a branch (`dq.pop(0)`) makes the list one run-time list on both paths;
the JAX backend, one buffer per list, says it cannot. A node keeps the list its call was given
as it was then (`np.stack(lst)` in a branch that raises, `lst` changed afterwards).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule

HAS_JAX = "jax" in BACKENDS


def run_lengths(seq):
    values = [seq[0]]
    counts = [1]
    for v in seq[1:]:
        if v == values[-1]:
            counts[-1] += 1
        else:
            values.append(v)
            counts.append(1)
    return values, counts


def clip_last(x):
    out = []
    for v in x:
        out.append(v)
        if v < 0:
            out[-1] = 0.0
    return out


def clip_last_numpy(x):
    out = []
    for v in x:
        out.append(v)
        if v < 0:
            out[-1] = np.float64(0.0)  # of the appended items' type
    return out


def merge_positive_runs(x):
    stack = []
    for v in x:
        if stack and v > 0:
            stack[-1] += v
        else:
            stack.append(v)
    return stack


def write_past_the_end(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    out[2] = 1.0
    return out


def rsi(p, n):
    gains = []
    for a, b in zip(p[:-1], p[1:]):
        gains.append(max(b - a, 0.0))  # a Python float or an np.float64, by the path
    out = []
    for t in range(n, len(gains) + 1):
        g = np.mean(gains[t - n : t])  # NumPy of a slice of a run-time list
        out.append(100.0 if g == 0 else g)
    return gains, out


def rolling_max(x, k):
    dq = []  # indices of a decreasing run: a list method in a branch makes it one list
    out = []
    for i, v in enumerate(x):
        while dq and x[dq[-1]] <= v:
            dq.pop()
        dq.append(i)
        if dq[0] <= i - k:
            dq.pop(0)
        if i >= k - 1:
            out.append(x[dq[0]])
    return out


def matrix_rank(A):
    M = A.copy()
    rank = 0
    rows, cols = M.shape
    for c in range(cols):
        pivot = None
        for r in range(rank, rows):
            if abs(M[r, c]) > 1e-10:
                pivot = r
                break
        if pivot is None:
            continue
        M[[rank, pivot]] = M[[pivot, rank]]  # `pivot`: a value or None by the path
        M[rank] = M[rank] / M[rank, c]
        for r in range(rows):
            if r != rank:
                M[r] = M[r] - M[r, c] * M[rank]
        rank += 1
    return rank


def appended_in_an_inner_loop(x):
    rows = []  # empty before the branch, one run-time list after its inner loop: appends
    for c, v in enumerate(x):
        if v > 0:
            for _ in range(c):
                rows.append(v)
            if np.any(x < 0):
                break
    return len(rows)


def stack_in_a_raising_branch(x):
    lst = []
    if np.any(x < 0):
        return (np.stack(lst),)  # ValueError eagerly: no arrays to stack
    lst.append(np.sum(x))
    return (np.stack(lst),)


ints = st.lists(st.integers(-2, 2), min_size=1, max_size=7).map(np.array)
floats = st.lists(st.sampled_from([-1.5, 0.0, 2.0, 3.0]), max_size=7).map(np.array)


@settings(max_examples=25, deadline=None)
@given(seq=ints)
def test_run_lengths(seq):
    follows_the_rule(run_lengths, seq)


@settings(max_examples=25, deadline=None)
@given(x=floats)
def test_last_item_written_in_a_branch(x):
    follows_the_rule(clip_last, x)
    follows_the_rule(clip_last_numpy, x)
    follows_the_rule(merge_positive_runs, x)
    follows_the_rule(write_past_the_end, x)


@settings(max_examples=20, deadline=None)
@given(
    x=st.lists(st.integers(0, 9), max_size=8).map(lambda v: np.array(v, float)), k=st.integers(1, 3)
)
def test_a_method_in_a_branch_makes_the_list_one(x, k):
    follows_the_rule(rolling_max, x, k)


@pytest.mark.parametrize("x", [np.array([-2.0, -2.0, 0.5]), np.array([1.0, 2.0, 3.0])])
def test_a_list_an_inner_loop_appends_to(x):
    follows_the_rule(appended_in_an_inner_loop, x)


@pytest.mark.parametrize(
    "A", [np.eye(3), np.zeros((2, 3)), np.array([[0.0, 1.0], [2.0, 4.0], [1.0, 2.0]])]
)
def test_an_index_list_with_a_value_or_none(A):
    follows_the_rule(matrix_rank, A)


@pytest.mark.parametrize(
    "p", [np.array([1.0, 4.0, 0.0, 9.0, 3.0]), np.full(4, 3.0), np.array([2.0])]
)
def test_items_keep_each_paths_python_type(p):
    follows_the_rule(rsi, p, 2)


@pytest.mark.parametrize("x", [np.array([-2.0]), np.array([2.0, 1.0])])
def test_a_node_keeps_its_arguments_as_they_were(x):
    follows_the_rule(stack_in_a_raising_branch, x)


@pytest.mark.skipif(not HAS_JAX, reason="jax is not installed")
def test_jax_backend_item_writes():
    x = np.array([1.0, -2.0, 3.0])
    follows_the_rule(clip_last_numpy, x, backend="jax")
    follows_the_rule(clip_last_numpy, np.zeros(0), backend="jax")
    follows_the_rule(merge_positive_runs, x, backend="jax")
    follows_the_rule(rolling_max, np.array([1.0, 3.0, 2.0, 5.0, 4.0, 1.0]), 3, backend="jax")
    follows_the_rule(stack_in_a_raising_branch, np.array([-2.0]), backend="jax")
    follows_the_rule(stack_in_a_raising_branch, np.array([2.0, 1.0]), backend="jax")


@pytest.mark.skipif(not HAS_JAX, reason="jax is not installed")
def test_jax_backend_says_when_a_list_mixes_python_types():
    # eagerly `gains` holds np.float64 items and Python floats (max(..., 0.0)): one buffer
    # cannot keep which is which, so the JAX backend says so, at the append.
    with pytest.raises(autoconv.AutoconvError) as info:
        autoconv.function(rsi, backend="jax")(np.array([1.0, 4.0, 0.0, 9.0]), 2)
    text = str(info.value)
    assert "test_run_time_list_writes.py:" in text and "several Python types" in text
    with pytest.raises(autoconv.AutoconvError, match="several Python types"):
        autoconv.function(clip_last, backend="jax")(np.array([1.0, -2.0, 3.0]))
