"""Catalyst's `TestIntegration`, `TestCodePrinting`, `TestDecorators`, `TestDisableAutograph`
and its guide's "Nested functions": lambdas, callable objects, functions called from converted
code, functions handed to JAX's transformations and control flow, the converted source, and
code left as it is. Catalyst's circuits become `jnp` computations of the same angles."""

import numpy as np
import pytest

import autoconv
from tests.jax.catalyst_port.common import assert_same, eager, jit, same

jax = pytest.importorskip("jax")
jnp = jax.numpy
lax = jax.lax


def test_an_object_that_is_not_a_function():
    # Catalyst: "Unsupported object for transformation" for a non-callable; Python's error.
    with pytest.raises(TypeError):
        autoconv.convert(42)


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    def __call__(self, x):
        if x > 1.0:
            x = x * self.factor
        return x


@pytest.mark.parametrize("x", [0.5, 2.0])
def test_a_callable_object(x):
    model = Scaler(3.0)
    assert float(jax.jit(autoconv.convert(model))(x)) == model(x)


@pytest.mark.parametrize("x", [-1.0, 0.0, 2.0])
def test_a_lambda(x):
    f = lambda x: x**2 if x > 0 else -x  # noqa: E731 -- the lambda is the point
    assert float(jit(f)(x)) == f(x)


def classical(x):
    if x > 1.0:
        return x * 2
    return x


@pytest.mark.parametrize("x", [0.5, 3.0])
def test_a_classical_function(x):
    same(classical, x)


def inner_rotation(x):
    if x > 0.5:
        x = x / 2
    return jnp.cos(x)


def outer_calls_inner(x):
    total = 0.0
    for k in range(3):
        total = total + inner_rotation(x * k)
    return total


@pytest.mark.parametrize("x", [0.1, 0.4, 1.0])
def test_a_called_function_is_converted(x):
    same(outer_calls_inner, x)


def guide_nested(x, n):
    for _ in range(n):
        x = guide_step(x)
    return x


def guide_step(x):
    if x < 3:
        x = x + 1
    else:
        x = x * 2
    return x


@pytest.mark.parametrize("x, n", [(1.0, 3), (4.0, 2), (0.0, 0)])
def test_the_guides_nested_functions(x, n):
    same(guide_nested, x, n)


def two_models(x):
    a = classical(x)
    b = inner_rotation(x)
    return a, b


@pytest.mark.parametrize("x", [0.2, 2.0])
def test_several_converted_callees(x):
    same(two_models, x)


def nested_jit(x):
    inner = jax.jit(classical)
    return inner(x) + 1


@pytest.mark.parametrize("x", [0.5, 3.0])
def test_jit_inside_a_converted_function(x):
    # Catalyst's nested `qjit`: the inner `jax.jit` gets the converted function (eagerly
    # `jax.jit(classical)` is JAX's error on the `if`).
    assert float(jit(nested_jit)(x)) == classical(x) + 1


def graded(x):
    def cost(y):
        if y > 1.0:
            return jnp.sin(y)
        return y**2

    return jax.grad(cost)(x)


def jacobian(x):
    def vec(y):
        out = jnp.zeros(2)
        for i in range(2):
            if y[i] > 0:
                out = out.at[i].set(y[i] ** 2)
            else:
                out = out.at[i].set(-y[i])
        return out

    return jax.jacobian(vec)(x)


def with_vjp(x):
    def fn(y):
        if y > 0:
            return y**3
        return -y

    value, pull = jax.vjp(fn, x)
    return value, pull(1.0)[0]


def with_jvp(x):
    def fn(y):
        if y > 0:
            return y**3
        return -y

    return jax.jvp(fn, (x,), (1.0,))


@pytest.mark.parametrize("x", [0.5, 2.0])
def test_grad_of_a_nested_function(x):
    assert float(jit(graded)(x)) == pytest.approx(np.cos(x) if x > 1.0 else 2 * x)


@pytest.mark.parametrize("x", [[1.0, -2.0], [-0.5, 3.0]])
def test_jacobian_of_a_nested_function(x):
    want = np.diag([2 * v if v > 0 else -1.0 for v in x])
    np.testing.assert_allclose(jit(jacobian)(jnp.array(x)), want)


@pytest.mark.parametrize("x", [-1.0, 2.0])
def test_vjp_of_a_nested_function(x):
    value, slope = jit(with_vjp)(x)
    assert float(value) == (x**3 if x > 0 else -x)
    assert float(slope) == (3 * x**2 if x > 0 else -1.0)


@pytest.mark.parametrize("x", [-1.0, 2.0])
def test_jvp_of_a_nested_function(x):
    value, slope = jit(with_jvp)(x)
    assert float(value) == (x**3 if x > 0 else -x)
    assert float(slope) == (3 * x**2 if x > 0 else -1.0)


def vmapped(d):
    def add(axes):
        return axes["x"] + axes["y"]

    return jax.vmap(add, in_axes=({"x": None, "y": 0},))(d)


def test_vmap_of_a_dict():
    got = jit(vmapped)({"x": 1, "y": jnp.arange(5)})
    np.testing.assert_array_equal(got, [1, 2, 3, 4, 5])


def vmapped_branch(xs):
    def clip(x):
        if x > 2:
            x = 2.0 * 1
        return x

    return jax.vmap(clip)(xs)


def test_vmap_of_a_function_with_an_if():
    np.testing.assert_array_equal(jit(vmapped_branch)(jnp.arange(5.0)), [0, 1, 2, 2, 2])


def hand_written_cond(n):
    return lax.cond(n > 4, lambda: n**2, lambda: n)


def hand_written_fori(x):
    def body(_, total):
        if total > 10:
            return total + 1
        return total + x

    return lax.fori_loop(0, 6, body, 0)


def hand_written_while(n):
    return lax.while_loop(lambda i: i < n, lambda i: i + 1, 0)


@pytest.mark.parametrize("n", [3, 6])
def test_lax_cond_written_by_hand(n):
    assert int(jit(hand_written_cond)(n)) == (n**2 if n > 4 else n)


@pytest.mark.parametrize("x", [5, 1])
def test_lax_fori_loop_whose_body_branches(x):
    total = 0
    for _ in range(6):
        total = total + 1 if total > 10 else total + x
    assert int(jit(hand_written_fori)(x)) == total


@pytest.mark.parametrize("n", [0, 6])
def test_lax_while_loop_written_by_hand(n):
    assert int(jit(hand_written_while)(n)) == n


def rotation_sequence(flag):
    angles = []
    if flag:
        angles = [np.pi / 2, np.pi]
    return len(angles)


@pytest.mark.parametrize("flag", [True, False])
def test_a_function_building_a_static_list(flag):
    # Catalyst's `qml.prod` test: a template that adds gates when its flag (a constant) is
    # set. (A traced flag is an error: the list would have 2 items or none.)
    assert int(same(lambda: rotation_sequence(flag))) == (2 if flag else 0)
    with pytest.raises(autoconv.AutoconvError, match="`angles` differs between the if branch"):
        jit(rotation_sequence)(flag)


def test_the_converted_source():
    # Catalyst's `autograph_source`: the converted code, for the function and its callees.
    text = autoconv.to_code(outer_calls_inner)
    assert "ac.for_stmt" in text
    assert "ac.if_stmt" in autoconv.to_code(inner_rotation)
    assert "ac.if_stmt" in autoconv.to_code(lambda x: 1 if x > 0 else 2) or "if_exp" in (
        autoconv.to_code(lambda x: 1 if x > 0 else 2)
    )


@autoconv.do_not_convert
def left_as_python():
    x = 6
    if x > 5:
        y = x**2
    else:
        y = x**3
    return y


def adds_left_as_python(x, n):
    for _ in range(n):
        x = x + left_as_python()
    return x


@pytest.mark.parametrize("n", [6, 0])
def test_code_left_as_it_is(n):
    assert float(jit(adds_left_as_python)(0.4, n)) == pytest.approx(0.4 + 36 * n)


def test_code_left_as_it_is_when_it_meets_a_tracer():
    @autoconv.do_not_convert
    def traced_if(x):
        if x > 5:  # left as Python: JAX's own error on a tracer
            return x
        return -x

    with pytest.raises(jax.errors.TracerBoolConversionError):
        jit(lambda x: traced_if(x))(1.0)


def test_the_same_function_converted_and_not():
    def plain(x):
        return x * 2

    assert float(jit(plain)(3.0)) == 6.0
    assert_same(eager(plain, 3.0), 6.0)
