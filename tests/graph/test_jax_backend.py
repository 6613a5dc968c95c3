"""The JAX backend (`autoconv.function(f, backend="jax")`): same results as NumPy eager (values,
dtypes, shapes, Python types), prints, Variables, errors, devices and sharding."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

jax = pytest.importorskip("jax")

import autoconv  # noqa: E402
from autoconv.backends.jax import LoweringError  # noqa: E402


def both(f, *args):
    """`f(*args)` eagerly and with the JAX backend."""
    return f(*args), autoconv.function(f, backend="jax")(*args)


def same(a, b):
    assert type(a) is type(b), (a, b)
    if isinstance(a, (tuple, list)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
    elif isinstance(a, (np.ndarray, np.generic)):
        assert a.dtype == b.dtype and np.shape(a) == np.shape(b), (a, b)
        np.testing.assert_array_equal(a, b)
    else:
        assert a == b or (a != a and b != b), (a, b)


def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def test_while_and_cond_give_a_python_int():
    same(*both(collatz, np.int64(27)))
    assert both(collatz, np.int64(27))[1] == 111


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "bool"])
def test_dtypes_are_numpys(dtype):
    def f(x):
        return x + x, np.sum(x), x[0], x * 2, x > 0

    x = np.array([1, 0, 3], dtype=dtype)
    same(*both(f, x))


def test_float64_stays_float64_and_global_config_is_untouched():
    def f(x):
        return np.exp(x) * 2.0

    before = jax.config.jax_enable_x64
    eager, got = both(f, np.linspace(0.0, 1.0, 5))
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, eager, rtol=1e-14)
    assert jax.config.jax_enable_x64 == before
    assert jax.numpy.ones(1).dtype == (np.float64 if before else np.float32)


def test_integer_overflow_wraps_like_numpy():
    def f(x):
        return x * np.int32(70000) + x

    same(*both(f, np.array([70000, -5], np.int32)))

    def g(x):
        return x + np.uint8(200)

    same(*both(g, np.array([100, 3], np.uint8)))


def test_python_scalars_and_numpy_scalars():
    def f(x, k):
        total = 0.0
        for i in range(k):
            total += i * 0.5
        return total, k * 2, x.sum(), x[0].item(), len(x)

    same(*both(f, np.array([1.5, 2.0]), 4))


def test_for_break_and_return():
    def first_big(x):
        for i in range(len(x)):
            if x[i] > 2:
                return i, x[i]
        return -1, np.float64(0.0)

    for x in (np.array([1.0, 3.0, 5.0]), np.array([0.0, 1.0, 2.0])):
        same(*both(first_big, x))

    def loop_break(x):
        acc = np.zeros_like(x)
        for row in x:
            acc = acc + row
            if acc.sum() > 4:
                break
        return acc

    same(*both(loop_break, np.arange(12.0).reshape(4, 3)))


def test_print_gives_the_same_text(capsys):
    def f(x):
        for i in range(3):
            autoconv.print("step", i, f"value {x[i]:.3f}", x[i] * 2)
        if np.sum(x) > 1:
            autoconv.print("big", np.sum(x))
        return x

    x = np.array([0.5, 1.25, 2.0])
    f(x)
    eager = capsys.readouterr().out
    autoconv.function(f, backend="jax")(x)
    assert capsys.readouterr().out == eager
    autoconv.function(f, backend="jax")(x)
    assert capsys.readouterr().out == eager


def test_variables_are_state():
    v = autoconv.Variable(np.zeros(3))
    n = autoconv.Variable(np.int64(0))

    def step(x):
        i = 0
        while i < 3:
            v.assign(v + x)
            n.assign_add(1)
            i += 1
        return v.read_value() * 1.0

    f = autoconv.function(step, backend="jax")
    out = f(np.array([1.0, 2.0, 3.0]))
    same(out, np.array([3.0, 6.0, 9.0]))
    assert n.numpy() == 3 and n.numpy().dtype == np.int64
    f(np.array([1.0, 1.0, 1.0]))
    same(v.numpy(), np.array([6.0, 9.0, 12.0]))


def test_raise_gives_the_eager_exception():
    def f(x):
        if np.sum(x) > 10:
            raise ValueError(f"too big: {np.sum(x)}")
        return x * 2

    g = autoconv.function(f, backend="jax")
    same(g(np.array([1.0, 2.0])), np.array([2.0, 4.0]))
    with pytest.raises(ValueError, match="too big: 11.0"):
        g(np.array([5.0, 6.0]))

    def loop(x):
        while x < 100:
            x = x + 1
            if x > 5:
                raise ValueError("stop")
        return x

    with pytest.raises(ValueError, match="stop"):
        autoconv.function(loop, backend="jax")(np.float64(0.0))


def test_what_cannot_be_lowered_names_the_op_and_line():
    def noisy(x, n):
        return np.random.normal(size=n)  # how many: known only from data

    with pytest.raises(LoweringError, match=r"test_jax_backend.py:\d+.*random.normal") as e:
        autoconv.function(noisy, backend="jax")(np.zeros(3), np.int64(3))
    assert isinstance(e.value, autoconv.AutoconvError)

    def counted(x):
        return np.arange(np.sum(x > 0))

    with pytest.raises(LoweringError, match=r"test_jax_backend.py:\d+: `arange`.* depends on val"):
        autoconv.function(counted, backend="jax")(np.array([1.0, -1.0]))

    def masked(x):
        return x[x > 0]

    with pytest.raises(LoweringError, match=r"test_jax_backend.py:\d+"):
        autoconv.function(masked, backend="jax")(np.array([1.0, -1.0]))


def test_code_shows_the_jax_program():
    f = autoconv.function(collatz, backend="jax")
    code = f.get_concrete_function(np.int64(5)).code
    assert "while_loop(" in code and "cond(" in code


def test_keep_on_device_returns_jax_arrays():
    def f(x):
        return x * 2, np.sum(x) > 0, len(x)

    a, b, n = autoconv.function(f, backend="jax", keep_on_device=True)(np.ones(3))
    assert isinstance(a, jax.Array) and a.dtype == np.float64
    assert isinstance(b, jax.Array)
    assert n == 3 and type(n) is int
    # JAX arrays are keyed like ndarrays: no second trace
    g = autoconv.function(f, backend="jax")
    g(np.ones(3))
    g(a)
    assert g.tracing_count == 1


def test_devices():
    f = autoconv.function(collatz, backend="jax", device="cpu")
    assert f(np.int64(6)) == 8
    assert autoconv.function(collatz, backend="jax", device="auto")(np.int64(6)) == 8
    cpu = jax.devices("cpu")[0]
    assert autoconv.function(collatz, backend="jax", device=cpu)(np.int64(6)) == 8
    if not [d for d in jax.devices() if d.platform == "gpu"]:
        with pytest.raises(ValueError, match="gpu"):
            autoconv.function(collatz, backend="jax", device="gpu")(np.int64(6))


def _elementwise(a, b):
    return np.sqrt(a * a + b) - a


def _product_loop(x, w):
    for _ in range(3):
        x = np.tanh(x @ w)
    return x


@pytest.mark.parametrize(
    "fn, shapes, dtype, cpu",
    [
        (_elementwise, [(1 << 20,)] * 2, np.float32, True),  # the GPU pays from 2^22 float32
        (_elementwise, [(1 << 22,)] * 2, np.float32, False),
        (_elementwise, [(1 << 22,)] * 2, np.float64, True),  # ... and from 2^24 float64
        (_product_loop, [(256,), (256, 256)], np.float64, True),  # 2^16: a loop pays from 2^18
        (_product_loop, [(512,), (512, 512)], np.float64, False),
        (_product_loop, [(512,), (512, 512)], np.float32, True),  # ... float32 from 2^20
    ],
)
def test_device_auto_keeps_graphs_the_gpu_runs_slower_on_the_cpu(fn, shapes, dtype, cpu):
    from autoconv.backends.jax.program import _small

    args = [np.zeros(s, dtype) for s in shapes]
    graph = autoconv.function(fn).get_concrete_function(*args).optimized_graph
    assert _small(graph) == cpu


def test_bad_options():
    with pytest.raises(ValueError, match="backend"):
        autoconv.function(collatz, backend="torch")
    with pytest.raises(ValueError, match="backend='jax'"):
        autoconv.function(collatz, device="cpu")


def test_without_jax_the_error_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "jax", None)
    with pytest.raises(ImportError, match=r"pip install 'autoconv\[jax\]'"):
        autoconv.function(collatz, backend="jax")


SHARDED = textwrap.dedent(
    """
    import numpy as np, jax
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    import autoconv

    def f(x, w):
        y = np.tanh(x @ w)
        if np.mean(y) > 0:
            y = y * 2.0
        return y, np.sum(y)

    assert len(jax.devices()) == 4
    mesh = Mesh(np.array(jax.devices()), ("batch",))
    x = np.arange(32.0).reshape(8, 4) / 32
    w = np.ones((4, 3)) / 4
    xs = jax.device_put(x, NamedSharding(mesh, P("batch")))
    g = autoconv.function(f, backend="jax", keep_on_device=True)
    y, s = g(xs, w)
    assert len(y.sharding.device_set) == 4, y.sharding
    eager = f(x, w)
    np.testing.assert_allclose(np.asarray(y), eager[0], rtol=1e-12)
    np.testing.assert_allclose(float(s), eager[1], rtol=1e-12)
    print("ok")
    """
)


def on_four_cpu_devices(script: str, tmp_path) -> str:
    """What `script` prints, run in a fresh process where JAX sees four CPU devices."""
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=4")
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    path = tmp_path / "sharded.py"
    path.write_text(script)
    done = subprocess.run(
        [sys.executable, str(path)], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_sharded_inputs_run_spmd(tmp_path):
    assert on_four_cpu_devices(SHARDED, tmp_path).strip() == "ok"


def test_backends_doc_examples_and_their_output(tmp_path, capsys):
    """The Python blocks of docs/backends.md run in order; a `text` block right after one is
    exactly what it prints."""
    from tests.doc_pages import run_page

    assert run_page("backends.md", tmp_path, capsys) >= 5


def index_times_two(x, i):
    return x[i] * 2


def first_zero(x):
    i = 0
    while x[i] != 0:  # runs off the end where x holds no zero
        i += 1
    return i


def take_some(x, idx):
    return np.take(x, idx)


def sum_first(x, n):
    s = 0.0
    for j in range(n):
        s = s + x[j]
    return s


@pytest.mark.parametrize(
    "fn, args",
    [
        (index_times_two, (np.arange(3.0), np.int64(5))),
        (index_times_two, (np.arange(3.0), np.int64(-4))),
        (first_zero, (np.array([3.0, 2.0, 1.0]),)),
        (take_some, (np.arange(4.0), np.array([0, 7]))),
        (sum_first, (np.arange(3.0), np.int64(5))),
    ],
)
def test_an_index_out_of_bounds_raises_numpys_index_error(fn, args):
    """XLA clamps such an index; the lowered graph checks it and raises what NumPy raises."""
    with pytest.raises(IndexError) as eager:
        fn(*args)
    with pytest.raises(IndexError) as lowered:
        autoconv.function(fn, backend="jax")(*args)
    assert str(lowered.value) == str(eager.value)


def test_indices_in_bounds_give_the_eager_values():
    cases = [
        (index_times_two, (np.arange(3.0), np.int64(-3))),
        (first_zero, (np.array([3.0, 2.0, 0.0]),)),
        (take_some, (np.arange(4.0), np.array([0, -4]))),
        (sum_first, (np.arange(3.0), np.int64(3))),
    ]
    for fn, args in cases:
        assert autoconv.function(fn, backend="jax")(*args) == pytest.approx(fn(*args))


# --- lists grown in staged loops: preallocated buffers ----------------------------------------


def appended_every_item(x):
    out = []
    for v in x:
        out.append(v * 2)
    return np.array(out), len(out)


def kept_positive(x):
    kept = []
    for v in x:
        if v > 0:
            kept.append(v)
    return np.array(kept), len(kept)


def until_zero(x):
    out = []
    for v in x:
        if v == 0:
            break
        out.append(v + 1)
    return out


def counted_while(x):
    seq = []
    i = 0
    while i < 6:
        if x[i % len(x)] > 0:
            seq.append(x[i % len(x)] * i)
        i += 1
    return np.stack(seq), len(seq)


def bounded_by_len(x, stop):
    seq = []
    value = np.max(x)
    while value > stop and len(seq) < 5:
        seq.append(value)
        value = value / 2
    return seq


def rows_stacked(m):
    rows = []
    for row in m:
        rows.append(row * 2)
    total = np.stack(rows, axis=1)
    return total, np.mean(np.stack(rows), axis=0)


def prefix_then_items(x):
    states = [-1.0]
    for v in x:
        if v > 1:
            states.append(v)
    return np.stack(states)


def python_ints(x):
    idx = []
    for i, v in enumerate(x):
        if v < 0:
            idx.append(i)
    return idx


def nested_grid(m):
    hits = []
    for row in m:
        for j in range(m.shape[1]):  # a Python loop in each iteration of the staged one
            if row[j] > 0.5:
                hits.append(row[j])
    return np.array(hits)


LIST_CASES = [
    (appended_every_item, (np.array([1.0, -2.0, 3.0]),)),
    (appended_every_item, (np.zeros(0),)),
    (kept_positive, (np.array([1.0, -2.0, 3.0, 0.5]),)),
    (kept_positive, (-np.ones(3),)),
    (until_zero, (np.array([3, 1, 0, 4]),)),
    (until_zero, (np.array([3, 1, 2, 4]),)),
    (counted_while, (np.array([1.0, -1.0, 2.0]),)),
    (bounded_by_len, (np.array([4.0, 1.0]), np.float64(0.2))),
    (bounded_by_len, (np.array([4.0, 1.0]), np.float64(0.0))),
    (bounded_by_len, (np.array([4.0, 1.0]), np.float64(9.0))),
    (rows_stacked, (np.arange(6.0).reshape(3, 2),)),
    (prefix_then_items, (np.array([1.0, 2.0, 0.5, 3.0]),)),
    (python_ints, (np.array([1.0, -2.0, -3.0]),)),
    (python_ints, (np.ones(2),)),
    (nested_grid, (np.array([[0.1, 0.9], [0.7, 0.2], [0.0, 0.0]]),)),
]


@pytest.mark.parametrize(
    "fn, args", LIST_CASES, ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(LIST_CASES)]
)
def test_lists_grown_in_staged_loops_are_buffers(fn, args):
    """Values, dtypes, shapes and Python item types exactly eager's, whether the count is known
    while compiling (sliced on the device) or only when the loop runs (sliced after the call)."""
    same(*both(fn, *args))


def test_list_buffers_have_the_loops_bound():
    code = autoconv.function(kept_positive, backend="jax").get_concrete_function(np.ones(7)).code
    assert "jnp.zeros((7,)" in code and "append(" in code and "while_loop(" in code


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-3, 3), max_size=6), st.integers(-3, 3))
def test_filtered_lists_agree_with_eager(values, limit):
    def f(x, limit):
        kept, firsts = [], []
        for v in x:
            if v > limit:
                kept.append(v * 2)
            elif v == limit:
                break
            firsts.append(v)
        return kept, np.array(firsts, dtype=x.dtype), len(kept)

    x = np.array(values, dtype=np.int64)
    same(*both(f, x, np.int64(limit)))


def test_a_data_dependent_stack_on_the_device_names_the_list():
    def f(x):
        kept = []
        for v in x:
            if v > 0:
                kept.append(v)
        return np.sum(np.array(kept)) * 2  # reduced: the buffer's first `count` rows

    for x in (np.array([1.0, -1.0]), np.array([-1.0, -1.0])):
        same(autoconv.function(f, backend="jax")(x), f(x))

    def g(x):
        kept = []
        for v in x:
            if v > 0:
                kept.append(v)
        return np.array(kept) * 2  # a result of data-dependent shape, computed on the device

    with pytest.raises(LoweringError, match=r"test_jax_backend.py:\d+.*list `kept`.*depends"):
        autoconv.function(g, backend="jax")(np.array([1.0, -1.0]))


# --- loops over an empty axis -------------------------------------------------------------------


def sum_by_index(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    return s


def best_or_zero(xs):
    best = None
    for v in xs:
        if best is None or v > best:
            best = v
    if best is None:
        return 0.0
    return best


@pytest.mark.parametrize("fn", [sum_by_index, best_or_zero])
@pytest.mark.parametrize("x", [np.zeros(0), np.array([2.0, 5.0, 1.0])])
def test_a_loop_over_an_empty_axis_returns_as_eager(fn, x):
    same(*both(fn, x))


def test_ints_made_floats_are_computed_in_float64_as_numpy_does():
    """NumPy divides int32 values, and takes their sqrt or exp, in float64; JAX would in
    float32 (2.799999952316284 for 14 / 5)."""

    def floats_of_ints(x):
        return x / 5, np.sqrt(x), np.exp(x), x / x

    x = np.array([3, 14], np.int32)
    got = autoconv.function(floats_of_ints, backend="jax")(x)
    for g, e in zip(got, floats_of_ints(x)):
        assert g.dtype == e.dtype == np.float64
        np.testing.assert_allclose(g, e, rtol=1e-15)
