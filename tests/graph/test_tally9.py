"""`collections.Counter` and `defaultdict` of keys known only when the graph runs (task tally9,
issue 24): tallies of labels, histograms of int codes, modes, votes, anagrams, inventories,
word lengths and groups, each run eagerly and as a graph on both backends. A graph gives
eager's values, order and Python types (a Counter stays a Counter, a defaultdict keeps its
default_factory, counts stay `int`), or eager's exception, or an AutoconvError naming the
line; JAX's limits are LoweringErrors."""

import collections
import copy
from collections import Counter, defaultdict

import numpy as np
import pytest

import autoconv
from autoconv.errors import AutoconvError
from tests.graph.agreement import BACKENDS, same

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

HERE = __file__
L = np.array([3, 1, 3, 2, 1, 3, 0, 2])
N = np.array([-1, 2, -1, 2, 5])
F = np.array([0.5, 1.5, 0.5, 2.5])
E = np.array([], dtype=np.int64)


def label_tally(x):
    return Counter(int(v) for v in x)


def label_tally_list(x):
    return Counter(x.tolist())


def counter_incr(x):
    c = Counter()
    for v in x:
        c[int(v)] += 1
    return c


def counter_update(x):
    c = Counter()
    c.update(int(v) for v in x)
    return c


def counter_update_list(x):
    c = Counter()
    c.update([int(v) for v in x])
    return c


def missing_key(x):
    c = Counter(int(v) for v in x)
    return c[99], c[int(x[0])]


def most_common_all(x):
    return Counter(int(v) for v in x).most_common()


def most_common_1(x):
    return Counter(int(v) for v in x).most_common(1)


def mode(x):
    return Counter(int(v) for v in x).most_common(1)[0][0]


def most_common_2(x):
    c = Counter()
    for v in x:
        c[int(v)] += 1
    return c.most_common(2)


def items_list(x):
    c = Counter(int(v) for v in x)
    return list(c.items()), list(c.keys()), list(c.values())


def counter_len(x):
    return len(Counter(int(v) for v in x))


def counter_sum(x):
    c = Counter(int(v) for v in x)
    return sum(c.values())


def counter_in(x):
    c = Counter(int(v) for v in x)
    return 2 in c, 7 in c


def max_key(x):
    c = Counter(int(v) for v in x)
    return max(c, key=c.get)


def counter_to_dict(x):
    return dict(Counter(int(v) for v in x))


def anagram(a, b):
    return Counter(int(v) for v in a) == Counter(int(v) for v in b)


def votes(x):
    c = Counter(int(v) for v in x)
    winner, n = c.most_common(1)[0]
    return winner, n, n * 2 > len(x)


def histogram_codes(x):
    counts = Counter()
    for v in x:
        counts[int(v) % 3] += 1
    return counts


def float_tally(x):
    c = Counter(float(v) for v in x)
    return c


def counter_loop_items(x):
    c = Counter(int(v) for v in x)
    total = 0
    for k, n in c.items():
        total += k * n
    return total


def dd_int(x):
    d = defaultdict(int)
    for v in x:
        d[int(v)] += 1
    return d


def dd_float(x):
    d = defaultdict(float)
    for v in x:
        d[int(v)] += 0.5
    return d


def dd_lambda(x):
    d = defaultdict(lambda: 0)
    for v in x:
        d[int(v)] += 2
    return d


def dd_to_dict(x):
    d = defaultdict(int)
    for v in x:
        d[int(v)] += 1
    return dict(d)


def dd_word_lengths(x):
    # word lengths as int codes
    d = defaultdict(int)
    for v in x:
        d[int(v) + 1] += 1
    return sorted(d.items())


def inventory(skus, qty):
    inv = defaultdict(int)
    for s, q in zip(skus, qty):
        inv[int(s)] += int(q)
    return dict(inv)


def inventory_counter(skus, qty):
    inv = Counter()
    for s, q in zip(skus, qty):
        inv[int(s)] += int(q)
    return inv.most_common()


def group_by_key(x):
    groups = defaultdict(list)
    for i, v in enumerate(x):
        groups[int(v)].append(i)
    return dict(groups)


def dd_len(x):
    d = defaultdict(int)
    for v in x:
        d[int(v)] += 1
    return len(d), 3 in d


def counter_max_value(x):
    c = Counter(int(v) for v in x)
    return max(c.values())


def counter_get(x):
    c = Counter(int(v) for v in x)
    return c.get(3, 0), c.get(42, -1)


def counter_np_ints(x):
    c = Counter()
    for v in x:
        c[int(v)] += 1
    return c[3] + c[1]


def counter_collections_mod(x):
    return collections.Counter(int(v) for v in x)


def dd_sum(x):
    d = defaultdict(float)
    for v in x:
        d[int(v) % 2] += float(v)
    return d[0], d[1]


def counter_sorted(x):
    c = Counter(int(v) for v in x)
    return sorted(c)


def counter_mc_ties(x):
    c = Counter()
    for v in x:
        c[int(v)] += 1
    return [k for k, _ in c.most_common()]


def counter_multiply(x):
    c = Counter(int(v) for v in x)
    return {k: n * k for k, n in c.items()}


def c_add(a, b):
    return Counter(int(v) for v in a) + Counter(int(v) for v in b)


def c_sub(a, b):
    return Counter(int(v) for v in a) - Counter(int(v) for v in b)


def c_subtract(a, b):
    c = Counter(int(v) for v in a)
    c.subtract(int(v) for v in b)
    return c


def c_total(x):
    return Counter(int(v) for v in x).total()


def c_update_mapping(a, b):
    c = Counter(int(v) for v in a)
    c.update(Counter(int(v) for v in b))
    return c


def c_from_mapping(x):
    d = {}
    for v in x:
        d[int(v)] = d.get(int(v), 0) + 2
    return Counter(d)


def c_loop_keys(x):
    c = Counter(int(v) for v in x)
    out = []
    for k in c:
        out.append(k * 10 + c[k])
    return out


def c_pop(x):
    c = Counter(int(v) for v in x)
    n = c.pop(3)
    return n, c


def c_del(x):
    c = Counter(int(v) for v in x)
    del c[1]
    return c


def c_tuple_keys(a, b):
    c = Counter()
    for u, v in zip(a, b):
        c[(int(u), int(v))] += 1
    return c


def c_coded_keys(x):
    c = Counter()
    for v in x:
        if v > 1:
            c["big"] += 1
        else:
            c["small"] += 1
    return c


def c_float_counts(x, w):
    c = Counter()
    for v, u in zip(x, w):
        c[int(v)] += float(u)
    return c.most_common()


def c_python_keys(x):
    c = Counter()
    c[7] += 1
    for v in x:
        c[int(v)] += 1
    return c


def c_empty_return(x):
    c = Counter()
    return c, len(c)


def c_eq_dict(x):
    c = Counter(int(v) for v in x)
    return c == {3: 3, 1: 2, 2: 2, 0: 1}


def c_ne(a, b):
    return Counter(int(v) for v in a) != Counter(int(v) for v in b)


def c_sorted_by_count(x):
    c = Counter(int(v) for v in x)
    return sorted(c, key=c.get, reverse=True)


def c_min_key(x):
    c = Counter(int(v) for v in x)
    return min(c, key=c.get)


def c_mc_negative(x):
    c = Counter(int(v) for v in x)
    return c.most_common(-1), c.most_common(0), c.most_common(10)


def c_mc_loop(x):
    c = Counter(int(v) for v in x)
    total = 0
    for k, n in c.most_common(2):
        total += k * n
    return total


def c_elements(x):
    return sorted(Counter(int(v) for v in x).elements())


def c_filtered(x):
    return Counter(int(v) for v in x if v > 1)


def c_values_list(x):
    c = Counter(int(v) for v in x)
    return sorted(c.values())


def c_in_loop_cond(x):
    c = Counter()
    for v in x:
        if v % 2 == 0:
            c[int(v)] += 1
    return c


def c_dup_values(x):
    c = Counter(int(v) for v in x)
    return [k for k in c if c[k] > 1]


def dd_none(x):
    d = defaultdict()
    for v in x:
        d[int(v)] = 1
    return d


def dd_none_missing(x):
    d = defaultdict()
    d[int(x[0])] = 1
    return d[99]


def dd_bool(x):
    d = defaultdict(bool)
    for v in x:
        d[int(v)] = True
    return d


def dd_get(x):
    d = defaultdict(int)
    for v in x:
        d[int(v)] += 1
    return d.get(3), d.get(9, -1), len(d)


def dd_missing_read(x):
    d = defaultdict(int)
    for v in x:
        d[int(v)] += 1
    n = d[42]
    return n, len(d), d


def dd_items_sum(x):
    d = defaultdict(float)
    for v in x:
        d[int(v) % 3] += 1.5
    return sum(n for _, n in d.items())


def dd_setdefault_list(x):
    d = defaultdict(list)
    for i, v in enumerate(x):
        d[int(v)].append(i)
    return d


def dd_max(x):
    d = defaultdict(int)
    for v in x:
        d[int(v)] += int(v)
    return max(d, key=d.get)


def c_negative_keys(x):
    return Counter(int(v) for v in x).most_common(1)


_FIRST = [
    (label_tally, (L,)),
    (label_tally, (E,)),
    (label_tally_list, (L,)),
    (counter_incr, (L,)),
    (counter_update, (L,)),
    (counter_update_list, (L,)),
    (missing_key, (L,)),
    (most_common_all, (L,)),
    (most_common_1, (L,)),
    (mode, (L,)),
    (most_common_2, (L,)),
    (items_list, (L,)),
    (counter_len, (L,)),
    (counter_sum, (L,)),
    (counter_in, (L,)),
    (max_key, (L,)),
    (counter_to_dict, (L,)),
    (anagram, (L, L[::-1].copy())),
    (anagram, (L, L + 1)),
    (votes, (L,)),
    (histogram_codes, (L,)),
    (float_tally, (F,)),
    (counter_loop_items, (L,)),
    (dd_int, (L,)),
    (dd_float, (L,)),
    (dd_lambda, (L,)),
    (dd_to_dict, (L,)),
    (dd_word_lengths, (L,)),
    (inventory, (L, L * 2)),
    (inventory_counter, (L, L * 2)),
    (group_by_key, (L,)),
    (dd_len, (L,)),
    (counter_max_value, (L,)),
    (counter_get, (L,)),
    (counter_np_ints, (L,)),
    (counter_collections_mod, (L,)),
    (dd_sum, (F,)),
    (counter_sorted, (L,)),
    (counter_mc_ties, (L,)),
    (counter_multiply, (L,)),
    (most_common_all, (E,)),
    (mode, (E,)),
]
_SECOND = [
    (c_add, (L, N)),
    (c_sub, (L, N)),
    (c_subtract, (L, N)),
    (c_total, (L,)),
    (c_update_mapping, (L, N)),
    (c_from_mapping, (L,)),
    (c_loop_keys, (L,)),
    (c_pop, (L,)),
    (c_pop, (N,)),
    (c_del, (L,)),
    (c_del, (N,)),
    (c_tuple_keys, (L, L % 2)),
    (c_coded_keys, (L,)),
    (c_coded_keys, (np.array([0, 1]),)),  # never the "big" branch: no such key, as eagerly
    (c_float_counts, (L, L * 0.5)),
    (c_python_keys, (L,)),
    (c_empty_return, (L,)),
    (c_eq_dict, (L,)),
    (c_eq_dict, (N,)),
    (c_ne, (L, L[::-1].copy())),
    (c_ne, (L, N)),
    (c_sorted_by_count, (L,)),
    (c_min_key, (L,)),
    (c_mc_negative, (L,)),
    (c_mc_loop, (L,)),
    (c_elements, (L,)),
    (c_filtered, (L,)),
    (c_values_list, (L,)),
    (c_in_loop_cond, (L,)),
    (c_dup_values, (L,)),
    (dd_none, (L,)),
    (dd_none_missing, (L,)),
    (dd_bool, (L,)),
    (dd_get, (L,)),
    (dd_missing_read, (L,)),
    (dd_items_sum, (L,)),
    (dd_setdefault_list, (L,)),
    (dd_max, (L,)),
    (c_negative_keys, (N,)),
    (c_total, (E,)),
]


def dd_str(x):
    d = defaultdict(str)
    for v in x:
        d[int(v)] += "a"
    return d


def dd_set(x):
    d = defaultdict(set)
    for v in x:
        d[int(v)].add(1)
    return d


def c_run_time_strings(x):
    c = Counter()
    for v in x:
        c[str(int(v))] += 1
    return c


def c_most_common_run_time_n(x):
    c = Counter(int(v) for v in x)
    return c.most_common(int(x[0]))


def c_argument(x, c):
    for v in x:
        c[int(v)] += 1
    return c


_THIRD = [
    (dd_str, (L,)),
    (dd_set, (L,)),
    (c_run_time_strings, (L,)),
    (c_most_common_run_time_n, (L,)),
    (c_argument, (L, Counter({1: 5, 9: 1}))),
]
PROGRAMS = _FIRST + _SECOND + _THIRD

# Refused with a clear error on both backends: (words the message holds).
REFUSED = {
    group_by_key: ("groups", "gets a list as the value of a key"),
    dd_setdefault_list: ("`d`", "gets a list as the value of a key"),
    c_elements: ("`.elements()` is not staged",),
    dd_set: ("`d`", "gets a set as the value of a key"),
    c_most_common_run_time_n: ("dict `c`", "give `n` as a Python int"),
}
# Not lowered to JAX (a LoweringError naming the line), as for a plain dict: a sort by a key
# function and `.get()` with the default None. (A list of pairs sorted, and arithmetic on two
# values read from run-time lists, `Counter + Counter`, run since jax11.)
NOT_LOWERED = {
    c_sorted_by_count: "cannot be lowered to JAX",
    dd_get: "with the default None",
    dd_str: "holds strings, which this backend does not key",
    c_run_time_strings: "dict `c` holds strings, which this backend does not key",
}


def _same(want, got) -> bool:
    """`same`, and a defaultdict's default_factory (a lambda: what it gives)."""
    if not same(want, got):
        return False
    if type(want) is defaultdict:
        a, b = want.default_factory, got.default_factory
        return a is b or a is not None and b is not None and a() == b()
    if isinstance(want, (tuple, list)):
        return all(map(_same, want, got))
    return True


def _ids(cases):
    return [f"{fn.__name__}-{i}" for i, (fn, _) in enumerate(cases)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn, args", PROGRAMS, ids=_ids(PROGRAMS))
def test_tally_follows_the_rule(fn, args, backend):
    if fn in REFUSED:
        with pytest.raises(AutoconvError) as info:
            autoconv.function(fn, backend=backend)(*copy.deepcopy(args))
        message = str(info.value)
        assert HERE in message, message
        for word in REFUSED[fn]:
            assert word in message, message
        return
    if backend == "jax" and fn in NOT_LOWERED:
        with pytest.raises(AutoconvError) as info:
            autoconv.function(fn, backend=backend)(*copy.deepcopy(args))
        assert type(info.value).__name__ == "LoweringError", info.value
        assert HERE in str(info.value) and NOT_LOWERED[fn] in str(info.value)
        return
    try:
        want = ("return", fn(*copy.deepcopy(args)))
    except Exception as e:  # noqa: BLE001 - an outcome
        want = ("raise", e)
    graph = autoconv.function(fn, backend=backend)
    if want[0] == "raise":
        with pytest.raises(type(want[1])):
            graph(*copy.deepcopy(args))
        return
    got = graph(*copy.deepcopy(args))
    assert _same(want[1], got), (want[1], got)


@pytest.mark.parametrize("fn", [label_tally, counter_incr, most_common_all, dd_int, votes, c_add])
def test_one_trace_for_every_length(fn):
    """Staged loops (not unrolled ones): one trace counts arrays of any length."""
    graph = autoconv.function(fn, reduce_retracing=True)
    for x in (L, N, L[:3], np.array([7, 7, 7, 1, 1, 2, 9, 9, 9, 9])):
        args = (x, x[::-1].copy()) if fn is c_add else (x,)
        want = fn(*args)
        assert _same(want, graph(*args)), (fn.__name__, x)


def _float_counts(x, w):
    d = {}
    for v, u in zip(x, w):
        d[int(v)] = d.get(int(v), 0) + float(u)
    return d


def _set_of_generator(x):
    return sorted(set(int(v) for v in x))


def _dict_of_dict(x):
    d = {}
    for v in x:
        d[int(v)] = d.get(int(v), 0) + 1
    return dict(d), sorted(d, key=d.get, reverse=False)


def _dict_of_pairs(x):
    return dict(zip([int(v) for v in x], range(len(x)))), dict((int(v), 1) for v in x)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [_float_counts, _set_of_generator, _dict_of_dict, _dict_of_pairs])
def test_plain_dicts_found_on_the_way(fn, backend):
    """Plain dicts and sets the same work fixed: a float added to `.get(k, 0)` stays a float
    on JAX (it was truncated to int), `set(generator)` holds values (it held Tensors), and
    `dict(d)` copies a run-time dict (it gave `{}`), `dict(pairs)` of run-time keys stores
    each pair (it was refused)."""
    if backend == "jax" and fn is _dict_of_dict:
        pytest.skip("sorted(key=) is not lowered to JAX (NOT_LOWERED)")
    args = (L, L * 0.5) if fn is _float_counts else (L,)
    want = fn(*args)
    assert _same(want, autoconv.function(fn, backend=backend)(*args))


def test_counter_methods_outside_traces_are_pythons():
    """Converted code run outside a trace (`convert`) counts with Python's Counter."""
    for fn in (label_tally, c_add, c_del, most_common_2):
        args = (L, N) if fn is c_add else (L,)
        assert _same(fn(*args), autoconv.convert(fn)(*args))


@pytest.mark.skipif("jax" not in BACKENDS, reason="needs jax")
@pytest.mark.parametrize("fn", [counter_incr, label_tally, dd_int])
def test_under_jax_jit_as_a_plain_dict(fn):
    """Under `jax.jit(autoconv.convert(f))` a key is a JAX tracer, which `int()` cannot make a
    Python number: the JaxStagingError naming the line that a plain dict's tally gives."""
    import jax

    with pytest.raises(AutoconvError) as info:
        jax.jit(autoconv.convert(fn))(L)
    assert type(info.value).__name__ == "JaxStagingError" and HERE in str(info.value)
