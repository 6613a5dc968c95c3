"""State a staged statement changes where the converter cannot see it (a helper's `nonlocal`
counter, an attribute a called method sets) is never counted per trace: graph mode (both
backends) carries it as one of the statement's variables, with eager's values;
`jax.jit(convert(f))` raises an error naming it, at the user's line; state the statement
itself assigns (`self.total += v`, `calls = calls + 1`) is carried as before; reading a
helper's variables is fine."""

import numpy as np
import pytest

import autoconv

try:
    import jax

    BACKENDS = ["numpy", "jax"]
except ImportError:  # the JAX backend is an optional extra
    jax = None
    BACKENDS = ["numpy"]

SPEC = [autoconv.TensorSpec([None], np.float64)]
X = np.array([1.0, -2.0, 3.0])


def counted_loop(x):
    calls = 0

    def transform(v):
        nonlocal calls
        calls += 1
        return v * 2

    total = 0.0
    for v in x:
        total += transform(v)
    return total, calls


def counted_branch(x):
    calls = 0

    def bump():
        nonlocal calls
        calls += 1
        return 1.0

    y = 0.0
    if np.sum(x) > 0:
        y = bump()
    return y, calls


class Counter:
    def __init__(self):
        self.evals = 0
        self.total = 0.0

    def square(self, v):
        self.evals += 1
        return v * v


def method_counter(x):
    c = Counter()
    s = 0.0
    for v in x:
        s += c.square(v)
    return s, c.evals


def running_max_helper(x):  # the helper's own staged `if` assigns its nonlocal
    best = -np.inf

    def see(v):
        nonlocal best
        if v > best:
            best = v

    for v in x:
        see(v)
    return best


HIDDEN = [running_max_helper, counted_loop, counted_branch, method_counter]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("func", HIDDEN, ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", [X, np.zeros(0), np.array([-1.0, -3.0])], ids=["3", "0", "neg"])
def test_hidden_changes_are_carried_as_eager_code_sees_them(func, x, backend):
    expected = func(x.copy())
    got = autoconv.function(func, backend=backend, input_signature=SPEC)(x.copy())
    assert type(got) is type(expected)
    for g, e in zip(
        got if isinstance(got, tuple) else (got,),
        expected if isinstance(expected, tuple) else (expected,),
    ):
        assert type(g) is type(e), (got, expected)
        assert np.allclose(np.asarray(g, float), np.asarray(e, float)), (got, expected)


def carried_counter(x):  # the statement assigns it: carried
    calls = 0
    total = 0.0
    for v in x:
        calls = calls + 1
        total += v
    return total, calls


def attribute_in_the_body(x):
    c = Counter()
    for v in x:
        c.total += v
    return c.total


def reads_a_helper(x):
    scale = 3.0

    def scaled(v):
        return v * scale

    s = 0.0
    for v in x:
        s += scaled(v)
    return s


def helper_object_read_only(x):
    c = Counter()
    s = 0.0
    for v in x:
        s += v * c.evals + v
    return s


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "func", [carried_counter, attribute_in_the_body, reads_a_helper, helper_object_read_only]
)
@pytest.mark.parametrize("x", [X, np.zeros(0)], ids=["three", "empty"])
def test_state_the_statement_carries_still_runs(func, x, backend):
    expected = func(x.copy())
    got = autoconv.function(func, backend=backend, input_signature=SPEC)(x.copy())
    assert np.allclose(np.asarray(got, float), np.asarray(expected, float))


@pytest.mark.skipif(jax is None, reason="jax is an optional extra")
def test_under_jax_jit_too():
    # The JAX client carries the counter as graph mode does (tests/jax/test_jit_path_state.py).
    total, calls = jax.jit(autoconv.convert(counted_loop))(jax.numpy.array([1.0, 2.0]))
    assert (float(total), int(calls)) == counted_loop(np.array([1.0, 2.0]))
    got = jax.jit(autoconv.convert(reads_a_helper))(jax.numpy.array([1.0, 2.0]))
    assert float(got) == 9.0


class Inventory:
    def __init__(self):
        self.stock = {"a": 0, "b": 0}

    def add(self, item, qty):
        self.stock[item] = self.stock.get(item, 0) + qty

    def take(self, item, qty):
        have = self.stock[item]
        if have < qty:
            return False
        self.stock[item] = have - qty
        return True


def inventory(incoming, orders):
    inv = Inventory()
    for name, q in zip(["a", "b"], incoming):
        inv.add(name, int(q))
    filled = []
    for name, q in zip(["a", "b"], orders):
        filled.append(inv.take(name, int(q)))
    return filled, inv.stock


def restock_in_a_staged_loop(x):
    inv = Inventory()
    for v in x:
        if v > 0:
            inv.add("a", v)
        else:
            inv.take("b", 1)
    return inv.stock


@pytest.mark.parametrize("backend", BACKENDS)
def test_dict_entries_a_method_changes_are_carried(backend):
    # `self.stock[item] = ...` in a method a staged `if` or loop calls: the entries are carried
    # as the statement's variables (before, the dict kept the value of the branch traced last,
    # a Tensor of a block that had ended).
    g = autoconv.function(inventory, backend=backend)
    for inc, orders in [([5, 3], [2, 4]), ([0, 0], [1, 0]), ([1, 1], [1, 1])]:
        args = (np.array(inc), np.array(orders))
        want, got = inventory(*args), g(*args)
        assert got[0] == want[0] and [type(v) for v in got[0]] == [type(v) for v in want[0]]
        assert got[1] == want[1]
    h = autoconv.function(restock_in_a_staged_loop, backend=backend)
    for x in (np.array([1.0, -1.0, 2.0]), np.zeros(0), np.array([-3.0])):
        want, got = restock_in_a_staged_loop(x.copy()), h(x.copy())
        assert got == want and [type(v) for v in got.values()] == [type(v) for v in want.values()]


class Ring:
    def __init__(self, n):
        self.buf = np.zeros(n)
        self.pos = 0
        self.full = False

    def push(self, v):
        self.buf[self.pos] = v  # a key read from an attribute, which the loop then carries
        self.pos = (self.pos + 1) % len(self.buf)
        if self.pos == 0:
            self.full = True


def ring_means(x):
    r = Ring(3)
    means = []
    for v in x:
        r.push(v)
        means.append(r.buf.mean())
    return means, r.full, r.pos


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("x", [np.array([1.0, 2.0, 4.0, 5.0]), np.array([3.0]), np.zeros(0)])
def test_state_found_while_carrying_other_state_is_carried_too(x, backend):
    # Carrying `r.pos` makes `self.buf[self.pos] = v` a write at a run-time key, which changes
    # `r.buf` too: the loop is traced again with both (it was an internal _CarryHidden).
    want = ring_means(x)
    got = autoconv.function(ring_means, backend=backend)(x)
    assert len(want[0]) == len(got[0]) and np.allclose(want[0], got[0])
    assert got[1:] == want[1:] and type(got[2]) is int
