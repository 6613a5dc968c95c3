"""`x[i] = v`, `x[i] += v`, slices and masks on JAX arrays in converted code: under a JAX trace
the name is rebound to `x.at[key].set(...)` (JAX arrays cannot change), and the results are
eager NumPy's; `jax.grad` through such code matches finite differences."""

import numpy as np
import pytest

import autoconv

jax = pytest.importorskip("jax")
jnp = jax.numpy


def numerical(xp):
    """The same numerical code written for NumPy (`xp=np`) and for `jax.numpy`."""

    def gauss_seidel(A, b, sweeps):
        n = b.shape[0]
        x = xp.zeros_like(b)
        for _ in range(sweeps):
            for i in range(n):
                s = b[i]
                for j in range(n):
                    if j != i:
                        s -= A[i, j] * x[j]
                x[i] = s / A[i, i]
        return x

    def histogram(data, lo, hi):
        counts = xp.zeros_like(data, shape=(4,))
        width = (hi - lo) / 4
        for v in data:
            k = xp.floor((v - lo) / width).astype(xp.int64)
            if k >= 0 and k < 4:
                counts[k] += 1
        return counts

    def normalise_rows(m):
        m = m * 1.0
        for i in range(m.shape[0]):
            total = m[i].sum()
            if total > 0:
                m[i] /= total
            else:
                m[i, :] = 1.0 / m.shape[1]
        return m

    def smooth_and_clip(x):
        y = x * 1.0
        y[1:-1] = (x[:-2] + x[2:]) / 2
        y[y < 0] = 0.0
        y[-1] -= y[0]
        return y

    def scaled_diagonal(m, s):
        out = m * 1.0
        for i in range(m.shape[0]):
            out[i, i] *= s
            if out[i, i] > 1.0:
                out[i, i] = 1.0
        return out

    return {
        f.__name__: f
        for f in (gauss_seidel, histogram, normalise_rows, smooth_and_clip, scaled_diagonal)
    }


NP, JNP = numerical(np), numerical(jnp)
RNG = np.random.default_rng(7)
A = np.array([[4.0, 1.0, 0.5], [1.0, 5.0, 1.0], [0.5, 1.0, 3.0]])
CASES = {
    "gauss_seidel": (A, np.array([1.0, 2.0, 3.0]), 4),
    "histogram": (RNG.uniform(-1.0, 5.0, 20), 0.0, 4.0),
    "normalise_rows": (np.array([[1.0, 3.0], [0.0, 0.0], [2.0, -1.0]]),),
    "smooth_and_clip": (np.array([1.0, -4.0, 2.0, 0.5, -3.0, 6.0]),),
    "scaled_diagonal": (np.array([[0.2, 1.0], [3.0, 0.4]]), 3.0),
}
STATIC = {"gauss_seidel": (2,)}  # argument positions that stay Python values


@pytest.mark.parametrize("name", sorted(CASES))
def test_jit_of_converted_code_gives_eager_numpys_values(name):
    args = CASES[name]
    expected = NP[name](*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    f = jax.jit(autoconv.convert(JNP[name]), static_argnums=STATIC.get(name, ()))
    got = f(*args)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_graph_mode_on_the_jax_backend_gives_the_same(name):
    args = CASES[name]
    expected = NP[name](*args)
    got = autoconv.function(NP[name], backend="jax")(*args)
    np.testing.assert_allclose(got, expected, rtol=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_numpy_values_are_still_changed_in_place(name):
    # Outside JAX traces converted code runs the original statements (and their functional
    # form stores in place too): NumPy's own results, arguments changed as eagerly.
    args = CASES[name]
    expected = NP[name](*args)
    for always in (False, True):
        autoconv.set_always_converted(always)
        try:
            got = autoconv.convert(NP[name])(*args)
        finally:
            autoconv.set_always_converted(False)
        np.testing.assert_array_equal(got, expected)


def test_an_argument_changed_in_place_changes_as_eagerly_on_numpy_values():
    def zero_first(x):
        x[0] = 0.0
        return x

    x = np.ones(3)
    autoconv.set_always_converted(True)
    try:
        assert autoconv.convert(zero_first)(x) is x
    finally:
        autoconv.set_always_converted(False)
    assert x.tolist() == [0.0, 1.0, 1.0]


def _finite_difference(f, x, h=1e-6):
    grad = np.zeros_like(x)
    for k in range(x.size):
        step = np.zeros_like(x)
        step.flat[k] = h
        grad.flat[k] = (f(x + step) - f(x - step)) / (2 * h)
    return grad


@pytest.mark.parametrize(
    ("name", "loss"),
    [
        ("gauss_seidel", lambda f, b: f(A, b, 3).sum()),
        ("normalise_rows", lambda f, m: (f(m) ** 2).sum()),
        ("smooth_and_clip", lambda f, x: (f(x) * np.arange(1.0, 7.0)).sum()),
        ("scaled_diagonal", lambda f, m: f(m, 3.0).sum()),
    ],
)
def test_grad_through_item_updates_matches_finite_differences(name, loss):
    point = CASES[name][1] if name == "gauss_seidel" else CASES[name][0]
    if name == "normalise_rows":  # away from the kink at a zero total
        point = np.array([[1.0, 3.0], [-1.0, -2.0], [2.0, -1.0]])
    converted = autoconv.convert(JNP[name])
    grad = jax.jit(jax.grad(lambda p: loss(converted, p)))(point)
    expected = _finite_difference(lambda p: loss(NP[name], p), point)
    np.testing.assert_allclose(np.asarray(grad), expected, rtol=1e-6, atol=1e-8)


def _augmented(op):
    return AUGMENTED[op]


def _add(x, v, i):
    x = x * 1
    x[i] += v
    x[1:] += v
    return x


def _sub(x, v, i):
    x = x * 1
    x[i] -= v
    x[1:] -= v
    return x


def _mul(x, v, i):
    x = x * 1
    x[i] *= v
    x[1:] *= v
    return x


def _div(x, v, i):
    x = x * 1
    x[i] /= v
    x[1:] /= v
    return x


def _floordiv(x, v, i):
    x = x * 1
    x[i] //= v
    x[1:] //= v
    return x


def _mod(x, v, i):
    x = x * 1
    x[i] %= v
    x[1:] %= v
    return x


def _pow(x, v, i):
    x = x * 1
    x[i] **= v
    x[1:] **= v
    return x


def _and(x, v, i):
    x = x * 1
    x[i] &= v
    x[1:] &= v
    return x


def _or(x, v, i):
    x = x * 1
    x[i] |= v
    x[1:] |= v
    return x


def _xor(x, v, i):
    x = x * 1
    x[i] ^= v
    x[1:] ^= v
    return x


def _lshift(x, v, i):
    x = x * 1
    x[i] <<= v
    x[1:] <<= v
    return x


def _rshift(x, v, i):
    x = x * 1
    x[i] >>= v
    x[1:] >>= v
    return x


AUGMENTED = {
    "+=": _add,
    "-=": _sub,
    "*=": _mul,
    "/=": _div,
    "//=": _floordiv,
    "%=": _mod,
    "**=": _pow,
    "&=": _and,
    "|=": _or,
    "^=": _xor,
    "<<=": _lshift,
    ">>=": _rshift,
}


@pytest.mark.parametrize("op", ["+=", "-=", "*=", "/=", "//=", "%=", "**="])
def test_every_augmented_operator_on_floats(op):
    x, v = np.array([1.5, -2.0, 3.0]), 1.25
    with np.errstate(invalid="ignore"):  # (-2.0) ** 1.25 is NaN, eagerly as under JAX
        expected = _augmented(op)(x.copy(), v, 0)
    got = jax.jit(autoconv.convert(_augmented(op)))(x, v, 0)
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12)


@pytest.mark.parametrize("op", ["&=", "|=", "^=", "<<=", ">>=", "+=", "*="])
def test_every_augmented_operator_on_integers(op):
    x = np.array([5, 12, 7])
    expected = _augmented(op)(x.copy(), 2, 2)
    got = jax.jit(autoconv.convert(_augmented(op)))(x, 2, 2)
    assert got.dtype == expected.dtype
    assert np.asarray(got).tolist() == expected.tolist()


def test_a_stored_value_takes_the_arrays_dtype_as_numpy_stores_it():
    def store(x, v):
        x = x * 1
        x[0] = v
        return x

    x = np.array([1, 2, 3])
    expected = store(x.copy(), 2.75)
    got = jax.jit(autoconv.convert(store))(x, 2.75)
    assert got.dtype == expected.dtype and np.asarray(got).tolist() == expected.tolist()


def test_a_masked_store_of_one_value_under_a_traced_mask():
    def relu_in_place(x, limit):
        y = x * 1.0
        y[y > limit] = limit
        y[y < 0] = 0
        return y

    x = np.array([[-1.0, 0.5], [2.0, 3.5]])
    got = jax.jit(autoconv.convert(relu_in_place))(x, 2.0)
    np.testing.assert_array_equal(np.asarray(got), relu_in_place(x.copy(), 2.0))


def test_a_masked_store_of_an_array_under_a_traced_mask_is_a_clear_error():
    def masked(x):
        y = x * 1.0
        y[y > 0] = x[:2]
        return y

    with pytest.raises(autoconv.AutoconvError, match=r"`y\[y > 0\] = x\[:2\]`.*jnp.where"):
        jax.jit(autoconv.convert(masked))(np.array([1.0, -1.0, 2.0]))


def aliased(x):
    y = x
    x[0] = 1.0
    return x, y


def held_in_a_list(x):
    z = x * 2.0
    keep = [z]
    z[0] = 1.0
    return z, keep


def through_a_helper(x):
    z = x * 2.0
    helper(z)
    return z


def helper(a):
    a[0] = 0.0
    return a


@pytest.mark.parametrize(
    ("f", "names"),
    [(aliased, ("x", "y")), (held_in_a_list, ("z", "keep")), (through_a_helper, ("a", "z"))],
)
def test_a_second_name_of_the_changed_array_is_an_error_naming_both(f, names):
    # (`through_a_helper` calls `helper(z)` as a statement: `z` is still its array after it.)
    # Eager NumPy changes the array that both names share; JAX can only rebind one name.
    changed, other = names
    with pytest.raises(autoconv.AutoconvError) as info:
        jax.jit(autoconv.convert(f))(np.zeros(3))
    text = str(info.value)
    assert f"writes into `{changed}` in place, and `{other}" in text
    assert __file__ in text


def zero_last(x):
    last = x.shape[0] - 1
    x[last] = 0  # the argument itself (the caller's array is JAX's: unchanged)
    return x


def double_first(x):
    x[0] *= 2
    return x


def steps(x):
    x = double_first(x)  # the caller rebinds its name: nothing else sees the old array
    x = double_first(x)
    return double_first(x)


@pytest.mark.parametrize(
    ("f", "expected"), [(zero_last, [5, 3, 0]), (steps, [40, 3, 4])], ids=["argument", "helper"]
)
def test_writing_into_an_argument_that_nothing_else_holds(f, expected):
    # Catalyst's own tests write into arguments this way: eager NumPy gives the same values.
    assert np.asarray(jax.jit(autoconv.convert(f))(np.array([5, 3, 4]))).tolist() == expected
    assert f(np.array([5, 3, 4])).tolist() == expected


def keeps_the_old_array(x):
    y = double_first(x)  # eager NumPy changes `x` here too, and it is used below
    return x + y


def test_a_caller_that_keeps_the_array_is_an_error_naming_it():
    with pytest.raises(autoconv.AutoconvError, match=r"and `x` in `keeps_the_old_array` refers"):
        jax.jit(autoconv.convert(keeps_the_old_array))(np.array([5.0, 3.0]))


def test_an_item_update_in_a_staged_branch_and_loop():
    def sweep(x, xs):
        out = jnp.zeros(3)
        i = 0
        for v in xs:
            if v > x:
                out[i] = v
            else:
                out[i] -= v
            i += 1
        return out

    def eager(x, xs):
        out = np.zeros(3)
        i = 0
        for v in xs:
            if v > x:
                out[i] = v
            else:
                out[i] -= v
            i += 1
        return out

    xs = np.array([0.5, 2.0, -1.0])
    got = jax.jit(autoconv.convert(sweep))(1.0, xs)
    np.testing.assert_array_equal(np.asarray(got), eager(1.0, xs))


def test_a_constant_index_written_in_a_staged_branch_of_a_jnp_array():
    def first_positive(x):
        y = jnp.zeros(3)
        if x[1] > 0:
            y[0] = x[1]
        else:
            y[2] = -x[1]
        return y

    def eager(x):
        y = np.zeros(3)
        if x[1] > 0:
            y[0] = x[1]
        else:
            y[2] = -x[1]
        return y

    for x in (np.array([1.0, 2.0, 3.0]), np.array([1.0, -2.0, 3.0])):
        got = jax.jit(autoconv.convert(first_positive))(x)
        np.testing.assert_array_equal(np.asarray(got), eager(x))


def zero_first_if_positive(x):
    if x[0] > 0:
        x[0] = 0.0
    return x


def doubled_first(x, n):
    for _ in range(n):
        x[0] += x[1]
    return x


def kept_by_a_caller(x):
    a = x * 1.0
    b = zero_first_if_positive(a)
    return a, b


def first_of_a_list(items, c):
    keep = items
    if c > 0:
        items[0] = c
    return keep is items, items[0]


def test_a_constant_index_of_an_argument_in_a_staged_branch_or_loop():
    # The argument, or any name not bound only to NumPy calls, gets a new array too (the
    # statement carries the item by its path, and under JAX the whole array).
    f = jax.jit(autoconv.convert(zero_first_if_positive))
    for x in ([1.0, 2.0], [-1.0, 2.0]):
        want = zero_first_if_positive(np.array(x))
        np.testing.assert_array_equal(np.asarray(f(jnp.array(x))), want)
    g = jax.jit(autoconv.convert(doubled_first))
    for n in (0, 3):
        want = doubled_first(np.array([0.0, 1.5]), n)
        np.testing.assert_array_equal(np.asarray(g(jnp.array([0.0, 1.5]), n)), want)
    assert "x = ac.setitem_path(x, 0, 0.0)" in autoconv.to_code(zero_first_if_positive)


def test_a_constant_index_of_an_array_a_caller_keeps_is_an_error_naming_it():
    with pytest.raises(autoconv.AutoconvError, match="`a` in `kept_by_a_caller` refers to"):
        jax.jit(autoconv.convert(kept_by_a_caller))(jnp.ones(2))


def test_a_constant_index_of_a_list_keeps_the_list():
    same, first = jax.jit(autoconv.convert(first_of_a_list))([1.0, 2.0], 3.0)
    assert bool(same) and float(first) == 3.0
    assert first_of_a_list([1.0, 2.0], 3.0) == (True, 3.0)


def masked_updates(x):
    y = x * 1
    y[y < 0] *= -1
    y[y > 2] += 0.5
    y[y > 100] -= 1  # selects nothing
    return y


def test_augmented_updates_through_a_traced_mask():
    x = np.array([[-3.0, 1.0], [2.5, -0.5]])
    expected = masked_updates(x.copy())
    np.testing.assert_array_equal(
        np.asarray(jax.jit(autoconv.convert(masked_updates))(x)), expected
    )
    grad = jax.grad(lambda x: autoconv.convert(masked_updates)(x).sum())(x)
    np.testing.assert_array_equal(np.asarray(grad), np.sign(x))


def scales_an_item(x):
    y = x * 1
    y[1] *= 2.5  # a NumPy scalar: not in place, so the result is stored (cast)
    return y


def scales_a_slice(x):
    y = x * 1
    y[1:] *= 2.5  # a view: NumPy's in-place multiply refuses float64 into int64
    return y


def scales_a_selection(x):
    y = x * 1
    y[y > 1] *= 2.5
    return y


SCALES = {"item": scales_an_item, "slice": scales_a_slice, "mask": scales_a_selection}


@pytest.mark.parametrize("which", ["item", "slice", "mask"])
def test_in_place_operators_keep_numpys_casting_rule(which):
    x = np.array([1, 3, 5])
    f = jax.jit(autoconv.convert(SCALES[which]))
    if which == "item":
        assert np.asarray(f(x)).tolist() == SCALES[which](x.copy()).tolist() == [1, 7, 5]
        return
    with pytest.raises(TypeError) as eager:
        SCALES[which](x.copy())
    with pytest.raises(type(eager.value), match="Cannot cast ufunc 'multiply' output"):
        f(x)


def test_an_array_of_values_through_a_traced_mask_is_a_clear_error():
    def masked_by_array(x):
        y = x * 1.0
        y[y > 0] += x[:2]
        return y

    with pytest.raises(autoconv.AutoconvError, match="takes a single value"):
        jax.jit(autoconv.convert(masked_by_array))(np.array([1.0, -1.0, 2.0]))
