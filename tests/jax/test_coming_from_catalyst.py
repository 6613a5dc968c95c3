"""The rows of docs/jax-tracing.md's "Coming from Catalyst" table that say what autoconv does,
checked against eager Python."""

import numpy as np
import pytest

import autoconv

jax = pytest.importorskip("jax")
jnp = jax.numpy


def both(a, b):
    return a and b


def negated(a):
    return not a


def test_and_or_not_keep_pythons_meaning():
    # On single values: Python's value (the second operand when the first is true), not a
    # bool array; on arrays of several elements, an error, as eager Python's truth value is.
    f = jax.jit(autoconv.convert(both))
    assert float(f(1.0, 2.0)) == both(1.0, 2.0) == 2.0
    assert float(f(0.0, 2.0)) == both(0.0, 2.0) == 0.0
    mask = np.array([True, False, True])
    with pytest.raises(ValueError, match="truth value of an array"):
        both(mask, mask)
    for fn, args in ((both, (mask, mask)), (negated, (mask,))):
        with pytest.raises(autoconv.AutoconvError, match="a condition must be a single value"):
            jax.jit(autoconv.convert(fn))(*args)


def doubled_rows(xs):
    out = []
    for x in xs:
        out.append(x * 2)
    return jnp.stack(out)


def test_break_and_lists_appended_in_loops():
    xs = np.array([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(jax.jit(autoconv.convert(doubled_rows))(xs), xs * 2)

    def stops(xs, level):
        total = 0.0
        for x in xs:
            if x > level:
                break
            total += x
        return total

    assert float(jax.jit(autoconv.convert(stops))(xs, 1.5)) == stops(xs, 1.5) == 1.0


def test_the_converted_source_and_leaving_code_as_it_is():
    assert "ac.if_stmt" in autoconv.to_code(negated) or "ac.not_" in autoconv.to_code(negated)

    @autoconv.do_not_convert
    def plain(x):
        if x > 0:  # left as Python: JAX's own error on a tracer
            return x
        return -x

    with pytest.raises(jax.errors.TracerBoolConversionError):
        jax.jit(autoconv.convert(lambda x: plain(x)))(1.0)
