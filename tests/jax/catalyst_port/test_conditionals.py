"""Catalyst's `if` tests and its guide's "If statements" section: `if`/`elif`/`else` on traced
values, `return` in branches, what branches must agree on, and new variables."""

import numpy as np
import pytest

import autoconv
from tests.jax.catalyst_port.common import assert_same, jit, same

jax = pytest.importorskip("jax")
jnp = jax.numpy


def square_above_four(n):
    if n > 4:
        out = n**2
    else:
        out = n
    return out


@pytest.mark.parametrize("n", range(7))
def test_if_else_on_an_int(n):
    assert int(same(square_above_four, n)) == (n**2 if n > 4 else n)


def two_levels(x):
    if x > 2.7:
        out = x * 4
    elif x > 1.4:
        out = x * 2
    else:
        out = x
    return out


@pytest.mark.parametrize("x, want", [(4.0, 16.0), (2.0, 4.0), (1.0, 1.0), (2.7, 5.4), (1.4, 1.4)])
def test_one_elif(x, want):
    assert float(same(two_levels, x)) == want


def three_levels(x):
    if x > 4.8:
        out = x * 8
    elif x > 2.7:
        out = x * 4
    elif x > 1.4:
        out = x * 2
    else:
        out = x
    return out


@pytest.mark.parametrize("x, want", [(5.0, 40.0), (3.0, 12.0), (2.0, 4.0), (-3.0, -3.0)])
def test_many_elifs(x, want):
    assert float(same(three_levels, x)) == want


def flip_above_four(x):
    # A one-qubit circuit's X gate: the measured bit, as a number.
    bit = 0
    if x > 4:
        bit = 1 - bit
    return bit == 1


@pytest.mark.parametrize("x", [3.0, 6.0])
def test_a_branch_that_only_changes_state(x):
    assert bool(same(flip_above_four, x)) == (x > 4)


def defined_in_one_branch(flag):
    if flag:
        res = 1.0
    return res  # noqa: F821 -- undefined when `flag` is false, the point of the test


@pytest.mark.parametrize("flag", [True, False])
def test_a_variable_only_one_branch_defines(flag):
    # Catalyst: "Some branches did not define a value for variable 'res'". Eager Python gives
    # the value, or an UnboundLocalError, which a staged `if` cannot choose between.
    with pytest.raises(autoconv.AutoconvError, match="res"):
        jit(defined_in_one_branch)(flag)


def constant_branches():
    if True:
        res = 2.0
    elif False:
        res = 0.0
    else:
        res = 1.0
    return res


def test_constant_conditions_run_as_python():
    assert float(same(constant_branches)) == 2.0


def two_returns(x):
    if x > 0:
        return 25
    else:
        return 60


@pytest.mark.parametrize("x", [1, 0, -4])
def test_return_in_both_branches(x):
    assert int(same(two_returns, x)) == (25 if x > 0 else 60)


def early_return_prints(x):
    if x < 1.0:
        return 0
    autoconv.print("past the early return")
    return 1


@pytest.mark.parametrize("x, printed", [(0.0, ""), (3.0, "past the early return\n")])
def test_early_return_and_printing(x, printed, capfd):
    f = jit(early_return_prints)
    capfd.readouterr()
    assert int(f(x)) == early_return_prints(x)
    capfd.readouterr()
    assert int(f(x)) == (0 if x < 1.0 else 1)
    assert capfd.readouterr().out == printed  # on every run, for its input only


def returns_different_structures(switch):
    if switch:
        return jnp.array([1.0, 2.0])
    return 0.0


def test_returns_of_different_shapes():
    # Catalyst: "Conditional requires a consistent array shape per result across all branches".
    with pytest.raises(autoconv.AutoconvError):
        jit(returns_different_structures)(True)


def returns_different_containers(switch):
    if switch:
        return (1.0, 2.0)
    return {"a": 1.0}


def test_returns_of_different_structures():
    with pytest.raises(autoconv.AutoconvError):
        jit(returns_different_containers)(True)


def shape_differs(x):
    if x > 1:
        y = jnp.array([0.1, 0.2])
    else:
        y = jnp.array([0.4, 0.5, -0.1])
    return jnp.sum(y)


def shape_agrees(x):
    if x > 1:
        y = jnp.array([0.1, 0.2, 0.3])
    else:
        y = jnp.array([0.4, 0.5, -0.1])
    return jnp.sum(y)


def test_branches_assign_arrays_of_different_shapes():
    with pytest.raises(autoconv.AutoconvError, match="y"):
        jit(shape_differs)(0.5)


@pytest.mark.parametrize("x", [0.5, 1.5])
def test_branches_assign_arrays_of_one_shape(x):
    assert float(same(shape_agrees, x)) == pytest.approx(0.6 if x > 1 else 0.8)


def dict_per_branch(x):
    if x > 1:
        y = {"a": jnp.array([0.1, 0.2, 0.3]), "b": 6}
    else:
        y = {"a": jnp.array([0.5, 0.0, -0.2]), "b": -1}
    return y


@pytest.mark.parametrize("x", [1.5, 0.5])
def test_branches_assign_dicts_of_one_structure(x):
    same(dict_per_branch, x)


def dict_keys_differ(x):
    if x > 1:
        y = {"a": 1.0, "b": 6}
    else:
        y = {"a": 2.0}
    return y


def test_branches_assign_dicts_of_different_keys():
    with pytest.raises(autoconv.AutoconvError, match="y"):
        jit(dict_keys_differ)(0.5)


def float_or_int(x):
    if x > 5:
        y = 5.0
    else:
        y = 4
    return y


def test_float_in_one_branch_int_in_the_other():
    # Catalyst promotes to float64 (4.0). Eager Python gives the int 4 for x = 0.5, and a staged
    # `if` gives one dtype for both: NumPy's promotion of the two, float64, as Catalyst's.
    assert float(jit(float_or_int)(0.5)) == 4.0
    assert float(jit(float_or_int)(6.5)) == 5.0
    assert jit(float_or_int)(0.5).dtype == np.float64


def new_variable_in_one_branch(x):
    if x > 5:
        y = 0.4  # noqa: F841 -- never read: not state of the `if`
    return x


def test_a_new_variable_that_nothing_reads_after_the_if():
    # Catalyst: "Some branches did not define a value for variable 'y'"; nothing reads `y`
    # afterwards, so eager Python has no error and neither do we.
    assert float(same(new_variable_in_one_branch, 0.5)) == 0.5


def existing_variable(x):
    y = 0.1
    if x > 5:
        y = 0.4
    return y


@pytest.mark.parametrize("x", [0.5, 6.0])
def test_a_variable_that_exists_before_the_if(x):
    same(existing_variable, x)


def changes_type_in_both(x):
    y = 0.1
    if x > 5:
        y = 4
    else:
        y = -1
    return y


@pytest.mark.parametrize("x", [0.5, 6.0])
def test_a_new_type_in_every_branch(x):
    assert int(same(changes_type_in_both, x)) == (4 if x > 5 else -1)


def changes_type_in_one(x):
    y = 0.1
    if x > 5:
        y = 4
    return y


def test_a_new_type_in_one_branch_is_promoted():
    assert_same(jit(changes_type_in_one)(6.0), 4.0)
    assert_same(jit(changes_type_in_one)(0.5), 0.1)


def strings_in_branches(x):
    if x > 5:
        y = "a"
    else:
        y = "b"
    return y


def test_strings_chosen_by_a_traced_condition():
    # Catalyst: "Value 'a' with type <class 'str'> is not a valid JAX type".
    with pytest.raises(autoconv.AutoconvError, match="y"):
        jit(strings_in_branches)(0.5)


def branch_calls(x, y):
    if helper_product(x, y) > 1.0:
        z = helper_product(x, x)
    else:
        z = helper_product(y, y)
    return z


def helper_product(a, b):
    if a > b:  # converted too: called from converted code
        return a * b
    return b * a


@pytest.mark.parametrize("x, y", [(2.0, 3.0), (0.1, 0.5), (-2.0, -1.0)])
def test_calls_in_conditions_and_branches(x, y):
    same(branch_calls, x, y)


def assigns_several(x):
    a, b, c = 1.0, 2, True
    if x > 0:
        a, b, c = x, 3, False
    return a, b, c


@pytest.mark.parametrize("x", [-1.0, 2.0])
def test_several_variables_of_several_types(x):
    same(assigns_several, x)


def return_in_elif(x):
    if x > 3:
        return x * 3
    elif x > 1:
        return x * 2
    y = x + 1
    return y


@pytest.mark.parametrize("x", [0.0, 2.0, 4.0])
def test_returns_in_elif_chains(x):
    same(return_in_elif, x)


def pytree_shapes_differ(x):
    if x > 1.0:
        y = (1.0, 2.0)
    else:
        y = (1.0,)
    return y


def test_branches_assign_tuples_of_different_lengths():
    with pytest.raises(autoconv.AutoconvError, match="y"):
        jit(pytree_shapes_differ)(0.5)
