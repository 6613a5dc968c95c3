"""Items written into a variable of an enclosing function (`parent[x] = ...` in a nested
`find`), which the nested function cannot rebind: a Python list changes in place, also at a
key known only when the graph runs; an array a graph would give a new value is a clear error.
Each program runs eagerly and as a graph on every backend."""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule


def union_find(edges, n):
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    merges = 0
    for a, b in edges:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
            merges += 1
    return merges, parent


def counts_through_a_helper(x):
    counts = [0, 0, 0]

    def bump(k):
        counts[k] += 1

    for v in x:
        bump(int(v) % 3)
    return counts


def roots_of_a_range(edges, n):
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for a, b in edges:
        parent[find(a)] = find(b)
    return [find(i) for i in range(n)]


EDGES = [
    (np.array([[0, 1], [1, 2], [3, 4]]), 5),
    (np.array([[0, 0]]), 2),
    (np.zeros((0, 2), dtype=np.int64), 3),
    (np.array([[2, 1], [1, 0], [0, 2]]), 3),
]


@pytest.mark.parametrize("fn", [union_find, roots_of_a_range])
@pytest.mark.parametrize("edges, n", EDGES)
def test_a_list_of_the_enclosing_function_written_at_a_run_time_index(fn, edges, n):
    # It was "stores into a NumPy array or a list at the index `x`, whose value is only known
    # when the graph runs" (batch 3 union_find, batch 6 union_find_components).
    follows_the_rule(fn, edges, n)


@pytest.mark.parametrize("backend", BACKENDS)
def test_counts_bumped_by_a_nested_function(backend):
    for x in (np.array([1, 2, 2, 5]), np.zeros(0, dtype=np.int64)):
        follows_the_rule(counts_through_a_helper, x, backend=backend)


def array_of_the_enclosing_function(x):
    seen = np.zeros(4)

    def mark(i):
        seen[i] = 1.0

    for v in x:
        mark(int(v))
    return seen


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_array_of_the_enclosing_function_written_by_a_nested_function(backend):
    # (it was a clear error; the nested function now rebinds the enclosing variable through
    # its cell, declared nonlocal, and the staged loop carries the array)
    for x in (np.array([1, 3]), np.array([0, 0, 2]), np.zeros(0, dtype=np.int64)):
        follows_the_rule(array_of_the_enclosing_function, x, backend=backend)
