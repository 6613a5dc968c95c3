"""Loops people write: state read only by the test, Python loops that meet a Tensor test,
nested loops, continue, countdowns and loop variables used after the loop."""

import numpy as np

from tests.graph_corpus import case, limit

X = np.array([4.0, -1.0, 2.5])
f64 = np.float64


@case((X, f64(1e-6)), (X, f64(10.0)), cls=(1, 9))
def halve_until_small(x, tol):
    delta = 1.0
    while delta > tol:
        new = x * 0.5
        delta = np.max(np.abs(new - x))
        x = new
    return x


@case((np.array([4.0]), np.array([0.0])), (np.array([0.5]), np.array([0.0])), cls=(1,))
def fill_until_close(target, x):
    gap = np.max(target)
    while gap > 1.0:
        x = x + 1.0
        gap = np.max(target - x)
    return x


@case((X,), (np.array([100.0, 200.0]),), cls=(5, 1))
def python_loop_meets_tensor(x):
    i = 0
    total = 0.0
    while i < 10 and total < 50:
        total = total + np.sum(np.abs(x))
        i += 1
    return total, i


@case((X, f64(20.0)), (X, f64(-1.0)), cls=(5,))
def accumulate_until(x, limit):
    total = 0.0
    count = 0
    for v in np.abs(x):
        if total + v > limit:
            break
        total += v
        count += 1
    return total, count


@case((X,), (np.array([-1.0, -2.0]),), cls=(5, 9))
def continue_negative(x):
    total = 0.0
    for v in x:
        if v < 0:
            continue
        total += v
    return total


@case((np.array([[1.0, -2.0], [3.0, 4.0]]),), (np.array([[-1.0]]),), cls=(5, 9))
def nested_loops_sum_positive(m):
    total = 0.0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] > 0:
                total += m[i, j]
    return total


@case((np.int64(5),), (np.int64(0),), cls=(1, 5))
def countdown(n):
    out = 0
    while n > 0:
        out += n
        n -= 1
    return out


@case((X, 3), (X, 1), cls=(9,))
def loop_index_after(x, n):
    for i in range(n):
        x = x + i
    return x, i


@case((f64(3.0),), (f64(0.5),), cls=(1,))
def swap_update(a):
    b = 1.0
    while np.abs(a - b) > 1e-9:
        a, b = (a + b) / 2, np.sqrt(a * b)
    return a, b


@case((X,), (np.array([0.0]),), cls=(1, 9))
def decay_while_any(x):
    steps = 0
    while np.any(np.abs(x) > 0.01):
        x = x * 0.5
        steps += 1
    return steps


@case((X, np.int64(2)), (X, np.int64(0)), cls=(5,))
def tensor_range_accumulate(x, n):
    acc = np.zeros_like(x)
    for i in range(n):
        acc = acc + x * (i + 1)
    return acc


@case((np.array([1, 2, 3, 4, 5, 6]),), (np.array([1, 3]),), cls=(5, 4))
def while_with_continue(x):
    i = 0
    evens = 0
    while i < len(x):
        i += 1
        if x[i - 1] % 2 == 1:
            continue
        evens += x[i - 1]
    return evens


@case((X,), (np.array([50.0]),), (np.array([200.0]),), cls=(1,))
def two_phase_loop(x):
    phase = 0
    steps = 0
    while phase < 2:
        x = x * 1.5
        steps += 1
        if np.max(x) > 20 and phase == 0:
            phase = 1
        elif np.max(x) > 100:
            phase = 2
    return x, steps, phase


@case((f64(0.5),), (f64(3.9),), cls=(1, 5))
def logistic_map_escape(r):
    x = 0.5
    n = 0
    while n < 100:
        x = r * x * (1 - x)
        n += 1
        if x < 1e-6:
            break
    return x, n


@case((np.array([2.0, 3.0]), np.array([1.0, 1.0])), (np.array([1.0]), np.array([5.0])), cls=(1,))
def race(a, b):
    t = 0
    while np.all(a > b):
        a = a * 0.9
        b = b * 1.1
        t += 1
    return t


@case((X, 4), (X, 0), cls=(9,))
def repeat_square_root(x, n):
    y = np.abs(x)
    for _ in range(n):
        y = np.sqrt(y)
    return y


@case((np.array([5, 3, 8, 1]),), (np.array([1, 2, 3]),), cls=(1, 5, 7))
@limit("iterating a Tensor in code that is not converted")
def bubble_sort_passes(x):
    x = list(x)
    passes = 0
    swapped = True
    while swapped:
        swapped = False
        for i in range(len(x) - 1):
            if x[i] > x[i + 1]:
                x[i], x[i + 1] = x[i + 1], x[i]
                swapped = True
        passes += 1
    return np.array(x), passes
