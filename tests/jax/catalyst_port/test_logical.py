"""Catalyst's `TestLogicalOps` and its guide's "Logical statements": `and`, `or`, `not` on
traced values, Python objects and mixtures of static and traced operands. Catalyst makes them
`jnp.logical_and` and friends; autoconv keeps Python's meaning (the value of an operand, the
short circuit, and the truth value of an array being an error): the differences are by choice,
marked `by_choice` (docs/jax-tracing.md, "Coming from Catalyst")."""

import numpy as np
import pytest

import autoconv
from tests.jax.catalyst_port.common import jit, same

jax = pytest.importorskip("jax")
jnp = jax.numpy


def inside(p):
    return p > 0.0 and p < 1.0 and p <= 2.0


def outside(p):
    return p > 1.0 or p < 0.0 or p == 0.5


def not_above(p):
    return not p > 1.0


@pytest.mark.parametrize("fn", [inside, outside, not_above])
@pytest.mark.parametrize("p", [-1.0, 0.0, 0.5, 1.0, 1.5, 3.0])
def test_chains_of_comparisons(fn, p):
    assert bool(same(fn, p)) == fn(p)


@pytest.mark.parametrize("obj", ["string", [0, 1, 2], [], {1: 2}, {}])
def test_python_objects_as_operands(obj):
    def f():
        first = True and obj
        second = False or obj
        negated = not obj
        return first is obj and second is obj and isinstance(negated, bool)

    assert bool(jit(f)())


def guide_mixture(x, y):
    a = x >= 0.0 and x <= 1.0
    b = not y >= 1.0
    return a or b


@pytest.mark.parametrize("x, y", [(0.5, 1.1), (1.5, 1.6), (-1.0, 0.0), (0.0, 5.0)])
def test_the_guides_logical_example(x, y):
    assert bool(same(guide_mixture, x, y)) == guide_mixture(x, y)


@pytest.mark.parametrize("s", [True, False])
@pytest.mark.parametrize("d", [True, False])
def test_a_static_first_operand(s, d):
    # Catalyst: Python's value for a static first operand, as here.
    assert bool(jit(lambda d: s and d)(d)) == (s and d)
    assert bool(jit(lambda d: s or d)(d)) == (s or d)
    assert bool(jit(lambda d: not d)(d)) == (not d)
    assert bool(jit(lambda: not s)()) == (not s)


@pytest.mark.parametrize("s", [True, False])
@pytest.mark.parametrize("d", [True, False])
def test_a_traced_first_operand(s, d):
    # Catalyst: TracerBoolConversionError ("cases where `d` is the first argument fail").
    # Here Python's short circuit is staged: eager's value.
    assert bool(jit(lambda d: d and s)(d)) == (d and s)
    assert bool(jit(lambda d: d or s)(d)) == (d or s)


@pytest.mark.parametrize("x", [0.0, 2.5])
def test_the_guides_static_second_operand(x):
    # Catalyst's guide: `x and True` is a TracerBoolConversionError; write jnp.logical_and.
    assert float(jit(lambda x: x and True)(x)) == float(x and True)


@pytest.mark.parametrize("x", [False, True])
def test_logical_and_written_out(x):
    assert bool(jit(lambda x: jnp.logical_and(x, True))(x)) == x


def both(a, b):
    return a and b


def either(a, b):
    return a or b


def negation(a):
    return not a


@pytest.mark.by_choice
@pytest.mark.parametrize("fn, args", [(both, 2), (either, 2), (negation, 1)])
def test_by_choice_and_or_not_on_arrays(fn, args):
    # Catalyst: elementwise, `jnp.logical_and(a, b)`. Eager Python: the truth value of an
    # array of several elements is an error; so it is here (write `&`, `|`, `~`).
    a, b = np.array([0, 1]), np.array([1, 1])
    with pytest.raises(ValueError, match="truth value of an array"):
        fn(*(a, b)[:args])
    with pytest.raises(autoconv.AutoconvError, match="a condition must be a single value"):
        jit(fn)(*(jnp.asarray(a), jnp.asarray(b))[:args])


def all_of_and(x, y):
    if jnp.all(x & y):
        z = 1
    else:
        z = -1
    return z


@pytest.mark.parametrize("x", [[0, 1], [1, 1]])
def test_the_guides_reduction_of_an_elementwise_and(x):
    # The guide writes `jnp.all(x and y)`, elementwise in Catalyst; with Python's meaning the
    # elementwise operator is `&`.
    assert int(same(all_of_and, jnp.array(x), jnp.array([1, 1]))) == (1 if all(x) else -1)


def branch_on_two_bits(m1, m2):
    if m1 and not m2:
        out = 1
    elif m1 and m2:
        out = 2
    else:
        out = 3
    return out


@pytest.mark.parametrize("m1", [True, False])
@pytest.mark.parametrize("m2", [True, False])
def test_conditions_on_two_measured_bits(m1, m2):
    same(branch_on_two_bits, m1, m2)
