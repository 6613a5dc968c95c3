"""autoconv.print in loops and branches, with f-strings and format specs."""

import numpy as np

import autoconv
from tests.graph_corpus import case

X = np.array([0.5, 1.5, -1.0])


@case((X,), (X * 2,), cls=(8,), expect="error")
def print_loss_format(x):
    loss = np.mean(x**2)
    autoconv.print(f"loss {loss:.3f}")
    return loss


@case((X, 3), (X, 0), cls=(9,))
def print_each_step(x, n):
    for i in range(n):
        x = x * 0.5
        autoconv.print("step", i, np.sum(x))
    return x


@case((X,), (-X,), cls=(4,))
def print_in_branch(x):
    if np.sum(x) > 0:
        autoconv.print("positive", np.sum(x))
        y = x
    else:
        autoconv.print("not positive")
        y = -x
    return y


@case((np.float64(8.0),), (np.float64(0.5),), cls=(1,))
def print_while(a):
    while a > 1:
        autoconv.print("a =", a)
        a = a / 2
    return a


@case((X,), (-X,), cls=(8,))
def print_sep_end(x):
    autoconv.print(np.max(x), np.min(x), sep=" | ", end=";\n")
    return np.ptp(x)


@case((X,), (np.array([1.0]),), cls=(8,))
def print_array(x):
    autoconv.print("x:", x * 2)
    return x


@case((X,), (-X,), cls=(4, 5))
def print_counter(x):
    count = 0
    for v in x:
        if v > 0:
            count += 1
    autoconv.print("positives:", count)
    return count


@case((X,), (X * 2,), cls=(8,), expect="error")
def print_fstring_plain(x):
    total = np.sum(x)
    autoconv.print(f"total={total}")
    return total


@case((X,), (X * 10,), cls=(1, 5))
def print_progress_until(x):
    epoch = 0
    loss = np.sum(x**2)
    while loss > 0.1:
        loss = loss * 0.3
        epoch += 1
        autoconv.print("epoch", epoch, "loss", loss)
    return epoch


@case((np.abs(X),), (np.array([0.5, -2.0]),), cls=(6,))
def print_then_raise(x):
    autoconv.print("checking", x.shape)
    if np.any(x < -1):
        raise ValueError("too negative")
    autoconv.print("ok")
    return x


@case((X, 4), (X, 1), cls=(8,), expect="error")
def print_format_in_loop(x, n):
    for i in range(n):
        x = x * 1.1
        autoconv.print(f"{i:03d}: {np.mean(x):+.2f}")
    return x


@case((np.array([1, 2, 3]),), (np.ones((2, 2), np.float32),), cls=(8,))
def print_dtype_and_shape(x):
    autoconv.print(x.dtype, x.shape, len(x))
    return x.sum()


@case((X,), (X * 100,), cls=(5, 8))
def print_early_exit(x):
    for i in range(5):
        autoconv.print("iteration", i)
        if np.max(x) > 10:
            autoconv.print("stopping early")
            break
        x = x * 2
    return x


@case((X,), (X * 1000,), cls=(8, 5))
def print_nothing_when_empty(x):
    for v in x[x > 100]:
        autoconv.print("big", v)
    return x
