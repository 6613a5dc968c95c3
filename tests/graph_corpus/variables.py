"""autoconv.Variable state: updated in branches and loops, read after updates, held by
objects, and created inside the traced function."""

import numpy as np

import autoconv
from tests.graph_corpus import case

X = np.array([1.0, -2.0, 3.0])


def var(value):
    return autoconv.Variable(np.asarray(value, dtype=np.float64))


@case((var(0.0), X), (var(5.0), X), cls=(3, 8), expect="error")
def accumulate(v, x):
    v.assign_add(np.sum(x))
    return v.numpy()


@case((var([0.0, 0.0, 0.0]), X), (var([1.0, 1.0, 1.0]), -X), cls=(3, 4))
def assign_in_branch(v, x):
    if np.sum(x) > 0:
        v.assign(x)
    else:
        v.assign_sub(x)
    return v * 1


@case((var(0.0), X, 3), (var(1.0), X, 0), cls=(3, 9))
def assign_in_loop(v, x, n):
    for _ in range(n):
        v.assign_add(np.max(x))
    return v + 0


@case((var(2.0),), (var(-1.0),), cls=(3,))
def read_assign_read(v):
    before = v + 0
    v.assign(v * 3)
    after = v + 0
    return before, after


@case((var(0.0), np.float64(10.0)), (var(20.0), np.float64(10.0)), cls=(3, 1))
def variable_loop_test(v, limit):
    steps = 0
    while v < limit:
        v.assign_add(3.0)
        steps += 1
    return steps


@case((np.float64(2.0),), (np.float64(2.0),), (np.float64(3.0),), cls=11, expect="error")
def created_inside(x):
    v = autoconv.Variable(1.0)
    v.assign_add(x)
    return v + 0


@case((X,), (X,), cls=11, expect="error")
def created_inside_counter(x):
    counter = autoconv.Variable(0)
    for v in x:
        if v > 0:
            counter.assign_add(1)
    return counter * 1


@case((X,), (X * 2,), cls=(11, 3), expect="error")
def created_inside_assigned(x):
    total = autoconv.Variable(np.zeros(3))
    total.assign(total + x)
    total.assign(total * 2)
    return total + 0


class Lazy:
    def __init__(self):
        self.w = None

    @case((X,), (X * 2,), (X,), cls=(11, 2, 3), bind=lambda: Lazy(), expect="error")
    def build_on_first_call(self, x):
        if self.w is None:
            self.w = autoconv.Variable(np.ones(3))
        self.w.assign_add(x)
        return self.w * 1


class Dense:
    def __init__(self):
        self.w = autoconv.Variable(np.array([0.5, -0.5, 1.0]))
        self.b = autoconv.Variable(0.0)

    @case(
        (X, np.float64(1.0)),
        (X, np.float64(1.0)),
        (X, np.float64(-1.0)),
        cls=(3,),
        bind=lambda: Dense(),
    )
    def train_step(self, x, y):
        pred = np.sum(self.w * x) + self.b
        err = pred - y
        self.w.assign_sub(0.1 * err * x)
        self.b.assign_sub(0.1 * err)
        return err**2


class Counter:
    def __init__(self):
        self.n = autoconv.Variable(0)

    @case((X,), (-X,), (X,), cls=(3, 4), bind=lambda: Counter())
    def count_positive_calls(self, x):
        if np.sum(x) > 0:
            self.n.assign_add(1)
        return self.n + 0


@case((var(1.0), X), (var(-1.0), X), cls=(3, 4))
def variable_in_condition(v, x):
    if v > 0:
        y = x * v
    else:
        y = x - v
    return y


@case(
    (var([0.0, 0.0]), np.array([[1.0, 2.0], [3.0, 4.0]])),
    (var([1.0, 1.0]), np.zeros((0, 2))),
    cls=(3, 9),
)
def running_sum_rows(v, m):
    for row in m:
        v.assign_add(row)
    return v + 0


@case((var(1.0), X), (var(1.0), -X), cls=(3, 4))
def early_return_after_assign(v, x):
    v.assign(np.max(x))
    if np.max(x) > 2:
        return v + 0
    v.assign(0.0)
    return v + 0


@case((X,), (X,), (-X,), cls=(11, 2), expect="error")
def created_inside_conditionally(x):
    acc = autoconv.Variable(np.zeros(3))
    if np.sum(x) > 0:
        acc.assign_add(x)
    return acc * 1


class Steps:
    def __init__(self):
        self.step = autoconv.Variable(0)
        self.lr = autoconv.Variable(0.1)

    @case((X,), (X,), (X,), (X,), cls=(3, 4), bind=lambda: Steps())
    def schedule(self, x):
        self.step.assign_add(1)
        if self.step > 2:
            self.lr.assign(self.lr * 0.5)
        return x * self.lr
