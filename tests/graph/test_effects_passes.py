"""Prints and Variables under every pass setting: effects run in program order, Variables are
read when the graph runs, and what a call returns never shares memory with a Variable or a
graph constant."""

import numpy as np
import pytest

import autoconv

pytestmark = pytest.mark.usefixtures("pass_settings")


def test_prints_and_updates_in_program_order(capsys):
    v = autoconv.Variable(np.zeros(2), name="v")

    def f(x):
        autoconv.print("before", np.sum(v))
        v.assign_add(x * 1)
        autoconv.print("after", np.sum(v), np.sum(v))
        v.assign(v * 2 + 0)
        return np.sum(v) + np.sum(v)

    g = autoconv.function(f)
    assert g(np.ones(2)) == 8.0
    assert g(np.ones(2)) == 24.0
    np.testing.assert_array_equal(v.numpy(), [6.0, 6.0])
    assert capsys.readouterr().out == "before 0.0\nafter 2.0 2.0\nbefore 4.0\nafter 6.0 6.0\n"


def test_updates_inside_control_flow():
    v = autoconv.Variable(np.float64(0.0))

    @autoconv.function
    def f(xs):
        for x in xs:
            if x > 0:
                v.assign_add(x)
            else:
                v.assign_sub(np.sin(x) * np.sin(x))
        return v.read_value()

    xs = np.array([1.0, -2.0, 3.0])
    expected = 1.0 - np.sin(-2.0) ** 2 + 3.0
    assert f(xs) == expected
    assert v.numpy() == expected


def test_results_never_share_memory_with_variables_or_constants():
    v = autoconv.Variable(np.ones(3), name="v")

    @autoconv.function
    def f(x):
        y = x * 2
        v.assign(y)
        return v.read_value(), y, np.ones_like(x), np.zeros_like(x)

    read, y, ones, zeros = f(np.ones(3))
    for out in (read, y, ones, zeros):
        assert out.flags.writeable
        out[...] = -1
    np.testing.assert_array_equal(v.numpy(), [2.0, 2.0, 2.0])
    read, y, ones, zeros = f(np.ones(3))
    assert ones.tolist() == [1.0] * 3 and zeros.tolist() == [0.0] * 3


def test_scalar_variable_stays_an_array():
    w = autoconv.Variable(np.float32(0.0))

    @autoconv.function
    def step(x):
        w.assign_sub(np.float32(0.1) * np.mean(x))
        return w.read_value()

    step(np.ones(3, np.float32))
    assert isinstance(np.asarray(w), np.ndarray) and np.asarray(w).dtype == np.float32
    assert w.numpy() == np.float32(0.0) - np.float32(0.1) * np.float32(1.0)


def test_variable_read_in_a_loop_sees_each_update():
    v = autoconv.Variable(np.float64(1.0))

    @autoconv.function
    def f(n):
        i = 0
        total = np.float64(0.0)
        while i < n:
            total = total + v * 1  # read each iteration
            v.assign(v * 2)
            i += 1
        return total

    assert f(np.int64(4)) == 1 + 2 + 4 + 8
