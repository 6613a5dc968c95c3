"""The `roll` pass on Python `range` loops whose steps draw random numbers or hold a staged `if`
or `while`: one staged loop, with eager's numbers, and bit for bit the unrolled graph's."""

import random

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, same

UNROLLED = {"roll": False}


def _whiles(concrete) -> int:
    """The loops at the top of the optimized graph (not those inside a step)."""
    return sum(1 for n in concrete.optimized_graph.block.nodes if n.kind == "while")


def _run(fn, args, call):
    np.random.seed(11)  # for the programs that draw from NumPy's global generator
    return call(*args)


def _check(fn, args, backend, whiles):
    want = _run(fn, args, fn)
    rolled = autoconv.function(fn, backend=backend)
    unrolled = autoconv.function(fn, backend=backend, optimize=UNROLLED)
    got, plain = _run(fn, args, rolled), _run(fn, args, unrolled)
    assert same(want, got), (want, got)
    assert same(plain, got), (plain, got)
    np.random.seed(11)
    concrete = rolled.get_concrete_function(*args)
    assert _whiles(concrete) == whiles


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


def monte_carlo_pi(seed):
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(60):
        p = rng.random(2)
        if p @ p < 1:
            hits += 1
    return 4 * hits / 60


def global_random_walk(x):
    for _ in range(25):
        x = x + np.random.normal(size=3)
        if x.sum() > 2:
            x = x - 1.0
    return x


def python_random(x, seed):
    r = random.Random(seed)
    for _ in range(20):
        x = x * 0.9 + r.random()
    return x


def integer_draws(seed):
    rng = np.random.default_rng(seed)
    total = np.int64(0)
    for _ in range(30):
        total = total + rng.integers(0, 10)
    return total


def halvings(x):
    total = 0
    for i in range(8):
        n = x[i]
        while n > 1:
            n = n // 2
            total += 1
    return total


def draws_in_a_branch(x, flag, seed):
    rng = np.random.default_rng(seed)
    if flag:
        for _ in range(12):
            x = x + rng.standard_normal(x.shape).astype(np.float32)
    return x


def discarded_draws(x, seed):
    rng = np.random.default_rng(seed)
    for _ in range(10):
        rng.random()  # its value is unused: the draw still moves the generator on
        x = x + 1
    return x + rng.random()


def draw_until(seed):
    rng = np.random.default_rng(seed)
    total = 0.0
    for _ in range(30):
        u = rng.random()
        if u > 0.9:
            break
        total = total + u
    return total, rng.random()


PROGRAMS = [
    # (the first step's own `while` stays before the loop: it reads the zeros, not a carry)
    (sample_categorical, (np.array([0.2, 0.5, 0.3]), 40, 0), 2),
    (monte_carlo_pi, (3,), 1),
    (global_random_walk, (np.zeros(3),), 1),
    (python_random, (np.float64(1.0), 5), 1),
    (integer_draws, (4,), 1),
    (halvings, (np.array([1, 5, 9, 64, 3, 2, 100, 7]),), 2),
    (draws_in_a_branch, (np.zeros((2, 2), np.float32), True, 1), 1),
    (discarded_draws, (np.zeros(2), 2), 1),
    (draw_until, (5,), 1),  # a staged `break`: roll_break
    (draws_in_a_branch, (np.zeros((2, 2), np.float32), np.array(True), 1), 0),  # in a cond
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn, args, whiles", PROGRAMS, ids=[f"{p[0].__name__}" for p in PROGRAMS])
def test_steps_with_draws_or_staged_control_flow_roll(fn, args, whiles, backend):
    _check(fn, args, backend, whiles)


def test_the_loop_in_a_staged_branch_rolls_inside_it():
    fitted = autoconv.function(draws_in_a_branch).get_concrete_function(
        np.zeros((2, 2), np.float32), np.array(True), 1
    )
    assert sum(n.kind == "while" for n in fitted.optimized_graph.walk()) == 1
    assert len(list(fitted.optimized_graph.walk())) < 20
