"""A NumPy array, list, tuple or dict made while tracing, read at a key known only when the
graph runs (issue 24: `parent[v]`, `a[order[j + 1]]`, `V[nxt[s, policy[s]]]`, `jumps[pos]`):
read in the graph with Python's and NumPy's semantics, negative indices wrapping and an index
out of range raising eager's error when the graph runs, on every backend."""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule, message


def array_made_inside(idx):
    table = np.array([10.0, 20.0, 30.0])
    total = 0.0
    for i in idx:
        total += table[i]
    return total


def array_at_python_int(x):
    table = np.arange(5) * 3
    out = []
    for v in x:
        out.append(table[int(v)])
    return out


def two_d_array_at_pair(R, nxt):
    n = R.shape[0]
    V = np.zeros(n)
    policy = np.zeros(n, dtype=np.int64)
    for _ in range(20):
        V_new = np.array([R[s, policy[s]] + 0.5 * V[nxt[s, policy[s]]] for s in range(n)])
        if np.allclose(V_new, V):
            break
        V = V_new
    return V


def long_list_of_floats(x):
    halves = [k * 0.5 for k in range(100)]
    total = 0.0
    for v in x:
        total += halves[int(v)]
    return total


def short_list_of_ints(x):
    lst = [3, 1, 4, 1, 5]
    total = 0
    for v in x:
        if v > -10:
            total += lst[int(v)]
    return total


def tuple_in_branch(x):
    names = ("a", "b", "c")
    sizes = (1.5, 2.5, 3.5)
    label, size = "none", 0.0
    k = int(x[0])
    if x.sum() > 0:
        label, size = names[k], sizes[k]
    return label, size


def numpy_scalars_in_a_list(x):
    lst = [np.float64(v) for v in np.linspace(0.0, 1.0, 70)]
    i = int(x[0])
    return lst[i]


def union_find(edges, n):
    parent = list(range(n))

    def root(v):
        while parent[v] != v:
            v = parent[v]
        return v

    joined = 0
    for k in range(edges.shape[0]):
        ru, rv = root(int(edges[k, 0])), root(int(edges[k, 1]))
        if ru != rv:
            parent[ru] = rv
            joined += 1
    return joined, parent


def dict_of_number_keys(rolls):
    pos = 0
    jumps = {2: 5, 4: 1, 7: 3}
    for r in rolls:
        pos += int(r)
        if pos in jumps:
            pos = jumps[pos]
    return pos


def dict_missing_key(x):
    d = {1: 10.0, 2: 20.0}
    k = int(x[0])
    if x.sum() > -100:
        return d[k]
    return 0.0


def dict_get_with_default(rolls):
    pos = 0
    jumps = {2: 5, 4: 1}
    seen = []
    for r in rolls:
        pos += int(r)
        pos = jumps.get(pos, pos)
        seen.append(pos)
    return pos, seen


def dict_get_float_values(x):
    weights = {0: 0.5, 1: 1.5, 3: 2.5}
    total = 0.0
    for v in x:
        total += weights.get(int(v), -1.0)
    return total


def slice_of_array(x):
    a = np.arange(10.0)
    k = int(x[0])
    if k > 0:
        return a[k:].sum()
    return -1.0


IDX = np.array([0, 2, -1, 1])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (array_made_inside, (IDX,)),
        (array_made_inside, (np.zeros(0, dtype=np.int64),)),
        (array_made_inside, (np.array([0, 3]),)),  # out of range: NumPy's IndexError
        (array_made_inside, (np.array([-4]),)),
        (array_at_python_int, (np.array([4.0, -5.0, 0.5]),)),
        (array_at_python_int, (np.array([5.0]),)),
        (
            two_d_array_at_pair,
            (np.array([[0.0, 1.0], [2.0, 0.5]]), np.array([[0, 1], [1, 0]])),
        ),
        (long_list_of_floats, (np.array([0.0, 99.0, -100.0]),)),
        (long_list_of_floats, (np.array([100.0]),)),
        (long_list_of_floats, (np.array([-101.0]),)),
        (short_list_of_ints, (np.array([0, 4, -5, -1]),)),
        (short_list_of_ints, (np.array([5]),)),
        (tuple_in_branch, (np.array([2, 1]),)),
        (tuple_in_branch, (np.array([-1, 5]),)),
        (tuple_in_branch, (np.array([-3, 5]),)),
        (tuple_in_branch, (np.array([3, 5]),)),
        (tuple_in_branch, (np.array([0, -5]),)),
        (numpy_scalars_in_a_list, (np.array([69]),)),
        (numpy_scalars_in_a_list, (np.array([-70]),)),
        (numpy_scalars_in_a_list, (np.array([70]),)),
        (union_find, (np.array([[0, 1], [1, 2], [0, 2], [3, 4]]), 5)),
        (union_find, (np.zeros((0, 2), dtype=np.int64), 3)),
        (dict_of_number_keys, (np.array([1, 1, 2, 3]),)),
        (dict_of_number_keys, (np.array([6, 2, 5, 1]),)),
        (dict_get_with_default, (np.array([1, 1, 2, 3]),)),
        (dict_get_with_default, (np.zeros(0, dtype=np.int64),)),
        (dict_get_float_values, (np.array([0.0, 3.0, 2.0, 1.0]),)),
        (dict_missing_key, (np.array([2]),)),
        (dict_missing_key, (np.array([3]),)),  # KeyError(3) when the graph runs
    ],
)
def test_read_at_run_time_key_follows_the_rule(fn, args, backend):
    follows_the_rule(fn, *args, backend=backend, text=True)


@pytest.mark.parametrize("k", [3, 0, 12, -2])
def test_an_array_sliced_at_a_run_time_bound(k):
    follows_the_rule(slice_of_array, np.array([k]))


@pytest.mark.skipif("jax" not in BACKENDS, reason="the JAX backend is optional")
def test_an_array_sliced_at_a_run_time_bound_on_jax_names_the_line():
    # XLA compiles arrays of sizes known in advance (docs/backends.md)
    text = message(slice_of_array, np.array([3]), backend="jax")
    assert "test_run_time_index.py:" in text and "size of its result" in text


def list_sliced_at_run_time(x):
    a = [1.0, 2.0, 3.0]
    i = int(x[0])
    out = []
    if i > 0:
        out.extend(a[i:])
    return out


def test_a_list_sliced_at_a_run_time_bound_is_refused_by_name():
    text = message(list_sliced_at_run_time, np.array([1]))
    assert "test_run_time_index.py:" in text
    assert "slices the Python list `a`" in text
    assert "np.asarray(a)" in text


def tuple_keyed_read(x):
    d = {(3, 2): 10, (1, 1): 20}
    return d[(int(x[0]), int(x[1]))]


def tuple_keyed_get(x):
    d = {(3, 2): 10.5, (1, 1): 20.0, (1,): 3.0}
    return d.get((x[0], x[1]), -1.0)


def moves_named(x):
    moves = {(0, 1): "right", (1, 0): "down"}
    out = []
    for i in range(len(x) - 1):
        out.append(moves.get((int(x[i]), int(x[i + 1])), "?"))
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [tuple_keyed_read, tuple_keyed_get, moves_named])
def test_a_dict_of_tuple_keys_read_at_a_tuple_of_run_time_values(fn, backend):
    # It was an internal AttributeError ('dict' object has no attribute 'mixed').
    for x in (np.array([3, 2]), np.array([1, 1]), np.array([0, 1, 0]), np.array([5, 5])):
        follows_the_rule(fn, x, backend=backend, text=True)
