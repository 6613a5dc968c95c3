"""A batch of realistic programs nobody on the team wrote beforehand (issue 24: numerical
methods, sorting, dynamic programming, image loops, finance, statistics), each run eagerly and
as a graph on the NumPy backend, with every optimizing pass off, and on the JAX backend.

    python tools/fresh_batch.py          # one line per program that differs, then the counts

Outcomes: ok (the eager answer), ERROR (an AutoconvError: must name the construct and what to
write), CRASH (any other exception: a bug), WRONG (a different value or type: a bug),
RAISE-TYPE (eager raises another exception type). Not a test: the programs that stay errors
are documented limits (unsupported NumPy functions, int() of a Tensor, strings chosen by a
staged condition, bool() of a Tensor in a built-in).
"""

import copy
import math
import warnings

import numpy as np

import autoconv
from autoconv.errors import AutoconvError
from autoconv.graph import passes

warnings.simplefilter("ignore")

P = []


def prog(*inputs):
    def deco(f):
        P.append((f, inputs))
        return f

    return deco


rng = np.random.default_rng(0)
V = rng.normal(size=8)
M = rng.normal(size=(4, 4))
PTS = rng.uniform(0, 1, (6, 2))
W = rng.normal(size=(3, 2))


@prog((V,))
def insertion_sort(x):
    a = x.copy()
    for i in range(1, a.shape[0]):
        j = i
        while j > 0 and a[j - 1] > a[j]:
            a[j - 1], a[j] = a[j], a[j - 1]
            j -= 1
    return a


@prog((V,))
def selection_sort(x):
    a = x.copy()
    n = a.shape[0]
    for i in range(n):
        m = i
        for j in range(i + 1, n):
            if a[j] < a[m]:
                m = j
        a[i], a[m] = a[m], a[i]
    return a


@prog((PTS,))
def centroid_pairs(pts):
    sx, sy = 0.0, 0.0
    for x, y in pts:
        sx += x
        sy += y
    n = pts.shape[0]
    return sx / n, sy / n


@prog((PTS,))
def path_length(pts):
    total = 0.0
    for i in range(1, pts.shape[0]):
        x0, y0 = pts[i - 1]
        x1, y1 = pts[i]
        total += np.hypot(x1 - x0, y1 - y0)
    return total


@prog((PTS,))
def weighted_enum(pts):
    acc = 0.0
    for i, (a, b) in enumerate(pts):
        acc += (i + 1) * (a - b)
    return acc


@prog((M,))
def gauss_pivot(A):
    A = A.copy()
    n = A.shape[0]
    for k in range(n):
        piv = A[k, k]
        for i in range(k + 1, n):
            f = A[i, k] / piv
            A[i, :] = A[i, :] - f * A[k, :]
    return A


@prog((M,))
def trace_loop(A):
    t = 0.0
    for i in range(A.shape[0]):
        t += A[i, i]
    return t


@prog((V, 0.5))
def first_above(x, thr):
    for i in range(x.shape[0]):
        if x[i] > thr:
            return i
    return None


@prog((V,))
def count_sign_changes(x):
    prev = None
    n = 0
    for v in x:
        if prev is not None and v * prev < 0:
            n += 1
        prev = v
    return n


@prog((V,))
def safe_index(x):
    try:
        return x[20]
    except IndexError:
        return x[-1]


@prog((V,))
def clip_report(x):
    lo, hi = np.min(x), np.max(x)
    span = hi - lo
    out = np.zeros(3)
    out[0] = lo
    out[1] = hi
    out[2] = span
    return out


@prog((V, True), (V, False))
def maybe_normalize(x, normalize):
    out = np.zeros_like(x)
    if not normalize:
        return x * 1
    s = np.sum(np.abs(x))
    for i in range(x.shape[0]):
        out[i] = x[i] / s
    return out


@prog((V,))
def running_mean_list(x):
    means = []
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i]
        means.append(total / (i + 1))
    return np.array(means)


@prog((V,))
def comp_squares(x):
    sq = [v * v for v in x]
    return sum(sq)


@prog((V,))
def dict_stats(x):
    stats = {"min": np.min(x), "max": np.max(x)}
    stats["range"] = stats["max"] - stats["min"]
    return stats["range"]


@prog((V,))
def two_buffers(x):
    pos = np.zeros(2)
    neg = np.zeros(2)
    pos[0] = np.sum(np.where(x > 0, x, 0))
    neg[0] = np.sum(np.where(x < 0, x, 0))
    pos[1] = np.max(x)
    neg[1] = np.min(x)
    return pos - neg


@prog((V,))
def argmax_manual(x):
    best = x[0]
    idx = 0
    for i in range(1, x.shape[0]):
        if x[i] > best:
            best = x[i]
            idx = i
    return idx, best


@prog((V,))
def sorted_copy_method(x):
    y = np.sort(x)
    return y[0], y[-1]


@prog((np.arange(6.0).reshape(3, 2),))
def rows_unpack_sum(m):
    s = 0.0
    for row in m:
        a, b = row
        s += a * b
    return s


@prog((V,))
def lambda_after_loop(x):
    acc = 0.0
    for v in x:
        acc += v
    scale = lambda v: v * acc
    return scale(2.0)


@prog((V,))
def gen_after_loop(x):
    m = 0.0
    for v in x:
        if v > m:
            m = v
    return sum(m * v for v in range(3))


@prog((V,))
def run_length(x):
    start = None
    longest = 0
    for i in range(x.shape[0]):
        if x[i] > 0 and start is None:
            start = i
        elif x[i] <= 0 and start is not None:
            longest = max(longest, i - start)
            start = None
    return longest


@prog((V,))
def bubble_flag(x):
    a = x.copy()
    n = a.shape[0]
    for i in range(n):
        swapped = False
        for j in range(n - 1 - i):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
                swapped = True
        if not swapped:
            break
    return a


@prog((V,))
def matrix_fill(x):
    m = np.zeros((3, 3))
    for i in range(3):
        for j in range(3):
            m[i, j] = x[i] * x[j]
    return m


@prog((V,))
def tuple_return_unpack(x):
    def stats(v):
        return np.mean(v), np.std(v)

    mu, sd = stats(x)
    return (x - mu) / sd


@prog((V,))
def early_return_write(x):
    out = np.zeros(2)
    if x.shape[0] < 2:
        return out
    out[0] = x[0]
    out[1] = x[1]
    return out


@prog((V,))
def zero_trip_enum(x):
    y = np.zeros_like(x[:0])
    for n, v in enumerate(x[:0]):
        y[n] = v
    return y


@prog((V,))
def window_search(x):
    for r in range(4):
        if np.sum(x[r : r + 3]) > 1.0:
            return r
    return -1


@prog((M,))
def row_argmax_unpack(A):
    i, j = np.unravel_index(np.argmax(A), A.shape)
    return i + j


@prog((V,))
def set_of_python_keys(x):
    seen = set()
    for k in ("a", "b", "a"):
        seen.add(k)
    return len(seen) * np.sum(x)


@prog((V,))
def class_state(x):
    class Acc:
        def __init__(self):
            self.total = 0.0

        def add(self, v):
            self.total = self.total + v

    a = Acc()
    for i in range(3):
        a.add(x[i])
    return a.total


@prog((V,))
def nested_max(x):
    best = -np.inf
    for i in range(2):
        for j in range(2):
            v = x[i] * x[j]
            if v > best:
                best = v
    return best


@prog((np.array([3, 1, 2]),))
def int_swap(x):
    a = x.copy()
    if a[0] > a[1]:
        a[0], a[1] = a[1], a[0]
    return a


@prog((V,))
def star_unpack(x):
    first, *rest = x[:4]
    return first + sum(rest)


@prog((V,))
def fill_then(x):
    y = np.empty(3)
    y[:] = x[0]
    return y


@prog((V,))
def zip_pairs(x):
    s = 0.0
    for a, b in zip(x[:-1], x[1:]):
        s += abs(b - a)
    return s


@prog((V,))
def reversed_loop(x):
    out = 0.0
    for v in reversed(x):
        out = out * 0.5 + v
    return out


@prog((V,))
def builtin_any(x):
    return any(v > 2 for v in x)


@prog((V,))
def builtin_sorted(x):
    return sorted(x[:3])


@prog((V,))
def builtin_max_key(x):
    vals = [x[0], x[1], x[2]]
    return max(vals)


@prog((V,))
def enumerate_start(x):
    s = 0.0
    for i, v in enumerate(x, start=1):
        s += i * v
    return s


@prog((V,))
def divmod_index(x):
    q, r = divmod(7, 3)
    return x[q] + x[r]


@prog((V,))
def fstring_label(x):
    m = np.mean(x)
    label = "pos" if m > 0 else "neg"
    return label


@prog((V,))
def assert_positive(x):
    s = np.sum(x * x)
    assert s >= 0, "negative"
    return np.sqrt(s)


@prog((V,))
def try_value_error(x):
    try:
        if np.any(np.isnan(x)):
            raise ValueError("nan")
        r = np.log(np.abs(x) + 1)
    except ValueError:
        r = np.zeros_like(x)
    return r


@prog((V,))
def dict_iter(x):
    weights = {"a": 1.0, "b": 2.0}
    s = 0.0
    for _k, w in weights.items():
        s += w * np.sum(x)
    return s


@prog((V,))
def list_of_tuples(x):
    rows = []
    for i in range(3):
        rows.append((i, x[i]))
    total = 0.0
    for i, v in rows:
        total += i * v
    return total


@prog((V,))
def tuple_state(x):
    lo, hi = x[0], x[0]
    for v in x:
        if v < lo:
            lo = v
        if v > hi:
            hi = v
    return lo, hi


@prog((V,))
def while_newton(x):
    a = np.abs(x[0]) + 1.0
    g = a
    it = 0
    while abs(g * g - a) > 1e-10 and it < 50:
        g = 0.5 * (g + a / g)
        it += 1
    return g, it


@prog((V,))
def isin_membership(x):
    targets = np.array([1.0, 2.0])
    n = 0
    for v in x:
        if np.isin(v, targets):
            n += 1
    return n


@prog((V,))
def bincount_style(x):
    bins = np.zeros(4, dtype=np.int64)
    for v in x:
        b = int(np.clip(np.floor(v + 2), 0, 3))
        bins[b] += 1
    return bins


@prog((V,))
def clipped_index(x):
    bins = np.zeros(4, dtype=np.int64)
    for v in x:
        b = np.clip(np.floor(v + 2), 0, 3).astype(np.int64)
        bins[b] += 1
    return bins


@prog((V,))
def python_float_accum(x):
    total = 0
    for i in range(x.shape[0]):
        total = total + float(i)
    return total * np.mean(x)


@prog((V,))
def round_result(x):
    return round(float(np.sum(x)), 2) if False else np.round(np.sum(x), 2)


@prog((V,))
def cumulative_max_list(x):
    out = []
    m = -np.inf
    for v in x:
        m = max(m, v)
        out.append(m)
    return np.stack(out)


@prog((V, 3))
def topk_manual(x, k):
    a = x.copy()
    res = []
    for _ in range(k):
        i = np.argmax(a)
        res.append(a[i])
        a[i] = -np.inf
    return np.array(res)


@prog((M,))
def matrix_power_loop(A):
    R = np.eye(4)
    for _ in range(3):
        R = R @ A
    return R


@prog((M,))
def swap_rows(A):
    B = A.copy()
    i = np.argmax(np.abs(B[:, 0]))
    tmp = B[0].copy()
    B[0] = B[i]
    B[i] = tmp
    return B


@prog((V,))
def sentinel_best(x):
    best = None
    best_i = -1
    for i in range(x.shape[0]):
        if best is None or x[i] > best:
            best = x[i]
            best_i = i
    return best_i


@prog((V,))
def helper_early_return(x):
    def first_neg(v):
        for i in range(v.shape[0]):
            if v[i] < 0:
                return i
        return -1

    return first_neg(x)


@prog((V,))
def str_join(x):
    parts = [str(i) for i in range(3)]
    return ",".join(parts), np.sum(x)


@prog((V,))
def nested_comprehension(x):
    grid = [[x[i] * x[j] for j in range(2)] for i in range(2)]
    return np.array(grid)


@prog((V,))
def sum_builtin(x):
    return sum(x)


@prog((V,))
def len_of_slice(x):
    n = len(x[2:])
    return n * np.sum(x)


@prog((V,))
def moving_average(x):
    w = 3
    out = np.zeros(x.shape[0] - w + 1)
    for i in range(out.shape[0]):
        out[i] = np.mean(x[i : i + w])
    return out


@prog((V,))
def sign_string(x):
    s = np.sum(x)
    if s > 0:
        return "up"
    return "down"


@prog((V,))
def xs_set_python(x):
    labels = set()
    for i in range(x.shape[0]):
        labels.add(i % 3)
    return len(labels)


@prog((V,))
def item_call(x):
    return x[0].item() + 1


@prog((V,))
def tolist_loop(x):
    s = 0.0
    for v in x.tolist():
        s += v
    return s


@prog((V,))
def minmax_tuple(x):
    return min(x[0], x[1]), max(x[0], x[1])


@prog((V,))
def where_chain(x):
    y = np.where(x > 1, 1, np.where(x < -1, -1, 0))
    return y


@prog((V,))
def count_dict_python(x):
    counts = {}
    for i in range(x.shape[0]):
        key = "pos" if i % 2 == 0 else "neg"
        counts[key] = counts.get(key, 0) + 1
    return counts["pos"], np.sum(x)


@prog((V,))
def try_finally_count(x):
    n = 0
    try:
        s = np.sum(x)
        n += 1
    finally:
        n += 1
    return s, n


@prog((V,))
def try_zero_div(x):
    try:
        r = 1 / len(x[:0])
    except ZeroDivisionError:
        r = -1.0
    return r + np.sum(x)


@prog((V,))
def python_num_then_numpy(x):
    lr = 0.1
    w = 0.0
    for _i in range(5):
        grad = 2 * (w - np.mean(x))
        w = w - lr * grad
    return w


@prog((V,))
def gd_early_stop(x):
    w = 0.0
    for _i in range(100):
        grad = 2 * (w - np.mean(x))
        if abs(grad) < 1e-3:
            break
        w = w - 0.1 * grad
    return w


@prog((PTS, W))
def tiny_mlp(pts, w):
    h = np.maximum(pts @ w.T, 0)
    return np.sum(h, axis=1)


@prog((V,))
def helper_two_returns(x):
    def norm_or_zero(v):
        n = np.linalg.norm(v)
        if n == 0:
            return v
        return v / n

    return norm_or_zero(x)


@prog((V,))
def ema(x):
    m = x[0]
    for v in x[1:]:
        m = 0.9 * m + 0.1 * v
    return m


@prog((V,))
def price_path(x):
    balance = 100.0
    rows = []
    for month in range(3):
        interest = balance * 0.01
        balance = balance + interest - x[month]
        rows.append((month, interest, balance))
    return rows[-1][2]


@prog((V,))
def dp_max_subarray(x):
    best = x[0]
    cur = x[0]
    for v in x[1:]:
        cur = max(v, cur + v)
        best = max(best, cur)
    return best


@prog((np.array([2, 3, 5, 7]), 10))
def knapsack_count(w, cap):
    dp = np.zeros(cap + 1)
    dp[0] = 1
    for i in range(w.shape[0]):
        for c in range(cap, -1, -1):
            if c >= w[i]:
                dp[c] = dp[c] + dp[c - w[i]]
    return dp[cap]


@prog((V,))
def game_of_signs(x):
    score = 0
    for v in x:
        if v > 1:
            score += 3
        elif v > 0:
            score += 1
        else:
            score -= 1
    return score


@prog((np.arange(16.0).reshape(4, 4),))
def image_box_blur(img):
    out = np.zeros_like(img)
    h, w = img.shape
    for i in range(1, h - 1):
        for j in range(1, w - 1):
            out[i, j] = np.mean(img[i - 1 : i + 2, j - 1 : j + 2])
    return out


@prog((V,))
def while_unpack(x):
    a, b = 0.0, 1.0
    i = 0
    while i < 5:
        a, b = b, a + b * x[0]
        i += 1
    return a


@prog((V,))
def none_default_helper(x):
    def scale(v, factor=None):
        if factor is None:
            factor = 2.0
        return v * factor

    return scale(x), scale(x, 3.0)


@prog((V,))
def kwargs_helper(x):
    def f(v, *, power=2):
        return v**power

    return f(x, power=3)


@prog((V,))
def abs_round(x):
    return abs(np.sum(x)), round(np.sum(x), 3)


@prog((V,))
def max_of_python_and_tensor(x):
    return max(0, np.sum(x)), min(0.0, x[0])


@prog((V,))
def print_values(x):
    s = np.sum(x)
    print("sum", s)
    return s


@prog((V,))
def isinstance_check(x):
    v = x[0]
    if isinstance(v, np.floating):
        return v * 2
    return v


@prog((V,))
def shape_branch(x):
    if x.ndim == 1 and x.shape[0] > 4:
        return x[:4]
    return x


@prog((V,))
def type_conversions(x):
    return x.astype(np.float32).sum(), x.astype(int)


@prog((V,))
def cumsum_loop_compare(x):
    c = np.cumsum(x)
    k = 0
    for i in range(c.shape[0]):
        if c[i] > 1.0:
            k = i
            break
    return k


@prog((V,))
def rng_in_loop(x):
    g = np.random.default_rng(1)
    s = 0.0
    for i in range(3):
        s += g.normal() * x[i]
    return s


@prog((V,))
def nested_helpers(x):
    def inner(v):
        return v * 2

    def outer(v):
        t = 0.0
        for e in v:
            t += inner(e)
        return t

    return outer(x)


@prog((V,))
def index_from_argmax_into_list(x):
    names = ["a", "b", "c"]
    i = int(np.argmax(x[:3]))
    return names[i]


@prog((V,))
def concat_history(x):
    hist = [x[:2]]
    for _i in range(3):
        hist.append(hist[-1] * 0.5)
    return np.concatenate(hist)


@prog((V,))
def stack_history_tensor_first(x):
    y = x[:2]
    history = [y]
    for _i in range(3):
        y = y * 0.5
        history.append(y)
    return np.stack(history)


@prog((V,))
def elementwise_if_loop(x):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        if x[i] > 0:
            out[i] = x[i]
        else:
            out[i] = 0.0
    return out


@prog((V,))
def tuple_of_arrays_swap(x):
    a, b = x[:4], x[4:]
    for _ in range(3):
        a, b = b, a + b
    return a


@prog((V,))
def mask_mean(x):
    m = x > 0
    if np.any(m):
        return np.mean(x[m])
    return 0.0


@prog((V, 3))
def dynamic_slice_end(x, k):
    return np.sum(x[:k])


@prog((V,))
def tensor_slice_bound(x):
    k = np.argmax(x)
    return np.sum(x[: k + 1])


@prog((M,))
def col_norms(A):
    norms = []
    for j in range(A.shape[1]):
        norms.append(np.sqrt(np.sum(A[:, j] ** 2)))
    return norms


@prog((M,))
def lower_triangle(A):
    L = np.zeros_like(A)
    n = A.shape[0]
    for i in range(n):
        for j in range(i + 1):
            L[i, j] = A[i, j]
    return L


@prog((V,))
def str_format_number(x):
    s = np.sum(x)
    return f"{3:02d}", s


@prog((V,))
def tuple_in_tuple(x):
    pair = ((x[0], x[1]), (x[2], x[3]))
    (a, b), (c, d) = pair
    return a * d - b * c


@prog((V,))
def dict_of_arrays(x):
    d = {"lo": x[:4], "hi": x[4:]}
    out = {}
    for k in d:
        out[k] = np.mean(d[k])
    return out


@prog((V,))
def chained_compare(x):
    n = 0
    for v in x:
        if -1 < v < 1:
            n += 1
    return n


@prog((V,))
def not_operator(x):
    flag = not np.any(x > 5)
    return flag


@prog((V,))
def ternary_number(x):
    return 1.0 if np.sum(x) > 0 else -1.0


@prog((V,))
def augassign_list_item(x):
    acc = [0.0, 0.0]
    for v in x:
        if v > 0:
            acc[0] += v
        else:
            acc[1] += v
    return acc


@prog((V,))
def enumerate_list_of_tensors(x):
    parts = [x[:2], x[2:4]]
    s = 0.0
    for i, p in enumerate(parts):
        s += i * np.sum(p)
    return s


@prog((V,))
def zip_python_and_tensor(x):
    w = [0.5, 0.25, 0.25]
    s = 0.0
    for wi, xi in zip(w, x):
        s += wi * xi
    return s


@prog((V,))
def continue_in_loop(x):
    s = 0.0
    for v in x:
        if v < 0:
            continue
        s += v
    return s


@prog((V,))
def nested_break(x):
    found = -1
    for i in range(3):
        for j in range(3):
            if x[i] + x[j] > 2:
                found = i * 3 + j
                break
        if found >= 0:
            break
    return found


@prog((V,))
def while_with_index(x):
    i = 0
    while i < x.shape[0] and x[i] < 1.0:
        i += 1
    return i


@prog((V,))
def sort_then_unpack(x):
    a, b, c = np.sort(x[:3])
    return c - a


@prog((V,))
def min_max_python_list(x):
    vals = [np.sum(x[:2]), np.sum(x[2:4]), np.sum(x[4:6])]
    return max(vals) - min(vals)


@prog((V,))
def linspace_eval(x):
    t = np.linspace(0, 1, 5)
    return np.polyval(x[:3], t)


@prog((V,))
def outer_loop_product(x):
    out = np.ones(3)
    for i in range(3):
        out = out * x[i]
    return out


@prog((V,))
def pow_int(x):
    return x[0] ** 2, 2**3


@prog((V,))
def float_int_mix(x):
    n = x.shape[0]
    return np.sum(x) / n, n // 2


@prog((V,))
def clip_scalar_python(x):
    v = np.sum(x)
    return np.clip(v, -1, 1)


@prog((V,))
def argsort_ranks(x):
    order = np.argsort(x)
    ranks = np.empty_like(order)
    ranks[order] = np.arange(x.shape[0])
    return ranks


@prog((V,))
def all_close_check(x):
    return np.allclose(x, x * 1.0)


def outcome(f, args):
    try:
        return "value", f(*copy.deepcopy(args))
    except Exception as e:  # the exception type is what must agree
        return "raise", e


def same(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (np.ndarray, np.generic)):
        return a.dtype == b.dtype and a.shape == b.shape and np.allclose(a, b, equal_nan=True)
    if isinstance(a, float):
        # Python floats as NumPy values are compared: NaN equals NaN, and the JAX backend agrees
        # up to rounding (docs/backends.md: a relative 1e-9 for float64)
        return (a != a and b != b) or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-300)
    return a == b


def judge(f, inputs, mode) -> str:
    graph = autoconv.function(f, backend="jax" if mode == "jax" else "numpy")
    for args in inputs:
        kind, expected = outcome(f, args)
        if mode == "noopt":
            with passes.options(passes.Settings.none()):
                got_kind, got = outcome(graph, args)
        else:
            got_kind, got = outcome(graph, args)
        if kind == "value" and got_kind == "value":
            if not same(expected, got):
                return f"WRONG {expected!r} vs {got!r}"
        elif kind == "raise" and got_kind == "raise":
            if not isinstance(got, type(expected)):
                return f"RAISE-TYPE {type(expected).__name__} vs {type(got).__name__}"
        elif got_kind == "raise":
            label = "ERROR" if isinstance(got, AutoconvError) else "CRASH"
            return f"{label} {type(got).__name__}: {str(got)[:250]}"
        else:
            return "WRONG the graph returns where eager code raises"
    return "ok"


def main(programs=None) -> None:
    """Judges `programs` (`(function, inputs)` pairs; this file's by default) and prints one
    line per program that is not ok on a path, then the counts."""
    programs = P if programs is None else programs
    counts: dict = {}
    for f, inputs in programs:
        for mode in ("numpy", "noopt", "jax"):
            result = judge(f, inputs, mode)
            label = result.split()[0]
            counts.setdefault(mode, {}).setdefault(label, 0)
            counts[mode][label] += 1
            if result != "ok":
                print(f"{f.__name__:28s} {mode:5s} {result}")
    print(len(programs), "programs", counts)


def jit_way(programs, path) -> None:
    """Runs each program as `jax.jit(autoconv.convert(f))` with `jax.numpy` (tools/jit_batches.py's
    judge) and prints each call that is not correct, then the counts per outcome (programs by
    their worst call). `path` names the batch file (the user's file in messages)."""
    import collections
    import os

    import jit_batches

    os.environ["AUTOCONV_TRACEBACK"] = "full"
    os.environ["JAX_TRACEBACK_FILTERING"] = "off"
    import jax

    from tests.jax import corpus

    jax.config.update("jax_enable_x64", True)
    per_program = collections.Counter()
    for func, inputs in programs:
        calls = [jit_batches.run_call(corpus, func, a, os.path.basename(path)) for a in inputs]
        for k, (outcome, detail) in enumerate(calls):
            if outcome not in jit_batches.CORRECT + ("skipped",):
                print(f"{func.__name__} jit input {k}: {outcome}: {detail}", flush=True)
        per_program[jit_batches._worst(calls)] += 1
    print(len(programs), "programs (jit)", dict(per_program))


class _NoAnswer(BaseException):
    """Raised by the alarm: a BaseException, so no `except Exception` in the harness takes it."""


def _no_answer(signum, frame):
    raise _NoAnswer


def timed_detail(programs, modes, seconds=120) -> list:
    """fresh_batch5's rows, program by program, with a row labelled HANG for a program that has
    no answer within `seconds` (SIGALRM can upset an XLA compile, so run JAX mode one process
    per program where that matters)."""
    import signal

    import fresh_batch5

    old = signal.signal(signal.SIGALRM, _no_answer)
    rows = []
    try:
        for f, inputs in programs:
            signal.alarm(seconds)
            try:
                rows += fresh_batch5.detail([(f, inputs)], modes)
            except _NoAnswer:
                for mode in modes:
                    rows.append((f.__name__, mode, -1, "HANG", "", f"no answer in {seconds} s", ""))
            finally:
                signal.alarm(0)
    finally:
        signal.signal(signal.SIGALRM, old)
    return rows


def registry():
    """`(programs, prog)`: a fresh batch's list of `(function, inputs)` and the decorator
    `@prog(inputs...)` that adds a program to it."""
    programs: list = []

    def prog(*inputs):
        def deco(f):
            programs.append((f, inputs))
            return f

        return deco

    return programs, prog


def batch_main(programs, findings, jax_findings, path, argv) -> None:
    """The command line of a fresh batch (fresh_batch9 on): `--mode M`, `--table`, `--detail`,
    `--jit`, program names; see fresh_batch9.py's docstring."""
    import contextlib
    import io

    import fresh_batch5

    args = list(argv)
    modes = ("numpy", "noopt", "jax")
    if "--mode" in args:
        modes = (args[args.index("--mode") + 1],)
        del args[args.index("--mode") : args.index("--mode") + 2]
    names = [a for a in args if not a.startswith("-")]
    chosen = [p for p in programs if not names or p[0].__name__ in names]
    if "--jit" in args:
        jit_way(chosen, path)
    elif "--table" in args:
        with contextlib.redirect_stdout(io.StringIO()):  # the programs' own prints
            rows = timed_detail(chosen, modes)
        table = io.StringIO()
        with contextlib.redirect_stdout(table):
            fresh_batch5.table(rows, len(chosen), findings, jax_findings)
        for line in table.getvalue().splitlines():  # the modes run (the table names all three)
            if line.split()[0] in modes or line.startswith("new failure"):
                print(line)
    elif names or "--detail" in args:
        with contextlib.redirect_stdout(io.StringIO()):
            rows = timed_detail(chosen, modes)
        for name, mode, k, label, exc, message, where in rows:
            print(f"{name} {mode} input {k}: {label} {exc}: {message}\n    raised at {where}")
    else:  # main's lines and counts, with the alarm
        with contextlib.redirect_stdout(io.StringIO()):
            rows = timed_detail(chosen, modes)
        counts: dict = {}
        worst = {}
        for name, mode, _k, label, exc, message, _where in rows:
            worst.setdefault((name, mode), f"{label} {exc}: {message[:250]}")
        for mode in modes:
            bad = [worst[(f.__name__, mode)] for f, _ in chosen if (f.__name__, mode) in worst]
            counts[mode] = {"ok": len(chosen) - len(bad)}
            for line in bad:
                counts[mode][line.split()[0]] = counts[mode].get(line.split()[0], 0) + 1
        for (name, mode), line in worst.items():
            print(f"{name:28s} {mode:5s} {line}")
        print(len(chosen), "programs", counts)


if __name__ == "__main__":
    main()
