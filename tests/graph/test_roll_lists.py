"""perf11: a loop over a Python list of arrays on the JAX backend, where the stack of the items
is an operation of every call, rolls only when long (`roll.STACKED_MIN`); the guard of a large
list of arrays flattens it with JAX's pytree flattening (`dispatch._flat_matcher`) and still
recognizes exactly the structure, types, dtypes and shapes it was traced for."""

import collections

import numpy as np
import pytest

import autoconv
from autoconv.functions import dispatch
from autoconv.functions.dispatch import MISS
from autoconv.graph.passes import roll
from tests.graph.agreement import BACKENDS, same

jax = pytest.importorskip("jax")

Pair = collections.namedtuple("Pair", "w b")
RNG = np.random.default_rng(11)
X = RNG.normal(size=(3, 4))
PARAMS = [(RNG.normal(size=(4, 4)) * 0.5, RNG.normal(size=4)) for _ in range(21)]


def mlp(x, params):
    for w, b in params:
        x = np.tanh(x @ w + b)
    return x


def pairs(x, params):
    for p in params:
        x = np.tanh(x @ p.w + p.b)
    return x


def _count(concrete, op=None, kind=None) -> int:
    return sum(
        1
        for n in concrete.optimized_graph.walk()
        if (op is None or n.op == op) and (kind is None or n.kind == kind)
    )


def _device(value):
    from autoconv.backends.jax.program import x64

    with x64():  # float64 stays float64
        return jax.tree_util.tree_map(jax.device_put, value)


# --- rolling a list's items -------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_short_list_rolls_on_numpy_and_stays_unrolled_on_jax(backend):
    fn = autoconv.function(mlp, backend=backend)
    assert same(mlp(X, PARAMS), fn(X, PARAMS))
    concrete = fn.get_concrete_function(X, PARAMS)
    rolled = backend == "numpy"  # (its items are read in place: no stack per call)
    assert _count(concrete, kind="while") == int(rolled)
    assert _count(concrete, op="tanh") == (1 if rolled else 21)
    assert _count(concrete, op="stack") == (2 if rolled else 0)  # the weights', the biases'


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_long_list_rolls_on_both_backends(backend):
    params = [(RNG.normal(size=(2, 2)) * 0.5, RNG.normal(size=2)) for _ in range(200)]
    x = RNG.normal(size=2)
    fn = autoconv.function(mlp, backend=backend)
    assert same(mlp(x, params), fn(x, params))
    concrete = fn.get_concrete_function(x, params)
    assert _count(concrete, kind="while") == 1
    assert _count(concrete, op="stack") == 2  # the weights' and the biases'


def test_the_threshold_counts_the_operations_of_the_run(monkeypatch):
    # 21 steps of 3 operations: 63; they roll once the threshold is under that.
    monkeypatch.setattr(roll, "STACKED_MIN", {"jax": 62})
    fn = autoconv.function(mlp, backend="jax")
    assert same(mlp(X, PARAMS), fn(X, PARAMS))
    assert _count(fn.get_concrete_function(X, PARAMS), kind="while") == 1
    monkeypatch.setattr(roll, "STACKED_MIN", {"jax": 63})
    fn = autoconv.function(mlp, backend="jax")
    assert same(mlp(X, PARAMS), fn(X, PARAMS))
    assert _count(fn.get_concrete_function(X, PARAMS), kind="while") == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_loop_over_indices_of_an_array_still_rolls(backend):
    def f(x, ws):
        for i in range(ws.shape[0]):
            x = np.tanh(x @ ws[i])
        return x

    ws = RNG.normal(size=(21, 4, 4)) * 0.5
    fn = autoconv.function(f, backend=backend)
    assert same(f(X, ws), fn(X, ws))
    assert _count(fn.get_concrete_function(X, ws), kind="while") == 1


# --- the guard of a large list of arrays ------------------------------------------------------


@pytest.mark.parametrize(
    "backend, kind", [("numpy", "numpy"), ("jax", "numpy"), ("jax", "jax"), ("jax", "mixed")]
)
def test_the_flat_guard_recognizes_the_traced_structure(backend, kind):
    params = PARAMS
    if kind == "jax":
        params = _device(PARAMS)
    elif kind == "mixed":
        params = [(w, b) for (w, _), (_, b) in zip(_device(PARAMS), PARAMS)]  # the closures'
    keep = kind != "numpy"
    fn = autoconv.function(mlp, backend=backend, keep_on_device=keep)
    want = mlp(X, PARAMS)
    fn(X, params)
    assert fn._dispatch.__globals__["M0_1"].__name__ == "match"
    got = fn._dispatch((X, params))
    assert got is not MISS and np.allclose(np.asarray(got), want)
    assert fn.tracing_count == 1


@pytest.mark.filterwarnings("ignore::autoconv.RetracingWarning")
@pytest.mark.parametrize("on_device", [False, True])
def test_the_flat_guard_misses_every_other_structure(on_device):
    fn = autoconv.function(mlp, backend="jax")
    put = _device if on_device else (lambda v: v)
    fn(X, put(PARAMS))
    w0, b0 = PARAMS[0]
    others = [
        PARAMS[:-1],  # shorter
        PARAMS + PARAMS[:1],  # longer
        tuple(PARAMS),  # a tuple, not a list
        [list(p) for p in PARAMS],  # lists inside
        [Pair(w, b) for w, b in PARAMS],  # namedtuples inside
        [(w0.astype(np.float32), b0), *PARAMS[1:]],  # another dtype
        [(w0[:3, :3], b0[:3]), *PARAMS[1:]],  # another shape
        [(w0, b0, b0), *PARAMS[1:]],  # a longer item
        [(w0, None), *PARAMS[1:]],  # None, which JAX flattens to nothing
        [(w0, float(b0[0])), *PARAMS[1:]],  # a Python float for an array
    ]
    for other in others:
        assert fn._dispatch((X, put(other))) is MISS, other
    with pytest.warns(PendingDeprecationWarning):
        subclass = np.matrix(w0)
    assert fn._dispatch((X, [(subclass, b0), *PARAMS[1:]])) is MISS
    try:
        want = ("ok", mlp(X, others[0]))
    except Exception as e:  # noqa: BLE001 - an outcome
        want = ("raise", type(e))
    assert same(want[1], fn(X, put(others[0])))
    assert same(mlp(X, PARAMS), fn(X, put(PARAMS)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_namedtuples_in_the_flat_guard(backend):
    params = [Pair(w, b) for w, b in PARAMS]
    fn = autoconv.function(pairs, backend=backend)
    assert same(pairs(X, params), fn(X, params))
    assert fn._dispatch.__globals__["M0_1"].__name__ == "match"
    assert same(pairs(X, params), fn._dispatch((X, params)))
    assert fn._dispatch((X, [tuple(p) for p in params])) is MISS


def test_a_container_jax_flattens_in_another_order_is_flattened_as_the_key():
    class Backwards(collections.namedtuple("Backwards", "w b")):
        __slots__ = ()

    jax.tree_util.register_pytree_node(
        Backwards, lambda p: ((p.b, p.w), None), lambda _, c: Backwards(c[1], c[0])
    )
    jarray = dispatch._jax_array()
    item = (Backwards, (("A", np.dtype("f8"), (2,)), ("A", np.dtype("i8"), (2,))))
    items = [Backwards(np.zeros(2), np.arange(2)) for _ in range(9)]
    # Two levels: flattened item by item, in the key's order (w, then b).
    match = dispatch._flat_matcher((list, (item,) * 9), jarray, True)
    seen: list = []
    assert match(items, seen) and seen[0] is items[0].w and seen[1] is items[0].b
    # Deeper: JAX's flattening, which would give b first, is not used; the closures are.
    deeper = (list, ((tuple, (item,)),) * 9)
    assert dispatch._flat_matcher(deeper, jarray, True) is None
    seen = []
    assert dispatch._matcher(deeper, jarray, True)([(p,) for p in items], seen)
    assert seen[0] is items[0].w


def test_deeper_structures_take_jax_flattening():
    key = (list, ((tuple, ((tuple, (("A", np.dtype("f8"), (2,)),)),)),) * 9)
    match = dispatch._flat_matcher(key, dispatch._jax_array(), True)
    value = [((np.zeros(2),),) for _ in range(9)]
    seen: list = []
    assert match(value, seen) and len(seen) == 9 and seen[3] is value[3][0][0]
    assert not match([((np.zeros(2),),)] * 8 + [([np.zeros(2)],)], [])  # a list inside
    assert not match([((np.zeros(3),),) for _ in range(9)], [])  # another shape
