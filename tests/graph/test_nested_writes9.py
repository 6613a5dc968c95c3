"""Nested functions that write items of their enclosing function's arrays (issue 24, batch 8's
C11): `def mark(i): seen[i] = True` called in a staged loop or branch. The converter declares
the enclosing variable `nonlocal` in the nested function and rebinds it as a local, so the
enclosing function (and a staged statement that calls the helper, through its hidden state)
reads the graph's new array. Another name of the array, or the caller's argument, keeps the
clear error. Each program runs eagerly and as one graph function, on each backend, and the
jit way (`jax.jit(autoconv.convert(f))`) where it needs no Python value of a traced one."""

import copy

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule, message

P = []

# name -> part of the clear error every backend gives
ERRORS = {
    "argument_written": "is an argument of the function, so the caller would see the change",
    "alias_outside": "also reachable through `keep`",
}
# name -> part of the JAX backend's documented LoweringError (`list_helper` runs since jax11)
JAX_ERRORS: dict = {}
# Programs the jit way runs (the others call `int()` of a traced value, or write a list in a
# traced branch: JAX's documented limits)
JIT = (
    "mark_positive",
    "write_in_branch_constant",
    "helper_and_counter",
    "once_no_loop",
    "early_return_helper",
    "declared_nonlocal",
    "grid_helper",
)


def prog(*inputs):
    def add(f):
        P.append((f, inputs))
        return f

    return add


X1 = np.array([1.0, -2.0, 3.0, 0.5, -1.0])
X0 = np.zeros(0)


@prog((X1,), (X0,))
def mark_positive(x):
    seen = np.zeros(len(x), dtype=bool)

    def mark(i):
        seen[i] = True

    for i in range(len(x)):
        if x[i] > 0:
            mark(i)
    return seen


@prog((X1,), (X0,))
def bucket_sums(x):
    out = np.zeros(3)

    def add(k, v):
        out[k] += v

    for v in x:
        add(int(abs(v)) % 3, v)
    return out


@prog((X1,), (X0,))
def hist_with_helper(x):
    h = np.zeros(4, dtype=np.int64)

    def bin_of(v):
        return min(int((v + 3) // 2), 3)

    def count(v):
        h[bin_of(v)] += 1

    for v in x:
        count(v)
    return h


@prog(
    (X1,),
)
def write_in_branch(x):
    out = np.zeros_like(x)

    def put(i, v):
        if v > 0:
            out[i] = v * 2
        else:
            out[i] = -v

    for i, v in enumerate(x):
        put(i, v)
    return out


@prog((X1,), (X0,))
def helper_and_counter(x):
    flags = np.zeros(len(x))
    n = 0

    def flag(i):
        nonlocal n
        flags[i] = 1.0
        n += 1

    for i in range(len(x)):
        if x[i] < 0:
            flag(i)
    return flags, n


@prog((np.array([[1.0, 2.0], [3.0, -4.0]]),))
def grid_helper(a):
    g = np.zeros((2, 2))

    def setc(r, c, v):
        g[r, c] = v

    for r in range(2):
        for c in range(2):
            if a[r, c] > 1:
                setc(r, c, a[r, c])
    return g


@prog(
    (X1,),
)
def argument_written(x):
    def neg(i):
        x[i] = -x[i]

    for i in range(len(x)):
        if x[i] > 2:
            neg(i)
    return x.sum()


@prog(
    (X1,),
)
def alias_outside(x):
    buf = np.zeros(len(x))
    keep = buf

    def put(i, v):
        buf[i] = v

    for i in range(len(x)):
        if x[i] > 0:
            put(i, x[i])
    return keep


@prog((X1,), (X0,))
def list_helper(x):
    vals = [0.0, 0.0]

    def put(k, v):
        vals[k] = vals[k] + v

    for v in x:
        if v > 0:
            put(0, v)
        else:
            put(1, v)
    return vals


@prog(
    (X1,),
)
def once_no_loop(x):
    out = np.zeros(2)

    def fill():
        out[0] = x.max()
        out[1] = x.min()

    fill()
    return out


@prog((X1,), (X0,))
def early_return_helper(x):
    best = np.full(1, -np.inf)

    def upd(v):
        if v <= best[0]:
            return False
        best[0] = v
        return True

    changes = 0
    for v in x:
        if upd(v):
            changes += 1
    return best, changes


@prog(
    (X1,),
)
def declared_nonlocal(x):
    acc = np.zeros(2)

    def go(v):
        nonlocal acc
        acc[0] += v
        acc = acc * 1.0

    for v in x:
        go(v)
    return acc


@prog(
    (X1,),
)
def while_helper(x):
    out = np.zeros(len(x))
    i = 0

    def step(j):
        out[j] = x[j] ** 2

    while i < len(x) and x[i] < 2.5:
        step(i)
        i += 1
    return out, i


@prog((X1,), (X0,))
def write_in_branch_constant(x):
    flags = np.zeros(len(x))

    def put(i, v):
        if v > 0:
            flags[i] = 1.0
        else:
            flags[i] = -1.0

    for i in range(len(x)):
        put(i, x[i])
    return flags


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f,inputs", P, ids=[f.__name__ for f, _ in P])
def test_program(f, inputs, backend):
    name = f.__name__
    text = ERRORS.get(name) or (JAX_ERRORS.get(name) if backend == "jax" else None)
    if text is not None:
        found = message(f, *copy.deepcopy(inputs[0]), backend=backend)
        assert text in found and "test_nested_writes9.py:" in found
        return
    for args in inputs:
        follows_the_rule(f, *args, backend=backend)


@pytest.mark.parametrize("name", JIT)
def test_the_jit_way(name):
    jax = pytest.importorskip("jax")
    import autoconv

    f, inputs = next(p for p in P if p[0].__name__ == name)
    old = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    try:
        for args in inputs:
            want = f(*copy.deepcopy(args))
            got = jax.jit(autoconv.convert(f))(*copy.deepcopy(args))
            want = want if type(want) is tuple else (want,)
            got = got if type(got) is tuple else (got,)
            for w, g in zip(want, got, strict=True):
                assert np.array_equal(np.asarray(w), np.asarray(g)), (name, args, w, g)
    finally:
        jax.config.update("jax_enable_x64", old)
