"""Random numbers in graph mode, under every pass setting.

A graph draws when it runs, never while tracing: after the same seed it gives exactly the
numbers, dtypes, shapes and Python types that eager NumPy gives; without reseeding each run
draws new ones. Draws run once per run in program order, only on the path taken. What cannot
be staged raises a StagingError with the user's line.
"""

import random

import numpy as np
import pytest

import autoconv
from autoconv.graph.errors import StagingError

pytestmark = pytest.mark.usefixtures("pass_settings")


# --- helpers ------------------------------------------------------------------------------------


def assert_same(expected, actual, path="result"):
    """Equal values (bit for bit), types, dtypes and shapes, deeply."""
    assert type(actual) is type(expected), f"{path}: {type(actual)} != {type(expected)}"
    if isinstance(expected, (tuple, list)):
        assert len(actual) == len(expected), path
        for i, (e, a) in enumerate(zip(expected, actual)):
            assert_same(e, a, f"{path}[{i}]")
    elif isinstance(expected, dict):
        assert list(actual) == list(expected), path
        for k in expected:
            assert_same(expected[k], actual[k], f"{path}[{k!r}]")
    elif isinstance(expected, (np.ndarray, np.generic)):
        assert actual.dtype == expected.dtype, f"{path}: {actual.dtype} != {expected.dtype}"
        assert np.shape(actual) == np.shape(expected), path
        np.testing.assert_array_equal(actual, expected, err_msg=path)
    elif isinstance(expected, np.random.Generator):
        assert actual.bit_generator.state == expected.bit_generator.state, path
    else:
        assert actual == expected, f"{path}: {actual!r} != {expected!r}"


def seed_all(seed=0):
    np.random.seed(seed)
    random.seed(seed)


def eager_vs_graph(f, *args, runs=3, **options):
    """Runs `f` eagerly and as a graph `runs` times each after the same seeds; the results must
    be the same, and the graph must not draw while it is traced."""
    seed_all()
    expected = [f(*args) for _ in range(runs)]
    g = autoconv.function(f, **options)
    seed_all()
    actual = [g(*args) for _ in range(runs)]
    assert_same(expected, actual)
    return g, actual


def differ(a, b) -> bool:
    return not np.array_equal(np.asarray(a), np.asarray(b))


X = np.linspace(-1.0, 1.0, 6).reshape(2, 3)


# --- NumPy's global generator -----------------------------------------------------------------


def normal(x):
    return x + np.random.normal(size=x.shape), np.random.normal(), np.random.normal(0.5, 2.0)


def uniform_and_rand(x):
    return np.random.uniform(-1, 1, size=(2, 3)) * x, np.random.rand(), np.random.rand(2, 3)


def randn_and_standard(x):
    return np.random.randn(3), np.random.standard_normal(2), np.random.random_sample()


def integers(x):
    return (
        np.random.randint(5),
        np.random.randint(2, 9, size=4),
        np.random.randint(5, dtype=np.int32),
        np.random.randint(0, 3, size=(2, 2), dtype=np.int16),
    )


def discrete(x):
    return (
        np.random.binomial(10, 0.3),
        np.random.poisson(3.0, size=3),
        np.random.geometric(0.5),
        np.random.hypergeometric(5, 5, 3, size=2),
        np.random.negative_binomial(3, 0.5),
        np.random.zipf(2.0),
        np.random.logseries(0.5),
    )


def continuous(x):
    return (
        np.random.exponential(2.0, size=2),
        np.random.beta(2.0, 3.0),
        np.random.gamma(2.0),
        np.random.chisquare(3.0),
        np.random.f(3.0, 4.0),
        np.random.gumbel(),
        np.random.laplace(size=2),
        np.random.logistic(),
        np.random.lognormal(),
        np.random.noncentral_chisquare(3.0, 1.0),
        np.random.noncentral_f(3.0, 4.0, 1.0),
        np.random.pareto(3.0),
        np.random.power(3.0),
        np.random.rayleigh(),
        np.random.standard_cauchy(),
        np.random.standard_t(3.0),
        np.random.triangular(0.0, 0.5, 1.0),
        np.random.vonmises(0.0, 1.0),
        np.random.wald(1.0, 1.0),
        np.random.weibull(2.0),
        np.random.standard_exponential(),
        np.random.standard_gamma(2.0, size=2),
    )


def sampling(x):
    flat = np.ravel(x)
    return (
        np.random.choice(5),
        np.random.choice(flat),
        np.random.choice(flat, size=3, replace=False),
        np.random.choice(4, size=2, p=[0.1, 0.2, 0.3, 0.4]),
        np.random.permutation(flat),
        np.random.permutation(5),
    )


def multivariate(x):
    return (
        np.random.multivariate_normal(np.zeros(2), np.eye(2)),
        np.random.multivariate_normal([0.0, 1.0], np.eye(2), size=3),
        np.random.dirichlet([1.0, 2.0, 3.0], size=2),
        np.random.multinomial(10, [0.2, 0.8], size=2),
    )


@pytest.mark.parametrize(
    "f",
    [
        normal,
        uniform_and_rand,
        randn_and_standard,
        integers,
        discrete,
        continuous,
        sampling,
        multivariate,
    ],
)
def test_global_draws_match_eager_after_the_same_seed(f):
    eager_vs_graph(f, X)


def test_each_run_draws_new_numbers():
    g = autoconv.function(normal)
    a, b = g(X), g(X)
    assert differ(a[0], b[0]) and a[1] != b[1]


def test_trace_draws_nothing():
    np.random.seed(3)
    g = autoconv.function(normal)
    g.get_concrete_function(X)
    g.get_concrete_function(X.astype(np.float32))
    first = np.random.rand()
    np.random.seed(3)
    assert np.random.rand() == first


def test_draws_run_in_program_order_and_are_never_merged_or_dropped():
    def f(x):
        a = np.random.rand(3)
        b = np.random.rand(3)  # the same call: a different draw
        np.random.rand(100)  # unused: it still advances the state
        c = np.random.rand(3) * 1 + 0
        return x + a, x + b, c

    g, runs = eager_vs_graph(f, np.zeros(3))
    a, b, _ = runs[0]
    assert differ(a, b)


def test_seed_inside_the_function_repeats_the_numbers():
    def f(x, s):
        np.random.seed(s)
        return x + np.random.randn(3), random.random()

    g, runs = eager_vs_graph(f, np.zeros(3), 7)
    assert_same(runs[0][0], runs[1][0])
    eager_vs_graph(f, np.zeros(3), np.int64(7))  # a run-time seed


def test_set_state_inside_the_function():
    np.random.seed(1)
    state = np.random.get_state()

    def f(x):
        np.random.set_state(state)
        return x + np.random.rand(2)

    eager_vs_graph(f, np.zeros(2))


# --- Generators ---------------------------------------------------------------------------------


def generator_draws(rng, x):
    return (
        x * rng.standard_normal(x.shape),
        rng.normal(),
        rng.integers(0, 5, size=2),
        rng.integers(10),
        rng.integers(10, dtype=np.int32),
        rng.random(),
        rng.random(3, dtype=np.float32),
        rng.random(dtype=np.float32),
        rng.uniform(size=(2, 2)),
        rng.binomial(5, 0.3),
        rng.poisson(2.0, size=3),
        rng.exponential(),
        rng.choice(5),
        rng.choice(np.ravel(x), size=2),
        rng.choice(x, axis=1),
        rng.permutation(4),
        rng.permutation(x),
        rng.permuted(x, axis=1),
        rng.multivariate_normal(np.zeros(2), np.eye(2), size=2),
        rng.dirichlet([1.0, 1.0]),
        rng.multinomial(5, [0.5, 0.5]),
        rng.standard_exponential(2, dtype=np.float32),
        rng.standard_gamma(2.0, size=2),
    )


def test_generator_argument_draws_from_that_generator_when_the_graph_runs():
    eager_rng, graph_rng = np.random.default_rng(0), np.random.default_rng(0)
    g = autoconv.function(generator_draws)
    for _ in range(3):
        assert_same(generator_draws(eager_rng, X), g(graph_rng, X))
    assert eager_rng.bit_generator.state == graph_rng.bit_generator.state


def test_eager_and_graph_calls_alternate_on_one_generator():
    def f(rng, x):
        return x + rng.normal(size=x.shape)

    g = autoconv.function(f)
    rng, reference = np.random.default_rng(5), np.random.default_rng(5)
    for _ in range(2):
        assert_same(f(reference, X), g(rng, X))
        assert_same(f(reference, X), f(rng, X))


def test_legacy_random_state_argument():
    def f(rs, x):
        return x + rs.rand(*np.shape(x)), rs.randint(3), rs.normal(size=2)

    eager_rs, graph_rs = np.random.RandomState(2), np.random.RandomState(2)
    g = autoconv.function(f)
    for _ in range(2):
        assert_same(f(eager_rs, X), g(graph_rs, X))


GLOBAL_RNG = np.random.default_rng(11)


def test_global_and_closure_generators():
    closed = np.random.default_rng(12)

    def f(x):
        return x + GLOBAL_RNG.normal(size=x.shape), closed.integers(0, 100)

    def reset():
        GLOBAL_RNG.bit_generator.state = np.random.default_rng(11).bit_generator.state
        closed.bit_generator.state = np.random.default_rng(12).bit_generator.state

    g = autoconv.function(f)
    reset()
    graph = [g(X) for _ in range(2)]
    reset()
    eager = [f(X) for _ in range(2)]
    assert_same(eager, graph)


def test_generator_made_inside_with_a_seed_gives_the_same_numbers_every_run():
    def f(x, seed):
        rng = np.random.default_rng(seed)
        return x + rng.normal(size=x.shape), rng.integers(0, 10), rng.random()

    g, runs = eager_vs_graph(f, X, 42)
    assert_same(runs[0], runs[1])
    _, runs = eager_vs_graph(f, X, np.int64(42))  # a run-time seed
    assert_same(runs[0], runs[1])


def test_generator_made_inside_without_a_seed_gives_new_numbers_every_run():
    def f(x):
        rng = np.random.default_rng()
        return x + rng.normal(size=x.shape)

    g = autoconv.function(f)
    assert differ(g(X), g(X))


def test_other_generators_made_inside():
    def f(x):
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(3)))
        legacy = np.random.RandomState(4)
        python = random.Random(5)
        return rng.normal(size=2), legacy.rand(2), python.random(), python.randint(0, 9)

    _, runs = eager_vs_graph(f, X)
    assert_same(runs[0], runs[1])


def test_generator_made_inside_is_returned():
    def f(x):
        rng = np.random.default_rng(3)
        rng.normal()
        return rng, x

    out, _ = autoconv.function(f)(X)
    expected = np.random.default_rng(3)
    expected.normal()
    assert isinstance(out, np.random.Generator)
    assert_same(expected, out)


# --- Tensors as arguments -------------------------------------------------------------------------


def test_tensor_parameters_and_sizes():
    def f(mu, sigma, x, n):
        rng = np.random.default_rng(1)
        return (
            np.random.normal(loc=mu, scale=sigma, size=x.shape),
            np.random.normal(loc=x),
            rng.integers(0, n),
            rng.integers(n, size=n),
            np.random.rand(*np.shape(x)),
            rng.uniform(x, x + 1),
            rng.choice(n, size=2),
            rng.permutation(n),
        )

    eager_vs_graph(f, np.float32(1.0), np.float64(2.0), X, np.int64(7))


def test_run_time_sizes():
    def f(x):
        n = np.shape(x)[0]
        return (
            x + np.random.normal(size=np.shape(x)),
            np.random.rand(n),
            np.random.standard_normal((n, 2)),
            np.random.randint(0, 3, size=n),
        )

    spec = autoconv.TensorSpec((None, 3), np.float64)
    g, _ = eager_vs_graph(f, X, input_signature=[spec])
    seed_all()
    expected = f(np.ones((5, 3)))
    seed_all()
    assert_same(expected, g(np.ones((5, 3))))


def test_python_random_module():
    def f(x, k):
        return (
            x + random.random(),
            random.uniform(1, 2),
            random.randint(1, 6),
            random.randrange(k),
            random.gauss(0.0, 1.0),
            random.choice([1, 2, 3]),
            random.choice((0.5, 1.5)),
            random.expovariate(2.0),
            random.getrandbits(8),
        )

    _, runs = eager_vs_graph(f, X, 10)
    assert type(runs[0][2]) is int and type(runs[0][1]) is float


def test_variable_assigned_a_draw():
    v = autoconv.Variable(np.zeros(3))

    def f(x):
        v.assign(x + np.random.rand(3))
        return v.read_value()

    eager_np = np.random.RandomState(0)
    expected = [np.zeros(3) + eager_np.rand(3) for _ in range(2)]
    seed_all()
    g = autoconv.function(f)
    actual = [g(np.zeros(3)) for _ in range(2)]
    assert_same(expected, actual)
    assert_same(expected[-1], v.numpy())


# --- staged control flow ----------------------------------------------------------------------


def branch(x):
    if np.sum(x) > 0:
        y = x + np.random.normal(size=x.shape)
        r = random.random()
    else:
        y = x - np.random.uniform(size=x.shape)
        r = 0.0
    return y, np.random.rand(), r


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_draws_in_a_staged_branch_happen_only_on_the_path_taken(sign):
    eager_vs_graph(branch, sign * X)


def test_draws_in_a_staged_while_loop_happen_once_per_iteration():
    def f(x, n):
        total = 0.0
        i = 0
        while i < n:
            total = total + np.random.normal(loc=x, scale=1.0)
            i = i + 1
        return total, np.random.rand()

    eager_vs_graph(f, np.float64(0.5), np.int64(4))
    eager_vs_graph(f, np.float64(0.5), np.int64(0))


def test_draws_in_a_staged_for_loop():
    def f(x):
        out = x
        for i in range(np.shape(x)[0]):
            out = out + np.random.poisson(3.0) * i
        return out, np.random.rand()

    eager_vs_graph(f, np.zeros(4))


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_draws_in_conditional_expressions_early_returns_and_unused_branches(sign):
    def ifexp(x):
        y = np.random.rand(2) if np.sum(x) > 0 else np.random.randn(2) * 10
        return y, np.random.rand()

    def early_return(x):
        if np.sum(x) > 0:
            return x + np.random.rand()
        return x - np.random.rand(2) * 100

    def unused(x):
        if np.sum(x) > 0:
            np.random.rand()
        return x + np.random.rand()

    for f in (ifexp, early_return, unused):
        eager_vs_graph(f, sign * np.ones(2))


def test_a_staged_loop_that_breaks_on_a_draw():
    def f(x, n):
        total = x
        for _ in range(n):
            total = total + np.random.rand()
            if total > 2:
                break
        return total, np.random.rand()

    eager_vs_graph(f, np.float64(0.0), np.int64(10))


def test_a_random_branch_condition():
    def f(x):
        if np.random.rand() < 0.5:
            x = x + np.random.rand()
        return x

    eager_vs_graph(f, np.float64(0.0), runs=6)


def test_python_loops_unroll_their_draws_in_order():
    def f(x):
        rng = np.random.default_rng(9)
        out = []
        for _ in range(3):
            out.append(x + rng.normal() + np.random.rand())
        return out

    eager_vs_graph(f, np.float64(1.0))


def test_draws_in_a_converted_helper():
    def noise(shape):
        return np.random.normal(size=shape)

    def f(x):
        return x + noise(x.shape) + noise(x.shape)

    eager_vs_graph(f, X)


def test_the_listing_shows_each_draw():
    g = autoconv.function(normal)
    concrete = g.get_concrete_function(X)
    assert concrete.graph.as_text().count("numpy.random.normal") == 3
    assert concrete.code.count("np_random_normal(") == 3


# --- errors -------------------------------------------------------------------------------------


def _line_of(f, text) -> int:
    import inspect

    lines, first = inspect.getsourcelines(f)
    return first + next(i for i, line in enumerate(lines) if text in line)


def _raises(f, *args, match, line_text, **options):
    with pytest.raises(StagingError, match=match) as info:
        autoconv.function(f, **options)(*args)
    assert f"{__file__}:{_line_of(f, line_text)}:" in str(info.value)
    return info.value


def test_shuffle_says_to_use_permutation():
    def f(x):
        np.random.shuffle(x)
        return x

    _raises(f, np.arange(3.0), match=r"numpy\.random\.shuffle\(\).*permutation", line_text="shuf")


def test_unstaged_functions_name_themselves():
    def state(x):
        return np.random.get_state()

    def spawn(rng, x):
        return rng.spawn(2)

    def raw(x):
        return np.random.bytes(4)

    def python_sample(x):
        return random.sample([1, 2, 3], 2)

    _raises(state, X, match=r"numpy\.random\.get_state\(\)", line_text="get_state")
    _raises(
        spawn, np.random.default_rng(0), X, match=r"Generator\.spawn\(\)", line_text="rng.spawn"
    )
    _raises(raw, X, match=r"numpy\.random\.bytes\(\)", line_text="bytes")
    _raises(python_sample, X, match=r"random\.sample\(\)", line_text="random.sample")


def test_unstaged_method_of_a_generator_made_inside():
    def f(x):
        rng = np.random.default_rng(0)
        return rng.spawn(2)

    _raises(f, X, match=r"Generator\.spawn\(\)", line_text="rng.spawn")


def test_unknown_sizes_from_shape_are_run_time_sizes():
    def f(x):
        return np.random.normal(size=x.shape)

    spec = autoconv.TensorSpec((None, 3), np.float64)
    g = autoconv.function(f, input_signature=[spec])
    for n in (1, 4):
        x = np.zeros((n, 3))
        np.random.seed(3)
        eager = f(x)
        np.random.seed(3)
        graph = g(x)
        assert graph.shape == eager.shape == (n, 3)
        np.testing.assert_array_equal(graph, eager)


def test_out_argument():
    def f(x):
        return np.random.default_rng(0).random(3, out=x)

    _raises(f, np.zeros(3), match="in place", line_text="out=x")


def test_python_random_on_an_array_tensor():
    def f(x):
        return random.uniform(0.0, np.sum(x))

    _raises(f, X, match=r"random\.uniform\(\).*np\.random", line_text="uniform")


def test_draws_in_unconverted_code_raise_instead_of_freezing():
    @autoconv.do_not_convert
    def helper():
        return np.random.rand()

    def f(x):
        return x + helper()

    def g(x):
        return x + np.random.rand()

    def h(rng, x):
        return x + _library_style_draw(rng)

    with pytest.raises(StagingError, match="global random generator") as info:
        autoconv.function(f)(X)
    assert f"{__file__}:{f.__code__.co_firstlineno}:" in str(info.value)
    with pytest.raises(StagingError, match="autograph=False"):
        autoconv.function(g, autograph=False)(X)
    with pytest.raises(StagingError, match="Generator passed in"):
        autoconv.function(h)(np.random.default_rng(0), X)


@autoconv.do_not_convert
def _library_style_draw(rng):
    return rng.random()


def test_bad_arguments_fail_when_the_graph_runs_as_eagerly():
    def negative_scale(x):
        return x + np.random.normal(scale=-1.0)

    def typo(x):
        return x + np.random.normal(sizes=3)

    for f, error in ((negative_scale, ValueError), (typo, TypeError)):
        with pytest.raises(error):
            f(X)
        g = autoconv.function(f)
        concrete = g.get_concrete_function(X)  # tracing succeeds
        with pytest.raises(error):
            concrete(X)


def test_a_generator_made_inside_does_not_outlive_the_trace():
    kept = []

    def f(x):
        rng = np.random.default_rng(0)
        kept.append(rng)
        return x + rng.random()

    autoconv.function(f)(X)
    with pytest.raises(StagingError, match="only exists while it runs"):
        kept[0].random()


def test_conversion_on_python_values_is_unchanged():
    def f(n):
        return [np.random.rand() + random.random() for _ in range(n)], np.random.randint(9)

    seed_all()
    expected = f(3)
    seed_all()
    assert_same(expected, autoconv.convert(f)(3))


def test_sizes_given_as_arrays_and_system_random_arguments():
    def f(x, sysrand):
        return np.random.normal(size=np.array([2, 3])), np.random.rand(), sysrand is not None

    eager_vs_graph(f, X, random.SystemRandom())


def test_typing_a_scalar_draw_draws_nothing():
    """The Python type of a 0-d draw (a NumPy scalar, or a 0-d array for `size=()`) is known
    from the call, not found by making it: tracing, and typing the results, draw nothing."""

    def f(x):
        if np.sum(x) > 0:
            r = np.random.randint(5, dtype=np.int32)
            s = np.random.default_rng(1).normal(size=())
        else:
            r = np.int32(0)
            s = np.zeros(())
        return r, s

    g = autoconv.function(f)
    seed_all()
    state = np.random.get_state()
    cf = g.get_concrete_function(X)
    assert [type(t).__name__ for t in cf.structured_outputs] == ["Tensor", "Tensor"]
    after = np.random.get_state()
    assert after[2] == state[2] and np.array_equal(after[1], state[1])
    eager_vs_graph(f, X)
    eager_vs_graph(f, -X)
