"""`jax.jit(autoconv.convert(f))`: Python control flow on tracers, against the same function
run eagerly on concrete values."""

import numpy as np
import pytest

import autoconv

jax = pytest.importorskip("jax")
jnp = jax.numpy


def abs_value(x):
    if x > 0:
        return x
    return -x


def clipped(x):
    if x > 1.0:
        x = 1.0
    elif x < -1.0:
        x = -1.0
    return x


def doubling_with_break(x, n):
    i = 0
    while i < n:
        if x > 10:
            break
        x = x * 2
        i += 1
    return x, i


def halvings(x):
    n = 0
    while x > 1.0:
        x = x / 2
        n += 1
    return x, n


def positive_sum(xs):
    s = 0.0
    for x in xs:
        if x < 0:
            continue
        s = s + x
    return s


def first_above(xs, t):
    for x in xs:
        if x > t:
            return x
    return -1.0


def enumerate_argmax(xs):
    best, where = xs[0], 0
    for i, x in enumerate(xs):
        if x > best:
            best, where = x, i
    return best, where


def zipped_dot(xs, ys):
    total = 0.0
    for x, y in zip(xs, ys):
        total += x * y
    return total


def traced_range(n):
    total = 0
    for i in range(n):
        total += i * i
    return total


def traced_range_step(a, b):
    out = 0
    for i in range(a, b, 3):
        out = out * 2 + i
    return out


def nested(xs, t):
    count = 0
    for x in xs:
        k = 0
        while k < 3 and x * k < t:
            k += 1
        if k == 3:
            count += 1
    return count


def logic(x, y):
    a = (x > 0 and y > 0) or not x < -5
    b = x if x > y else y
    c = x > 0 or y > 1
    return a, b, c


def python_loop_meets_tracer(x):
    total = 0.0
    for v in [1.0, 2.0, 3.0, 4.0]:
        if total > x:
            break
        total += v
    return total


def calls_helper(x):
    return abs_value(x) + clipped(x)


CASES = [
    (abs_value, (3.0,)),
    (abs_value, (-2.5,)),
    (clipped, (0.5,)),
    (clipped, (7.0,)),
    (clipped, (-7.0,)),
    (doubling_with_break, (1.5, 10)),
    (doubling_with_break, (1.5, 2)),
    (halvings, (100.0,)),
    (halvings, (0.5,)),
    (positive_sum, (np.array([1.0, -2.0, 3.0]),)),
    (first_above, (np.array([1.0, 5.0, 3.0]), 2.0)),
    (first_above, (np.array([1.0, 1.0]), 2.0)),
    (enumerate_argmax, (np.array([1.0, 5.0, 3.0]),)),
    (zipped_dot, (np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0]))),
    (traced_range, (5,)),
    (traced_range, (0,)),
    (traced_range_step, (2, 15)),
    (traced_range_step, (9, 3)),
    (nested, (np.array([0.5, 2.0, 9.0]), 4.0)),
    (logic, (1.0, -2.0)),
    (logic, (-10.0, 3.0)),
    (logic, (-1.0, 0.0)),
    (python_loop_meets_tracer, (2.5,)),
    (python_loop_meets_tracer, (100.0,)),
    (calls_helper, (-0.5,)),
]


def _same(eager, traced):
    if isinstance(eager, tuple):
        assert isinstance(traced, tuple) and len(traced) == len(eager)
        for e, t in zip(eager, traced):
            _same(e, t)
        return
    np.testing.assert_allclose(np.asarray(traced), np.asarray(eager), rtol=1e-12)
    assert np.asarray(traced).dtype.kind == np.asarray(eager).dtype.kind


@pytest.mark.parametrize(
    "func,args", CASES, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(CASES)]
)
def test_jit_agrees_with_eager(func, args):
    eager = func(*args)
    traced = jax.jit(autoconv.convert(func))(*args)
    _same(eager, traced)


def test_every_case_stages():
    """The cases really trace: each `if` or loop above met a tracer (else jit would fail on a
    plain `if`), checked here on the unconverted function."""
    with pytest.raises(jax.errors.TracerBoolConversionError):
        jax.jit(abs_value)(1.0)


def test_staged_if_is_one_lax_cond():
    text = str(jax.make_jaxpr(autoconv.convert(abs_value))(1.0))
    assert text.count("cond[") == 1


def test_static_trip_count_is_a_scan_and_traced_range_a_while():
    assert "scan[" in str(jax.make_jaxpr(autoconv.convert(positive_sum))(jnp.ones(3)))
    assert "while[" in str(jax.make_jaxpr(autoconv.convert(traced_range))(3))


def test_python_values_stay_python():
    """Conditions on Python values run as Python inside the trace: no lax.cond."""

    def f(x, flag):
        if flag:
            x = x + 1
        return x

    text = str(jax.make_jaxpr(autoconv.convert(f), static_argnums=1)(1.0, True))
    assert "cond[" not in text


def test_grad_without_jit_runs_python_loops():
    """Under `jax.grad` alone, tracers are concrete: a `while` runs as Python (as JAX does
    for plain code), so reverse mode works through it."""
    g = jax.grad(lambda x: autoconv.convert(halvings)(x)[0])(100.0)
    assert g == pytest.approx(1 / 128)


def test_recursive_conversion_under_jit():
    assert jax.jit(autoconv.convert(calls_helper))(-3.0) == 2.0


def test_trace_check_includes_jax_tracing():
    """ "A trace is being built" (what the fast path of issue 14 will ask) is true while JAX
    traces and false outside, without a trace of ours."""
    from autoconv.runtime import staging

    seen = []

    def f(x):
        seen.append(staging.tracing())
        return x

    assert not staging.tracing()
    jax.jit(f)(1.0)
    jax.vmap(f)(jnp.ones(2))
    jax.grad(f)(1.0)
    assert seen == [True, True, True]
    assert not staging.tracing()


def test_jax_values_outside_a_trace_run_as_python():
    """Concrete JAX arrays (no trace) take Python's path: `bool()` works on them."""
    assert autoconv.convert(abs_value)(jnp.float64(-2.0)) == 2.0
    assert autoconv.convert(halvings)(jnp.float64(8.0)) == (1.0, 3)


def prints_each_step(x):
    autoconv.print("start", x, end="!\n")
    for i in range(2):
        if x > i:
            autoconv.print("step", i, x)
    return x


def test_autoconv_print_prints_run_time_values_on_every_call(capsys):
    traced = jax.jit(autoconv.convert(prints_each_step))
    for x in (1.5, 0.5):
        prints_each_step(x)
        expected = capsys.readouterr().out
        traced(jnp.asarray(x))
        jax.effects_barrier()
        assert capsys.readouterr().out == expected
