"""Programs of the classes batch 12 found (tools/fresh_batch12_findings.md), written anew for
each class, run eagerly and as one graph function on every input, on both backends: where the
JAX backend cannot lower a construct, its documented LoweringError naming the user's line.

- W1: `.name` of an enum member a staged condition chose (the choice's own `name` answered).
- W2: a method called on an object a conditional expression chose, appending to a list the
  object holds (both objects got the append).
- W3: `in` of a list against a tuple or list of lists (`sorted(c) in ([1, 2], [2, 3])`).
- E1: a staged `raise` inside a `with` whose manager's `__exit__` may suppress it: a clear
  error (the graph raised where eager goes on).
- E2: `statistics.mean` of run-time numbers: a clear error (an internal TypeError).
- E3: `with contextlib.suppress(E):` around an error raised when the graph runs.
- C1: `dict(sorted(d.items()))` of a dict given run-time keys.
- C2: `:=` in a comprehension's filter: a clear error naming the comprehension.
- C5: an object made in a staged loop's body and changed there (`th = T(v); th.c = ...`).
- C6: a dict comprehension with two `for`s and a staged filter.
- C3: `np.column_stack`, `map(f, a, b)` of run-time lists; a comprehension over a list a
  helper returned in a tuple (`indptr, data = to_csr(A)`).
- C7: `c == START` of a tuple of run-time ints in a function that also tests tuples against a
  set (the converter's `keyed_op`).
- C13: `.sort(key=lambda e: (e[0], e[1]))` (tuple keys) of a run-time list; `for _, _, v in`
  a run-time list.
- C10, library code: clear errors for iterating a run-time string and for `statistics`.
"""

import contextlib
import enum
import statistics
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_or_jax_limit, follows_the_rule, message

P = []


def prog(*inputs):
    def add(f):
        P.append((f, inputs))
        return f

    return add


# W1 ------------------------------------------------------------------------------------------


class Phase(enum.Enum):
    IDLE = 0
    RUN = 1
    DONE = 2


STEP = {Phase.IDLE: Phase.RUN, Phase.RUN: Phase.DONE, Phase.DONE: Phase.DONE}


@prog(np.array([1.0, 0.0, 1.0]), np.array([0.0, 0.0]), np.array([1.0]))
def phase_names(x):
    p = Phase.IDLE
    names = [p.name]
    for v in x:
        if v > 0:
            p = STEP[p]
        names.append(p.name)
    return p.name, p.value, names


@prog(np.array([2.0]), np.array([-2.0]))
def chosen_member_name(x):
    p = Phase.RUN if x[0] > 0 else Phase.DONE
    return p.name, f"{p.name.lower()}"


# W2 ------------------------------------------------------------------------------------------


@dataclass
class Log:
    lines: list = field(default_factory=list)
    count: int = 0

    def add(self, v):
        self.lines.append(v)
        self.count += 1


@prog(np.array([1.0, -2.0, 3.0]), np.array([-1.0]))
def log_by_sign(x):
    pos, neg = Log(), Log()
    for v in x:
        (pos if v >= 0 else neg).add(float(v))
    return pos.lines, neg.lines, pos.count, neg.count


@prog(np.array([4.0]), np.array([-4.0]))
def log_chosen_once(x):
    a, b = Log(), Log()
    (a if x[0] > 0 else b).add(1.5)
    return len(a.lines), len(b.lines)


# W3 ------------------------------------------------------------------------------------------


@prog(np.array([3, 1, 2]), np.array([5, 1, 2]), np.array([2, 2]))
def sorted_in_tuple_of_lists(d):
    c = Counter(int(v) for v in d)
    return sorted(c) in ([1, 2, 3], [2, 3, 4]), sorted(c) not in [[1, 2, 5]]


@prog(np.array([1.0, 2.0]), np.array([2.0, 1.0]))
def tolist_in_list_of_lists(x):
    return x.tolist() in [[1.0, 2.0], [0.0]]


# E3 ------------------------------------------------------------------------------------------


@prog((np.array([1.0, 2.0, 3.0]), np.array([0.0, 4.0, 1.0])), (np.array([1.0]), np.array([2.0])))
def ratios_suppressed(ab):
    a, b = ab
    out = []
    for x, y in zip(a.tolist(), b.tolist()):
        with contextlib.suppress(ZeroDivisionError):
            out.append(x / y)
    return out


@prog(np.array([3.0, -1.0]), np.array([2.0, 5.0]))
def suppress_staged_raise(x):
    total = 0.0
    for v in x:
        with contextlib.suppress(ValueError, KeyError):
            if v < 0:
                raise ValueError("negative")
            total += v
    return total


# C1 ------------------------------------------------------------------------------------------


@prog(np.array([3, 1, 3, 2]), np.array([7]), np.zeros(0, dtype=np.int64))
def sorted_counts_dict(x):
    hist = {}
    for s in x:
        hist[int(s)] = hist.get(int(s), 0) + 1
    return dict(sorted(hist.items()))


# C5 ------------------------------------------------------------------------------------------


class Cell:
    def __init__(self, v):
        self.v = v

    @property
    def doubled(self):
        return self.v * 2

    @doubled.setter
    def doubled(self, d):
        self.v = d / 2


@prog(np.array([1.0, -2.0, 3.0]), np.zeros(0))
def object_made_in_loop(x):
    out = []
    for t in x:
        c = Cell(t)
        c.v = c.v + 1
        c.doubled = c.doubled + 4
        if t > 0:
            c.v = c.v * 10
        out.append(c.v)
    return out


# C6 ------------------------------------------------------------------------------------------


@prog(np.array([[0.0, 2.0], [3.0, 0.0]]), np.zeros((2, 2)))
def nonzero_entries_dict(A):
    return {(i, j): float(A[i, j]) for i in range(2) for j in range(2) if A[i, j]}


# C3 ------------------------------------------------------------------------------------------


@prog(np.array([1.0, -1.0, 2.0]), np.array([3.0]))
def columns_of_positives(x):
    cols = []
    for v in x:
        if v > 0:
            cols.append(np.array([v, v * v]))
    return np.column_stack(cols)


@prog(np.array([1, 2, 3, 4, 6]), np.array([1]))
def products_of_evens_and_odds(x):
    evens = [v for v in x.tolist() if v % 2 == 0]
    odds = [v for v in x.tolist() if v % 2 == 1]
    return list(map(lambda a, b: a * b + 1, evens, odds))


def _split_signs(x):
    pos, neg = [], []
    for v in x:
        if v > 0:
            pos.append(v)
        else:
            neg.append(v)
    return pos, neg


@prog(np.array([1.0, -2.0, 3.0]), np.zeros(0))
def helper_lists_unpacked(x):
    pos, neg = _split_signs(x)
    return [float(v) for v in pos], [round(float(v), 1) for v in neg]


# C7 ------------------------------------------------------------------------------------------

STOP = {(3, 0), (3, 2)}
START2 = (0, 3)


def _pair(seq, i):
    return (int(seq[i]), int(seq[i + 1]))


@prog(np.array([0, 3, 1, 1, 3, 0]), np.array([1, 1, 1, 1]))
def codon_pairs(seq):
    start, found = None, []
    for frame in range(2):
        i = frame
        start = None
        while i + 2 <= len(seq):
            c = _pair(seq, i)  # (a helper's result: the converter's `keyed_op`)
            if start is None and c == START2:
                start = i
            elif start is not None and c in STOP:
                found.append((frame, start, i))
                start = None
            i += 2
    return found


# C13 -----------------------------------------------------------------------------------------


@prog(np.array([[0.0, 2.0, 0.0], [3.0, 0.0, 4.0]]), np.zeros((2, 3)))
def transposed_entries(A):
    entries = [(j, i, A[i, j]) for i in range(A.shape[0]) for j in range(A.shape[1]) if A[i, j]]
    entries.sort(key=lambda e: (e[0], e[1]))
    return [(r, c) for r, c, _ in entries], [float(v) for _, _, v in entries]


@prog(np.array([5, -1, 4, 7, 3, 9, 2]), np.zeros(0, dtype=np.int64))
def pairs_by_two_keys(x):
    e = [(int(v) % 3, int(v)) for v in x if v > 0]
    e.sort(key=lambda t: (t[0], -t[1]), reverse=True)
    return e


@prog(np.array([1.0, -1.0, 2.0]), np.array([-3.0]))
def ids_of_positive_records(x):
    fixed = [(1.0, 0, [0]), (2.0, 1, [1])]
    heap = [(float(v), i, [i]) for i, v in enumerate(x) if v > 0]
    return {i: 0 for _, i, _ in fixed}, {i: len(s) for _, i, s in heap}, {i for _, i, _ in heap}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f,inputs", P, ids=[f.__name__ for f, _ in P])
def test_program(f, inputs, backend):
    for x in inputs:
        follows_or_jax_limit(f, x, backend=backend)


@pytest.mark.parametrize("f,inputs", P, ids=[f.__name__ for f, _ in P])
def test_program_numpy_strict(f, inputs):
    """On the NumPy backend every program runs: eager's answer, or eager's exception."""
    for x in inputs:
        follows_the_rule(f, x)


# Clear errors --------------------------------------------------------------------------------


class Quiet:
    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        return kind is ValueError


def raise_in_suppressing_with(x):
    n = 0
    for v in x:
        with Quiet():
            if v < 0:
                raise ValueError("neg")
            n += 1
    return n


class Loud:
    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        return None


def raise_in_plain_with(x):
    n = 0
    for v in x:
        with Loud():
            if v < 0:
                raise ValueError("neg")
            n += 1
    return n


def mean_of_list(x):
    return statistics.mean(x.tolist())


def walrus_filter(x):
    return [y for v in x if (y := v * v) > 2]


@pytest.mark.parametrize("backend", BACKENDS)
def test_raise_in_suppressing_with_is_an_error(backend):
    text = message(raise_in_suppressing_with, np.array([1.0, -1.0]), backend=backend)
    assert "inside the `with Quiet()` at line" in text
    assert "`Quiet.__exit__` may suppress it" in text
    assert "test_batch12_classes.py:" in text


@pytest.mark.parametrize("backend", BACKENDS)
def test_raise_in_with_that_lets_it_through(backend):
    follows_the_rule(raise_in_plain_with, np.array([1.0, 2.0]), backend=backend)
    follows_the_rule(raise_in_plain_with, np.array([1.0, -2.0]), backend=backend)


def test_statistics_of_run_time_values_is_an_error():
    text = message(mean_of_list, np.array([1.0, 2.0]))
    assert "`return statistics.mean(x.tolist())` gives a number known only" in text
    assert "to `statistics`" in text and "np.mean" in text
    assert "test_batch12_classes.py:" in text


def test_walrus_in_filter_is_an_error():
    text = message(walrus_filter, np.array([1.0, 2.0]))
    assert "the comprehension in `return [y for v in x if (y := v * v) > 2]`" in text
    assert "`:=` in it binds a name of the function" in text
    assert "Write it as a `for` statement" in text


def digit_sum_by_text(x):
    return sum(int(c) for c in str(int(x[0])))


def fmean_of_list(x):
    return statistics.fmean(x.tolist())


def median_of_list(x):
    return statistics.median(x.tolist())


def test_iterating_a_run_time_string_is_an_error():
    text = message(digit_sum_by_text, np.array([38]))
    assert "iterates a string made when the graph runs" in text
    assert "`n % 10`" in text and "test_batch12_classes.py:" in text


def test_library_code_given_run_time_numbers_names_the_call():
    text = message(fmean_of_list, np.array([1.0, 2.0]))
    assert "`return statistics.fmean(x.tolist())` gives a number known only" in text
    assert "takes its float()" in text and "test_batch12_classes.py:" in text
    text = message(median_of_list, np.array([1.0, 3.0, 2.0]))
    assert "This line is in `statistics`, called from" in text
    assert "test_batch12_classes.py:" in text


RATES = {"standard": (5.0, 0.5), "express": (15.0, 1.0)}


def table_read_at_run_time_key(x):
    out = []
    for v in x:
        r = RATES.get(("standard", "express", "none")[int(v)])
        out.append(r[0] if r is not None else -1.0)
    return out


def test_read_of_a_module_table_at_a_run_time_key_says_read():
    text = message(table_read_at_run_time_key, np.array([0, 1]))
    assert "holds keys known while tracing ('standard', 'express')" in text
    assert "is read (`.get()`) at a key known only when the graph runs" in text
    assert "test_batch12_classes.py:" in text
