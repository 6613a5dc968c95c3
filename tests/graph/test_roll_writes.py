"""The `roll` pass over steps that write an item of an array (`out[i] = v`) at an index that
advances: one staged loop writing at a counter, with eager NumPy's results on both backends."""

import numpy as np
import pytest

import autoconv
from autoconv.runtime import pure_steps
from tests.graph.agreement import BACKENDS
from tests.graph.test_roll import _check, _loops

RNG = np.random.default_rng(3)


def running_sum(x):
    out = np.zeros_like(x)
    acc = 0.0
    for i in range(x.shape[0]):
        acc = acc + x[i]
        out[i] = acc
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_running_sum_written_into_out_i_is_one_loop(backend, monkeypatch):
    # The pass's own loop: staged while traced (test_roll12.py) a settled loop never reaches it.
    monkeypatch.setattr(pure_steps, "MIN_LEFT", 10**9)
    concrete = _check(running_sum, RNG.random(300), backend=backend, loops=1)
    assert len(list(concrete.graph.walk())) > 900
    assert len(list(concrete.optimized_graph.walk())) < 20


def rows_from_the_end(m):
    out = np.zeros((6, 3))
    for i in range(1, 7):
        out[-i, :] = m[2 * i] * 0.5 + out[-i]
    return out


def every_other_column(m):
    out = m.copy()
    for j in range(0, 8, 2):
        out[:, j] = out[:, j] - m[:, j + 1]
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [rows_from_the_end, every_other_column])
def test_writes_at_negative_strided_and_tuple_keys(backend, fn):
    m = RNG.random((14, 8)) if fn is every_other_column else RNG.random((14, 3))
    _check(fn, m, backend=backend, loops=1)


def test_writes_at_keys_that_do_not_advance_evenly():
    def f(x):
        out = np.zeros(17)
        for i in range(5):
            out[i * i] = x[i] + 1.0  # 0, 1, 4, 9, 16: only two steps in a row share a stride
        return out

    concrete = _check(f, RNG.random(5))
    # Steps 0-1 (stride 1) and 2-3 (stride 5) roll, each pair a loop; step 4 stays as it is.
    writes = [n for n in concrete.optimized_graph.walk() if n.op == "setitem"]
    assert _loops(concrete) == 2 and len(writes) == 3


def test_a_float_stored_into_an_int_array_is_checked_in_every_step():
    # NumPy raises storing a NaN into an integer array: that check stays in each step.
    def f(x):
        out = np.zeros(5, dtype=np.int64)
        for i in range(5):
            out[i] = x[i] * 2.0
        return out

    x = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    _check(f, x)
    g = autoconv.function(f)
    with pytest.raises(ValueError):
        g(np.array([1.0, np.nan, 3.0, 4.0, 5.0]))


def test_writes_in_a_loop_a_staged_break_may_end():
    def f(x):
        out = np.full(40, -1.0)
        total = 0.0
        for i in range(40):
            total = total + x[i]
            out[i] = total
            if total > 10.0:
                break
        return out

    for x in (RNG.random(40), RNG.random(40) * 0.01):
        concrete = _check(f, x)
    assert _loops(concrete) == 1
