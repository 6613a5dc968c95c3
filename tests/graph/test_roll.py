"""The `roll` pass: a Python loop unrolled while tracing runs as one staged loop where its steps
are the same computation, with the results of the unrolled graph and of eager NumPy."""

import numpy as np
import pytest

import autoconv
from autoconv.graph.passes import roll
from autoconv.runtime import pure_steps

UNROLLED = {"roll": False}


def _loops(concrete) -> int:
    return sum(1 for n in concrete.optimized_graph.walk() if n.kind == "while")


def _check(fn, *args, backend="numpy", loops=None):
    """Runs `fn` eagerly, traced with the passes and traced with the loop unrolled: everything
    equal (values bit for bit, dtypes, shapes, Python types). Returns the rolled concrete."""
    want = fn(*args)
    rolled = autoconv.function(fn, backend=backend)
    unrolled = autoconv.function(fn, backend=backend, optimize=UNROLLED)
    for got in (rolled(*args), unrolled(*args)):
        assert type(got) is type(want)
        got_a, want_a = np.asarray(got), np.asarray(want)
        assert got_a.dtype == want_a.dtype and got_a.shape == want_a.shape
        if backend == "numpy":
            np.testing.assert_array_equal(got_a, want_a)
        else:
            np.testing.assert_allclose(got_a, want_a, rtol=1e-12)
    concrete = rolled.get_concrete_function(*args)
    if loops is not None:
        assert _loops(concrete) == loops
    return concrete


def gradient_descent(steps):
    def gd(x, y, w):
        n = x.shape[0]
        for _ in range(steps):
            err = y - x @ w
            grad = x.T @ err / n
            w = w - 0.01 * grad
        return w

    return gd


RNG = np.random.default_rng(0)
X, Y, W = RNG.random((30, 5)), RNG.random(30), np.zeros(5)


@pytest.mark.parametrize("steps", [0, 1, 2, 3, 50])
def test_gradient_descent_rolls_from_two_steps(steps):
    _check(gradient_descent(steps), X, Y, W, loops=1 if steps >= 2 else 0)


def test_a_thousand_steps_are_one_loop_node(monkeypatch):
    # The pass itself: a loop whose state settles is staged while it is traced
    # (runtime/pure_steps.py, tests/graph/test_roll12.py) unless the loop is too short.
    monkeypatch.setattr(pure_steps, "MIN_LEFT", 10**9)
    concrete = _check(gradient_descent(1000), X, Y, W, loops=1)
    traced = len(list(concrete.graph.walk()))
    optimized = len(list(concrete.optimized_graph.walk()))
    assert traced >= 7000 and optimized < 20
    assert "while" in concrete.optimized_graph.as_text()
    assert "while " in concrete.code
    summary = concrete.pass_summary()
    assert summary.splitlines()[0].startswith("roll")
    assert "digraph" in concrete.optimized_graph.to_dot()


@pytest.mark.parametrize("early", [True, False])
def test_the_rolled_graph_does_not_grow_with_the_steps(monkeypatch, early):
    if not early:
        monkeypatch.setattr(pure_steps, "MIN_LEFT", 10**9)
    sizes = []
    for steps in (10, 100, 400):
        c = autoconv.function(gradient_descent(steps)).get_concrete_function(X, Y, W)
        sizes.append(len(list(c.optimized_graph.walk())))
    # (staged early, the first step, which sets the temporaries, stays before the loop)
    assert sizes[1] == sizes[2] and (early or sizes[0] == sizes[1]) and sizes[2] < 20


def test_an_advancing_index_becomes_a_counter():
    def f(x):
        s = x[0] * 0
        for i in range(2, 20, 3):
            s = s + x[i] * 2 + x[i + 1, 1:].sum()
        return s

    _check(f, RNG.random((22, 3)), loops=1)


def test_index_from_the_end_and_two_strides():
    def f(x):
        s = np.zeros(3)
        for i in range(1, 6):
            s = s * 0.5 + x[-i] - x[2 * i]
        return s

    _check(f, RNG.random((12, 3)), loops=1)


def test_a_first_step_that_differs_stays_unrolled_and_the_rest_rolls():
    def f(x, w):
        for i in range(6):
            if i == 0:  # a Python test: only the first step computes this
                w = w + 1.0
            w = np.tanh(x @ w)
        return w

    c = _check(f, RNG.random((4, 4)), RNG.random(4), loops=1)
    assert "tanh" in c.code


def test_a_last_step_that_differs():
    def f(x, w):
        for i in range(5):
            w = np.tanh(x @ w)
            if i == 4:
                w = w * 2.0
        return w

    _check(f, RNG.random((4, 4)), RNG.random(4), loops=1)


def test_a_python_list_of_different_arrays_does_not_roll():
    layers = [RNG.random((4, 4)) for _ in range(5)]

    def f(x):
        for i in range(len(layers)):
            x = np.maximum(layers[i] @ x, 0.0)
        return x

    _check(f, RNG.random(4), loops=0)


def test_nested_range_loops():
    def f(x):
        s = x * 0
        for i in range(3):
            for j in range(4):
                s = s + x[j] * (i + 1)
        return s

    _check(f, RNG.random((4, 2)))


def test_prints_keep_the_loop_unrolled(capsys):
    def f(x):
        for i in range(3):
            x = x * 2.0
            autoconv.print("step", i, x)
        return x

    x = np.ones(2)
    f(x)
    want = capsys.readouterr().out.replace("[", "").replace("]", "")
    c = _check(f, x, loops=0)
    capsys.readouterr()
    autoconv.function(f)(x)
    assert capsys.readouterr().out.replace("[", "").replace("]", "") == want
    assert c is not None


def test_values_read_after_the_loop_from_its_last_step():
    def f(x, w):
        for _ in range(6):
            err = x @ w - 1.0
            w = w - 0.1 * err
        return w, err  # `err` of the last step is read after the loop

    _check(f, np.eye(3) * 0.5, np.ones(3), loops=1)


def test_a_dtype_that_changes_in_the_first_step():
    def f(w):
        for _ in range(5):
            w = w * 0.5  # int64 in the first step, float64 after
        return w

    _check(f, np.arange(4), loops=1)


def test_two_steps_back_do_not_roll():
    def fib(a, b):
        for _ in range(8):
            a, b = b, a + b
        return a, b

    _check(fib, np.ones(2), np.ones(2))


def test_weak_python_scalars_in_the_body():
    def f(x):
        for _ in range(4):
            x = x * 2 + 1
        return x

    _check(f, np.float32(1.5), loops=1)
    _check(f, np.ones(3, np.float32), loops=1)


@pytest.mark.parametrize("steps", [0, 1, 2, 30])
def test_the_jax_backend_runs_the_rolled_loop(steps):
    pytest.importorskip("jax")
    _check(gradient_descent(steps), X, Y, W, backend="jax", loops=1 if steps >= 2 else 0)


def test_the_jax_backend_with_an_advancing_index():
    pytest.importorskip("jax")

    def f(x):
        s = x[0] * 0
        for i in range(2, 20, 3):
            s = s + x[i] * 2 - x[-i]
        return s

    _check(f, RNG.random((22, 3)), backend="jax", loops=1)


def test_variable_updates_and_list_appends_keep_the_loop_unrolled():
    v = autoconv.Variable(np.zeros(2))

    def f(x):
        out = []
        for _ in range(4):
            x = x * 2.0
            v.assign_add(x)
            out.append(x)
        return np.stack(out)

    x = np.ones(2)
    want = f(x)
    v.assign(np.zeros(2))
    g = autoconv.function(f)
    np.testing.assert_array_equal(g(x), want)
    np.testing.assert_array_equal(v.numpy(), want.sum(axis=0))
    assert _loops(g.get_concrete_function(x)) == 0


@pytest.mark.parametrize("backend", ["numpy", "jax"])
def test_random_draws_roll_and_draw_in_order(backend):
    # A draw is the same call on the same generator in every step: the loop makes the calls
    # in the unrolled copies' order, so the numbers and the generator's state are eager's.
    pytest.importorskip(backend)

    def f(x, seed):
        rng = np.random.default_rng(seed)
        for _ in range(30):
            x = x + rng.random(2)
        return x + rng.normal()

    _check(f, np.zeros(2), 7, backend=backend, loops=1)


def test_making_a_generator_in_each_step_stays_unrolled():
    def f(x):
        for _ in range(4):
            x = x + np.random.default_rng(3).random(2)
        return x

    _check(f, np.zeros(2), loops=0)


def test_every_step_read_after_the_loop_stays_unrolled():
    def f(x):
        xs = []  # a Python list: each step's value is read after the loop
        for _ in range(6):
            x = x * 0.5 + 1
            xs.append(x)
        return np.stack(xs)

    _check(f, np.ones(3), loops=0)


def test_a_value_of_the_middle_step_read_after_the_loop():
    def f(x):
        xs = []
        for _ in range(8):
            x = np.sin(x) + 1.0
            xs.append(x)
        return xs[3] + x

    _check(f, np.ones(3), loops=1)


def _relu_layers(x, ws):
    for w in ws:
        x = np.maximum(x @ w, 0.0)
    return x


@pytest.mark.parametrize("backend", ["numpy", "jax"])
def test_a_python_list_of_arrays_rolls_over_their_stack(backend, monkeypatch):
    if backend == "jax":
        pytest.importorskip("jax")
    # (JAX stacks the items at every call: a run this short stays unrolled there, see
    # test_roll_lists.py; here the stack itself is under test.)
    monkeypatch.setattr(roll, "STACKED_MIN", {})
    ws = [RNG.random((4, 4)) - 0.4 for _ in range(7)]
    concrete = _check(_relu_layers, RNG.random((2, 4)), ws, backend=backend, loops=1)
    stacks = [n for n in concrete.optimized_graph.walk() if n.op == "stack"]
    assert len(stacks) == 1 and stacks[0].outputs[0].shape == (7, 4, 4)
    # The NumPy backend reads the items themselves (stacking would copy them every call).
    assert ("stack(" in concrete.code) == (backend == "jax")


def test_the_users_own_stack_of_the_items_stays_an_array(tmp_path):
    def f(x, ws):
        for w in ws:
            x = np.maximum(x @ w, 0.0)
        return x, np.stack(ws), ws[2]

    ws = [RNG.random((3, 3)) for _ in range(4)]
    x = RNG.random(3)
    want = f(x, ws)
    traced = autoconv.function(f)
    got = traced(x, ws)
    assert [type(v) for v in got] == [np.ndarray] * 3
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    assert _loops(traced.get_concrete_function(x, ws)) == 1
    traced.save(tmp_path / "f.acv")  # the rolled stack's attribute is saved and loaded
    for g, w in zip(autoconv.load(tmp_path / "f.acv")(x, ws), want):
        np.testing.assert_array_equal(g, w)


def test_list_items_of_different_shapes_stay_unrolled():
    ws = [RNG.random((4, 4)), RNG.random((4, 4)), RNG.random((4, 3)), RNG.random((3, 3))]
    _check(_relu_layers, RNG.random((2, 4)), ws, loops=1)  # the first two roll, not the rest
    _check(_relu_layers, RNG.random((2, 4)), ws[1:], loops=0)


def test_list_items_of_different_dtypes_stay_unrolled():
    ws = [RNG.random((3, 3)), RNG.random((3, 3)).astype(np.float32), RNG.random((3, 3))]
    _check(_relu_layers, RNG.random((2, 3)), ws, loops=0)


def test_two_lists_zipped_and_a_shared_item():
    def f(x, ws, bs):
        for w, b in zip(ws, bs):
            x = np.tanh(x @ w + b) + ws[0][0]
        return x

    ws = [RNG.random((3, 3)) for _ in range(5)]
    bs = [RNG.random(3) for _ in range(5)]
    concrete = _check(f, RNG.random(3), ws, bs, loops=1)
    assert sum(1 for n in concrete.optimized_graph.walk() if n.op == "stack") == 2


def test_an_item_also_read_as_the_next_steps_shared_value():
    a, b = RNG.random((3, 3)), RNG.random((3, 3))

    def f(x, ws):
        for w in ws:
            x = np.sin(x @ w + ws[1])
        return x

    # Step 0 reads a and b (b shared), step 1 reads b as its item and as the shared value.
    _check(f, RNG.random(3), [a, b, a, b, a])


def test_the_same_array_in_every_step_needs_no_stack():
    def f(x, a):
        return _relu_layers(x, [a, a, a, a])

    concrete = _check(f, RNG.random(3), RNG.random((3, 3)), loops=1)
    assert not any(n.op == "stack" for n in concrete.optimized_graph.walk())


# -- steps that build an array from items (`np.array([...])`, `np.stack([...])`) --


def euler(x):
    p, v = x[0], x[1]
    for _ in range(40):
        s = np.array([p + 0.1 * v, v - 0.1 * p])
        p, v = s[0], s[1]
    return np.array([p, v])


def stack_rows(m):
    for _ in range(12):
        m = np.stack([m[1] * 0.5, m[0] + m[1]])
    return m


def int_items(a):
    for _ in range(10):
        a = np.array([a[1], a[0] + a[1]])
    return a


def with_constants(x):
    for _ in range(8):
        x = np.array([x[0] * 0.5, 1.0, x[2] - x[0]]) + x
    return x


def in_a_branch(x, flag):
    if flag:
        for _ in range(9):
            x = np.array([x[1], x[0] - x[1]], dtype=np.float32)
    return x


ARRAY_PROGRAMS = [
    (euler, (np.array([1.0, 0.0]),)),
    (stack_rows, (np.arange(6.0).reshape(2, 3),)),
    (int_items, (np.array([0, 1]),)),
    (with_constants, (np.array([1.0, 2.0, 3.0]),)),
    (in_a_branch, (np.array([1.5, 0.5], np.float32), True)),
]


@pytest.mark.parametrize("backend", ["numpy", "jax"])
@pytest.mark.parametrize("fn, args", ARRAY_PROGRAMS, ids=[p[0].__name__ for p in ARRAY_PROGRAMS])
def test_steps_building_an_array_from_items_roll(fn, args, backend):
    pytest.importorskip(backend)
    _check(fn, *args, backend=backend, loops=1)
