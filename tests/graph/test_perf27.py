"""perf27: the fast path's guards recognize tuples, lists and namedtuples of arrays and Python
values (a list of `(w, b)` tuples no longer computes and hashes its key on every call); a call
that does not fit them takes the general path and traces as before."""

import collections

import numpy as np
import pytest

import autoconv
from autoconv.functions.dispatch import MISS
from autoconv.runtime import pure_steps
from tests.graph.agreement import BACKENDS, follows_the_rule, same

Pair = collections.namedtuple("Pair", "w b")


def mlp(x, params):
    for w, b in params:
        x = np.tanh(x @ w + b)
    return x


def scaled(x, opts):
    if opts[1]:
        return x * opts[0]
    return x - opts[0]


def layers(x, pairs):
    for p in pairs:
        x = x @ p.w + p.b
    return x


RNG = np.random.default_rng(27)
X = RNG.normal(size=(4, 8))
PARAMS = [(RNG.normal(size=(8, 8)), RNG.normal(size=8)) for _ in range(3)]


def _device(value, backend):
    """`value` with its arrays as JAX arrays on the JAX backend (the fast path's second kind)."""
    if backend != "jax":
        return value
    import jax

    return jax.tree_util.tree_map(jax.device_put, value)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_list_of_tuples_of_arrays_takes_the_guards(backend):
    fn = autoconv.function(mlp, backend=backend)
    want = mlp(X, PARAMS)
    assert same(want, fn(X, PARAMS))
    assert same(want, fn(X, PARAMS))
    args = (X, PARAMS)
    assert same(want, fn._dispatch(args))  # recognized: no key computed
    if backend == "jax":
        kept = autoconv.function(mlp, backend=backend, keep_on_device=True)
        dev = (_device(X, backend), _device(PARAMS, backend))
        kept(*dev)
        assert np.allclose(np.asarray(kept._dispatch(dev)), want)
        assert kept.tracing_count == 1
    assert fn.tracing_count == 1


@pytest.mark.filterwarnings("ignore::autoconv.RetracingWarning")
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_different_structure_misses_the_guards_and_traces(backend):
    fn = autoconv.function(mlp, backend=backend)
    fn(X, PARAMS)
    fn(X, PARAMS)
    others = [
        PARAMS[:2],  # shorter
        PARAMS + PARAMS[:1],  # longer
        tuple(PARAMS),  # a tuple, not a list
        [list(p) for p in PARAMS],  # lists inside
        [(w.astype(np.float32), b) for w, b in PARAMS],  # another dtype
        [(PARAMS[0][0][:, :6], PARAMS[0][1][:6]), (PARAMS[1][0][:6, :6], PARAMS[1][1][:6])],
        [(w, float(b[0])) for w, b in PARAMS],  # a Python float for an array
    ]
    for other in others:
        assert fn._dispatch((X, other)) is MISS
        try:
            want = ("ok", mlp(X, other))
        except Exception as e:  # noqa: BLE001 - an outcome
            want = ("raise", type(e))
        if want[0] == "ok":
            assert same(want[1], fn(X, other))
        else:
            with pytest.raises(want[1]):
                fn(X, other)
    assert same(mlp(X, PARAMS), fn(X, PARAMS))


@pytest.mark.parametrize("backend", BACKENDS)
def test_python_values_in_a_tuple_are_guarded_by_value(backend):
    fn = autoconv.function(scaled, backend=backend)
    for opts in [(2, True), (2, True), (3, True), (2.5, False), (2, True), (3, True)]:
        assert same(scaled(X, opts), fn(X, opts))
    assert fn.tracing_count == 3
    assert fn._dispatch((X, (2, True))) is not MISS
    assert fn._dispatch((X, (2, 1))) is MISS  # 1 is not True: another key
    assert fn._dispatch((X, (4, True))) is MISS
    assert fn._dispatch((X, [2, True])) is MISS
    assert same(scaled(X, [2, 1]), fn(X, [2, 1]))
    assert fn.tracing_count == 4


@pytest.mark.parametrize("backend", BACKENDS)
def test_namedtuples_are_guarded_by_their_class(backend):
    fn = autoconv.function(layers, backend=backend)
    pairs = [Pair(w, b) for w, b in PARAMS]
    want = layers(X, pairs)
    assert same(want, fn(X, pairs))
    assert same(want, fn._dispatch((X, pairs)))
    plain = [(w, b) for w, b in PARAMS]
    assert fn._dispatch((X, plain)) is MISS  # tuples are another key: no `.w`
    with pytest.raises(AttributeError):
        fn(X, plain)


def test_the_guard_of_nested_items_binds_each_item_once():
    fn = autoconv.function(mlp)
    fn(X, PARAMS[:2])
    fn(X, PARAMS[:2])
    source = fn._dispatch.source
    assert "len(a1) == 2" in source
    assert "a1_1_1 := a1_1[1]" in source
    assert "run_0(a0, a1_0_0, a1_0_1, a1_1_0, a1_1_1)" in source


def test_larger_structures_are_matched_by_closures():
    # (Written out, a guard of 40 arrays took Python's compiler about 10 ms at every trace.)
    fn = autoconv.function(mlp)
    params = PARAMS * 7  # 21 tuples
    want = mlp(X, params)
    assert same(want, fn(X, params))
    assert same(want, fn._dispatch((X, params)))
    assert "M0_1(a1, (L0_1 := []))" in fn._dispatch.source
    assert "run_0(a0, *L0_1)" in fn._dispatch.source
    for other in (params[:-1], params[:-1] + [list(params[-1])], params[:-1] + [(X, X[0])]):
        assert fn._dispatch((X, other)) is MISS
    concrete = fn.get_concrete_function(X, params)
    assert same(want, concrete(X, params))  # its own guards, made at its first direct call
    assert same(want, concrete(X, params))
    assert fn.tracing_count == 1


# --- origins under a staged `break` (graph.origin.pinned) ------------------------------------


def deep_break(x, n):
    for _i in range(n):
        if x.sum() > 1000.0:
            break
        x = x * 1.5
    return x


def deep_mismatch(x, n):
    for i in range(n):
        if x.sum() > 1000.0:
            break
        if i == 30:
            x = x @ np.ones((5, 5))  # a shape error at the 31st nested step
        x = x * 1.5
    return x


def _line_of(fn, text):
    import inspect

    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_nested_steps_of_a_break_keep_their_origins(backend, monkeypatch):
    # (the unrolled nesting: a loop staged early once its state settles has none)
    monkeypatch.setattr(pure_steps, "MIN_LEFT", 10**9)
    x = np.ones(3)
    fn = autoconv.function(deep_break, backend=backend)
    assert same(deep_break(x, 40), fn(x, 40))
    graph = fn.get_concrete_function(x, 40).graph
    loop_line, body_line = _line_of(deep_break, "for _i in"), _line_of(deep_break, "x = x * 1.5")
    if_line = _line_of(deep_break, "if x.sum()")
    conds = collections.Counter(n.origin[1] for n in graph.walk() if n.kind == "cond")
    # The user's `if` in each of the 40 steps; each remaining step's staged `if` is the loop's,
    # at any depth of the nesting (39: none after the last step).
    assert conds == {if_line: 40, loop_line: 39}
    stops = [n for n in graph.walk() if n.kind == "call"]  # `not stop` of each step
    assert len(stops) == 39 and all(n.origin[1] == loop_line for n in stops)
    muls = [n for n in graph.walk() if n.op == "*"]
    assert len(muls) >= 40 and all(n.origin[1] == body_line for n in muls)


def test_an_error_deep_in_the_nesting_names_its_line():
    x = np.ones(3)
    with pytest.raises(autoconv.AutoconvError) as info:
        autoconv.function(deep_mismatch)(x, 40)
    assert f"test_perf27.py:{_line_of(deep_mismatch, 'x = x @ np.ones')}" in str(info.value)


# --- item writes: the bounds are checked once (mutation.assign_item) ---------------------------


def running_sum(x, extra):
    out = np.zeros_like(x)
    acc = 0.0
    for i in range(x.shape[0] + extra):
        acc = acc + x[i % x.shape[0]]
        out[i] = acc
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("extra", [0, 1])
def test_item_writes_past_the_end_raise_index_error_as_eagerly(backend, extra):
    follows_the_rule(running_sum, np.arange(6.0), extra, backend=backend, text=True)
