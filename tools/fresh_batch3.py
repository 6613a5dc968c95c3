"""A third batch of programs nobody on the team wrote beforehand (issue 24, 2026-11-29):
programs (197) as a new user writes them, in numerical methods, signal processing, statistics,
simulations, graph algorithms on arrays, dynamic programming, games, finance, image loops, ML
training loops and objects with state. They reach the constructs the first two batches did
not: nested staged blocks with appends and item writes, aliasing (views, swaps, scalar reads,
several arrays), closures with `nonlocal`, methods changing attributes, helpers with early
returns, Python numbers meeting NumPy values, `try`/`except`, sentinels and unpacking. Each
runs on three or four inputs that take different paths (empty and edge values included),
eagerly and as a graph (NumPy backend, every optimizing pass off, JAX backend), judged as
`fresh_batch.py` judges.

    python tools/fresh_batch3.py             # one line per program that differs, then counts
    python tools/fresh_batch3.py --detail    # the full message of each outcome that is not ok
    python tools/fresh_batch3.py NAME ...    # only these programs, in detail
    python tools/fresh_batch3.py --table     # counts by class (FINDINGS), new failures named

The outcomes found are in tools/fresh_batch3_findings.md.
"""

# ruff: noqa: B007, E741  (programs written as users write them: unused loop names, `l`)
import contextlib
import io
import math
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


def detail(programs, modes=("numpy", "noopt", "jax")) -> list:
    """Runs every input of every program on each path and returns one row per outcome that is
    not the eager one: (name, mode, input number, label, exception type, message, where the
    exception was raised)."""
    import traceback

    import autoconv
    from autoconv.errors import AutoconvError
    from autoconv.graph import passes

    rows = []
    for f, inputs in programs:
        for mode in modes:
            graph = autoconv.function(f, backend="jax" if mode == "jax" else "numpy")
            for k, args in enumerate(inputs):
                kind, expected = fresh_batch.outcome(f, args)
                if mode == "noopt":
                    with passes.options(passes.Settings.none()):
                        got_kind, got = fresh_batch.outcome(graph, args)
                else:
                    got_kind, got = fresh_batch.outcome(graph, args)
                if kind == "value" and got_kind == "value":
                    if not fresh_batch.same(expected, got):
                        rows.append(
                            (f.__name__, mode, k, "WRONG", "", f"{expected!r} vs {got!r}", "")
                        )
                    continue
                if kind == "raise" and got_kind == "raise" and isinstance(got, type(expected)):
                    continue
                if got_kind == "value":
                    rows.append(
                        (f.__name__, mode, k, "WRONG", "", f"eager raises {expected!r}", "")
                    )
                    continue
                frames = traceback.extract_tb(got.__traceback__)
                where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else ""
                if kind == "raise":
                    label = "RAISE-TYPE"
                elif isinstance(got, AutoconvError):
                    label = "ERROR"
                else:
                    label = "CRASH"
                rows.append((f.__name__, mode, k, label, type(got).__name__, str(got), where))
    return rows


rng = np.random.default_rng(3)
A4 = rng.normal(size=4)
A8 = rng.normal(size=8)
POS8 = rng.uniform(0.5, 2.0, 8)
SPD3 = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
M3 = rng.normal(size=(3, 3))
IMG = rng.uniform(0, 1, (5, 6))
E0 = np.zeros(0)
INTS = np.array([3, 1, 4, 1, 5, 9, 2, 6])


# ---------------------------------------------------------------- numerical methods


@prog((np.float64(2.0),), (np.float64(0.25),), (np.float64(100.0),))
def cube_root_newton(a):
    x = a if a > 1 else 1.0
    for it in range(50):
        fx = x * x * x - a
        if abs(fx) < 1e-12:
            break
        x = x - fx / (3 * x * x)
    return x, it


@prog((0.0, 2.0), (1.0, 3.0), (-1.0, 0.5))
def bisect_cos(lo, hi):
    f_lo = np.cos(lo) - lo
    f_hi = np.cos(hi) - hi
    if f_lo * f_hi > 0:
        return None
    while hi - lo > 1e-9:
        mid = 0.5 * (lo + hi)
        f_mid = np.cos(mid) - mid
        if f_lo * f_mid <= 0:
            hi = mid
        else:
            lo, f_lo = mid, f_mid
    return 0.5 * (lo + hi)


@prog(
    (np.float64(0.0), np.float64(1.0), 10),
    (np.float64(0.0), np.float64(np.pi), 4),
    (np.float64(1.0), np.float64(1.0), 6),
)
def simpson(a, b, n):
    if n % 2:
        n += 1
    h = (b - a) / n
    s = np.sin(a) + np.sin(b)
    for i in range(1, n):
        x = a + i * h
        s += (4 if i % 2 else 2) * np.sin(x)
    return s * h / 3


@prog(
    (np.array([0.0, 0.5, 1.0, 1.5]), np.array([1.0, 2.0, 0.5, 3.0])),
    (np.array([0.0, 1.0]), np.array([2.0, 2.0])),
    (E0, E0),
)
def trapezoid_manual(t, y):
    area = 0.0
    for k in range(1, len(t)):
        dt = t[k] - t[k - 1]
        area += 0.5 * dt * (y[k] + y[k - 1])
    return area


@prog(
    (SPD3, np.array([1.0, 2.0, 3.0])),
    (np.eye(3) * 2, np.ones(3)),
    (np.array([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]]), np.ones(3)),
)
def jacobi_solve(A, b):
    x = np.zeros_like(b)
    D = np.diag(A)
    R = A - np.diag(D)
    for sweep in range(200):
        x_new = (b - R @ x) / D
        if np.linalg.norm(x_new - x, ord=np.inf) < 1e-10:
            return x_new, sweep
        x = x_new
    return x, -1


@prog((SPD3, np.array([1.0, 0.0, 0.0])), (np.diag([1.0, 5.0, 2.0]), np.ones(3)))
def gauss_seidel(A, b):
    n = len(b)
    x = np.zeros(n)
    for _ in range(100):
        delta = 0.0
        for i in range(n):
            s = b[i]
            for j in range(n):
                if j != i:
                    s -= A[i, j] * x[j]
            new = s / A[i, i]
            delta = max(delta, abs(new - x[i]))
            x[i] = new
        if delta < 1e-12:
            break
    return x


@prog((SPD3,), (np.eye(3),), (np.array([[2.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),))
def power_iteration(A):
    v = np.ones(A.shape[0])
    lam = 0.0
    for _ in range(100):
        w = A @ v
        nrm = np.linalg.norm(w)
        if nrm == 0:
            return 0.0, v
        v = w / nrm
        new_lam = v @ A @ v
        if abs(new_lam - lam) < 1e-12:
            break
        lam = new_lam
    return lam, v


@prog((SPD3,), (np.array([[4.0, 2.0], [2.0, 3.0]]),), (np.array([[1.0, 2.0], [2.0, 1.0]]),))
def cholesky_manual(A):
    n = A.shape[0]
    L = np.zeros_like(A)
    for i in range(n):
        for j in range(i + 1):
            s = A[i, j]
            for k in range(j):
                s -= L[i, k] * L[j, k]
            if i == j:
                if s <= 0:
                    raise ValueError("matrix is not positive definite")
                L[i, j] = np.sqrt(s)
            else:
                L[i, j] = s / L[j, j]
    return L


@prog(
    (np.array([1.0, -6.0, 11.0, -6.0]), 0.0),
    (np.array([1.0, 0.0, -2.0]), 1.0),
    (np.array([1.0, 0.0, 1.0]), 0.0),
)
def poly_newton_root(coefs, x0):
    x = x0
    d = np.polyder(coefs) if False else coefs[:-1] * np.arange(len(coefs) - 1, 0, -1)
    for _ in range(40):
        fx = np.polyval(coefs, x)
        dfx = np.polyval(d, x)
        if dfx == 0:
            return None
        step = fx / dfx
        x = x - step
        if abs(step) < 1e-12:
            return x
    return x


@prog((np.float64(0.1),), (np.float64(1.0),), (np.float64(0.0),))
def euler_vs_rk4(h):
    def f(t, y):
        return -2.0 * y + t

    y_e = 1.0
    y_r = 1.0
    t = 0.0
    steps = 0
    while t < 1.0 - 1e-12 and h > 0:
        y_e = y_e + h * f(t, y_e)
        k1 = f(t, y_r)
        k2 = f(t + h / 2, y_r + h * k1 / 2)
        k3 = f(t + h / 2, y_r + h * k2 / 2)
        k4 = f(t + h, y_r + h * k3)
        y_r = y_r + h * (k1 + 2 * k2 + 2 * k3 + k4) / 6
        t += h
        steps += 1
    return y_e, y_r, steps


@prog(
    (np.array([0.0, 1.0, 2.0, 3.0]), np.array([1.0, 3.0, 2.0, 5.0]), 1.5),
    (np.array([0.0, 1.0]), np.array([0.0, 10.0]), 5.0),
    (np.array([0.0, 1.0, 2.0]), np.array([1.0, 1.0, 1.0]), -1.0),
)
def lerp_lookup(xs, ys, q):
    if q <= xs[0]:
        return ys[0]
    for i in range(1, len(xs)):
        if q <= xs[i]:
            w = (q - xs[i - 1]) / (xs[i] - xs[i - 1])
            return ys[i - 1] * (1 - w) + ys[i] * w
    return ys[-1]


@prog((np.array([1.0, 2.0, 4.0, 7.0]),), (np.array([5.0]),), (E0,))
def finite_diff_table(y):
    table = [y.copy()]
    cur = y
    while len(cur) > 1:
        cur = cur[1:] - cur[:-1]
        table.append(cur)
    return [t.sum() for t in table]


@prog((M3,), (np.eye(3),), (np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [4.0, -3.0, 8.0]]),))
def det_by_elimination(A):
    A = A.astype(float)
    n = A.shape[0]
    det = 1.0
    for k in range(n):
        p = k + np.argmax(np.abs(A[k:, k]))
        if A[p, k] == 0:
            return 0.0
        if p != k:
            A[[k, p]] = A[[p, k]]
            det = -det
        det *= A[k, k]
        for i in range(k + 1, n):
            A[i] -= A[i, k] / A[k, k] * A[k]
    return det


@prog((np.float64(1.0),), (np.float64(30.0),), (np.float64(-2.0),))
def exp_taylor(x):
    term = 1.0
    total = 1.0
    n = 0
    while abs(term) > 1e-15 * abs(total):
        n += 1
        term *= x / n
        total += term
        if n > 200:
            raise RuntimeError("series did not converge")
    return total, n


@prog((np.array([3.0, 1.0, 2.0]),), (np.array([1.0, 1.0]),), (np.array([5.0]),))
def golden_section_min(c):
    def f(x):
        return np.sum((x - c) ** 2)

    a, b = float(np.min(c)) - 1, float(np.max(c)) + 1
    g = (math.sqrt(5) - 1) / 2
    while b - a > 1e-6:
        x1 = b - g * (b - a)
        x2 = a + g * (b - a)
        if f(x1) < f(x2):
            b = x2
        else:
            a = x1
    return (a + b) / 2


@prog((np.array([1.0, 2.0, 3.0, 4.0]),), (np.array([2.0, 2.0]),), (np.array([0.0, 1.0]),))
def horner_eval(c):
    results = []
    for x in (0.5, 1.0, 2.0):
        acc = 0.0
        for coef in c:
            acc = acc * x + coef
        results.append(acc)
    return results


@prog((np.float64(0.3),), (np.float64(0.0),), (np.float64(1.5),))
def fixed_point_cos(x0):
    x = x0
    history = []
    for _ in range(100):
        nx = np.cos(x)
        history.append(nx)
        if abs(nx - x) < 1e-8:
            break
        x = nx
    return x, len(history)


@prog((np.array([4.0, -2.0, 1.0]),), (np.array([1.0, 0.0, 0.0]),), (np.array([0.0, 0.0, 0.0]),))
def gram_schmidt(v0):
    basis = [v0]
    basis.append(np.array([1.0, 1.0, 0.0]))
    basis.append(np.array([0.0, 1.0, 1.0]))
    out = []
    for v in basis:
        w = v.copy()
        for q in out:
            w = w - (q @ v) * q
        n = np.linalg.norm(w)
        if n < 1e-10:
            continue
        out.append(w / n)
    return np.array(out)


@prog(
    (np.array([1.0, 2.0, 3.0]), np.array([2.0, 4.0, 6.5])),
    (np.array([1.0, 1.0]), np.array([1.0, 2.0])),
    (np.array([0.0, 1.0, 2.0, 3.0]), np.array([1.0, 3.0, 5.0, 7.0])),
)
def least_squares_line(x, y):
    n = len(x)
    sx = sy = sxx = sxy = 0.0
    for xi, yi in zip(x, y):
        sx += xi
        sy += yi
        sxx += xi * xi
        sxy += xi * yi
    den = n * sxx - sx * sx
    if den == 0:
        return None, None
    slope = (n * sxy - sx * sy) / den
    return slope, (sy - slope * sx) / n


@prog((np.array([0.2, 0.5, 0.9]),), (np.array([0.0]),), (np.array([1.2, -0.3]),))
def log1p_series(x):
    out = np.empty_like(x)
    for i, v in enumerate(x):
        if abs(v) >= 1:
            out[i] = np.log1p(v)
            continue
        s, term, k = 0.0, v, 1
        while abs(term) > 1e-14:
            s += term / k
            k += 1
            term *= -v
        out[i] = s
    return out


# ---------------------------------------------------------------- signal processing


@prog((A8, 3), (A8, 1), (np.array([1.0, 2.0]), 5))
def moving_median(x, w):
    out = []
    for i in range(len(x) - w + 1):
        out.append(np.median(x[i : i + w]))
    return np.array(out)


@prog((A8, 0.5), (A8, 5.0), (E0, 0.1))
def schmitt_trigger(x, hyst):
    state = False
    flips = 0
    levels = []
    for v in x:
        if not state and v > hyst:
            state = True
            flips += 1
        elif state and v < -hyst:
            state = False
            flips += 1
        levels.append(1.0 if state else 0.0)
    return flips, levels


@prog((np.array([0.0, 1.0, 0.0, -1.0, 0.0, 1.0]),), (np.ones(4),), (np.array([2.0]),))
def zero_crossing_rate(sig):
    if len(sig) < 2:
        return 0.0
    crossings = 0
    for a, b in zip(sig[:-1], sig[1:]):
        if (a >= 0) != (b >= 0):
            crossings += 1
    return crossings / (len(sig) - 1)


@prog((A8, np.array([0.25, 0.5, 0.25])), (A8, np.array([1.0])), (np.array([1.0, 2.0]), np.ones(3)))
def fir_filter(x, h):
    y = np.zeros(len(x))
    for n in range(len(x)):
        acc = 0.0
        for k in range(len(h)):
            if n - k < 0:
                break
            acc += h[k] * x[n - k]
        y[n] = acc
    return y


@prog((A8, 0.9), (A8, 0.0), (E0, 0.5))
def iir_lowpass(x, a):
    y = np.empty_like(x)
    prev = 0.0
    for i in range(x.size):
        prev = a * prev + (1 - a) * x[i]
        y[i] = prev
    return y


@prog(
    (np.array([0.1, 0.9, 0.3, 1.2, 0.2, 0.8, 0.1]), 0.5),
    (A8, 10.0),
    (np.array([1.0, 2.0, 3.0]), 0.0),
)
def peak_finder(x, thresh):
    peaks = []
    for i in range(1, len(x) - 1):
        if x[i] > thresh and x[i] > x[i - 1] and x[i] >= x[i + 1]:
            peaks.append(i)
    return peaks


@prog((A8,), (np.ones(4),), (np.zeros(3),))
def normalize_energy(x):
    energy = 0.0
    for v in x:
        energy += v**2
    if energy == 0:
        return x
    return x / np.sqrt(energy)


@prog((np.array([1.0, 2.0, 3.0, 4.0]),), (np.array([1.0, -1.0]),), (np.array([5.0]),))
def dft_manual(x):
    n = len(x)
    re = np.zeros(n)
    im = np.zeros(n)
    for k in range(n):
        for t in range(n):
            ang = -2 * np.pi * k * t / n
            re[k] += x[t] * np.cos(ang)
            im[k] += x[t] * np.sin(ang)
    return np.sqrt(re**2 + im**2)


@prog((A8, 2), (A8, 3), (np.arange(5.0), 1))
def decimate(x, factor):
    kept = x[::factor]
    total = 0.0
    for i, v in enumerate(kept):
        total += v * (-1) ** i
    return kept, total


@prog((A8, 0.3), (np.zeros(5), 0.1), (np.array([1.0, 1.0, 5.0, 1.0]), 1.0))
def debounce(x, tol):
    out = [x[0]] if len(x) else []
    last = x[0] if len(x) else None
    for v in x[1:]:
        if abs(v - last) > tol:
            out.append(v)
            last = v
    return out


@prog((np.array([1.0, 3.0, 2.0, 5.0, 4.0]),), (np.ones(3),), (np.array([2.0, 1.0]),))
def envelope_follower(x):
    env = np.zeros_like(x)
    level = x[0]
    for i in range(len(x)):
        if x[i] > level:
            level = x[i]
        else:
            level = 0.8 * level + 0.2 * x[i]
        env[i] = level
    return env


@prog((A8, A8[::-1].copy()), (np.ones(3), np.array([1.0, 0.0, -1.0])), (E0, E0))
def cross_correlation_lag0(a, b):
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {a.shape} vs {b.shape}")
    num = 0.0
    da = db = 0.0
    for u, v in zip(a, b):
        num += u * v
        da += u * u
        db += v * v
    if da == 0 or db == 0:
        return float("nan")
    return num / np.sqrt(da * db)


@prog((np.array([0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0]),), (np.zeros(4),), (np.ones(3),))
def pulse_widths(bits):
    widths = []
    run = 0
    for b in bits:
        if b > 0.5:
            run += 1
        elif run:
            widths.append(run)
            run = 0
    if run:
        widths.append(run)
    return widths


@prog((A8,), (np.array([1.0, 1.0, 1.0]),), (np.array([0.0]),))
def clip_and_count(x):
    y = x.copy()
    clipped = 0
    for i in range(len(y)):
        if y[i] > 1.0:
            y[i] = 1.0
            clipped += 1
        elif y[i] < -1.0:
            y[i] = -1.0
            clipped += 1
    return y, clipped


@prog(
    (np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), 2),
    (np.array([1.0, 2.0, 3.0]), 3),
    (np.arange(4.0), 4),
)
def frame_rms(x, hop):
    frames = []
    start = 0
    while start + hop <= len(x):
        seg = x[start : start + hop]
        frames.append(np.sqrt(np.mean(seg**2)))
        start += hop
    return frames


# ---------------------------------------------------------------- statistics


@prog((A8,), (np.array([2.0, 2.0, 2.0]),), (np.array([1.0]),))
def welford(x):
    n = 0
    mean = 0.0
    m2 = 0.0
    for v in x:
        n += 1
        d = v - mean
        mean += d / n
        m2 += d * (v - mean)
    var = m2 / (n - 1) if n > 1 else float("nan")
    return mean, var


@prog((A8,), (np.array([1.0, 2.0, 3.0, 4.0]),), (E0,))
def median_manual(x):
    if len(x) == 0:
        raise ValueError("median of empty data")
    s = np.sort(x)
    mid = len(s) // 2
    if len(s) % 2:
        return s[mid]
    return (s[mid - 1] + s[mid]) / 2


@prog((INTS,), (np.array([7, 7, 7]),), (np.array([1, 2]),))
def mode_counts(x):
    counts = {}
    for v in x.tolist():
        counts[v] = counts.get(v, 0) + 1
    best = None
    for k, c in counts.items():
        if best is None or c > counts[best]:
            best = k
    return best


@prog((A8, 1.5), (np.array([1.0, 1.0, 1.0, 50.0]), 1.0), (np.zeros(3), 2.0))
def zscore_outliers(x, k):
    mu = np.mean(x)
    sd = np.std(x)
    idx = []
    for i in range(len(x)):
        z = 0.0 if sd == 0 else (x[i] - mu) / sd
        if abs(z) > k:
            idx.append(i)
    return idx


@prog(
    (A8, A8 * 2 + 1),
    (np.array([1.0, 2.0, 3.0]), np.array([3.0, 2.0, 1.0])),
    (np.ones(3), np.arange(3.0)),
)
def pearson(x, y):
    mx, my = x.mean(), y.mean()
    sxy = sxx = syy = 0.0
    for a, b in zip(x, y):
        sxy += (a - mx) * (b - my)
        sxx += (a - mx) ** 2
        syy += (b - my) ** 2
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


@prog((A8, 4), (A8, 2), (np.array([0.5]), 3))
def histogram_manual(x, nbins):
    lo, hi = x.min(), x.max()
    counts = np.zeros(nbins, dtype=int)
    width = (hi - lo) / nbins
    for v in x:
        if width == 0:
            b = 0
        else:
            b = int((v - lo) / width)
            if b == nbins:
                b -= 1
        counts[b] += 1
    return counts


@prog((np.array([0.1, 0.4, 0.35, 0.8]),), (np.ones(2),), (np.array([0.3]),))
def ecdf_at_points(x):
    s = np.sort(x)
    pts = [0.0, 0.5, 1.0]
    res = []
    for p in pts:
        k = 0
        while k < len(s) and s[k] <= p:
            k += 1
        res.append(k / len(s))
    return res


@prog((A8, 0.2), (A8, 0.0), (np.arange(5.0), 0.4))
def trimmed_mean(x, frac):
    s = np.sort(x)
    k = int(frac * len(s))
    core = s[k : len(s) - k]
    if core.size == 0:
        return np.nan
    return core.mean()


@prog((np.array([1.0, 2.0, 4.0, 8.0]),), (np.array([1.0, 0.0]),), (np.array([-1.0, 2.0]),))
def geometric_mean(x):
    log_sum = 0.0
    for v in x:
        if v <= 0:
            return 0.0 if v == 0 else None
        log_sum += np.log(v)
    return np.exp(log_sum / len(x))


@prog((rng.integers(0, 2, 12),), (np.zeros(5, dtype=int),), (np.array([1, 1, 0, 1]),))
def longest_success_run(flips):
    best = cur = 0
    for f in flips:
        cur = cur + 1 if f == 1 else 0
        best = max(best, cur)
    return best


@prog((A8, 200), (A8, 50), (np.ones(3), 10))
def bootstrap_mean(x, reps):
    g = np.random.default_rng(1)
    means = np.empty(reps)
    for r in range(reps):
        idx = g.integers(0, len(x), len(x))
        means[r] = x[idx].mean()
    return np.percentile(means, [5, 95])


@prog((np.array([[1.0, 2.0], [2.0, 4.1], [3.0, 6.2]]),), (np.array([[0.0, 0.0], [1.0, 1.0]]),))
def covariance_loop(data):
    n, d = data.shape
    mu = data.mean(axis=0)
    cov = np.zeros((d, d))
    for row in data:
        diff = row - mu
        cov += np.outer(diff, diff)
    return cov / (n - 1)


@prog((np.array([3, 1, 2, 3, 3, 0]),), (np.array([0, 0]),), (np.array([5]),))
def frequency_table(labels):
    table = np.zeros(labels.max() + 1, dtype=np.int64)
    for lab in labels:
        table[lab] += 1
    return table, table.argmax()


@prog((A8,), (np.array([5.0, 4.0, 3.0]),), (np.array([1.0, 2.0, 3.0]),))
def kendall_discordant(x):
    n = len(x)
    disc = 0
    for i in range(n):
        for j in range(i + 1, n):
            if x[i] > x[j]:
                disc += 1
    return disc, disc / max(1, n * (n - 1) // 2)


@prog((A8, 0.5), (A8, 0.0), (np.array([2.0, 2.0]), 1.0))
def ewma_variance(x, lam):
    var = None
    mean = None
    for v in x:
        if mean is None:
            mean, var = v, 0.0
            continue
        d = v - mean
        mean = mean + (1 - lam) * d
        var = lam * (var + (1 - lam) * d * d)
    return mean, var


# ---------------------------------------------------------------- simulations


@prog(
    (np.float64(10.0), np.float64(0.0)),
    (np.float64(0.0), np.float64(5.0)),
    (np.float64(1.0), np.float64(-1.0)),
)
def projectile_bounces(h0, v0):
    h, v = h0, v0
    dt = 0.01
    bounces = 0
    t = 0.0
    while bounces < 3 and t < 20.0:
        v -= 9.81 * dt
        h += v * dt
        if h < 0:
            h = -h
            v = -0.8 * v
            bounces += 1
        t += dt
    return bounces, round(t, 2)


@prog(
    (np.array([0.0, 1.0]), np.array([1.0, 0.0]), 50),
    (np.zeros(2), np.zeros(2), 10),
    (np.array([1.0, 1.0]), np.array([0.0, 0.5]), 0),
)
def orbit_euler(pos, vel, steps):
    p = pos.copy()
    v = vel.copy()
    energies = []
    for _ in range(steps):
        r = np.linalg.norm(p)
        if r < 1e-6:
            break
        a = -p / r**3
        v = v + 0.01 * a
        p = p + 0.01 * v
        energies.append(0.5 * v @ v - 1 / r)
    return p, len(energies)


@prog((np.float64(0.3), 20), (np.float64(3.9), 30), (np.float64(0.0), 5))
def logistic_map(r_scale, n):
    x = 0.5
    seen = []
    for i in range(n):
        x = r_scale * x * (1 - x)
        if x < 1e-9:
            return i, seen
        seen.append(x)
    return n, seen[-3:]


@prog(
    (np.array([100.0, 5.0]), 0.3, 0.1, 40),
    (np.array([50.0, 0.0]), 0.5, 0.2, 10),
    (np.array([10.0, 10.0]), 0.0, 0.0, 3),
)
def sir_model(state, beta, gamma, days):
    s, i = state
    r = 0.0
    n = s + i
    peak_day, peak = 0, i
    for day in range(days):
        new_inf = beta * s * i / n
        new_rec = gamma * i
        s -= new_inf
        i += new_inf - new_rec
        r += new_rec
        if i > peak:
            peak, peak_day = i, day
    return peak_day, round(float(peak), 6), s + i + r


@prog((5, 0.5, 7), (3, 0.0, 1), (0, 0.5, 2))
def random_walk_hits(n_walks, p_right, seed):
    g = np.random.default_rng(seed)
    hits = 0
    lengths = []
    for w in range(n_walks):
        pos = 0
        steps = 0
        while abs(pos) < 3 and steps < 100:
            pos += 1 if g.random() < p_right else -1
            steps += 1
        if pos >= 3:
            hits += 1
        lengths.append(steps)
    return hits, lengths


@prog(
    (np.array([1.0, 0.0, 0.0, 0.0, 0.0]), 0.4, 30),
    (np.zeros(4), 0.1, 5),
    (np.array([0.0, 10.0, 0.0]), 0.25, 2),
)
def heat_1d(u0, alpha, steps):
    u = u0.copy()
    for _ in range(steps):
        new = u.copy()
        for i in range(1, len(u) - 1):
            new[i] = u[i] + alpha * (u[i - 1] - 2 * u[i] + u[i + 1])
        u = new
    return u


@prog(
    (np.float64(1.0), np.float64(0.0), 0.1),
    (np.float64(0.0), np.float64(0.0), 0.2),
    (np.float64(0.5), np.float64(1.0), 0.05),
)
def pendulum_leapfrog(theta0, omega0, dt):
    th, om = theta0, omega0
    max_th = abs(th)
    for _ in range(100):
        om -= 0.5 * dt * np.sin(th)
        th += dt * om
        om -= 0.5 * dt * np.sin(th)
        max_th = max(max_th, abs(th))
    return th, om, max_th


@prog((np.array([10, 0, 0]), 20), (np.array([0, 0, 5]), 3), (np.array([1, 1, 1]), 0))
def queue_sim(arrivals, ticks):
    queue = 0
    served = 0
    waits = []
    for t in range(ticks):
        queue += int(arrivals[t % len(arrivals)])
        if queue > 0:
            queue -= 1
            served += 1
            waits.append(queue)
    avg = sum(waits) / len(waits) if waits else 0.0
    return served, queue, avg


@prog(
    (np.array([[0.9, 0.1], [0.5, 0.5]]), 10),
    (np.eye(2), 4),
    (np.array([[0.0, 1.0], [1.0, 0.0]]), 3),
)
def markov_steady(T, n):
    p = np.array([1.0, 0.0])
    for k in range(n):
        q = p @ T
        if np.allclose(q, p):
            return q, k
        p = q
    return p, n


@prog((np.array([3.0, 1.0, 2.0]), 5), (np.array([0.0, 0.0]), 2), (np.array([1.0]), 0))
def particle_decay(masses, steps):
    alive = [True] * len(masses)
    m = masses.copy()
    for _ in range(steps):
        for i in range(len(m)):
            if not alive[i]:
                continue
            m[i] *= 0.5
            if m[i] < 0.2:
                alive[i] = False
    return m, sum(alive)


@prog(
    (np.array([0.0, 0.0]), np.array([1.0, 2.0]), 10),
    (np.array([5.0, 5.0]), np.array([0.0, 0.0]), 4),
    (np.array([0.0, 9.5]), np.array([0.5, 1.0]), 3),
)
def box_bounce(pos, vel, steps):
    p, v = pos.astype(float), vel.astype(float)
    for _ in range(steps):
        p += v
        for d in range(2):
            if p[d] < 0 or p[d] > 10:
                v[d] = -v[d]
                p[d] = min(max(p[d], 0.0), 10.0)
    return p, v


@prog((np.float64(100.0), 0.05, 12), (np.float64(0.0), 0.1, 3), (np.float64(50.0), -0.2, 5))
def population_capped(p0, rate, years):
    pop = p0
    log = []
    for y in range(years):
        pop = pop * (1 + rate)
        if pop > 150:
            pop = 150.0
            log.append(("cap", y))
        elif pop < 10:
            log.append(("low", y))
            break
    return pop, len(log)


@prog(
    (rng.uniform(0, 1, (6, 2)), 0.3),
    (np.zeros((3, 2)), 0.1),
    (np.array([[0.0, 0.0], [1.0, 1.0]]), 0.5),
)
def count_close_pairs(pts, radius):
    n = len(pts)
    close = 0
    nearest = np.full(n, np.inf)
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            d = np.hypot(*(pts[i] - pts[j]))
            if d < nearest[i]:
                nearest[i] = d
            if j > i and d < radius:
                close += 1
    return close, nearest


# ---------------------------------------------------------------- graph algorithms on arrays


ADJ = np.array(
    [[0, 1, 1, 0, 0], [1, 0, 0, 1, 0], [1, 0, 0, 1, 0], [0, 1, 1, 0, 1], [0, 0, 0, 1, 0]]
)
WG = np.array(
    [[0.0, 4.0, 1.0, 0.0], [4.0, 0.0, 2.0, 5.0], [1.0, 2.0, 0.0, 8.0], [0.0, 5.0, 8.0, 0.0]]
)


@prog((ADJ, 0), (ADJ, 4), (np.zeros((3, 3), dtype=int), 1))
def bfs_levels(adj, start):
    n = adj.shape[0]
    level = np.full(n, -1)
    level[start] = 0
    frontier = [start]
    while frontier:
        nxt = []
        for u in frontier:
            for v in range(n):
                if adj[u, v] and level[v] < 0:
                    level[v] = level[u] + 1
                    nxt.append(v)
        frontier = nxt
    return level


@prog((WG, 0), (WG, 3), (np.array([[0.0, 0.0], [0.0, 0.0]]), 0))
def dijkstra_dense(w, src):
    n = w.shape[0]
    dist = np.full(n, np.inf)
    dist[src] = 0.0
    done = np.zeros(n, dtype=bool)
    for _ in range(n):
        u = -1
        best = np.inf
        for i in range(n):
            if not done[i] and dist[i] < best:
                best = dist[i]
                u = i
        if u == -1:
            break
        done[u] = True
        for v in range(n):
            if w[u, v] > 0 and dist[u] + w[u, v] < dist[v]:
                dist[v] = dist[u] + w[u, v]
    return dist


@prog((ADJ,), (np.zeros((4, 4), dtype=int),), (np.ones((2, 2), dtype=int) - np.eye(2, dtype=int),))
def connected_components(adj):
    n = len(adj)
    comp = [-1] * n
    c = 0
    for s in range(n):
        if comp[s] != -1:
            continue
        stack = [s]
        comp[s] = c
        while stack:
            u = stack.pop()
            for v in range(n):
                if adj[u][v] and comp[v] == -1:
                    comp[v] = c
                    stack.append(v)
        c += 1
    return c, comp


@prog((ADJ,), (np.zeros((3, 3), dtype=int),), (np.ones((3, 3), dtype=int),))
def degree_stats(adj):
    deg = adj.sum(axis=1)
    hubs = []
    isolated = 0
    for node, d in enumerate(deg):
        if d == 0:
            isolated += 1
        elif d >= 2:
            hubs.append(node)
    return hubs, isolated, deg.max()


@prog((WG,), (np.zeros((3, 3)),), (np.array([[0.0, 1.0], [1.0, 0.0]]),))
def prim_mst_weight(w):
    n = w.shape[0]
    in_tree = np.zeros(n, dtype=bool)
    in_tree[0] = True
    total = 0.0
    edges = []
    for _ in range(n - 1):
        best = None
        for i in range(n):
            if not in_tree[i]:
                continue
            for j in range(n):
                if in_tree[j] or w[i, j] == 0:
                    continue
                if best is None or w[i, j] < best[0]:
                    best = (w[i, j], i, j)
        if best is None:
            return None
        wt, i, j = best
        in_tree[j] = True
        total += wt
        edges.append((i, j))
    return total, edges


@prog((WG,), (np.array([[0.0, 3.0], [3.0, 0.0]]),), (np.zeros((3, 3)),))
def floyd_warshall_inf(w):
    n = w.shape[0]
    d = np.where(w > 0, w, np.inf)
    for i in range(n):
        d[i, i] = 0.0
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if d[i, k] + d[k, j] < d[i, j]:
                    d[i, j] = d[i, k] + d[k, j]
    return d


@prog(
    (np.array([[0, 1, 0], [0, 0, 1], [0, 0, 0]]),),
    (np.array([[0, 1], [1, 0]]),),
    (np.zeros((3, 3), dtype=int),),
)
def topo_sort_kahn(adj):
    n = adj.shape[0]
    indeg = adj.sum(axis=0).copy()
    order = []
    ready = [i for i in range(n) if indeg[i] == 0]
    while ready:
        u = ready.pop(0)
        order.append(u)
        for v in range(n):
            if adj[u, v]:
                indeg[v] -= 1
                if indeg[v] == 0:
                    ready.append(v)
    if len(order) < n:
        raise ValueError("graph has a cycle")
    return order


@prog(
    (np.array([[0.0, 0.5, 0.5], [1.0, 0.0, 0.0], [0.5, 0.5, 0.0]]), 0.85),
    (np.eye(3), 0.5),
    (np.full((2, 2), 0.5), 0.9),
)
def pagerank(T, damping):
    n = T.shape[0]
    r = np.full(n, 1.0 / n)
    it = 0
    while True:
        new = (1 - damping) / n + damping * (T.T @ r)
        it += 1
        if np.abs(new - r).sum() < 1e-10 or it >= 500:
            break
        r = new
    return new, it


@prog((ADJ,), (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]),), (np.zeros((2, 2), dtype=int),))
def triangle_count(adj):
    n = len(adj)
    tri = 0
    for i in range(n):
        for j in range(i + 1, n):
            if not adj[i, j]:
                continue
            for k in range(j + 1, n):
                if adj[j, k] and adj[i, k]:
                    tri += 1
    return tri


@prog(
    (np.array([[1, 2], [2, 3], [3, 1], [4, 5]]), 6),
    (np.array([[0, 1]]), 2),
    (np.zeros((0, 2), dtype=int), 3),
)
def union_find(edges, n):
    parent = list(range(n))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    merges = 0
    for u, v in edges:
        ru, rv = find(int(u)), find(int(v))
        if ru != rv:
            parent[ru] = rv
            merges += 1
    return n - merges


@prog((ADJ, 0, 4), (ADJ, 2, 2), (np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]]), 0, 2))
def has_path_dfs(adj, s, t):
    seen = set()
    stack = [s]
    while stack:
        u = stack.pop()
        if u == t:
            return True
        if u in seen:
            continue
        seen.add(u)
        for v in np.nonzero(adj[u])[0]:
            stack.append(int(v))
    return False


@prog(
    (np.array([[0, 1, 0, 0], [0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 1, 0]]),),
    (np.zeros((2, 2), dtype=int),),
)
def reachability_matrix(adj):
    n = adj.shape[0]
    reach = adj.astype(bool) | np.eye(n, dtype=bool)
    changed = True
    rounds = 0
    while changed:
        changed = False
        rounds += 1
        new = reach.copy()
        for i in range(n):
            for j in range(n):
                if not new[i, j] and np.any(reach[i] & reach[:, j]):
                    new[i, j] = True
                    changed = True
        reach = new
    return reach, rounds


# ---------------------------------------------------------------- dynamic programming


@prog((np.array([1, 2, 5]), 11), (np.array([2]), 3), (np.array([3, 7]), 0))
def coin_change_min(coins, amount):
    INF = amount + 1
    dp = np.full(amount + 1, INF)
    dp[0] = 0
    for a in range(1, amount + 1):
        for c in coins:
            if c <= a and dp[a - c] + 1 < dp[a]:
                dp[a] = dp[a - c] + 1
    return -1 if dp[amount] > amount else int(dp[amount])


@prog((np.array([10, 9, 2, 5, 3, 7, 101, 18]),), (np.array([5, 4, 3]),), (np.zeros(0, dtype=int),))
def longest_increasing(x):
    n = len(x)
    if n == 0:
        return 0
    best = np.ones(n, dtype=int)
    for i in range(1, n):
        for j in range(i):
            if x[j] < x[i] and best[j] + 1 > best[i]:
                best[i] = best[j] + 1
    return int(best.max())


@prog(
    (np.array([2.0, 3.0, 4.0, 5.0]), np.array([3.0, 4.0, 5.0, 6.0]), 5),
    (np.array([1.0]), np.array([10.0]), 0),
    (np.array([4.0, 4.0]), np.array([1.0, 2.0]), 8),
)
def knapsack_01(weights, values, cap):
    table = np.zeros((len(weights) + 1, cap + 1))
    for i in range(1, len(weights) + 1):
        w = int(weights[i - 1])
        for c in range(cap + 1):
            table[i, c] = table[i - 1, c]
            if w <= c:
                cand = table[i - 1, c - w] + values[i - 1]
                if cand > table[i, c]:
                    table[i, c] = cand
    return table[-1, -1]


@prog(
    (np.array([[1.0, 3.0, 1.0], [1.0, 5.0, 1.0], [4.0, 2.0, 1.0]]),),
    (np.array([[7.0]]),),
    (np.ones((2, 3)),),
)
def min_path_grid(cost):
    r, c = cost.shape
    acc = cost.copy()
    for i in range(r):
        for j in range(c):
            if i == 0 and j == 0:
                continue
            up = acc[i - 1, j] if i > 0 else np.inf
            left = acc[i, j - 1] if j > 0 else np.inf
            acc[i, j] += min(up, left)
    return acc[-1, -1]


@prog(
    (np.array([1, 2, 3, 2, 1]), np.array([3, 2, 1, 4, 7])),
    (np.array([1, 1]), np.array([2, 2])),
    (np.zeros(0, dtype=int), np.array([1])),
)
def lcs_table(a, b):
    m, n = len(a), len(b)
    L = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(m):
        for j in range(n):
            if a[i] == b[j]:
                L[i + 1][j + 1] = L[i][j] + 1
            else:
                L[i + 1][j + 1] = max(L[i][j + 1], L[i + 1][j])
    return L[m][n]


@prog((np.array([2.0, -1.0, 2.0, -3.0, 4.0, -1.0]),), (np.array([-2.0, -3.0]),), (np.array([5.0]),))
def max_subarray_bounds(x):
    best = x[0]
    cur = 0.0
    start = best_start = best_end = 0
    for i, v in enumerate(x):
        if cur <= 0:
            cur = v
            start = i
        else:
            cur += v
        if cur > best:
            best = cur
            best_start, best_end = start, i
    return best, best_start, best_end


@prog((np.array([1, 5, 8, 9, 10, 17, 17, 20]), 8), (np.array([3, 5]), 2), (np.array([1]), 0))
def rod_cutting(prices, n):
    best = [0] * (n + 1)
    for length in range(1, n + 1):
        top = -1
        for cut in range(1, min(length, len(prices)) + 1):
            val = prices[cut - 1] + best[length - cut]
            if val > top:
                top = val
        best[length] = top
    return best[n]


@prog((np.array([2, 7, 9, 3, 1]),), (np.array([5]),), (np.zeros(0, dtype=int),))
def house_robber(vals):
    take, skip = 0, 0
    for v in vals:
        take, skip = skip + v, max(take, skip)
    return max(take, skip)


@prog((8,), (1,), (0,))
def stair_ways(n):
    if n <= 1:
        return 1
    ways = np.zeros(n + 1, dtype=np.int64)
    ways[0] = ways[1] = 1
    for i in range(2, n + 1):
        ways[i] = ways[i - 1] + ways[i - 2]
    return ways[n]


@prog((np.array([3, 34, 4, 12, 5, 2]), 9), (np.array([1, 2]), 4), (np.array([7]), 0))
def subset_sum(vals, target):
    can = np.zeros(target + 1, dtype=bool)
    can[0] = True
    for v in vals:
        for s in range(target, v - 1, -1):
            if can[s - v]:
                can[s] = True
    return bool(can[target])


@prog(
    (np.array([1.0, 3.0, 2.0, 4.0]), np.array([2.0, 1.0, 3.0])),
    (np.array([1.0]), np.array([1.0])),
    (E0, np.array([2.0])),
)
def dtw_distance(a, b):
    n, m = len(a), len(b)
    D = np.full((n + 1, m + 1), np.inf)
    D[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = abs(a[i - 1] - b[j - 1])
            D[i, j] = cost + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])
    return D[n, m]


@prog((np.array([7.0, 1.0, 5.0, 3.0, 6.0, 4.0]),), (np.array([5.0, 4.0, 1.0]),), (np.array([2.0]),))
def best_trade(prices):
    lowest = None
    best = 0.0
    buy_day = sell_day = None
    for day, p in enumerate(prices):
        if lowest is None or p < lowest[0]:
            lowest = (p, day)
        elif p - lowest[0] > best:
            best = p - lowest[0]
            buy_day, sell_day = lowest[1], day
    return best, buy_day, sell_day


@prog(
    (np.array([[3.0, 0.0, 0.0], [2.0, 7.0, 0.0], [8.0, 4.0, 6.0]]),),
    (np.array([[5.0]]),),
    (np.array([[1.0, 0.0], [-2.0, -3.0]]),),
)
def triangle_max_path(tri):
    n = tri.shape[0]
    best = tri[n - 1].copy()
    for r in range(n - 2, -1, -1):
        for c in range(r + 1):
            best[c] = tri[r, c] + max(best[c], best[c + 1])
    return best[0]


# ---------------------------------------------------------------- games


@prog(
    (np.array([[1, 1, 1], [0, -1, 0], [-1, 0, 0]]),),
    (np.array([[1, -1, 1], [-1, 1, -1], [-1, 1, -1]]),),
    (np.zeros((3, 3), dtype=int),),
)
def tictactoe_winner(board):
    lines = []
    for i in range(3):
        lines.append(board[i, :])
        lines.append(board[:, i])
    lines.append(np.diag(board))
    lines.append(np.diag(np.fliplr(board)))
    for line in lines:
        s = line.sum()
        if s == 3:
            return "X"
        if s == -3:
            return "O"
    return "draw" if np.all(board != 0) else None


@prog((np.array([2, 2, 4, 0]),), (np.array([0, 0, 0, 2]),), (np.array([2, 4, 8, 16]),))
def merge_2048_row(row):
    tiles = [v for v in row if v != 0]
    out = []
    score = 0
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(tiles[i] * 2)
            score += tiles[i] * 2
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    out += [0] * (len(row) - len(out))
    return np.array(out), score


@prog((np.array([6, 3, 5, 2]),), (np.array([1, 1, 1]),), (np.zeros(0, dtype=int),))
def dice_game_score(rolls):
    score = 0
    streak = 0
    for r in rolls:
        if r == 6:
            streak += 1
            score += 6 * streak
        elif r == 1:
            score = max(0, score - 5)
            streak = 0
        else:
            score += r
            streak = 0
    return score


@prog(
    (np.array([[0, 0, 0, 0], [1, 1, 1, 0], [0, 0, 0, 0], [0, 1, 1, 1]]),),
    (np.zeros((3, 3), dtype=int),),
    (np.array([[0, 1], [1, 0]]),),
)
def maze_flood(grid):
    h, w = grid.shape
    dist = -np.ones((h, w), dtype=int)
    dist[0, 0] = 0
    queue = [(0, 0)]
    while queue:
        r, c = queue.pop(0)
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < h and 0 <= nc < w and grid[nr, nc] == 0 and dist[nr, nc] < 0:
                dist[nr, nc] = dist[r, c] + 1
                queue.append((nr, nc))
    return dist[h - 1, w - 1]


@prog(
    (np.array([[1, 0, 1], [0, 1, 0], [1, 0, 1]]),),
    (np.zeros((2, 2), dtype=int),),
    (np.ones((3, 3), dtype=int),),
)
def life_generations(board):
    b = board.copy()
    history = [b.sum()]
    for gen in range(4):
        nb = np.zeros_like(b)
        for i in range(b.shape[0]):
            for j in range(b.shape[1]):
                live = b[max(i - 1, 0) : i + 2, max(j - 1, 0) : j + 2].sum() - b[i, j]
                if b[i, j] == 1 and live in (2, 3):
                    nb[i, j] = 1
                elif b[i, j] == 0 and live == 3:
                    nb[i, j] = 1
        if np.array_equal(nb, b):
            break
        b = nb
        history.append(b.sum())
    return b, history


@prog((np.array([3, 4, 5]),), (np.array([1]),), (np.array([0, 0]),))
def nim_winner(heaps):
    x = 0
    for h in heaps:
        x ^= int(h)
    if x == 0:
        return "second", None
    for i, h in enumerate(heaps):
        target = h ^ x
        if target < h:
            return "first", (i, int(h - target))
    return "first", None


@prog((np.array([10.0, 8.0, 2.0, 5.0]), 2), (np.array([1.0, 1.0]), 1), (np.array([4.0]), 3))
def greedy_cards(cards, players):
    hand = [0.0] * players
    deck = list(cards)
    turn = 0
    while deck:
        take_left = deck[0] >= deck[-1]
        card = deck.pop(0) if take_left else deck.pop()
        hand[turn % players] += card
        turn += 1
    winner = max(range(players), key=lambda p: hand[p])
    return winner, hand


@prog((np.array([0.2, 0.9, 0.4, 0.7]), 3), (np.array([0.5]), 5), (np.array([0.95, 0.99]), 1))
def slot_machine(draws, lives):
    coins = 10
    for i, d in enumerate(draws):
        if lives <= 0:
            break
        if d > 0.8:
            coins += 5
        elif d < 0.3:
            lives -= 1
            coins -= 2
        else:
            coins -= 1
    return coins, lives, f"{coins} coins left"


@prog(
    (np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]), 1, 1),
    (np.ones((2, 2)), 0, 0),
    (np.arange(9.0).reshape(3, 3), 2, 0),
)
def minesweeper_neighbours(grid, r, c):
    total = 0.0
    cells = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == 0 and dc == 0:
                continue
            rr, cc = r + dr, c + dc
            if rr < 0 or cc < 0:
                continue
            try:
                total += grid[rr, cc]
                cells += 1
            except IndexError:
                pass
    return total, cells


# ---------------------------------------------------------------- finance


@prog((np.float64(1000.0), 0.05, 10), (np.float64(0.0), 0.1, 3), (np.float64(500.0), 0.0, 0))
def compound_schedule(principal, rate, years):
    balance = principal
    yearly = []
    for y in range(1, years + 1):
        interest = round(balance * rate, 2)
        balance = balance + interest
        yearly.append(balance)
    return balance, yearly


@prog(
    (np.array([-100.0, 30.0, 40.0, 50.0]),), (np.array([-100.0, 10.0]),), (np.array([50.0, 50.0]),)
)
def irr_bisection(flows):
    def npv(r):
        total = 0.0
        for t, cf in enumerate(flows):
            total += cf / (1 + r) ** t
        return total

    lo, hi = -0.99, 1.0
    if npv(lo) * npv(hi) > 0:
        return None
    for _ in range(100):
        mid = (lo + hi) / 2
        if npv(lo) * npv(mid) <= 0:
            hi = mid
        else:
            lo = mid
    return round((lo + hi) / 2, 6)


@prog(
    (np.array([100.0, 102.0, 99.0, 105.0, 107.0, 103.0]), 2, 3),
    (np.array([10.0, 10.0, 10.0]), 1, 2),
    (np.array([5.0, 6.0]), 2, 3),
)
def sma_crossover_signals(prices, fast, slow):
    signals = []
    prev_diff = None
    for t in range(slow, len(prices) + 1):
        f = prices[t - fast : t].mean()
        s = prices[t - slow : t].mean()
        diff = f - s
        if prev_diff is not None:
            if prev_diff <= 0 < diff:
                signals.append((t, "buy"))
            elif prev_diff >= 0 > diff:
                signals.append((t, "sell"))
        prev_diff = diff
    return signals


@prog(
    (np.array([0.01, -0.02, 0.015, -0.03, 0.02]), 0.95), (np.zeros(3), 0.9), (np.array([0.05]), 0.5)
)
def historical_var(returns, level):
    if len(returns) == 0:
        raise ValueError("no returns")
    losses = np.sort(-returns)
    idx = int(np.ceil(level * len(losses))) - 1
    idx = min(max(idx, 0), len(losses) - 1)
    return losses[idx]


@prog(
    (np.float64(200000.0), 0.004, 360), (np.float64(1000.0), 0.0, 10), (np.float64(5000.0), 0.01, 1)
)
def mortgage_payoff_month(loan, monthly_rate, months):
    if monthly_rate == 0:
        payment = loan / months
    else:
        payment = loan * monthly_rate / (1 - (1 + monthly_rate) ** -months)
    bal = loan
    total_interest = 0.0
    for m in range(months):
        intr = bal * monthly_rate
        total_interest += intr
        bal = bal + intr - payment
        if bal <= 1e-6:
            return m + 1, round(total_interest, 2)
    return months, round(total_interest, 2)


@prog(
    (np.array([100.0, 110.0, 90.0, 95.0, 120.0]),),
    (np.array([50.0, 40.0, 30.0]),),
    (np.array([10.0]),),
)
def drawdown_periods(equity):
    peak = equity[0]
    in_dd = False
    periods = 0
    worst = 0.0
    for v in equity:
        if v >= peak:
            peak = v
            in_dd = False
        else:
            dd = (peak - v) / peak
            worst = max(worst, dd)
            if not in_dd:
                periods += 1
                in_dd = True
    return periods, worst


@prog(
    (np.array([0.02, 0.01, -0.01, 0.03]), 0.0),
    (np.array([0.01, 0.01]), 0.01),
    (np.array([0.05, -0.05]), 0.0),
)
def sharpe_ratio(rets, rf):
    excess = rets - rf
    sd = excess.std(ddof=1) if len(excess) > 1 else 0.0
    if sd == 0:
        return float("inf") if excess.mean() > 0 else 0.0
    return excess.mean() / sd * np.sqrt(252)


@prog(
    (np.float64(100.0), np.float64(100.0), 0.2, 0.05, 1.0),
    (np.float64(50.0), np.float64(100.0), 0.3, 0.0, 0.5),
    (np.float64(100.0), np.float64(90.0), 0.0, 0.01, 1.0),
)
def binomial_call(s0, k, sigma, r, t):
    n = 20
    dt = t / n
    if sigma == 0:
        return max(s0 * np.exp(r * t) - k, 0.0) * np.exp(-r * t)
    u = np.exp(sigma * np.sqrt(dt))
    d = 1 / u
    p = (np.exp(r * dt) - d) / (u - d)
    vals = np.array([max(s0 * u**j * d ** (n - j) - k, 0.0) for j in range(n + 1)])
    for step in range(n, 0, -1):
        vals = np.exp(-r * dt) * (p * vals[1:] + (1 - p) * vals[:-1])
    return vals[0]


@prog(
    (np.array([100.0, 50.0, 25.0]), np.array([0.1, 0.05, 0.2])), (np.zeros(2), np.ones(2)), (E0, E0)
)
def portfolio_summary(positions, weights_ret):
    total = positions.sum()
    report = {}
    for i, (pos, r) in enumerate(zip(positions, weights_ret)):
        share = pos / total if total else 0.0
        report[f"asset{i}"] = (share, pos * r)
    gain = sum(v[1] for v in report.values())
    return report, gain


@prog(
    (np.array([3.0, -2.0, 5.0, -1.0, -4.0]), 10.0),
    (np.array([-20.0]), 10.0),
    (np.array([1.0, 1.0]), 0.0),
)
def account_ledger(txns, opening):
    balance = opening
    rejected = []
    for i, t in enumerate(txns):
        if balance + t < 0:
            rejected.append(i)
            continue
        balance += t
    print(f"closing balance {balance:.2f}, {len(rejected)} rejected")
    return balance, rejected


@prog(
    (np.array([100.0, 101.0, 102.0, 99.0, 98.0, 103.0]), 0.02),
    (np.array([10.0, 9.0, 8.0]), 0.05),
    (np.array([10.0]), 0.1),
)
def trailing_stop(prices, pct):
    entry = prices[0]
    high = entry
    for day in range(1, len(prices)):
        p = prices[day]
        high = max(high, p)
        if p < high * (1 - pct):
            return day, p - entry
    return None, prices[-1] - entry


@prog(
    (np.array([0.05, 0.06, 0.07]), np.float64(100.0)),
    (np.array([0.0]), np.float64(10.0)),
    (E0, np.float64(1.0)),
)
def bond_price(coupons_rate, face):
    price = 0.0
    y = 0.05
    for t, c in enumerate(coupons_rate, start=1):
        price += c * face / (1 + y) ** t
    n = len(coupons_rate)
    price += face / (1 + y) ** n
    return price


# ---------------------------------------------------------------- image loops


@prog((IMG, 0.5), (np.zeros((3, 3)), 0.1), (np.ones((2, 4)), 1.0))
def threshold_bbox(img, t):
    rows, cols = [], []
    for r in range(img.shape[0]):
        for c in range(img.shape[1]):
            if img[r, c] > t:
                rows.append(r)
                cols.append(c)
    if not rows:
        return None
    return min(rows), max(rows), min(cols), max(cols)


@prog((IMG,), (np.ones((3, 3)),), (np.arange(12.0).reshape(3, 4),))
def sobel_magnitude(img):
    h, w = img.shape
    out = np.zeros((h - 2, w - 2))
    for i in range(1, h - 1):
        for j in range(1, w - 1):
            gx = (
                img[i - 1, j + 1]
                + 2 * img[i, j + 1]
                + img[i + 1, j + 1]
                - img[i - 1, j - 1]
                - 2 * img[i, j - 1]
                - img[i + 1, j - 1]
            )
            gy = (
                img[i + 1, j - 1]
                + 2 * img[i + 1, j]
                + img[i + 1, j + 1]
                - img[i - 1, j - 1]
                - 2 * img[i - 1, j]
                - img[i - 1, j + 1]
            )
            out[i - 1, j - 1] = np.hypot(gx, gy)
    return out


@prog((IMG,), (np.zeros((2, 2)),), (np.full((3, 3), 0.5),))
def histogram_equalize(img):
    flat = img.ravel()
    levels = np.floor(flat * 7.999).astype(int)
    hist = np.zeros(8, dtype=int)
    for v in levels:
        hist[v] += 1
    cdf = np.cumsum(hist)
    span = cdf[-1] - cdf.min()
    if span == 0:
        return img.copy()
    lut = (cdf - cdf.min()) / span
    return lut[levels].reshape(img.shape)


@prog((IMG,), (np.zeros((4, 4)),), (np.eye(3),))
def flood_region_size(img):
    mask = img > 0.5
    h, w = mask.shape
    seen = np.zeros_like(mask)
    sizes = []
    for r in range(h):
        for c in range(w):
            if mask[r, c] and not seen[r, c]:
                stack = [(r, c)]
                seen[r, c] = True
                size = 0
                while stack:
                    y, x = stack.pop()
                    size += 1
                    for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                        if 0 <= ny < h and 0 <= nx < w and mask[ny, nx] and not seen[ny, nx]:
                            seen[ny, nx] = True
                            stack.append((ny, nx))
                sizes.append(size)
    return sorted(sizes, reverse=True)


@prog((IMG, 2), (np.arange(16.0).reshape(4, 4), 2), (np.ones((3, 3)), 3))
def max_pool(img, k):
    h, w = img.shape[0] // k, img.shape[1] // k
    out = np.empty((h, w))
    for i in range(h):
        for j in range(w):
            block = img[i * k : (i + 1) * k, j * k : (j + 1) * k]
            out[i, j] = block.max()
    return out


@prog((IMG, 1.2), (np.full((2, 2), 0.9), 2.0), (np.zeros((1, 3)), 0.5))
def gamma_clip_inplace(img, g):
    out = img.copy()
    h, w = out.shape
    saturated = 0
    for i in range(h):
        row = out[i]
        for j in range(w):
            v = row[j] ** (1 / g) * 1.1
            if v > 1.0:
                v = 1.0
                saturated += 1
            row[j] = v
    return out, saturated


@prog((IMG,), (np.ones((2, 3)),), (np.zeros((0, 3)),))
def row_profiles(img):
    means = []
    brightest = None
    for r, row in enumerate(img):
        m = row.mean()
        means.append(m)
        if brightest is None or m > means[brightest]:
            brightest = r
    return means, brightest


@prog((IMG,), (np.array([[0.0, 1.0], [1.0, 0.0]]),), (np.full((2, 2), 0.3),))
def dither_threshold(img):
    out = img.copy()
    h, w = out.shape
    for i in range(h):
        for j in range(w):
            old = out[i, j]
            new = 1.0 if old >= 0.5 else 0.0
            out[i, j] = new
            err = old - new
            if j + 1 < w:
                out[i, j + 1] += err * 0.5
            if i + 1 < h:
                out[i + 1, j] += err * 0.5
    return out


@prog((IMG,), (np.zeros((3, 3)),), (np.ones((2, 2)),))
def centroid_of_mass(img):
    total = 0.0
    cy = cx = 0.0
    for (y, x), v in np.ndenumerate(img):
        total += v
        cy += y * v
        cx += x * v
    if total == 0:
        return None
    return cy / total, cx / total


@prog((IMG, 3), (np.ones((4, 4)), 2), (np.arange(6.0).reshape(2, 3), 1))
def median_filter_rows(img, k):
    out = img.copy()
    half = k // 2
    for r in range(img.shape[0]):
        for c in range(half, img.shape[1] - half):
            window = img[r, c - half : c + half + 1]
            out[r, c] = np.median(window)
    return out


# ---------------------------------------------------------------- ML training loops

XS = rng.normal(size=(8, 2))
YS = (XS @ np.array([1.5, -0.5]) + 0.3 > 0).astype(float)


@prog((XS, YS, 0.5, 30), (XS, YS, 0.0, 5), (XS[:0], YS[:0], 0.1, 3))
def logistic_regression(X, y, lr, epochs):
    w = np.zeros(X.shape[1])
    b = 0.0
    losses = []
    for ep in range(epochs):
        z = X @ w + b
        p = 1 / (1 + np.exp(-z))
        grad_w = X.T @ (p - y) / max(len(y), 1)
        grad_b = np.mean(p - y) if len(y) else 0.0
        w -= lr * grad_w
        b -= lr * grad_b
        loss = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12)) if len(y) else 0.0
        losses.append(loss)
    return w, b, losses[-1]


@prog((XS, YS, 10), (XS[:2], YS[:2], 3), (np.zeros((3, 2)), np.ones(3), 2))
def perceptron(X, y, epochs):
    w = np.zeros(X.shape[1] + 1)
    mistakes_per_epoch = []
    for _ in range(epochs):
        mistakes = 0
        for xi, yi in zip(X, y):
            target = 1 if yi > 0.5 else -1
            act = w[0] + xi @ w[1:]
            if target * act <= 0:
                w[1:] += target * xi
                w[0] += target
                mistakes += 1
        mistakes_per_epoch.append(mistakes)
        if mistakes == 0:
            break
    return w, mistakes_per_epoch


@prog((XS, 2, 5), (XS, 3, 2), (np.zeros((4, 2)), 2, 3))
def kmeans(X, k, iters):
    centers = X[:k].copy()
    labels = np.zeros(len(X), dtype=int)
    for it in range(iters):
        for i, x in enumerate(X):
            d = np.sum((centers - x) ** 2, axis=1)
            labels[i] = np.argmin(d)
        moved = 0.0
        for c in range(k):
            members = X[labels == c]
            if len(members) == 0:
                continue
            new_c = members.mean(axis=0)
            moved += np.linalg.norm(new_c - centers[c])
            centers[c] = new_c
        if moved < 1e-9:
            break
    return centers, labels


@prog((XS, YS, 0.1, 50, 1e-3), (XS, YS, 0.5, 3, 10.0), (XS, np.zeros(8), 0.05, 20, 0.0))
def ridge_gd_patience(X, y, lr, epochs, tol):
    w = np.zeros(2)
    best = np.inf
    bad = 0
    for epoch in range(epochs):
        resid = X @ w - y
        loss = resid @ resid / len(y) + 0.01 * w @ w
        if loss < best - tol:
            best = loss
            bad = 0
        else:
            bad += 1
            if bad >= 3:
                print("early stop at", epoch)
                break
        w = w - lr * (2 * X.T @ resid / len(y) + 0.02 * w)
    return w, best


@prog((XS, YS, 3), (XS, YS, 1), (XS[:3], YS[:3], 5))
def knn_predict(X, y, k):
    preds = []
    for i in range(len(X)):
        d = np.sum((X - X[i]) ** 2, axis=1)
        d[i] = np.inf
        nn = np.argsort(d)[:k]
        votes = y[nn].sum()
        preds.append(1.0 if votes * 2 > len(nn) else 0.0)
    return np.array(preds)


@prog(
    (np.array([0.5, -1.0]), 0.1, 100),
    (np.array([0.0, 0.0]), 0.5, 10),
    (np.array([3.0, 3.0]), 0.01, 0),
)
def adam_rosenbrock(x0, lr, steps):
    x = x0.astype(float)
    m = np.zeros_like(x)
    v = np.zeros_like(x)
    b1, b2 = 0.9, 0.999
    for t in range(1, steps + 1):
        g = np.array([-2 * (1 - x[0]) - 400 * x[0] * (x[1] - x[0] ** 2), 200 * (x[1] - x[0] ** 2)])
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        mh = m / (1 - b1**t)
        vh = v / (1 - b2**t)
        x -= lr * mh / (np.sqrt(vh) + 1e-8)
    return x


@prog((XS, YS, 4, 0.3), (XS, YS, 8, 0.0), (XS, YS, 3, 1.0))
def minibatch_sgd(X, y, batch, lr):
    w = np.zeros(2)
    n = len(X)
    batches = 0
    for start in range(0, n, batch):
        xb = X[start : start + batch]
        yb = y[start : start + batch]
        if len(xb) < batch:
            continue
        grad = xb.T @ (xb @ w - yb) / len(xb)
        w = w - lr * grad
        batches += 1
    return w, batches


@prog((XS, 0.5), (np.zeros((3, 2)), 0.1), (XS, 3.0))
def pca_power(X, tol):
    Xc = X - X.mean(axis=0)
    C = Xc.T @ Xc
    v = np.array([1.0, 0.0])
    for i in range(200):
        nv = C @ v
        norm = np.linalg.norm(nv)
        if norm == 0:
            return v, 0.0, i
        nv = nv / norm
        if np.linalg.norm(nv - v) < tol * 1e-6:
            v = nv
            break
        v = nv
    return v, v @ C @ v, i


@prog(
    (np.array([0.2, 0.7, 0.1]), 2.0), (np.array([1.0, 0.0, 0.0]), 0.5), (np.array([0.5, 0.5]), 1.0)
)
def softmax_temperature(logits, temp):
    z = logits / temp
    z = z - z.max()
    e = np.exp(z)
    probs = e / e.sum()
    entropy = 0.0
    for p in probs:
        if p > 0:
            entropy -= p * np.log(p)
    return probs, entropy


@prog((XS, YS), (XS[:1], YS[:1]), (XS, 1 - YS))
def decision_stump(X, y):
    best = (np.inf, None, None)
    for feat in range(X.shape[1]):
        for thr in np.unique(X[:, feat]):
            pred = (X[:, feat] > thr).astype(float)
            err = np.mean(pred != y)
            if err < best[0]:
                best = (err, feat, thr)
    return best


@prog((XS, YS, 20), (XS, YS, 1), (XS, np.ones(8), 5))
def tiny_mlp_train(X, y, epochs):
    g = np.random.default_rng(0)
    W1 = g.normal(scale=0.5, size=(2, 4))
    W2 = g.normal(scale=0.5, size=4)
    history = {"loss": [], "acc": []}
    for _ in range(epochs):
        h = np.tanh(X @ W1)
        out = 1 / (1 + np.exp(-(h @ W2)))
        err = out - y
        history["loss"].append(float(np.mean(err**2)))
        history["acc"].append(float(np.mean((out > 0.5) == (y > 0.5))))
        dW2 = h.T @ err / len(y)
        dh = np.outer(err, W2) * (1 - h**2)
        dW1 = X.T @ dh / len(y)
        W1 -= 0.5 * dW1
        W2 -= 0.5 * dW2
    return history["loss"][-1], max(history["acc"])


@prog((np.array([1.0, 0.5, 0.2, 0.1]), 0.5, 4), (np.array([1.0]), 0.9, 2), (np.ones(3), 0.0, 3))
def lr_schedule_warmup(losses, decay, warmup):
    lr = 0.0
    lrs = []
    for step, l in enumerate(losses):
        if step < warmup:
            lr = 0.1 * (step + 1) / warmup
        else:
            lr *= decay
        if l < 0.15:
            lr = min(lr, 0.01)
        lrs.append(lr)
    return lrs


# ---------------------------------------------------------------- objects with state


class RunningStats:
    def __init__(self):
        self.n = 0
        self.mean = 0.0
        self.max = None

    def push(self, v):
        self.n += 1
        self.mean += (v - self.mean) / self.n
        if self.max is None or v > self.max:
            self.max = v


@prog((A8,), (np.array([1.0]),), (E0,))
def running_stats_object(x):
    rs = RunningStats()
    for v in x:
        rs.push(v)
    return rs.n, rs.mean, rs.max


class Thermostat:
    def __init__(self, target):
        self.target = target
        self.heating = False
        self.switches = 0

    def update(self, temp):
        want = temp < self.target - 0.5
        if want != self.heating:
            self.heating = want
            self.switches += 1
        return self.heating


@prog((np.array([18.0, 19.0, 21.0, 22.0, 19.0]),), (np.full(3, 25.0),), (np.array([10.0]),))
def thermostat_run(temps):
    t = Thermostat(20.0)
    on = 0
    for temp in temps:
        if t.update(temp):
            on += 1
    return on, t.switches


class Account:
    def __init__(self, balance):
        self.balance = balance
        self.history = []

    def withdraw(self, amount):
        if amount > self.balance:
            raise ValueError(f"insufficient funds: {self.balance} < {amount}")
        self.balance -= amount
        self.history.append(-amount)


@prog(
    (np.float64(100.0), np.array([30.0, 20.0])),
    (np.float64(10.0), np.array([5.0, 20.0])),
    (np.float64(0.0), E0),
)
def account_withdrawals(start, amounts):
    acct = Account(start)
    failed = 0
    for a in amounts:
        try:
            acct.withdraw(a)
        except ValueError:
            failed += 1
    return acct.balance, failed, len(acct.history)


class Particle:
    def __init__(self, x, v):
        self.x = x
        self.v = v

    def step(self, dt):
        self.x = self.x + self.v * dt
        if self.x < 0:
            self.x = -self.x
            self.v = -self.v


@prog(
    (np.array([1.0, 0.5, 2.0]), np.array([-1.0, 0.2, -3.0])),
    (np.zeros(2), np.zeros(2)),
    (np.array([0.1]), np.array([-5.0])),
)
def particles_objects(xs, vs):
    ps = [Particle(x, v) for x, v in zip(xs, vs)]
    for _ in range(5):
        for p in ps:
            p.step(0.1)
    return [p.x for p in ps], [p.v for p in ps]


class Inventory:
    def __init__(self):
        self.stock = {}

    def add(self, item, qty):
        self.stock[item] = self.stock.get(item, 0) + qty

    def take(self, item, qty):
        have = self.stock.get(item, 0)
        if have < qty:
            return False
        self.stock[item] = have - qty
        return True


@prog(
    (np.array([5, 3, 2]), np.array([2, 4, 1])),
    (np.zeros(2, dtype=int), np.ones(2, dtype=int)),
    (np.array([1]), np.array([1])),
)
def inventory_flow(incoming, orders):
    inv = Inventory()
    names = ["apple", "pear", "fig"]
    for name, q in zip(names, incoming):
        inv.add(name, int(q))
    filled = []
    for name, q in zip(names, orders):
        filled.append(inv.take(name, int(q)))
    return filled, inv.stock


class EarlyStopper:
    def __init__(self, patience):
        self.patience = patience
        self.best = np.inf
        self.wait = 0

    def should_stop(self, loss):
        if loss < self.best:
            self.best = loss
            self.wait = 0
            return False
        self.wait += 1
        return self.wait >= self.patience


@prog(
    (np.array([1.0, 0.8, 0.9, 0.95, 0.7]), 2),
    (np.array([1.0, 0.5, 0.2]), 1),
    (np.array([2.0, 2.0, 2.0]), 1),
)
def early_stopper_object(losses, patience):
    es = EarlyStopper(patience)
    for epoch, loss in enumerate(losses):
        if es.should_stop(loss):
            return epoch, es.best
    return len(losses), es.best


class Matrix2:
    def __init__(self, a):
        self.a = a

    def __matmul__(self, other):
        return Matrix2(self.a @ other.a)

    def trace(self):
        return self.a[0, 0] + self.a[1, 1]


@prog((np.array([[1.0, 1.0], [1.0, 0.0]]), 5), (np.eye(2), 3), (np.zeros((2, 2)), 1))
def matrix_class_power(a, n):
    m = Matrix2(a)
    acc = Matrix2(np.eye(2))
    traces = []
    for _ in range(n):
        acc = acc @ m
        traces.append(acc.trace())
    return acc.a, traces


class Grid:
    def __init__(self, h, w):
        self.cells = np.zeros((h, w))
        self.writes = 0

    def paint(self, r, c, v):
        self.cells[r, c] = v
        self.writes += 1


@prog((np.array([0.2, 0.9, 0.5, 0.7]),), (np.zeros(2),), (np.ones(1),))
def grid_object_paint(vals):
    g = Grid(2, 2)
    for i, v in enumerate(vals):
        if v > 0.4:
            g.paint(i // 2, i % 2, v)
    return g.cells, g.writes


class Ring:
    def __init__(self, n):
        self.buf = np.zeros(n)
        self.pos = 0
        self.full = False

    def push(self, v):
        self.buf[self.pos] = v
        self.pos = (self.pos + 1) % len(self.buf)
        if self.pos == 0:
            self.full = True

    def mean(self):
        return self.buf.mean() if self.full else self.buf[: self.pos].mean()


@prog((A8,), (np.array([1.0, 2.0]),), (np.array([4.0, 4.0, 4.0]),))
def ring_buffer_object(x):
    r = Ring(3)
    means = []
    for v in x:
        r.push(v)
        means.append(r.mean())
    return means, r.full


class Tracker:
    def __init__(self):
        self.best_score = None
        self.best_idx = None

    def offer(self, idx, score):
        if self.best_score is None or score > self.best_score:
            self.best_score = score
            self.best_idx = idx


@prog((A8,), (np.full(3, -1.0),), (E0,))
def tracker_object(x):
    t = Tracker()
    for i, v in enumerate(x):
        t.offer(i, v * v)
    return t.best_idx, t.best_score


# ---------------------------------------------------------------- closures, helpers, sentinels


@prog((A8,), (np.abs(A8),), (E0,))
def closure_counter(x):
    negatives = 0

    def visit(v):
        nonlocal negatives
        if v < 0:
            negatives += 1
            return -v
        return v

    total = 0.0
    for v in x:
        total += visit(v)
    return total, negatives


@prog((A8, 0.5), (A8, 5.0), (np.ones(2), 1.0))
def helper_first_index(x, limit):
    def first_over(arr, lim):
        for i, v in enumerate(arr):
            if v > lim:
                return i
        return -1

    i = first_over(x, limit)
    if i < 0:
        return "none", 0.0
    return "found", x[i]


@prog((A8,), (np.zeros(4),), (np.array([3.0]),))
def helper_returns_none(x):
    def safe_ratio(a, b):
        if b == 0:
            return None
        return a / b

    out = []
    for i in range(len(x) - 1):
        r = safe_ratio(x[i + 1], x[i])
        out.append(0.0 if r is None else r)
    return out


@prog((A8,), (np.array([2.0, 2.0]),), (np.array([-1.0]),))
def python_int_meets_numpy(x):
    count = 0
    total = 0
    for v in x:
        if v > 0:
            count += 1
            total += v
    mean = total / count if count else 0
    return count, total, mean, type(mean).__name__


@prog((A8, 3), (A8, 0), (np.array([1.0, 2.0]), 5))
def last_k_average(x, k):
    try:
        tail = x[-k:] if k else x[:0]
        avg = tail.sum() / len(tail)
    except ZeroDivisionError:
        avg = None
    return avg


@prog((np.array([4.0, 1.0, 9.0]),), (np.array([4.0, -1.0]),), (E0,))
def sqrt_or_report(x):
    results = []
    errors = []
    for i, v in enumerate(x):
        try:
            if v < 0:
                raise ValueError(f"negative at {i}")
            results.append(np.sqrt(v))
        except ValueError as e:
            errors.append(str(e))
    return results, errors


@prog((np.array([3.0, 0.0, 2.0]),), (np.array([1.0, 2.0]),), (np.zeros(2),))
def reciprocal_with_except(x):
    out = []
    for v in x:
        try:
            out.append(1.0 / float(v))
        except ZeroDivisionError:
            out.append(0.0)
    return out


@prog((np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),), (np.zeros((1, 2)),), (np.zeros((0, 2)),))
def unpack_rows_stats(pts):
    xs, ys = [], []
    for i, (x, y) in enumerate(pts):
        if i % 2 == 0:
            xs.append(x)
        ys.append(y)
    return sum(xs), sum(ys), len(xs)


@prog((np.array([3.0, 1.0, 2.0]),), (np.array([1.0, 1.0, 1.0]),), (np.array([-1.0, 5.0, 0.0]),))
def unpack_sorted_triple(x):
    lo, mid, hi = np.sort(x)
    spread = hi - lo
    label = "flat" if spread == 0 else "spread"
    return lo, mid, hi, label


@prog((A8,), (np.ones(5),), (np.array([1.0]),))
def swap_halves_inplace(x):
    a = x.copy()
    n = len(a) // 2
    for i in range(n):
        tmp = a[i]
        a[i] = a[i + n]
        a[i + n] = tmp
    return a


@prog((A8,), (np.zeros(3),), (np.array([2.0, 1.0]),))
def two_arrays_filled(x):
    pos = np.zeros(len(x))
    neg = np.zeros(len(x))
    for i in range(len(x)):
        if x[i] >= 0:
            pos[i] = x[i]
        else:
            neg[i] = -x[i]
    return pos, neg


@prog((M3,), (np.eye(3),), (np.ones((3, 3)),))
def view_row_update(A):
    B = A.copy()
    first = B[0]
    for j in range(B.shape[1]):
        if first[j] < 0:
            first[j] = 0.0
    return B


@prog((A8,), (np.ones(4),), (np.array([0.0, -1.0]),))
def scalar_read_then_write(x):
    y = x.copy()
    m = y[0]
    for i in range(1, len(y)):
        if y[i] < m:
            m = y[i]
        y[i] = y[i] - m
    return y, m


@prog((np.array([5.0, 3.0, 8.0, 1.0]),), (np.array([1.0, 2.0]),), (np.array([7.0]),))
def partition_lomuto(x):
    a = x.copy()
    pivot = a[-1]
    store = 0
    for i in range(len(a) - 1):
        if a[i] < pivot:
            a[store], a[i] = a[i], a[store]
            store += 1
    a[store], a[-1] = a[-1], a[store]
    return a, store


@prog((A8,), (np.zeros(3),), (np.array([1.0, -1.0]),))
def nested_if_appends(x):
    small, big, neg = [], [], []
    for v in x:
        if v >= 0:
            if v > 1:
                big.append(v)
            else:
                small.append(v)
        else:
            neg.append(v)
    return len(small), len(big), len(neg), np.array(big)


@prog((np.array([[1.0, -2.0], [0.5, 3.0], [-1.0, -1.0]]),), (np.zeros((2, 2)),), (np.ones((1, 2)),))
def nested_loop_item_write(m):
    out = np.zeros_like(m)
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] > 0:
                out[i, j] = 1
                if m[i, j] > 2:
                    out[i, j] = 2
            elif m[i, j] < 0:
                out[i, j] = -1
    return out


@prog((A8,), (np.array([0.1, 0.2]),), (E0,))
def dict_buckets(x):
    buckets = {"low": 0, "mid": 0, "high": 0}
    for v in x:
        if v < -0.5:
            buckets["low"] += 1
        elif v < 0.5:
            buckets["mid"] += 1
        else:
            buckets["high"] += 1
    return buckets


@prog((A8,), (np.array([1.0, 2.0, 3.0]),), (np.array([-2.0]),))
def print_progress(x):
    total = 0.0
    for i, v in enumerate(x):
        total += v
        if i % 3 == 0:
            print(f"step {i}: total={total:.3f}")
    return total


@prog((A8,), (np.ones(3),), (E0,))
def sentinel_two_sources(x):
    best_val = None
    best_pos = None
    for i, v in enumerate(x):
        cur_val = v * v
        if best_val is None or cur_val < best_val:
            best_val = cur_val
            best_pos = i
    if best_pos is None:
        return "empty"
    return best_pos, best_val


@prog((A8, 2), (A8, 0), (np.ones(2), 4))
def chunk_sums(x, size):
    if size <= 0:
        raise ValueError("size must be positive")
    chunks = []
    for start in range(0, len(x), size):
        chunk = x[start : start + size]
        chunks.append(float(chunk.sum()))
    return chunks


@prog((A8,), (np.zeros(4),), (np.array([np.nan, 1.0]),))
def nan_aware_max(x):
    best = -np.inf
    nan_count = 0
    for v in x:
        if np.isnan(v):
            nan_count += 1
            continue
        if v > best:
            best = v
    return (None if best == -np.inf else best), nan_count


@prog(
    (np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.5, 3.0])),
    (np.ones(2), np.ones(2)),
    (np.ones(2), np.zeros(3)),
)
def assert_same_length(a, b):
    assert len(a) == len(b), "length mismatch"
    diffs = [i for i in range(len(a)) if a[i] != b[i]]
    return diffs


@prog((A8,), (np.ones(3),), (np.array([0.0]),))
def generator_helper(x):
    def pairs(arr):
        for i in range(len(arr) - 1):
            yield arr[i], arr[i + 1]

    rises = 0
    for a, b in pairs(x):
        if b > a:
            rises += 1
    return rises


@prog((np.array([1.0, 2.0, 3.0, 4.0]),), (np.array([2.0]),), (np.array([0.0, 0.0]),))
def star_unpack_head_tail(x):
    head, *rest = x
    acc = head
    for r in rest:
        acc = acc * 0.5 + r
    return acc, len(rest)


@prog((A8, 0.0), (A8, 1.0), (E0, 0.0))
def while_pointer_scan(x, thr):
    i = 0
    n = len(x)
    runs = 0
    while i < n:
        if x[i] > thr:
            j = i
            while j < n and x[j] > thr:
                j += 1
            runs += 1
            i = j
        else:
            i += 1
    return runs


@prog((np.array([2, 3, 4, 9, 10]),), (np.array([1]),), (np.array([17, 19]),))
def prime_flags(nums):
    flags = []
    for n in nums:
        if n < 2:
            flags.append(False)
            continue
        is_p = True
        d = 2
        while d * d <= n:
            if n % d == 0:
                is_p = False
                break
            d += 1
        flags.append(is_p)
    return flags


@prog((A8,), (np.array([0.5, 0.5]),), (np.array([-3.0]),))
def label_by_sign(x):
    labels = []
    for v in x:
        labels.append("pos" if v > 0 else "neg")
    return labels


@prog((A8, 2), (A8, 10), (np.ones(3), 0))
def top_k_loop(x, k):
    vals = list(x)
    picked = []
    for _ in range(min(k, len(vals))):
        m = max(vals)
        picked.append(m)
        vals.remove(m)
    return picked


# ---------------------------------------------------------------- more everyday constructs


@prog((A8,), (np.ones(3),), (np.array([4.0]),))
def rms_with_math(x):
    total = 0.0
    for v in x:
        total += v * v
    return math.sqrt(total / len(x))


@prog((np.array([0.5, 1.5, 2.5]), 0.1), (np.array([3.0]), 1.0), (E0, 0.5))
def decay_with_math_exp(ts, k):
    out = []
    for t in ts:
        out.append(math.exp(-k * t))
    return out


@prog((np.array([1.0, 2.0, -1.0, 4.0]),), (np.array([-1.0]),), (np.array([3.0, 2.0]),))
def walrus_prefix(x):
    total = 0.0
    i = 0
    while i < len(x) and (v := x[i]) > 0:
        total += v
        i += 1
    return total, i


@prog((A8,), (np.ones(6),), (np.array([1.0, 2.0]),))
def last_three_losses(x):
    losses = []
    for v in x:
        losses.append(v * v)
    recent = losses[-3:]
    return len(recent), np.array(recent)


@prog((A8,), (np.abs(A8),), (np.array([-1.0]),))
def positive_tail(x):
    kept = []
    for v in x:
        if v > 0:
            kept.append(v)
    return kept[1:]


@prog((A8,), (np.array([2.0, 2.0]),), (np.array([5.0]),))
def mean_of_parts(x):
    parts = [x[: len(x) // 2].sum(), x[len(x) // 2 :].sum()]
    return np.mean(parts), np.std(parts)


@prog((A8,), (np.ones(3),), (np.array([0.0]),))
def type_dispatch_result(x):
    s = 0
    for v in x:
        if v > 0:
            s += v
    if isinstance(s, int):
        return "int", s
    return "float", float(s)


@prog((A8,), (np.full(3, -1.0),), (E0,))
def log_positive_with_and(x):
    log = []
    for v in x:
        v > 0 and log.append(v)
    return len(log)


@prog((np.array([3.0, 1.0, 2.0]),), (np.array([1.0, 1.0]),), (np.array([0.0, 5.0, 5.0]),))
def argmax_via_index(x):
    vals = list(x)
    return vals.index(max(vals))


CALLS = {"n": 0}


@prog((A8,), (np.ones(2),), (E0,))
def global_dict_counter(x):
    hits = 0
    for v in x:
        if v > 0.5:
            hits += 1
    CALLS["n"] += 1
    return hits


@prog((np.array([1.0, 2.0, 3.0, 4.0]),), (np.array([1.0]),), (np.array([2.0, 0.0]),))
def pairwise_ratios(x):
    ratios = []
    for a, b in zip(x, x[1:]):
        ratios.append(a / b if b != 0 else None)
    return ratios


@prog((A8, 0.0), (A8, 3.0), (np.array([1.0, 1.0]), 1.0))
def count_and_first(x, thr):
    first = None
    count = 0
    for i in range(len(x)):
        if x[i] > thr:
            count += 1
            if first is None:
                first = i
    return count, first


@prog((np.array([[1.0, 2.0], [3.0, 4.0]]),), (np.eye(2),), (np.array([[0.0, 1.0], [1.0, 0.0]]),))
def matrix_stats_dict(m):
    stats = {}
    stats["trace"] = np.trace(m)
    stats["det"] = np.linalg.det(m)
    stats["sym"] = bool(np.allclose(m, m.T))
    if stats["det"] != 0:
        stats["inv00"] = np.linalg.inv(m)[0, 0]
    return stats


@prog((A8,), (np.zeros(2),), (np.array([1.0]),))
def sign_counts_tuple(x):
    pos = neg = zero = 0
    for v in x:
        if v > 0:
            pos += 1
        elif v < 0:
            neg += 1
        else:
            zero += 1
    return pos, neg, zero


@prog((np.array([5, 3, 8]),), (np.array([1]),), (np.zeros(0, dtype=int),))
def int_list_sum_builtin(x):
    squares = [int(v) ** 2 for v in x]
    return sum(squares), max(squares, default=0)


@prog((A8,), (np.array([1.0, -1.0]),), (E0,))
def rounding_report(x):
    total = float(np.sum(x))
    mean = total / len(x) if len(x) else 0.0
    return round(total, 3), round(mean, 3)


@prog((np.array([1.0, 4.0, 9.0]),), (np.array([0.0]),), (np.array([2.0, -4.0]),))
def sqrt_list_comprehension(x):
    roots = [np.sqrt(v) if v >= 0 else 0.0 for v in x]
    return roots


@prog((A8,), (np.ones(4),), (np.array([1.0]),))
def swap_pairs_tuple_assign(x):
    a = x.copy()
    for i in range(0, len(a) - 1, 2):
        if a[i] > a[i + 1]:
            a[i], a[i + 1] = a[i + 1], a[i]
    return a


@prog((np.array([2.0, 4.0, 6.0]), 2.0), (np.array([1.0]), 0.0), (np.array([3.0, 0.0]), 3.0))
def divide_all_or_none(x, d):
    try:
        return [v / d for v in x]
    except ZeroDivisionError:
        return None


@prog((A8,), (np.zeros(3),), (np.array([1.0, 1.0, 2.0]),))
def dedupe_consecutive(x):
    out = []
    prev = None
    for v in x:
        if prev is None or v != prev:
            out.append(v)
        prev = v
    return np.array(out)


@prog((A8,), (np.ones(2),), (np.array([-1.0]),))
def summary_label(x):
    total = np.sum(x)
    label = "sum=" + str(round(float(total), 2))
    best = np.argmax(x)
    return label, "best at " + str(best)


@prog((A8,), (np.array([1.0, 3.0]),), (E0,))
def max_with_eq_none(x):
    best = None
    for v in x:
        if best == None or v > best:  # noqa: E711  (as users write it)
            best = v
    return best


@prog((np.array([125.0, 59.0]),), (np.array([3600.0]),), (np.array([0.0]),))
def seconds_to_hms(secs):
    out = []
    for s in secs:
        m, sec = divmod(s, 60)
        h, m = divmod(m, 60)
        out.append(h * 10000 + m * 100 + sec)
    return out


@prog((A8,), (np.array([2.0, 2.0, 1.0]),), (np.array([5.0]),))
def argmax_tuple_compare(x):
    best = (-np.inf, -1)
    for i, v in enumerate(x):
        if (v, -i) > best:
            best = (v, -i)
    return -best[1]


@prog((A8,), (np.full(3, -1.0),), (E0,))
def newest_first(x):
    recent = []
    for v in x:
        if v > 0:
            recent.insert(0, v)
    return recent[:3]


@prog((A8, 0.0), (A8, 2.0), (E0, 0.0))
def grow_with_np_append(x, thr):
    kept = np.array([])
    for v in x:
        if v > thr:
            kept = np.append(kept, v)
    return kept.size, kept


@prog((A8, 1.0), (A8, 10.0), (E0, 0.0))
def first_crossing_nonzero(x, thr):
    idx = np.nonzero(x > thr)[0]
    if idx.size == 0:
        return -1, 0
    return int(idx[0]), idx.size


@prog((A8,), (np.full(3, -1.0),), (np.array([2.0]),))
def where_unpack_count(x):
    (pos,) = np.where(x > 0)
    return len(pos), x[pos].sum()


# How each program that is not ok was classified on c9fd550 (tools/fresh_batch3_findings.md):
# b = a documented limit, c = an error on code the docs say runs (or a limit they do not list),
# d = a wrong result (or a run-time error where eager returns); the key names the mechanism
# (W, E, C sections of the findings; L- = the limit's row). JAX_FINDINGS overrides on JAX.
FINDINGS = {
    "account_withdrawals": ("b", "L-try-raise"),
    "argmax_tuple_compare": ("c", "C1-builtin-compare"),
    "argmax_via_index": ("c", "C1-builtin-compare"),
    "assert_same_length": ("c", "C1-comp-filter"),
    "bfs_levels": ("c", "C5-and-dtype"),
    "centroid_of_mass": ("b", "L-unknown-np"),
    "closure_counter": ("d", "W2-nonlocal"),
    "connected_components": ("c", "C8-pop-grown"),
    "count_close_pairs": ("c", "C7-star-call"),
    "decay_with_math_exp": ("c", "C13-math"),
    "decision_stump": ("b", "L-unknown-np"),
    "degree_stats": ("c", "C2-elif-append"),
    "det_by_elimination": ("c", "C6-index-list"),
    "early_stopper_object": ("b", "L-method-state"),
    "flood_region_size": ("b", "L-tuple-append"),
    "first_crossing_nonzero": ("c", "C13-nonzero-tuple"),
    "gamma_clip_inplace": ("b", "L-view-write"),
    "geometric_mean": ("c", "C10-optional-return"),
    "greedy_cards": ("d", "W4-ifexp-effects"),
    "grid_object_paint": ("b", "L-object-array"),
    "grow_with_np_append": ("b", "L-unknown-np"),
    "has_path_dfs": ("c", "C13-nonzero-tuple"),
    "helper_first_index": ("b", "L-strings"),
    "int_list_sum_builtin": ("c", "C1-builtin-compare"),
    "inventory_flow": ("c", "C11-int-in-zip"),
    "jacobi_solve": ("c", "C12-norm-ord"),
    "label_by_sign": ("b", "L-strings"),
    "last_three_losses": ("d", "W1-grown-slice"),
    "life_generations": ("c", "C1-builtin-compare"),
    "log1p_series": ("c", "C3-scalar-view"),
    "log_positive_with_and": ("d", "W4-ifexp-effects"),
    "logistic_map": ("d", "W1-grown-slice"),
    "logistic_regression": ("c", "C4-refcount"),
    "matrix_stats_dict": ("c", "C-bool-allclose"),
    "max_with_eq_none": ("e", "E3-eq-none"),
    "maze_flood": ("b", "L-tuple-append"),
    "mean_of_parts": ("c", "C16-np-on-list"),
    "merge_2048_row": ("c", "C1-comp-filter"),
    "mode_counts": ("b", "L-dict-key"),
    "newest_first": ("c", "C18-list-insert"),
    "nim_winner": ("b", "L-strings"),
    "pairwise_ratios": ("b", "L-none-append"),
    "pearson": ("c", "C13-math"),
    "population_capped": ("b", "L-tuple-append"),
    "positive_tail": ("d", "W1-grown-slice"),
    "prim_mst_weight": ("b", "L-tuple-append"),
    "pulse_widths": ("c", "C2-elif-append"),
    "python_int_meets_numpy": ("d", "W3-type"),
    "reciprocal_with_except": ("d", "W6-try-runtime"),
    "ring_buffer_object": ("b", "L-object-array"),
    "rms_with_math": ("c", "C13-math"),
    "row_profiles": ("d", "W5-or-eval"),
    "running_stats_object": ("b", "L-method-state"),
    "seconds_to_hms": ("e", "E4-divmod"),
    "slot_machine": ("c", "C14-fstring"),
    "sma_crossover_signals": ("b", "L-tuple-append"),
    "sqrt_or_report": ("b", "L-try-raise"),
    "subset_sum": ("b", "L-bool"),
    "summary_label": ("d", "W8-str-of-tensor"),
    "thermostat_run": ("b", "L-method-state"),
    "tictactoe_winner": ("b", "L-strings"),
    "top_k_loop": ("c", "C1-builtin-compare"),
    "topo_sort_kahn": ("c", "C1-comp-filter"),
    "tracker_object": ("b", "L-method-state"),
    "type_dispatch_result": ("d", "W3-type"),
    "union_find": ("b", "L-list-index"),
    "where_unpack_count": ("c", "C13-nonzero-tuple"),
    "unpack_sorted_triple": ("b", "L-strings"),
    "view_row_update": ("b", "L-view-write"),
    "walrus_prefix": ("c", "C1-walrus"),
}
JAX_FINDINGS = {
    "fixed_point_cos": ("c", "C15-jax-break-list"),
    "frequency_table": ("b", "L-jax-size"),
    "gram_schmidt": ("b", "L-jax-list"),
    "perceptron": ("c", "C15-jax-break-list"),
    "queue_sim": ("b", "L-jax-list"),
    "reciprocal_with_except": ("d", "W6-try-runtime"),
    "slot_machine": ("b", "L-jax-strings"),
    "threshold_bbox": ("b", "L-jax-list"),
    "unpack_rows_stats": ("b", "L-jax-list"),
}


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
