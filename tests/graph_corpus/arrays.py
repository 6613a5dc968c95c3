"""The Tensor used as an array: .item(), .tolist(), round(), isinstance checks, np.isscalar,
lookups in constant tables, sizes from data, in-place updates of arguments.

Issue 9 accepts either the eager answer or a clear error naming the function for each of
these, so they are marked `expect="error"` (a plain `len()`, `.shape` or a copy changed in
place are ordinary array use and are not)."""

import numpy as np

from tests.graph_corpus import case, limit

X = np.array([1.25, -2.5, 3.75])
TABLE = np.array([10.0, 20.0, 30.0, 40.0])


@case((X,), (X * 2,), cls=8, expect="error")
def item_of_sum(x):
    return np.sum(x).item()


@case((X,), (X[:1],), cls=8, expect="error")
def tolist_result(x):
    return (x * 2).tolist()


@case((X,), (-X,), cls=8, expect="error")
def round_mean(x):
    return round(np.mean(x), 2)


@case((X,), (np.float64(2.0),), cls=8, expect="error")
def isinstance_guard(x):
    if isinstance(x, np.ndarray):
        return x.sum()
    return x


@case((X,), (np.float64(2.0),), cls=8, expect="error")
def isscalar_guard(x):
    if np.isscalar(x):
        return np.array([x])
    return x


@case((TABLE, np.int64(2)), (TABLE, np.int64(0)), cls=8, expect="error")
def take_from_table(table, i):
    return np.take(table, i)


@case((np.int64(1),), (np.int64(3),), cls=8, expect="error")
def constant_table_lookup(i):
    table = np.array([0.5, 1.5, 2.5, 3.5])
    return table[i]


@case((np.int64(3),), (np.int64(0),), cls=8, expect="error")
def arange_from_tensor(n):
    return np.arange(n) * 2


@case((np.int64(2),), (np.int64(4),), cls=8, expect="error")
def zeros_from_tensor(n):
    return np.zeros(n) + 1


@case((X,), (X[:1],), cls=8, expect="error")
def inplace_add_argument(x):
    x += 1
    return np.sum(x)


@case((X, np.int64(1)), (X, np.int64(2)), cls=8, expect="error")
def setitem_argument(x, i):
    x[i] = 0.0
    return x * 2


@case((X,), (-X,), cls=8, expect="error")
def float_of_tensor(x):
    m = float(np.max(x))
    return m * 2


@case((np.array([2, 5, 1]),), (np.array([0, 3]),), cls=8, expect="error")
def int_of_tensor_range(counts):
    total = 0
    for c in counts:
        for _ in range(int(c)):
            total += 1
    return total


@case((X,), (np.ones((2, 2)),), cls=(8, 9))
def loop_over_shape(x):
    total = 0.0
    for i in range(x.shape[0]):
        total = total + np.sum(x[i])
    return total


@case((X,), (X * 100,), cls=8, expect="error")
def format_loss(x):
    loss = np.mean(x**2)
    return f"loss={loss:.3f}"


@case((X,), (-X,), cls=(8, 4), expect="error")
def max_builtin(x):
    return max(np.sum(x), 0.0)


@case((X,), (np.ones((2, 5)),), cls=(8,))
def len_and_size(x):
    return len(x), x.size, x.shape[0] * 2


@case((X, np.array([0, 2])), (X, np.array([1])), cls=(8,))
@limit("item assignment into an argument array (eager changes the caller's array)")
def fancy_index_argument(x, idx):
    y = x.copy()
    y[idx] = -1.0
    return y


@case((np.array([0.2, 0.7, 0.9]),), (np.zeros(0),), cls=8, expect="error")
def histogram_in_place(x):
    hist = np.zeros(2)
    for v in x:
        if v > 0.5:
            hist += np.array([0.0, 1.0])
        else:
            hist += np.array([1.0, 0.0])
    return hist


@case((np.array([1.0, 2.0]), np.int64(3)), cls=8, expect="error")
def decay_in_place(w, steps):
    i = 0
    while i < steps:
        w *= 0.5
        i += 1
    return w
