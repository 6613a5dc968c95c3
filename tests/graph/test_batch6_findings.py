"""What the sixth fresh batch found (tools/fresh_batch6.py, tools/fresh_batch6_findings.md):
each wrong-result, crash and bad-error class's minimal program, run eagerly and as
`autoconv.function(f)` (on NumPy, and on JAX where it is installed). Each open class is a
strict xfail naming the class, checked to fail; a fix turns it into a plain test.
"""

import numpy as np
import pytest

import autoconv
from autoconv.errors import AutoconvError
from tests.graph.agreement import BACKENDS, follows_the_rule, message


def xfail(why):
    return pytest.mark.xfail(strict=True, reason=why)


# W1: an object-dtype array argument: `type()` / `isinstance()` of its items say `int` in the
# graph where eager code sees the lists it holds (flatten_nested walked a ragged array as
# nested lists and returned it unflattened).
def item_type_of_object_array(x):
    return type(x[0]).__name__, isinstance(x[0], list)


def flatten_nested(x):
    out = []

    def walk(v):
        if isinstance(v, (list, np.ndarray)):
            for w in v:
                walk(w)
        else:
            out.append(v)

    walk(list(x))
    return out


# (now a clear error naming the argument)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [item_type_of_object_array, flatten_nested])
def test_an_object_array_argument_is_refused(fn, backend):
    args = (np.array([[1, [2, 3]], [4]], dtype=object),)
    _refused(fn, args, backend, "argument `x` is a NumPy array of Python objects")


# C1 (fixed): `stack.pop()` in one branch of a staged `if` inside a `while` loop that appends to
# the same list in the other branch (a stack machine): tracing the branch on the empty list
# raised IndexError('pop from empty list') although eager code never pops an empty stack.
def stack_in_while(code):
    stack = []
    pc = 0
    while pc < len(code):
        if code[pc] == 1:
            stack.append(1)
        else:
            stack.append(stack.pop() + 1)
        pc += 1
    return stack


@pytest.mark.parametrize("backend", BACKENDS)
def test_stack_pop_in_a_while_loop_branch(backend):
    follows_the_rule(stack_in_while, np.array([1, 2, 1]), backend=backend)


# C2 (fixed): a NumPy reduction of a Python list whose items a staged branch replaced
# (`best[i] = 2` under `if x[i] > 0`, then `np.argmax(best)`): 'a Python int known only when
# the graph runs cannot become a NumPy array', though np.array of a list of Tensors runs.
def argmax_of_list(x):
    best = [1] * len(x)
    for i in range(len(x)):
        if x[i] > 0:
            best[i] = 2
    return int(np.argmax(best))


@pytest.mark.parametrize("backend", BACKENDS)
def test_numpy_reduction_of_a_list_of_staged_items(backend):
    follows_the_rule(argmax_of_list, np.array([-1.0, 2.0]), backend=backend)


# C3 (fixed): an explicit DFS stack of (node, next-neighbour) tuples that a `while stack:` loop
# pops and pushes onto in nested branches: 'appended to a different number of times on
# different paths ... in a way autoconv cannot stage'.
def dfs_stack_of_tuples(adj):
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


@pytest.mark.parametrize("backend", BACKENDS)
def test_dfs_stack_of_tuples(backend):
    follows_the_rule(dfs_stack_of_tuples, np.array([[0, 1], [0, 0]]), backend=backend)


# C4: `rng.choice([-1, 1], size=n)` gives an array nothing else sees, but an item write into
# it in a staged branch is refused as 'a view of, or the same array as, another value'.
def flip_choice(seed):
    g = np.random.default_rng(seed)
    s = g.choice([-1, 1], size=3)
    for i in range(3):
        if s[i] > 0:
            s[i] = -s[i]
    return s


@pytest.mark.parametrize("backend", BACKENDS)
def test_item_write_into_a_choice_result(backend):
    follows_the_rule(flip_choice, 1, backend=backend)


# C5: a dict comprehension over `sorted(d)` of a dict with run-time keys: the key was taken to
# be the sorted list itself ('dict `sums` gets the key a list a staged loop appended to'); the
# comprehension now runs as a staged `for` loop storing into a new run-time dict.
def counts_in_key_order(keys):
    sums = {}
    for k in keys:
        sums[int(k)] = sums.get(int(k), 0) + 1
    return {k: sums[k] for k in sorted(sums)}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("x", [np.array([2, 0, 2]), np.zeros(0, dtype=np.int64)])
def test_dict_comprehension_over_sorted_keys(backend, x):
    follows_the_rule(counts_in_key_order, x, backend=backend)


# C6 (fixed): a method summing a generator over `self.entries`, a list of (kind, amount) tuples
# that a staged loop appended through another method: 'reached code that uses it as a Python list'.
# The same generator over a local list runs.
class Ledger:
    def __init__(self):
        self.entries = []

    def add(self, amount, kind):
        self.entries.append((kind, amount))

    def total(self, kind):
        return sum(a for k, a in self.entries if k == kind)


def ledger_total(x):
    led = Ledger()
    for a in x:
        led.add(float(a), "c" if a > 0 else "d")
    return led.total("c")


def test_generator_over_an_attribute_list():
    # (fixed by the staged filter of generator expressions, ac.filtered)
    for x in (np.array([1.0, -2.0, 3.0]), np.array([-1.0]), np.zeros(0)):
        follows_the_rule(ledger_total, x)


def test_generator_over_an_attribute_list_on_jax_is_a_clear_error():
    # A string field compared on the JAX backend: its documented LoweringError.
    pytest.importorskip("jax")
    text = message(ledger_total, np.array([1.0, -2.0, 3.0]), backend="jax")
    assert "test_batch6_findings.py:" in text and "row_field" in text


# C7 (fixed on branch strings7): %-formatting of a value known only when the graph runs
# (`"mean: %.2f" % x.mean()`) said 'float() of a float64 value ... needs its value'.
def percent_format(x):
    return "mean: %.2f" % x.mean()  # noqa: UP031 - as users write it


@pytest.mark.parametrize("backend", BACKENDS)
def test_percent_format_of_a_run_time_value(backend):
    follows_the_rule(percent_format, np.array([1.0, 2.0]), backend=backend)


# C8 (fixed): `out.extend([v] * c)` with a count known only when the graph runs, inside a staged loop
# (counting sort's output): 'only arrays, numbers and tuples ... can be appended ..., got a list
# a staged loop appended to', though nothing appends a list; with `v` itself a run-time item
# it says '`v` cannot become a NumPy array'.
def extend_by_repeats(x):
    out = []
    for v in x:
        out.extend([1] * int(v))
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_extend_by_a_run_time_repeat(backend):
    follows_the_rule(extend_by_repeats, np.array([2, 0, 1]), backend=backend)


# E1 (crash): joining strings read from a Python list (or dict) of strings at an index known
# only when the graph runs, in a comprehension: str.join gets autoconv's internal `Choice`
# object and raises a bare TypeError ('sequence item 0: expected str instance, Choice found').
def join_picked_names(codes):
    names = ["cat", "dog"]
    labels = [names[int(c)] for c in codes]
    return ", ".join(labels)


def join_names_from_dict(codes):
    names = {0: "cat", 1: "dog"}
    return ", ".join([names[int(c)] for c in codes])


# (now the strings the graph picks, joined when it runs)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [join_picked_names, join_names_from_dict])
def test_join_of_strings_picked_at_a_run_time_index(fn, backend):
    follows_the_rule(fn, np.array([1, 0]), backend=backend)


# W2: an f-string holding a string picked from a Python list at a run-time index, returned
# from one branch of a staged `if` (the other returns the picked string itself): the graph
# returns np.str_('unsure (neg)') where eager code returns the str 'unsure (neg)'.
def pick_label(probs):
    classes = ["neg", "pos"]
    k = int(np.argmax(probs))
    if probs[k] < 0.6:
        return f"unsure ({classes[k]})"
    return classes[k]


def test_f_string_chosen_by_a_branch_is_a_str():  # (a union's string alternative: a str)
    follows_the_rule(pick_label, np.array([0.5, 0.5]))
    follows_the_rule(pick_label, np.array([0.1, 0.9]))


# C11 (fixed on branch strings7): the same f-string of a list item at a run-time index
# without the branch was refused ('indexes a NumPy array or a Python list with `k`'), though
# the list is the function's own, under 64 items, and the branch version traces.
def label_of_argmax(probs):
    classes = ["neg", "pos"]
    k = int(np.argmax(probs))
    return f"{classes[k]}"


@pytest.mark.parametrize("backend", BACKENDS)
def test_f_string_of_a_list_item_at_a_run_time_index(backend):
    follows_the_rule(label_of_argmax, np.array([0.2, 0.8]), backend=backend)
    follows_the_rule(label_of_argmax, np.array([0.9, 0.1]), backend=backend)


# C12 (JAX backend, fixed on main at 53f6fb1): a list of row tuples that a staged loop appends to and pops from (the
# monotone chain of a convex hull), sliced and returned: a StagingError at the caller's line
# ('a float64 value ... cannot become a NumPy array', from np.shape of a tuple) instead of the
# result the NumPy backend gives.
def cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def lower_hull(points):
    pts = [tuple(p) for p in points]
    lower = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    return lower[:-1]


HULL_POINTS = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.6, 0.2]])


def test_lower_hull_runs_on_numpy():
    follows_the_rule(lower_hull, HULL_POINTS)


@pytest.mark.skipif("jax" not in BACKENDS, reason="the JAX backend is optional")
def test_lower_hull_on_jax():
    follows_the_rule(lower_hull, HULL_POINTS, backend="jax")


# E2 (crash, new with main at 53f6fb1; a clear StagingError at fb871ab): `.append` on a list
# item of a list of lists, or a dict's list value, chosen at a key known only when the graph
# runs (adjacency lists, buckets by key) raises AttributeError("'tuple' object has no
# attribute 'append'") from the traced body.
def adjacency_lists(edges, n):
    adj = [[] for _ in range(n)]
    for a, b in edges:
        adj[a].append(int(b))
    return adj


def bucket_positions(x):
    b = {}
    for i, v in enumerate(x):
        b.setdefault(int(v), []).append(i)
    return b


def _refused(fn, args, backend, *parts):
    with pytest.raises(AutoconvError) as info:
        autoconv.function(fn, backend=backend)(*args)
    text = str(info.value)
    assert f"{__file__}:" in text and all(p in text for p in parts), text


# (now clear errors naming the list or dict: a read item would be a new list)
@pytest.mark.parametrize("backend", BACKENDS)
def test_append_to_a_list_chosen_at_a_run_time_key(backend):
    args = (np.array([[0, 1], [1, 0]]), 2)
    _refused(adjacency_lists, args, backend, "list `adj` holds lists")


@pytest.mark.parametrize("backend", BACKENDS)
def test_setdefault_append_at_a_run_time_key(backend):
    _refused(bucket_positions, (np.array([1, 0, 1]),), backend, "dict `b` gets a list")


# E3 (crash, new with main at 53f6fb1; a clear StagingError at fb871ab): a FIFO of [qty, price]
# lots consumed in a `while qty > 0 and lots:` loop nested in a staged branch: NameError
# ('cannot access free variable `lot`') from the converted loop's state function.
def fifo_cost(trades):
    lots = []
    cost = 0.0
    for q in trades:
        if q > 0:
            lots.append([int(q), 1.0])
        else:
            qty = int(-q)
            while qty > 0 and lots:
                lot = lots[0]
                take = min(qty, lot[0])
                cost += take * lot[1]
                lot[0] -= take
                qty -= take
                if lot[0] == 0:
                    lots.pop(0)
    return cost


# (now a clear error at `lot = lots[0]`: the item read is changed in place later)
@pytest.mark.parametrize("backend", BACKENDS)
def test_fifo_of_lots(backend):
    _refused(fifo_cost, (np.array([3, -2]),), backend, "changed in place later")
