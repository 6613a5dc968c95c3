"""Programs of the class issue 24's NumPy coverage work fixed (NumPy functions, in-place NumPy
calls and Generator methods that graph mode did not know), written after the fix and not seen
by it: other shapes, dtypes, nesting, Python ints and floats, empty inputs, in branches and in
loops. Judged as `fresh_batch.py` judges (NumPy backend, every pass off, JAX backend).

    python tools/numpy_coverage_programs.py          # lines that differ, then counts
"""

# ruff: noqa: B007  (programs written as users write them: unused loop names)
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fresh_batch  # noqa: E402

P = []


def prog(*inputs):
    def deco(f):
        P.append((f, inputs))
        return f

    return deco


@prog((np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]]),), (np.eye(2) * 3,))
def cofactor_matrix(a):
    # minors by np.delete in a staged double loop (the index is a loop counter)
    n = a.shape[0]
    c = np.zeros_like(a)
    for i in range(n):
        for j in range(n):
            minor = np.delete(np.delete(a, i, axis=0), j, axis=1)
            c[i, j] = (-1) ** (i + j) * np.linalg.det(minor)
    return c


@prog((np.array([3, 0, 2, 3, 3, 1]), 4), (np.zeros(0, dtype=np.int64), 3))
def histogram_by_add_at(labels, k):
    counts = np.zeros(k, dtype=np.int64)
    np.add.at(counts, labels, 1)
    if counts.sum() > 0:
        best = int(np.argmax(counts))
    else:
        best = -1
    return counts, best


@prog((np.array([[0.0, 5.0, 9.0], [5.0, 0.0, 2.0], [9.0, 2.0, 0.0]]),), (np.ones((2, 2)),))
def nearest_other(d):
    # a distance matrix with its diagonal blanked, then the nearest other point of each
    d = d.copy()
    np.fill_diagonal(d, np.inf)
    out = []
    for i in range(d.shape[0]):
        j = int(np.argmin(d[i]))
        if d[i, j] < 3:
            out.append(j)
        else:
            out.append(-1)
    return out


@prog((7, 5), (8, 1), (9, 0))
def shuffled_batches(seed, n):
    g = np.random.default_rng(seed)
    order = np.arange(n)
    total = 0.0
    for epoch in range(2):
        g.shuffle(order)
        if n > 0 and order[0] % 2 == 0:
            total += float(order[0])
    return order, total


@prog((np.array([4.0, -1.0, 2.5, 0.0]),), (np.array([1.0]),))
def sorted_in_place_in_branch(x):
    a = x.copy()
    if a[0] > 2:
        a.sort()
    else:
        a.fill(0.5)
    return a, a.sum()


@prog((np.array([1, 5, 2, 8, 3]), np.array([2, 3, 9])), (np.array([1, 1]), np.array([7])))
def set_report(a, b):
    common = np.intersect1d(a, b)
    only_a = np.setdiff1d(a, b)
    if len(common) > 0:
        msg = "overlap"
    else:
        msg = "disjoint"
    return msg, common, only_a, np.union1d(a, b).size


@prog((np.arange(12.0).reshape(3, 4),), (np.arange(6.0).reshape(3, 2),))
def split_and_average(m):
    left, right = np.hsplit(m, 2)
    w = np.arange(1.0, m.shape[0] + 1)
    s = 0.0
    for part in (left, right):
        if part.sum() > 10:
            s += np.average(part[:, 0], weights=w)
    return s, np.diagonal(m).copy(), np.trace(m)


@prog((np.array([0.2, 0.7, 1.4, 2.9]), 1), (np.array([-1.0, 5.0]), 2))
def digitize_and_fit(x, deg):
    bins = np.digitize(x, [0.0, 1.0, 2.0])
    coeffs = np.polyfit(np.arange(len(x), dtype=float), x, 1)
    if bins.max() > 1:
        coeffs = coeffs * 2
    return bins, np.round(coeffs, 6)


@prog((11, np.array([1.0, 2.0, 3.0])), (12, np.array([-1.0])))
def choice_then_flip(seed, x):
    g = np.random.default_rng(seed)
    signs = g.choice([-1.0, 1.0], size=x.shape[0])
    for i in range(x.shape[0]):
        if signs[i] < 0:
            signs[i] = 2.0
    return signs * x


@prog((np.array([[1.0, 2.0], [3.0, 4.0]]),), (np.array([[0.0, 0.0], [0.0, 1.0]]),))
def copyto_where(m):
    out = np.full_like(m, -1.0)
    np.copyto(out, m * 10, where=m > 0.5)
    if out[0, 0] < 0:
        out = out + 1
    return out


if __name__ == "__main__":
    fresh_batch.main(P)
