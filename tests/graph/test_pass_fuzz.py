"""Generated programs (seeded, so reproducible) through every pass setting: chains of
ufuncs, operators, identities the passes simplify, repeated subexpressions, constants of known
shape, views and reductions, over float and integer arrays with signed zeros, infinities and
NaNs. Each must give eager NumPy's results bit for bit, with the same sharing of memory."""

import random
import warnings

import numpy as np
import pytest

import autoconv
from autoconv.graph.errors import StagingError
from tests.graph.test_differential import _aliasing, _flat, assert_identical

pytestmark = pytest.mark.usefixtures("pass_settings")

UNARY = [
    "-{a}",
    "np.sin({a})",
    "np.exp({a})",
    "np.abs({a})",
    "({a}).T.T",
    "({a}) * 1",
    "({a}) + 0",
    "({a}) - 0",
    "({a}) ** 2",
    "np.sqrt(np.abs({a}))",
    "({a}).astype(({a}).dtype)",
    "np.negative(-({a}))",
    "np.maximum(0.0, {a})",
    "({a}) * 0.5",
    "1 - ({a})",
    "({a}) + np.ones_like({a})",
    "({a}) / 1",
]
BINARY = [
    "({a}) + ({b})",
    "({a}) - ({b})",
    "({a}) * ({b})",
    "np.maximum({a}, {b})",
    "({a}) / (({b}) * ({b}) + 1)",
]
OTHER = [
    "np.sum({a})",
    "np.mean({a})",
    "({a}).sum(axis=0)",
    "({a}).max()",
    "np.mean({a}) * ({a})",
    "({a})[0]",
    "({a})[:, 1:]",
    "np.where(({a}) > 0, {a}, 0)",
]
SPECIAL = np.array([-0.0, 0.0, 1.5, -2.0, np.inf, -np.inf, np.nan, 3.0, 0.25, -7.0, 1e-3, 2.0])
DTYPES = [np.float32, np.float64, np.int32, np.int8]


def _expr(rng, depth, names):
    if depth == 0 or rng.random() < 0.2:
        return rng.choice(names)
    r = rng.random()
    if r < 0.45:
        return rng.choice(UNARY).format(a=_expr(rng, depth - 1, names))
    if r < 0.85:
        a, b = _expr(rng, depth - 1, names), _expr(rng, depth - 1, names)
        return rng.choice(BINARY).format(a=a, b=b)
    return rng.choice(OTHER).format(a=_expr(rng, depth - 1, names))


def program(seed):
    """`(source, args)` of a generated function `f(x, y)`."""
    rng = random.Random(seed)
    names, body = ["x", "y"], []
    for i in range(rng.randint(1, 4)):
        e = _expr(rng, rng.randint(1, 4), names)
        body.append(f"    t{i} = {e}")
        names.append(f"t{i}")
        if rng.random() < 0.3:
            body.append(f"    u{i} = {e}")  # the same expression again
            names.append(f"u{i}")
    outs = rng.sample(names[2:], k=min(len(names) - 2, rng.randint(1, 3)))
    if rng.random() < 0.2:
        outs.append(outs[0])
    source = "def f(x, y):\n" + "\n".join(body) + f"\n    return ({', '.join(outs)},)\n"
    args = []
    for _ in range(2):
        dtype = rng.choice(DTYPES)
        if np.dtype(dtype).kind == "f":
            args.append(SPECIAL.astype(dtype).reshape(3, 4))
        else:
            args.append(np.array([rng.randint(-5, 5) for _ in range(12)], dtype).reshape(3, 4))
    return source, tuple(args)


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_generated_program(seed):
    source, args = program(seed)
    namespace = {"np": np}
    exec(source, namespace)  # noqa: S102 - our own generated test program
    fn = namespace["f"]
    graph_fn = autoconv.function(fn, autograph=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            eager = fn(*args)
        except Exception as error:  # noqa: BLE001 - a generated program NumPy rejects
            # ...must be rejected by tracing too (shapes are checked when the graph is built).
            with pytest.raises(StagingError, match="could not be broadcast|shape"):
                graph_fn(*args)
            assert isinstance(error, ValueError), error
            return
    graph = graph_fn(*args)
    e_flat, g_flat = _flat(eager), _flat(graph)
    assert len(e_flat) == len(g_flat), source
    for e, g in zip(e_flat, g_flat):
        assert_identical(g, e)
    assert _aliasing(g_flat, args) == _aliasing(e_flat, args), source
