"""An eleventh batch of programs nobody on the team wrote beforehand (issue 24, 2026-11-30), all
written before the first run, as ordinary users write Python + NumPy, many split into two to
four helpers. Domains: physics steps (particles, springs, walls, collisions), ODE solvers
(Euler, midpoint, RK4 with early stop), root finding (bisection, secant, Newton, Brent-like
with iteration caps and `break`), image processing on small 2-D arrays (flood fill, connected
components, convolution by loops, histogram equalisation, thresholds), time series (rolling
windows, peaks, run-length encoding, resampling), parsing of int-coded tokens (a calculator, a
stack machine, bracket matching), dynamic programming (edit distance, LIS, knapsack, coin
change, LCS with traceback), hand-written sorts (insertion, merge, quick, counting, shell,
heap), puzzles (sudoku, n-queens, magic squares, lights out), statistics (bootstrap with a
seeded rng, Welford, histograms, quantiles by hand), ledgers with dicts, state machines,
retry/backoff loops, classes changing `self` in loops, dataclasses, closures with `nonlocal`,
generators, try/except on data checks, printing in loops, f-string reports, early returns,
while/else and for/else, `None` sentinels, tuples unpacked by callers, collections,
itertools, math, heapq and bisect. Each runs on two to four inputs that take different paths
(empty and edge inputs among them), eagerly and as a graph (NumPy backend, every optimizing
pass off, JAX backend), judged as `fresh_batch.py` judges.

    python tools/fresh_batch11.py             # one line per program that differs, then counts
    python tools/fresh_batch11.py --detail    # the full message of each outcome that is not ok
    python tools/fresh_batch11.py NAME ...    # only these programs, in detail
    python tools/fresh_batch11.py --table     # counts by class (FINDINGS), new failures named
    python tools/fresh_batch11.py --mode numpy NAME ...  # only one mode (numpy, noopt, jax)
    python tools/fresh_batch11.py --jit       # the jit way

The outcomes found are in tools/fresh_batch11_findings.md.
"""

# ruff: noqa: B007, E501, E741, F841, UP033  (programs written as users write them)
import bisect
import functools
import heapq
import itertools
import math
import os
import sys
from collections import Counter, OrderedDict, defaultdict, deque, namedtuple
from dataclasses import dataclass, field

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fresh_batch  # noqa: E402

P, prog = fresh_batch.registry()


E = np.zeros(0)
EI = np.zeros(0, dtype=np.int64)
R = np.random.default_rng(11)
SIG = np.array([0.0, 1.0, 3.0, 2.0, 5.0, 4.0, 4.5, 1.0, 0.5, 2.5, 6.0, 1.0])
SIG2 = np.array([2.0, 2.0, 2.0])
IMG = np.array(
    [
        [0, 0, 1, 1, 0, 0],
        [0, 1, 1, 0, 0, 1],
        [0, 0, 0, 0, 1, 1],
        [1, 1, 0, 0, 0, 0],
        [1, 0, 0, 1, 1, 0],
    ]
)
IMG2 = np.zeros((3, 3), dtype=np.int64)
GRAY = np.array(
    [
        [10, 12, 200, 201, 13],
        [11, 180, 190, 14, 12],
        [90, 95, 100, 110, 120],
        [0, 255, 30, 60, 128],
    ]
)
GRAYF = GRAY.astype(float) / 255.0
SUDOKU = np.array(
    [
        [5, 3, 4, 6, 7, 8, 9, 1, 2],
        [6, 7, 2, 1, 9, 5, 3, 4, 8],
        [1, 9, 8, 3, 4, 2, 5, 6, 7],
        [8, 5, 9, 7, 6, 1, 4, 2, 3],
        [4, 2, 6, 8, 5, 3, 7, 9, 1],
        [7, 1, 3, 9, 2, 4, 8, 5, 6],
        [9, 6, 1, 5, 3, 7, 2, 8, 4],
        [2, 8, 7, 4, 1, 9, 6, 3, 5],
        [3, 4, 5, 2, 8, 6, 1, 7, 9],
    ]
)
SUDOKU_BAD = SUDOKU.copy()
SUDOKU_BAD[4, 4] = 9
SUDOKU_HOLES = SUDOKU.copy()
SUDOKU_HOLES[0, :3] = 0
SUDOKU_HOLES[8, 8] = 0
# ledger rows: account id, kind (0 deposit, 1 withdrawal, 2 transfer out, 3 fee), amount cents
LEDGER = np.array(
    [
        [1, 0, 10000],
        [2, 0, 5000],
        [1, 1, 2500],
        [2, 2, 1000],
        [3, 0, 700],
        [1, 3, 150],
        [3, 1, 900],
        [2, 1, 300],
    ]
)
LEDGER2 = np.array([[7, 0, 100]])
LEDGER_E = np.zeros((0, 3), dtype=np.int64)
# calculator tokens (kind, value): kind 0 number, 1 plus, 2 minus, 3 times, 4 divide (floor),
# 5 open paren, 6 close paren
TOKS = np.array([[0, 3], [1, 0], [0, 4], [3, 0], [0, 2]])
TOKS_PAREN = np.array([[5, 0], [0, 3], [1, 0], [0, 4], [6, 0], [3, 0], [0, 2], [2, 0], [0, 5]])
TOKS_BAD = np.array([[0, 3], [1, 0]])
TOKS_DIV0 = np.array([[0, 8], [4, 0], [0, 0]])


# ---------------------------------------------------------------- physics steps


def _reflect(pos, vel, lo, hi):
    bounces = 0
    for d in range(pos.shape[0]):
        if pos[d] < lo:
            pos[d] = 2 * lo - pos[d]
            vel[d] = -vel[d]
            bounces += 1
        elif pos[d] > hi:
            pos[d] = 2 * hi - pos[d]
            vel[d] = -vel[d]
            bounces += 1
    return bounces


@prog(
    (np.array([0.5, 0.5]), np.array([0.3, -0.7]), 20),
    (np.array([0.1, 0.9]), np.array([0.0, 0.0]), 5),
    (np.array([0.5, 0.5]), np.array([1.3, 2.1]), 0),
)
def ball_in_box(p0, v0, steps):
    pos = p0.astype(float).copy()
    vel = v0.astype(float).copy()
    dt = 0.1
    total_bounces = 0
    for _ in range(steps):
        pos += vel * dt
        total_bounces += _reflect(pos, vel, 0.0, 1.0)
    return pos, vel, total_bounces


@prog((np.array([1.0, 0.0]), 0.5, 200), (np.array([0.0, 2.0]), 0.0, 50))
def damped_spring_settle(state0, damping, max_steps):
    k, m, dt = 4.0, 1.0, 0.05
    x, v = float(state0[0]), float(state0[1])
    for step in range(max_steps):
        a = (-k * x - damping * v) / m
        v += a * dt
        x += v * dt
        energy = 0.5 * m * v * v + 0.5 * k * x * x
        if energy < 1e-3:
            return step, x, v
    return None, x, v


def _pair_forces(pos, k):
    n = pos.shape[0]
    f = np.zeros_like(pos)
    for i in range(n - 1):
        d = pos[i + 1] - pos[i] - 1.0
        f[i] += k * d
        f[i + 1] -= k * d
    return f


@prog((np.array([0.0, 1.2, 2.1, 3.5]), 30), (np.array([0.0, 1.0]), 10), (np.array([5.0]), 4))
def spring_chain(x0, steps):
    pos = x0.copy()
    vel = np.zeros_like(pos)
    for _ in range(steps):
        f = _pair_forces(pos, 10.0)
        vel = 0.9 * vel + 0.01 * f
        pos = pos + vel
    return pos.round(6), float(np.abs(vel).max())


@prog(
    (np.array([0.0, 3.0]), np.array([1.0, -1.0]), np.array([1.0, 2.0])),
    (np.array([0.0, 3.0]), np.array([-1.0, 1.0]), np.array([1.0, 1.0])),
)
def elastic_collision_time(x, v, m):
    # two particles on a line; when do they meet, and what are the velocities after
    rel_v = v[1] - v[0]
    gap = x[1] - x[0]
    if rel_v >= 0:
        return None, v.copy()
    t = -gap / rel_v
    m1, m2 = m[0], m[1]
    u1 = ((m1 - m2) * v[0] + 2 * m2 * v[1]) / (m1 + m2)
    u2 = ((m2 - m1) * v[1] + 2 * m1 * v[0]) / (m1 + m2)
    return t, np.array([u1, u2])


@prog((10.0, 45.0), (20.0, 80.0), (0.0, 30.0))
def projectile_max_height_and_range(speed, angle_deg):
    g = 9.81
    dt = 0.01
    theta = math.radians(angle_deg)
    vx = speed * math.cos(theta)
    vy = speed * math.sin(theta)
    x = y = 0.0
    top = 0.0
    t = 0.0
    while True:
        x += vx * dt
        vy -= g * dt
        y += vy * dt
        t += dt
        top = max(top, y)
        if y < 0:
            break
    return round(x, 2), round(top, 2), round(t, 2)


@prog(
    (R.uniform(0, 1, (5, 2)), R.normal(0, 0.2, (5, 2)), 15), (np.zeros((0, 2)), np.zeros((0, 2)), 3)
)
def particles_centre_of_mass_drift(p, v, steps):
    pos = p.copy()
    history = []
    for s in range(steps):
        pos = pos + 0.1 * v
        pos = np.clip(pos, 0.0, 1.0)
        if pos.shape[0] > 0:
            history.append(pos.mean(axis=0))
    if not history:
        return None
    h = np.array(history)
    return h[-1] - h[0], len(history)


class Body:
    def __init__(self, x, v, mass):
        self.x = x
        self.v = v
        self.mass = mass
        self.steps = 0

    def kick(self, force, dt):
        self.v += force / self.mass * dt

    def drift(self, dt):
        self.x += self.v * dt
        self.steps += 1

    def kinetic(self):
        return 0.5 * self.mass * self.v**2


@prog((1.0, 0.0, 2.0, 100), (0.0, 1.0, 0.5, 10))
def leapfrog_body(x0, v0, mass, n):
    b = Body(x0, v0, mass)
    dt = 0.05
    energies = []
    for i in range(n):
        b.kick(-b.x, dt / 2)
        b.drift(dt)
        b.kick(-b.x, dt / 2)
        if i % 10 == 0:
            energies.append(b.kinetic() + 0.5 * b.x**2)
    return round(b.x, 6), b.steps, round(max(energies) - min(energies), 8)


@prog((np.array([0.0, 0.0, 10.0]), 0.7), (np.array([0.0, 0.0, 0.05]), 0.5))
def bouncing_ball_bounces(state, restitution):
    y, vy, h = state[0], state[1], state[2]
    y = h
    g, dt = 9.81, 0.001
    bounces = 0
    t = 0.0
    while bounces < 5 and t < 20.0:
        vy -= g * dt
        y += vy * dt
        t += dt
        if y <= 0:
            y = 0.0
            vy = -vy * restitution
            bounces += 1
            if abs(vy) < 0.1:
                break
    return bounces, round(float(t), 3)


@prog(
    (np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]), np.array([1.0, 1.0, 1.0])),
    (np.array([[0.0, 0.0]]), np.array([2.0])),
)
def gravity_accelerations(pos, mass):
    n = pos.shape[0]
    acc = np.zeros((n, 2))
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            d = pos[j] - pos[i]
            r2 = d @ d + 0.01
            acc[i] += mass[j] * d / r2**1.5
    return acc.round(6)


@prog((0.0, 1.0, 0.1), (2.0, -3.0, 0.5))
def heat_cooling_until(temp0, ambient, rate):
    temp = temp0
    minutes = 0
    log = []
    while abs(temp - ambient) > 0.05:
        temp += rate * (ambient - temp)
        minutes += 1
        if minutes % 5 == 0:
            log.append(round(temp, 3))
        if minutes > 500:
            raise RuntimeError("did not settle")
    return minutes, log


# ---------------------------------------------------------------- ODE solvers


def _rk4_step(f, t, y, h):
    k1 = f(t, y)
    k2 = f(t + h / 2, y + h / 2 * k1)
    k3 = f(t + h / 2, y + h / 2 * k2)
    k4 = f(t + h, y + h * k3)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def _decay(t, y):
    return -0.5 * y


@prog((np.array([1.0, 2.0]), 0.1, 0.2), (np.array([1.0]), 0.5, 0.9), (np.array([0.01]), 0.1, 0.5))
def rk4_until_below(y0, h, threshold):
    t = 0.0
    y = y0.copy()
    steps = 0
    while y.max() >= threshold:
        y = _rk4_step(_decay, t, y, h)
        t += h
        steps += 1
        if steps >= 1000:
            break
    return steps, round(t, 6), y


def _oscillator(t, s):
    return np.array([s[1], -s[0]])


@prog((np.array([1.0, 0.0]), 0.1, 63), (np.array([0.0, 1.0]), 0.25, 8))
def euler_vs_rk4_error(s0, h, n):
    se = s0.copy()
    sr = s0.copy()
    t = 0.0
    for _ in range(n):
        se = se + h * _oscillator(t, se)
        sr = _rk4_step(_oscillator, t, sr, h)
        t += h
    exact = np.array(
        [s0[0] * np.cos(t) + s0[1] * np.sin(t), -s0[0] * np.sin(t) + s0[1] * np.cos(t)]
    )
    return float(np.linalg.norm(se - exact)), float(np.linalg.norm(sr - exact))


@prog((1.0, 0.1, 2.0), (0.5, 0.25, 1.0), (1.0, 0.5, 0.0))
def midpoint_logistic(y0, h, t_end):
    r, K = 1.5, 10.0
    t, y = 0.0, y0
    ts, ys = [t], [y]
    while t < t_end - 1e-12:
        mid = y + h / 2 * r * y * (1 - y / K)
        y = y + h * r * mid * (1 - mid / K)
        t += h
        ts.append(round(t, 10))
        ys.append(y)
    return np.array(ts), np.array(ys)


@prog((np.array([10.0, 0.0]), 5.0), (np.array([1.0, 15.0]), 0.5))
def falling_with_drag_terminal(state, mass):
    g, c, dt = 9.81, 0.4, 0.01
    height, v = state[0], state[1]
    t = 0.0
    terminal = math.sqrt(mass * g / c)
    reached = False
    while height > 0:
        a = g - c / mass * v * abs(v)
        v = v + a * dt
        height = height - v * dt
        t += dt
        if not reached and abs(v - terminal) < 0.01 * terminal:
            reached = True
    return round(t, 2), round(float(v), 3), reached


@prog((np.array([1.0, 1.0]), 0.01, 2.0), (np.array([2.0, 0.5]), 0.05, 0.5))
def adaptive_euler_steps(y0, tol, t_end):
    def f(y):
        return np.array([y[1], -y[0] - 0.1 * y[1]])

    t, y, h = 0.0, y0.copy(), 0.1
    accepted = rejected = 0
    while t < t_end:
        h = min(h, t_end - t)
        full = y + h * f(y)
        half = y + h / 2 * f(y)
        half = half + h / 2 * f(half)
        err = np.max(np.abs(full - half))
        if err > tol:
            h /= 2
            rejected += 1
            continue
        y, t = half, t + h
        accepted += 1
        if err < tol / 4:
            h *= 2
    return accepted, rejected, y.round(5)


@prog((np.array([0.99, 0.01, 0.0]), 0.3, 0.1, 100), (np.array([1.0, 0.0, 0.0]), 0.3, 0.1, 10))
def sir_peak_day(s0, beta, gamma, days):
    s, i, r = s0
    peak_i, peak_day = i, 0
    for day in range(1, days + 1):
        new_inf = beta * s * i
        new_rec = gamma * i
        s, i, r = s - new_inf, i + new_inf - new_rec, r + new_rec
        if i > peak_i:
            peak_i, peak_day = i, day
        elif i < peak_i / 10:
            break
    return peak_day, round(float(peak_i), 5), round(float(r), 5)


# ---------------------------------------------------------------- root finding


def _bisect_root(f, lo, hi, tol=1e-8, max_iter=100):
    flo = f(lo)
    if flo * f(hi) > 0:
        raise ValueError("root not bracketed")
    it = 0
    for it in range(max_iter):
        mid = (lo + hi) / 2
        fm = f(mid)
        if fm == 0 or (hi - lo) / 2 < tol:
            break
        if fm * flo < 0:
            hi = mid
        else:
            lo, flo = mid, fm
    return (lo + hi) / 2, it


@prog((1.0, 2.0), (0.0, 1.0), (-3.0, 3.0))
def bisection_cube_minus_two(a, b):
    root, iters = _bisect_root(lambda x: x**3 - 2 * x - 1, a, b)
    return round(root, 6), iters


@prog(
    (np.array([1.0, 0.0, -2.0]), 1.0, 2.0),
    (np.array([1.0, 0.0, 1.0]), 0.0, 1.0),
    (np.array([1.0, -3.0, 2.0]), 0.9, 1.5),
)
def secant_poly_root(coeffs, x0, x1):
    def p(x):
        acc = 0.0
        for c in coeffs:
            acc = acc * x + c
        return acc

    f0, f1 = p(x0), p(x1)
    for i in range(50):
        if f1 == f0:
            return None
        x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
        if abs(x2 - x1) < 1e-10:
            return round(float(x2), 8), i
        x0, f0 = x1, f1
        x1, f1 = x2, p(x2)
    return None


@prog((np.array([2.0, 9.0, 0.25]),), (np.array([0.0, 1.0]),), (E,))
def newton_sqrt_each(values):
    out = []
    for v in values:
        if v == 0:
            out.append(0.0)
            continue
        x = v if v > 1 else 1.0
        for k in range(30):
            nx = 0.5 * (x + v / x)
            if abs(nx - x) < 1e-12:
                break
            x = nx
        else:
            print("no convergence for", v)
        out.append(x)
    return np.array(out)


@prog((0.0, 2.0), (2.0, 4.0), (-1.0, 0.0))
def regula_falsi_cos(a, b):
    f = lambda x: math.cos(x) - x / 2
    fa, fb = f(a), f(b)
    if fa * fb > 0:
        return "no sign change"
    c = a
    for n in range(1, 60):
        c = (a * fb - b * fa) / (fb - fa)
        fc = f(c)
        if abs(fc) < 1e-9:
            return round(c, 7), n
        if fa * fc < 0:
            b, fb = c, fc
        else:
            a, fa = c, fc
    return round(c, 7), 60


@prog((np.array([-4.0, -1.0, 0.5, 3.0, 4.0]),), (np.array([1.0, 2.0]),))
def sign_change_brackets_then_refine(grid):
    def g(x):
        return x**2 - 2.0

    roots = []
    for a, b in zip(grid[:-1], grid[1:]):
        if g(a) * g(b) <= 0:
            r, _ = _bisect_root(g, float(a), float(b), tol=1e-6)
            roots.append(round(r, 5))
    return roots


@prog((1.0,), (10.0,), (-2.0,))
def fixed_point_cos_with_damping(x0):
    x = x0
    history = deque(maxlen=3)
    for i in range(200):
        nx = 0.5 * x + 0.5 * math.cos(x)
        history.append(abs(nx - x))
        x = nx
        if len(history) == 3 and max(history) < 1e-9:
            return round(x, 8), i
    return None, None


@prog((np.array([1.0, -6.0, 11.0, -6.0]),), (np.array([1.0, 0.0, 0.0, -8.0]),))
def newton_deflation_all_roots(coeffs):
    c = list(coeffs)
    roots = []
    while len(c) > 2:
        x = 0.0
        for _ in range(100):
            p, dp = 0.0, 0.0
            for a in c:
                dp = dp * x + p
                p = p * x + a
            if dp == 0:
                x += 0.5
                continue
            step = p / dp
            x -= step
            if abs(step) < 1e-12:
                break
        roots.append(round(x, 6))
        # synthetic division
        q = [c[0]]
        for a in c[1:-1]:
            q.append(a + q[-1] * x)
        c = q
    roots.append(round(-c[1] / c[0], 6))
    return sorted(roots)


# ---------------------------------------------------------------- images


def _neighbors4(r, c, h, w):
    out = []
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        nr, nc = r + dr, c + dc
        if 0 <= nr < h and 0 <= nc < w:
            out.append((nr, nc))
    return out


@prog((IMG, 0, 2), (IMG, 0, 0), (IMG2, 1, 1))
def flood_fill_queue(img, r0, c0):
    h, w = img.shape
    out = img.copy()
    target = out[r0, c0]
    if target == 7:
        return out, 0
    q = deque([(r0, c0)])
    out[r0, c0] = 7
    filled = 1
    while q:
        r, c = q.popleft()
        for nr, nc in _neighbors4(r, c, h, w):
            if out[nr, nc] == target:
                out[nr, nc] = 7
                filled += 1
                q.append((nr, nc))
    return out, filled


@prog((IMG,), (IMG2,), (np.ones((2, 3), dtype=np.int64),))
def label_components_two_pass(img):
    h, w = img.shape
    labels = np.zeros((h, w), dtype=np.int64)
    parent = {}

    def find(a):
        while parent[a] != a:
            a = parent[a]
        return a

    nxt = 1
    for r in range(h):
        for c in range(w):
            if img[r, c] == 0:
                continue
            up = labels[r - 1, c] if r > 0 else 0
            left = labels[r, c - 1] if c > 0 else 0
            if up == 0 and left == 0:
                labels[r, c] = nxt
                parent[nxt] = nxt
                nxt += 1
            elif up and left:
                a, b = find(int(up)), find(int(left))
                labels[r, c] = min(a, b)
                parent[max(a, b)] = min(a, b)
            else:
                labels[r, c] = max(up, left)
    for r in range(h):
        for c in range(w):
            if labels[r, c]:
                labels[r, c] = find(int(labels[r, c]))
    return labels, len({find(k) for k in parent})


def _convolve2d_valid(img, k):
    kh, kw = k.shape
    h, w = img.shape
    out = np.zeros((h - kh + 1, w - kw + 1))
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            acc = 0.0
            for a in range(kh):
                for b in range(kw):
                    acc += img[i + a, j + b] * k[a, b]
            out[i, j] = acc
    return out


@prog((GRAYF,), (np.eye(3),))
def sharpen_and_clip(img):
    k = np.array([[0.0, -1.0, 0.0], [-1.0, 5.0, -1.0], [0.0, -1.0, 0.0]])
    out = _convolve2d_valid(img, k)
    clipped = int(np.sum((out < 0) | (out > 1)))
    return np.clip(out, 0.0, 1.0).round(6), clipped


@prog((GRAY,), (np.full((2, 2), 5),))
def equalize_hist_by_hand(img):
    hist = [0] * 256
    for v in img.ravel():
        hist[int(v)] += 1
    cdf = []
    running = 0
    for count in hist:
        running += count
        cdf.append(running)
    cdf_min = next(c for c in cdf if c > 0)
    total = img.size
    if total == cdf_min:
        return img.copy()
    lut = np.array([round((c - cdf_min) / (total - cdf_min) * 255) for c in cdf])
    return lut[img]


@prog((GRAY, 100), (GRAY, 300), (IMG2, 0))
def threshold_and_bbox(img, level):
    mask = img > level
    if not mask.any():
        return None
    rows = np.where(mask.any(axis=1))[0]
    cols = np.where(mask.any(axis=0))[0]
    top, bottom = int(rows[0]), int(rows[-1])
    left, right = int(cols[0]), int(cols[-1])
    area = (bottom - top + 1) * (right - left + 1)
    return (top, left, bottom, right), area, round(mask.sum() / area, 4)


@prog((GRAY,), (IMG,))
def median_3x3_loops(img):
    h, w = img.shape
    out = img.copy()
    for r in range(1, h - 1):
        for c in range(1, w - 1):
            window = sorted(img[r - 1 : r + 2, c - 1 : c + 2].ravel())
            out[r, c] = window[4]
    return out


@prog((GRAY,), (GRAY[:1],))
def otsu_by_loops(img):
    hist = np.bincount(img.ravel(), minlength=256).astype(float)
    total = hist.sum()
    sum_all = np.dot(np.arange(256), hist)
    best_t, best_var = 0, -1.0
    w0 = 0.0
    sum0 = 0.0
    for t in range(256):
        w0 += hist[t]
        if w0 == 0:
            continue
        w1 = total - w0
        if w1 == 0:
            break
        sum0 += t * hist[t]
        m0 = sum0 / w0
        m1 = (sum_all - sum0) / w1
        var = w0 * w1 * (m0 - m1) ** 2
        if var > best_var:
            best_var, best_t = var, t
    return best_t


@prog((IMG,), (IMG2,))
def count_islands_dfs_recursive(grid):
    h, w = grid.shape
    seen = np.zeros((h, w), dtype=bool)

    def dfs(r, c):
        if r < 0 or c < 0 or r >= h or c >= w:
            return 0
        if seen[r, c] or grid[r, c] == 0:
            return 0
        seen[r, c] = True
        return 1 + dfs(r + 1, c) + dfs(r - 1, c) + dfs(r, c + 1) + dfs(r, c - 1)

    sizes = []
    for r in range(h):
        for c in range(w):
            if grid[r, c] == 1 and not seen[r, c]:
                sizes.append(dfs(r, c))
    return len(sizes), sorted(sizes, reverse=True)


@prog((GRAYF, 2), (GRAYF, 1))
def integral_image_box_sums(img, k):
    ii = np.zeros((img.shape[0] + 1, img.shape[1] + 1))
    ii[1:, 1:] = img.cumsum(axis=0).cumsum(axis=1)
    h, w = img.shape
    best = None
    where = None
    for r in range(h - k + 1):
        for c in range(w - k + 1):
            s = ii[r + k, c + k] - ii[r, c + k] - ii[r + k, c] + ii[r, c]
            if best is None or s > best:
                best, where = s, (r, c)
    return round(float(best), 6), where


@prog((IMG,), (np.ones((1, 1), dtype=np.int64),))
def erode_then_dilate(img):
    h, w = img.shape
    er = np.zeros_like(img)
    for r in range(h):
        for c in range(w):
            keep = 1
            for nr, nc in _neighbors4(r, c, h, w):
                if img[nr, nc] == 0:
                    keep = 0
                    break
            er[r, c] = keep & img[r, c]
    di = er.copy()
    for r in range(h):
        for c in range(w):
            if er[r, c]:
                for nr, nc in _neighbors4(r, c, h, w):
                    di[nr, nc] = 1
    return er, di, int(di.sum())


@prog((GRAY,), (np.arange(12).reshape(3, 4),))
def rotate_by_loops_and_compare(img):
    h, w = img.shape
    rot = np.zeros((w, h), dtype=img.dtype)
    for r in range(h):
        for c in range(w):
            rot[c, h - 1 - r] = img[r, c]
    return rot, bool(np.array_equal(rot, np.rot90(img, -1)))


@prog((GRAYF,), (np.zeros((2, 5)),))
def gradient_direction_histogram(img):
    gy, gx = np.gradient(img)
    mag = np.hypot(gx, gy)
    ang = np.degrees(np.arctan2(gy, gx)) % 180
    bins = [0.0] * 4
    for m, a in zip(mag.ravel(), ang.ravel()):
        if m < 1e-9:
            continue
        bins[int(a // 45) % 4] += m
    total = sum(bins)
    return [round(b / total, 4) for b in bins] if total else bins


# ---------------------------------------------------------------- time series


@prog((SIG, 3), (SIG2, 5), (E, 2))
def rolling_max_min_deque(x, w):
    maxq, minq = deque(), deque()
    out = []
    for i, v in enumerate(x):
        while maxq and x[maxq[-1]] <= v:
            maxq.pop()
        while minq and x[minq[-1]] >= v:
            minq.pop()
        maxq.append(i)
        minq.append(i)
        if maxq[0] <= i - w:
            maxq.popleft()
        if minq[0] <= i - w:
            minq.popleft()
        if i >= w - 1:
            out.append((float(x[maxq[0]]), float(x[minq[0]])))
    return out


@prog((SIG, 1.0), (SIG2, 0.5), (np.array([1.0, 3.0, 1.0]), 5.0))
def peaks_with_prominence(x, min_prom):
    peaks = []
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] >= x[i + 1]:
            left_min = x[:i].min()
            right_min = x[i + 1 :].min()
            prom = x[i] - max(left_min, right_min)
            if prom >= min_prom:
                peaks.append((i, round(float(prom), 3)))
    return peaks


def _rle(values):
    runs = []
    for v in values:
        if runs and runs[-1][0] == v:
            runs[-1][1] += 1
        else:
            runs.append([v, 1])
    return runs


def _unrle(runs):
    out = []
    for v, n in runs:
        out.extend([v] * n)
    return out


@prog((np.array([1, 1, 2, 2, 2, 0, 1, 1]),), (EI,), (np.array([5]),))
def rle_roundtrip(a):
    runs = _rle(a.tolist())
    back = _unrle(runs)
    longest = max((n for _, n in runs), default=0)
    return runs, back == a.tolist(), longest


@prog(
    (np.array([0.0, 1.0, 2.5, 4.0, 7.0]), np.array([1.0, 3.0, 2.0, 0.0, 1.0]), 1.0),
    (np.array([0.0, 2.0]), np.array([5.0, 5.0]), 0.5),
)
def resample_uniform_linear(t, y, dt):
    grid = []
    tt = t[0]
    while tt <= t[-1] + 1e-12:
        grid.append(tt)
        tt += dt
    out = []
    j = 0
    for g in grid:
        while j < len(t) - 2 and t[j + 1] < g:
            j += 1
        frac = (g - t[j]) / (t[j + 1] - t[j])
        out.append(y[j] + frac * (y[j + 1] - y[j]))
    return np.array(grid), np.array(out)


@prog((SIG, 4), (SIG2, 2), (np.array([1.0, 2.0, 3.0]), 0))
def downsample_mean_buckets(x, factor):
    if factor <= 0:
        raise ValueError("factor must be positive")
    n = len(x) // factor
    means = np.empty(n)
    for b in range(n):
        means[b] = x[b * factor : (b + 1) * factor].mean()
    leftover = len(x) - n * factor
    return means, leftover


@prog((SIG, 0.3), (SIG2, 0.9), (E, 0.5))
def exp_smoothing_with_trend(x, alpha):
    if len(x) < 2:
        return []
    level, trend = x[0], x[1] - x[0]
    fitted = [float(level)]
    beta = 0.2
    for v in x[1:]:
        prev = level
        level = alpha * v + (1 - alpha) * (level + trend)
        trend = beta * (level - prev) + (1 - beta) * trend
        fitted.append(round(float(level), 6))
    forecast = [round(float(level + h * trend), 6) for h in (1, 2, 3)]
    return fitted, forecast


@prog(
    (np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]),),
    (np.array([1.0, 2.0, 3.0]),),
    (np.array([2.0]),),
)
def zigzag_turning_points(x):
    turns = []
    direction = 0
    for i in range(1, len(x)):
        d = np.sign(x[i] - x[i - 1])
        if d != 0 and d != direction:
            if direction != 0:
                turns.append(i - 1)
            direction = d
    return turns, len(turns)


@prog(
    (np.array([0, 0, 1, 1, 1, 0, 1, 1, 0, 0, 0, 1]), 2),
    (np.zeros(5, dtype=np.int64), 1),
    (np.ones(4, dtype=np.int64), 3),
)
def debounced_edges(bits, hold):
    state = int(bits[0]) if len(bits) else 0
    count = 0
    edges = []
    for i in range(1, len(bits)):
        if bits[i] != state:
            count += 1
            if count >= hold:
                state = int(bits[i])
                edges.append((i, "rise" if state else "fall"))
                count = 0
        else:
            count = 0
    return edges


@prog((SIG, 3), (SIG2, 3), (SIG, 20))
def rolling_median_and_mad(x, w):
    meds, mads = [], []
    for i in range(len(x) - w + 1):
        win = np.sort(x[i : i + w])
        m = win[w // 2] if w % 2 else (win[w // 2 - 1] + win[w // 2]) / 2
        meds.append(m)
        mads.append(np.median(np.abs(win - m)))
    return np.array(meds), np.array(mads)


@prog((np.array([10.0, 12.0, 11.0, 30.0, 12.0, 11.0, 10.0, 50.0]), 2.0), (SIG2, 1.0))
def spikes_replaced_by_neighbour_mean(x, k):
    y = x.copy()
    med = np.median(x)
    spread = np.median(np.abs(x - med)) or 1.0
    replaced = []
    for i in range(len(y)):
        if abs(y[i] - med) > k * spread * 1.4826:
            left = y[i - 1] if i > 0 else y[i + 1]
            right = y[i + 1] if i < len(y) - 1 else y[i - 1]
            y[i] = (left + right) / 2
            replaced.append(i)
    return y, replaced


@prog((SIG,), (SIG2,), (np.array([1.0, 2.0]),))
def autocorr_first_dip(x):
    x = x - x.mean()
    denom = np.dot(x, x)
    if denom == 0:
        return None
    prev = 1.0
    for lag in range(1, len(x)):
        r = np.dot(x[:-lag], x[lag:]) / denom
        if r > prev:
            return lag - 1, round(float(prev), 5)
        prev = r
    return len(x) - 1, round(float(prev), 5)


@prog((np.array([1, 3, 7, 8, 9, 15, 16, 30]), 2), (np.array([5]), 1), (EI, 3))
def sessionize_timestamps(ts, gap):
    sessions = []
    start = prev = None
    for t in ts:
        t = int(t)
        if start is None:
            start = prev = t
        elif t - prev > gap:
            sessions.append((start, prev))
            start = prev = t
        else:
            prev = t
    if start is not None:
        sessions.append((start, prev))
    durations = [b - a for a, b in sessions]
    return sessions, sum(durations)


@prog((np.array([100.0, 101.0, 99.5, 102.0, 104.0, 103.0]),), (np.array([50.0]),))
def percent_changes_report(prices):
    lines = []
    for i in range(1, len(prices)):
        ch = (prices[i] - prices[i - 1]) / prices[i - 1] * 100
        arrow = "up" if ch > 0 else "down" if ch < 0 else "flat"
        lines.append(f"day {i}: {ch:+.2f}% {arrow}")
    if not lines:
        return "no changes"
    return "\n".join(lines)


@prog((SIG, 3.0), (SIG2, 1.0), (E, 1.0))
def crossing_times_linear(x, level):
    times = []
    for i in range(len(x) - 1):
        a, b = x[i] - level, x[i + 1] - level
        if a == 0:
            times.append(float(i))
        elif a * b < 0:
            times.append(i + a / (a - b))
    return [round(t, 4) for t in times]


# ---------------------------------------------------------------- int-coded parsing

PREC = {1: 1, 2: 1, 3: 2, 4: 2}


def _apply(op, a, b):
    if op == 1:
        return a + b
    if op == 2:
        return a - b
    if op == 3:
        return a * b
    if b == 0:
        raise ZeroDivisionError("division by zero in expression")
    return a // b


def _to_rpn(tokens):
    out, ops = [], []
    for kind, val in tokens:
        if kind == 0:
            out.append((0, int(val)))
        elif kind == 5:
            ops.append(5)
        elif kind == 6:
            while ops and ops[-1] != 5:
                out.append((ops.pop(), 0))
            if not ops:
                raise ValueError("unbalanced parenthesis")
            ops.pop()
        else:
            while ops and ops[-1] != 5 and PREC[ops[-1]] >= PREC[int(kind)]:
                out.append((ops.pop(), 0))
            ops.append(int(kind))
    while ops:
        op = ops.pop()
        if op == 5:
            raise ValueError("unbalanced parenthesis")
        out.append((op, 0))
    return out


def _eval_rpn(rpn):
    stack = []
    for kind, val in rpn:
        if kind == 0:
            stack.append(val)
            continue
        if len(stack) < 2:
            raise ValueError("missing operand")
        b = stack.pop()
        a = stack.pop()
        stack.append(_apply(kind, a, b))
    if len(stack) != 1:
        raise ValueError("leftover operands")
    return stack[0]


@prog((TOKS,), (TOKS_PAREN,), (TOKS_BAD,), (TOKS_DIV0,))
def shunting_yard_calc(tokens):
    return _eval_rpn(_to_rpn(tokens))


@prog((TOKS,), (TOKS_PAREN,), (TOKS_BAD,), (TOKS_DIV0,))
def calc_or_error_code(tokens):
    try:
        value = _eval_rpn(_to_rpn(tokens))
    except ZeroDivisionError:
        return None, "div0"
    except ValueError as e:
        return None, str(e)
    return value, "ok"


# stack machine: opcode, arg. 0 push arg, 1 add, 2 mul, 3 dup, 4 swap, 5 jump-if-zero to arg,
# 6 jump to arg, 7 dec, 8 halt
PROG_SIMPLE = np.array([[0, 2], [0, 3], [1, 0], [0, 4], [2, 0], [8, 0]])
PROG_LOOP = np.array([[0, 5], [7, 0], [3, 0], [5, 5], [6, 1], [8, 0]])


@prog((PROG_SIMPLE, 50), (PROG_LOOP, 100), (PROG_LOOP, 6))
def stack_machine_run(code, max_steps):
    stack = []
    pc = 0
    steps = 0
    while pc < len(code):
        op, arg = int(code[pc, 0]), int(code[pc, 1])
        steps += 1
        if steps > max_steps:
            return "timeout", stack
        pc += 1
        if op == 0:
            stack.append(arg)
        elif op == 1:
            stack.append(stack.pop() + stack.pop())
        elif op == 2:
            stack.append(stack.pop() * stack.pop())
        elif op == 3:
            stack.append(stack[-1])
        elif op == 4:
            stack[-1], stack[-2] = stack[-2], stack[-1]
        elif op == 5:
            if stack.pop() == 0:
                pc = arg
        elif op == 6:
            pc = arg
        elif op == 7:
            stack[-1] -= 1
        elif op == 8:
            break
    return "halt", stack


# brackets: 1 ( 2 ) 3 [ 4 ] 5 { 6 }
@prog(
    (np.array([1, 3, 4, 5, 6, 2]),),
    (np.array([1, 3, 2, 4]),),
    (np.array([2]),),
    (EI,),
    (np.array([1, 1, 2]),),
)
def bracket_match_report(codes):
    pairs = {2: 1, 4: 3, 6: 5}
    stack = []
    depth_max = 0
    for pos, c in enumerate(codes):
        c = int(c)
        if c in (1, 3, 5):
            stack.append((c, pos))
            depth_max = max(depth_max, len(stack))
        else:
            if not stack:
                return False, pos, depth_max
            opener, _ = stack.pop()
            if opener != pairs[c]:
                return False, pos, depth_max
    if stack:
        return False, stack[-1][1], depth_max
    return True, -1, depth_max


@prog((np.array([4, 0, 2, 9, 9, 1, 7, 0, 0, 3]),), (np.array([9, 9]),), (np.array([1, 2, 3]),))
def digits_to_numbers_split_on_nines(digits):
    numbers = []
    cur = None
    for d in digits:
        if d == 9:
            if cur is not None:
                numbers.append(cur)
            cur = None
        else:
            cur = int(d) if cur is None else cur * 10 + int(d)
    if cur is not None:
        numbers.append(cur)
    return numbers, sum(numbers)


@prog((np.array([2, 5, 1, 3, 1, 4, 0]),), (np.array([2, 5, 1]),), (np.array([0]),))
def tlv_records(stream):
    # type, length, values...; type 0 ends the stream
    recs = []
    i = 0
    while i < len(stream):
        t = int(stream[i])
        if t == 0:
            break
        if i + 1 >= len(stream):
            raise ValueError("truncated header")
        n = int(stream[i + 1])
        vals = stream[i + 2 : i + 2 + n]
        if len(vals) < n:
            raise ValueError("truncated record")
        recs.append((t, vals.tolist()))
        i += 2 + n
    return recs


# ---------------------------------------------------------------- dynamic programming


@prog((np.array([1, 2, 3, 4]), np.array([1, 3, 4, 5])), (np.array([7, 7]), EI), (EI, EI))
def edit_distance_ops(a, b):
    n, m = len(a), len(b)
    d = np.zeros((n + 1, m + 1), dtype=np.int64)
    d[:, 0] = np.arange(n + 1)
    d[0, :] = np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + cost)
    ops = []
    i, j = n, m
    while i > 0 or j > 0:
        if i > 0 and j > 0 and d[i, j] == d[i - 1, j - 1] + (a[i - 1] != b[j - 1]):
            if a[i - 1] != b[j - 1]:
                ops.append("sub")
            i, j = i - 1, j - 1
        elif i > 0 and d[i, j] == d[i - 1, j] + 1:
            ops.append("del")
            i -= 1
        else:
            ops.append("ins")
            j -= 1
    return int(d[n, m]), ops[::-1]


@prog((np.array([3, 10, 2, 1, 20, 4, 6, 7]),), (EI,), (np.array([5, 4, 3]),))
def lis_with_sequence(x):
    n = len(x)
    if n == 0:
        return []
    best = [1] * n
    prev = [-1] * n
    for i in range(n):
        for j in range(i):
            if x[j] < x[i] and best[j] + 1 > best[i]:
                best[i] = best[j] + 1
                prev[i] = j
    k = max(range(n), key=lambda i: best[i])
    seq = []
    while k != -1:
        seq.append(int(x[k]))
        k = prev[k]
    return seq[::-1]


@prog(
    (np.array([2, 3, 4, 5]), np.array([3, 4, 5, 6]), 5),
    (np.array([10]), np.array([1]), 5),
    (EI, EI, 3),
)
def knapsack_items_chosen(weights, values, cap):
    n = len(weights)
    table = [[0] * (cap + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        w, v = int(weights[i - 1]), int(values[i - 1])
        for c in range(cap + 1):
            table[i][c] = table[i - 1][c]
            if w <= c and table[i - 1][c - w] + v > table[i][c]:
                table[i][c] = table[i - 1][c - w] + v
    chosen = []
    c = cap
    for i in range(n, 0, -1):
        if table[i][c] != table[i - 1][c]:
            chosen.append(i - 1)
            c -= int(weights[i - 1])
    return table[n][cap], sorted(chosen)


@prog((np.array([1, 5, 10, 25]), 63), (np.array([2]), 3), (np.array([3, 7]), 0))
def coin_change_with_coins(coins, amount):
    INF = float("inf")
    best = [0] + [INF] * amount
    last = [-1] * (amount + 1)
    for a in range(1, amount + 1):
        for c in coins:
            c = int(c)
            if c <= a and best[a - c] + 1 < best[a]:
                best[a] = best[a - c] + 1
                last[a] = c
    if best[amount] == INF:
        return None
    used = Counter()
    a = amount
    while a > 0:
        used[last[a]] += 1
        a -= last[a]
    return int(best[amount]), dict(used)


@prog(
    (np.array([1, 3, 4, 1, 2, 3]), np.array([3, 4, 1, 2, 1, 3])),
    (np.array([1, 2]), np.array([3, 4])),
)
def lcs_traceback(a, b):
    n, m = len(a), len(b)
    L = np.zeros((n + 1, m + 1), dtype=int)
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            if a[i] == b[j]:
                L[i, j] = 1 + L[i + 1, j + 1]
            else:
                L[i, j] = max(L[i + 1, j], L[i, j + 1])
    i = j = 0
    out = []
    while i < n and j < m:
        if a[i] == b[j]:
            out.append(int(a[i]))
            i += 1
            j += 1
        elif L[i + 1, j] >= L[i, j + 1]:
            i += 1
        else:
            j += 1
    return out


@prog((np.array([[1, 3, 1], [1, 5, 1], [4, 2, 1]]),), (np.array([[7]]),))
def grid_min_path_with_moves(cost):
    h, w = cost.shape
    dp = np.zeros((h, w))
    for r in range(h):
        for c in range(w):
            if r == 0 and c == 0:
                dp[r, c] = cost[r, c]
            elif r == 0:
                dp[r, c] = dp[r, c - 1] + cost[r, c]
            elif c == 0:
                dp[r, c] = dp[r - 1, c] + cost[r, c]
            else:
                dp[r, c] = min(dp[r - 1, c], dp[r, c - 1]) + cost[r, c]
    moves = []
    r, c = h - 1, w - 1
    while r > 0 or c > 0:
        if r == 0 or (c > 0 and dp[r, c - 1] <= dp[r - 1, c]):
            moves.append("R")
            c -= 1
        else:
            moves.append("D")
            r -= 1
    return dp[-1, -1], "".join(reversed(moves))


@prog((10,), (1,), (0,))
def stairs_memo_dict(n):
    memo = {0: 1, 1: 1}

    def ways(k):
        if k in memo:
            return memo[k]
        total = ways(k - 1) + ways(k - 2)
        if k >= 3:
            total += ways(k - 3)
        memo[k] = total
        return total

    return ways(n), len(memo)


@prog((np.array([2, 7, 9, 3, 1]),), (np.array([5]),), (EI,))
def house_robber_choice(vals):
    take, skip = 0, 0
    for v in vals:
        take, skip = skip + int(v), max(take, skip)
    return max(take, skip)


@prog((np.array([-2, 1, -3, 4, -1, 2, 1, -5, 4]),), (np.array([-3, -1, -2]),), (np.array([0]),))
def max_subarray_bounds(x):
    best = x[0]
    best_l = best_r = 0
    cur = 0
    l = 0
    for r, v in enumerate(x):
        if cur <= 0:
            cur = v
            l = r
        else:
            cur += v
        if cur > best:
            best, best_l, best_r = cur, l, r
    return int(best), best_l, best_r


@prog((np.array([1, 5, 11, 5]),), (np.array([1, 2, 5]),), (EI,))
def partition_two_equal(x):
    total = int(x.sum())
    if total % 2:
        return False
    half = total // 2
    reach = {0}
    for v in x:
        reach |= {r + int(v) for r in reach if r + int(v) <= half}
        if half in reach:
            return True
    return half in reach


@prog((np.array([10, 20, 30, 40]),), (np.array([5, 5]),))
def matrix_chain_min_cost(dims):
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            j = i + length - 1
            cost[i][j] = min(
                cost[i][k] + cost[k + 1][j] + int(dims[i] * dims[k + 1] * dims[j + 1])
                for k in range(i, j)
            )
    return cost[0][n - 1]


@prog((np.array([2, 3, 1, 1, 4]),), (np.array([3, 2, 1, 0, 4]),), (np.array([0]),))
def jump_game_greedy(jumps):
    reach = 0
    n_jumps = 0
    end = 0
    for i in range(len(jumps) - 1):
        if i > reach:
            return None
        reach = max(reach, i + int(jumps[i]))
        if i == end:
            n_jumps += 1
            end = reach
    return n_jumps if reach >= len(jumps) - 1 else None


@prog((np.array([1, 2, 3]), 4), (np.array([2, 5]), 3), (np.array([1]), 0))
def count_ways_lru(coins, amount):
    coins_t = tuple(int(c) for c in coins)

    @functools.lru_cache(maxsize=None)
    def ways(i, rest):
        if rest == 0:
            return 1
        if i == len(coins_t) or rest < 0:
            return 0
        return ways(i, rest - coins_t[i]) + ways(i + 1, rest)

    return ways(0, amount)


# ---------------------------------------------------------------- sorting by hand


def _merge(a, b):
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


def _merge_sort(xs):
    if len(xs) <= 1:
        return list(xs)
    mid = len(xs) // 2
    return _merge(_merge_sort(xs[:mid]), _merge_sort(xs[mid:]))


@prog((np.array([5, 2, 9, 1, 5, 6]),), (EI,), (np.array([3]),))
def merge_sort_list(x):
    return _merge_sort(x.tolist())


@prog((np.array([5.0, 2.0, 9.0, 1.0, 5.5, 6.0]),), (np.array([1.0, 1.0]),), (E,))
def merge_sort_array_recursive(x):
    if len(x) <= 1:
        return x.copy()
    mid = len(x) // 2
    left = merge_sort_array_recursive(x[:mid])
    right = merge_sort_array_recursive(x[mid:])
    return np.array(_merge(list(left), list(right)))


def _partition(a, lo, hi):
    pivot = a[hi]
    i = lo
    for j in range(lo, hi):
        if a[j] < pivot:
            a[i], a[j] = a[j], a[i]
            i += 1
    a[i], a[hi] = a[hi], a[i]
    return i


@prog((np.array([3, 6, 8, 10, 1, 2, 1]),), (np.array([1]),), (EI,))
def quicksort_in_place_stack(x):
    a = x.copy()
    stack = [(0, len(a) - 1)]
    swaps_calls = 0
    while stack:
        lo, hi = stack.pop()
        if lo >= hi:
            continue
        p = _partition(a, lo, hi)
        swaps_calls += 1
        stack.append((lo, p - 1))
        stack.append((p + 1, hi))
    return a, swaps_calls


@prog((np.array([4, 1, 3, 4, 0, 2, 1]),), (EI,), (np.array([2, 2, 2]),))
def counting_sort_stable(x):
    if len(x) == 0:
        return x.copy()
    k = int(x.max()) + 1
    counts = [0] * k
    for v in x:
        counts[v] += 1
    starts = list(itertools.accumulate([0] + counts[:-1]))
    out = np.empty_like(x)
    for v in x:
        out[starts[v]] = v
        starts[v] += 1
    return out


@prog((np.array([9.0, 8.0, 3.0, 7.0, 5.0, 6.0, 4.0, 1.0]),), (np.array([1.0, 2.0]),))
def shell_sort_gaps(x):
    a = x.copy()
    gap = len(a) // 2
    passes = 0
    while gap > 0:
        for i in range(gap, len(a)):
            tmp = a[i]
            j = i
            while j >= gap and a[j - gap] > tmp:
                a[j] = a[j - gap]
                j -= gap
            a[j] = tmp
        gap //= 2
        passes += 1
    return a, passes


def _sift_down(a, start, end):
    root = start
    while 2 * root + 1 <= end:
        child = 2 * root + 1
        if child + 1 <= end and a[child] < a[child + 1]:
            child += 1
        if a[root] < a[child]:
            a[root], a[child] = a[child], a[root]
            root = child
        else:
            return


@prog((np.array([5, 3, 8, 1, 9, 2]),), (np.array([1]),), (EI,))
def heap_sort_by_hand(x):
    a = x.copy()
    n = len(a)
    for start in range((n - 2) // 2, -1, -1):
        _sift_down(a, start, n - 1)
    for end in range(n - 1, 0, -1):
        a[0], a[end] = a[end], a[0]
        _sift_down(a, 0, end - 1)
    return a


@prog((np.array([3, 1, 2]),), (np.array([1, 2, 3, 4]),), (np.array([4, 3, 2, 1]),))
def insertion_sort_counting_shifts(x):
    a = list(x)
    shifts = 0
    for i in range(1, len(a)):
        key = a[i]
        j = i - 1
        while j >= 0 and a[j] > key:
            a[j + 1] = a[j]
            j -= 1
            shifts += 1
        a[j + 1] = key
    return a, shifts


@prog((np.array([[3, 1], [1, 2], [3, 0], [2, 5]]),), (np.zeros((0, 2), dtype=np.int64),))
def sort_rows_by_two_keys_bubble(rows):
    a = rows.copy()
    n = len(a)
    for i in range(n):
        swapped = False
        for j in range(n - 1 - i):
            if (a[j, 0], a[j, 1]) > (a[j + 1, 0], a[j + 1, 1]):
                a[[j, j + 1]] = a[[j + 1, j]]
                swapped = True
        if not swapped:
            break
    return a


@prog((np.array([170, 45, 75, 90, 802, 24, 2, 66]),), (np.array([0]),))
def radix_sort_lsd(x):
    a = [int(v) for v in x]
    exp = 1
    while max(a) // exp > 0:
        buckets = [[] for _ in range(10)]
        for v in a:
            buckets[(v // exp) % 10].append(v)
        a = [v for b in buckets for v in b]
        exp *= 10
    return a


# ---------------------------------------------------------------- puzzles


def _group_ok(vals):
    seen = set()
    for v in vals:
        v = int(v)
        if v == 0:
            continue
        if v in seen:
            return False
        seen.add(v)
    return True


@prog((SUDOKU,), (SUDOKU_BAD,), (SUDOKU_HOLES,))
def sudoku_check_with_holes(board):
    for i in range(9):
        if not _group_ok(board[i, :]):
            return "row", i
        if not _group_ok(board[:, i]):
            return "col", i
    for br in range(0, 9, 3):
        for bc in range(0, 9, 3):
            if not _group_ok(board[br : br + 3, bc : bc + 3].ravel()):
                return "box", br // 3 * 3 + bc // 3
    empty = int((board == 0).sum())
    return ("complete", 0) if empty == 0 else ("partial", empty)


@prog((SUDOKU_HOLES,), (SUDOKU,))
def sudoku_fill_single_candidates(board):
    b = board.copy()
    filled = 0
    progress = True
    while progress:
        progress = False
        for r in range(9):
            for c in range(9):
                if b[r, c] != 0:
                    continue
                used = set(b[r, :].tolist()) | set(b[:, c].tolist())
                br, bc = 3 * (r // 3), 3 * (c // 3)
                used |= set(b[br : br + 3, bc : bc + 3].ravel().tolist())
                cands = [d for d in range(1, 10) if d not in used]
                if len(cands) == 1:
                    b[r, c] = cands[0]
                    filled += 1
                    progress = True
    return b, filled


@prog((4,), (6,), (1,))
def n_queens_solutions_first(n):
    cols = [0] * n
    count = 0
    first = None

    def safe(row, col):
        for r in range(row):
            c = cols[r]
            if c == col or abs(c - col) == row - r:
                return False
        return True

    def place(row):
        nonlocal count, first
        if row == n:
            count += 1
            if first is None:
                first = list(cols)
            return
        for col in range(n):
            if safe(row, col):
                cols[row] = col
                place(row + 1)

    place(0)
    return count, first


@prog(
    (np.array([[2, 7, 6], [9, 5, 1], [4, 3, 8]]),),
    (np.array([[1, 2], [3, 4]]),),
    (np.array([[16, 3, 2, 13], [5, 10, 11, 8], [9, 6, 7, 12], [4, 15, 14, 1]]),),
)
def magic_square_report(sq):
    n = sq.shape[0]
    target = n * (n * n + 1) // 2
    sums = [int(s) for s in sq.sum(axis=1)] + [int(s) for s in sq.sum(axis=0)]
    sums.append(int(np.trace(sq)))
    sums.append(int(np.trace(np.fliplr(sq))))
    bad = [i for i, s in enumerate(sums) if s != target]
    distinct = sorted(sq.ravel().tolist()) == list(range(1, n * n + 1))
    return target, bad, distinct


@prog((3,), (5,))
def siamese_magic_square(n):
    sq = np.zeros((n, n), dtype=int)
    r, c = 0, n // 2
    for k in range(1, n * n + 1):
        sq[r, c] = k
        nr, nc = (r - 1) % n, (c + 1) % n
        if sq[nr, nc]:
            nr, nc = (r + 1) % n, c
        r, c = nr, nc
    return sq


@prog((np.array([[1, 0, 0], [0, 0, 0], [0, 0, 1]]),), (np.zeros((2, 2), dtype=np.int64),))
def lights_out_press_sequence(board):
    b = board.copy()
    h, w = b.shape
    presses = []
    for r in range(1, h):
        for c in range(w):
            if b[r - 1, c]:
                presses.append((r, c))
                for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < h and 0 <= cc < w:
                        b[rr, cc] ^= 1
    solved = not b.any()
    return presses, solved


@prog(
    (np.array([[0, 0, 0, 1], [1, 1, 0, 1], [0, 0, 0, 0], [0, 1, 1, 0]]),),
    (np.array([[0, 1], [1, 0]]),),
)
def maze_shortest_steps(maze):
    h, w = maze.shape
    dist = {(0, 0): 0}
    q = deque([(0, 0)])
    while q:
        r, c = q.popleft()
        if (r, c) == (h - 1, w - 1):
            return dist[(r, c)]
        for nr, nc in _neighbors4(r, c, h, w):
            if maze[nr, nc] == 0 and (nr, nc) not in dist:
                dist[(nr, nc)] = dist[(r, c)] + 1
                q.append((nr, nc))
    return -1


@prog(
    (np.array([[1, 2, 3], [4, 0, 5], [7, 8, 6]]),), (np.array([[1, 2, 3], [4, 5, 6], [8, 7, 0]]),)
)
def eight_puzzle_solvable_and_manhattan(board):
    flat = [int(v) for v in board.ravel() if v != 0]
    inversions = 0
    for i in range(len(flat)):
        for j in range(i + 1, len(flat)):
            if flat[i] > flat[j]:
                inversions += 1
    dist = 0
    for r in range(3):
        for c in range(3):
            v = int(board[r, c])
            if v:
                tr, tc = divmod(v - 1, 3)
                dist += abs(tr - r) + abs(tc - c)
    return inversions % 2 == 0, dist


@prog((np.array([[0, 1, 0], [0, 1, 0], [0, 1, 0]]), 2), (np.zeros((3, 3), dtype=np.int64), 1))
def life_generations_population(board, gens):
    b = board.copy()
    pops = [int(b.sum())]
    for _ in range(gens):
        padded = np.pad(b, 1)
        n = sum(
            padded[1 + dr : 1 + dr + b.shape[0], 1 + dc : 1 + dc + b.shape[1]]
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr, dc) != (0, 0)
        )
        b = ((n == 3) | ((b == 1) & (n == 2))).astype(b.dtype)
        pops.append(int(b.sum()))
    return b, pops


@prog(
    (np.array([[1, 2, 0], [0, 1, 2], [2, 1, 1]]),),
    (np.array([[1, 1, 1], [2, 2, 0], [0, 0, 0]]),),
    (np.zeros((3, 3), dtype=np.int64),),
)
def tictactoe_result(board):
    lines = [board[i, :] for i in range(3)] + [board[:, j] for j in range(3)]
    lines.append(np.diag(board))
    lines.append(np.diag(np.fliplr(board)))
    for line in lines:
        if line[0] != 0 and (line == line[0]).all():
            return "X wins" if line[0] == 1 else "O wins"
    if (board == 0).any():
        return "in progress"
    return "draw"


# ---------------------------------------------------------------- statistics


def _bootstrap_means(x, n_boot, seed):
    rng = np.random.default_rng(seed)
    means = np.empty(n_boot)
    for b in range(n_boot):
        sample = rng.choice(x, size=len(x), replace=True)
        means[b] = sample.mean()
    return means


@prog((SIG, 200), (SIG2, 50))
def bootstrap_ci_percentile(x, n_boot):
    means = _bootstrap_means(x, n_boot, 42)
    means.sort()
    lo = means[int(0.025 * n_boot)]
    hi = means[int(0.975 * n_boot) - 1]
    return round(float(lo), 6), round(float(hi), 6), lo <= x.mean() <= hi


class Welford:
    def __init__(self):
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0

    def push(self, v):
        self.n += 1
        d = v - self.mean
        self.mean += d / self.n
        self.m2 += d * (v - self.mean)

    def variance(self):
        return self.m2 / (self.n - 1) if self.n > 1 else float("nan")


@prog((SIG,), (np.array([4.0]),), (E,))
def welford_matches_numpy(x):
    w = Welford()
    for v in x:
        w.push(v)
    if w.n < 2:
        return w.n, w.mean, None
    return w.n, round(float(w.mean), 10), bool(abs(w.variance() - x.var(ddof=1)) < 1e-9)


@prog((SIG, 4), (SIG2, 2), (SIG, 1))
def histogram_by_hand_vs_numpy(x, bins):
    lo, hi = x.min(), x.max()
    width = (hi - lo) / bins if hi > lo else 1.0
    counts = [0] * bins
    for v in x:
        k = int((v - lo) / width)
        if k == bins:
            k -= 1
        counts[k] += 1
    ref, _ = np.histogram(x, bins=bins, range=(lo, hi) if hi > lo else None)
    return counts, counts == ref.tolist()


def _quantile_linear(sorted_x, q):
    pos = (len(sorted_x) - 1) * q
    lo = math.floor(pos)
    hi = math.ceil(pos)
    if lo == hi:
        return sorted_x[lo]
    return sorted_x[lo] + (sorted_x[hi] - sorted_x[lo]) * (pos - lo)


@prog((SIG,), (np.array([5.0]),), (E,))
def quartiles_and_iqr_outliers(x):
    if len(x) == 0:
        raise ValueError("empty sample")
    s = sorted(x)
    q1 = _quantile_linear(s, 0.25)
    q3 = _quantile_linear(s, 0.75)
    iqr = q3 - q1
    outliers = [v for v in x if v < q1 - 1.5 * iqr or v > q3 + 1.5 * iqr]
    return q1, q3, outliers, np.allclose([q1, q3], np.percentile(x, [25, 75]))


@prog(
    (np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.array([2.0, 4.0, 5.0, 4.0, 5.0])),
    (np.array([1.0, 1.0]), np.array([2.0, 3.0])),
)
def simple_regression_report(x, y):
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    sxx = sum((xi - mx) ** 2 for xi in x)
    if sxx == 0:
        return None
    sxy = sum((xi - mx) * (yi - my) for xi, yi in zip(x, y))
    slope = sxy / sxx
    icept = my - slope * mx
    resid = [yi - (icept + slope * xi) for xi, yi in zip(x, y)]
    ss_res = sum(r * r for r in resid)
    ss_tot = sum((yi - my) ** 2 for yi in y)
    return f"y = {slope:.3f}x + {icept:.3f}, R^2 = {1 - ss_res / ss_tot:.4f}"


@prog((np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]),), (np.array([7]),), (EI,))
def mode_median_mean_python(x):
    vals = x.tolist()
    if not vals:
        return None
    counts = Counter(vals)
    top = max(counts.values())
    modes = sorted(v for v, c in counts.items() if c == top)
    s = sorted(vals)
    mid = len(s) // 2
    median = s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2
    return modes, median, sum(vals) / len(vals)


@prog((SIG, 7, 100), (SIG2, 1, 20))
def permutation_test_diff(x, seed, n_perm):
    rng = np.random.default_rng(seed)
    half = len(x) // 2
    a, b = x[:half], x[half:]
    observed = abs(a.mean() - b.mean())
    hits = 0
    pooled = x.copy()
    for _ in range(n_perm):
        rng.shuffle(pooled)
        d = abs(pooled[:half].mean() - pooled[half:].mean())
        if d >= observed - 1e-12:
            hits += 1
    return round(float(observed), 6), (hits + 1) / (n_perm + 1)


@prog((np.array([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]),), (np.array([1.0, 1.0, 1.0]),))
def zscores_with_flags(x):
    mu = x.mean()
    sd = x.std()
    flags = []
    for i, v in enumerate(x):
        if sd == 0:
            flags.append((i, 0.0, "flat"))
            continue
        z = (v - mu) / sd
        tag = "high" if z > 1 else "low" if z < -1 else "mid"
        flags.append((i, round(float(z), 3), tag))
    return flags


@prog(
    (np.array([[1.0, 2.0], [2.0, 4.1], [3.0, 6.2], [4.0, 7.9]]),),
    (np.array([[1.0, 5.0], [2.0, 5.0]]),),
)
def pearson_by_hand(data):
    xs = data[:, 0]
    ys = data[:, 1]
    n = len(xs)
    sx = sy = sxx = syy = sxy = 0.0
    for x, y in zip(xs, ys):
        sx += x
        sy += y
        sxx += x * x
        syy += y * y
        sxy += x * y
    num = n * sxy - sx * sy
    den = math.sqrt(n * sxx - sx * sx) * math.sqrt(max(n * syy - sy * sy, 0.0))
    if den == 0:
        return float("nan")
    return round(num / den, 8)


@prog(
    (np.array([0.1, 0.4, 0.35, 0.8]), np.array([0, 0, 1, 1])),
    (np.array([0.5, 0.5]), np.array([1, 1])),
)
def auc_by_pairs(scores, labels):
    pos = [s for s, l in zip(scores, labels) if l == 1]
    neg = [s for s, l in zip(scores, labels) if l == 0]
    if not pos or not neg:
        return None
    wins = 0.0
    for p in pos:
        for q in neg:
            if p > q:
                wins += 1
            elif p == q:
                wins += 0.5
    return wins / (len(pos) * len(neg))


@prog((np.array([1.0, 2.0, 2.0, 3.0, 10.0]), 0.2), (np.array([4.0, 4.0]), 0.0))
def trimmed_and_winsorized_mean(x, frac):
    s = np.sort(x)
    k = int(frac * len(s))
    trimmed = s[k : len(s) - k] if k else s
    w = s.copy()
    if k:
        w[:k] = s[k]
        w[len(s) - k :] = s[len(s) - k - 1]
    return float(trimmed.mean()), float(w.mean()), k


# ---------------------------------------------------------------- ledgers with dicts

KIND_NAMES = {0: "deposit", 1: "withdrawal", 2: "transfer", 3: "fee"}


def _balances(rows):
    bal = defaultdict(int)
    for acct, kind, amount in rows:
        acct, kind, amount = int(acct), int(kind), int(amount)
        if kind == 0:
            bal[acct] += amount
        else:
            bal[acct] -= amount
    return dict(bal)


@prog((LEDGER,), (LEDGER2,), (LEDGER_E,))
def ledger_balances_sorted(rows):
    bal = _balances(rows)
    return sorted(bal.items(), key=lambda kv: -kv[1])


@prog((LEDGER,), (LEDGER2,), (LEDGER_E,))
def ledger_totals_by_kind(rows):
    totals = {name: 0 for name in KIND_NAMES.values()}
    for _, kind, amount in rows:
        totals[KIND_NAMES[int(kind)]] += int(amount)
    net = totals["deposit"] - totals["withdrawal"] - totals["transfer"] - totals["fee"]
    return totals, net


@prog((LEDGER, 5000), (LEDGER2, 0))
def ledger_overdraft_check(rows, limit):
    bal = {}
    events = []
    for i, (acct, kind, amount) in enumerate(rows):
        a = int(acct)
        bal.setdefault(a, 0)
        delta = int(amount) if kind == 0 else -int(amount)
        if bal[a] + delta < -limit:
            events.append(f"row {i}: account {a} refused {-delta}")
            continue
        bal[a] += delta
    return bal, events


@prog((LEDGER,), (LEDGER_E,))
def ledger_print_statement(rows):
    running = 0
    for acct, kind, amount in rows:
        sign = 1 if kind == 0 else -1
        running += sign * int(amount)
        print(
            f"{int(acct):>3} {KIND_NAMES[int(kind)]:<10} {sign * int(amount) / 100:>9.2f} {running / 100:>10.2f}"
        )
    return running


@dataclass
class Account:
    owner: int
    balance: int = 0
    history: list = field(default_factory=list)

    def apply(self, kind, amount):
        if kind == 0:
            self.balance += amount
        else:
            if amount > self.balance:
                raise ValueError(f"insufficient funds for {self.owner}")
            self.balance -= amount
        self.history.append((kind, amount))


@prog((LEDGER,), (np.array([[1, 1, 50]]),))
def accounts_dataclass_apply(rows):
    accts = {}
    for acct, kind, amount in rows:
        a = int(acct)
        if a not in accts:
            accts[a] = Account(a)
        accts[a].apply(int(kind), int(amount))
    return {k: (v.balance, len(v.history)) for k, v in accts.items()}


@prog(
    (np.array([[100, 3], [250, 1], [40, 10], [999, 2]]), 0.08),
    (np.zeros((0, 2), dtype=np.int64), 0.1),
)
def invoice_lines_with_tax(lines, tax):
    subtotal = 0
    rows = []
    for price_cents, qty in lines:
        amount = int(price_cents) * int(qty)
        subtotal += amount
        rows.append((int(price_cents), int(qty), amount))
    tax_cents = round(subtotal * tax)
    total = subtotal + tax_cents
    return rows, subtotal, tax_cents, total


# ---------------------------------------------------------------- state machines and retries


@prog((np.array([1, 1, 0, 2, 2, 2, 0, 1]),), (EI,), (np.array([2, 2, 2, 2]),))
def door_fsm(events):
    # event 0 push, 1 coin, 2 nothing; locked until a coin
    state = "locked"
    trace = []
    coins = 0
    for e in events:
        if state == "locked":
            if e == 1:
                state = "unlocked"
                coins += 1
        elif state == "unlocked":
            if e == 0:
                state = "locked"
            elif e == 1:
                coins += 1
        trace.append(state[0])
    return "".join(trace), coins


TRANSITIONS = {
    ("idle", 1): "running",
    ("running", 2): "paused",
    ("paused", 1): "running",
    ("running", 3): "done",
    ("paused", 3): "done",
}


@prog((np.array([1, 2, 1, 3]),), (np.array([2, 1, 3, 1]),), (np.array([3]),))
def job_state_table(events):
    state = "idle"
    ignored = 0
    for e in events:
        nxt = TRANSITIONS.get((state, int(e)))
        if nxt is None:
            ignored += 1
            continue
        state = nxt
        if state == "done":
            break
    return state, ignored


@prog((np.array([0, 0, 1, 0, 1, 1]), 3), (np.array([0, 0, 0, 0]), 2), (np.array([1]), 5))
def retry_with_backoff(failures, max_tries):
    # failures[i] == 1 means attempt i succeeds
    delay = 1.0
    waited = 0.0
    for attempt in range(max_tries):
        if attempt < len(failures) and failures[attempt] == 1:
            return attempt + 1, waited
        waited += delay
        delay = min(delay * 2, 8.0)
    else:
        return None, waited


@prog((np.array([1, 0, 0, 1, 1, 1, 0, 1]), 2), (np.array([0, 0, 0]), 1))
def circuit_breaker(outcomes, threshold):
    state = "closed"
    fails = 0
    log = []
    cooldown = 0
    for ok in outcomes:
        if state == "open":
            cooldown -= 1
            if cooldown == 0:
                state = "half"
            log.append("skip")
            continue
        if ok:
            fails = 0
            state = "closed"
            log.append("ok")
        else:
            fails += 1
            log.append("fail")
            if fails >= threshold or state == "half":
                state = "open"
                cooldown = 2
    return state, log


@prog((np.array([72, 101, 108, 108, 111, 32, 119, 32, 32, 33]),), (EI,))
def word_boundaries_fsm(codes):
    in_word = False
    starts = []
    for i, c in enumerate(codes):
        is_space = c == 32
        if not in_word and not is_space:
            starts.append(i)
            in_word = True
        elif in_word and is_space:
            in_word = False
    return starts, len(starts)


@prog((np.array([3, 5, 2, 8, 1]), 10), (np.array([20]), 10), (EI, 5))
def token_bucket_admit(requests, capacity):
    tokens = capacity
    admitted, dropped = [], []
    for t, cost in enumerate(requests):
        tokens = min(capacity, tokens + 2)
        if cost <= tokens:
            tokens -= cost
            admitted.append(t)
        else:
            dropped.append(t)
    return admitted, dropped, tokens


@prog(
    (np.array([20.0, 21.5, 23.0, 22.0, 19.0, 18.0, 18.5]), 21.0, 1.0), (np.array([21.0]), 21.0, 0.5)
)
def thermostat_hysteresis(temps, target, band):
    heating = False
    switches = 0
    modes = []
    for t in temps:
        if heating and t > target + band:
            heating = False
            switches += 1
        elif not heating and t < target - band:
            heating = True
            switches += 1
        modes.append("H" if heating else "-")
    return "".join(modes), switches


# ---------------------------------------------------------------- classes with state


class MovingStats:
    def __init__(self, window):
        self.window = window
        self.buf = deque()
        self.total = 0.0
        self.count = 0

    def update(self, v):
        self.buf.append(v)
        self.total += v
        self.count += 1
        if len(self.buf) > self.window:
            self.total -= self.buf.popleft()
        return self.total / len(self.buf)


@prog((SIG, 3), (SIG2, 10), (E, 2))
def moving_stats_object(x, w):
    ms = MovingStats(w)
    out = [round(ms.update(v), 6) for v in x]
    return out, ms.count


class Inventory:
    def __init__(self, stock):
        self.stock = dict(stock)
        self.backorders = []

    def take(self, item, qty):
        have = self.stock.get(item, 0)
        if have >= qty:
            self.stock[item] = have - qty
            return qty
        self.stock[item] = 0
        self.backorders.append((item, qty - have))
        return have


@prog((np.array([[0, 2], [1, 5], [0, 4], [2, 1]]),), (np.zeros((0, 2), dtype=np.int64),))
def inventory_object_orders(orders):
    inv = Inventory({0: 5, 1: 3})
    shipped = 0
    for item, qty in orders:
        shipped += inv.take(int(item), int(qty))
    return shipped, inv.stock, inv.backorders


class Counter2D:
    def __init__(self, h, w):
        self.grid = np.zeros((h, w), dtype=int)
        self.hits = 0
        self.misses = 0

    def add(self, r, c):
        if 0 <= r < self.grid.shape[0] and 0 <= c < self.grid.shape[1]:
            self.grid[r, c] += 1
            self.hits += 1
        else:
            self.misses += 1


@prog((np.array([[0, 0], [1, 2], [5, 5], [1, 2], [-1, 0]]),), (np.zeros((0, 2), dtype=np.int64),))
def grid_counter_class(points):
    g = Counter2D(3, 3)
    for r, c in points:
        g.add(r, c)
    return g.grid, g.hits, g.misses


class Robot:
    DIRS = [(0, 1), (1, 0), (0, -1), (-1, 0)]

    def __init__(self):
        self.x = 0
        self.y = 0
        self.heading = 0
        self.path = [(0, 0)]

    def turn(self, right):
        self.heading = (self.heading + (1 if right else -1)) % 4

    def forward(self, n):
        dx, dy = self.DIRS[self.heading]
        for _ in range(n):
            self.x += dx
            self.y += dy
            self.path.append((self.x, self.y))


@prog((np.array([3, -1, 2, -2, 4, 1, 1]),), (EI,))
def robot_commands(cmds):
    # positive: forward n; -1: turn right; -2: turn left
    bot = Robot()
    for c in cmds:
        if c == -1:
            bot.turn(True)
        elif c == -2:
            bot.turn(False)
        else:
            bot.forward(int(c))
    visited_twice = len(bot.path) - len(set(bot.path))
    return (bot.x, bot.y), abs(bot.x) + abs(bot.y), visited_twice


class Portfolio:
    def __init__(self, cash):
        self.cash = cash
        self.shares = 0
        self.trades = 0

    def buy(self, price, n):
        cost = price * n
        if cost > self.cash:
            n = int(self.cash // price)
            cost = price * n
        self.cash -= cost
        self.shares += n
        if n:
            self.trades += 1

    def sell_all(self, price):
        if self.shares:
            self.cash += self.shares * price
            self.shares = 0
            self.trades += 1

    def value(self, price):
        return self.cash + self.shares * price


@prog((np.array([10.0, 9.0, 8.5, 9.5, 11.0, 12.0, 10.0]), 100.0), (np.array([5.0]), 10.0))
def portfolio_dip_buyer(prices, cash):
    p = Portfolio(cash)
    for i in range(1, len(prices)):
        if prices[i] < prices[i - 1] * 0.97:
            p.buy(prices[i], 3)
        elif prices[i] > prices[i - 1] * 1.1:
            p.sell_all(prices[i])
    return round(p.value(prices[-1]), 4), p.trades, p.shares


class Elevator:
    def __init__(self, floors):
        self.floor = 0
        self.floors = floors
        self.travelled = 0

    def go(self, target):
        if not 0 <= target < self.floors:
            raise ValueError(f"no floor {target}")
        self.travelled += abs(target - self.floor)
        self.floor = target


@prog((np.array([3, 1, 4, 4, 0]), 5), (np.array([2, 9]), 5), (EI, 2))
def elevator_requests(reqs, floors):
    e = Elevator(floors)
    for r in reqs:
        e.go(int(r))
    return e.floor, e.travelled


@dataclass
class Particle:
    x: float
    v: float
    alive: bool = True


@prog((np.array([0.1, 0.5, 0.9]), np.array([0.3, -0.2, 0.05]), 5), (E, E, 3))
def particles_dataclass_absorb(xs, vs, steps):
    ps = [Particle(float(x), float(v)) for x, v in zip(xs, vs)]
    for _ in range(steps):
        for p in ps:
            if not p.alive:
                continue
            p.x += p.v
            if p.x < 0 or p.x > 1:
                p.alive = False
    alive = [round(p.x, 6) for p in ps if p.alive]
    return alive, sum(not p.alive for p in ps)


@dataclass(frozen=True)
class Reading:
    sensor: int
    value: float


@prog((np.array([[0, 1.5], [1, 2.5], [0, 3.5], [2, -1.0]]),), (np.zeros((0, 2)),))
def frozen_readings_grouped(rows):
    readings = [Reading(int(s), float(v)) for s, v in rows]
    by = defaultdict(list)
    for r in readings:
        by[r.sensor].append(r.value)
    return {k: (min(v), max(v), len(v)) for k, v in sorted(by.items())}


@dataclass
class Task:
    name: int
    duration: int
    deps: tuple = ()


@prog((np.array([3, 2, 4, 1]),), (np.array([5]),))
def task_earliest_finish(durations):
    tasks = [Task(i, int(d), tuple(range(max(0, i - 2), i))) for i, d in enumerate(durations)]
    finish = {}
    for t in tasks:
        start = max((finish[d] for d in t.deps), default=0)
        finish[t.name] = start + t.duration
    return finish, max(finish.values())


# ---------------------------------------------------------------- closures and generators


def _make_accumulator(limit):
    total = 0
    dropped = 0

    def add(v):
        nonlocal total, dropped
        if total + v > limit:
            dropped += 1
            return False
        total += v
        return True

    def state():
        return total, dropped

    return add, state


@prog((np.array([3, 4, 5, 1, 2]), 10), (EI, 5), (np.array([11]), 10))
def closure_capacity_accumulator(items, limit):
    add, state = _make_accumulator(limit)
    accepted = [int(v) for v in items if add(int(v))]
    return accepted, state()


@prog((SIG,), (E,))
def closure_min_max_tracker(x):
    lo = None
    hi = None

    def see(v):
        nonlocal lo, hi
        if lo is None or v < lo:
            lo = v
        if hi is None or v > hi:
            hi = v

    for v in x:
        see(float(v))
    return lo, hi


def _windows(x, w, step):
    for i in range(0, len(x) - w + 1, step):
        yield i, x[i : i + w]


@prog((SIG, 4, 2), (SIG2, 4, 1), (SIG, 3, 3))
def generator_window_energy(x, w, step):
    best_i, best_e = None, -1.0
    for i, win in _windows(x, w, step):
        e = float(np.sum(win**2))
        if e > best_e:
            best_i, best_e = i, e
    return best_i, best_e


def _fib_until(limit):
    a, b = 0, 1
    while a <= limit:
        yield a
        a, b = b, a + b


@prog((np.array([1, 4, 7, 13, 20]),), (EI,))
def generator_fib_membership(x):
    top = int(x.max()) if len(x) else 0
    fibs = set(_fib_until(top))
    return [int(v) for v in x if int(v) in fibs], len(fibs)


def _pairs_below(x, limit):
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            if x[i] + x[j] < limit:
                yield i, j


@prog((np.array([1.0, 2.0, 5.0, 0.5]), 3.0), (np.array([4.0, 4.0]), 3.0))
def generator_pairs_first_three(x, limit):
    out = []
    for pair in _pairs_below(x, limit):
        out.append(pair)
        if len(out) == 3:
            break
    return out


def _chunked(seq, n):
    it = iter(seq)
    while True:
        chunk = list(itertools.islice(it, n))
        if not chunk:
            return
        yield chunk


@prog((np.arange(10), 3), (np.arange(2), 5), (EI, 2))
def chunked_sums_generator(x, n):
    return [sum(c) for c in _chunked(x.tolist(), n)]


def _counter_factory():
    counts = {}

    def bump(key):
        counts[key] = counts.get(key, 0) + 1
        return counts[key]

    return bump, counts


@prog((np.array([1, 2, 1, 3, 1, 2]),), (EI,))
def closure_dict_bumper(x):
    bump, counts = _counter_factory()
    firsts_repeat = None
    for v in x:
        if bump(int(v)) == 2 and firsts_repeat is None:
            firsts_repeat = int(v)
    return counts, firsts_repeat


def _make_scaler(data):
    lo, hi = float(np.min(data)), float(np.max(data))
    span = hi - lo

    def scale(v):
        return 0.0 if span == 0 else (v - lo) / span

    return scale


@prog((SIG, np.array([0.0, 6.0, 3.0])), (SIG2, np.array([1.0])))
def closure_minmax_scaler(train, test):
    scale = _make_scaler(train)
    return [round(scale(v), 6) for v in test]


# ---------------------------------------------------------------- try/except and data checks


def _parse_reading(raw):
    if raw < 0:
        raise ValueError(f"negative reading {raw}")
    if raw > 1000:
        raise OverflowError("sensor saturated")
    return raw / 10


@prog((np.array([5, 120, -3, 2000, 40]),), (EI,), (np.array([10]),))
def parse_readings_collect_errors(raws):
    good, errors = [], []
    for i, r in enumerate(raws):
        try:
            good.append(_parse_reading(int(r)))
        except ValueError as e:
            errors.append((i, "value"))
        except OverflowError:
            errors.append((i, "overflow"))
    return good, errors


@prog((np.array([4.0, 0.0, 2.0]), np.array([2.0, 1.0, 0.0])), (E, E))
def safe_ratios_with_none(a, b):
    out = []
    for x, y in zip(a, b):
        try:
            if y == 0:
                raise ZeroDivisionError
            out.append(x / y)
        except ZeroDivisionError:
            out.append(None)
    return out


@prog((np.array([1, 2, 3]), 5), (np.array([1, 2, 3]), 1), (np.array([7]), 0))
def lookup_with_fallbacks(x, k):
    try:
        v = x[k]
    except IndexError:
        v = x[-1]
    finally:
        checked = True
    return int(v), checked


@prog((np.array([[1.0, 2.0], [3.0, 4.0]]),), (np.array([[1.0, 2.0], [2.0, 4.0]]),))
def solve_or_least_squares(A):
    b = np.array([1.0, 2.0])
    try:
        x = np.linalg.solve(A, b)
        how = "exact"
    except np.linalg.LinAlgError:
        x = np.linalg.lstsq(A, b, rcond=None)[0]
        how = "lstsq"
    return how, x.round(6)


def _validate(row):
    if len(row) != 3:
        raise ValueError("bad width")
    if row[2] <= 0:
        raise ValueError("non-positive amount")
    return True


@prog((LEDGER,), (np.array([[1, 0, -5], [1, 0, 5]]),))
def validate_rows_stop_at_first(rows):
    for i, row in enumerate(rows):
        try:
            _validate(row)
        except ValueError as e:
            return i, str(e)
    return None, "all valid"


@prog((np.array([1.0, 4.0, 9.0]),), (np.array([1.0, -4.0]),))
def assert_then_sqrt(x):
    try:
        assert (x >= 0).all(), "negative input"
        return np.sqrt(x)
    except AssertionError as e:
        return str(e)


@prog((np.array([3, 1, 2]),), (np.array([3, 3]),))
def custom_exception_duplicates(ids):
    class DuplicateId(Exception):
        pass

    def check(ids):
        seen = set()
        for v in ids:
            if int(v) in seen:
                raise DuplicateId(int(v))
            seen.add(int(v))

    try:
        check(ids)
        return "unique"
    except DuplicateId as e:
        return f"duplicate {e.args[0]}"


# ---------------------------------------------------------------- printing and reports


@prog((SIG[:5],), (E,))
def print_progress_bars(x):
    top = max(x) if len(x) else 1.0
    for i, v in enumerate(x):
        bar = "#" * int(round(v / top * 10))
        print(f"{i:2d} {v:6.2f} {bar}")
    print("done")
    return len(x)


@prog((np.array([[1, 20], [2, 35], [3, 5]]),), (np.zeros((0, 2), dtype=np.int64),))
def report_table_with_totals(rows):
    lines = [f"{'id':>4}|{'qty':>6}"]
    total = 0
    for rid, qty in rows:
        lines.append(f"{rid:>4}|{qty:>6}")
        total += qty
    lines.append(f"{'sum':>4}|{total:>6}")
    return "\n".join(lines)


@prog((SIG, 2.0), (SIG2, 9.0))
def print_when_threshold_crossed(x, thr):
    above = False
    events = 0
    for i, v in enumerate(x):
        if v > thr and not above:
            print("up at", i, "value", v)
            above = True
            events += 1
        elif v <= thr and above:
            print(f"down at {i}")
            above = False
    return events


@prog((np.array([0.12345, 2.5, 1000.0]),), (E,))
def format_numbers_various(x):
    out = []
    for v in x:
        out.append(f"{v:.2f}|{v:e}|{v:>10.3g}|{int(v):,}")
    return out


# ---------------------------------------------------- collections, itertools, heapq, bisect


@prog((np.array([3, 1, 4, 1, 5, 9, 2, 6]), 3), (np.array([1]), 2), (EI, 1))
def heap_k_smallest_with_index(x, k):
    heap = []
    for i, v in enumerate(x):
        heapq.heappush(heap, (-float(v), i))
        if len(heap) > k:
            heapq.heappop(heap)
    return sorted((i, -nv) for nv, i in heap)


@prog((np.array([[0, 5], [2, 3], [1, 8], [4, 1]]),), (np.zeros((0, 2), dtype=np.int64),))
def heap_event_simulation(arrivals):
    # (arrival time, service time); one server, events in a heap
    events = [(int(a), 0, i) for i, (a, s) in enumerate(arrivals)]
    heapq.heapify(events)
    free_at = 0
    waits = {}
    while events:
        t, kind, i = heapq.heappop(events)
        start = max(t, free_at)
        waits[i] = start - t
        free_at = start + int(arrivals[i, 1])
    return waits, free_at


@prog((np.array([1, 2, 3, 4, 5, 6]),), (np.array([1]),))
def itertools_pairwise_and_combos(x):
    diffs = [b - a for a, b in itertools.pairwise(x.tolist())]
    triples = [c for c in itertools.combinations(x.tolist(), 3) if sum(c) % 3 == 0]
    return diffs, len(triples), triples[:2]


@prog((np.array([1, 1, 2, 2, 2, 3, 1, 1]),), (EI,))
def itertools_groupby_lengths(x):
    return [(k, len(list(g))) for k, g in itertools.groupby(x.tolist())]


@prog((np.array([3, 1, 2]),), (np.array([1, 2]),))
def itertools_product_grid_best(x):
    best = None
    for a, b in itertools.product(x.tolist(), repeat=2):
        score = a * 10 - b * b
        if best is None or score > best[0]:
            best = (score, a, b)
    return best


@prog((np.array([5, 3, 8]),), (EI,))
def itertools_accumulate_chain(x):
    running = list(itertools.accumulate(x.tolist()))
    maxes = list(itertools.accumulate(x.tolist(), max))
    both = list(itertools.chain(running, maxes))
    return running, maxes, len(both)


@prog((np.array([55, 70, 85, 92, 40, 100]),), (EI,))
def bisect_grade_buckets(scores):
    cutoffs = [60, 70, 80, 90]
    letters = "FDCBA"
    counts = Counter()
    for s in scores:
        counts[letters[bisect.bisect_right(cutoffs, s)]] += 1
    return [(l, counts[l]) for l in letters]


@prog((np.array([5.0, 1.0, 3.0, 2.0, 4.0]),), (E,))
def bisect_insort_running_median(x):
    window = []
    meds = []
    for v in x:
        bisect.insort(window, float(v))
        n = len(window)
        meds.append(window[n // 2] if n % 2 else (window[n // 2 - 1] + window[n // 2]) / 2)
    return meds


@prog((np.array([1, 2, 2, 3, 3, 3]),), (EI,))
def counter_most_common_ties(x):
    c = Counter(x.tolist())
    top = c.most_common(2)
    return top, sum(c.values()), sorted(c.elements())[:3]


Point = namedtuple("Point", ["x", "y"])


@prog((np.array([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0], [-2.0, 0.5]]),), (np.zeros((1, 2)),))
def namedtuple_farthest_from_origin(pts):
    points = [Point(float(a), float(b)) for a, b in pts]
    far = max(points, key=lambda p: math.hypot(p.x, p.y))
    near = min(points, key=lambda p: (p.x**2 + p.y**2, p.x))
    return far, near._asdict(), len(points)


@prog((np.array([4, 2, 4, 1, 2, 9]),), (EI,))
def ordered_dict_first_positions(x):
    first = OrderedDict()
    for i, v in enumerate(x):
        if int(v) not in first:
            first[int(v)] = i
    first.move_to_end(next(iter(first))) if first else None
    return list(first.items())


@prog((np.array([[1, 2], [2, 3], [3, 1], [4, 5]]),), (np.zeros((0, 2), dtype=np.int64),))
def defaultdict_adjacency_components(edges):
    adj = defaultdict(set)
    for a, b in edges:
        adj[int(a)].add(int(b))
        adj[int(b)].add(int(a))
    seen = set()
    comps = []
    for node in sorted(adj):
        if node in seen:
            continue
        stack = [node]
        comp = []
        while stack:
            n = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            comp.append(n)
            stack.extend(adj[n] - seen)
        comps.append(sorted(comp))
    return comps


@prog((np.array([1, 2, 3, 4, 5, 6, 7]), 3), (np.array([1, 2]), 5))
def deque_rotate_josephus(x, k):
    d = deque(x.tolist())
    order = []
    while d:
        d.rotate(-(k - 1))
        order.append(d.popleft())
    return order


@prog((np.array([3.0, 1.0, 2.0]), np.array([30, 10, 20])), (E, EI))
def sorted_zip_unzip(keys, vals):
    pairs = sorted(zip(keys.tolist(), vals.tolist()))
    if not pairs:
        return [], []
    ks, vs = zip(*pairs)
    return list(ks), list(vs)


@prog((np.array([5, 1, 4]),), (np.array([2]),))
def reversed_enumerate_report(x):
    out = []
    for i, v in reversed(list(enumerate(x))):
        out.append(f"{i}:{v}")
    return ",".join(out)


@prog((np.array([1.5, 2.25, 3.0]),), (E,))
def math_functions_mix(x):
    acc = 0.0
    for v in x:
        acc += math.floor(v) + math.ceil(v) + math.sqrt(v) + math.log(v + 1)
    return round(acc, 8), math.isclose(acc, round(acc, 8)), math.gcd(12, len(x) * 4)


@prog((np.array([10, 20, 30]), 25), (np.array([10, 20, 30]), 5), (np.array([10, 20, 30]), 35))
def bisect_interpolate_table(xs, q):
    i = bisect.bisect_left(xs.tolist(), q)
    if i == 0:
        return float(xs[0]), "clamped low"
    if i == len(xs):
        return float(xs[-1]), "clamped high"
    lo, hi = xs[i - 1], xs[i]
    return float(lo + (q - lo) / (hi - lo) * (hi - lo)), "inside"


@prog((np.array([4, 8, 15, 16, 23, 42]),), (np.array([7]),))
def functools_reduce_gcd_lcm(x):
    g = functools.reduce(math.gcd, x.tolist())
    l = functools.reduce(lambda a, b: a * b // math.gcd(a, b), x.tolist())
    return g, l


@prog((np.array([2, 3, 5, 3, 2]),), (EI,))
def while_else_first_repeat(x):
    seen = set()
    i = 0
    while i < len(x):
        if int(x[i]) in seen:
            break
        seen.add(int(x[i]))
        i += 1
    else:
        return None
    return i, int(x[i])


@prog((np.array([4, 6, 8, 9]),), (np.array([4, 7, 8]),))
def for_else_all_composite(x):
    for v in x:
        v = int(v)
        for d in range(2, int(math.isqrt(v)) + 1):
            if v % d == 0:
                break
        else:
            return f"{v} is prime"
    return "all composite"


def _stats(x):
    if len(x) == 0:
        return None, None, 0
    return float(x.min()), float(x.max()), len(x)


@prog((SIG,), (E,))
def tuple_unpack_from_helper(x):
    lo, hi, n = _stats(x)
    if n == 0:
        return "empty"
    mid = (lo + hi) / 2
    below = int((x < mid).sum())
    return f"{n} values in [{lo}, {hi}], {below} below {mid}"


@prog((np.array([2.0, -1.0, 3.0]),), (np.array([-1.0, -2.0]),))
def sentinel_first_positive_product(x):
    first = None
    prod = 1.0
    for v in x:
        if v > 0:
            if first is None:
                first = v
            prod *= v
    if first is None:
        return None
    return float(first), prod


@prog((np.array([1, 2, 3, 4, 5, 6]),), (np.array([7]),))
def int_float_round_mixing(x):
    total = 0
    for i in range(len(x)):
        total += x[i]
    mean = total / len(x)
    halves = [round(v / 2) for v in x]
    return int(total), float(mean), round(mean, 1), halves, type(halves[0]).__name__


# ---------------------------------------------------------------- outcomes

FINDINGS = {
    # run 1 (NumPy and noopt, the same program for program) at main 3619a3d; run 2 at this
    # branch's be44f30: the classes marked "runs" run, C6 and C8 are documented errors
    # wrong results (d) and crashes (e)
    "gradient_direction_histogram": ("d", "W1 (runs)"),
    "rle_roundtrip": ("d", "W2 (runs)"),
    "assert_then_sqrt": ("e", "E1 (runs)"),
    # errors on code the docs say runs, or limits they do not list (c)
    "magic_square_report": ("c", "C1 (runs)"),
    "histogram_by_hand_vs_numpy": ("c", "C1 (runs; E2 after it, runs)"),
    "gravity_accelerations": ("c", "C2 (runs)"),
    "task_earliest_finish": ("c", "C3 (runs)"),
    "namedtuple_farthest_from_origin": ("c", "C4 (runs)"),
    "shunting_yard_calc": ("c", "C5"),
    "accounts_dataclass_apply": ("c", "C6 (documented in run 2)"),
    "digits_to_numbers_split_on_nines": ("c", "C7 (runs)"),
    "crossing_times_linear": ("c", "C8 (documented in run 2)"),
    "rolling_max_min_deque": ("c", "C10 (runs in run 3)"),
    # documented limits (b)
    "radix_sort_lsd": ("b", "L-container-at-run-time-key"),
    "frozen_readings_grouped": ("b", "L-container-at-run-time-key"),
    "defaultdict_adjacency_components": ("b", "L-container-at-run-time-key"),
    "ordered_dict_first_positions": ("b", "L-container-at-run-time-key"),
    "calc_or_error_code": ("b", "L-raise-in-try"),
    "custom_exception_duplicates": ("b", "L-raise-in-try"),
    "solve_or_least_squares": ("b", "L-raise-in-try (LinAlgError)"),
    "merge_sort_list": ("b", "L-list-slice-run-time"),
    "merge_sort_array_recursive": ("b", "L-list-slice-run-time"),
    "generator_fib_membership": ("b", "L-generator-body"),
    "generator_pairs_first_three": ("b", "L-generator-body"),
    "itertools_groupby_lengths": ("b", "L-python-value (itertools)"),
    "itertools_accumulate_chain": ("b", "L-python-value (itertools)"),
    "count_islands_dfs_recursive": ("b", "L-recursion-tensor-base"),
    "equalize_hist_by_hand": ("b", "L-list-over-64-run-time-index"),
    "partition_two_equal": ("b", "L-set-iteration"),
    "count_ways_lru": ("b", "L-stdlib-keys (lru_cache)"),
    "counting_sort_stable": ("b", "L-library-list (itertools.accumulate)"),
    "functools_reduce_gcd_lcm": ("b", "L-functools-reduce"),
    "counter_most_common_ties": ("b", "L-counter-elements"),
    "ball_in_box": ("b", "L-writer-call"),
    "bootstrap_ci_percentile": ("b", "L-sort-non-numpy-name"),
    "coin_change_with_coins": ("b", "L-branch-dtypes"),
    "job_state_table": ("b", "L-keys-with-strings"),
    "stack_machine_run": ("b", "L-error-in-branch"),
}
JAX_FINDINGS = {
    # run 1 (JAX, one process) at main 3619a3d; the rest as on NumPy
    "tlv_records": ("c", "JC1"),
    "for_else_all_composite": ("c", "JC2"),
    "rle_roundtrip": ("b", "L-jax-list (W2 on NumPy)"),
    "ledger_balances_sorted": ("b", "L-jax-list"),
    "heap_k_smallest_with_index": ("b", "L-jax-list"),
    "bisect_insort_running_median": ("b", "L-jax-list (mixed kinds)"),
    "otsu_by_loops": ("b", "L-jax-size"),
}


if __name__ == "__main__":
    fresh_batch.batch_main(P, FINDINGS, JAX_FINDINGS, __file__, sys.argv[1:])
