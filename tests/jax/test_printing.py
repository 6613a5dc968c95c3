"""`autoconv.print` under `jax.jit` prints on every run, with constant arguments too, and in a
staged `if` only for the inputs that take that branch: the output of the eager function."""

import numpy as np
import pytest

import autoconv

jax = pytest.importorskip("jax")
jnp = jax.numpy


def announces(x):
    autoconv.print("start")
    if x > 0:
        autoconv.print("positive", 1, sep=":")
        x = x * 2
    else:
        autoconv.print("not positive")
    autoconv.print("done", end="!\n")
    return x


def counts_down(x):
    def body(i, v):
        if v > 1.0:
            autoconv.print("halve")
            v = v / 2
        return v

    return jax.lax.fori_loop(0, 3, body, x)


def counts_down_eager(x):
    for _ in range(3):
        if x > 1.0:
            autoconv.print("halve")
            x = x / 2
    return x


@pytest.mark.parametrize(
    ("f", "eager", "inputs"),
    [(announces, announces, (1.0, -1.0, 2.0)), (counts_down, counts_down_eager, (5.0, 1.5))],
    ids=["staged_if", "handed_to_fori_loop"],
)
def test_every_run_prints_what_the_eager_function_prints(capsys, f, eager, inputs):
    traced = jax.jit(autoconv.convert(f))
    for x in inputs:
        expected_value = eager(np.float64(x))
        expected = capsys.readouterr().out
        assert float(traced(x)) == expected_value
        jax.effects_barrier()
        assert capsys.readouterr().out == expected
