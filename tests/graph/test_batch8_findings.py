"""What the eighth fresh batch found (tools/fresh_batch8.py, tools/fresh_batch8_findings.md):
each wrong-result and crash class's minimal program, run eagerly and as `autoconv.function(f)`
(on NumPy, and on JAX where it is installed and the class is the same there). Each open class
is a strict xfail naming the class, checked to fail; a fix turns it into a plain test, and a
class that became a clear, documented error checks that error's message.
"""

from collections import Counter, deque

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule, message


def xfail(why):
    return pytest.mark.xfail(strict=True, reason=why)


# W1 (wrong): collections.Counter of values known only when the graph runs counts every item
# once (mode_and_entropy, top_k_frequent); a plain dict tally is right.
def counter_tally(a):
    c = Counter(int(v) for v in a)
    return c.most_common(1)[0]


def counter_of_tolist(a):
    return sorted(Counter(a.tolist()).items())


# (a clear, documented error on main since 1b88155's merge: it was a wrong value; counted when
# the graph runs since task tally9)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [counter_tally, counter_of_tolist])
def test_counter_of_run_time_values(fn, backend):
    # (`sorted` of the pairs runs on JAX too since jax11)
    follows_the_rule(fn, np.array([3, 1, 3, 2, 3]), backend=backend)


# W2 (wrong): a set made from rows of an array the function wrote into, united with another,
# holds nothing `in` finds (sudoku_candidates).
def set_union_of_rows(b, r, c):
    b = b.copy()
    b[r, c] = 0
    used = set(b[r]) | set(b[:, c])
    return sorted(v for v in range(1, 5) if v not in used)


# (fixed on main, merged at 8bca119)
@pytest.mark.parametrize("backend", BACKENDS)
def test_set_union_of_array_rows(backend):
    b = np.array([[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]])
    follows_the_rule(set_union_of_rows, b, 0, 0, backend=backend)


# W3 (wrong): `(pos if v > 0 else neg).append(v)` in a staged loop loses every append
# (pulse_train_stats).
def append_to_chosen_list(x):
    pos, neg = [], []
    for v in x:
        (pos if v > 0 else neg).append(float(v))
    return len(pos), len(neg)


# (a clear, documented error on main, merged at 8bca119: it was a wrong value)
@pytest.mark.parametrize("backend", BACKENDS)
def test_append_to_a_list_chosen_by_a_condition(backend):
    text = message(append_to_chosen_list, np.array([1.0, -2.0, 3.0]), backend=backend)
    assert "the conditional expression chooses between two lists" in text


# W4 (wrong): a list a filtered comprehension made, compared with `==` to its reverse, is True
# (is_code_palindrome).
def list_eq_reversed(x):
    kept = [v for v in x if v != 0]
    return kept == kept[::-1]


# (fixed on main, merged at 8bca119; on JAX since jax9: np.array_equal of mask selections)
def test_list_equals_its_reverse():
    follows_the_rule(list_eq_reversed, np.array([1, 2, 3]))


@pytest.mark.skipif("jax" not in BACKENDS, reason="the JAX backend is optional")
@pytest.mark.parametrize("x", [np.array([1, 2, 3]), np.array([1, 0, 1]), np.array([0])])
def test_list_equals_its_reverse_on_jax(x):
    follows_the_rule(list_eq_reversed, x, backend="jax")


# W5 (wrong): a collections.deque of tuples as a worklist (`while q and q[0][0] == day:
# q.popleft()`) takes none of its items (inventory_with_lead_time).
def deque_of_tuples(x):
    q = deque()
    got = 0
    for day, d in enumerate(x):
        while q and q[0][0] == day:
            got += q.popleft()[1]
        if d > 2 and not q:
            q.append((day + 1, 5))
    return got


# (a clear error at 8bca119; runs since main 01d6ccc: a deque worklist is a list while traced)
@pytest.mark.parametrize("backend", BACKENDS)
def test_deque_of_tuples_worklist(backend):
    follows_the_rule(deque_of_tuples, np.array([3, 0, 0, 1]), backend=backend)


# E1 (crash): a list sized by a run-time int after an early `return` in a staged `if`:
# NameError("cannot access free variable 'can' ...") from converted code
# (partition_equal_subset).
def early_return_then_list(a):
    total = int(a.sum())
    if total % 2:
        return False
    target = total // 2
    can = [False] * (target + 1)
    can[0] = True
    for x in a:
        for s in range(target, int(x) - 1, -1):
            if can[s - x]:
                can[s] = True
    return can[target]


# (fixed on main, merged at 8bca119)
@pytest.mark.parametrize("backend", BACKENDS)
def test_list_sized_by_data_after_an_early_return(backend):
    follows_the_rule(early_return_then_list, np.array([1, 5, 11, 5]), backend=backend)


# E2 (crash): `g.tobytes()` of a Tensor is a bare AttributeError (life_period_detect keys a dict
# of boards by it to find a cycle).
def tensor_tobytes(g):
    seen = {g.tobytes(): 0}
    return len(seen)


# (a clear, documented error on main, merged at 8bca119: it was a bare AttributeError)
@pytest.mark.parametrize("backend", BACKENDS)
def test_tobytes_of_a_tensor(backend):
    text = message(tensor_tobytes, np.zeros((2, 2)), backend=backend)
    assert "ndarray.tobytes()" in text


# JW1 (wrong, JAX only): a list reset (`cur = []`) in a staged branch of a loop that appends to
# it after the branch keeps its old length on JAX: `len(cur)` after the loop counts every item
# appended (elevator_batches: [3, 2, 6] for eager's [3, 2, 1]). The NumPy backend is right.
def reset_list_len(x):
    out = []
    cur = []
    for t in x:
        if cur and t - cur[0] > 2.0:
            out.append(len(cur))
            cur = []
        cur.append(t)
    out.append(len(cur))
    return out


def test_reset_list_len_on_numpy():
    follows_the_rule(reset_list_len, np.array([1.0, 1.5, 5.0, 9.0]))


# (fixed on main, fcf1c1b)
@pytest.mark.skipif("jax" not in BACKENDS, reason="the JAX backend is optional")
def test_reset_list_len_on_jax():
    follows_the_rule(reset_list_len, np.array([1.0, 1.5, 5.0, 9.0]), backend="jax")


# G1 (wrong exception type, found by tests/graph/test_generated_graphs.py after merging main,
# not by the batch): a staged `raise` under a run-time condition, then `lst[-1]` of an empty
# list: eager raises the ValueError first; the graph raises IndexError while tracing. The docs
# say Python's own errors on values known while tracing are staged where that code runs.
def raise_then_empty_list_item(a):
    lst = []
    if np.any(a < 0):
        raise ValueError("bad input")
    return a, lst[-1]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("x", [np.array([-2.0]), np.array([2.0])], ids=str)
def test_staged_raise_before_an_empty_list_item(x, backend):
    # fixed: the IndexError a runtime operator raised for the user's read is staged to fire
    # when the graph reaches it, after the ValueError's test
    follows_the_rule(raise_then_empty_list_item, x, backend=backend)
