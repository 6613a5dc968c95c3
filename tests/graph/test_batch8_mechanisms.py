"""Batch 8's wrong result W2 and crashes E1, E2, as mechanisms: set algebra of sets the
function makes from arrays (`set(b[r]) | set(b[:, c])`), a list made and item-written inside a
staged branch after an early `return`, and ndarray methods graph mode has no form of."""

import math

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule, message

B = np.array([[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]])


def sudoku_candidates(b, r, c):
    b = b.copy()
    b[r, c] = 0
    used = set(b[r]) | set(b[:, c])
    return sorted(v for v in range(1, 5) if v not in used)


def set_algebra_of_made_sets(b, r):
    row, col = set(b[r]), set(b[:, r])
    both = set(b[r]) & set(b[:, r])
    only = set(b[r]) - {1, 2}
    return len(row | col), sorted(both), sorted(only), 3 in (set(b[r]) ^ set(b[:, 0]))


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


def made_in_branch_written(x):
    if x[0] > 0:
        out = [0.0, 0.0]
        out[1] = float(x[1])
        return out[0] + out[1]
    return -1.0


CASES = [
    (sudoku_candidates, (B, 0, 0)),
    (sudoku_candidates, (B, 2, 3)),
    (set_algebra_of_made_sets, (B, 1)),
    (early_return_then_list, (np.array([1, 5, 11, 5]),)),
    (early_return_then_list, (np.array([1, 2]),)),
    (early_return_then_list, (np.array([2, 3, 5]),)),
    (made_in_branch_written, (np.array([1.0, 2.5]),)),
    (made_in_branch_written, (np.array([-1.0, 2.5]),)),
]


@pytest.mark.parametrize("fn,args", CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_runs_as_eagerly(fn, args):
    follows_the_rule(fn, *args)


@pytest.mark.parametrize("backend", BACKENDS)
def test_early_return_then_list_on_each_backend(backend):
    follows_the_rule(early_return_then_list, np.array([1, 5, 11, 5]), backend=backend)


def tobytes_key(g):
    seen = {g.tobytes(): 0}
    return len(seen)


def test_tobytes_is_a_clear_error():
    text = message(tobytes_key, np.zeros((2, 2)))
    assert "ndarray.tobytes() of `g`" in text and "np.array_equal" in text
    assert "test_batch8_mechanisms.py:" in text
    with pytest.raises(AttributeError):  # eager NumPy's kind of error, as an AutoconvError
        autoconv.function(tobytes_key)(np.zeros((2, 2)))


def reset_list_len(x):
    out = []
    cur = []
    for t in x:
        if cur and t - cur[0] > 2.0:
            out.append(len(cur))
            cur = []  # made anew on one path: the JAX backend's count is not a sum of appends
        cur.append(t)
    out.append(len(cur))
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "x", [np.array([1.0, 1.5, 5.0, 9.0]), np.array([1.0, 2.0]), np.zeros(0)], ids=str
)
def test_a_list_made_anew_in_a_loop(x, backend):
    follows_the_rule(reset_list_len, x, backend=backend)


class Grid:
    def __init__(self):
        self.g = np.zeros((2, 2), dtype=int)

    def add(self, r, c):
        if 0 <= r < 2 and 0 <= c < 2:
            self.g[r, c] += 1


def heatmap(pts):
    h = Grid()
    for r, c in pts:
        h.add(r, c)  # an attribute's array written under a staged `if`, in a staged loop
    return h.g


def attribute_written_in_branch(pts):
    h = Grid()
    for r, c in pts:
        if r < 2:
            h.g[r, c] += 1
    return h.g


def attribute_also_named(pts):
    shared = np.zeros((2, 2), dtype=int)
    h = Grid()
    h.g = shared  # another name sees the array: writing it in place stays the clear error
    for r, c in pts:
        if r < 2:
            h.g[r, c] += 1
    return shared


PTS = np.array([[0, 1], [1, 1], [0, 1], [5, 0]])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [heatmap, attribute_written_in_branch])
def test_an_attributes_array_written_in_a_loop(fn, backend):
    follows_the_rule(fn, PTS, backend=backend)


def test_an_attributes_array_another_name_sees():
    text = message(attribute_also_named, PTS)
    assert "writes into the NumPy array `h.g`" in text and "h.g = h.g.copy()" in text


def prim_mst_weight(W):
    n = W.shape[0]
    in_tree = [False] * n
    key = [math.inf] * n
    key[0] = 0.0
    total = 0.0
    for _ in range(n):
        # a key function reading a list at the run-time items of a filtered generator
        u = min((k for k in range(n) if not in_tree[k]), key=lambda k: key[k])
        in_tree[u] = True
        total += key[u]
        for v in range(n):
            if W[u, v] > 0 and not in_tree[v] and W[u, v] < key[v]:
                key[v] = W[u, v]
    return total


MST = np.array([[0, 2, 0, 6], [2, 0, 3, 8], [0, 3, 0, 0], [6, 8, 0, 0]], dtype=float)


def test_a_key_function_reads_a_list_at_run_time_items():
    follows_the_rule(prim_mst_weight, MST)


def run_length_string(codes):
    parts = []
    i = 0
    while i < len(codes):
        j = i
        while j < len(codes) and codes[j] == codes[i]:
            j += 1
        parts.append(f"{j - i}{chr(codes[i])}")  # after a staged inner loop: a tail item
        i = j
    return "".join(parts)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("x", [np.array([97, 97, 98]), np.array([99]), np.zeros(0, int)], ids=str)
def test_join_of_run_time_strings_appended_after_a_staged_loop(x, backend):
    follows_the_rule(run_length_string, x, backend=backend)


def lookup_with_keyerror(codes, key):
    table = {int(c): i for i, c in enumerate(codes)}
    try:
        return table[key]
    except KeyError:
        return -1


def lookup_message(codes, key):
    table = {int(c): i for i, c in enumerate(codes)}
    try:
        return table[key]
    except KeyError as e:
        return str(e)  # the missing key: known only when the graph runs


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("key", [5, 1, 3])
def test_a_try_handles_a_missing_run_time_key(key, backend):
    follows_the_rule(lookup_with_keyerror, np.array([3, 1, 4]), key, backend=backend)


def test_the_missing_keys_message_is_a_clear_error():
    with pytest.raises(autoconv.AutoconvError):
        autoconv.function(lookup_message)(np.array([3, 1, 4]), 5)
