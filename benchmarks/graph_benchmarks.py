"""Graph mode against eager NumPy: steady-state time per call, ratio, and trace time.

Run: .venv/bin/python benchmarks/graph_benchmarks.py [--repeat N]

Each case runs the same Python function eagerly with NumPy and through `autoconv.function`
(after one warm-up call, which traces). Times are medians over `repeat` runs of `number` calls,
measured in the same process, interleaved. The trace-time column also traces the case for
4000x4000 inputs where that applies, to show that tracing does not grow with array size.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import autoconv


def power(x, y):
    result = np.eye(10, dtype=np.int32)
    for _ in range(y):
        result = np.matmul(x, result)
    return result


def power_like(x, y):
    result = np.ones_like(x)
    for _ in range(y):
        result = np.matmul(x, result)
    return result


def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def linear_regression(xs, ys, steps, lr):
    w = np.float32(0.0)
    b = np.float32(0.0)
    for _ in range(steps):
        err = w * xs + b - ys
        w = w - lr * np.mean(err * xs)
        b = b - lr * np.mean(err)
    return w, b


class Dense:
    def __init__(self, rng, n):
        self.w = (rng.normal(size=(n, n)) * 0.3).astype(np.float32)
        self.b = np.zeros(n, np.float32)

    def __call__(self, x):
        return np.maximum(0.0, x @ self.w + self.b)


class Model:
    def __init__(self, layers=100, width=10):
        rng = np.random.default_rng(0)
        self.layers = [Dense(rng, width) for _ in range(layers)]

    def call(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def _cases():
    rng = np.random.default_rng(0)
    x10 = rng.integers(-1, 2, size=(10, 10)).astype(np.int32)
    xs = rng.normal(size=64).astype(np.float32)
    ys = (3 * xs + 2).astype(np.float32)
    model = Model()
    xm = rng.normal(size=(8, 10)).astype(np.float32)
    return [
        ("power(x, 100) 10x10 int32", power, (x10, 100)),
        ("collatz(27) while", collatz, (np.int64(27),)),
        ("linreg 1000 steps", linear_regression, (xs, ys, np.int64(1000), np.float32(0.1))),
        ("100 dense+relu layers", model.call, (xm,)),
    ]


def _time(fn, args, number):
    start = time.perf_counter()
    for _ in range(number):
        fn(*args)
    return (time.perf_counter() - start) / number


def _trace_time(fn, args):
    f = autoconv.function(fn)
    start = time.perf_counter()
    f.get_concrete_function(*args)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    opts = parser.parse_args()
    print(f"{'case':<28}{'eager':>12}{'graph':>12}{'ratio':>8}{'trace':>11}")
    for name, fn, args in _cases():
        graph = autoconv.function(fn)
        expected = fn(*args)
        got = graph(*args)
        np.testing.assert_allclose(
            np.asarray(got, dtype=float), np.asarray(expected, dtype=float), rtol=1e-5
        )
        one = _time(fn, args, 1)
        number = max(1, int(0.05 / max(one, 1e-7)))
        eager, traced = [], []
        for _ in range(opts.repeat):
            eager.append(_time(fn, args, number))
            traced.append(_time(graph, args, number))
        e, g = statistics.median(eager), statistics.median(traced)
        trace = statistics.median(_trace_time(fn, args) for _ in range(3))
        print(f"{name:<28}{e * 1e6:>10.1f}us{g * 1e6:>10.1f}us{g / e:>7.2f}x{trace * 1e3:>9.1f}ms")
    # Tracing never computes on full-size data: same trace time for 10x10 and 4000x4000.
    for n in (10, 4000):
        x = np.ones((n, n), np.int32)
        trace = statistics.median(_trace_time(power_like, (x, 100)) for _ in range(3))
        print(f"trace power_like(x, 100) for {n}x{n} int32: {trace * 1e3:.1f}ms")

if __name__ == "__main__":
    main()
