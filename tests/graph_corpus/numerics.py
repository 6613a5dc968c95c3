"""Numerical methods: root finding, fixed points, series, integration, compound interest."""

import numpy as np

from tests.graph_corpus import case

f64 = np.float64


def _cubic(x):
    return x**3 - x - 2.0


@case((f64(2.0),), (f64(10.0),), (f64(0.25),), cls=(1, 5, 9))
def newton_sqrt(a):
    x = a
    delta = 1.0
    while delta > 1e-12:
        new = 0.5 * (x + a / x)
        delta = np.abs(new - x)
        x = new
    return x


@case((f64(1.0), f64(2.0)), (f64(1.5), f64(1.6)), (f64(-3.0), f64(5.0)), cls=(1, 5))
def bisect_cubic(lo, hi):
    for _ in range(200):
        mid = (lo + hi) / 2
        if _cubic(mid) > 0:
            hi = mid
        else:
            lo = mid
        if hi - lo < 1e-10:
            break
    return (lo + hi) / 2


@case((f64(1.0), f64(2.0), 1e-9), (f64(1.5), f64(1.5000000001), 1e-6), cls=(1, 4, 5))
def secant(x0, x1, tol):
    it = 0
    while abs(x1 - x0) > tol and it < 50:
        f0, f1 = _cubic(x0), _cubic(x1)
        x0, x1 = x1, x1 - f1 * (x1 - x0) / (f1 - f0)
        it += 1
    return x1, it


@case((f64(1.0),), (f64(0.739085133215),), (f64(-2.0),), cls=(1, 9))
def fixed_point_cos(x):
    for i in range(1000):
        nxt = np.cos(x)
        if np.abs(nxt - x) < 1e-10:
            return nxt, i
        x = nxt
    return x, 1000


@case((f64(0.07),), (f64(0.5),), (f64(1.5),), cls=(5,))
def years_to_double(rate):
    balance = 1.0
    years = 0
    while balance < 2.0:
        balance *= 1 + rate
        years += 1
    return years


@case((f64(1000.0), f64(0.05), f64(1500.0)), (f64(1000.0), f64(0.05), f64(900.0)), cls=(1, 5))
def years_to_target(principal, rate, target):
    balance = principal
    years = 0
    while balance < target:
        balance = balance * (1 + rate)
        years = years + 1
    return years, balance


@case((f64(100.0), f64(0.01), 12), (f64(250.0), f64(0.0), 3), cls=(9,))
def monthly_savings(deposit, rate, months):
    balance = 0.0
    for _ in range(months):
        balance = balance * (1 + rate) + deposit
    return balance


@case((np.int64(6),), (np.int64(1),), (np.int64(27),), cls=(1, 5))
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@case((np.int64(48), np.int64(18)), (np.int64(7), np.int64(0)), (np.int64(17), np.int64(5)), cls=1)
def gcd(a, b):
    while b != 0:
        a, b = b, a % b
    return a


@case((np.int64(0),), (np.int64(15),), (np.int64(16),), (np.int64(1000001),), cls=(1, 5))
def isqrt(n):
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if mid * mid <= n:
            lo = mid
        else:
            hi = mid - 1
    return lo


@case((f64(1.0),), (f64(0.0),), (f64(-2.5),), cls=(1, 5))
def exp_series(x):
    term = 1.0
    total = 1.0
    k = 1
    while np.abs(term) > 1e-15:
        term = term * x / k
        total = total + term
        k += 1
    return total


@case((np.array([1.0, -3.0, 2.0]), f64(0.5)), (np.array([2.0]), f64(3.0)), cls=(9,))
def horner(coeffs, x):
    result = 0.0
    for c in coeffs:
        result = result * x + c
    return result


@case((np.array([[2.0, 1.0], [1.0, 3.0]]),), (np.array([[4.0, 0.0], [0.0, 1.0]]),), cls=(1,))
def power_iteration(a):
    v = np.ones(a.shape[0]) / np.sqrt(a.shape[0])
    lam = 0.0
    change = np.inf
    while change > 1e-10:
        w = a @ v
        v = w / np.linalg.norm(w)
        new_lam = v @ a @ v
        change = np.abs(new_lam - lam)
        lam = new_lam
    return lam, v


@case((f64(0.0), f64(1.0), 10), (f64(0.0), f64(np.pi), 100), (f64(1.0), f64(1.0), 4), cls=(9,))
def trapezoid_sin(a, b, n):
    h = (b - a) / n
    total = 0.5 * (np.sin(a) + np.sin(b))
    for i in range(1, n):
        total += np.sin(a + i * h)
    return total * h


@case((f64(1.0), f64(0.1), 10), (f64(2.0), f64(0.01), 0), cls=(9,))
def euler_decay(y0, dt, steps):
    y = y0
    t = 0.0
    for _ in range(steps):
        y = y + dt * (-2.0 * y)
        t += dt
    return t, y


@case((np.array([3.0, -1.0]), f64(0.1)), (np.array([0.0, 0.0]), f64(0.1)), cls=(1, 5))
def gradient_descent(x, lr):
    for step in range(500):  # noqa: B007 - `step` is returned
        grad = 2 * x
        if np.sqrt(np.sum(grad**2)) < 1e-6:
            break
        x = x - lr * grad
    return x, step


@case((f64(2.0),), (f64(5.0),), (f64(-1.0),), cls=(1, 4, 6))
def newton_log(a):
    if a <= 0:
        raise ValueError("log of a non-positive number")
    y = 0.0
    for _ in range(100):
        step = (np.exp(y) - a) / np.exp(y)
        y = y - step
        if np.abs(step) < 1e-14:
            return y
    return y


@case((f64(0.5),), (f64(1e-8),), (f64(0.999),), cls=(1, 5))
def geometric_tail(r):
    total = 0.0
    term = 1.0
    n = 0
    while term > 1e-12 and n < 100000:
        total += term
        term *= r
        n += 1
    return total, n


@case((np.array([1.0, 2.0, 4.0, 8.0]),), (np.array([5.0]),), cls=(9,))
def running_mean(x):
    mean = 0.0
    for i, v in enumerate(x):
        mean += (v - mean) / (i + 1)
    return mean


@case((np.array([4.0, 1.0, 3.0]),), (np.array([2.0, 2.0]),), cls=(1, 4))
def jacobi_like(b):
    x = np.zeros_like(b)
    residual = np.max(np.abs(b))
    iters = 0
    while residual > 1e-8:
        x = x + 0.5 * (b - x)
        residual = np.max(np.abs(b - x))
        iters += 1
    return x, iters
