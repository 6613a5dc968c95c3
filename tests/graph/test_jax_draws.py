"""NumPy's random numbers with the JAX backend: each draw is made on the host, on the same
generator object, in program order (backends/jax/draws.py). Numbers, dtypes, Python types and
the generators' state after a call are eager's, for NumPy's global generator, Generators
passed in or made inside, and Python's `random`."""

import random
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

jax = pytest.importorskip("jax")

import autoconv  # noqa: E402
from autoconv.backends.jax import LoweringError  # noqa: E402
from tests.graph.test_jax_backend import on_four_cpu_devices, same  # noqa: E402


def global_state():
    return np.random.get_state()[1].copy()


def agree(f, *args, seed=0, calls=2):
    """`f` eagerly and with the JAX backend, from the same global seed, over `calls` calls:
    the same results and the same global generator state after each call."""
    g = autoconv.function(f, backend="jax")
    np.random.seed(seed)
    eager = []
    for _ in range(calls):
        eager.append((f(*args), global_state()))
    np.random.seed(seed)
    for want, state in eager:
        same(want, g(*args))
        np.testing.assert_array_equal(global_state(), state)
    return g


X = np.arange(4.0)


def noise(x):
    return x + np.random.normal(0.0, 0.1, size=x.shape)


def dropout(x, p):
    mask = np.random.rand(*x.shape) >= p
    return x * mask / (1 - p)


def in_branch(x):
    if np.sum(x) > 3:  # only the path taken draws
        return x + np.random.rand(4)
    return x - np.random.randint(0, 5, size=4)


def until_large(x):
    total = 0.0
    n = 0
    while total < 3.0:
        total += np.random.exponential(1.0)
        n += 1
    return total, n


def in_test(x):
    n = 0
    while np.random.rand() < 0.8:
        n += 1
    return n


def collected(x):
    out = []
    for v in x:
        out.append(v * np.random.uniform())
    return np.stack(out), len(out)


def scalars(x):
    return np.random.rand(), np.random.randint(10), np.random.standard_normal(), x


@pytest.mark.parametrize(
    "f, args",
    [
        (noise, (X,)),
        (dropout, (X, 0.5)),
        (in_branch, (X,)),
        (in_branch, (-X,)),
        (until_large, (X,)),
        (in_test, (X,)),
        (collected, (X,)),
        (scalars, (X,)),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_global_generator_draws_as_eager(f, args):
    agree(f, *args)


def test_generator_passed_in_or_made_inside():
    def passed(x, gen):
        return x + gen.normal(size=x.shape), gen.integers(0, 5, size=2, dtype=np.int8)

    def made(x, seed):
        g = np.random.default_rng(seed)
        w = g.normal(scale=0.1, size=(x.shape[0], 2))
        return x @ w, g.random(dtype=np.float32), g.standard_normal()

    g = autoconv.function(passed, backend="jax")
    for seed in (1, 2):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        same(passed(X, a), g(X, b))
        same(passed(X, a), g(X, b))  # a second call draws on from the same object
        assert a.bit_generator.state == b.bit_generator.state
    want, got = made(X, np.int64(7)), autoconv.function(made, backend="jax")(X, np.int64(7))
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12)  # XLA sums in its own order
    same(want[1:], got[1:])


def test_python_random_module():
    def f(x):
        return x * random.random(), random.randint(1, 6)

    g = autoconv.function(f, backend="jax")
    random.seed(3)
    eager = [f(X), f(X)]
    after = random.getstate()
    random.seed(3)
    for want in eager:
        same(want, g(X))
    assert random.getstate() == after


def test_a_failing_draw_raises_eagers_error_and_draws_no_more():
    def f(x, scale):
        a = np.random.normal(size=3)  # drawn: eager draws it before the error
        b = np.random.normal(scale=scale, size=3)
        return a + b + np.random.normal(size=3)

    g = autoconv.function(f, backend="jax")
    np.random.seed(1)
    with pytest.raises(ValueError, match="scale < 0"):
        f(X, np.float64(-1.0))
    after = global_state()
    np.random.seed(1)
    with pytest.raises(ValueError, match="scale < 0") as e:
        g(X, np.float64(-1.0))
    assert "raised by the graph at" in "".join(getattr(e.value, "__notes__", []))
    np.testing.assert_array_equal(global_state(), after)


def test_no_draw_after_the_users_raise():
    def f(x):
        if np.sum(x) > 0:
            raise ValueError("positive")
        return np.random.rand(3)

    g = autoconv.function(f, backend="jax")
    np.random.seed(5)
    before = global_state()
    with pytest.raises(ValueError, match="positive"):
        g(X)
    np.testing.assert_array_equal(global_state(), before)


def test_keep_on_device_and_device():
    g = autoconv.function(noise, backend="jax", keep_on_device=True, device="cpu")
    np.random.seed(2)
    want = noise(X)
    np.random.seed(2)
    got = g(X)
    assert isinstance(got, jax.Array)
    np.testing.assert_array_equal(np.asarray(got), want)


def test_the_code_shows_each_draw():
    code = autoconv.function(noise, backend="jax").get_concrete_function(X).code
    assert "draw(" in code


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 2**31 - 1),
    st.integers(1, 6),
    st.sampled_from(["rand", "normal", "integers", "exponential", "choice"]),
)
def test_generated_generator_calls(seed, n, kind):
    def f(x, gen):
        total = np.zeros(n)
        for _ in range(3):
            if kind == "rand":
                d = gen.random(n)
            elif kind == "normal":
                d = gen.normal(loc=x[0], size=n)
            elif kind == "integers":
                d = gen.integers(0, 7, size=n)
            elif kind == "exponential":
                d = gen.exponential(2.0, size=n)
            else:
                d = gen.choice(7, size=n)
            total = total + d
        return total

    a, b = np.random.default_rng(seed), np.random.default_rng(seed)
    same(f(X, a), autoconv.function(f, backend="jax")(X, b))
    assert a.bit_generator.state == b.bit_generator.state


SHARDED = textwrap.dedent(
    """
    import numpy as np, jax
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    import autoconv

    def f(x, w):
        y = np.tanh(x @ w) + np.random.normal(size=(8, 3))
        autoconv.print("sum", np.sum(y))
        return y

    mesh = Mesh(np.array(jax.devices()), ("batch",))
    x = np.arange(32.0).reshape(8, 4) / 32
    w = np.ones((4, 3)) / 4
    xs = jax.device_put(x, NamedSharding(mesh, P("batch")))
    g = autoconv.function(f, backend="jax", keep_on_device=True)
    np.random.seed(0)
    y = g(xs, w)
    assert len(y.sharding.device_set) == 4, y.sharding
    np.random.seed(0)
    np.testing.assert_allclose(np.asarray(y), f(x, w), rtol=1e-12)
    print("ok")
    """
)


def test_draws_and_prints_in_a_program_split_over_devices(tmp_path):
    lines = on_four_cpu_devices(SHARDED, tmp_path).split("\n")
    assert lines[0].startswith("sum ") and lines[1].startswith("sum ") and lines[2] == "ok", lines


# --- the NumPy backend's random suite (tests/graph/test_random.py), run with backend="jax" -----

from tests.graph import test_random as numpy_suite  # noqa: E402


@pytest.fixture
def jax_backend(monkeypatch):
    """`autoconv.function` makes JAX-backend functions unless told otherwise."""
    real = autoconv.function

    def function(f=None, **options):
        options.setdefault("backend", "jax")
        return real(f, **options) if f is not None else real(**options)

    monkeypatch.setattr(autoconv, "function", function)


# Draws whose sizes come from array data: XLA compiles fixed sizes, so these raise a
# LoweringError naming the line (checked below) where the NumPy backend runs them.
SIZES_FROM_DATA = (
    "test_tensor_parameters_and_sizes",
    "test_run_time_sizes",
    "test_unknown_sizes_from_shape_are_run_time_sizes",
)
# Reads the NumPy backend's generated code (test_the_code_shows_each_draw reads ours).
NUMPY_CODE = ("test_the_listing_shows_each_draw",)


def _lowering_error_expected(test):
    @pytest.mark.usefixtures("jax_backend")
    def check(*args, **kwargs):
        with pytest.raises(LoweringError, match=r"test_random.py:\d+: .*known only when"):
            test(*args, **kwargs)

    check.__name__ = test.__name__
    return check


for _name, _test in vars(numpy_suite).items():
    if not (_name.startswith("test_") and callable(_test)) or _name in NUMPY_CODE:
        continue
    if _name in SIZES_FROM_DATA:
        globals()[_name + "_jax"] = _lowering_error_expected(_test)
    else:
        globals()[_name + "_jax"] = pytest.mark.usefixtures("jax_backend")(_test)


def test_draws_in_a_list_that_outgrows_its_buffer_are_drawn_once():
    """A list grown in a loop with no bound may make the program run again with a larger
    buffer; the generator goes back to its state before the first run, so the numbers and the
    state after the call are eager's."""

    def samples(rng, limit):
        values = []
        total = 0.0
        while total < limit:
            v = rng.exponential(1.0)
            values.append(v)
            total += v
        return np.array(values), total

    g = autoconv.function(samples, backend="jax")
    for limit in (3.0, 300.0, 30.0):  # 300: hundreds of items, past the first buffer
        a, b = np.random.default_rng(4), np.random.default_rng(4)
        same(samples(a, limit), g(b, limit))
        assert a.bit_generator.state == b.bit_generator.state
