"""Catalyst's `for` and `while` tests and its guide's loop sections: iterating arrays, lists,
`range` with static and traced bounds, `enumerate`, dict items, carried and temporary values,
variables the loop leaves undefined, and loops inside loops and branches. Catalyst's one-qubit
circuits of `RY` gates become the sum of the angles (`RY` angles add up) and its `cos`."""

import itertools

import numpy as np
import pytest

import autoconv
from tests.jax.catalyst_port.common import jit, same

jax = pytest.importorskip("jax")
jnp = jax.numpy

ANGLES = np.array([0.0, np.pi / 4, np.pi / 2])


def rotate_by_items(params):
    theta = 0.0
    for x in params:
        theta = theta + x
    return jnp.cos(theta)


@pytest.mark.parametrize("n", [0, 1, 3, 5])
def test_for_over_an_array(n):
    params = jnp.linspace(0.0, 1.0, n)
    same(rotate_by_items, params)


def test_for_over_an_array_gives_catalysts_value():
    assert float(jit(rotate_by_items)(jnp.asarray(ANGLES))) == pytest.approx(-np.sqrt(2) / 2)


def rotate_by_pairs(params):
    theta = 0.0
    for a, b in params:
        theta = theta + a
        theta = theta + b
    return jnp.cos(theta)


@pytest.mark.parametrize("rows", [1, 2, 4])
def test_for_over_an_array_unpacking_rows(rows):
    same(rotate_by_pairs, jnp.arange(2.0 * rows).reshape(rows, 2) / 4)


def rotate_by_list():
    theta = 0.0
    for x in [0.0, np.pi / 4, np.pi / 2]:
        theta = theta + x
    return jnp.cos(theta)


def rotate_by_nested_lists():
    theta = 0.0
    for row in [[0.0, np.pi / 4], [np.pi / 2, np.pi]]:
        for x in row:
            theta = theta + x
    return jnp.cos(theta)


def rotate_by_strings():
    theta = 0.0
    for s in ["0", "1", "2"]:
        theta = theta + int(s) / 4 * np.pi
    return jnp.cos(theta)


def rotate_by_dict_items():
    theta = 0.0
    names = ""
    for k, v in {"a": 0.0, "b": np.pi / 4, "c": np.pi / 2}.items():
        names = names + k
        theta = theta + v
    return jnp.cos(theta), len(names)


@pytest.mark.parametrize(
    "fn", [rotate_by_list, rotate_by_nested_lists, rotate_by_strings, rotate_by_dict_items]
)
def test_for_over_python_containers(fn):
    same(fn)


def hadamards(n):
    flipped = jnp.zeros(8)
    for i in range(n):
        flipped = flipped.at[i].set(0.5)
    return flipped


@pytest.mark.parametrize("n", [0, 1, 3, 8])
def test_for_over_a_range(n):
    same(hadamards, n)  # a traced bound: `range(n)` with `n` traced


def static_range():
    flipped = jnp.zeros(3)
    for i in range(3):
        flipped = flipped.at[i].set(0.5)
    return flipped


def test_for_over_a_static_range():
    same(static_range)


def index_array_static():
    params = jnp.array([0.0, np.pi / 4, np.pi / 2])
    theta = 0.0
    for i in range(3):
        theta = theta + params[i]
    return jnp.cos(theta)


def index_list_static():
    params = [0.0, np.pi / 4, np.pi / 2]
    theta = 0.0
    for i in range(3):
        theta = theta + params[i]
    return jnp.cos(theta)


def index_strings_static():
    params = ["0", "1", "2"]
    theta = 0.0
    for i in range(3):
        theta = theta + int(params[i]) / 4 * np.pi
    return jnp.cos(theta)


@pytest.mark.parametrize("fn", [index_array_static, index_list_static, index_strings_static])
def test_static_range_indexing(fn):
    # Catalyst warns on the list and the strings (its loop is traced, the index is a tracer)
    # and falls back to Python; a static range here runs as Python: no warning, eager's value.
    same(fn)


def index_array_dynamic(n):
    params = jnp.array([0.0, np.pi / 4, np.pi / 2])
    theta = 0.0
    for i in range(n):
        theta = theta + params[i]
    return jnp.cos(theta)


@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_traced_range_indexing_an_array(n):
    same(index_array_dynamic, n)


def index_list_dynamic(n):
    params = [0.0, np.pi / 4, np.pi / 2]
    theta = 0.0
    for i in range(n):
        theta = theta + params[i]
    return jnp.cos(theta)


def index_strings_dynamic(n):
    params = ["0", "1", "2"]
    theta = 0.0
    for i in range(n):
        theta = theta + int(params[i]) * np.pi
    return jnp.cos(theta)


@pytest.mark.parametrize("fn", [index_list_dynamic, index_strings_dynamic])
def test_traced_range_indexing_a_list(fn):
    # Catalyst: JAX's TracerIntegerConversionError. A Python list cannot be read at an index
    # known only when the function runs: an error naming it at the user's line, and what to
    # write.
    where = r"test_loops.py:\d+: this line reads an item of `params` \(a Python list\)"
    with pytest.raises(autoconv.AutoconvError, match=where) as e:
        jit(fn)(3)
    assert "Make the list an array first (`params = jnp.asarray(params)`)" in str(e.value)


def enumerate_rotations(params):
    thetas = jnp.zeros(5)
    for i, x in enumerate(params):
        thetas = thetas.at[i].add(x)
    return jnp.cos(thetas)


def enumerate_no_unpack(params):
    thetas = jnp.zeros(5)
    for pair in enumerate(params):
        thetas = thetas.at[pair[0]].add(pair[1])
    return jnp.cos(thetas)


def enumerate_nested(params):
    thetas = jnp.zeros(5)
    for i, (a, b) in enumerate(params):
        thetas = thetas.at[i].add(a + b)
    return jnp.cos(thetas)


def enumerate_start(params):
    thetas = jnp.zeros(5)
    for i, x in enumerate(params, start=2):
        thetas = thetas.at[i].add(x)
    return jnp.cos(thetas)


@pytest.mark.parametrize("fn", [enumerate_rotations, enumerate_no_unpack, enumerate_start])
def test_enumerate_an_array(fn):
    same(fn, jnp.asarray(ANGLES))


def test_enumerate_unpacking_rows():
    same(enumerate_nested, jnp.arange(6.0).reshape(3, 2) * np.pi / 4)


def enumerate_list():
    thetas = jnp.zeros(3)
    for i, x in enumerate([0.0, np.pi / 4, np.pi / 2]):
        thetas = thetas.at[i].add(x)
    return jnp.cos(thetas)


def enumerate_strings():
    thetas = jnp.zeros(3)
    for i, s in enumerate(["0", "1", "2"]):
        thetas = thetas.at[i].add(int(s) / 4 * np.pi)
    return jnp.cos(thetas)


@pytest.mark.parametrize("fn", [enumerate_list, enumerate_strings])
def test_enumerate_a_list(fn):
    np.testing.assert_allclose(same(fn), [1.0, np.sqrt(2) / 2, 0.0], atol=1e-12)


def carried_from_zero():
    acc = 0
    for x in [0, 4, 5]:
        acc = acc + x
    return acc


def carried_from_argument(acc):
    for x in [0, 4, 5]:
        acc = acc + x
    return acc


def carried_augmented():
    acc = 0
    for x in [0, 4, 5]:
        acc += x
    return acc


def test_values_carried_by_loops():
    assert int(same(carried_from_zero)) == 9
    assert int(same(carried_augmented)) == 9
    assert int(same(carried_from_argument, 2)) == 11


@pytest.mark.parametrize("acc", [0, 2, -3, 1.5])
def test_a_value_carried_from_an_argument(acc):
    same(carried_from_argument, acc)


def last_item(acc):
    x = 0
    for x in [0, 4, 5]:
        acc = acc + x
    return x


def last_index(acc):
    i = 0
    items = jnp.array([0, 4, 5])
    for i in range(3):
        acc = acc + items[i]
    return i


def last_pair(acc):
    i, x = 0, 0
    for i, x in enumerate([0, 4, 5]):  # noqa: B007 -- read after the loop
        acc = acc + x
    return i, x


def last_item_no_init(acc):
    for x in [0, 4, 5]:
        acc = acc + x
    return x


def last_index_no_init(acc, n):
    items = jnp.array([0, 4, 5])
    for i in range(n):
        acc = acc + items[i]
    return i


def last_pair_no_init(acc):
    for i, x in enumerate([0, 4, 5]):  # noqa: B007 -- read after the loop
        acc = acc + x
    return i, x


@pytest.mark.parametrize(
    "fn", [last_item, last_index, last_pair, last_item_no_init, last_pair_no_init]
)
def test_the_loop_variable_after_the_loop(fn):
    # Catalyst supports the first three and marks the versions without a first value xfail.
    same(fn, 0)


@pytest.mark.parametrize("n", [0, 3])
def test_the_loop_variable_of_a_traced_range_after_the_loop(n):
    # Catalyst: "'i' is potentially uninitialized". Eager Python has `i` when the loop ran and
    # an UnboundLocalError when it did not; JAX cannot raise at run time: an error for both.
    with pytest.raises(autoconv.AutoconvError, match="`i` is bound only once an iteration"):
        jit(last_index_no_init)(0, n)


def temporary_constant():
    acc = 0
    for x in [0, 4, 5]:
        c = 2
        acc = acc + c * x
    return acc


def temporary_computed():
    acc = 0
    for x in [0, 4, 5]:
        c = x * 2
        acc = acc + c
    return acc


def temporary_in_traced_loop(n):
    acc = 0
    for x in range(n):
        c = x * 2
        acc = acc + c
    return acc


@pytest.mark.parametrize("fn", [temporary_constant, temporary_computed])
def test_temporary_variables(fn):
    assert int(same(fn)) == 18


@pytest.mark.parametrize("n", [0, 3, 6])
def test_temporary_variables_in_a_traced_loop(n):
    same(temporary_in_traced_loop, n)


def never_initialized(n):
    for x in range(n):
        acc = acc + x  # noqa: F821 -- read before it is bound: the point of the test
    return acc


def test_a_variable_read_before_the_loop_binds_it():
    # Catalyst: "'acc' is potentially uninitialized". Eager Python: UnboundLocalError.
    with pytest.raises(UnboundLocalError):
        never_initialized(3)
    with pytest.raises((autoconv.AutoconvError, UnboundLocalError), match="acc"):
        jit(never_initialized)(3)


def loop_temp_read_after(n):
    acc = 0
    for x in range(n):
        c = 2
        acc = acc + c * x
    return c


@pytest.mark.parametrize("n", [0, 3])
def test_a_temporary_read_after_a_traced_loop(n):
    # Catalyst: "'c' is potentially uninitialized"; the same error here.
    with pytest.raises(autoconv.AutoconvError, match="`c` is bound only once an iteration"):
        jit(loop_temp_read_after)(n)


def string_then_number(n):
    acc = 0
    x = ""
    for x in range(n):
        acc = acc + x
    return x


def float_then_int(n):
    acc = 0
    x = 0.0
    for x in range(n):
        acc = acc + x
    return x


def test_a_loop_variable_first_bound_to_a_string():
    # Catalyst: "'x' was initialized with type <class 'str'>". A traced loop cannot hold a
    # string then a number in `x`: an error naming `x`.
    with pytest.raises(autoconv.AutoconvError, match="x"):
        jit(string_then_number)(3)


@pytest.mark.parametrize("n", [0, 3])
def test_a_loop_variable_first_bound_to_a_float(n):
    # Catalyst: "'x' was initialized with the wrong type". Here the loop's int and the float
    # before it are promoted to one dtype; the value is eager's.
    assert float(jit(float_then_int)(n)) == float(float_then_int(n))


def list_indexed_by_static_range():
    acc = 0
    data = [0, 4, 5]
    for i in range(3):
        acc = acc + data[i]
    return acc


def test_a_list_indexed_by_a_static_range():
    assert int(same(list_indexed_by_static_range)) == 9


def with_product(x):
    for i, j in itertools.product(range(2), repeat=2):
        x += i + j
    return x


@pytest.mark.parametrize("x", [5.0, -1.0])
def test_for_over_itertools(x):
    same(with_product, x)


def count_up(limit, start, step):
    i = start
    while i < limit:
        i += step
    return i


@pytest.mark.parametrize("start, step, limit", [(0, 1, 3), (0.0, 1.0, 3.0)])
def test_while_counting(start, step, limit):
    same(lambda lim: count_up(lim, start, step), limit)


def test_while_counting_complex_numbers():
    # Catalyst counts 0j up to 3+0j. Python's complex numbers have no order, NumPy's do (by
    # real part, then imaginary): the argument is a JAX array, so NumPy's answer, 3+0j.
    want = count_up(np.complex128(3.0), np.complex128(0j), 1.0 + 0j)
    got = jit(lambda lim: count_up(lim, np.complex128(0j), 1.0 + 0j))(3.0 + 0j)
    assert complex(got) == complex(want) == 3.0 + 0j


@pytest.mark.parametrize("limit", [0, 1, 3, 10])
def test_while_on_a_traced_limit(limit):
    same(count_up, limit, 0, 1)


def two_counters(param):
    a = 0
    b = 0
    while a < param:
        a += 1
        b += 1
    return b


@pytest.mark.parametrize("param", [0, 3, 7])
def test_while_with_several_variables(param):
    assert int(same(two_counters, param)) == param


def halving_rotations(p):
    w = 0
    thetas = jnp.zeros(4)
    while w < 4:
        thetas = thetas.at[w].set(p)
        p *= 0.5
        w += 1
    return jnp.cos(thetas / 2) ** 2


@pytest.mark.parametrize("p", [16.0, 1.0])
def test_while_updating_an_array(p):
    same(halving_rotations, p)


def while_temporary():
    acc = 0
    while acc < 3:
        c = 2
        acc = acc + c
    return acc


def while_with_for():
    acc = 0
    while acc < 5:
        acc = acc + 1
        for x in [1, 2, 3]:
            acc += x
    return acc


def while_with_if():
    acc = 0
    while acc < 5:
        if acc < 2:
            acc += 1
        else:
            acc += 2
    return acc


@pytest.mark.parametrize(
    "fn, want", [(while_temporary, 4), (while_with_for, 7), (while_with_if, 6)]
)
def test_while_with_constant_bounds(fn, want):
    assert int(same(fn)) == want


def traced_while_with_for(limit):
    acc = 0
    while acc < limit:
        acc = acc + 1
        for x in [1, 2, 3]:
            acc += x
    return acc


def traced_while_with_if(limit):
    acc = 0
    while acc < limit:
        if acc < 2:
            acc += 1
        else:
            acc += 2
    return acc


@pytest.mark.parametrize("fn", [traced_while_with_for, traced_while_with_if])
@pytest.mark.parametrize("limit", [0, 5, 12])
def test_while_with_traced_bounds_around_for_and_if(fn, limit):
    same(fn, limit)


def raises_in_while(limit):
    acc = 0
    while acc < limit:
        raise RuntimeError("Test failure")
    return acc


def test_a_raise_in_a_while_loop():
    # Catalyst: the RuntimeError. A traced loop cannot raise when the function runs.
    with pytest.raises((RuntimeError, autoconv.AutoconvError), match="Test failure|raise"):
        jit(raises_in_while)(5)


def raises_in_constant_while():
    acc = 0
    while acc < 5:
        raise RuntimeError("Test failure")
    return acc


def test_a_raise_in_a_loop_python_runs():
    with pytest.raises(RuntimeError, match="Test failure"):
        jit(raises_in_constant_while)()


def set_only_in_while(pred):
    while pred:
        x = 3
        pred = False
    return x


@pytest.mark.parametrize("pred", [True, False])
def test_a_variable_only_a_while_loop_binds(pred):
    # Catalyst: "'x' is potentially uninitialized"; the same error here.
    with pytest.raises(autoconv.AutoconvError, match="`x` is bound only once an iteration"):
        jit(set_only_in_while)(pred)


def string_before_while(pred):
    x = ""
    while pred:
        x = 3
        pred = False
    return x


def test_a_while_variable_first_bound_to_a_string():
    with pytest.raises(autoconv.AutoconvError, match="x"):
        jit(string_before_while)(True)


def float_before_while(pred):
    x = 0.0
    while pred:
        x = 3
        pred = False
    return x


@pytest.mark.parametrize("pred", [True, False])
def test_a_while_variable_first_bound_to_a_float(pred):
    assert float(jit(float_before_while)(pred)) == float(float_before_while(pred))


def kron_growing():
    arr = jnp.array([1, 2])
    for _ in range(2):
        arr = jnp.kron(arr, arr)
    return arr


def kron_growing_while():
    arr = jnp.array([1, 2])
    while len(arr) < 16:
        arr = jnp.kron(arr, arr)
    return arr


def string_growing():
    string = "hi"
    arr = jnp.array([1, 2])
    for _ in range(2):
        arr = arr + 3
    for i in range(1, 4):
        string = string * i
    return arr, len(string)


def string_growing_while():
    string = "hi"
    arr = jnp.array([1, 2])
    i = 1
    while arr[0] < 7:
        arr = arr + 3
    while len(string) < 12:
        string = string * i
        i += 1
    return arr, len(string)


@pytest.mark.parametrize(
    "fn", [kron_growing, kron_growing_while, string_growing, string_growing_while]
)
def test_loops_whose_values_change_shape_or_type(fn):
    # Catalyst traces these loops, fails, warns and falls back to Python. Their bounds are
    # constants (the `while arr[0] < 7` condition is a constant array's item), so they run as
    # Python here: eager's values, no warning.
    same(fn)


def kron_traced(n):
    arr = jnp.array([1, 2])
    for _ in range(n):
        arr = jnp.kron(arr, arr)
    return arr


def test_a_traced_loop_whose_array_grows():
    with pytest.raises(autoconv.AutoconvError, match="arr"):
        jit(kron_traced)(2)


def scaled_while(param):
    n = 0.0
    while param < 0.5:
        param *= 1.2
        n += 1
    return n


@pytest.mark.parametrize("param", [0.1, 0.3, 0.6])
def test_the_guides_while_loop(param):
    same(scaled_while, param)


def add_in_while(x):
    while x < 5:
        x = x + 2
    return x


def add_with_temporary_string(x):
    while x < 5:
        c = "hi"
        x = x + 2 * len(c)
    return x


@pytest.mark.parametrize("fn", [add_in_while, add_with_temporary_string])
@pytest.mark.parametrize("x", [4.4, -3.0, 9.0])
def test_the_guides_while_updates(fn, x):
    same(fn, x)


def for_adding(x):
    for y in [0, 4, 5]:
        x = x + y
    return x


def for_adding_temporary(x):
    for y in [0, 4, 5]:
        c = 2
        x = x + y * c
    return x


@pytest.mark.parametrize("fn, want", [(for_adding, 13), (for_adding_temporary, 22)])
def test_the_guides_for_updates(fn, want):
    assert int(same(fn, 4)) == want


def harmonic(n):
    x = -jnp.log(n)
    for k in range(1, n + 1):
        x = x + 1 / k
    return x


@pytest.mark.parametrize("n", [1, 10, 1000])
def test_the_guides_traced_range_from_one(n):
    same(harmonic, n)


def appended(n):
    items = []
    for i in range(2):
        items.append(i * n)
    return items


def test_a_list_appended_to_in_a_constant_loop():
    # Catalyst warns ("initialized with type <class 'list'>") and falls back to Python.
    same(appended, 3)


def preallocated():
    out = jnp.empty(2, dtype=int)
    for i in range(2):
        out[i] = i
    return out


def test_a_preallocated_array_filled_in_a_loop():
    np.testing.assert_array_equal(jit(preallocated)(), [0, 1])


def preallocated_traced(n):
    out = jnp.zeros(4, dtype=int)
    for i in range(n):
        out[i] = i * i
    return out


@pytest.mark.parametrize("n", [0, 2, 4])
def test_a_preallocated_array_filled_in_a_traced_loop(n):
    want = [i * i if i < n else 0 for i in range(4)]
    np.testing.assert_array_equal(jit(preallocated_traced)(n), want)


def break_when_large(x):
    for _ in range(10):
        x = x + x**2
        if x > 5:
            break
    return x


def continue_when_negative(x, n):
    total = 0.0
    for i in range(n):
        if x[i] < 0:
            continue
        total = total + x[i]
    return total


def while_break(x):
    while x < 100:
        if x < 0:
            break
        x = x * 2 + 1
    return x


@pytest.mark.parametrize("x", [0.1, 1.0, 3.0])
def test_the_guides_break(x):
    # Catalyst: "SyntaxError: 'break' outside loop". Eager's values here.
    same(break_when_large, x)


@pytest.mark.parametrize("n", [0, 2, 4])
def test_continue(n):
    same(continue_when_negative, jnp.array([1.0, -2.0, 3.0, -4.0]), n)


@pytest.mark.parametrize("x", [-1.0, 0.5, 7.0])
def test_break_in_while(x):
    same(while_break, x)


def inner_break(m):
    total = 0
    for i in range(m):
        for j in range(m):
            if j > i:
                break
            total += j
    return total


@pytest.mark.parametrize("m", [0, 3, 5])
def test_break_in_an_inner_traced_loop(m):
    same(inner_break, m)


def return_in_loop(x, n):
    for i in range(n):
        if x[i] > 2:
            return i
    return -1


@pytest.mark.parametrize("n", [0, 2, 4])
def test_return_inside_a_traced_loop(n):
    same(return_in_loop, jnp.array([1.0, 2.0, 3.0, 4.0]), n)


def no_python_loops():
    def body(i, acc):
        return acc + i

    return jax.lax.fori_loop(0, 3, body, 0)


def test_jax_loops_written_by_hand():
    assert int(same(no_python_loops)) == 3


def nested_if_for(x):
    acc = 0
    if x < 3:
        for _ in range(3):
            for i in range(5):
                if i % 2 == 0:
                    acc += i
    return acc


@pytest.mark.parametrize("x, want", [(2, 18), (3, 0)])
def test_if_around_for_around_if(x, want):
    assert int(same(nested_if_for, x)) == want


def cond_or(x):
    if x <= 0.0 or x >= 1.0:
        y = 1
    else:
        y = 0
    return y


@pytest.mark.parametrize("x, want", [(0.0, 1), (1.0, 1), (0.5, 0), (-2.0, 1)])
def test_or_in_a_condition(x, want):
    assert int(same(cond_or, x)) == want


def while_and(param):
    n = 0
    while param < 0.5 and n < 3:
        param *= 1.5
        n += 1
    return n


@pytest.mark.parametrize("param, want", [(0.4, 1), (0.1, 3), (0.9, 0)])
def test_and_in_a_while_condition(param, want):
    assert int(same(while_and, param)) == want


def rebuilt_list(x):
    for _ in range(4):
        x = [x[0] + 1, x[1] + 2]
    return x


def rebuilt_tuple(x):
    for _ in range(4):
        x = (x[0] + 1, x[1] + 2)
    return x


def rebuilt_dict(x):
    for _ in range(4):
        x = {0: x[0] + 1, 1: x[1] + 2}
    return x


def rebuilt_list_traced(x, n):
    for _ in range(n):
        x = [x[0] + 1, x[1] + 2]
    return x


@pytest.mark.parametrize(
    "fn, arg", [(rebuilt_list, [1, 2]), (rebuilt_tuple, (1, 2)), (rebuilt_dict, {0: 1, 1: 2})]
)
def test_containers_rebuilt_in_a_loop(fn, arg):
    same(fn, arg)


@pytest.mark.parametrize("n", [0, 4])
def test_a_list_rebuilt_in_a_traced_loop(n):
    same(rebuilt_list_traced, [1, 2], n)


def rebuilt_set(x, n):
    for _ in range(n):
        x = {x[0] + 1, x[1] + 2}
    return x


def test_a_set_rebuilt_in_a_loop():
    # Catalyst: "Cannot interpret value of type" (JAX cannot take a set as an argument).
    with pytest.raises(TypeError):
        jit(rebuilt_set)({1, 2}, 4)
