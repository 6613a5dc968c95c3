"""A Python list read or written at an index known only when the graph runs, and a dict at a
key a staged condition chose among constants, are switches over their items
(trace/tensors/switch.py): the graph gives what eager NumPy gives (values, Python types, the
same list object, IndexError/KeyError), on the NumPy and the JAX backend."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule


def check(fn, *args, backend="numpy"):
    """The eager answer (values and Python types), or the eager exception's type and text."""
    follows_the_rule(fn, *args, backend=backend, text=True)


# --- the batch's shapes ----------------------------------------------------------------------


def dice_race(rolls):
    pos = [0, 0]
    turn = 0
    for r in rolls:
        pos[turn] += int(r)
        turn = 1 - turn
    return pos


def dfs_order(adj):
    n = adj.shape[0]
    seen = [False] * n
    order = 0
    stack_top = 0
    for _ in range(n):
        seen[stack_top] = True
        order += 1
        nxt = np.argmax(adj[stack_top] * (1 - np.array([int(s) for s in seen])))
        stack_top = nxt
    return seen, order


def two_colors(adj):
    n = adj.shape[0]
    color = [-1] * n
    color[0] = 0
    for u in range(n):
        for v in range(n):
            if adj[u, v] and color[v] == -1:
                color[v] = 1 - color[u]
    return color


def winner_name(x):
    names = ["rock", "paper", "scissors"]
    out = "none"
    for v in x:
        if v > 0:
            out = names[int(v) % 3]
    return out, names[np.argmax(x)]


def root_of(v):
    parent = [0, 0, 1, 2, 3]
    steps = 0
    while parent[v] != v:
        v = parent[v]
        steps += 1
    return v, steps


def one_hot_list(x):
    out = [0.0] * 3
    for _ in range(1):
        out[np.argmax(x)] = 1.0
    return out


def insertion_sort_fixed(x):
    a = [x[0], x[1], x[2], x[3]]
    for i in range(1, 4):
        v = a[i]
        j = i
        while j > 0 and a[j - 1] > v:
            a[j] = a[j - 1]
            j -= 1
        a[j] = v
    return a


def tellers(service):
    free_at = [0.0, 0.0]
    total = 0.0
    for s in service:
        k = np.argmin(np.array(free_at))
        start = free_at[k]
        free_at[k] = start + s
        total += start
    return total, free_at


def sign_counts(x):
    d = {"pos": 0, "neg": 0}
    for v in x:
        d["pos" if v > 0 else "neg"] += 1
    return d


PROGRAMS = [
    (dice_race, (np.array([3, 5, 2, 6, 1]),)),
    (dice_race, (np.array([], dtype=np.int64),)),
    (dfs_order, (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]),)),
    (two_colors, (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]),)),
    (winner_name, (np.array([1.0, 5.0, -2.0]),)),
    (winner_name, (np.array([-1.0, -5.0]),)),
    (root_of, (np.int64(4),)),
    (root_of, (np.int64(0),)),
    (one_hot_list, (np.array([0.5, 2.0, 1.0]),)),
    (insertion_sort_fixed, (np.array([3.0, 1.0, 2.0, 0.5]),)),
    (insertion_sort_fixed, (np.array([1.0, 2.0, 3.0, 4.0]),)),
    (tellers, (np.array([2.0, 3.0, 1.0, 4.0]),)),
    (sign_counts, (np.array([1.0, -2.0, 3.0]),)),
    (sign_counts, (np.zeros(0),)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn,args", PROGRAMS, ids=[f"{f.__name__}-{k}" for k, (f, _) in enumerate(PROGRAMS)]
)
def test_program_gives_the_eager_answer(fn, args, backend):
    check(fn, *args, backend=backend)


# --- indices: negative, out of range ---------------------------------------------------------


def read_at(x, i):
    items = [10, 20, 30, 40]
    total = 0
    for v in x:
        total += items[i] * int(v)
    return total, items[i]


def write_at(x, i):
    items = [1.5, 2.5, 3.5]
    for v in x:
        items[i] += v
    return items


def strings_at(x, i):
    names = ["a", "b", "c"]
    out = None
    for v in x:
        if v > 0:
            names[i] = "z"
            out = names[i - 1]
    return names, out


@settings(max_examples=25, deadline=None)
@given(i=st.integers(-6, 6), n=st.integers(0, 2))
def test_hypothesis_indices_read_write_and_strings(i, n):
    x = np.arange(1, n + 1, dtype=np.float64)
    for fn in (read_at, write_at, strings_at):
        check(fn, x, np.int64(i))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("i", [-4, -3, -1, 0, 2, 3, 7])
def test_index_past_either_end_raises_index_error_on_both_backends(i, backend):
    check(write_at, np.array([1.0]), np.int64(i), backend=backend)
    check(read_at, np.array([1.0]), np.int64(i), backend=backend)


# --- the list object, Python types -----------------------------------------------------------


def aliased(x):
    a = [0.0, 0.0, 0.0]
    b = a
    for v in x:
        a[int(v) % 3] = v
    return b, a is b


def aliased_no_loop(x):
    a = [0, 0, 0]
    b = a
    a[np.argmax(x)] = 1
    return b


def int_then_float(x):
    out = [0, 0, 0]
    for v in x:
        if v > 1:
            out[int(v) % 3] = 1.5
    return out


def numpy_scalar_items(x):
    out = [0.0, 0.0]
    for v in x:
        out[int(v) % 2] = v  # a NumPy float64 where written, Python floats elsewhere
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [aliased, aliased_no_loop, int_then_float, numpy_scalar_items])
def test_the_list_object_and_each_items_python_type(fn, backend):
    check(fn, np.array([1.0, 5.0, 2.0]), backend=backend)
    check(fn, np.array([0.0]), backend=backend)


def dict_missing_key(x):
    d = {"pos": 0}
    for v in x:
        d["pos" if v > 0 else "neg"] += 1
    return d


@pytest.mark.parametrize("backend", BACKENDS)
def test_dict_key_not_present_raises_key_error_when_chosen(backend):
    check(dict_missing_key, np.array([1.0, 2.0]), backend=backend)
    check(dict_missing_key, np.array([1.0, -2.0]), backend=backend)


# --- limits ----------------------------------------------------------------------------------


def long_list(x):
    items = [0] * 65
    for v in x:
        items[int(v)] += 1
    return items


def new_key_chosen(x):
    d = {"pos": 0}  # (a dict that starts empty takes them as run-time keys: test_dict_paths)
    for v in x:
        d["pos" if v > 0 else "neg"] = 1
    return d


def test_a_list_longer_than_the_limit_keeps_the_error():
    with pytest.raises(autoconv.AutoconvError) as info:
        autoconv.function(long_list)(np.array([1.0]))
    assert "`items`" in str(info.value) and "NumPy array" in str(info.value)


def test_a_chosen_key_not_in_the_dict_is_an_error_naming_the_keys():
    with pytest.raises(autoconv.AutoconvError) as info:
        autoconv.function(new_key_chosen)(np.array([1.0]))
    text = str(info.value)
    assert "'pos'" in text and "not a key of the dict" in text and "test_list_index_switch" in text


def list_of_lists(x):
    rows = [[0], [1]]
    for v in x:
        rows[int(v) % 2] = [2]
    return rows


def test_storing_a_list_at_a_run_time_index_is_an_error():
    with pytest.raises(autoconv.AutoconvError) as info:
        autoconv.function(list_of_lists)(np.array([1.0]))
    assert "`rows`" in str(info.value) and "list" in str(info.value)


def unrolled_square(x):
    items = [0] * 64
    for k in range(64):
        for j in range(2):
            items[np.argmax(x) + j] += k
    return items


def test_switches_past_the_graph_budget_keep_the_error():
    # 64 x 2 writes of 64 items: more than switch.BUDGET items switched in one graph.
    with pytest.raises(autoconv.AutoconvError) as info:
        autoconv.function(unrolled_square)(np.array([1.0, 2.0]))
    assert "`items`" in str(info.value) and "NumPy array" in str(info.value)


def nested_write(x):
    grid = [[0, 0], [0, 0]]
    for v in x:
        grid[int(v) % 2][0] = 1
    return grid


def test_a_list_of_lists_is_not_switched_over():
    # The row read would be a new list, and the write into it would not reach `grid`'s row.
    with pytest.raises(autoconv.AutoconvError) as info:
        autoconv.function(nested_write)(np.array([1.0]))
    assert "`grid" in str(info.value)
