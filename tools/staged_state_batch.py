"""A second batch of programs nobody here wrote beforehand (issue 24, 2026-11-28): arrays made
with NumPy before a staged `if` or loop and written inside it, lists appended to by staged
statements nested in staged loops and read afterwards (`losses[-1]`, `sum`, `max`, `for`),
list items replaced in a staged branch, `int()` and `float()` of Tensors, and arrays that
something else sees (which must stay errors). Each runs on four inputs, eagerly and as a graph
(NumPy backend, every optimizing pass off, JAX backend), judged as `fresh_batch.py` judges.

    python tools/staged_state_batch.py
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fresh_batch import main  # noqa: E402

P = []
X = np.array([1.5, -2.0, 3.0, 0.5])
INPUTS = [(X,), (-X,), (np.array([0.25, 0.5, -0.75, 2.5]),), (np.zeros(4),)]


def prog(f):
    P.append((f, INPUTS))
    return f


G = np.zeros(3)


class Box:
    pass


class Counter:
    def __init__(self):
        self.n = 0
        self.total = 0.0

    def add(self, v):
        self.n += 1
        self.total += v


@prog
def nested_append(x):
    out = []
    for i in range(x.shape[0]):
        if x[i] > 0:
            for j in range(2):
                out.append(x[i] * j)
    return out


@prog
def nested_staged_append(x):
    rows = []
    for v in x:
        row = []
        for w in x:
            row.append(v * w)
        rows.append(np.stack(row))
    return np.stack(rows)


@prog
def tuple_append(x):
    pairs = []
    for v in x:
        pairs.append((v, v * 2))
    return pairs


@prog
def history(x):
    y = x[0]
    hist = [y]
    for v in x:
        y = 0.5 * y + v
        hist.append(y)
    return np.stack(hist)


@prog
def bins(x):
    counts = np.zeros(4)
    for v in x:
        b = int(v) % 4
        counts[b] += 1
    return counts


@prog
def lo_acc(x):
    lo = np.zeros(2)
    for v in x:
        if v > 0:
            lo[0] += v
        else:
            lo[1] += v
    return lo


@prog
def copy_write(m):
    m = m.copy()
    if m[0] > 0:
        m[0] = m[1]
    return m


@prog
def branch_write(x):
    y = np.zeros(3)
    if x.sum() > 0:
        y[0] = x[0]
    else:
        y[1] = x[1]
    return y


@prog
def while_write(x):
    out = np.zeros_like(x)
    i = 0
    while i < x.shape[0]:
        out[i] = x[i] * 2
        i += 1
    return out


@prog
def loop_dyn_write(x):
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        if x[i] > 0:
            out[i] = x[i]
    return out


@prog
def alias(x):
    y = np.zeros(3)
    z = y
    if x.sum() > 0:
        y[0] = 1.0
    return z


@prog
def view(x):
    y = np.zeros(3)
    v = y[1:]
    if x.sum() > 0:
        y[1] = 1.0
    return v


@prog
def in_list(x):
    y = np.zeros(3)
    keep = [y]
    if x.sum() > 0:
        y[1] = 1.0
    return keep[0]


@prog
def in_obj(x):
    b = Box()
    y = np.zeros(3)
    b.buf = y
    if x.sum() > 0:
        y[1] = 1.0
    return b.buf


@prog
def glob(x):
    y = G
    if x.sum() > 0:
        y[1] = 1.0
    return y * 1


@prog
def loop_alias(x):
    y = np.zeros(3)
    z = y
    for v in x:
        y[0] += v
    return z


@prog
def loop_view(x):
    y = np.zeros(3)
    w = y[:2]
    for v in x:
        if v > 0:
            y[0] += v
    return w


@prog
def private_ok(x):
    y = np.zeros(3)
    z = y.copy()
    if x.sum() > 0:
        y[0] = 1.0
    return y, z


@prog
def ret_list(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v * 2)
    return out


@prog
def len_list(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v * 2)
    return len(out)


@prog
def sum_list(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v * 2)
    return sum(out)


@prog
def array_of_pairs(x):
    pairs = []
    for v in x:
        pairs.append((v, v * 2))
    return np.array(pairs)


@prog
def iterate_after(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    total = 0.0
    for o in out:
        total += o
    return total


@prog
def index_last(x):
    out = [x[0]]
    for v in x:
        out.append(out[-1] * 0.5 + v)
    return out[-1]


@prog
def nested_loops_append(x):
    out = []
    for v in x:
        for w in x:
            if v > w:
                out.append(v - w)
    return np.array(out)


@prog
def two_level_append_before_after(x):
    out = []
    for v in x:
        out.append(v)
        for w in x:
            if w > v:
                out.append(w - v)
        out.append(-v)
    return np.array(out)


@prog
def while_in_for_append(x):
    out = []
    for v in x:
        k = v
        while k > 0.5:
            out.append(k)
            k = k / 2
    return np.array(out), len(out)


@prog
def three_levels(x):
    acc = []
    for a in x:
        for b in x:
            for c in x:
                if a + b > c:
                    acc.append(a * b - c)
    return np.sum(np.array(acc))


@prog
def prefix_history(x):
    h = [x[0] * 0.0]
    for v in x:
        if v > 0:
            h.append(h[0] + v)
    return np.stack(h)


@prog
def bincount_manual(x):
    counts = np.zeros(5, dtype=np.int64)
    for v in x:
        k = int(abs(v)) % 5
        counts[k] += 1
    return counts


@prog
def argmax_manual(x):
    best = float(x[0])
    idx = 0
    for i in range(1, x.shape[0]):
        if x[i] > best:
            best = float(x[i])
            idx = i
    return best, idx


@prog
def clip_inplace(x):
    y = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        if x[i] > 1.0:
            y[i] = 1.0
        elif x[i] < -1.0:
            y[i] = -1.0
        else:
            y[i] = x[i]
    return y


@prog
def matrix_fill(x):
    m = np.zeros((3, 3))
    for i in range(3):
        for j in range(3):
            if x[i] > x[j]:
                m[i, j] = x[i] - x[j]
    return m


@prog
def stats_dict_like(x):
    lohi = np.array([np.inf, -np.inf])
    for v in x:
        if v < lohi[0]:
            lohi[0] = v
        if v > lohi[1]:
            lohi[1] = v
    return lohi


@prog
def int_steps(x):
    n = int(np.sum(x > 0))
    return n * 2, float(np.mean(x)) + 1


@prog
def running_window(x):
    buf = np.zeros(3)
    out = []
    for v in x:
        buf[0] = buf[1]
        buf[1] = buf[2]
        buf[2] = v
        out.append(buf.mean())
    return np.array(out)


@prog
def alias_after(x):
    y = np.zeros(3)
    if x[0] > 0:
        y[0] = 1.0
    z = y
    z[1] = 2.0
    return y


@prog
def sgd_linear(x):
    X = np.stack([x, x**2], axis=1)
    y = 3.0 * x - 1.0
    w = np.zeros(2)
    b = 0.0
    losses = []
    for _epoch in range(20):
        pred = X @ w + b
        err = pred - y
        loss = float(np.mean(err**2))
        losses.append(loss)
        if loss < 1e-3:
            break
        w -= 0.01 * (X.T @ err) / len(x)
        b -= 0.01 * err.mean()
    return w, b, losses[-1], len(losses)


@prog
def gbm_path(x):
    s = 100.0
    path = [s]
    for r in x:
        s = s * np.exp(0.01 * r)
        path.append(s)
    return np.array(path), max(path)


@prog
def max_drawdown(x):
    peak = x[0]
    mdd = 0.0
    for v in x:
        if v > peak:
            peak = v
        dd = (peak - v) / abs(peak)
        if dd > mdd:
            mdd = dd
    return mdd


@prog
def game_of_life_step(x):
    g = (x.reshape(2, 2) > 0).astype(np.int64)
    n = g.shape[0]
    new = np.zeros_like(g)
    for i in range(n):
        for j in range(n):
            s = 0
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    if di == 0 and dj == 0:
                        continue
                    ii, jj = i + di, j + dj
                    if 0 <= ii < n and 0 <= jj < n:
                        s += g[ii, jj]
            if g[i, j] == 1 and (s == 2 or s == 3):
                new[i, j] = 1
            elif g[i, j] == 0 and s == 3:
                new[i, j] = 1
    return new


@prog
def lcs_len(x):
    a = (x > 0).astype(np.int64)
    b = a[::-1]
    n = a.shape[0]
    dp = np.zeros((n + 1, n + 1), dtype=np.int64)
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            if a[i - 1] == b[j - 1]:
                dp[i, j] = dp[i - 1, j - 1] + 1
            else:
                dp[i, j] = max(dp[i - 1, j], dp[i, j - 1])
    return dp[n, n]


@prog
def object_state(x):
    c = Counter()
    for v in x:
        if v > 0:
            c.add(v)
    return c.n, c.total


@prog
def newton_sqrt(x):
    a = np.abs(x[0]) + 1.0
    g = a
    it = 0
    while abs(g * g - a) > 1e-12 and it < 50:
        g = 0.5 * (g + a / g)
        it += 1
    return g, it


@prog
def bisection(x):
    lo, hi = -10.0, 10.0
    c = x[0]
    for _ in range(60):
        mid = (lo + hi) / 2
        if mid**3 - c > 0:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


@prog
def dict_accumulate(x):
    stats = {"pos": 0.0, "neg": 0.0, "n": 0}
    for v in x:
        if v > 0:
            stats["pos"] += v
        else:
            stats["neg"] += v
        stats["n"] += 1
    return stats


@prog
def early_return_search(x):
    for i in range(x.shape[0]):
        if x[i] > 2.0:
            return i, x[i]
    return -1, 0.0


@prog
def sort_bubble(x):
    a = x.copy()
    n = a.shape[0]
    for i in range(n):
        for j in range(n - 1 - i):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
    return a


@prog
def ema(x):
    out = np.empty_like(x)
    m = x[0]
    for i, v in enumerate(x):
        m = 0.9 * m + 0.1 * v
        out[i] = m
    return out


@prog
def count_runs(x):
    runs = 0
    prev = None
    for v in x:
        s = v > 0
        if prev is None or s != prev:
            runs += 1
        prev = s
    return runs


@prog
def tuple_state(x):
    best = (x[0], 0)
    for i in range(1, x.shape[0]):
        if x[i] > best[0]:
            best = (x[i], i)
    return best


@prog
def list_of_arrays_update(x):
    layers = [np.ones(2), np.ones(2) * 2]
    for k in range(2):
        if x[k] > 0:
            layers[k] = layers[k] * x[k]
    return layers[0] + layers[1]


@prog
def nested_function_closure(x):
    scale = 2.0

    def f(v):
        return v * scale if v > 0 else -v

    total = 0.0
    for v in x:
        total += f(v)
    return total


@prog
def histogram2(x):
    edges = np.linspace(-3, 3, 5)
    counts = np.zeros(4, dtype=np.int64)
    for v in x:
        for k in range(4):
            if edges[k] <= v < edges[k + 1]:
                counts[k] += 1
    return counts


@prog
def while_with_list(x):
    stack = [x[0]]
    out = 0.0
    i = 0
    while i < 3:
        out += stack[-1]
        i += 1
    return out


@prog
def cumulative_max_list(x):
    m = -np.inf
    res = []
    for v in x:
        m = max(m, v)
        res.append(m)
    return np.array(res)


@prog
def sum_builtin(x):
    vals = []
    for v in x:
        if v > 0:
            vals.append(v)
    return sum(vals) if vals else 0.0


@prog
def norm_loop(x):
    y = x.copy()
    for _ in range(3):
        n = np.linalg.norm(y)
        if n > 1:
            y = y / n
    return y


@prog
def replace_python_floats(x):
    acc = [0.0, 0.0]
    for i in range(2):
        if x[i] > 0:
            acc[i] = acc[i] + x[i]
        else:
            acc[i] = -1.0
    return acc


@prog
def replace_in_elif(x):
    parts = [x[0], x[1], x[2]]
    if x[3] > 1:
        parts[0] = parts[0] * 2
    elif x[3] > 0:
        parts[1] = parts[1] * 3
    else:
        parts[2] = 0.0 * parts[2]
    return np.stack(parts)


@prog
def replace_and_append(x):
    lst = [x[0]]
    if x[1] > 0:
        lst[0] = x[1]
        lst.append(x[2])
    else:
        lst.append(x[3])
    return np.stack(lst)


@prog
def replace_in_staged_loop(x):
    acc = [0.0, 0.0]
    for v in x:
        if v > 0:
            acc[0] = acc[0] + v
        else:
            acc[1] = acc[1] + v
    return acc


@prog
def swap_items(x):
    lst = [x[0], x[1]]
    if x[2] > 0:
        lst[0], lst[1] = lst[1], lst[0]
    return lst


@prog
def hist_unrolled(x):
    counts = np.zeros(4, dtype=np.int64)
    for i in range(x.shape[0]):
        b = int(abs(x[i])) % 4
        counts[b] += 1
    return counts


@prog
def hist_subscript_key(x):
    labels = (np.abs(x) * 2).astype(np.int64) % 3
    counts = np.zeros(3)
    for i in range(4):
        counts[labels[i]] += x[i]
    return counts


@prog
def argmax_bump(x):
    out = np.zeros(4)
    k = np.argmax(x)
    out[k] += 1.0
    out[k] *= 3
    return out


@prog
def grid_bump(x):
    g = np.zeros((2, 2))
    i = np.argmax(x) % 2
    j = np.argmin(x) % 2
    g[i, j] += x[0]
    return g


@prog
def counts_repeat(x):
    counts = (np.abs(x) * 2).astype(np.int64)
    out = []
    for c in counts:
        for _ in range(c):
            out.append(c)
    return np.array(out, dtype=np.int64)


@prog
def append_in_if_in_if(x):
    out = []
    for v in x:
        if v > 0:
            if v > 1:
                out.append(v)
    return np.array(out)


@prog
def append_before_break_inner(x):
    out = []
    for v in x:
        for w in x:
            if w > v:
                break
            out.append(w)
    return np.array(out)


@prog
def append_after_continue(x):
    out = []
    for v in x:
        if v < 0:
            continue
        out.append(v * 2)
    return np.array(out)


@prog
def amortization(x):
    balance = 1000.0
    rows = []
    for month in range(4):
        interest = balance * 0.01 * (1 + x[month])
        balance = balance + interest - 100.0
        rows.append((month, interest, balance))
    return rows


@prog
def amortization_staged(x):
    balance = 1000.0
    rows = []
    month = 0
    while balance > 700.0 and month < 10:
        interest = balance * 0.01 * (1 + abs(x[0]))
        balance = balance + interest - 100.0
        rows.append((month, interest, balance))
        month += 1
    return rows


@prog
def comprehension_reuse(x):
    s = 0.0
    for v in x:
        s += v
    return [s * v for v in range(3)]


@prog
def lambda_reuse(x):
    s = 0.0
    for v in x:
        s += v
    f = lambda v: 2 * v
    return f(s)


@prog
def any_gen(x):
    return any(v > 2 for v in x)


@prog
def all_gen(x):
    return all(v > -3 for v in x)


@prog
def any_in_if(x):
    if any(v < 0 for v in x):
        return x * 0
    return x


@prog
def any_mixed(x):
    return any([x[0] > 1, False, x[1] < 0])


@prog
def all_list_python(x):
    return all([True, 1, x.shape[0] > 2])


@prog
def any_empty(x):
    return any([]), all([])


if __name__ == "__main__":
    main(P)
