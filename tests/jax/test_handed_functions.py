"""Functions that converted code hands to JAX's transformations and control-flow primitives
are converted too: an `if` or `while` on a tracer inside them is staged. Each result is checked
against the same Python function run eagerly, call by call, on NumPy values."""

import numpy as np
import pytest

import autoconv

jax = pytest.importorskip("jax")
jnp = jax.numpy
lax = jax.lax


def step(i, v):
    if v > 2.0:
        v = v * 2.0
    else:
        v = v + 1.0
    return v


def fori(x):
    def body(i, v):
        if v > 2.0:
            v = v * 2.0
        else:
            v = v + 1.0
        return v

    return lax.fori_loop(0, 3, body, x)


def fori_eager(x):
    for i in range(3):
        x = step(i, x)
    return x


def while_loop(x):
    def cond(v):
        return v < 10.0

    def body(v):
        if v > 2.0:
            return v * 2.0
        return v + 1.0

    return lax.while_loop(cond, body, x)


def while_eager(x):
    while x < 10.0:
        x = x * 2.0 if x > 2.0 else x + 1.0
    return x


def scan(xs):
    def body(total, v):
        if v > 0:
            total = total + v
        else:
            total = total * 0.5
        return total, total

    return lax.scan(body, 0.0, xs)


def scan_eager(xs):
    total, seen = 0.0, []
    for v in xs:
        total = total + v if v > 0 else total * 0.5
        seen.append(total)
    return total, np.array(seen)


def mapped(xs):
    return lax.map(lambda v: v * v if v > 0 else -v, xs)


def cond(x):
    def big(v):
        while v > 1.0:
            v = v / 2.0
        return v

    return lax.cond(x > 0, big, lambda v: -v, x)


def cond_eager(x):
    if x > 0:
        while x > 1.0:
            x = x / 2.0
        return x
    return -x


def switch(i, x):
    def first(v):
        if v > 1.0:
            return v - 1.0
        return v

    def second(v):
        return v * 3.0 if v < 0 else v

    return lax.switch(i, [first, second], x)


def switch_eager(i, x):
    if i == 0:
        return x - 1.0 if x > 1.0 else x
    return x * 3.0 if x < 0 else x


def piecewise(t):
    if t > 1.0:
        return t * t
    return 3.0 * t


def grads(x):
    def inner(t):
        if t > 1.0:
            return t * t
        return 3.0 * t

    value, slope = jax.value_and_grad(inner)(x)
    return value, slope, jax.grad(inner)(x), jax.jacfwd(inner)(x), jax.jacrev(inner)(x)


def grads_eager(x):
    slope = 2.0 * x if x > 1.0 else 3.0
    return piecewise(x), slope, slope, slope, slope


def vmapped(xs, limit):
    def clip(v):
        if v > limit:
            v = limit
        return v

    return jax.vmap(clip)(xs), jax.vmap(jax.checkpoint(clip))(xs)


def vmapped_eager(xs, limit):
    out = np.array([min(v, limit) for v in xs])
    return out, out


def nested_jit(x):
    def inner(v):
        if v > 0:
            return v + 1.0
        return v - 1.0

    return jax.jit(inner)(x)


def nested_jit_eager(x):
    return x + 1.0 if x > 0 else x - 1.0


XS = np.array([0.5, -1.0, 2.0, 3.0, -0.25])
CASES = [
    ("fori_loop", fori, fori_eager, [(1.0,), (2.5,), (-3.0,)]),
    ("while_loop", while_loop, while_eager, [(1.0,), (2.5,), (-3.0,)]),
    ("scan", scan, scan_eager, [(XS,)]),
    ("map", mapped, lambda xs: np.array([v * v if v > 0 else -v for v in xs]), [(XS,)]),
    ("cond", cond, cond_eager, [(5.0,), (-2.0,)]),
    ("switch", switch, switch_eager, [(0, 3.0), (0, 0.5), (1, -2.0), (1, 2.0)]),
    ("grads", grads, grads_eager, [(0.5,), (2.0,)]),
    ("vmap_checkpoint", vmapped, vmapped_eager, [(XS, 1.0)]),
    ("jit", nested_jit, nested_jit_eager, [(1.0,), (-1.0,)]),
]


def _same(got, expected):
    got_leaves, expected_leaves = jax.tree.leaves(got), jax.tree.leaves(expected)
    assert len(got_leaves) == len(expected_leaves)
    for g, e in zip(got_leaves, expected_leaves):
        np.testing.assert_allclose(np.asarray(g), np.asarray(e), rtol=1e-12)


@pytest.mark.parametrize(("name", "f", "eager", "calls"), CASES, ids=[c[0] for c in CASES])
def test_functions_handed_to_jax_are_converted(name, f, eager, calls):
    converted = jax.jit(autoconv.convert(f), static_argnums=(0,) if name == "switch" else ())
    for args in calls:
        _same(converted(*args), eager(*args))


def test_the_catalyst_example():
    # jax-ml/jax#5273 / Catalyst's guide: an `if` on the loop variable in `fori_loop`'s body.
    def f(x):
        def body(i, x):
            if x > 2:
                x = x * 2
            else:
                x = x + 1
            return x

        return lax.fori_loop(0, 3, body, x)

    assert float(jax.jit(autoconv.convert(f))(1.0)) == 6.0
    assert float(jax.jit(autoconv.convert(f))(3.0)) == 24.0


def test_grad_of_a_handed_function_matches_finite_differences():
    def loss(x):
        def body(i, v):
            if v > 1.0:
                v = jnp.sqrt(v)
            else:
                v = v * v + 0.5
            return v

        return lax.fori_loop(0, 4, body, x)

    def eager(x):
        for _ in range(4):
            x = np.sqrt(x) if x > 1.0 else x * x + 0.5
        return x

    slope = jax.jit(jax.grad(autoconv.convert(loss)))
    for x in (0.3, 0.9, 3.0):
        h = 1e-6
        expected = (eager(x + h) - eager(x - h)) / (2 * h)
        assert float(slope(x)) == pytest.approx(expected, rel=1e-5)


def test_outside_traces_the_call_is_left_as_it_is():
    # The fast path runs the original statements: `lax.map` gets the function as written,
    # which JAX traces, so an `if` on a tracer there is JAX's own error, as in plain JAX code.
    with pytest.raises(jax.errors.TracerBoolConversionError):
        autoconv.convert(mapped)(XS)
    assert "ac.converted(lax.map)" in autoconv.to_code(mapped)


HANDED_MODULE = """
import jax
from jax import lax


def f(x):
    def body(i, v):
        if v > 2:
            v = v * 2
        else:
            v = v + 1
        return v

    return lax.fori_loop(0, 3, body, x) + jax.grad(lambda t: t * t if t > 0 else -t)(x)


def g(xs):
    return list(map(abs, xs))
"""


def test_a_module_converted_by_the_cli_converts_handed_functions_too(tmp_path):
    from autoconv.cli.main import main
    from tests.cli.helpers import run_python

    (tmp_path / "handed.py").write_text(HANDED_MODULE)
    assert main(["convert", str(tmp_path / "handed.py"), "-o", str(tmp_path / "out")]) == 0
    text = (tmp_path / "out" / "handed.py").read_text()
    assert "__ac__.converted(lax.fori_loop)(0, 3, body, x)" in text
    assert "list(map(abs, xs))" in text  # the built-in `map` is called as it is
    done = run_python(
        """
        import jax, autoconv, handed
        f = jax.jit(autoconv.convert(handed.f))
        print(float(f(1.0)), float(f(-1.0)), handed.g([-1, 2]))
        """,
        path=[tmp_path / "out"],
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["8.0", "1.0", "[1,", "2]"]
