"""Run-time lists that staged code pops, deletes from and pushes onto unevenly (issue 24,
batch 6's C1, C3, C8): stack machines, BFS queues, DFS stacks of records, extends of a
run-time length. Each program runs eagerly and as `autoconv.function(f)` on every backend."""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule, message


# A stack machine in a loop over a Python range or `while pc < len(code)`: the first iteration
# traces the popping branch on an empty Python list (eagerly it raises IndexError only where
# the data takes it), and later ones leave the stack one length or another.
def push_or_bump(code):
    stack = []
    for pc in range(len(code)):
        if code[pc] == 1:
            stack.append(1)
        else:
            stack.append(stack.pop() + 1)
    return stack


def fold_pairs_while(code):
    stack = []
    pc = 0
    while pc < len(code):
        if code[pc] > 0:
            stack.append(int(code[pc]))
        elif len(stack) >= 2:
            b = stack.pop()
            stack.append(stack.pop() - b)
        pc += 1
    return stack, len(stack)


def float_stack(code):
    stack = [0.5]
    for pc in range(len(code)):
        if code[pc] >= 0:
            stack.append(float(code[pc]))
        else:
            stack.append(stack.pop() * 2.0)
    return stack


def bump_in_staged_loop(code):
    stack = [0]
    for c in code:
        if c == 1:
            stack.append(1)
        else:
            stack.append(stack.pop() + 1)
    return stack


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn, arg",
    [
        (push_or_bump, np.array([1, 2, 1, 2, 2])),
        (push_or_bump, np.array([2, 1])),  # eager's IndexError, when the graph runs
        (push_or_bump, np.zeros(0, dtype=np.int64)),
        (fold_pairs_while, np.array([5, 2, 0, 7, 0, 0])),
        (fold_pairs_while, np.array([0, 3])),
        (float_stack, np.array([-1, 2, -1])),
        (bump_in_staged_loop, np.array([1, 2, 2, 1])),
        (bump_in_staged_loop, np.zeros(0, dtype=np.int64)),
    ],
)
def test_stack_popped_on_some_paths(fn, arg, backend):
    follows_the_rule(fn, arg, backend=backend)


# `del q[0]` of a queue in a staged loop, as `q.pop(0)` is.
def bfs_with_del(adj):
    n = adj.shape[0]
    dist = np.full(n, -1)
    dist[0] = 0
    q = [0]
    while q:
        u = q[0]
        del q[0]
        for v in range(n):
            if adj[u, v] and dist[v] < 0:
                dist[v] = dist[u] + 1
                q.append(v)
    return dist


def del_last_on_some_paths(x):
    out = [0.0]
    for v in x:
        out.append(float(v))
        if v < 0:
            del out[-1]
    return out


def del_outside_a_trace(x):
    items = [1, 2, 3]
    del items[1]
    return items, x + 1


ADJ = np.array([[0, 1, 1, 0], [1, 0, 0, 1], [1, 0, 0, 1], [0, 1, 1, 0]])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn, arg",
    [
        (bfs_with_del, ADJ),
        (bfs_with_del, np.zeros((3, 3), dtype=np.int64)),
        (del_last_on_some_paths, np.array([1.0, -2.0, 3.0])),
        (del_outside_a_trace, np.array([1.0])),
    ],
)
def test_del_of_a_list_item(fn, arg, backend):
    follows_the_rule(fn, arg, backend=backend)


# A DFS stack of tuples carried whole by `while stack:`, pushed onto a different number of
# times on nested staged paths.
def dfs_visits(adj):
    n = len(adj)
    stack = [(0, 0)]
    visits = 0
    while stack:
        v, i = stack.pop()
        visits += 1
        if i < n:
            stack.append((v, i + 1))
            if adj[v, i]:
                stack.append((i, n))
    return visits


def dfs_order(adj):
    n = adj.shape[0]
    seen = np.zeros(n, dtype=bool)
    order = []
    stack = [0]
    while stack:
        u = stack.pop()
        if seen[u]:
            continue
        seen[u] = True
        order.append(u)
        for v in range(n - 1, -1, -1):
            if adj[u, v] and not seen[v]:
                stack.append(v)
    return order


def records_stack(x):
    stack = [(0, 0.0)]
    total = 0.0
    while stack:
        depth, acc = stack.pop()
        total += acc
        if depth < len(x):
            if x[depth] > 0:
                stack.append((depth + 1, float(acc + x[depth])))
            stack.append((depth + 1, acc))
            if x[depth] > 2:
                stack.append((len(x), -1.0))
    return total


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn, arg",
    [
        (dfs_visits, np.array([[0, 1], [0, 0]])),
        (dfs_visits, np.array([[0, 1, 1], [0, 0, 1], [1, 0, 0]])),
        (dfs_order, ADJ),
        (dfs_order, np.eye(3, dtype=np.int64)),
        (records_stack, np.array([1.0, 3.0, -1.0])),
        (records_stack, np.zeros(0)),
    ],
)
def test_dfs_stack_pushed_on_some_paths(fn, arg, backend):
    follows_the_rule(fn, arg, backend=backend)


# `extend` by items whose number is known only when the graph runs: a list repeated a
# run-time number of times, a list a staged loop appended to, a slice of an array at a
# run-time bound (on the JAX backend such a slice is the documented size limit).
def extend_by_repeats(x):
    out = []
    for v in x:
        out.extend([1] * int(v))
    return out


def counting_sort(x):
    counts = [0] * (int(x.max()) + 1)
    for v in x:
        counts[v] += 1
    out = []
    for v, c in enumerate(counts):
        out.extend([v] * c)
    return out


def extend_in_branches(x):
    out = [0.0]
    for v in x:
        if v > 1:
            out.extend([float(v)] * int(v))
        else:
            out.extend([-1.0, float(v)])
    return out, len(out)


def extend_by_a_run_time_list(x):
    pos = []
    for v in x:
        if v > 0:
            pos.append(v)
    out = [x[0]]
    out.extend(pos)
    out.extend(pos)
    return out, sum(out)


def extend_by_known_items(x):
    out = []
    out.extend([1, 2])
    out.extend(x)
    out.extend((3,))
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn, arg",
    [
        (extend_by_repeats, np.array([2, 0, 1])),
        (extend_by_repeats, np.zeros(0, dtype=np.int64)),
        (counting_sort, np.array([3, 0, 3, 1])),
        (counting_sort, np.array([0])),
        (extend_in_branches, np.array([3, 0, 2])),
        (extend_by_a_run_time_list, np.array([3, -1, 2])),
        (extend_by_a_run_time_list, np.array([-3])),
        (extend_by_known_items, np.array([3, -1])),
    ],
)
def test_extend_of_a_run_time_length(fn, arg, backend):
    follows_the_rule(fn, arg, backend=backend)


def merge_two_sorted(a, b):
    a = np.sort(a)
    out = []
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    out.extend(a[i:])
    out.extend(b[j:])
    return np.array(out)


@pytest.mark.parametrize(
    "a, b", [(np.array([5, 1, 9]), np.array([2, 3])), (np.array([5]), np.zeros(0, np.int64))]
)
def test_extend_by_a_slice_of_run_time_size(a, b):
    follows_the_rule(merge_two_sorted, a, b)


# NumPy functions of a Python list whose items a staged branch replaced (`best = [1] * n`,
# `best[i] = ...` under a staged `if`): the items are stacked, as for a list display.
def argmax_of_replaced_items(x):
    best = [1] * len(x)
    for i in range(len(x)):
        if x[i] > 0:
            best[i] = 2
    return int(np.argmax(best))


def reductions_of_replaced_items(x):
    best = [1.5, 1.0, 0.0]
    for i in range(3):
        if x[i] > 0:
            best[i] = x[i]
    return np.argmax(best), np.mean(best), np.max(best), np.sum(best)


def argmin_in_a_branch(x):
    costs = [0] * 3
    for i in range(3):
        if x[i] < 0:
            costs[i] = -1
    if x[0] > 0:
        return int(np.argmin(costs))
    return -1


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn, arg",
    [
        (argmax_of_replaced_items, np.array([-1.0, 2.0])),
        (argmax_of_replaced_items, np.array([-1.0, -2.0, -3.0])),
        (reductions_of_replaced_items, np.array([-1.0, 2.0, 0.5])),
        (argmin_in_a_branch, np.array([1.0, -2.0, 0.5])),
        (argmin_in_a_branch, np.array([-1.0, -2.0, 0.5])),
    ],
)
def test_numpy_function_of_a_list_a_branch_wrote(fn, arg, backend):
    follows_the_rule(fn, arg, backend=backend)


# `max(records, key=...)` / `min` of a list a staged loop appended to, keys that are numbers:
# the first item with the greatest (smallest) key (no items: a ValueError, as Python's). On
# JAX a run-time list's item and max/min are the documented limit.
def best_record(rows):
    records = []
    for sid, score in rows:
        grade = "pass" if score >= 60 else "fail"
        records.append({"id": int(sid), "score": int(score), "grade": grade})
    passed = [r["id"] for r in records if r["grade"] == "pass"]
    best = max(records, key=lambda r: r["score"])
    return passed, best["id"]


def nearest_positive(x):
    pts = []
    for i, v in enumerate(x):
        if v > 0:
            pts.append((i, float(v)))
    return min(pts, key=lambda p: p[1])


def extremes_by_key(x):
    out = []
    for v in x:
        out.append(v * 2)
    return max(out, key=abs), min(out, key=lambda t: -t)


@pytest.mark.parametrize(
    "fn, arg",
    [
        (best_record, np.array([[1, 70], [2, 95], [3, 40], [4, 95]])),
        (best_record, np.zeros((0, 2), dtype=np.int64)),
        (nearest_positive, np.array([3.0, -1.0, 2.0, 2.0])),
        (nearest_positive, np.array([-3.0])),
        (extremes_by_key, np.array([3, -5, 2])),
    ],
)
def test_max_min_with_key_of_a_run_time_list(fn, arg):
    follows_the_rule(fn, arg)


def longest_label(x):
    out = []
    for v in x:
        out.append("a" if v > 0 else "bb")
    return max(out, key=len)


def test_max_with_a_key_the_graph_cannot_compute_is_refused():
    text = message(longest_label, np.array([1.0, -1.0]))
    assert "`max(..., key=)` of a list that a staged loop appended to" in text, text
    assert f"{__file__}:" in text


# `sum`, `max` and `min` of a filtered generator over an object's attribute list that a staged
# loop appended to (in another method), as over a local list.
class Bag:
    def __init__(self):
        self.items = []

    def add(self, v):
        self.items.append(v)

    def above(self, t):
        return sum(v for v in self.items if v > t), max(v for v in self.items if v > -10)


def bag_sums(x):
    b = Bag()
    for v in x:
        if v != 0:
            b.add(float(v))
    return b.above(1.0)


def bag_of_known_items(x):
    b = Bag()
    b.add(1.0)
    b.add(3.0)
    return b.above(2.0), x


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn, arg",
    [
        (bag_sums, np.array([1.0, -2.0, 3.0])),
        (bag_sums, np.array([0.0])),  # max() of no items: eager's ValueError
        (bag_of_known_items, np.array([1.0])),
    ],
)
def test_generator_over_an_attribute_list(fn, arg, backend):
    follows_the_rule(fn, arg, backend=backend)


# `[None] * n` with a run-time `n`: a clear error naming the line (docs/graph-mode.md).
def slots_of_none(x):
    slots = [None] * int(x.max())
    for i in range(len(x)):
        if slots[0] is None:
            slots[0] = i
    return slots


def test_a_run_time_repeat_of_none_is_refused():
    text = message(slots_of_none, np.array([2, 3]))
    assert "`slots = [None] * int(x.max())` repeats a list" in text, text
    assert "not None" in text and "np.full(n, -1)" in text


# An item before a run-time list's appended items written in the loop that appends
# (`seen[0] += 1`, a count kept in the list's head): the loop carries it as state.
def count_in_the_head(x):
    seen = [0]
    for v in x:
        seen.append(v)
        seen[0] += 1
    return seen


def head_written_in_branches(x):
    seen = [0, 0.0]
    for v in x:
        if v > 0:
            seen.append(v)
            seen[0] += 1
        else:
            seen[1] += float(v)
    return seen


def head_in_a_while_loop(x):
    q = [0]
    i = 0
    while i < x.shape[0] and x[i] > 0:
        q.append(x[i])
        q[0] = q[0] + 1
        i += 1
    return q, len(q)


def header_row(x):
    rows = [("n", 0)]
    for v in x:
        rows.append(("v", int(v)))
        rows[0] = ("n", rows[0][1] + 1)
    return rows


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn, arg",
    [
        (count_in_the_head, np.array([3, 4])),
        (count_in_the_head, np.zeros(0, dtype=np.int64)),
        (head_written_in_branches, np.array([3.0, -1.0, 4.0])),
        (head_in_a_while_loop, np.array([3, 4, -1, 2])),
        (head_in_a_while_loop, np.array([-3])),
        (header_row, np.array([3, 4])),
    ],
)
def test_item_write_before_appended_items(fn, arg, backend):
    follows_the_rule(fn, arg, backend=backend)
