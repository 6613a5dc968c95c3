"""The standard library's containers fed values known only when the graph runs: a
`collections.Counter` counts them when the graph runs (task tally9: `runtime.tallies`), other
library code that keys them (`statistics.mode`) cannot count them while tracing, and a
`collections.deque` used as a worklist is a run-time list while the graph is traced
(converters/deques.py), and one seen as a deque that a staged statement changes is a clear
error (batch 8 W1, W5, H1: before, Counter counted by identity, a wrong count, and a deque
worklist hung the trace or lost its items)."""

from collections import Counter, deque

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule, message


def counter_tally(a):
    c = Counter(int(v) for v in a)
    return c.most_common(1)[0]


def counter_of_tolist(a):
    return Counter(a.tolist()).most_common(2)


def library_mode(a):
    import statistics

    return statistics.mode(a.tolist())


def dict_tally(a):  # what the message says to write instead
    counts = {}
    for v in a:
        k = int(v)
        counts[k] = counts.get(k, 0) + 1
    return max(counts, key=counts.get)


def deque_worklist(b):
    rem = [int(v) for v in b]
    q = deque(range(len(rem)))
    t = 0
    while q:
        i = q.popleft()
        t += 1
        rem[i] -= 1
        if rem[i] > 0:
            q.append(i)
    return t


def deque_of_tuples(x):
    q = deque()
    got = 0
    for day, d in enumerate(x):
        while q and q[0][0] == day:
            got += q.popleft()[1]
        if d > 2 and not q:
            q.append((day + 1, 5))
    return got


def deque_of_known_values(x):
    q = deque(maxlen=2)  # no staged statement changes it: Python's deque, as eagerly
    for v in [1, 2, 3]:
        q.append(v * x[0])
    return list(q)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [counter_tally, counter_of_tolist])
def test_counter_of_run_time_values_counts_them(fn, backend):
    follows_the_rule(fn, np.array([3, 1, 3, 2, 3]), backend=backend)


def test_library_code_keying_run_time_values_is_a_clear_error():
    text = message(library_mode, np.array([3, 1, 3, 2, 3]))
    assert "dict key or set member" in text and "`statistics`" in text
    assert "counts.get(k, 0) + 1" in text and "test_library_containers.py:" in text


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_dict_tally_runs(backend):
    follows_the_rule(dict_tally, np.array([3, 1, 3, 2, 3]), backend=backend)


def bfs_order(adj):
    n = adj.shape[0]
    seen = [False] * n
    seen[0] = True
    q = deque([0])
    order = []
    while q:
        u = q.popleft()
        order.append(u)
        for v in range(n):
            if adj[u, v] > 0 and not seen[v]:
                seen[v] = True
                q.append(v)
    return order


def deque_returned(x):
    q = deque()
    for v in x:
        if v > 0:
            q.append(v)  # the deque is returned: it stays one, and a staged change is refused
    return q


ADJ = np.array([[0, 1, 1, 0], [1, 0, 0, 1], [1, 0, 0, 1], [0, 1, 1, 0]])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn,x",
    [
        (deque_worklist, np.array([2, 1])),
        (deque_worklist, np.array([3, 1, 2])),
        (deque_of_tuples, np.array([3, 0, 0, 1])),
        (deque_of_tuples, np.array([0, 4, 4, 0, 0])),
        (bfs_order, ADJ),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_a_worklist_deque_is_a_run_time_list(fn, x, backend):
    follows_the_rule(fn, x, backend=backend)


def test_a_deque_seen_as_one_is_a_clear_error():
    text = message(deque_returned, np.array([3.0, -1.0]))
    assert "`q`, a collections.deque" in text and "`q.pop(0)` for `q.popleft()`" in text
    assert "test_library_containers.py:" in text


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_deque_no_staged_statement_changes(backend):
    follows_the_rule(deque_of_known_values, np.array([2.0]), backend=backend)
