"""A fourth batch of programs nobody on the team wrote beforehand (issue 24, 2026-11-29):
programs as a new user writes them, leaning on the domains the first three batches had few
of: text and tokenizing on arrays of codes, edit distance and alignment, scheduling and queue
simulations, integration, root finding, interpolation, hand-written sorts and searches, matrix
algorithms, Markov chains, image filters and regions, reinforcement learning, optimizers,
games and cellular automata, time series, geometry, graph worklists, classes with state,
closures, dataclasses and namedtuples, `try`/`except`, early returns and sentinels. Each runs
on two to four inputs that take different paths, eagerly and as a graph (NumPy backend, every
optimizing pass off, JAX backend), judged as `fresh_batch.py` judges.

    python tools/fresh_batch4.py             # one line per program that differs, then counts
    python tools/fresh_batch4.py --detail    # the full message of each outcome that is not ok
    python tools/fresh_batch4.py NAME ...    # only these programs, in detail
    python tools/fresh_batch4.py --table     # counts by class (FINDINGS), new failures named

The outcomes found are in tools/fresh_batch4_findings.md.
"""

# ruff: noqa: B007, E741  (programs written as users write them: unused loop names, `l`)
import contextlib
import dataclasses
import io
import math
import os
import sys
from collections import namedtuple

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fresh_batch  # noqa: E402
import fresh_batch3  # noqa: E402

P = []


def prog(*inputs):
    def deco(f):
        P.append((f, inputs))
        return f

    return deco


rng = np.random.default_rng(4)
R5 = rng.normal(size=5)
R10 = rng.normal(size=10)
U10 = rng.uniform(0.1, 3.0, 10)
E0 = np.zeros(0)
ONE = np.array([2.5])
NEG4 = np.array([-1.0, -3.0, -0.5, -2.0])
TIES = np.array([2.0, 5.0, 5.0, 1.0, 5.0])
CODES = np.array([104, 105, 32, 116, 104, 101, 114, 101, 32, 32, 121, 111, 117])
WORD_A = np.array([1, 2, 3, 4, 5])
WORD_B = np.array([1, 3, 4, 6])
SQ = np.array([[2.0, 1.0, 1.0], [4.0, -6.0, 0.0], [-2.0, 7.0, 2.0]])
SPD = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
M44 = rng.normal(size=(4, 4))
IMG = rng.uniform(0, 1, (5, 5))
BIN = np.array([[1, 1, 0, 0, 1], [0, 1, 0, 1, 1], [0, 0, 0, 0, 0], [1, 0, 1, 1, 0]], dtype=np.int64)
TRI = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 3.0]])
SQUARE = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
CLOUD = rng.uniform(-1, 1, (8, 2))
ADJ = np.array(
    [[0, 1, 1, 0, 0], [1, 0, 0, 1, 0], [1, 0, 0, 1, 0], [0, 1, 1, 0, 1], [0, 0, 0, 1, 0]]
)
ADJ_SPLIT = np.array([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]])
WADJ = np.array(
    [[0.0, 4.0, 1.0, 0.0], [4.0, 0.0, 2.0, 5.0], [1.0, 2.0, 0.0, 8.0], [0.0, 5.0, 8.0, 0.0]]
)
PRICES = np.array([10.0, 11.0, 10.5, 12.0, 9.0, 9.5, 13.0, 12.0])
FLAT = np.full(4, 3.0)
T3 = np.array([[0.9, 0.1, 0.0], [0.2, 0.7, 0.1], [0.1, 0.3, 0.6]])
INTS = np.array([5, 2, 9, 1, 5, 6])


# ---------------------------------------------------------------- text on arrays of codes


@prog((CODES,), (np.array([32, 32]),), (np.array([97], dtype=np.int64),))
def count_words(codes):
    words = 0
    in_word = False
    for c in codes:
        if c != 32:
            if not in_word:
                words += 1
            in_word = True
        else:
            in_word = False
    return words


@prog((CODES,), (np.array([65, 66, 90]),), (np.zeros(0, dtype=np.int64),))
def to_upper(codes):
    out = codes.copy()
    for i in range(len(out)):
        if 97 <= out[i] <= 122:
            out[i] = out[i] - 32
    return out


@prog((CODES,), (np.array([32, 97, 32]),), (np.array([120]),))
def word_lengths(codes):
    lengths = []
    cur = 0
    for c in codes:
        if c == 32:
            if cur > 0:
                lengths.append(cur)
            cur = 0
        else:
            cur += 1
    if cur > 0:
        lengths.append(cur)
    return lengths


@prog((CODES,), (np.array([1, 1, 1]),), (np.zeros(0, dtype=np.int64),))
def char_histogram(codes):
    hist = np.zeros(128, dtype=np.int64)
    for c in codes:
        hist[c] += 1
    top = np.argmax(hist)
    return top, hist[top]


@prog(
    (np.array([1, 2, 1, 2, 1, 2, 3]), np.array([1, 2])),
    (WORD_A, np.array([9])),
    (WORD_A, np.array([4, 5])),
)
def find_substring(text, pat):
    n, m = len(text), len(pat)
    for i in range(n - m + 1):
        ok = True
        for j in range(m):
            if text[i + j] != pat[j]:
                ok = False
                break
        if ok:
            return i
    return -1


@prog((np.array([1, 2, 3, 2, 1]),), (np.array([1, 2]),), (np.array([7]),))
def is_palindrome(seq):
    i, j = 0, len(seq) - 1
    while i < j:
        if seq[i] != seq[j]:
            return False
        i += 1
        j -= 1
    return True


@prog((CODES, 3), (np.array([120, 121]), 1), (np.zeros(0, dtype=np.int64), 5))
def caesar_shift(codes, k):
    out = np.empty_like(codes)
    for i, c in enumerate(codes):
        if 97 <= c <= 122:
            out[i] = (c - 97 + k) % 26 + 97
        else:
            out[i] = c
    return out


@prog((np.array([5, 5, 5, 2, 2, 9]),), (np.array([4]),), (np.zeros(0, dtype=np.int64),))
def run_length_encode(seq):
    if len(seq) == 0:
        return [], []
    values = [seq[0]]
    counts = [1]
    for v in seq[1:]:
        if v == values[-1]:
            counts[-1] += 1
        else:
            values.append(v)
            counts.append(1)
    return values, counts


@prog((CODES,), (np.array([32, 32, 104]),))
def strip_spaces(codes):
    start = 0
    while start < len(codes) and codes[start] == 32:
        start += 1
    end = len(codes)
    while end > start and codes[end - 1] == 32:
        end -= 1
    return codes[start:end]


@prog((CODES,), (np.array([100, 32, 101]),), (np.array([32]),))
def tokenize_spans(codes):
    spans = []
    start = None
    for i, c in enumerate(codes):
        if c != 32 and start is None:
            start = i
        elif c == 32 and start is not None:
            spans.append((start, i))
            start = None
    if start is not None:
        spans.append((start, len(codes)))
    return spans


@prog((np.array([3, 1, 4, 1, 5]), 10), (np.array([0, 0]), 10), (np.zeros(0, dtype=np.int64), 7))
def polynomial_hash(codes, base):
    h = 0
    mod = 1_000_003
    for c in codes:
        h = (h * base + int(c)) % mod
    return h


@prog((CODES,), (np.array([97, 101, 105]),), (np.array([120, 121]),))
def vowel_ratio(codes):
    vowels = [97, 101, 105, 111, 117]
    n = 0
    for c in codes:
        if c in vowels:
            n += 1
    letters = np.sum(codes != 32)
    return n / letters if letters else 0.0


# ---------------------------------------------------------------- edit distance, alignment


@prog((WORD_A, WORD_B), (WORD_A, WORD_A), (np.zeros(0, dtype=np.int64), WORD_B))
def levenshtein(a, b):
    n, m = len(a), len(b)
    d = np.zeros((n + 1, m + 1), dtype=np.int64)
    for i in range(n + 1):
        d[i, 0] = i
    for j in range(m + 1):
        d[0, j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + cost)
    return d[n, m]


@prog((WORD_A, WORD_B), (WORD_A, WORD_A), (np.array([1, 2]), np.array([3, 4])))
def needleman_wunsch(a, b):
    gap, match, mismatch = -2, 1, -1
    n, m = len(a), len(b)
    S = np.zeros((n + 1, m + 1))
    S[:, 0] = gap * np.arange(n + 1)
    S[0, :] = gap * np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            s = match if a[i - 1] == b[j - 1] else mismatch
            S[i, j] = max(S[i - 1, j - 1] + s, S[i - 1, j] + gap, S[i, j - 1] + gap)
    return S[n, m]


@prog((WORD_A, WORD_B), (WORD_A, WORD_A), (WORD_A, np.array([1, 2, 3])))
def hamming_or_none(a, b):
    if len(a) != len(b):
        return None
    d = 0
    for x, y in zip(a, b):
        if x != y:
            d += 1
    return d


@prog((np.array([1, 2, 3, 2, 3, 4]), np.array([2, 3, 4])), (WORD_A, np.array([9, 9])))
def longest_common_substring(a, b):
    best = 0
    end = -1
    L = np.zeros((len(a) + 1, len(b) + 1), dtype=np.int64)
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                L[i, j] = L[i - 1, j - 1] + 1
                if L[i, j] > best:
                    best = L[i, j]
                    end = i
    return best, end


# ---------------------------------------------------------------- scheduling and queues


@prog((np.array([0.0, 1.0, 1.5, 5.0]), np.array([2.0, 1.0, 1.0, 0.5])), (ONE, ONE), (E0, E0))
def single_server_queue(arrivals, service):
    t_free = 0.0
    waits = []
    for a, s in zip(arrivals, service):
        start = max(a, t_free)
        waits.append(start - a)
        t_free = start + s
    mean_wait = np.mean(waits) if waits else 0.0
    return mean_wait, t_free


@prog((np.array([3.0, 1.0, 2.0, 5.0]),), (ONE,), (E0,))
def shortest_job_first(durations):
    order = np.argsort(durations)
    t = 0.0
    total_wait = 0.0
    for i in order:
        total_wait += t
        t += durations[i]
    n = len(durations)
    return total_wait / n if n > 0 else 0.0


@prog((np.array([4, 2, 7, 1]), 3), (np.array([1, 1]), 1), (np.array([10]), 4))
def round_robin(bursts, quantum):
    remaining = list(bursts)
    t = 0
    finish = [0] * len(bursts)
    queue = list(range(len(bursts)))
    while queue:
        i = queue.pop(0)
        run = min(quantum, remaining[i])
        t += run
        remaining[i] -= run
        if remaining[i] > 0:
            queue.append(i)
        else:
            finish[i] = t
    return finish


@prog(
    (np.array([1.0, 3.0, 0.0, 5.0, 8.0, 5.0]), np.array([2.0, 4.0, 6.0, 7.0, 9.0, 9.0])),
    (ONE, ONE + 1),
)
def interval_scheduling(starts, ends):
    order = np.argsort(ends)
    chosen = []
    last_end = -np.inf
    for i in order:
        if starts[i] >= last_end:
            chosen.append(int(i))
            last_end = ends[i]
    return chosen


@prog((np.array([2.0, 1.0, 3.0, 2.0]), 2), (np.array([5.0]), 3), (E0, 2))
def machine_load_balance(jobs, machines):
    loads = np.zeros(machines)
    for j in np.sort(jobs)[::-1]:
        k = np.argmin(loads)
        loads[k] += j
    return loads.max(), loads


@prog((np.array([0, 1, 0, 2, 0, 1, 1]),), (np.zeros(3, dtype=np.int64),), (np.array([2, 2, 2]),))
def elevator_sim(requests):
    floor = 0
    moved = 0
    log = []
    for target in requests:
        while floor != target:
            floor += 1 if target > floor else -1
            moved += 1
        log.append(floor)
    return moved, log


@prog((np.array([1.0, 0.5, 2.0, 0.1]), 1.0), (ONE, 5.0), (E0, 1.0))
def token_bucket(requests, rate):
    tokens = rate
    accepted = 0
    dropped = 0
    for r in requests:
        tokens = min(tokens + rate * 0.5, 2 * rate)
        if r <= tokens:
            tokens -= r
            accepted += 1
        else:
            dropped += 1
    return accepted, dropped, tokens


@prog((np.array([3, 1, 2]), np.array([10.0, 5.0, 8.0])), (np.array([1]), np.array([1.0])))
def weighted_completion(deadlines, weights):
    idx = sorted(range(len(deadlines)), key=lambda i: deadlines[i])
    t = 0
    late = 0.0
    for i in idx:
        t += 1
        if t > deadlines[i]:
            late += weights[i]
    return late


# ---------------------------------------------------------------- integration and ODEs


@prog((0.0, 1.0, 8), (0.0, np.pi, 16), (1.0, 1.0, 4))
def trapezoid_exp(a, b, n):
    h = (b - a) / n
    total = 0.5 * (np.exp(a) + np.exp(b))
    for i in range(1, n):
        total += np.exp(a + i * h)
    return total * h


@prog((np.linspace(0, 1, 9),), (np.linspace(0, 2, 5),), (np.linspace(0, 1, 4),))
def simpson_samples(xs):
    n = len(xs) - 1
    if n % 2 == 1:
        raise ValueError("need an even number of intervals")
    h = xs[1] - xs[0]
    ys = xs**2
    s = ys[0] + ys[-1]
    for i in range(1, n):
        s += 4 * ys[i] if i % 2 == 1 else 2 * ys[i]
    return s * h / 3


@prog((1.0, 0.1, 10), (0.5, 0.05, 20), (2.0, 0.1, 0))
def rk4_decay(y0, h, steps):
    def f(t, y):
        return -2.0 * y + np.sin(t)

    t, y = 0.0, y0
    for _ in range(steps):
        k1 = f(t, y)
        k2 = f(t + h / 2, y + h * k1 / 2)
        k3 = f(t + h / 2, y + h * k2 / 2)
        k4 = f(t + h, y + h * k3)
        y = y + h * (k1 + 2 * k2 + 2 * k3 + k4) / 6
        t += h
    return y


@prog((np.array([1.0, 0.0]), 0.05, 30), (np.array([0.0, 1.0]), 0.1, 5))
def euler_oscillator(state, dt, steps):
    traj = [state.copy()]
    for _ in range(steps):
        x, v = state
        state = np.array([x + dt * v, v - dt * x])
        traj.append(state)
    energy = [0.5 * (s[0] ** 2 + s[1] ** 2) for s in traj]
    return state, max(energy) - min(energy)


@prog((0.0, 2.0, 1e-6), (0.0, 1.0, 1e-3))
def adaptive_simpson(a, b, tol):
    def f(x):
        return np.sqrt(x) * np.exp(-x)

    def simp(a, b):
        c = (a + b) / 2
        return (b - a) / 6 * (f(a) + 4 * f(c) + f(b))

    stack = [(a, b, tol)]
    total = 0.0
    while stack:
        lo, hi, eps = stack.pop()
        mid = (lo + hi) / 2
        whole = simp(lo, hi)
        left, right = simp(lo, mid), simp(mid, hi)
        if abs(left + right - whole) < 15 * eps or hi - lo < 1e-4:
            total += left + right
        else:
            stack.append((lo, mid, eps / 2))
            stack.append((mid, hi, eps / 2))
    return total


@prog((100, 7), (10, 1))
def monte_carlo_pi(n, seed):
    rng = np.random.default_rng(seed)
    inside = 0
    for _ in range(n):
        x, y = rng.uniform(-1, 1, 2)
        if x * x + y * y <= 1:
            inside += 1
    return 4 * inside / n


@prog((np.array([0.0, 1.0, 3.0, 4.0]), np.array([0.0, 2.0, 2.0, 0.0])), (ONE, ONE))
def area_under_samples(t, v):
    area = 0.0
    for i in range(1, len(t)):
        area += (t[i] - t[i - 1]) * (v[i] + v[i - 1]) / 2
    return area


# ---------------------------------------------------------------- root finding


@prog((1.0, 2.0), (0.0, 1.0), (3.0, 4.0))
def secant_cubic(x0, x1):
    def f(x):
        return x**3 - 2 * x - 5

    for i in range(100):
        f0, f1 = f(x0), f(x1)
        if f1 == f0:
            break
        x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
        if abs(x2 - x1) < 1e-10:
            return x2, i
        x0, x1 = x1, x2
    return x1, -1


@prog((np.array([1.0, -6.0, 11.0, -6.0]), 0.0, 1.5), (np.array([1.0, 0.0, 1.0]), -1.0, 1.0))
def bisect_poly(coeffs, lo, hi):
    flo = np.polyval(coeffs, lo)
    fhi = np.polyval(coeffs, hi)
    if np.sign(flo) == np.sign(fhi):
        return np.nan
    for _ in range(60):
        mid = (lo + hi) / 2
        fm = np.polyval(coeffs, mid)
        if np.sign(fm) == np.sign(flo):
            lo, flo = mid, fm
        else:
            hi = mid
    return (lo + hi) / 2


@prog((np.float64(0.5),), (np.float64(3.0),), (np.float64(-1.0),))
def fixed_point_iter(x):
    for k in range(200):
        nx = np.exp(-x)
        if abs(nx - x) < 1e-10:
            break
        x = nx
    else:
        return None
    return x


@prog((np.array([2.0, 0.5, 0.0]),), (np.array([1.0]),))
def newton_many(starts):
    roots = []
    for x in starts:
        for _ in range(30):
            fx = np.tanh(x)
            dfx = 1 - fx**2
            if dfx < 1e-12:
                break
            x = x - fx / dfx
        roots.append(x)
    return np.array(roots)


@prog((3.0,), (0.001,), (1e6,))
def regula_falsi_log(target):
    lo, hi = 1e-9, max(target, 2.0) * 10
    f_lo, f_hi = np.log(lo) - np.log(target), np.log(hi) - np.log(target)
    x = lo
    for _ in range(200):
        x = hi - f_hi * (hi - lo) / (f_hi - f_lo)
        fx = np.log(x) - np.log(target)
        if abs(fx) < 1e-9:
            break
        if fx * f_lo < 0:
            hi, f_hi = x, fx
        else:
            lo, f_lo = x, fx
    return x


# ---------------------------------------------------------------- interpolation


@prog(
    (np.array([0.0, 1.0, 2.0, 4.0]), np.array([1.0, 3.0, 2.0, 0.0]), 1.5),
    (np.array([0.0, 1.0]), np.array([0.0, 1.0]), 5.0),
)
def linear_interp(xs, ys, x):
    if x <= xs[0]:
        return ys[0]
    if x >= xs[-1]:
        return ys[-1]
    i = 0
    while xs[i + 1] < x:
        i += 1
    t = (x - xs[i]) / (xs[i + 1] - xs[i])
    return ys[i] + t * (ys[i + 1] - ys[i])


@prog(
    (np.array([0.0, 1.0, 2.0]), np.array([1.0, 0.0, 3.0]), 1.5),
    (np.array([0.0, 1.0]), np.array([2.0, 4.0]), 0.25),
)
def lagrange_eval(xs, ys, x):
    total = 0.0
    n = len(xs)
    for i in range(n):
        term = ys[i]
        for j in range(n):
            if j != i:
                term = term * (x - xs[j]) / (xs[i] - xs[j])
        total += term
    return total


@prog(
    (np.array([0.0, 1.0, 2.0, 3.0]), np.array([1.0, 2.0, 0.0, 5.0])),
    (np.array([0.0, 1.0]), np.array([3.0, 3.0])),
)
def newton_divided_differences(xs, ys):
    coef = ys.astype(float).copy()
    n = len(xs)
    for j in range(1, n):
        for i in range(n - 1, j - 1, -1):
            coef[i] = (coef[i] - coef[i - 1]) / (xs[i] - xs[i - j])
    return coef


@prog((IMG, 1.5, 2.25), (IMG, 0.0, 0.0), (IMG, 3.9, 3.99))
def bilinear_sample(img, y, x):
    y0, x0 = int(np.floor(y)), int(np.floor(x))
    y1, x1 = min(y0 + 1, img.shape[0] - 1), min(x0 + 1, img.shape[1] - 1)
    dy, dx = y - y0, x - x0
    top = img[y0, x0] * (1 - dx) + img[y0, x1] * dx
    bot = img[y1, x0] * (1 - dx) + img[y1, x1] * dx
    return top * (1 - dy) + bot * dy


@prog((np.array([1.0, np.nan, np.nan, 4.0, np.nan, 6.0]),), (np.array([np.nan, 1.0]),), (FLAT,))
def fill_gaps_linear(x):
    out = x.copy()
    last = None
    for i in range(len(out)):
        if not np.isnan(out[i]):
            if last is not None and i - last > 1:
                for k in range(last + 1, i):
                    out[k] = out[last] + (out[i] - out[last]) * (k - last) / (i - last)
            last = i
    return out


# ---------------------------------------------------------------- sorts and searches


@prog((R10,), (ONE,), (TIES,))
def insertion_sort_list(x):
    out = []
    for v in x:
        i = len(out)
        out.append(v)
        while i > 0 and out[i - 1] > v:
            out[i] = out[i - 1]
            i -= 1
        out[i] = v
    return out


@prog((np.array([1.0, 3.0, 5.0, 7.0, 9.0]), 7.0), (np.array([1.0, 3.0]), 2.0), (E0, 1.0))
def binary_search(a, target):
    lo, hi = 0, len(a) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if a[mid] == target:
            return mid
        elif a[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


@prog((np.array([1.0, 2.0, 2.0, 2.0, 5.0]), 2.0), (np.array([1.0, 3.0]), 4.0), (E0, 0.0))
def lower_bound(a, target):
    lo, hi = 0, len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo


@prog((INTS,), (np.array([1]),), (np.array([3, 3, 3]),))
def counting_sort(a):
    if len(a) == 0:
        return a
    counts = np.zeros(a.max() + 1, dtype=np.int64)
    for v in a:
        counts[v] += 1
    out = []
    for v, c in enumerate(counts):
        for _ in range(c):
            out.append(v)
    return np.array(out)


@prog((R10,), (ONE,), (TIES,))
def merge_sort(x):
    def merge(a, b):
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
        return out

    items = [[v] for v in x]
    while len(items) > 1:
        items = [
            merge(items[k], items[k + 1]) if k + 1 < len(items) else items[k]
            for k in range(0, len(items), 2)
        ]
    return items[0] if items else []


@prog((R10,), (TIES,), (ONE,))
def selection_sort_desc(x):
    a = x.copy()
    for i in range(len(a)):
        m = i
        for j in range(i + 1, len(a)):
            if a[j] > a[m]:
                m = j
        if m != i:
            tmp = a[i]
            a[i] = a[m]
            a[m] = tmp
    return a


@prog((R10, 3), (TIES, 1), (ONE, 2))
def quickselect(x, k):
    a = list(x)
    if k > len(a):
        raise IndexError("k too large")
    while True:
        pivot = a[len(a) // 2]
        lows = [v for v in a if v < pivot]
        highs = [v for v in a if v > pivot]
        pivots = [v for v in a if v == pivot]
        if k <= len(lows):
            a = lows
        elif k <= len(lows) + len(pivots):
            return pivot
        else:
            k -= len(lows) + len(pivots)
            a = highs


@prog((np.array([4.0, 1.0, 3.0, 9.0, 7.0]),), (ONE,), (E0,))
def heap_sort_manual(x):
    a = x.copy()
    n = len(a)

    def sift(a, start, end):
        root = start
        while 2 * root + 1 < end:
            child = 2 * root + 1
            if child + 1 < end and a[child] < a[child + 1]:
                child += 1
            if a[root] < a[child]:
                a[root], a[child] = a[child], a[root]
                root = child
            else:
                return

    for s in range(n // 2 - 1, -1, -1):
        sift(a, s, n)
    for end in range(n - 1, 0, -1):
        a[0], a[end] = a[end], a[0]
        sift(a, 0, end)
    return a


@prog((np.array([1, 4, 6, 9, 12]), 10), (np.array([2, 3]), 5), (np.array([1]), 2))
def two_sum_sorted(a, target):
    i, j = 0, len(a) - 1
    while i < j:
        s = a[i] + a[j]
        if s == target:
            return i, j
        if s < target:
            i += 1
        else:
            j -= 1
    return None


@prog((R10,), (NEG4,), (ONE,))
def ternary_search_peak(x):
    lo, hi = 0, len(x) - 1
    while hi - lo > 2:
        m1 = lo + (hi - lo) // 3
        m2 = hi - (hi - lo) // 3
        if x[m1] < x[m2]:
            lo = m1
        else:
            hi = m2
    best = lo
    for i in range(lo, hi + 1):
        if x[i] > x[best]:
            best = i
    return best


# ---------------------------------------------------------------- matrix algorithms


@prog((SQ,), (SPD,), (np.array([[0.0, 1.0], [1.0, 0.0]]),))
def lu_doolittle(A):
    n = A.shape[0]
    L = np.eye(n)
    U = np.zeros((n, n))
    for i in range(n):
        for k in range(i, n):
            U[i, k] = A[i, k] - L[i, :i] @ U[:i, k]
        if U[i, i] == 0:
            raise ZeroDivisionError("zero pivot")
        for k in range(i + 1, n):
            L[k, i] = (A[k, i] - L[k, :i] @ U[:i, i]) / U[i, i]
    return L, U


@prog((SQ,), (SPD,), (M44,))
def gram_schmidt_qr(A):
    m, n = A.shape
    Q = np.zeros((m, n))
    R = np.zeros((n, n))
    for j in range(n):
        v = A[:, j].copy()
        for i in range(j):
            R[i, j] = Q[:, i] @ A[:, j]
            v = v - R[i, j] * Q[:, i]
        R[j, j] = np.linalg.norm(v)
        Q[:, j] = v / R[j, j]
    return Q, R


@prog(
    (SQ, np.array([5.0, -2.0, 9.0])),
    (np.array([[0.0, 2.0], [1.0, 1.0]]), np.array([4.0, 3.0])),
    (np.zeros((2, 2)), np.ones(2)),
)
def solve_partial_pivot(A, b):
    A = A.astype(float).copy()
    b = b.astype(float).copy()
    n = len(b)
    for k in range(n):
        p = k + np.argmax(np.abs(A[k:, k]))
        if abs(A[p, k]) < 1e-12:
            raise np.linalg.LinAlgError("singular")
        if p != k:
            A[[k, p]] = A[[p, k]]
            b[[k, p]] = b[[p, k]]
        for i in range(k + 1, n):
            f = A[i, k] / A[k, k]
            A[i, k:] -= f * A[k, k:]
            b[i] -= f * b[k]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - A[i, i + 1 :] @ x[i + 1 :]) / A[i, i]
    return x


@prog((SQ,), (M44,), (np.array([[5.0]]),))
def matrix_transpose_loops(A):
    n, m = A.shape
    T = np.empty((m, n))
    for i in range(n):
        for j in range(m):
            T[j, i] = A[i, j]
    return T


@prog((SPD,), (np.array([[1.0, 2.0], [2.0, 1.0]]),))
def cholesky_or_fail(A):
    n = A.shape[0]
    L = np.zeros_like(A)
    for j in range(n):
        d = A[j, j] - np.sum(L[j, :j] ** 2)
        if d <= 0:
            return None
        L[j, j] = np.sqrt(d)
        for i in range(j + 1, n):
            L[i, j] = (A[i, j] - np.sum(L[i, :j] * L[j, :j])) / L[j, j]
    return L


@prog((SQ,), (M44,), (np.eye(2),))
def matrix_rank_elim(A):
    M = A.copy()
    rank = 0
    rows, cols = M.shape
    for c in range(cols):
        pivot = None
        for r in range(rank, rows):
            if abs(M[r, c]) > 1e-10:
                pivot = r
                break
        if pivot is None:
            continue
        M[[rank, pivot]] = M[[pivot, rank]]
        M[rank] = M[rank] / M[rank, c]
        for r in range(rows):
            if r != rank:
                M[r] = M[r] - M[r, c] * M[rank]
        rank += 1
    return rank


@prog((SPD,), (np.diag([1.0, 5.0, 2.0]),))
def jacobi_eigen_sweep(A):
    A = A.copy()
    n = A.shape[0]
    for sweep in range(20):
        off = np.sum(A**2) - np.sum(np.diag(A) ** 2)
        if off < 1e-18:
            break
        for p in range(n):
            for q in range(p + 1, n):
                if abs(A[p, q]) < 1e-15:
                    continue
                theta = 0.5 * np.arctan2(2 * A[p, q], A[q, q] - A[p, p])
                c, s = np.cos(theta), np.sin(theta)
                J = np.eye(n)
                J[p, p] = c
                J[q, q] = c
                J[p, q] = s
                J[q, p] = -s
                A = J.T @ A @ J
    return np.sort(np.diag(A))


# ---------------------------------------------------------------- Markov chains


@prog((T3, 0, 10), (T3, 2, 0), (np.eye(2), 1, 5))
def markov_distribution(T, start, steps):
    p = np.zeros(T.shape[0])
    p[start] = 1.0
    for _ in range(steps):
        p = p @ T
    return p


@prog((T3, 11, 20), (T3, 3, 0))
def simulate_chain(T, seed, n):
    rng = np.random.default_rng(seed)
    state = 0
    visits = np.zeros(T.shape[0], dtype=np.int64)
    for _ in range(n):
        visits[state] += 1
        state = rng.choice(T.shape[0], p=T[state])
    return visits


@prog((T3,), (np.array([[1.0, 0.0], [0.3, 0.7]]),))
def absorbing_states(T):
    absorbing = []
    for i in range(T.shape[0]):
        if T[i, i] == 1.0:
            absorbing.append(i)
    return absorbing


@prog((np.array([0, 1, 1, 2, 0, 0, 1]), 3), (np.array([1]), 2), (np.array([0, 0, 0]), 1))
def estimate_transitions(seq, k):
    counts = np.zeros((k, k))
    for a, b in zip(seq[:-1], seq[1:]):
        counts[a, b] += 1
    rows = counts.sum(axis=1, keepdims=True)
    rows[rows == 0] = 1
    return counts / rows


@prog((T3, np.array([0, 1, 1, 2])), (T3, np.array([2])))
def sequence_log_likelihood(T, seq):
    ll = 0.0
    for i in range(1, len(seq)):
        p = T[seq[i - 1], seq[i]]
        if p == 0:
            return -np.inf
        ll += np.log(p)
    return ll


# ---------------------------------------------------------------- image filters, regions


@prog((IMG,), (np.ones((2, 2)),))
def median3x3(img):
    h, w = img.shape
    out = img.copy()
    for i in range(1, h - 1):
        for j in range(1, w - 1):
            out[i, j] = np.median(img[i - 1 : i + 2, j - 1 : j + 2])
    return out


@prog((BIN,), (np.zeros((2, 2), dtype=np.int64),), (np.ones((2, 3), dtype=np.int64),))
def count_islands(grid):
    g = grid.copy()
    rows, cols = g.shape
    islands = 0
    for r in range(rows):
        for c in range(cols):
            if g[r, c] == 1:
                islands += 1
                stack = [(r, c)]
                while stack:
                    y, x = stack.pop()
                    if 0 <= y < rows and 0 <= x < cols and g[y, x] == 1:
                        g[y, x] = 0
                        stack.append((y + 1, x))
                        stack.append((y - 1, x))
                        stack.append((y, x + 1))
                        stack.append((y, x - 1))
    return islands


@prog((BIN,), (np.zeros((2, 2), dtype=np.int64),))
def label_regions(grid):
    rows, cols = grid.shape
    labels = np.zeros((rows, cols), dtype=np.int64)
    nxt = 1
    for r in range(rows):
        for c in range(cols):
            if grid[r, c] and labels[r, c] == 0:
                queue = [(r, c)]
                labels[r, c] = nxt
                while queue:
                    y, x = queue.pop(0)
                    for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                        ny, nx = y + dy, x + dx
                        if 0 <= ny < rows and 0 <= nx < cols:
                            if grid[ny, nx] and labels[ny, nx] == 0:
                                labels[ny, nx] = nxt
                                queue.append((ny, nx))
                nxt += 1
    return labels, nxt - 1


@prog((IMG, 0.5), (IMG, 2.0), (np.zeros((1, 1)), 0.0))
def threshold_stats(img, t):
    mask = img > t
    n = int(mask.sum())
    if n == 0:
        return {"count": 0, "mean": None}
    return {"count": n, "mean": float(img[mask].mean())}


@prog((BIN,), (np.zeros((2, 3), dtype=np.int64),))
def bounding_box(mask):
    top, left = None, None
    bottom, right = -1, -1
    for r in range(mask.shape[0]):
        for c in range(mask.shape[1]):
            if mask[r, c]:
                if top is None:
                    top = r
                if left is None or c < left:
                    left = c
                bottom = r
                right = max(right, c)
    if top is None:
        return None
    return top, left, bottom, right


@prog((BIN,), (np.ones((2, 2), dtype=np.int64),))
def erode(mask):
    out = np.zeros_like(mask)
    rows, cols = mask.shape
    for r in range(1, rows - 1):
        for c in range(1, cols - 1):
            if mask[r - 1 : r + 2, c - 1 : c + 2].all():
                out[r, c] = 1
    return out


# ---------------------------------------------------------------- reinforcement learning


@prog((np.array([0.2, 0.5, 0.8]), 60, 1), (np.array([0.5]), 10, 2))
def epsilon_greedy_bandit(probs, steps, seed):
    rng = np.random.default_rng(seed)
    k = len(probs)
    Q = np.zeros(k)
    N = np.zeros(k)
    total = 0.0
    for t in range(steps):
        if rng.random() < 0.1:
            a = rng.integers(k)
        else:
            a = np.argmax(Q)
        r = 1.0 if rng.random() < probs[a] else 0.0
        N[a] += 1
        Q[a] += (r - Q[a]) / N[a]
        total += r
    return total, Q


@prog((np.array([0.3, 0.6]), 20, 3), (np.array([0.9, 0.1, 0.5]), 30, 4))
def ucb_bandit(probs, steps, seed):
    rng = np.random.default_rng(seed)
    k = len(probs)
    counts = np.zeros(k)
    values = np.zeros(k)
    for t in range(1, steps + 1):
        if t <= k:
            a = t - 1
        else:
            a = np.argmax(values + np.sqrt(2 * np.log(t) / counts))
        r = float(rng.random() < probs[a])
        counts[a] += 1
        values[a] += (r - values[a]) / counts[a]
    return counts


@prog((4, 0.9), (3, 0.5), (1, 0.9))
def value_iteration_line(n, gamma):
    V = np.zeros(n)
    reward = np.zeros(n)
    reward[-1] = 1.0
    for it in range(500):
        delta = 0.0
        for s in range(n):
            left = V[max(s - 1, 0)]
            right = V[min(s + 1, n - 1)]
            best = reward[s] + gamma * max(left, right)
            delta = max(delta, abs(best - V[s]))
            V[s] = best
        if delta < 1e-8:
            break
    return V, it


@prog((5, 40, 0), (3, 10, 1))
def q_learning_corridor(n, episodes, seed):
    rng = np.random.default_rng(seed)
    Q = np.zeros((n, 2))
    alpha, gamma, eps = 0.5, 0.9, 0.2
    for ep in range(episodes):
        s = 0
        steps = 0
        while s != n - 1 and steps < 50:
            if rng.random() < eps:
                a = int(rng.integers(2))
            else:
                a = int(np.argmax(Q[s]))
            s2 = min(s + 1, n - 1) if a == 1 else max(s - 1, 0)
            r = 1.0 if s2 == n - 1 else 0.0
            Q[s, a] += alpha * (r + gamma * Q[s2].max() - Q[s, a])
            s = s2
            steps += 1
    return np.argmax(Q, axis=1)


@prog((np.array([1.0, 0.0, 2.0, 1.0]), 0.9), (ONE, 0.5), (E0, 0.9))
def discounted_returns(rewards, gamma):
    G = 0.0
    out = np.zeros_like(rewards)
    for t in reversed(range(len(rewards))):
        G = rewards[t] + gamma * G
        out[t] = G
    return out


@prog(
    (np.array([[0.0, 1.0], [2.0, 0.5]]), np.array([[0, 1], [1, 0]]), 0.9),
)
def policy_evaluation(R, nxt, gamma):
    n = R.shape[0]
    V = np.zeros(n)
    policy = np.zeros(n, dtype=np.int64)
    for _ in range(100):
        V_new = np.array([R[s, policy[s]] + gamma * V[nxt[s, policy[s]]] for s in range(n)])
        if np.allclose(V_new, V):
            break
        V = V_new
    return V


# ---------------------------------------------------------------- optimizers


@prog((np.array([3.0, -2.0]), 0.1, 100), (np.array([0.0, 0.0]), 0.1, 10))
def momentum_descent(x, lr, steps):
    v = np.zeros_like(x)
    for _ in range(steps):
        grad = 2 * (x - np.array([1.0, 2.0]))
        v = 0.9 * v - lr * grad
        x = x + v
    return x


@prog((np.array([1.5, -0.5]),), (np.array([0.0, 0.0]),))
def backtracking_line_search(x):
    def f(x):
        return (x[0] - 1) ** 2 + 10 * (x[1] + 0.5) ** 2

    def grad(x):
        return np.array([2 * (x[0] - 1), 20 * (x[1] + 0.5)])

    for it in range(100):
        g = grad(x)
        if np.linalg.norm(g) < 1e-8:
            break
        t = 1.0
        while f(x - t * g) > f(x) - 0.5 * t * (g @ g):
            t *= 0.5
        x = x - t * g
    return x, it


@prog((np.array([5.0, 5.0]), 0.1), (np.array([0.1, 0.0]), 1.0))
def adagrad(x, lr):
    cache = np.zeros_like(x)
    history = []
    for step in range(20):
        g = np.array([2 * x[0], 4 * x[1]])
        cache += g * g
        x = x - lr * g / (np.sqrt(cache) + 1e-8)
        history.append(float(x @ x))
    return x, history[-1]


@prog((U10, 0.05), (np.array([1.0, 1.0]), 0.5))
def sgd_linear_fit(xs, lr):
    w, b = 0.0, 0.0
    ys = 3 * xs + 1
    for epoch in range(20):
        for x, y in zip(xs, ys):
            err = w * x + b - y
            w -= lr * err * x
            b -= lr * err
    return round(w, 3), round(b, 3)


@prog((np.array([4.0, -4.0]), 0.3), (np.array([0.0, 0.0]), 0.3))
def gd_with_early_stop(x, lr):
    prev_loss = None
    for step in range(1000):
        loss = np.sum(x**2)
        if prev_loss is not None and prev_loss - loss < 1e-12:
            break
        prev_loss = loss
        x = x - lr * 2 * x
    return step, loss


# ---------------------------------------------------------------- games, cellular automata


@prog((np.array([0, 0, 0, 1, 0, 0, 0]), 30, 3), (np.array([1, 1, 1]), 90, 2))
def elementary_ca(cells, rule, steps):
    n = len(cells)
    history = [cells.copy()]
    for _ in range(steps):
        new = np.zeros_like(cells)
        for i in range(n):
            l = cells[(i - 1) % n]
            c = cells[i]
            r = cells[(i + 1) % n]
            idx = 4 * l + 2 * c + r
            new[i] = (rule >> idx) & 1
        cells = new
        history.append(cells)
    return np.array(history)


@prog((21, 5), (3, 9))
def dice_race(target, seed):
    rng = np.random.default_rng(seed)
    pos = [0, 0]
    turn = 0
    rounds = 0
    while max(pos) < target:
        pos[turn] += int(rng.integers(1, 7))
        turn = 1 - turn
        rounds += 1
    winner = 0 if pos[0] >= target else 1
    return winner, rounds


@prog((np.array([[0, 0, 1], [1, 0, 1], [0, 0, 0]]),), (np.array([[0, 1], [1, 0]]),))
def maze_shortest_path(grid):
    rows, cols = grid.shape
    dist = np.full((rows, cols), -1)
    dist[0, 0] = 0
    queue = [(0, 0)]
    while queue:
        r, c = queue.pop(0)
        for dr, dc in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and grid[nr, nc] == 0 and dist[nr, nc] < 0:
                dist[nr, nc] = dist[r, c] + 1
                queue.append((nr, nc))
    return dist[rows - 1, cols - 1]


@prog((np.array([0.3, 0.1, 0.9, 0.6, 0.2]), 0.5), (np.array([0.9]), 0.5))
def forest_fire_step(trees, p_burn):
    state = (trees > p_burn).astype(np.int64)
    burnt = 0
    for i in range(len(state)):
        if state[i] == 1 and (i == 0 or state[i - 1] == 2):
            state[i] = 2
            burnt += 1
    return state, burnt


@prog((np.array([1, 0, 1, 1, 0, 0, 1, 0]), 4), (np.array([1, 1]), 1))
def rule_184_traffic(road, steps):
    n = len(road)
    moved = 0
    for _ in range(steps):
        new = road.copy()
        for i in range(n):
            j = (i + 1) % n
            if road[i] == 1 and road[j] == 0:
                new[i] = 0
                new[j] = 1
                moved += 1
        road = new
    return road, moved


@prog((np.array([5, 3, 8, 1]),), (np.array([2]),))
def war_card_game(deck):
    a = list(deck[::2])
    b = list(deck[1::2])
    rounds = 0
    while a and b and rounds < 100:
        x, y = a.pop(0), b.pop(0)
        if x > y:
            a += [x, y]
        else:
            b += [y, x]
        rounds += 1
    return len(a), len(b), rounds


# ---------------------------------------------------------------- time series


@prog((PRICES, 0.3), (ONE, 0.5), (E0, 0.5))
def ema_list(x, alpha):
    out = []
    s = None
    for v in x:
        s = v if s is None else alpha * v + (1 - alpha) * s
        out.append(s)
    return np.array(out)


@prog((R10,), (FLAT,), (E0,))
def local_peaks(x):
    peaks = []
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] >= x[i + 1]:
            peaks.append(i)
    return peaks


@prog((R10,), (np.array([1.0, -1.0, 1.0]),), (ONE,))
def zero_crossings(x):
    times = []
    for i in range(1, len(x)):
        if x[i - 1] < 0 <= x[i] or x[i - 1] >= 0 > x[i]:
            times.append(i - 1 + x[i - 1] / (x[i - 1] - x[i]))
    return times


@prog((PRICES, 2, 4), (FLAT, 1, 2))
def sma_cross_signals(p, short, long):
    signals = []
    prev_diff = None
    for t in range(long, len(p) + 1):
        diff = p[t - short : t].mean() - p[t - long : t].mean()
        if prev_diff is not None and np.sign(diff) != np.sign(prev_diff):
            signals.append(("buy" if diff > 0 else "sell", t))
        prev_diff = diff
    return signals


@prog((PRICES,), (FLAT,), (ONE,))
def returns_stats(p):
    r = np.diff(p) / p[:-1]
    if len(r) == 0:
        return {"mean": 0.0, "vol": 0.0, "best_day": None}
    return {"mean": r.mean(), "vol": r.std(), "best_day": int(np.argmax(r)) + 1}


@prog((PRICES, 3), (R10, 4), (ONE, 2))
def rolling_max_deque(x, k):
    dq = []
    out = []
    for i, v in enumerate(x):
        while dq and x[dq[-1]] <= v:
            dq.pop()
        dq.append(i)
        if dq[0] <= i - k:
            dq.pop(0)
        if i >= k - 1:
            out.append(x[dq[0]])
    return out


@prog((np.array([1.0, 2.0, 2.5, 2.4, 3.0, 1.0]),), (FLAT,))
def longest_rising_streak(x):
    best = cur = 1 if len(x) else 0
    for a, b in zip(x, x[1:]):
        if b > a:
            cur += 1
            best = max(best, cur)
        else:
            cur = 1
    return best


@prog((R10, 1.0), (FLAT, 0.1))
def cusum_detect(x, h):
    s_pos = s_neg = 0.0
    mu = x.mean()
    for t, v in enumerate(x):
        s_pos = max(0.0, s_pos + v - mu - 0.1)
        s_neg = min(0.0, s_neg + v - mu + 0.1)
        if s_pos > h or s_neg < -h:
            return t
    return None


@prog((np.arange(12.0) % 4,), (np.ones(3),))
def autocorr_lag(x):
    x = x - x.mean()
    denom = np.sum(x * x)
    best_lag, best = 0, -np.inf
    for lag in range(1, len(x) // 2):
        c = np.sum(x[:-lag] * x[lag:]) / denom if denom > 0 else 0.0
        if c > best:
            best, best_lag = c, lag
    return best_lag


# ---------------------------------------------------------------- geometry


@prog((TRI,), (SQUARE,), (np.zeros((0, 2)),))
def shoelace_area(poly):
    area = 0.0
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        area += x1 * y2 - x2 * y1
    return abs(area) / 2


@prog((SQUARE, np.array([0.5, 0.5])), (SQUARE, np.array([2.0, 0.5])), (TRI, np.array([1.0, 1.0])))
def point_in_polygon(poly, p):
    inside = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i, 0], poly[i, 1]
        xj, yj = poly[j, 0], poly[j, 1]
        if (yi > p[1]) != (yj > p[1]):
            x_cross = (xj - xi) * (p[1] - yi) / (yj - yi) + xi
            if p[0] < x_cross:
                inside = not inside
        j = i
    return inside


@prog((CLOUD,), (SQUARE,), (TRI[:2],))
def convex_hull_monotone(pts):
    order = np.lexsort((pts[:, 1], pts[:, 0]))
    P = pts[order]

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower = []
    for p in P:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper = []
    for p in P[::-1]:
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return np.array(lower[:-1] + upper[:-1])


@prog((CLOUD,), (SQUARE,), (TRI[:1],))
def closest_pair_brute(pts):
    best = np.inf
    pair = None
    for i in range(len(pts)):
        for j in range(i + 1, len(pts)):
            d = np.linalg.norm(pts[i] - pts[j])
            if d < best:
                best = d
                pair = (i, j)
    return pair, best


@prog(
    (np.array([0.0, 0.0]), np.array([2.0, 2.0]), np.array([0.0, 2.0]), np.array([2.0, 0.0])),
    (np.array([0.0, 0.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), np.array([1.0, 1.0])),
)
def segment_intersection(p1, p2, p3, p4):
    d1 = p2 - p1
    d2 = p4 - p3
    denom = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(denom) < 1e-12:
        return None
    t = ((p3[0] - p1[0]) * d2[1] - (p3[1] - p1[1]) * d2[0]) / denom
    u = ((p3[0] - p1[0]) * d1[1] - (p3[1] - p1[1]) * d1[0]) / denom
    if 0 <= t <= 1 and 0 <= u <= 1:
        return p1 + t * d1
    return None


@prog((TRI,), (SQUARE,))
def polygon_perimeter_centroid(poly):
    perim = 0.0
    cx = cy = 0.0
    for (x1, y1), (x2, y2) in zip(poly, np.roll(poly, -1, axis=0)):
        perim += math.hypot(x2 - x1, y2 - y1)
        cx += x1
        cy += y1
    return perim, (cx / len(poly), cy / len(poly))


@prog((CLOUD, 0.5), (SQUARE, 0.1))
def points_within_radius(pts, r):
    center = pts.mean(axis=0)
    near = [i for i, p in enumerate(pts) if np.linalg.norm(p - center) <= r]
    return near, len(near)


@prog((TRI,), (np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]),))
def triangle_kind(t):
    a = np.linalg.norm(t[1] - t[0])
    b = np.linalg.norm(t[2] - t[1])
    c = np.linalg.norm(t[0] - t[2])
    s = sorted([a, b, c])
    if s[0] + s[1] <= s[2] + 1e-12:
        return "degenerate"
    if abs(s[0] ** 2 + s[1] ** 2 - s[2] ** 2) < 1e-9:
        return "right"
    return "other"


@prog((CLOUD,), (SQUARE,))
def farthest_point_sampling(pts):
    chosen = [0]
    d = np.linalg.norm(pts - pts[0], axis=1)
    while len(chosen) < 3:
        i = int(np.argmax(d))
        chosen.append(i)
        d = np.minimum(d, np.linalg.norm(pts - pts[i], axis=1))
    return chosen


# ---------------------------------------------------------------- graph worklists


@prog((ADJ, 0), (ADJ_SPLIT, 0), (ADJ, 4))
def bfs_distances(adj, src):
    n = adj.shape[0]
    dist = [-1] * n
    dist[src] = 0
    queue = [src]
    while queue:
        u = queue.pop(0)
        for v in range(n):
            if adj[u, v] and dist[v] == -1:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist


@prog((ADJ,), (ADJ_SPLIT,))
def dfs_order(adj):
    n = adj.shape[0]
    seen = [False] * n
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


@prog((ADJ,), (ADJ_SPLIT,))
def is_bipartite(adj):
    n = adj.shape[0]
    color = [None] * n
    for s in range(n):
        if color[s] is not None:
            continue
        color[s] = 0
        queue = [s]
        while queue:
            u = queue.pop(0)
            for v in range(n):
                if adj[u, v]:
                    if color[v] is None:
                        color[v] = 1 - color[u]
                        queue.append(v)
                    elif color[v] == color[u]:
                        return False
    return True


@prog((WADJ,), (np.array([[0.0, 2.0], [2.0, 0.0]]),))
def prim_total(w):
    n = w.shape[0]
    in_tree = [0]
    total = 0.0
    while len(in_tree) < n:
        best = None
        for u in in_tree:
            for v in range(n):
                if v not in in_tree and w[u, v] > 0:
                    if best is None or w[u, v] < best[0]:
                        best = (w[u, v], v)
        if best is None:
            break
        total += best[0]
        in_tree.append(best[1])
    return total


@prog((ADJ, 0, 4), (ADJ_SPLIT, 0, 3))
def path_reconstruct(adj, s, t):
    n = adj.shape[0]
    prev = {s: None}
    queue = [s]
    while queue:
        u = queue.pop(0)
        if u == t:
            break
        for v in range(n):
            if adj[u, v] and v not in prev:
                prev[v] = u
                queue.append(v)
    if t not in prev:
        return []
    path = [t]
    while prev[path[-1]] is not None:
        path.append(prev[path[-1]])
    return path[::-1]


@prog((ADJ,), (ADJ_SPLIT,))
def degree_report(adj):
    deg = adj.sum(axis=1)
    report = {}
    for node, d in enumerate(deg):
        report[node] = int(d)
    hubs = [k for k, v in report.items() if v == max(report.values())]
    return report, hubs


# ---------------------------------------------------------------- classes with state


class Account:
    def __init__(self, balance):
        self.balance = balance
        self.history = []

    def deposit(self, amount):
        self.balance += amount
        self.history.append(amount)

    def withdraw(self, amount):
        if amount > self.balance:
            raise ValueError("insufficient funds")
        self.balance -= amount
        self.history.append(-amount)


class RunningMean:
    def __init__(self):
        self.n = 0
        self.mean = 0.0

    def update(self, x):
        self.n += 1
        self.mean += (x - self.mean) / self.n
        return self.mean


@prog((R10,), (ONE,), (E0,))
def running_mean_object(x):
    rm = RunningMean()
    for v in x:
        rm.update(v)
    return rm.mean, rm.n


class Stack:
    def __init__(self):
        self.items = []

    def push(self, v):
        self.items.append(v)

    def pop(self):
        return self.items.pop()

    def empty(self):
        return len(self.items) == 0


@prog((np.array([1, 1, -1, 1, -1, -1]),), (np.array([-1, 1]),), (np.array([1, 1]),))
def balanced_brackets(tokens):
    s = Stack()
    for t in tokens:
        if t == 1:
            s.push(t)
        else:
            if s.empty():
                return False
            s.pop()
    return s.empty()


class Particle:
    def __init__(self, x, v):
        self.x = x
        self.v = v

    def step(self, dt):
        self.v = self.v - 9.81 * dt
        self.x = self.x + self.v * dt
        if self.x < 0:
            self.x = -self.x
            self.v = -0.8 * self.v


@prog((10.0, 0.0, 0.05, 100), (0.5, 2.0, 0.1, 3))
def bouncing_ball(x0, v0, dt, steps):
    p = Particle(x0, v0)
    for _ in range(steps):
        p.step(dt)
    return p.x, p.v


class Inventory:
    def __init__(self, stock):
        self.stock = stock.copy()
        self.missed = 0

    def order(self, item, qty):
        if self.stock[item] >= qty:
            self.stock[item] -= qty
            return True
        self.missed += 1
        return False


@prog(
    (np.array([5, 3, 0]), np.array([0, 2, 1, 0]), np.array([2, 2, 1, 4])),
    (np.array([1]), np.array([0]), np.array([1])),
)
def inventory_orders(stock, items, qtys):
    inv = Inventory(stock)
    filled = 0
    for it, q in zip(items, qtys):
        if inv.order(it, q):
            filled += 1
    return filled, inv.missed, inv.stock


class Counter2:
    def __init__(self):
        self.counts = {}

    def add(self, key):
        self.counts[key] = self.counts.get(key, 0) + 1


@prog((R10,), (E0,))
def sign_counter_object(x):
    c = Counter2()
    for v in x:
        c.add("pos" if v > 0 else "neg")
    return c.counts


# ---------------------------------------------------------------- closures, nonlocal


@prog((R10,), (E0,), (NEG4,))
def closure_accumulator(x):
    total = 0.0
    count = 0

    def add(v):
        nonlocal total, count
        total += v
        count += 1

    for v in x:
        if v > 0:
            add(v)
    return total, count


@prog((np.array([0.5, 0.25, 0.125]),), (ONE,))
def make_scaler_closure(x):
    def make_scaler(k):
        def scale(v):
            return v * k

        return scale

    double = make_scaler(2.0)
    halve = make_scaler(0.5)
    return [double(v) + halve(v) for v in x]


@prog((R10, 3), (R10, 1))
def memo_fib_closure(x, n):
    cache = {}

    def fib(k):
        if k < 2:
            return k
        if k not in cache:
            cache[k] = fib(k - 1) + fib(k - 2)
        return cache[k]

    return x[: fib(n + 2)].sum()


@prog((R10,), (FLAT,))
def closure_best_tracker(x):
    best = {"value": -np.inf, "index": -1}

    def consider(i, v):
        if v > best["value"]:
            best["value"] = v
            best["index"] = i

    for i, v in enumerate(x):
        consider(i, v)
    return best


@prog((PRICES,), (E0,))
def nonlocal_max_gain(prices):
    low = None
    gain = 0.0

    def see(p):
        nonlocal low, gain
        if low is None or p < low:
            low = p
        gain = max(gain, p - low)

    for p in prices:
        see(p)
    return gain


# ---------------------------------------------------------------- dataclasses, namedtuples


@dataclasses.dataclass
class Stats:
    count: int = 0
    total: float = 0.0
    maximum: float = -np.inf


@prog((R10,), (E0,), (ONE,))
def dataclass_stats(x):
    s = Stats()
    for v in x:
        s.count += 1
        s.total += v
        if v > s.maximum:
            s.maximum = v
    return s.count, s.total, s.maximum


Point = namedtuple("Point", ["x", "y"])


@prog((CLOUD,), (SQUARE,))
def namedtuple_extremes(pts):
    points = [Point(p[0], p[1]) for p in pts]
    leftmost = min(points, key=lambda p: p.x)
    top = max(points, key=lambda p: p.y)
    return leftmost.x, top.y


@dataclasses.dataclass
class Order:
    price: float
    qty: int


@prog((np.array([10.0, 9.5, 11.0]), np.array([3, 5, 2])), (ONE, np.array([1])))
def dataclass_orders(prices, qtys):
    orders = [Order(p, q) for p, q in zip(prices, qtys)]
    value = 0.0
    for o in orders:
        value += o.price * o.qty
    cheapest = orders[0]
    for o in orders[1:]:
        if o.price < cheapest.price:
            cheapest = o
    return value, cheapest.qty


Result = namedtuple("Result", "root iterations converged")


@prog((2.0,), (9.0,), (0.0,))
def namedtuple_result(a):
    x = max(a, 1.0)
    for i in range(60):
        nx = x - (x * x - a) / (2 * x)
        if abs(nx - x) < 1e-12:
            return Result(nx, i, True)
        x = nx
    return Result(x, 60, False)


@dataclasses.dataclass
class Body:
    pos: np.ndarray
    vel: np.ndarray


@prog(
    (np.array([0.0, 10.0]), np.array([1.0, 0.0]), 20),
    (np.array([0.0, 0.1]), np.array([0.0, 0.0]), 5),
)
def dataclass_projectile(pos, vel, steps):
    b = Body(pos.copy(), vel.copy())
    for _ in range(steps):
        b.vel = b.vel + np.array([0.0, -0.5])
        b.pos = b.pos + b.vel * 0.1
        if b.pos[1] < 0:
            break
    return b.pos, b.vel


# ---------------------------------------------------------------- try/except, early returns


@prog((np.array([4.0, 0.0, 2.0]),), (np.array([1.0]),))
def safe_reciprocals(x):
    out = []
    for v in x:
        try:
            out.append(1.0 / float(v))
        except ZeroDivisionError:
            out.append(float("inf"))
    return out


@prog((R10, 3), (R10, 20), (R10, -1))
def get_or_default(x, i):
    try:
        return x[i]
    except IndexError:
        return 0.0


@prog((np.array([1.0, 2.0, 3.0]),), (np.array([1.0, -2.0]),), (E0,))
def validate_then_log(x):
    if len(x) == 0:
        raise ValueError("empty input")
    for v in x:
        if v <= 0:
            raise ValueError(f"non-positive value {v}")
    return np.log(x).sum()


@prog((np.array([3.0, 4.0]),), (np.array([0.0, 0.0]),))
def normalize_or_raise(v):
    n = np.linalg.norm(v)
    if n == 0:
        raise ZeroDivisionError("zero vector")
    return v / n


@prog((R10,), (NEG4,), (E0,))
def first_positive_index(x):
    for i, v in enumerate(x):
        if v > 0:
            return i
    return None


@prog(
    (np.array([1.0, 2.0]), "mean"), (np.array([1.0, 2.0]), "max"), (np.array([1.0, 2.0]), "median")
)
def dispatch_reduce(x, how):
    try:
        fn = {"mean": np.mean, "max": np.max, "sum": np.sum}[how]
    except KeyError:
        return None
    return fn(x)


@prog((R10,), (ONE,))
def try_finally_counter(x):
    calls = 0
    for v in x:
        try:
            if v > 1.0:
                continue
            calls += 1
        finally:
            calls += 0
    return calls


@prog((np.array([2.0, 8.0, 1.0]), 5.0), (np.array([1.0, 1.0]), 5.0), (E0, 1.0))
def knapsack_greedy_early(weights, cap):
    used = 0.0
    taken = []
    for i, w in enumerate(weights):
        if used + w > cap:
            return taken, used
        used += w
        taken.append(i)
    return taken, used


# ---------------------------------------------------------------- sentinels, enumerate/zip, dicts


@prog((R10,), (E0,), (TIES,))
def second_largest(x):
    first = second = None
    for v in x:
        if first is None or v > first:
            first, second = v, first
        elif v != first and (second is None or v > second):
            second = v
    return second


@prog((R10, R10[::-1]), (ONE, ONE), (E0, E0))
def zip_max_gap(a, b):
    best_i, best_gap = -1, 0.0
    for i, (x, y) in enumerate(zip(a, b)):
        gap = abs(x - y)
        if gap > best_gap:
            best_i, best_gap = i, gap
    return best_i, best_gap


@prog((INTS,), (np.array([7]),))
def group_by_parity(a):
    groups = {"even": [], "odd": []}
    for v in a:
        key = "even" if v % 2 == 0 else "odd"
        groups[key].append(int(v))
    return groups


@prog((R10,), (FLAT,))
def summary_dict(x):
    return {
        "n": len(x),
        "mean": float(np.mean(x)),
        "above_mean": int(np.sum(x > np.mean(x))),
        "range": (float(x.min()), float(x.max())),
    }


@prog((R10, 0.0), (NEG4, 0.0), (E0, 1.0))
def last_index_below(x, t):
    idx = -1
    for i, v in enumerate(x):
        if v < t:
            idx = i
    return idx


@prog((INTS,), (np.array([2, 2, 2]),))
def first_duplicate(a):
    seen = set()
    for i, v in enumerate(a):
        if int(v) in seen:
            return i
        seen.add(int(v))
    return -1


@prog((np.array([1.0, 2.0, 3.0]), np.array([0.5, 0.25, 0.25])), (ONE, np.array([1.0])))
def weighted_mean_zip(values, weights):
    num = 0.0
    den = 0.0
    for v, w in zip(values, weights):
        num += v * w
        den += w
    return num / den


@prog((np.array([3, 1, 3, 2, 1, 3]),), (np.array([4]),))
def mode_with_dict(a):
    counts = {}
    for v in a.tolist():
        counts[v] = counts.get(v, 0) + 1
    best = max(counts, key=counts.get)
    return best, counts[best]


# ---------------------------------------------------------------- f-strings and print


@prog((PRICES,), (FLAT,))
def report_lines(p):
    lines = []
    for day, (a, b) in enumerate(zip(p[:-1], p[1:]), start=1):
        change = (b - a) / a * 100
        lines.append(f"day {day}: {change:+.1f}%")
    return "\n".join(lines)


@prog((R10,), (NEG4,))
def print_when_positive(x):
    n = 0
    for v in x:
        if v > 0:
            print("positive:", v)
            n += 1
    print("count", n)
    return n


@prog((np.array([0.1, 0.5, 0.9]),), (E0,))
def format_table(probs):
    rows = ["p     odds"]
    for p in probs:
        rows.append(f"{p:<5.2f} {p / (1 - p):.3f}")
    return rows


@prog((R10,), (ONE,))
def print_summary_fstring(x):
    m = np.mean(x)
    s = np.std(x)
    print(f"mean={m:.4f} std={s:.4f} n={len(x)}")
    return m, s


# ---------------------------------------------------------------- everyday numerics


@prog((R10, 3), (ONE, 1), (E0, 2))
def chunk_means(x, k):
    out = []
    for start in range(0, len(x), k):
        out.append(x[start : start + k].mean())
    return out


@prog((np.array([1, 2, 3, 4, 5, 6]),), (np.array([7]),))
def collatz_lengths(a):
    lengths = []
    for n in a:
        steps = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        lengths.append(steps)
    return lengths


@prog((30,), (2,), (1,))
def sieve_primes(n):
    is_p = np.ones(n + 1, dtype=bool)
    is_p[:2] = False
    i = 2
    while i * i <= n:
        if is_p[i]:
            is_p[i * i :: i] = False
        i += 1
    return np.nonzero(is_p)[0]


@prog((np.array([48, 18, 7]), np.array([18, 12, 0])), (np.array([5]), np.array([5])))
def gcd_pairs(a, b):
    out = []
    for x, y in zip(a, b):
        while y:
            x, y = y, x % y
        out.append(x)
    return np.array(out)


@prog((np.array([1.0, 2.0, 4.0, 8.0]),), (FLAT,), (ONE,))
def geometric_check(x):
    if len(x) < 2:
        return True, None
    ratio = x[1] / x[0]
    for a, b in zip(x[1:], x[2:]):
        if not np.isclose(b / a, ratio):
            return False, None
    return True, ratio


@prog((np.array([0.2, 0.3, 0.5]), 100, 0), (np.array([1.0]), 5, 1))
def sample_categorical_manual(p, n, seed):
    rng = np.random.default_rng(seed)
    cdf = np.cumsum(p)
    counts = np.zeros(len(p), dtype=np.int64)
    for _ in range(n):
        u = rng.random()
        k = 0
        while cdf[k] < u:
            k += 1
        counts[k] += 1
    return counts / n


@prog((np.array([[1.0, 2.0], [3.0, 4.0]]),), (np.eye(3),))
def matrix_to_nested_list(A):
    rows = []
    for r in A:
        rows.append([float(v) for v in r])
    return rows, sum(sum(r) for r in rows)


@prog((R10, 2.0), (FLAT, 0.5))
def outlier_zscore(x, z):
    mu = x.mean()
    sd = x.std()
    flagged = []
    for i, v in enumerate(x):
        if sd > 0 and abs(v - mu) / sd > z:
            flagged.append(i)
    return flagged


# ---------------------------------------------------------------- more text, alignment


@prog((np.array([1, 2, 1, 2, 3, 1, 2]),), (np.array([4, 4, 4]),), (np.zeros(0, dtype=np.int64),))
def kmp_prefix_table(p):
    pi = np.zeros(len(p), dtype=np.int64)
    k = 0
    for i in range(1, len(p)):
        while k > 0 and p[i] != p[k]:
            k = pi[k - 1]
        if p[i] == p[k]:
            k += 1
        pi[i] = k
    return pi


@prog(
    (np.array([3, 1, 2]), np.array([2, 3, 1])),
    (np.array([1, 1]), np.array([1, 2])),
    (WORD_A, WORD_B),
)
def is_anagram(a, b):
    if len(a) != len(b):
        return False
    counts = np.zeros(10, dtype=np.int64)
    for x in a:
        counts[x] += 1
    for y in b:
        counts[y] -= 1
        if counts[y] < 0:
            return False
    return True


@prog(
    (WORD_A, WORD_B),
    (np.array([1, 1, 1]), np.array([2, 2])),
    (np.array([5, 6, 7]), np.array([6, 7])),
)
def smith_waterman(a, b):
    H = np.zeros((len(a) + 1, len(b) + 1))
    best = 0.0
    pos = (0, 0)
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            s = 2.0 if a[i - 1] == b[j - 1] else -1.0
            H[i, j] = max(0.0, H[i - 1, j - 1] + s, H[i - 1, j] - 1.0, H[i, j - 1] - 1.0)
            if H[i, j] > best:
                best = H[i, j]
                pos = (i, j)
    return best, pos


@prog(
    (WORD_A, WORD_B),
    (np.array([1]), np.array([1])),
    (np.array([1, 2]), np.zeros(0, dtype=np.int64)),
)
def edit_script(a, b):
    n, m = len(a), len(b)
    D = np.zeros((n + 1, m + 1), dtype=np.int64)
    D[:, 0] = np.arange(n + 1)
    D[0, :] = np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            D[i, j] = min(
                D[i - 1, j] + 1, D[i, j - 1] + 1, D[i - 1, j - 1] + (a[i - 1] != b[j - 1])
            )
    ops = []
    i, j = n, m
    while i > 0 or j > 0:
        if i > 0 and j > 0 and D[i, j] == D[i - 1, j - 1] + (a[i - 1] != b[j - 1]):
            ops.append("keep" if a[i - 1] == b[j - 1] else "sub")
            i, j = i - 1, j - 1
        elif i > 0 and D[i, j] == D[i - 1, j] + 1:
            ops.append("del")
            i -= 1
        else:
            ops.append("ins")
            j -= 1
    return ops[::-1]


@prog((CODES,), (np.array([120, 120, 121]),))
def bigram_counts(codes):
    pairs = {}
    for a, b in zip(codes[:-1], codes[1:]):
        key = (int(a), int(b))
        pairs[key] = pairs.get(key, 0) + 1
    top = sorted(pairs.items(), key=lambda kv: -kv[1])[:2]
    return top


# ---------------------------------------------------------------- queues and events


@prog(
    (np.array([0.0, 0.2, 0.3, 1.0, 1.1]), np.array([1.0, 1.0, 0.5, 0.2, 0.4]), 2),
    (ONE, ONE, 1),
    (E0, E0, 3),
)
def multi_teller_queue(arrivals, service, tellers):
    free_at = [0.0] * tellers
    waits = []
    for a, s in zip(arrivals, service):
        k = free_at.index(min(free_at))
        start = max(a, free_at[k])
        waits.append(start - a)
        free_at[k] = start + s
    return max(waits) if waits else 0.0, free_at


@prog((np.array([3.0, 1.0, 2.0]), np.array([1.0, 2.0, 0.5])), (ONE, ONE))
def event_queue_sim(arrivals, durations):
    events = [(t, "arrive", i) for i, t in enumerate(arrivals)]
    events.sort()
    busy_until = 0.0
    log = []
    while events:
        t, kind, i = events.pop(0)
        if kind == "arrive":
            start = max(t, busy_until)
            busy_until = start + durations[i]
            events.append((busy_until, "leave", i))
            events.sort()
        else:
            log.append((i, t))
    return log


@prog((np.array([5, 0, 3, 8, 1]), 4), (np.array([1]), 2), (np.zeros(0, dtype=np.int64), 1))
def bounded_buffer(produced, capacity):
    buf = []
    lost = 0
    served = 0
    for p in produced:
        for _ in range(p):
            if len(buf) < capacity:
                buf.append(1)
            else:
                lost += 1
        if buf:
            buf.pop(0)
            served += 1
    return served, lost, len(buf)


# ---------------------------------------------------------------- integration and interpolation


@prog((4,), (1,), (8,))
def romberg_sin(levels):
    R = np.zeros((levels, levels))
    a, b = 0.0, np.pi
    h = b - a
    R[0, 0] = h / 2 * (np.sin(a) + np.sin(b))
    for i in range(1, levels):
        h /= 2
        s = sum(np.sin(a + (2 * k - 1) * h) for k in range(1, 2 ** (i - 1) + 1))
        R[i, 0] = R[i - 1, 0] / 2 + h * s
        for j in range(1, i + 1):
            R[i, j] = R[i, j - 1] + (R[i, j - 1] - R[i - 1, j - 1]) / (4**j - 1)
    return R[levels - 1, levels - 1]


@prog((6,), (1,))
def midpoint_2d(n):
    h = 1.0 / n
    total = 0.0
    for i in range(n):
        for j in range(n):
            x = (i + 0.5) * h
            y = (j + 0.5) * h
            total += x * y * np.exp(-x * y)
    return total * h * h


@prog(
    (
        np.array([1.0, 1.0, 1.0]),
        np.array([4.0, 4.0, 4.0, 4.0]),
        np.array([1.0, 1.0, 1.0]),
        np.array([5.0, 6.0, 6.0, 5.0]),
    ),
)
def thomas_tridiagonal(a, b, c, d):
    n = len(d)
    cp = np.zeros(n - 1)
    dp = np.zeros(n)
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        denom = b[i] - a[i - 1] * cp[i - 1]
        if i < n - 1:
            cp[i] = c[i] / denom
        dp[i] = (d[i] - a[i - 1] * dp[i - 1]) / denom
    x = np.zeros(n)
    x[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x


@prog(
    (np.array([0.0, 1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.0, 1.0]), np.array([0.5, 2.5, 3.0])),
)
def nearest_neighbour_interp(xs, ys, queries):
    out = []
    for q in queries:
        best = 0
        for i in range(1, len(xs)):
            if abs(xs[i] - q) < abs(xs[best] - q):
                best = i
        out.append(ys[best])
    return out


@prog((1.0, 0.0), (0.5, 3.0), (4.0, 10.0))
def newton_bisect_hybrid(lo_guess, x0):
    lo, hi = 0.0, 4.0
    x = x0
    for _ in range(100):
        fx = x * x - 2.0
        if abs(fx) < 1e-12:
            break
        if fx > 0:
            hi = min(hi, x)
        else:
            lo = max(lo, x)
        step = x - fx / (2 * x) if x != 0 else (lo + hi) / 2
        x = step if lo < step < hi else (lo + hi) / 2
    return x


# ---------------------------------------------------------------- sorts, searches, matrices


@prog((R10,), (ONE,), (E0,))
def shell_sort(x):
    a = list(x)
    gap = len(a) // 2
    while gap > 0:
        for i in range(gap, len(a)):
            tmp = a[i]
            j = i
            while j >= gap and a[j - gap] > tmp:
                a[j] = a[j - gap]
                j -= gap
            a[j] = tmp
        gap //= 2
    return a


@prog((np.arange(0.0, 40.0, 2.0), 22.0), (np.arange(0.0, 4.0), 7.0), (ONE, 2.5))
def exponential_search(a, target):
    if len(a) == 0:
        return -1
    bound = 1
    while bound < len(a) and a[bound] < target:
        bound *= 2
    lo, hi = bound // 2, min(bound, len(a) - 1)
    while lo <= hi:
        mid = (lo + hi) // 2
        if a[mid] == target:
            return mid
        if a[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


@prog((SQ,), (SPD,), (np.array([[1.0, 2.0], [2.0, 4.0]]),))
def gauss_jordan_inverse(A):
    n = A.shape[0]
    M = np.hstack([A.astype(float), np.eye(n)])
    for c in range(n):
        p = c + int(np.argmax(np.abs(M[c:, c])))
        if abs(M[p, c]) < 1e-12:
            return None
        M[[c, p]] = M[[p, c]]
        M[c] = M[c] / M[c, c]
        for r in range(n):
            if r != c:
                M[r] -= M[r, c] * M[c]
    return M[:, n:]


@prog((SPD, 5.0), (np.diag([1.0, 3.0]), 2.5))
def inverse_iteration_shift(A, mu):
    n = A.shape[0]
    v = np.ones(n)
    B = A - mu * np.eye(n)
    lam = mu
    for _ in range(50):
        w = np.linalg.solve(B, v)
        v = w / np.linalg.norm(w)
        new = v @ A @ v
        if abs(new - lam) < 1e-12:
            break
        lam = new
    return lam


@prog((M44,), (np.eye(2),))
def frobenius_and_trace(A):
    fro = 0.0
    tr = 0.0
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            fro += A[i, j] ** 2
            if i == j:
                tr += A[i, j]
    return math.sqrt(fro), tr


# ---------------------------------------------------------------- Markov, images, RL, optimizers


@prog((0.5, 5, 3, 30), (0.3, 4, 1, 10))
def gamblers_ruin(p, target, seed, trials):
    rng = np.random.default_rng(seed)
    wins = 0
    steps_total = 0
    for _ in range(trials):
        money = target // 2
        while 0 < money < target:
            money += 1 if rng.random() < p else -1
            steps_total += 1
        if money == target:
            wins += 1
    return wins / trials, steps_total / trials


@prog((np.array([[1, 1, 2], [1, 2, 2], [3, 1, 1]]), 0, 0, 9), (np.array([[5]]), 0, 0, 5))
def flood_fill_recolor(img, r, c, new):
    img = img.copy()
    old = img[r, c]
    if old == new:
        return img, 0
    changed = 0
    stack = [(r, c)]
    while stack:
        y, x = stack.pop()
        if y < 0 or x < 0 or y >= img.shape[0] or x >= img.shape[1]:
            continue
        if img[y, x] != old:
            continue
        img[y, x] = new
        changed += 1
        stack.extend([(y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)])
    return img, changed


@prog((np.array([0.3, 0.7]), 30, 5), (np.array([0.5, 0.5, 0.5]), 20, 6))
def thompson_sampling(probs, steps, seed):
    rng = np.random.default_rng(seed)
    a = np.ones(len(probs))
    b = np.ones(len(probs))
    pulls = np.zeros(len(probs), dtype=np.int64)
    for _ in range(steps):
        k = int(np.argmax(rng.beta(a, b)))
        pulls[k] += 1
        if rng.random() < probs[k]:
            a[k] += 1
        else:
            b[k] += 1
    return pulls


@prog((5, 20, 2), (3, 5, 0))
def td0_random_walk(n, episodes, seed):
    rng = np.random.default_rng(seed)
    V = np.full(n, 0.5)
    for _ in range(episodes):
        s = n // 2
        while True:
            s2 = s + (1 if rng.random() < 0.5 else -1)
            if s2 < 0:
                V[s] += 0.1 * (0.0 - V[s])
                break
            if s2 >= n:
                V[s] += 0.1 * (1.0 - V[s])
                break
            V[s] += 0.1 * (V[s2] - V[s])
            s = s2
    return V


@prog((np.array([3.0, -1.0]), 40), (np.array([0.0, 0.0]), 5))
def rmsprop_quadratic(x, steps):
    sq = np.zeros_like(x)
    for _ in range(steps):
        g = np.array([2 * x[0] + x[1], x[0] + 4 * x[1]])
        sq = 0.9 * sq + 0.1 * g * g
        x = x - 0.01 * g / (np.sqrt(sq) + 1e-8)
    return x


@prog((np.array([2.0, 2.0]),), (np.array([0.0, 0.0]),))
def coordinate_descent(x):
    def f(x):
        return (x[0] - 1) ** 2 + (x[1] + 2) ** 2 + x[0] * x[1]

    x = x.copy()
    for sweep in range(20):
        old = f(x)
        for i in range(2):
            best_v, best_f = x[i], f(x)
            for step in (-0.5, -0.1, 0.1, 0.5):
                trial = x.copy()
                trial[i] += step
                if f(trial) < best_f:
                    best_v, best_f = trial[i], f(trial)
            x[i] = best_v
        if old - f(x) < 1e-9:
            break
    return x, sweep


# ---------------------------------------------------------------- games, time series, geometry


@prog((5, 12), (3, 0))
def langtons_ant(n, steps):
    grid = np.zeros((n, n), dtype=np.int64)
    r = c = n // 2
    d = 0
    moves = [(-1, 0), (0, 1), (1, 0), (0, -1)]
    for _ in range(steps):
        if grid[r, c] == 0:
            d = (d + 1) % 4
            grid[r, c] = 1
        else:
            d = (d - 1) % 4
            grid[r, c] = 0
        dr, dc = moves[d]
        r = (r + dr) % n
        c = (c + dc) % n
    return grid.sum(), (r, c)


@prog((np.array([0, 1, 2, 2, 1, 0]), np.array([1, 1, 0, 2, 2, 0])), (np.array([0]), np.array([0])))
def rock_paper_scissors(p1, p2):
    names = ["rock", "paper", "scissors"]
    score = {"p1": 0, "p2": 0, "tie": 0}
    last = None
    for a, b in zip(p1, p2):
        if a == b:
            score["tie"] += 1
            last = "tie"
        elif (a - b) % 3 == 1:
            score["p1"] += 1
            last = names[a]
        else:
            score["p2"] += 1
            last = names[b]
    return score, last


@prog((PRICES, 3), (FLAT, 2))
def rsi_indicator(p, n):
    gains = []
    losses = []
    for a, b in zip(p[:-1], p[1:]):
        change = b - a
        gains.append(max(change, 0.0))
        losses.append(max(-change, 0.0))
    out = []
    for t in range(n, len(gains) + 1):
        g = np.mean(gains[t - n : t])
        l = np.mean(losses[t - n : t])
        out.append(100.0 if l == 0 else 100 - 100 / (1 + g / l))
    return out


@prog((PRICES, 4, 1.0), (FLAT, 2, 2.0))
def bollinger_breaks(p, n, k):
    breaks = []
    for t in range(n, len(p)):
        window = p[t - n : t]
        mu, sd = window.mean(), window.std()
        if p[t] > mu + k * sd:
            breaks.append((t, 1))
        elif p[t] < mu - k * sd:
            breaks.append((t, -1))
    return breaks


@prog((PRICES,), (NEG4,), (ONE,))
def underwater_duration(p):
    peak = -np.inf
    longest = cur = 0
    for v in p:
        if v >= peak:
            peak = v
            cur = 0
        else:
            cur += 1
            longest = max(longest, cur)
    return longest


@prog((SQUARE,), (np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 0.5], [2.0, 2.0], [0.0, 2.0]]),))
def polygon_is_convex(poly):
    n = len(poly)
    sign = 0
    for i in range(n):
        a, b, c = poly[i], poly[(i + 1) % n], poly[(i + 2) % n]
        cr = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        if cr != 0:
            s = 1 if cr > 0 else -1
            if sign == 0:
                sign = s
            elif s != sign:
                return False
    return True


@prog(
    (np.array([[0, 1, 4.0], [0, 2, 1.0], [1, 2, 2.0], [1, 3, 5.0], [2, 3, 8.0]]), 4),
    (np.zeros((0, 3)), 2),
)
def kruskal_weight(edges, n):
    order = np.argsort(edges[:, 2]) if len(edges) else []
    parent = list(range(n))

    def root(v):
        while parent[v] != v:
            v = parent[v]
        return v

    total = 0.0
    used = 0
    for k in order:
        u, v, w = int(edges[k, 0]), int(edges[k, 1]), edges[k, 2]
        ru, rv = root(u), root(v)
        if ru != rv:
            parent[ru] = rv
            total += w
            used += 1
    return total, used == n - 1


@prog(
    (np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]]),), (np.array([[0, 1, 0], [0, 0, 1], [0, 0, 0]]),)
)
def has_directed_cycle(adj):
    n = adj.shape[0]
    state = [0] * n
    for s in range(n):
        if state[s]:
            continue
        stack = [(s, 0)]
        state[s] = 1
        while stack:
            u, nxt = stack[-1]
            if nxt == n:
                state[u] = 2
                stack.pop()
                continue
            stack[-1] = (u, nxt + 1)
            if adj[u, nxt]:
                if state[nxt] == 1:
                    return True
                if state[nxt] == 0:
                    state[nxt] = 1
                    stack.append((nxt, 0))
    return False


# ---------------------------------------------------------------- everyday constructs


@prog((np.array([1.0, 4.0, 0.0, 9.0]),), (ONE,))
def try_else_sqrt(x):
    results = {}
    for i, v in enumerate(x):
        try:
            r = 1.0 / math.sqrt(v)
        except ZeroDivisionError:
            results[i] = None
        else:
            results[i] = round(r, 4)
    return results


@prog((R5,), (E0,))
def print_sep_end(x):
    for i, v in enumerate(x):
        print(i, round(float(v), 2), sep=":", end=" ")
    print()
    return len(x)


@prog((np.array([3, 1, 2]),), (np.array([5]),))
def dict_sorted_by_value(a):
    scores = {f"item{i}": int(v) for i, v in enumerate(a)}
    ranking = sorted(scores, key=lambda k: scores[k], reverse=True)
    for rank, name in enumerate(ranking, 1):
        print(f"{rank}. {name} ({scores[name]})")
    return ranking[0]


@prog((R10, 0.5), (NEG4, 0.0))
def while_else_search(x, t):
    i = 0
    while i < len(x):
        if x[i] > t:
            break
        i += 1
    else:
        return "none above"
    return i


@prog((np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),), (np.zeros((1, 2)),))
def rows_to_records(m):
    records = []
    for i, (a, b) in enumerate(m):
        records.append({"id": i, "sum": a + b, "ratio": a / b if b else None})
    return records


@prog((np.array([2.0, 3.0, 5.0]),), (np.array([-1.0]),))
def assert_then_compute(x):
    assert np.all(x > 0), "values must be positive"
    return np.prod(x) ** (1 / len(x))


# How each program that is not ok was classified (tools/fresh_batch4_findings.md): b = a
# documented limit, c = an error on code the docs say runs (or a limit they do not list, or a
# documented limit whose message is poor), d = a wrong result (or a run-time error where eager
# returns), e = a crash (an exception that is not an AutoconvError); the key names the class
# in the findings. JAX_FINDINGS overrides on JAX.
FINDINGS = {
    "balanced_brackets": ("c", "C9-method-pop"),
    "bigram_counts": ("b", "L-dict-key"),
    "closure_best_tracker": ("c", "E2-closure-dict-item"),
    "convex_hull_monotone": ("b", "L-unknown-np"),
    "count_islands": ("c", "C1-worklist"),
    "degree_report": ("d", "W2-dict-tensor-key-silent"),
    "dict_sorted_by_value": ("b", "L-sorted"),
    "edit_script": ("b", "L-append-kind"),
    "epsilon_greedy_bandit": ("c", "C2-local-array-index"),
    "event_queue_sim": ("b", "L-sorted"),
    "first_duplicate": ("b", "L-dict-key"),
    "flood_fill_recolor": ("c", "C10-extend"),
    "format_table": ("c", "C13-fstring"),
    "gauss_jordan_inverse": ("c", "C11-false-view"),
    "geometric_check": ("c", "C3-early-return"),
    "group_by_parity": ("c", "M1-ifexp-name"),
    "has_directed_cycle": ("c", "C1-worklist"),
    "heap_sort_manual": ("b", "L-shared-array"),
    "insertion_sort_list": ("d", "W1-append-then-write"),
    "inventory_orders": ("b", "L-attr-array-index"),
    "knapsack_greedy_early": ("c", "C3-early-return"),
    "kruskal_weight": ("b", "L-tensor-index"),
    "label_regions": ("c", "C1-worklist"),
    "levenshtein": ("e", "E1-fold-cond"),
    "matrix_rank_elim": ("c", "M3-index-list-optional"),
    "matrix_to_nested_list": ("b", "L-append-kind"),
    "maze_shortest_path": ("c", "C1-worklist"),
    "merge_sort": ("b", "L-tensor-index"),
    "mode_with_dict": ("b", "L-dict-key"),
    "namedtuple_extremes": ("c", "C8-min-key"),
    "path_reconstruct": ("d", "W3-dict-in-after-branch"),
    "points_within_radius": ("c", "C8-comp-filter"),
    "policy_evaluation": ("b", "L-tensor-index"),
    "q_learning_corridor": ("c", "C2-local-array-index"),
    "quickselect": ("b", "L-structure"),
    "report_lines": ("c", "C13-fstring"),
    "rolling_max_deque": ("c", "C4-list-length-branch"),
    "round_robin": ("c", "C14-worklist-item-read"),
    "rows_to_records": ("b", "L-append-kind"),
    "rsi_indicator": ("b", "L-np-on-grown-list"),
    "run_length_encode": ("c", "C4-list-length-branch"),
    "second_largest": ("c", "C7-optional-elif"),
    "sign_counter_object": ("c", "M1-ifexp-name"),
    "single_server_queue": ("b", "L-np-on-grown-list"),
    "to_upper": ("c", "C5-chained-compare"),
    "tokenize_spans": ("b", "L-append-kind"),
    "triangle_kind": ("b", "L-sorted"),
    "try_else_sqrt": ("b", "L-dict-key"),  # the `try` runs (staged); `results[i]`, i a Tensor
    "vowel_ratio": ("c", "M4-in-list-variable"),
    "war_card_game": ("c", "C6-while-and-lists"),
    "weighted_completion": ("b", "L-sorted"),
}
JAX_FINDINGS = {
    "bollinger_breaks": ("b", "L-jax-tuple-list"),
    "bounded_buffer": ("b", "L-jax-list"),
    "closure_best_tracker": ("e", "E2-closure-dict-item"),
    "coordinate_descent": ("b", "L-jax-rounding"),
    "counting_sort": ("b", "L-jax-size"),
    "prim_total": ("b", "L-jax-list"),
    "sma_cross_signals": ("b", "L-jax-tuple-list"),
    "solve_partial_pivot": ("c", "C12-jax-index-list"),
    "strip_spaces": ("b", "L-jax-size"),
}


def detail(programs, modes=("numpy", "noopt", "jax")) -> list:
    """fresh_batch3's rows, one per outcome that is not the eager one."""
    return fresh_batch3.detail(programs, modes)


def table(rows, n) -> None:
    """Prints, per mode, how many programs are ok and how many fall in each class of FINDINGS;
    a program that fails but is not in FINDINGS is new, and is listed."""
    failing: dict = {}
    for name, mode, *_ in rows:
        failing.setdefault(mode, set()).add(name)
    for mode in ("numpy", "noopt", "jax"):
        counts = {"ok": n - len(failing.get(mode, ()))}
        for name in sorted(failing.get(mode, ())):
            found = (JAX_FINDINGS.get(name) if mode == "jax" else None) or FINDINGS.get(name)
            label = found[0] if found else "new"
            counts[label] = counts.get(label, 0) + 1
            if not found:
                print(f"new failure: {name} ({mode})")
        print(mode, counts)


if __name__ == "__main__":
    names = [a for a in sys.argv[1:] if not a.startswith("-")]
    if "--table" in sys.argv:
        with contextlib.redirect_stdout(io.StringIO()):  # the programs' own prints
            rows = detail(P)
        table(rows, len(P))
    elif names or "--detail" in sys.argv:
        chosen = [p for p in P if not names or p[0].__name__ in names]
        for row in detail(chosen):
            name, mode, k, label, exc, message, where = row
            print(f"{name} {mode} input {k}: {label} {exc}: {message}\n    raised at {where}")
    else:
        fresh_batch.main(P)
