"""What differs from eager Python under `jax.jit(convert(f))` by JAX's own design: one test per
item of the list in docs/jax-tracing.md ("What differs by JAX's design")."""

import numpy as np
import pytest

import autoconv

jax = pytest.importorskip("jax")
jnp = jax.numpy


def test_print_runs_once_per_trace(capsys):
    """1. Python's `print` runs while tracing: once per trace, not once per call or per
    iteration of a staged loop (use `jax.debug.print` for run-time output)."""

    def f(xs):
        # An array, not the Python 0.0: a weak Python number that a loop makes a float64 array
        # is traced a second time (item 1 of the list), which this test is not about.
        total = jnp.zeros((), xs.dtype)
        for x in xs:
            print("step")
            total += x
        return total

    g = jax.jit(autoconv.convert(f))
    g(jnp.ones(3))
    g(jnp.ones(3) * 2)
    assert capsys.readouterr().out == "step\n"


def test_both_branches_are_traced(capsys):
    """2. Both branches of a staged `if` are traced, so Python code in both runs."""

    def f(x):
        if x > 0:
            print("positive")
            y = x
        else:
            print("not positive")
            y = -x
        return y

    assert jax.jit(autoconv.convert(f))(2.0) == 2.0
    assert capsys.readouterr().out == "positive\nnot positive\n"


def test_raise_under_traced_condition_is_a_trace_time_error():
    """3. A JAX program cannot raise when it runs: a `raise` in a staged branch fires while
    tracing, whichever way the data goes, as an AutoconvError naming the `raise` line."""

    def f(x):
        if x < 0:
            raise ValueError("negative")
        return x

    with pytest.raises(autoconv.AutoconvError, match="ValueError: negative") as info:
        jax.jit(autoconv.convert(f))(1.0)
    assert "while JAX traced the if branch" in str(info.value)


def test_lists_cannot_grow_in_staged_code():
    """4. A list appended to in a staged loop or branch is an error (JAX's shapes are fixed);
    the list is left as it was."""
    seen = []

    def f(xs):
        out = seen
        for x in xs:
            if x > 0:
                out.append(x)
        return len(out)

    with pytest.raises(autoconv.AutoconvError, match="list `out` is changed inside"):
        jax.jit(autoconv.convert(f))(jnp.ones(3))
    assert seen == []


def test_one_dtype_for_all_paths():
    """5. A value whose Python type differs between paths gets one dtype, JAX's promotion of
    both (eager code gives an int on one path and a float on the other)."""

    def f(x):
        return 1 if x > 0 else 2.5

    assert type(f(1.0)) is int
    out = jax.jit(autoconv.convert(f))(1.0)
    assert out.dtype == jnp.float64 and out == 1.0

    def g(x, y):
        return x > 0 or y

    assert g(1.0, 3.0) is True
    assert jax.jit(autoconv.convert(g))(1.0, 3.0).dtype == jnp.float64


def test_python_numbers_changed_by_staged_code_become_arrays():
    """6. A Python number that staged code changes (a counter) comes out as an array."""

    def f(x):
        n = 0
        while x > 1.0:
            x = x / 2
            n += 1
        return n

    out = jax.jit(autoconv.convert(f))(10.0)
    assert isinstance(out, jax.Array) and out.dtype == jnp.int64 and out == 4


def test_reverse_mode_needs_a_static_trip_count():
    """7. `jax.grad` (reverse mode) goes through `for` loops over arrays (lax.scan) but not
    through `while` loops or `range` with traced bounds (lax.while_loop): JAX's own error.
    Forward mode (`jax.jacfwd`) works through both."""

    def f(x, n):
        for _ in range(n):
            x = jnp.sin(x)
        return x

    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work"):
        jax.jit(jax.grad(autoconv.convert(f)))(1.0, 3)
    assert jax.jit(jax.jacfwd(autoconv.convert(f)))(1.0, 3) == pytest.approx(
        np.cos(1.0) * np.cos(np.sin(1.0)) * np.cos(np.sin(np.sin(1.0)))
    )


def test_arrays_are_immutable():
    """8. JAX arrays are immutable: `x[i] = v` rebinds `x` (tests/jax/test_item_updates.py),
    a constant index in a branch too (the caller's array is not changed: under `jax.jit` it
    cannot be seen); another name of the array is an error naming both."""

    def f(x):
        if x[0] > 0:
            x[1] = 0.0
        return x

    def aliased(x):
        y = x
        if x[0] > 0:
            x[1] = 0.0
        return y

    np.testing.assert_array_equal(jax.jit(autoconv.convert(f))(jnp.ones(2)), [1.0, 0.0])
    np.testing.assert_array_equal(jax.jit(autoconv.convert(f))(-jnp.ones(2)), [-1.0, -1.0])
    with pytest.raises(autoconv.AutoconvError, match="`y` refers to the same array"):
        jax.jit(autoconv.convert(aliased))(jnp.ones(2))


def test_none_on_some_paths_only():
    """9. A value cannot be None on some paths only. Tested with `is None` it is fine (each
    branch knows); used or returned as it is, it is an AutoconvError, never zeros."""

    def tested(x):
        t = None
        if x > 1.0:
            t = x / 2
        if t is None:
            return x
        return t

    g = jax.jit(autoconv.convert(tested))
    assert g(4.0) == 2.0 and g(0.5) == 0.5

    def returned(x):
        t = None
        if x > 1.0:
            t = x / 2
        return t

    with pytest.raises(autoconv.AutoconvError, match="`t` is None on some paths"):
        jax.jit(autoconv.convert(returned))(4.0)


def test_grad_without_jit_runs_python_control_flow(capsys):
    """10. Under `jax.grad` alone the values are concrete, so `if` and `while` run as Python
    (as they do in plain JAX code): only the branch taken runs, nothing is staged."""

    def f(x):
        if x > 0:
            print("positive")
            return x * x
        print("not positive")
        return -x

    assert jax.grad(autoconv.convert(f))(3.0) == 6.0
    assert capsys.readouterr().out == "positive\n"
