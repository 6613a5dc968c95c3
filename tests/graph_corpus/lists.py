"""Lists grown in loops: stacked at the end, measured with len(), prefilled, indexed."""

import numpy as np

from tests.graph_corpus import case, limit

X = np.array([1.0, -2.0, 3.0, 0.5])
LOSS = np.float64(1.0)


@case((X, 3), (X, 0), cls=(7,))
def history_stack(x, n):
    history = []
    for _ in range(n):
        x = x * 0.9
        history.append(x)
    if not history:
        return np.zeros((0, x.shape[0]))
    return np.stack(history)


@case((LOSS, np.float64(0.3)), (LOSS, np.float64(2.0)), cls=(7, 1))
def loss_history_while(loss, tol):
    history = []
    while loss > tol:
        history.append(loss)
        loss = loss * 0.5
    return np.array(history), len(history)


@case((X, 3), (X, 1), cls=(7,))
def prefilled_trajectory(x, steps):
    states = [x]
    for _ in range(steps):
        states.append(states[-1] * 0.5 + 1)
    return np.stack(states)


@case((X,), (-X,), cls=(7, 4))
def append_every_branch(x):
    out = []
    for v in x:
        if v > 2:
            out.append(v * 10)
        elif v > 0:
            out.append(v)
        else:
            out.append(0.0 * v)
    return np.array(out)


@case((X,), (np.array([5.0]),), cls=(7, 4))
def tuples_appended(x):
    pairs = []
    for i in range(len(x)):
        if x[i] > 0:
            pairs.append((i, x[i]))
        else:
            pairs.append((i, -x[i]))
    idx, vals = zip(*pairs)
    return np.array(idx), np.array(vals)


@case((X,), (-np.abs(X),), (np.array([7.0]),), cls=(7,))
def count_positive_list(x):
    kept = []
    for v in x:
        if v > 0:
            kept.append(v)
    return len(kept)


@case((X,), (-np.abs(X),), cls=(7,))
@limit("a comprehension over a Tensor (comprehensions are not converted)")
def filter_comprehension(x):
    kept = [v for v in x if v > 0]
    return np.array(kept, dtype=x.dtype)


@case((X,), (X * 3,), cls=(7, 9))
@limit("a comprehension over a Tensor (comprehensions are not converted)")
def squares_comprehension(x):
    return np.stack([v * v for v in x])


@case((X, 2), (X, 5), cls=(7,))
def chunks(x, size):
    parts = []
    for start in range(0, len(x), size):
        parts.append(x[start : start + size])
    return parts


@case((X,), (np.array([0.0]),), cls=(7, 8), expect="error")
def floats_list(x):
    values = []
    for v in x:
        values.append(float(v))
    return values


@case((X, np.float64(0.1)), (X, np.float64(10.0)), cls=(7, 1))
@limit("indexing a list grown in a staged loop")
def last_of_growing(x, tol):
    iterates = [x]
    while np.max(np.abs(iterates[-1])) > tol:
        iterates.append(iterates[-1] / 2)
    return iterates[-1], len(iterates)


@case((X,), (np.array([-1.0, -1.0]),), cls=(7,))
@limit("sum() of a list grown in a staged loop")
def sum_builtin_of_list(x):
    terms = []
    for v in x:
        if v > 0:
            terms.append(v**2)
    return sum(terms)


@case((np.array([3, 1, 4, 1, 5]),), (np.array([2]),), cls=(7, 1))
@limit("list.pop() inside a staged loop")
def stack_machine(program):
    stack = []
    for op in program:
        if op == 1 and len(stack) >= 2:
            a = stack.pop()
            b = stack.pop()
            stack.append(a + b)
        else:
            stack.append(op)
    return stack


@case((X, 4), (X, 2), cls=(7,))
def prefilled_zeros_list(x, n):
    buf = [np.zeros_like(x)] * n
    for i in range(n):
        if i % 2 == 0:
            buf[i] = x * i
    return np.stack(buf)


@case((X,), (np.zeros(0),), cls=(7,))
def collect_then_mean(x):
    chunks = []
    for v in x:
        chunks.append(np.array([v, v * 2]))
    if len(chunks) == 0:
        return None
    return np.mean(np.stack(chunks), axis=0)


@case((X,), (np.array([0.5]),), cls=(7, 4))
def pairs_of_lists(x):
    small, large = [], []
    for v in x:
        if np.abs(v) < 1.5:
            small.append(v)
        else:
            large.append(v)
    return len(small), len(large)


@case((np.array([[1.0, 2.0], [3.0, 4.0]]),), (np.ones((1, 3)),), cls=(7, 9))
def rows_reversed(m):
    rows = []
    for i in range(m.shape[0] - 1, -1, -1):
        rows.append(m[i])
    return np.vstack(rows)


@case((X, np.float64(0.5)), (X, np.float64(0.0)), cls=(7, 1, 5))
def halving_sequence(x, stop):
    seq = []
    value = np.max(x)
    while value > stop and len(seq) < 10:
        seq.append(value)
        value = value / 2
    return seq


@case((np.float64(3.0),), (np.float64(12.0),), cls=(7, 1))
def countdown_then_final(x):
    steps = []
    while x > 10:
        steps.append(x)
        x = x - 1
    steps.append(x)  # the final value, after the loop's items
    return len(steps), np.stack(steps)
