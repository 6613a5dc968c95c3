"""A loaded function, or a ConcreteFunction, called inside another `autoconv.function`: its
graph joins the trace, and the composed graph returns what the eager original returns."""

import numpy as np
import pytest

import autoconv

BACKENDS = ["numpy", "jax"]
INPUTS = [
    np.array([1.0, 2.0, 3.0], np.float32),
    np.array([-4.0, 0.5, 1.0], np.float32),
    np.array([0.0, 0.0, 0.0], np.float32),
]


def _jax_or_skip(backend):
    if backend == "jax":
        pytest.importorskip("jax")


def inner(x, k):
    if np.sum(x) > 0:
        y = x * k
    else:
        y = -x
    return y, {"max": np.max(y)}


def outer_eager(x, f):
    y, d = f(x, 2.0)
    total = np.float32(0)
    for v in y:
        if v > 1:
            total += v
    return total + d["max"], y[:2]


def _check(expected, got):
    assert type(got) is type(expected)
    for e, g in zip(expected, got):
        assert type(g) is type(e) and g.dtype == e.dtype and np.shape(g) == np.shape(e)
        np.testing.assert_array_equal(g, e)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_loaded_function_inside_a_traced_one(tmp_path, backend):
    _jax_or_skip(backend)
    autoconv.function(inner).save(tmp_path / "inner.acg", signatures=[(INPUTS[0], 2.0)])
    loaded = autoconv.load(tmp_path / "inner.acg")

    @autoconv.function(backend=backend)
    def outer(x):
        return outer_eager(x, loaded)

    for x in INPUTS:
        _check(outer_eager(x, inner), outer(x))
    assert outer.tracing_count == 1  # one graph holds the loaded one's branches
    listing = outer.get_concrete_function(INPUTS[0]).graph.as_text()
    assert "cond(" in listing


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_concrete_function_inside_a_traced_one(backend):
    _jax_or_skip(backend)
    concrete = autoconv.function(inner).get_concrete_function(INPUTS[0], 2.0)

    @autoconv.function(backend=backend)
    def outer(x):
        return outer_eager(x, concrete)

    for x in INPUTS:
        _check(outer_eager(x, inner), outer(x))


def test_a_loaded_functions_variables_and_prints_run_on_every_call(tmp_path, capsys):
    count = autoconv.Variable(0.0, dtype=np.float32, name="count")

    @autoconv.function
    def step(x):
        count.assign_add(np.sum(x))
        autoconv.print("step", count)
        return x + count

    x = np.ones(2, np.float32)
    step.save(tmp_path / "step.acg", signatures=[x])
    loaded = autoconv.load(tmp_path / "step.acg")

    @autoconv.function
    def twice(x):
        return loaded(loaded(x))

    def eager_twice(x, state):
        for _ in range(2):
            state[0] += np.sum(x)
            print("step", state[0])
            x = x + state[0]
        return x

    state = [np.float32(0)]
    expected = [eager_twice(x, state), eager_twice(x, state)]
    printed = capsys.readouterr().out
    got = [twice(x), twice(x)]
    for e, g in zip(expected, got):
        assert g.dtype == e.dtype and g.tolist() == e.tolist()
    assert capsys.readouterr().out == printed
    assert loaded.variables[0].numpy() == state[0]  # the loaded function's own Variable
    assert count.numpy() == 0.0  # the original's is not the file's


def test_arguments_that_fit_no_saved_signature_are_named(tmp_path):
    autoconv.function(inner).save(tmp_path / "inner.acg", signatures=[(INPUTS[0], 2.0)])
    loaded = autoconv.load(tmp_path / "inner.acg")
    concrete = autoconv.function(inner).get_concrete_function(INPUTS[0], 2.0)

    for f in (loaded, concrete):

        @autoconv.function
        def outer(x, f=f):
            return f(x, 2.0)

        with pytest.raises(
            TypeError,
            match=r"parameter `x` expects float32 Tensor, shape=\(3,\), "
            r"got float64 Tensor, shape=\(3,\)",
        ):
            outer(INPUTS[0].astype(np.float64))


def test_a_composed_graph_saves_and_loads(tmp_path):
    autoconv.function(inner).save(tmp_path / "inner.acg", signatures=[(INPUTS[0], 2.0)])
    loaded = autoconv.load(tmp_path / "inner.acg")

    @autoconv.function
    def outer(x):
        return outer_eager(x, loaded)

    outer.save(tmp_path / "outer.acg", signatures=[INPUTS[0]])
    again = autoconv.load(tmp_path / "outer.acg")
    for x in INPUTS:
        _check(outer_eager(x, inner), again(x))


def test_a_loaded_function_that_changes_its_arguments_says_so_inside_a_trace(tmp_path):
    @autoconv.function
    def update(params, g):
        params["w"] = params["w"] - g
        return np.sum(params["w"])

    params = {"w": np.ones(3)}
    update.save(tmp_path / "u.acg", signatures=[(params, np.ones(3))])
    loaded = autoconv.load(tmp_path / "u.acg")
    assert loaded(params, np.ones(3)) == 0.0 and params["w"].tolist() == [0.0] * 3

    @autoconv.function
    def outer(x):
        return loaded({"w": x}, x)

    with pytest.raises(
        autoconv.AutoconvError,
        match=r"test_compose.py:\d+: update, a loaded function that changes its arguments, "
        "cannot be called",
    ):
        outer(np.ones(3))
