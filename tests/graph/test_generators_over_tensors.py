"""Generator functions stay Python (autoconv does not convert their bodies); in graph mode a
`for` statement of one over a Tensor whose first dimension is known while tracing goes by index,
as eager code iterates an array (batch 7's L-generator: `pairs_gen`, `running_totals`)."""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule, message

# Each generator stays Python on purpose, which autoconv says with a ConversionWarning.
pytestmark = pytest.mark.filterwarnings("ignore::autoconv.ConversionWarning")


def pairs(x):
    prev = None
    for v in x:
        if prev is not None:
            yield prev, v
        prev = v


def diffs(x):
    return [b - a for a, b in pairs(x)]


def running_totals(x):
    total = 0.0
    for v in x:
        total += v
        yield total


def totals(x):
    return list(running_totals(x))


def windows(x, k):
    for i in range(len(x) - k + 1):
        yield x[i : i + k]


def window_means(x):
    return np.array([np.mean(w) for w in windows(x, 2)])


def rows(m):
    for r in m:
        yield r.sum(), r.max()


def row_stats(m):
    out = []
    for s, top in rows(m):
        out.append(s - top)
    return out


def chained(x):
    squares = (v * v for v in x)
    return sum(s for s in running_totals(squares_list(squares)))


def squares_list(gen):
    return np.array(list(gen))


def positives(x):
    for v in x:
        if v > 0:  # a condition on data, in a body that stays Python
            yield v


def only_positives(x):
    return list(positives(x))


INPUTS = [
    (diffs, (np.array([1.0, 3.0, 2.0, 5.0]),)),
    (diffs, (np.array([1.0]),)),
    (totals, (np.array([1.0, 2.0, 4.0]),)),
    (totals, (np.zeros(0),)),
    (window_means, (np.array([1.0, 3.0, 5.0, 9.0]),)),
    (row_stats, (np.arange(6.0).reshape(3, 2),)),
    (chained, (np.array([1.0, -2.0, 3.0]),)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", INPUTS, ids=lambda v: getattr(v, "__name__", ""))
def test_generator_over_a_tensor(fn, args, backend):
    follows_the_rule(fn, *args, backend=backend)


def test_a_condition_on_data_in_a_generator_names_it():
    text = message(only_positives, np.array([1.0, -1.0]))
    assert "used as a Python bool" in text and "generator `positives`" in text
    assert "test_generators_over_tensors.py:" in text
