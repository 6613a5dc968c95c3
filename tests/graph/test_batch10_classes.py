"""Programs of the classes batch 10 found (tools/fresh_batch10_findings.md), written anew for
each class, run eagerly and as one graph function on every input, on both backends: where the
JAX backend cannot lower a construct, its documented LoweringError naming the user's line.

- C1: `max(d, key=lambda k: d[k])` of a dict holding run-time keys (only `key=d.get` ran).
- C2: `math.dist`, `math.isqrt`, `math.comb`, `math.factorial` of run-time values.
- C7/W2: comprehensions over a list a helper grew in a staged loop (formatting its items gave
  autoconv's placeholder), over a mask's selection and over `np.nonzero(row)[0]`.
- L-iterate-run-time-length: a comprehension over a name bound to `np.where(m)[0]`, or over
  `zip(*np.nonzero(m))`.
- C8: a comprehension whose target nests a tuple (`for i, (v, w) in enumerate(zip(x, y))`).
- E2: an f-string of a value that may be None.
- W1: `x if x is not None else d` appended in a staged loop, then `np.array` of the list.
"""

import math

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_or_jax_limit

P = []


def prog(*inputs):
    def add(f):
        P.append((f, inputs))
        return f

    return add


def _votes(a):
    tally = {}
    for v in a:
        tally[int(v)] = tally.get(int(v), 0) + 1
    return tally


@prog(np.array([3, 1, 3, 2]), np.array([5]), np.array([1, 2, 2, 1]))
def most_voted_by_lambda(a):
    tally = _votes(a)
    return max(tally, key=lambda k: tally[k]), min(tally, key=lambda k: tally[k])


@prog(np.array([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0]]), np.array([[1.0, 2.0], [1.0, 2.0]]))
def path_length(pts):
    total = 0.0
    for i in range(len(pts) - 1):
        total += math.dist(pts[i], pts[i + 1])
    return total


@prog(np.array([7, 10]), np.array([0, 3]))
def integer_math(a):
    n = int(a[0])
    return math.isqrt(n), math.comb(n, 2), math.factorial(n % 5), math.perm(n, 1)


def _small(s):
    out = []
    for i, q in enumerate(s):
        if q < 5:
            out.append(i)
    return out


@prog(np.array([4, 6, 1]), np.zeros(0, dtype=np.int64), np.array([9, 9]))
def labels_of_a_helpers_list(s):
    idx = _small(s)
    return [f"#{i}" for i in idx], ", ".join([str(i) for i in _small(s)]), len(idx)


@prog(np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]]), np.array([[0, 0], [0, 0]]))
def degree_lists(adj):
    out = []
    for u in range(adj.shape[0]):
        out.append([int(v) for v in np.nonzero(adj[u])[0]])
    return out, [float(v) * 2 for v in adj[0][adj[0] > 0]]


@prog(np.array([5.0, -3.0, 12.0]), np.array([1.0, 2.0]))
def clipped_positions(x):
    y = np.clip(x, 0.0, 10.0)
    moved = [i for i, (v, w) in enumerate(zip(x, y)) if v != w]
    gaps = [round(float(v - w), 2) for _, (v, w) in enumerate(zip(x, y))]
    return moved, gaps


@prog(np.array([5.0, 6.0]), np.array([0.25, 3.0]))
def report_of_a_maybe_mean(x):
    lo = x[x < 1.0]
    m = float(lo.mean()) if lo.size else None
    return f"mean={m} ({m!r})"


@prog(np.array([1.0, 2.0, 0.5]), np.zeros(0), np.array([3.0]))
def filled_forward(x):
    last = None
    out = []
    for v in x:
        if v > 1:
            last = v
        out.append(last if last is not None else 0.0)
    return np.array(out), out


@prog(np.array([[1.0, 2.0, 30.0], [1.0, 2.0, 3.0]]), np.ones((2, 2)))
def cells_far_from_the_mean(scores):
    flat = scores.ravel()
    z = (flat - flat.mean()) / (flat.std() + 1e-9)
    idx = np.where(np.abs(z) > 1.5)[0]
    cells = [divmod(int(i), scores.shape[1]) for i in idx]
    peaks = [(int(i), int(j)) for i, j in zip(*np.nonzero(scores == scores.max()))]
    return cells, peaks


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f,inputs", P, ids=[f.__name__ for f, _ in P])
def test_program(f, inputs, backend):
    for x in inputs:
        follows_or_jax_limit(f, x, backend=backend)
