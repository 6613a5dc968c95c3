"""Dicts and sets keyed by data (issue 24, branch dicts7): 15 programs written after the fix,
in its classes (word counts, histograms, group-by, memoized closures, adjacency and inverted
indexes as dicts of lists, set algebra). Run: `python tools/dicts7_batch.py`; it prints each
outcome that is not eager's answer (numpy, numpy with optimize=False, jax) and the counts."""

import copy
import pathlib
import sys

import numpy as np

import autoconv

I1 = np.array([4, 2, 4, 7, 2, 4, 0])
I2 = np.array([1, 1, 1])
E = np.zeros(0, dtype=np.int64)
F1 = np.array([0.2, 1.7, 0.9, 1.1, 0.3, 2.6])


def word_counts(tokens):
    counts = {}
    for t in tokens:
        counts[int(t)] = counts.get(int(t), 0) + 1
    return {k: c for k, c in counts.items() if c >= 2}


def histogram_bins(x):
    bins = {}
    for v in x:
        b = int(v // 0.5)
        bins[b] = bins.get(b, 0) + 1
    return sorted(bins.items())


def group_sums_listed(x):
    sums = {}
    for v in x:
        k = int(v) % 3
        sums[k] = sums.get(k, 0) + int(v)
    return [sums[k] for k in sorted(sums)]


def memo_cost(x):
    memo = {}

    def cost(k):
        if k in memo:
            return memo[k]
        memo[k] = k * k + 1
        return memo[k]

    total = 0
    for v in x:
        total += cost(int(v))
    return total, len(memo)


def inverted_index(x):
    index = {}
    for d, w in enumerate(x):
        index.setdefault(int(w), []).append(d)
    return index


def adjacency_lists(x):
    adj = {}
    for i in range(len(x) - 1):
        a, b = int(x[i]), int(x[i + 1])
        if a not in adj:
            adj[a] = []
        adj[a].append(b)
    return adj


def unique_in_branch(x):
    if x.sum() > 3:
        s = set(x.tolist())
    else:
        s = set()
    return len(s)


def jaccard(x):
    a = set()
    b = set()
    for i, v in enumerate(x):
        if i % 2 == 0:
            a.add(int(v))
        else:
            b.add(int(v))
    union = a | b
    if not union:
        return 0.0
    return len(a & b) / len(union)


def seen_pairs(x):
    seen = set()
    for i in range(len(x) - 1):
        seen.add((int(x[i]), int(x[i + 1])))
    return len(seen), sorted(seen)


class Tally:
    def __init__(self):
        self.counts = {}

    def add(self, k):
        self.counts[k] = self.counts.get(k, 0) + 1

    def repeated(self):
        return {k: v for k, v in self.counts.items() if v > 1}


def tally_repeated(x):
    t = Tally()
    for v in x:
        t.add(int(v))
    return t.repeated()


def frequencies(x):
    counts = {}
    for v in x:
        counts[int(v)] = counts.get(int(v), 0) + 1
    total = len(x)
    return {k: c / total for k, c in counts.items()}


def all_modes(x):
    counts = {}
    for v in x:
        counts[int(v)] = counts.get(int(v), 0) + 1
    if not counts:
        return []
    best = max(counts.values())
    return [k for k, c in counts.items() if c == best]


def sum_of_squares_of_counts(x):
    counts = {}
    for v in x:
        counts[int(v)] = counts.get(int(v), 0) + 1
    return sum(c * c for c in counts.values())


def missing_digits(x):
    present = set(x.tolist())
    return sorted(set(range(10)) - present)


def common_and_only(x, y):
    a = set(x.tolist())
    b = set(y.tolist())
    return sorted(a & b), sorted(a - b), a <= b, a == b


PROGS = [
    (word_counts, [(I1,), (E,), (I2,)]),
    (histogram_bins, [(F1,), (np.zeros(0),)]),
    (group_sums_listed, [(I1,), (E,)]),
    (memo_cost, [(I1,), (E,)]),
    (inverted_index, [(I1,), (E,)]),
    (adjacency_lists, [(I1,), (E,)]),
    (unique_in_branch, [(I1,), (I2,)]),
    (jaccard, [(I1,), (E,), (I2,)]),
    (seen_pairs, [(I1,), (E,)]),
    (tally_repeated, [(I1,), (E,)]),
    (frequencies, [(I1,), (I2,)]),
    (all_modes, [(I1,), (E,)]),
    (sum_of_squares_of_counts, [(I1,), (E,)]),
    (missing_digits, [(I1,), (E,)]),
    (common_and_only, [(I1, I2), (E, I1), (I2, I2)]),
]


def same(want, got):
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
    from tests.graph.agreement import same as s

    return s(want, got)


if __name__ == "__main__":
    import warnings

    warnings.simplefilter("ignore")
    tally = {}
    for fn, inputs in PROGS:
        for be in ("numpy", "noopt", "jax"):
            worst = "ok"
            for args in inputs:
                try:
                    want = ("ok", fn(*copy.deepcopy(args)))
                except Exception as e:
                    want = ("raise", e)
                try:
                    g = autoconv.function(fn, backend="jax" if be == "jax" else "numpy")
                    if be == "noopt":
                        g = autoconv.function(fn, backend="numpy", optimize=False)
                    got = g(*copy.deepcopy(args))
                    res = "ok" if want[0] == "ok" and same(want[1], got) else "WRONG"
                    if res == "WRONG":
                        msg = f"{want} vs {got}"
                except autoconv.AutoconvError as e:
                    res = "ok" if want[0] == "raise" and isinstance(e, type(want[1])) else "ERROR"
                    msg = str(e).split("\n")[0]
                except Exception as e:
                    res = "ok" if want[0] == "raise" and isinstance(e, type(want[1])) else "CRASH"
                    msg = repr(e)
                if res != "ok":
                    worst = res
                    print(f"{fn.__name__} {be} {args[0][:3]}: {res} {msg[:220]}")
            tally[worst] = tally.get(worst, 0) + 1
    print("COUNTS (program x mode):", tally)
