"""A fifth batch of programs nobody on the team wrote beforehand (issue 24, 2026-11-29):
programs as a new user writes them, leaning on what the first four batches had few of: data
cleaning (NaN handling, clipping, outliers), statistics by hand (medians, percentiles, seeded
bootstraps), finance (amortization, IRR by bisection, rebalancing), physics steps and
collisions, signal processing (windows, peaks, zero crossings, FIR filters), ML loops
(logistic regression, k-NN, perceptron, mini-batches, early stopping), board and grid games,
run lengths and matching on int arrays, memoized recursion, generators, `with` blocks,
`assert`, `global` counters, class hierarchies, `@staticmethod`/`@property`, namedtuples,
`**kwargs`, defaults, lambdas in `sorted`/`max`, closures, `isinstance` checks, `np.where` and
`np.select` beside Python branches, int32 overflow, boolean masks, dtype promotion, 0-d arrays
and empty inputs. Each runs on two to four inputs that take different paths, eagerly and as a
graph (NumPy backend, every optimizing pass off, JAX backend), judged as `fresh_batch.py`
judges.

    python tools/fresh_batch5.py             # one line per program that differs, then counts
    python tools/fresh_batch5.py --detail    # the full message of each outcome that is not ok
    python tools/fresh_batch5.py NAME ...    # only these programs, in detail
    python tools/fresh_batch5.py --table     # counts by class (FINDINGS), new failures named

The outcomes found are in tools/fresh_batch5_findings.md.
"""

# ruff: noqa: B007, E741  (programs written as users write them: unused loop names, `l`)
import contextlib
import functools
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


rng = np.random.default_rng(5)
R6 = rng.normal(size=6)
R12 = rng.normal(size=12)
E0 = np.zeros(0)
ONE = np.array([4.0])
NANS = np.array([1.0, np.nan, 3.0, np.nan, 5.0, 100.0])
ALLNAN = np.array([np.nan, np.nan])
OUTL = np.array([1.0, 1.2, 0.9, 1.1, 9.0, 1.0, -7.0])
SIG = np.sin(np.linspace(0, 4 * np.pi, 24)) + 0.1 * rng.normal(size=24)
FLAT = np.full(5, 2.0)
INT32 = np.array([2_000_000_000, 1_000_000_000, 5], dtype=np.int32)
SMALL32 = np.array([1, 2, 3], dtype=np.int32)
F32 = np.array([0.5, 1.5, -2.25], dtype=np.float32)
INTS = np.array([3, 1, 4, 1, 5, 9, 2, 6])
RUNS = np.array([1, 1, 2, 2, 2, 3, 1, 1])
PAL = np.array([1, 2, 3, 2, 1])
XS2 = rng.normal(size=(10, 2))
YS2 = (XS2[:, 0] + XS2[:, 1] > 0).astype(np.float64)
BOARD_X = np.array([[1, 1, 1], [2, 2, 0], [0, 0, 2]])
BOARD_O = np.array([[1, 2, 1], [1, 2, 0], [0, 2, 1]])
BOARD_D = np.array([[1, 2, 1], [1, 2, 2], [2, 1, 1]])
GRID = np.array([[0, 1, 0, 0], [0, 1, 1, 0], [0, 0, 0, 1], [1, 1, 0, 1]])
CASH = np.array([-100.0, 30.0, 40.0, 50.0])
CASH_BAD = np.array([-100.0, 10.0, 10.0])
W3 = np.array([0.5, 0.3, 0.2])
PR3 = np.array([[1.0, 1.0, 1.0], [1.2, 0.9, 1.1], [1.1, 1.0, 1.3], [1.4, 0.8, 1.2]])
ZERO_D = np.array(3.5)
ZERO_DI = np.array(7)


# ---------------------------------------------------------------- data cleaning


@prog((NANS,), (ALLNAN,), (E0,))
def fill_nan_with_mean(x):
    good = x[~np.isnan(x)]
    if len(good) == 0:
        return np.zeros_like(x)
    m = good.mean()
    out = x.copy()
    for i in range(len(out)):
        if np.isnan(out[i]):
            out[i] = m
    return out


@prog((NANS,), (R6,))
def forward_fill(x):
    out = x.copy()
    last = np.nan
    for i in range(len(out)):
        if np.isnan(out[i]):
            out[i] = last
        else:
            last = out[i]
    return out


@prog((OUTL, 2.0), (FLAT, 2.0), (R12, 1.0))
def drop_outliers_zscore(x, k):
    mu = x.mean()
    sd = x.std()
    if sd == 0:
        return x
    keep = []
    for v in x:
        if abs(v - mu) <= k * sd:
            keep.append(v)
    return np.array(keep)


@prog((OUTL, -1.0, 2.0), (R6, 0.0, 0.5))
def clip_and_count(x, lo, hi):
    n_low = 0
    n_high = 0
    out = np.empty_like(x)
    for i, v in enumerate(x):
        if v < lo:
            out[i] = lo
            n_low += 1
        elif v > hi:
            out[i] = hi
            n_high += 1
        else:
            out[i] = v
    return out, n_low, n_high


@prog((OUTL,), (FLAT,), (ONE,))
def winsorize_iqr(x):
    q1, q3 = np.percentile(x, [25, 75])
    iqr = q3 - q1
    lo = q1 - 1.5 * iqr
    hi = q3 + 1.5 * iqr
    return np.where(x < lo, lo, np.where(x > hi, hi, x))


@prog((NANS,), (ALLNAN,), (R6,))
def nan_report(x):
    n = int(np.isnan(x).sum())
    if n == 0:
        return "clean"
    if n == len(x):
        return "all missing"
    return f"{n} missing of {len(x)}"


@prog((np.array([1.0, 2.0, 2.0, 3.0, 3.0, 3.0]),), (E0,), (ONE,))
def dedupe_sorted(x):
    out = []
    for v in x:
        if not out or out[-1] != v:
            out.append(float(v))
    return out


@prog((NANS,), (R6,))
def interpolate_gaps(x):
    y = x.copy()
    n = len(y)
    for i in range(n):
        if np.isnan(y[i]):
            j = i + 1
            while j < n and np.isnan(y[j]):
                j += 1
            left = y[i - 1] if i > 0 else np.nan
            right = y[j] if j < n else np.nan
            if np.isnan(left):
                y[i] = right
            elif np.isnan(right):
                y[i] = left
            else:
                y[i] = left + (right - left) / (j - i + 1)
    return y


@prog((np.array([[1.0, np.nan], [3.0, 4.0], [np.nan, np.nan]]),), (np.ones((2, 2)),))
def drop_rows_with_nan(m):
    rows = []
    for row in m:
        if not np.any(np.isnan(row)):
            rows.append(row)
    if not rows:
        return np.zeros((0, m.shape[1]))
    return np.stack(rows)


@prog((OUTL,), (R12,))
def robust_scale(x):
    med = np.median(x)
    mad = np.median(np.abs(x - med))
    if mad == 0:
        mad = 1.0
    return (x - med) / (1.4826 * mad)


@prog((np.array([5.0, -1.0, 3.0, 0.0]),), (E0,))
def replace_negatives(x):
    cleaned = [v if v >= 0 else 0.0 for v in x]
    return sum(cleaned), len(cleaned)


@prog((np.array([0.1, 0.5, 0.55, 0.9, 0.95]), 0.1), (ONE, 1.0))
def bin_counts(x, width):
    counts = {}
    for v in x:
        b = int(v // width)
        counts[b] = counts.get(b, 0) + 1
    return counts


# ---------------------------------------------------------------- statistics by hand


@prog((R6,), (np.array([3.0, 1.0, 2.0]),), (E0,))
def median_by_hand(x):
    n = len(x)
    if n == 0:
        return None
    s = np.sort(x)
    if n % 2 == 1:
        return s[n // 2]
    return (s[n // 2 - 1] + s[n // 2]) / 2


@prog((R12, 90.0), (R6, 50.0), (ONE, 10.0))
def percentile_linear(x, q):
    s = np.sort(x)
    pos = (len(s) - 1) * q / 100.0
    lo = int(math.floor(pos))
    hi = int(math.ceil(pos))
    if lo == hi:
        return s[lo]
    frac = pos - lo
    return s[lo] * (1 - frac) + s[hi] * frac


@prog((R12, 200), (np.array([1.0, 2.0, 3.0]), 50))
def bootstrap_mean_ci(x, n_boot):
    g = np.random.default_rng(0)
    means = np.empty(n_boot)
    for b in range(n_boot):
        idx = g.integers(0, len(x), len(x))
        means[b] = x[idx].mean()
    return np.percentile(means, 2.5), np.percentile(means, 97.5)


@prog((R12,), (FLAT,))
def welford_variance(x):
    n = 0
    mean = 0.0
    m2 = 0.0
    for v in x:
        n += 1
        delta = v - mean
        mean += delta / n
        m2 += delta * (v - mean)
    if n < 2:
        return mean, 0.0
    return mean, m2 / (n - 1)


@prog((INTS,), (np.array([7, 7, 7]),), (np.array([1, 2]),))
def mode_by_counts(a):
    vals, counts = np.unique(a, return_counts=True)
    best = 0
    for i in range(1, len(vals)):
        if counts[i] > counts[best]:
            best = i
    return vals[best], counts[best]


@prog((R12, R12 * 2 + 1), (R6, -R6), (FLAT, R6[:5]))
def pearson_r(x, y):
    mx, my = x.mean(), y.mean()
    num = 0.0
    dx = 0.0
    dy = 0.0
    for a, b in zip(x, y):
        num += (a - mx) * (b - my)
        dx += (a - mx) ** 2
        dy += (b - my) ** 2
    if dx == 0 or dy == 0:
        return float("nan")
    return num / math.sqrt(dx * dy)


@prog((R12, 3), (R6, 10))
def histogram_manual(x, bins):
    lo, hi = x.min(), x.max()
    counts = np.zeros(bins, dtype=np.int64)
    width = (hi - lo) / bins
    for v in x:
        k = int((v - lo) / width)
        if k == bins:
            k -= 1
        counts[k] += 1
    return counts


@prog((INTS,), (np.array([2, 2]),))
def rank_with_ties(a):
    order = sorted(range(len(a)), key=lambda i: a[i])
    ranks = [0.0] * len(a)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and a[order[j + 1]] == a[order[i]]:
            j += 1
        avg = (i + j) / 2 + 1
        for k in range(i, j + 1):
            ranks[order[k]] = avg
        i = j + 1
    return ranks


@prog((R12, 5, 0), (R6, 3, 1))
def permutation_test(x, n_perm, seed):
    g = np.random.default_rng(seed)
    half = len(x) // 2
    observed = x[:half].mean() - x[half:].mean()
    count = 0
    for _ in range(n_perm):
        p = g.permutation(x)
        d = p[:half].mean() - p[half:].mean()
        if abs(d) >= abs(observed):
            count += 1
    return count / n_perm


@prog((R12,), (np.array([1.0, 1.0, 1.0, 1.0]),))
def skew_kurt(x):
    m = x.mean()
    s = x.std()
    if s == 0:
        return 0.0, 0.0
    z = (x - m) / s
    return float(np.mean(z**3)), float(np.mean(z**4) - 3)


@prog((R12, 4), (R6, 1))
def moving_median(x, w):
    out = []
    for i in range(len(x) - w + 1):
        out.append(np.median(x[i : i + w]))
    return np.array(out)


@prog((np.array([2.0, 4.0, 8.0]),), (np.array([1.0, -1.0]),))
def geometric_mean_checked(x):
    if np.any(x <= 0):
        raise ValueError("geometric mean needs positive values")
    return math.exp(np.log(x).mean())


# ---------------------------------------------------------------- finance


@prog((200000.0, 0.05, 30), (1000.0, 0.0, 2))
def monthly_payment(principal, annual_rate, years):
    n = years * 12
    r = annual_rate / 12
    if r == 0:
        return principal / n
    return principal * r / (1 - (1 + r) ** -n)


@prog((1000.0, 0.12, 6), (500.0, 0.0, 3))
def amortization_schedule(principal, annual_rate, months):
    r = annual_rate / 12
    if r == 0:
        pay = principal / months
    else:
        pay = principal * r / (1 - (1 + r) ** -months)
    balance = principal
    rows = np.zeros((months, 3))
    for m in range(months):
        interest = balance * r
        princ = pay - interest
        balance -= princ
        rows[m] = [interest, princ, max(balance, 0.0)]
    return rows


@prog((CASH,), (CASH_BAD,))
def irr_bisection(cash):
    def npv(rate):
        total = 0.0
        for t, c in enumerate(cash):
            total += c / (1 + rate) ** t
        return total

    lo, hi = -0.99, 1.0
    if npv(lo) * npv(hi) > 0:
        return None
    for _ in range(60):
        mid = (lo + hi) / 2
        if npv(lo) * npv(mid) <= 0:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


@prog((PR3, W3, 0.05), (PR3, W3, 1.0))
def rebalance_portfolio(prices, target, band):
    units = target / prices[0]
    trades = 0
    for t in range(1, len(prices)):
        value = units * prices[t]
        w = value / value.sum()
        if np.max(np.abs(w - target)) > band:
            units = target * value.sum() / prices[t]
            trades += 1
    return trades, float((units * prices[-1]).sum())


@prog((np.array([100.0, 110.0, 99.0, 120.0, 90.0]),), (np.array([5.0]),))
def max_drawdown(prices):
    peak = prices[0]
    worst = 0.0
    for p in prices:
        if p > peak:
            peak = p
        dd = (peak - p) / peak
        if dd > worst:
            worst = dd
    return worst


@prog((1000.0, 0.05, 10, 100.0), (0.0, 0.1, 0, 50.0))
def savings_growth(start, rate, years, deposit):
    balance = start
    history = [balance]
    for y in range(years):
        balance = balance * (1 + rate) + deposit
        history.append(round(balance, 2))
    return history


@prog((np.array([0.01, -0.02, 0.03, 0.0, -0.01]),), (np.array([0.05, 0.05]),))
def sharpe_ratio(returns):
    excess = returns - 0.0001
    sd = excess.std(ddof=1)
    if sd == 0:
        return float("inf")
    return excess.mean() / sd * math.sqrt(252)


@prog((np.array([10.0, 11.0, 12.0, 11.5, 13.0, 12.0, 14.0]), 3), (np.array([1.0, 2.0]), 3))
def sma_crossover_trades(prices, w):
    position = 0
    cash = 100.0
    shares = 0.0
    for t in range(w, len(prices)):
        sma = prices[t - w : t].mean()
        if prices[t] > sma and position == 0:
            shares = cash / prices[t]
            cash = 0.0
            position = 1
        elif prices[t] < sma and position == 1:
            cash = shares * prices[t]
            shares = 0.0
            position = 0
    return cash + shares * prices[-1]


@prog((np.array([0.05, 0.1, 0.2]), 1000.0), (np.array([0.3]), 50.0))
def tax_brackets(rates, income):
    limits = [100.0, 500.0, float("inf")]
    tax = 0.0
    prev = 0.0
    for rate, lim in zip(rates, limits):
        if income <= prev:
            break
        taxable = min(income, lim) - prev
        tax += taxable * rate
        prev = lim
    return tax


@prog((CASH, 0.1), (np.array([5.0]), 0.0))
def npv_and_payback(cash, rate):
    total = 0.0
    cum = 0.0
    payback = -1
    for t in range(len(cash)):
        total += cash[t] / (1 + rate) ** t
        cum += cash[t]
        if payback < 0 and cum >= 0:
            payback = t
    return total, payback


@prog((np.array([100.0, 102.0, 101.0, 105.0]),), (np.array([100.0]),))
def log_returns_stats(prices):
    r = np.diff(np.log(prices))
    if r.size == 0:
        return {"mean": 0.0, "vol": 0.0}
    return {"mean": float(r.mean()), "vol": float(r.std())}


# ---------------------------------------------------------------- physics


@prog((20.0, 45.0, 0.01), (5.0, 80.0, 0.05))
def projectile_range(v0, angle_deg, dt):
    th = math.radians(angle_deg)
    x, y = 0.0, 0.0
    vx, vy = v0 * math.cos(th), v0 * math.sin(th)
    t = 0.0
    while True:
        x += vx * dt
        vy -= 9.81 * dt
        y += vy * dt
        t += dt
        if y < 0:
            break
    return round(x, 6), round(t, 6)


@prog((1.0, 0.0, 4.0, 0.01, 300), (0.0, 1.0, 1.0, 0.1, 10))
def spring_mass(x0, v0, k, dt, steps):
    x, v = x0, v0
    energy = []
    for _ in range(steps):
        a = -k * x
        v += a * dt
        x += v * dt
        energy.append(0.5 * v * v + 0.5 * k * x * x)
    return x, v, max(energy) - min(energy)


@prog(
    (np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]), np.array([1.0, 0.5, 0.5]), 5),
)
def nbody_steps(pos, mass, steps):
    vel = np.zeros_like(pos)
    dt = 0.01
    for _ in range(steps):
        acc = np.zeros_like(pos)
        for i in range(len(pos)):
            for j in range(len(pos)):
                if i == j:
                    continue
                d = pos[j] - pos[i]
                r = np.sqrt(d @ d) + 1e-3
                acc[i] += mass[j] * d / r**3
        vel += acc * dt
        pos = pos + vel * dt
    return pos


@prog((10.0, 0.0, 0.7, 50), (1.0, 2.0, 0.0, 20))
def bouncing_ball(h, v, restitution, max_bounces):
    dt = 0.01
    bounces = 0
    t = 0.0
    while bounces < max_bounces:
        v -= 9.81 * dt
        h += v * dt
        t += dt
        if h <= 0:
            h = 0.0
            v = -v * restitution
            bounces += 1
            if abs(v) < 0.5:
                break
    return bounces, round(t, 4)


@prog(
    (np.array([0.0, 5.0]), np.array([1.0, -1.0]), 1.0, 1.0),
    (np.array([0.0, 5.0]), np.array([-1.0, 1.0]), 1.0, 2.0),
)
def elastic_collision_1d(x, v, m1, m2):
    dt = 0.1
    t = 0.0
    collided = False
    for step in range(100):
        x = x + v * dt
        t += dt
        if x[1] - x[0] <= 0:
            u1, u2 = v
            v = np.array(
                [
                    ((m1 - m2) * u1 + 2 * m2 * u2) / (m1 + m2),
                    ((m2 - m1) * u2 + 2 * m1 * u1) / (m1 + m2),
                ]
            )
            collided = True
            break
    return collided, round(t, 6), v


@prog((0.1, 1.0, 500), (0.5, 2.0, 100))
def pendulum_period(theta0, length, max_steps):
    dt = 0.01
    theta, omega = theta0, 0.0
    crossings = []
    prev = theta
    for step in range(max_steps):
        omega -= 9.81 / length * math.sin(theta) * dt
        theta += omega * dt
        if prev > 0 >= theta:
            crossings.append(step * dt)
        prev = theta
    if len(crossings) < 2:
        return None
    return crossings[1] - crossings[0]


@prog((np.array([1.0, 2.0, 3.0]), 0.5), (E0, 0.5))
def heat_rod(temps, alpha):
    t = temps.copy()
    for _ in range(10):
        new = t.copy()
        for i in range(1, len(t) - 1):
            new[i] = t[i] + alpha * (t[i - 1] - 2 * t[i] + t[i + 1])
        t = new
    return t


@prog((100.0, 0.1, 0.01), (1.0, 5.0, 0.1))
def falling_with_drag(mass, drag, dt):
    v = 0.0
    for step in range(10000):
        a = 9.81 - drag / mass * v * v
        v_new = v + a * dt
        if abs(v_new - v) < 1e-6:
            return step, v_new
        v = v_new
    return -1, v


# ---------------------------------------------------------------- signal processing


@prog((SIG, 3), (R6, 1), (E0, 2))
def moving_window_mean(x, w):
    if len(x) < w:
        return np.zeros(0)
    out = np.zeros(len(x) - w + 1)
    s = x[:w].sum()
    out[0] = s / w
    for i in range(1, len(out)):
        s += x[i + w - 1] - x[i - 1]
        out[i] = s / w
    return out


@prog((SIG, 0.5), (FLAT, 0.0), (E0, 0.0))
def find_peaks(x, height):
    peaks = []
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] >= x[i + 1] and x[i] > height:
            peaks.append(i)
    return peaks


@prog((SIG,), (FLAT,), (np.array([1.0, -1.0, 0.0, 1.0]),))
def zero_crossings(x):
    count = 0
    for i in range(1, len(x)):
        if (x[i - 1] < 0 and x[i] >= 0) or (x[i - 1] >= 0 and x[i] < 0):
            count += 1
    return count


@prog((SIG, np.array([0.25, 0.5, 0.25])), (R6, np.array([1.0])))
def fir_filter(x, taps):
    y = np.zeros_like(x)
    for n in range(len(x)):
        acc = 0.0
        for k in range(len(taps)):
            if n - k >= 0:
                acc += taps[k] * x[n - k]
        y[n] = acc
    return y


@prog((SIG, 0.3), (R6, 1.0))
def iir_lowpass(x, alpha):
    y = np.empty_like(x)
    prev = x[0]
    for i, v in enumerate(x):
        prev = alpha * v + (1 - alpha) * prev
        y[i] = prev
    return y


@prog((SIG,), (np.zeros(8),))
def energy_envelope(x):
    frames = []
    for start in range(0, len(x) - 3, 4):
        frame = x[start : start + 4]
        frames.append(float(np.sqrt(np.mean(frame**2))))
    if max(frames) == 0:
        return "silence"
    return frames


@prog((SIG, 0.2), (R6, 5.0))
def debounce_threshold(x, thr):
    state = False
    events = 0
    for v in x:
        if not state and v > thr:
            state = True
            events += 1
        elif state and v < -thr:
            state = False
    return events, state


@prog((SIG,), (R6,))
def autocorr_lag(x):
    x = x - x.mean()
    best_lag = 0
    best = -np.inf
    for lag in range(1, len(x) // 2):
        c = np.dot(x[:-lag], x[lag:])
        if c > best:
            best = c
            best_lag = lag
    return best_lag


@prog((np.array([0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0]),), (np.zeros(4),))
def pulse_widths(bits):
    widths = []
    n = 0
    for b in bits:
        if b > 0.5:
            n += 1
        elif n:
            widths.append(n)
            n = 0
    if n:
        widths.append(n)
    return widths


@prog((SIG, 5), (R6, 2))
def downsample_max(x, factor):
    out = []
    for i in range(0, len(x), factor):
        out.append(np.max(x[i : i + factor]))
    return np.array(out)


@prog((SIG,), (np.array([1.0, 2.0]),))
def normalize_signal(x):
    peak = np.max(np.abs(x))
    if peak < 1e-12:
        return x
    y = x / peak
    y[np.abs(y) < 0.05] = 0.0
    return y


@prog((np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5])), (np.array([1.0]), np.array([2.0])))
def convolve_manual(a, b):
    n = len(a) + len(b) - 1
    out = np.zeros(n)
    for i in range(len(a)):
        for j in range(len(b)):
            out[i + j] += a[i] * b[j]
    return out


# ---------------------------------------------------------------- ML loops


@prog((XS2, YS2, 0.5, 50), (XS2[:3], YS2[:3], 0.1, 5))
def logistic_regression_gd(X, y, lr, epochs):
    w = np.zeros(X.shape[1])
    b = 0.0
    losses = []
    for ep in range(epochs):
        z = X @ w + b
        p = 1 / (1 + np.exp(-z))
        grad_w = X.T @ (p - y) / len(y)
        grad_b = np.mean(p - y)
        w -= lr * grad_w
        b -= lr * grad_b
        loss = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
        losses.append(loss)
    return w, b, losses[-1]


@prog((XS2, YS2, np.array([0.2, -0.1]), 3), (XS2, YS2, np.array([5.0, 5.0]), 1))
def knn_predict(X, y, q, k):
    d = np.sqrt(((X - q) ** 2).sum(axis=1))
    order = np.argsort(d)
    votes = 0.0
    for i in range(k):
        votes += y[order[i]]
    return 1 if votes > k / 2 else 0


@prog((XS2, YS2 * 2 - 1, 20), (XS2[:2], np.array([1.0, 1.0]), 3))
def perceptron_train(X, y, max_epochs):
    w = np.zeros(X.shape[1])
    b = 0.0
    for epoch in range(max_epochs):
        errors = 0
        for xi, yi in zip(X, y):
            if yi * (xi @ w + b) <= 0:
                w = w + yi * xi
                b += yi
                errors += 1
        if errors == 0:
            return w, b, epoch
    return w, b, max_epochs


@prog((XS2, YS2, 4, 3), (XS2, YS2, 20, 2))
def minibatch_sgd(X, y, batch, epochs):
    g = np.random.default_rng(1)
    w = np.zeros(X.shape[1])
    n = len(X)
    for ep in range(epochs):
        perm = g.permutation(n)
        for start in range(0, n, batch):
            idx = perm[start : start + batch]
            Xb, yb = X[idx], y[idx]
            pred = Xb @ w
            w -= 0.1 * Xb.T @ (pred - yb) / len(idx)
    return w


@prog((np.array([1.0, 0.8, 0.7, 0.71, 0.72, 0.73, 0.6]), 2), (np.array([1.0, 0.9, 0.8]), 5))
def early_stopping(val_losses, patience):
    best = float("inf")
    best_epoch = -1
    wait = 0
    for epoch, loss in enumerate(val_losses):
        if loss < best:
            best = loss
            best_epoch = epoch
            wait = 0
        else:
            wait += 1
            if wait >= patience:
                break
    return best_epoch, best


@prog((XS2, 2, 5), (XS2[:3], 3, 2))
def kmeans_simple(X, k, iters):
    centers = X[:k].copy()
    labels = np.zeros(len(X), dtype=np.int64)
    for it in range(iters):
        for i in range(len(X)):
            d = ((centers - X[i]) ** 2).sum(axis=1)
            labels[i] = np.argmin(d)
        new = centers.copy()
        for c in range(k):
            members = X[labels == c]
            if len(members) > 0:
                new[c] = members.mean(axis=0)
        if np.allclose(new, centers):
            break
        centers = new
    return labels, centers


@prog((np.array([1.0, 2.0, 3.0, 4.0]), np.array([2.1, 3.9, 6.2, 7.8])), (ONE, ONE))
def linear_fit_closed(x, y):
    n = len(x)
    if n < 2:
        return None
    sx, sy = x.sum(), y.sum()
    sxx = (x * x).sum()
    sxy = (x * y).sum()
    slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    return slope, (sy - slope * sx) / n


@prog(
    (np.array([[0.2, 0.8], [0.9, 0.1], [0.6, 0.4]]), np.array([1, 0, 1])),
)
def accuracy_and_confusion(probs, labels):
    conf = np.zeros((2, 2), dtype=np.int64)
    for p, t in zip(probs, labels):
        pred = int(np.argmax(p))
        conf[t, pred] += 1
    acc = np.trace(conf) / conf.sum()
    return acc, conf


@prog((np.array([2.0, 1.0, 0.1]),), (np.array([1000.0, 1000.0]),))
def softmax_stable(z):
    z = z - np.max(z)
    e = np.exp(z)
    return e / e.sum()


@prog((np.array([0.9, 0.2, 0.6, 0.4]), np.array([1, 0, 1, 1])), (np.array([0.1]), np.array([0])))
def precision_recall(scores, labels):
    tp = fp = fn = 0
    for s, l in zip(scores, labels):
        pred = s >= 0.5
        if pred and l == 1:
            tp += 1
        elif pred and l == 0:
            fp += 1
        elif not pred and l == 1:
            fn += 1
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return precision, recall


@prog((np.array([3.0, -1.0]), 0.1, 100), (np.array([0.0, 0.0]), 0.5, 10))
def momentum_descent(w0, lr, steps):
    w = w0.copy()
    v = np.zeros_like(w)
    for s in range(steps):
        grad = np.array([2 * w[0], 20 * w[1]])
        v = 0.9 * v - lr * grad / 10
        w = w + v
        if np.linalg.norm(grad) < 1e-6:
            break
    return w, s


@prog((XS2, YS2, 0.5), (XS2[:4], YS2[:4], 2.0))
def decision_stump(X, y, thr_step):
    best = (1.0, 0, 0.0)
    for feat in range(X.shape[1]):
        for thr in np.arange(-2.0, 2.0, thr_step):
            pred = (X[:, feat] > thr).astype(np.float64)
            err = np.mean(pred != y)
            if err < best[0]:
                best = (err, feat, thr)
    return best


# ---------------------------------------------------------------- board and grid games


@prog((BOARD_X,), (BOARD_O,), (BOARD_D,))
def tictactoe_winner(b):
    lines = []
    for i in range(3):
        lines.append(b[i, :])
        lines.append(b[:, i])
    lines.append(np.diag(b))
    lines.append(np.diag(np.fliplr(b)))
    for line in lines:
        if line[0] != 0 and line[0] == line[1] == line[2]:
            return int(line[0])
    if np.all(b != 0):
        return 0
    return -1


@prog((GRID, 0, 0), (GRID, 3, 0), (GRID, 0, 1))
def flood_fill_size(grid, r, c):
    g = grid.copy()
    target = g[r, c]
    if target == 2:
        return 0
    stack = [(r, c)]
    size = 0
    while stack:
        i, j = stack.pop()
        if i < 0 or j < 0 or i >= g.shape[0] or j >= g.shape[1]:
            continue
        if g[i, j] != target:
            continue
        g[i, j] = 2
        size += 1
        stack.extend([(i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)])
    return size


@prog((GRID, 2), (np.zeros((3, 3), dtype=np.int64), 1))
def life_fixed_border(grid, gens):
    g = grid.copy()
    n, m = g.shape
    for _ in range(gens):
        new = np.zeros_like(g)
        for i in range(n):
            for j in range(m):
                cnt = 0
                for di in (-1, 0, 1):
                    for dj in (-1, 0, 1):
                        if di == 0 and dj == 0:
                            continue
                        a, b = i + di, j + dj
                        if 0 <= a < n and 0 <= b < m:
                            cnt += g[a, b]
                if g[i, j] == 1 and cnt in (2, 3):
                    new[i, j] = 1
                elif g[i, j] == 0 and cnt == 3:
                    new[i, j] = 1
        g = new
    return g


@prog(
    (np.array([[0, 0, 0, 0], [0, 1, 2, 0], [0, 2, 1, 0], [0, 0, 0, 0]]), 0, 2, 1),
)
def othello_flips(board, r, c, player):
    other = 3 - player
    flips = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == 0 and dc == 0:
                continue
            i, j = r + dr, c + dc
            run = 0
            while 0 <= i < 4 and 0 <= j < 4 and board[i, j] == other:
                i += dr
                j += dc
                run += 1
            if run and 0 <= i < 4 and 0 <= j < 4 and board[i, j] == player:
                flips += run
    return flips


@prog(
    (np.array([[5, 3, 0], [6, 0, 0], [0, 9, 8]]),), (np.array([[1, 1, 0], [0, 0, 0], [0, 0, 0]]),)
)
def sudoku_rows_valid(b):
    for row in b:
        seen = set()
        for v in row:
            v = int(v)
            if v == 0:
                continue
            if v in seen:
                return False
            seen.add(v)
    return True


@prog(
    (np.array([[0, 0, 1], [1, 0, 1], [0, 0, 0]]), 0, 0, 2, 2),
    (np.array([[0, 1], [1, 0]]), 0, 0, 1, 1),
)
def grid_path_exists(grid, sr, sc, tr, tc):
    seen = np.zeros(grid.shape, dtype=bool)
    frontier = [(sr, sc)]
    seen[sr, sc] = True
    while frontier:
        r, c = frontier.pop(0)
        if r == tr and c == tc:
            return True
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < grid.shape[0] and 0 <= nc < grid.shape[1]:
                if grid[nr, nc] == 0 and not seen[nr, nc]:
                    seen[nr, nc] = True
                    frontier.append((nr, nc))
    return False


@prog((np.array([3, 0, 2, 0, 4]),), (np.array([1, 1]),))
def trapped_rain(h):
    n = len(h)
    left = np.zeros(n, dtype=h.dtype)
    right = np.zeros(n, dtype=h.dtype)
    m = 0
    for i in range(n):
        m = max(m, h[i])
        left[i] = m
    m = 0
    for i in range(n - 1, -1, -1):
        m = max(m, h[i])
        right[i] = m
    return int(np.sum(np.minimum(left, right) - h))


@prog((np.array([2, 2, 0, 4]),), (np.array([0, 0, 0, 0]),), (np.array([2, 4, 8, 16]),))
def game2048_merge_row(row):
    tiles = [int(v) for v in row if v != 0]
    merged = []
    score = 0
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            merged.append(tiles[i] * 2)
            score += tiles[i] * 2
            i += 2
        else:
            merged.append(tiles[i])
            i += 1
    merged += [0] * (len(row) - len(merged))
    return merged, score


@prog((np.array([[1, 0, 0], [0, 1, 0], [1, 1, 1]]),), (np.zeros((2, 2), dtype=np.int64),))
def count_neighbors_torus(g):
    n, m = g.shape
    out = np.zeros_like(g)
    for i in range(n):
        for j in range(m):
            s = 0
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    if di or dj:
                        s += g[(i + di) % n, (j + dj) % m]
            out[i, j] = s
    return out


@prog((np.array([6, 2, 5, 1]), 3), (np.array([1, 1, 1]), 10))
def snake_ladder_moves(rolls, goal):
    pos = 0
    jumps = {2: 5, 4: 1}
    for turn, r in enumerate(rolls):
        pos += int(r)
        if pos in jumps:
            pos = jumps[pos]
        if pos >= goal:
            return turn + 1
    return -1


@prog((np.array([[1, 2], [3, 4]]), 1), (np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), 4))
def rotate_grid(g, times):
    for _ in range(times % 4):
        g = np.rot90(g)
    return g


# ---------------------------------------------------------------- int arrays as strings


@prog((RUNS,), (np.array([4]),), (np.array([], dtype=np.int64),))
def run_lengths(a):
    if len(a) == 0:
        return []
    out = []
    cur = a[0]
    n = 1
    for v in a[1:]:
        if v == cur:
            n += 1
        else:
            out.append((int(cur), n))
            cur = v
            n = 1
    out.append((int(cur), n))
    return out


@prog((PAL,), (RUNS,), (np.array([7]),))
def is_palindrome_two_ptr(a):
    i, j = 0, len(a) - 1
    while i < j:
        if a[i] != a[j]:
            return False
        i += 1
        j -= 1
    return True


@prog((np.array([1, 2, 1, 2, 3, 1, 2]), np.array([1, 2])), (PAL, np.array([9])))
def count_pattern(text, pat):
    count = 0
    m = len(pat)
    for i in range(len(text) - m + 1):
        if np.array_equal(text[i : i + m], pat):
            count += 1
    return count


@prog((np.array([1, 2, 3, 2, 1, 4]),), (np.array([5, 5, 5]),))
def longest_palindrome_center(a):
    best = 1
    n = len(a)
    for c in range(n):
        lo, hi = c, c
        while lo > 0 and hi < n - 1 and a[lo - 1] == a[hi + 1]:
            lo -= 1
            hi += 1
        best = max(best, hi - lo + 1)
    return best


@prog((np.array([40, 40, 41, 41, 41, 40]),), (np.array([91, 93]),), (np.array([40, 41, 41]),))
def paren_depth(codes):
    depth = 0
    deepest = 0
    for c in codes:
        if c == 40:
            depth += 1
            deepest = max(deepest, depth)
        elif c == 41:
            depth -= 1
            if depth < 0:
                return -1
    return deepest if depth == 0 else -1


@prog((np.array([1, 2, 3, 4]), np.array([2, 4])), (np.array([1, 2]), np.array([3])))
def is_subsequence(a, b):
    j = 0
    for v in a:
        if j < len(b) and v == b[j]:
            j += 1
    return j == len(b)


@prog((np.array([3, 1, 3, 3, 2, 3]),), (np.array([1, 2]),))
def majority_vote(a):
    cand = None
    count = 0
    for v in a:
        if count == 0:
            cand = v
            count = 1
        elif v == cand:
            count += 1
        else:
            count -= 1
    if cand is not None and np.sum(a == cand) > len(a) // 2:
        return int(cand)
    return None


@prog((np.array([1, 2, 3, 1, 2, 3, 4]),), (np.array([5, 5, 5]),))
def longest_unique_window(a):
    last = {}
    start = 0
    best = 0
    for i, v in enumerate(a.tolist()):
        if v in last and last[v] >= start:
            start = last[v] + 1
        last[v] = i
        best = max(best, i - start + 1)
    return best


@prog((np.array([104, 101, 108, 108, 111]),), (np.array([65, 66]),))
def checksum_rolling(codes):
    a, b = 1, 0
    for c in codes:
        a = (a + int(c)) % 65521
        b = (b + a) % 65521
    return (b << 16) | a


@prog((np.array([1, 0, 1, 1, 0, 1, 1, 1]),), (np.zeros(3, dtype=np.int64),))
def max_consecutive_ones(bits):
    best = cur = 0
    for b in bits:
        cur = cur + 1 if b == 1 else 0
        best = max(best, cur)
    return best


@prog((np.array([5, 1, 4]), np.array([1, 4, 5])), (np.array([1, 2]), np.array([1, 1])))
def is_anagram(a, b):
    if len(a) != len(b):
        return False
    counts = np.zeros(10, dtype=np.int64)
    for v in a:
        counts[v] += 1
    for v in b:
        counts[v] -= 1
    return bool(np.all(counts == 0))


# ---------------------------------------------------------------- recursion, generators, with


@prog((10,), (1,), (0,))
def fib_memo(n):
    memo = {}

    def fib(k):
        if k < 2:
            return k
        if k in memo:
            return memo[k]
        memo[k] = fib(k - 1) + fib(k - 2)
        return memo[k]

    return fib(n)


@prog((np.array([1.0, 2.0, 3.0, 4.0, 5.0]),), (ONE,))
def recursive_sum_halves(x):
    def total(a):
        if len(a) == 1:
            return a[0]
        mid = len(a) // 2
        return total(a[:mid]) + total(a[mid:])

    return total(x)


@functools.cache
def _binom(n, k):
    if k == 0 or k == n:
        return 1
    return _binom(n - 1, k - 1) + _binom(n - 1, k)


@prog((np.array([0.5, 0.25, 0.25]), 3), (ONE, 0))
def binomial_weights(p, n):
    return [_binom(n, k) * float(p[0]) ** k for k in range(n + 1)]


@prog((np.array([4, 2, 7]), 9), (np.array([5, 5]), 3))
def subset_sum_recursive(items, target):
    def can(i, t):
        if t == 0:
            return True
        if i == len(items) or t < 0:
            return False
        return can(i + 1, t - items[i]) or can(i + 1, t)

    return can(0, target)


@prog((SIG, 4), (R6, 2))
def chunk_means_generator(x, size):
    def chunks(a, n):
        for i in range(0, len(a), n):
            yield a[i : i + n]

    return [float(c.mean()) for c in chunks(x, size)]


@prog((R12, 0.5), (NANS, 0.0))
def generator_filter_total(x, thr):
    def above(a):
        for v in a:
            if v > thr:
                yield v

    total = 0.0
    n = 0
    for v in above(x):
        total += v
        n += 1
    return total, n


@prog((np.array([1.0, 2.0, 3.0]),), (E0,))
def pairwise_generator(x):
    def pairs(a):
        for i in range(len(a) - 1):
            yield a[i], a[i + 1]

    return sum(b - a for a, b in pairs(x))


@prog((R6,), (np.array([1e10, 1.0]),))
def errstate_with(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        r = x / (x - x.mean())
    r[~np.isfinite(r)] = 0.0
    return r


class _Timer:
    def __init__(self):
        self.entered = 0

    def __enter__(self):
        self.entered += 1
        return self

    def __exit__(self, *exc):
        return False


@prog((R6,), (E0,))
def with_context_object(x):
    t = _Timer()
    with t:
        s = 0.0
        for v in x:
            s += v * v
    return s, t.entered


@prog((R6,), (ONE,))
def with_suppress(x):
    out = 0.0
    with contextlib.suppress(ZeroDivisionError):
        out = 1.0 / len(x[1:])
    return out


# ---------------------------------------------------------------- assert, global counters

_CALLS = 0


@prog((np.array([1.0, 2.0, 3.0]), np.array([0.2, 0.3, 0.5])), (np.array([1.0]), np.array([0.5])))
def weighted_avg_assert(x, w):
    assert len(x) == len(w), "length mismatch"
    assert abs(w.sum() - 1.0) < 1e-9, "weights must sum to 1"
    return float(np.dot(x, w))


@prog((np.array([[1.0, 2.0], [3.0, 4.0]]),), (np.ones((2, 3)),))
def square_only(m):
    assert m.shape[0] == m.shape[1], f"need square, got {m.shape}"
    return np.trace(m)


@prog((R6,), (E0,))
def global_counter(x):
    global _CALLS
    _CALLS += 1
    return len(x) * 2


_SEEN_MAX = [float("-inf")]


@prog((R6,), (np.array([100.0]),))
def module_list_tracker(x):
    m = float(np.max(x))
    if m > _SEEN_MAX[0]:
        _SEEN_MAX[0] = m
    return m


# ---------------------------------------------------------------- classes


class Shape:
    def area(self):
        return 0.0

    def describe(self):
        return f"{type(self).__name__} with area {self.area():.2f}"


class Circle(Shape):
    def __init__(self, r):
        self.r = r

    def area(self):
        return math.pi * self.r**2


class Rect(Shape):
    def __init__(self, w, h):
        self.w = w
        self.h = h

    def area(self):
        return self.w * self.h


@prog((np.array([1.0, 2.0, 3.0]),), (np.array([0.5]),))
def shapes_total_area(dims):
    shapes = []
    for i, d in enumerate(dims):
        if i % 2 == 0:
            shapes.append(Circle(d))
        else:
            shapes.append(Rect(d, d + 1))
    return sum(s.area() for s in shapes)


@prog((np.array([2.0]),), (np.array([0.0]),))
def shape_describe(d):
    c = Circle(float(d[0]))
    return c.describe()


class Account:
    fee = 1.0

    def __init__(self, balance):
        self._balance = balance
        self.history = []

    @property
    def balance(self):
        return self._balance

    def withdraw(self, amount):
        if amount + self.fee > self._balance:
            return False
        self._balance -= amount + self.fee
        self.history.append(-amount)
        return True

    @staticmethod
    def interest(balance, rate):
        return balance * rate


class SavingsAccount(Account):
    fee = 0.0

    def add_interest(self, rate):
        self._balance += self.interest(self._balance, rate)


@prog((100.0, np.array([30.0, 50.0, 40.0])), (10.0, np.array([20.0])))
def account_withdrawals(start, amounts):
    acc = Account(start)
    ok = 0
    for a in amounts:
        if acc.withdraw(a):
            ok += 1
    return acc.balance, ok, len(acc.history)


@prog((100.0, 0.05, 3), (0.0, 0.1, 2))
def savings_interest(start, rate, years):
    acc = SavingsAccount(start)
    for _ in range(years):
        acc.add_interest(rate)
    return round(acc.balance, 6)


class RunningStats:
    def __init__(self):
        self.n = 0
        self.total = 0.0
        self.lo = None
        self.hi = None

    def push(self, v):
        self.n += 1
        self.total += v
        if self.lo is None or v < self.lo:
            self.lo = v
        if self.hi is None or v > self.hi:
            self.hi = v

    @property
    def mean(self):
        return self.total / self.n if self.n else 0.0


@prog((R6,), (E0,))
def running_stats_object(x):
    rs = RunningStats()
    for v in x:
        rs.push(v)
    return rs.mean, rs.lo, rs.hi


class Particle:
    def __init__(self, x, v):
        self.x = x
        self.v = v

    def step(self, dt):
        self.x = self.x + self.v * dt
        if self.x < 0 or self.x > 10:
            self.v = -self.v


@prog((np.array([1.0, 9.5]), np.array([2.0, 3.0])), (np.array([5.0]), np.array([0.0])))
def particles_in_box(xs, vs):
    ps = [Particle(x, v) for x, v in zip(xs, vs)]
    for _ in range(20):
        for p in ps:
            p.step(0.1)
    return [round(float(p.x), 6) for p in ps]


class Model:
    def predict(self, x):
        raise NotImplementedError

    def score(self, X, y):
        correct = 0
        for xi, yi in zip(X, y):
            if self.predict(xi) == yi:
                correct += 1
        return correct / len(y)


class ThresholdModel(Model):
    def __init__(self, t):
        self.t = t

    def predict(self, x):
        return 1.0 if x[0] > self.t else 0.0


@prog((XS2, YS2, 0.0), (XS2, YS2, 10.0))
def model_hierarchy_score(X, y, t):
    return ThresholdModel(t).score(X, y)


# ---------------------------------------------------------------- namedtuple, kwargs, defaults

Summary = namedtuple("Summary", ["n", "mean", "lo", "hi"])
Fit = namedtuple("Fit", "slope intercept r2")


@prog((R6,), (ONE,))
def namedtuple_summary(x):
    return Summary(len(x), float(x.mean()), float(x.min()), float(x.max()))


@prog(
    (np.array([1.0, 2.0, 3.0]), np.array([2.0, 4.1, 5.9])),
    (np.array([1.0, 1.0]), np.array([1.0, 2.0])),
)
def namedtuple_fit(x, y):
    A = np.vstack([x, np.ones_like(x)]).T
    sol, res, rank, _ = np.linalg.lstsq(A, y, rcond=None)
    if rank < 2:
        return Fit(0.0, float(y.mean()), 0.0)
    pred = A @ sol
    ss = ((y - pred) ** 2).sum()
    tot = ((y - y.mean()) ** 2).sum()
    return Fit(float(sol[0]), float(sol[1]), float(1 - ss / tot))


@prog((R6,), (E0,))
def namedtuple_field_access(x):
    s = Summary(len(x), 0.0, 0.0, 0.0)
    if s.n > 0:
        s = s._replace(mean=float(x.mean()))
    return s.mean, s.n


def _scale(x, **opts):
    factor = opts.get("factor", 1.0)
    if opts.get("center", False):
        x = x - x.mean()
    return x * factor


@prog((R6,), (FLAT,))
def kwargs_scaling(x):
    a = _scale(x, factor=2.0)
    b = _scale(x, center=True)
    return a.sum() + b.sum()


@prog((R6, {"lo": -0.5, "hi": 0.5}), (R6, {}))
def kwargs_unpack_call(x, bounds):
    def clamp(v, lo=-1.0, hi=1.0):
        return np.clip(v, lo, hi)

    return clamp(x, **bounds)


@prog((R6,), (R6, 3))
def default_arg_window(x, w=2):
    return np.array([x[i : i + w].sum() for i in range(len(x) - w + 1)])


@prog((np.array([3.0, 1.0]),), (E0,))
def mutable_default_trap(x):
    def collect(v, bucket=None):
        if bucket is None:
            bucket = []
        bucket.append(v)
        return bucket

    out = []
    for v in x:
        out = collect(float(v), out)
    return out


# ---------------------------------------------------------------- lambdas and closures


@prog((np.array([[1.0, 5.0], [3.0, 2.0], [2.0, 9.0]]),), (np.array([[0.0, 0.0]]),))
def sorted_rows_by_second(m):
    rows = [tuple(float(v) for v in r) for r in m]
    return sorted(rows, key=lambda r: r[1], reverse=True)


@prog((np.array([3, -7, 2, 5]),), (np.array([0]),))
def max_by_abs(a):
    return max(a.tolist(), key=lambda v: abs(v))


@prog((np.array([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0]]),), (np.array([[2.0, 2.0]]),))
def closest_point_to_origin(pts):
    best = min(range(len(pts)), key=lambda i: pts[i, 0] ** 2 + pts[i, 1] ** 2)
    return best


@prog((2.0, R6), (0.5, E0))
def make_scaler_closure(k, x):
    def make(factor):
        def apply(v):
            return v * factor

        return apply

    double = make(k)
    return double(x)


@prog((R12,), (E0,))
def counter_closure(x):
    def make_counter():
        count = 0

        def inc(v):
            nonlocal count
            if v > 0:
                count += 1
            return count

        return inc

    inc = make_counter()
    last = 0
    for v in x:
        last = inc(v)
    return last


@prog((np.array([1.0, 2.0, 3.0]),), (ONE,))
def compose_functions(x):
    fs = [lambda v: v + 1, lambda v: v * 2, np.sqrt]
    for f in fs:
        x = f(x)
    return x


@prog((np.array([5.0, 3.0, 9.0]),), (np.array([1.0]),))
def sort_indices_by_value(x):
    idx = sorted(range(len(x)), key=lambda i: -x[i])
    return idx


# ---------------------------------------------------------------- isinstance and arguments


@prog((R6,), (3.0,), ([1.0, 2.0],))
def isinstance_dispatch(x):
    if isinstance(x, np.ndarray):
        return x.sum()
    if isinstance(x, (list, tuple)):
        return float(sum(x))
    return float(x)


@prog((R6, None), (R6, np.array([1.0, 0.0, 1.0, 0.0, 1.0, 0.0])))
def optional_weights(x, w):
    if w is None:
        w = np.ones_like(x)
    return (x * w).sum() / w.sum()


@prog((np.array([1, 2, 3]),), (np.array([1.0, 2.5]),))
def dtype_dispatch(x):
    if np.issubdtype(x.dtype, np.integer):
        return x // 2
    return np.floor(x / 2)


@prog((R6, "l1"), (R6, "l2"), (R6, "max"))
def norm_by_name(x, kind):
    if kind == "l1":
        return np.abs(x).sum()
    elif kind == "l2":
        return math.sqrt((x * x).sum())
    else:
        return np.abs(x).max()


# ---------------------------------------------------------------- where/select with branches


@prog((R12,), (E0,))
def select_grades(x):
    scores = 50 + 20 * x
    grades = np.select([scores >= 70, scores >= 50, scores >= 30], [3, 2, 1], default=0)
    if grades.size and grades.max() == 3:
        return grades, "has top"
    return grades, "no top"


@prog((R12, 0.0), (R6, 5.0))
def where_then_branch(x, t):
    y = np.where(x > t, x, 0.0)
    if y.sum() > 1.0:
        y = y / y.sum()
    else:
        y = y + 1.0
    return y


@prog((np.array([-2.0, 0.0, 3.0]),), (np.array([1.0]),))
def piecewise_loop(x):
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = np.where(x[i] < 0, -x[i], x[i] ** 2) if x[i] != 0 else 10.0
    return out


@prog((R12,), (FLAT,))
def mask_stats(x):
    pos = x > 0
    if not pos.any():
        return 0, 0.0
    return int(pos.sum()), float(x[pos].mean())


@prog((np.array([[1.0, -1.0], [2.0, 3.0]]),), (np.zeros((2, 2)),))
def boolean_mask_assign(m):
    m = m.copy()
    m[m < 0] = 0
    rows = m.sum(axis=1) > 2
    m[rows] *= 10
    return m


# ---------------------------------------------------------------- dtypes, overflow, 0-d, empty


@prog((INT32,), (SMALL32,))
def int32_sum_loop(a):
    total = np.int32(0)
    for v in a:
        total = total + v
    return total


@prog((INT32,), (SMALL32,))
def int32_cumsum_compare(a):
    c = np.cumsum(a)
    s = a.sum()
    return c.dtype.name, int(s), c[-1] == s


@prog((SMALL32, 2.5), (INT32, 1.0))
def int_plus_float(a, f):
    out = a + f
    acc = 0
    for v in a:
        acc += v
    return out, acc


@prog((F32,), (np.array([1.0], dtype=np.float32),))
def float32_accumulate(x):
    s = np.float32(0)
    for v in x:
        s += v * np.float32(0.1)
    return s, (x * 2.0).dtype


@prog((F32,), (np.array([], dtype=np.float32),))
def float32_mean_python(x):
    total = 0.0
    for v in x:
        total += v
    return total / max(len(x), 1)


@prog((ZERO_D,), (ZERO_DI,))
def zero_d_input(x):
    if x > 5:
        return x * 2
    return x + 1


@prog((ZERO_D,), (ZERO_DI,))
def zero_d_item_loop(x):
    v = x.item()
    steps = 0
    while v > 1:
        v = v / 2
        steps += 1
    return steps, v


@prog((E0,), (np.zeros((0, 3)),), (R6,))
def empty_safe_mean(x):
    if x.size == 0:
        return float("nan")
    return float(x.mean())


@prog((np.array([], dtype=np.int64),), (INTS,))
def empty_max_default(a):
    best = max(a.tolist(), default=-1)
    total = 0
    for v in a:
        total += v
    return best, total


@prog((np.array([250, 10, 3], dtype=np.uint8),), (np.array([1, 2], dtype=np.uint8),))
def uint8_wraparound(a):
    b = a + np.uint8(10)
    c = a.astype(np.int64) + 10
    return b, c


@prog((SMALL32, np.array([1.5, 2.5, 3.5])), (INT32, np.array([0.0, 0.0, 1.0])))
def mixed_dtype_loop(a, f):
    out = np.zeros(len(a))
    for i in range(len(a)):
        out[i] = a[i] * f[i]
    return out, a.dtype, (a * f).dtype


@prog((np.array([True, False, True]),), (np.array([False]),))
def bool_array_arith(m):
    n = 0
    for b in m:
        if b:
            n += 1
    return n, m.sum(), m.astype(np.int64).dtype


@prog((np.array([7, -7, 0]), 3), (np.array([5]), -2))
def floor_div_mod(a, k):
    q = []
    r = []
    for v in a:
        q.append(int(v) // k)
        r.append(int(v) % k)
    return q, r, a // k, a % k


@prog((np.int64(5),), (np.float64(2.5),), (3,))
def numpy_scalar_input(x):
    if x > 3:
        y = x * 2
    else:
        y = x - 1
    return y, type(y).__name__


# ---------------------------------------------------------------- more of the same, mixed


@prog((np.array([3.0, 4.0]), np.array([1.0, 1.0])), (np.array([0.0, 0.0]), np.array([1.0, 0.0])))
def ray_circle_hit(origin, direction):
    d = direction / np.linalg.norm(direction)
    b = 2 * np.dot(d, origin)
    c = np.dot(origin, origin) - 1.0
    disc = b * b - 4 * c
    if disc < 0:
        return None
    t = (-b - math.sqrt(disc)) / 2
    if t < 0:
        t = (-b + math.sqrt(disc)) / 2
    return t


@prog((np.array([5, 3, 8, 1]),), (np.array([2, 2, 2]),))
def stock_span(prices):
    span = []
    stack = []
    for i, p in enumerate(prices):
        while stack and prices[stack[-1]] <= p:
            stack.pop()
        span.append(i + 1 if not stack else i - stack[-1])
        stack.append(i)
    return span


@prog((R12, 0.1), (FLAT, 0.5))
def exp_smoothing_forecast(x, alpha):
    level = x[0]
    errors = []
    for v in x[1:]:
        errors.append(v - level)
        level = alpha * v + (1 - alpha) * level
    mae = sum(abs(e) for e in errors) / len(errors)
    return level, mae


@prog((np.array([[1, 0], [0, 1]]),), (np.array([[1, 2], [2, 4]]),))
def matrix_classify(m):
    det = m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0]
    if det == 0:
        kind = "singular"
    elif np.array_equal(m, m.T):
        kind = "symmetric"
    else:
        kind = "general"
    return kind, int(det)


@prog((np.array([90.0, 72.0, 55.0, 38.0]),), (np.array([100.0]),))
def letter_grades(scores):
    letters = []
    for s in scores:
        if s >= 90:
            letters.append("A")
        elif s >= 70:
            letters.append("B")
        elif s >= 50:
            letters.append("C")
        else:
            letters.append("F")
    return "".join(letters)


@prog((np.array([2, 3, 5, 7, 11, 13]), 15), (np.array([1, 2]), 10))
def two_sum_sorted(a, target):
    i, j = 0, len(a) - 1
    while i < j:
        s = a[i] + a[j]
        if s == target:
            return int(i), int(j)
        if s < target:
            i += 1
        else:
            j -= 1
    return None


@prog(
    (np.array([10.0, 20.0, 30.0]), np.array([1.0, 2.0, 3.0]), 25.0),
    (np.array([5.0]), np.array([9.0]), 1.0),
)
def fractional_knapsack(values, weights, cap):
    order = sorted(range(len(values)), key=lambda i: values[i] / weights[i], reverse=True)
    total = 0.0
    for i in order:
        if cap <= 0:
            break
        take = min(weights[i], cap)
        total += values[i] * take / weights[i]
        cap -= take
    return total


@prog((np.array([1.0, 2.0, 4.0, 7.0]),), (np.array([1.0, 1.0]),))
def finite_differences(x):
    levels = [x]
    cur = x
    while len(cur) > 1 and np.any(cur != cur[0]):
        cur = np.diff(cur)
        levels.append(cur)
    return len(levels)


@prog((np.array([0.2, 0.5, 0.3]), 40, 7), (np.array([1.0, 0.0]), 10, 1))
def sample_categorical(p, n, seed):
    g = np.random.default_rng(seed)
    counts = np.zeros(len(p), dtype=np.int64)
    cdf = np.cumsum(p)
    for _ in range(n):
        u = g.random()
        k = 0
        while cdf[k] < u:
            k += 1
        counts[k] += 1
    return counts


@prog((np.array([3, 1, 2]),), (np.array([1]),))
def permutation_cycles(perm):
    p = perm - 1
    seen = [False] * len(p)
    cycles = 0
    for i in range(len(p)):
        if not seen[i]:
            cycles += 1
            j = i
            while not seen[j]:
                seen[j] = True
                j = p[j]
    return cycles


# How each program that is not ok was classified (tools/fresh_batch5_findings.md): b = a
# documented limit, c = an error on code the docs say runs (or a limit they do not list), d =
# a wrong result, e = a crash (an exception that is not an AutoconvError); the key names the
# class in the findings. JAX_FINDINGS overrides on JAX. Fixed classes are gone from both (W1,
# W2, C1, np.select and np.rot90); C2 is a documented limit now.
FINDINGS = {
    "bin_counts": ("b", "L-dict-key"),
    "generator_filter_total": ("b", "L-generator"),
    "letter_grades": ("b", "L-append-kind"),
    "longest_unique_window": ("b", "L-dict-key"),
    "nan_report": ("b", "L-fstring"),
    "permutation_cycles": ("b", "L-list-write-index"),
    "rank_with_ties": ("b", "L-tensor-index"),
    "running_stats_object": ("b", "L-property-getter"),
    "shape_describe": ("b", "L-fstring"),
    "shapes_total_area": ("b", "L-append-kind"),
    "snake_ladder_moves": ("b", "L-dict-key"),
    "sorted_rows_by_second": ("b", "L-sorted"),
    "sudoku_rows_valid": ("b", "L-dict-key"),
}
JAX_FINDINGS = {
    "boolean_mask_assign": ("b", "L-jax-size"),
    "drop_outliers_zscore": ("b", "L-jax-size"),
    "drop_rows_with_nan": ("b", "L-jax-list"),
    "finite_differences": ("b", "L-jax-list"),
    "game2048_merge_row": ("b", "L-jax-list"),
    "mode_by_counts": ("b", "L-jax-size"),
    "stock_span": ("b", "L-jax-mixed-kinds"),
}


def detail(programs, modes=("numpy", "noopt", "jax")) -> list:
    """fresh_batch3's rows, one per outcome that is not the eager one."""
    return fresh_batch3.detail(programs, modes)


def table(rows, n, findings=None, jax_findings=None) -> None:
    """Prints, per mode, how many programs are ok and how many fall in each class of FINDINGS
    (or `findings`, with `jax_findings` overriding on JAX: a later batch's); a program that
    fails but is not classified is new, and is listed."""
    findings = FINDINGS if findings is None else findings
    jax_findings = JAX_FINDINGS if jax_findings is None else jax_findings
    failing: dict = {}
    for name, mode, *_ in rows:
        failing.setdefault(mode, set()).add(name)
    for mode in ("numpy", "noopt", "jax"):
        counts = {"ok": n - len(failing.get(mode, ()))}
        for name in sorted(failing.get(mode, ())):
            found = (jax_findings.get(name) if mode == "jax" else None) or findings.get(name)
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
