"""A Python `range` loop staged while it is traced, once its state settles (runtime/pure_steps.py,
issue 25): the same results as eager NumPy and as the unrolled trace; and every loop whose steps
Python can tell apart (effects, the index as an int, a state whose type or shape changes) is
still unrolled."""

import copy

import numpy as np
import pytest

import autoconv
from autoconv.runtime import pure_steps
from tests.graph.agreement import BACKENDS, follows_the_rule, same

STEPS = 40
RNG = np.random.default_rng(12)
X, Y, W = RNG.random((20, 4)), RNG.random(20), np.zeros(4)


def _traced(fn, *args, **kwargs):
    return autoconv.function(fn, **kwargs).get_concrete_function(*copy.deepcopy(args)).graph


def _staged(fn, *args) -> bool:
    """Whether tracing `fn` staged a loop (the programs below have no staged loop of their
    own), checked against the size of the unrolled trace."""
    graph = _traced(fn, *args)
    loops = sum(1 for n in graph.walk() if n.kind == "while")
    size = sum(1 for _ in graph.walk())
    unrolled = sum(1 for _ in _traced(fn, *args, optimize={"roll": False}).walk())
    assert unrolled >= STEPS  # (`roll: False` keeps every step)
    assert (loops > 0) == (size < unrolled / 2), (loops, size, unrolled)
    return loops > 0


def _agrees(fn, *args, backend="numpy", bits=True):
    """Eager's result (values, dtypes, Python types), and on the NumPy backend the unrolled
    trace's bit for bit."""
    want = fn(*copy.deepcopy(args))
    got = autoconv.function(fn, backend=backend)(*copy.deepcopy(args))
    assert same(want, got), (want, got)
    if backend == "numpy" and bits:
        unrolled = autoconv.function(fn, optimize={"roll": False})(*copy.deepcopy(args))
        pairs = zip(got, unrolled) if type(got) is tuple else [(got, unrolled)]
        for a, b in pairs:
            np.testing.assert_array_equal(a, b)
    return got


# --- staged ------------------------------------------------------------------------------------


def descent(x, y, w):
    for _ in range(STEPS):
        err = y - x @ w
        grad = -2.0 * (x.T @ err) / x.shape[0]
        w = w - 0.01 * grad
    return w


def temporary_read_after(x, w):
    def last_error():
        return err  # not the loop's state: the converter carries only what the code reads

    for _ in range(STEPS):
        err = x - w
        w = w + 0.1 * err
    return w, last_error()


def python_number_first(x, w):
    acc = 0.0  # a Python float, then a NumPy value: settles at the second step
    for _ in range(STEPS):
        acc = acc + np.sum(x @ w) * 0.5
        w = w * 0.9 + 1.0
    return acc, w


def converged_break(x, c):
    for _ in range(STEPS):
        new = c * 0.5 + np.mean(x, axis=0) * 0.5
        if np.max(np.abs(new - c)) < 1e-3:
            break
        c = new
    return c


def helper_without_effects(x, w):
    def step(v):
        return v - 0.01 * (x.T @ (x @ v))

    for _ in range(STEPS):
        w = step(w)
    return w


def integer_power(m):
    r = np.eye(m.shape[0], dtype=m.dtype)
    for _ in range(STEPS):
        r = (r @ m) % 7
    return r


def warm_up(x, y, w):
    for i in range(STEPS):
        if i < 10:
            lr = 0.001 * (i + 1)  # (a Python float: each of the first ten steps differs)
        else:
            lr = 0.01
        w = w - lr * (x.T @ (x @ w - y))
    return w


def index_tested(x, w):
    for i in range(3 * STEPS):
        if i == 0:
            w = w + 1.0
        elif i >= STEPS - 5:
            w = w * 1.5
        w = w * 0.5
    return w


def index_read_by_a_function_after(x, w):
    def last():
        return i

    for i in range(STEPS):
        w = w + 1.0
        if i > 2:
            w = w * 0.5
    return w, last()


def running_sum(x):
    out = np.zeros_like(x)
    acc = 0.0
    for i in range(x.shape[0]):
        acc = acc + x[i]
        out[i] = acc
    return out


def backwards(x, h):
    for i in range(-1, -x.shape[0] - 1, -1):
        h = np.tanh(x[i] @ np.ones((4, 4)) + h)
    return h


STAGED = [
    (descent, (X, Y, W)),
    (running_sum, (RNG.random(50),)),
    (running_sum, (RNG.random((50, 3)),)),
    (backwards, (X, W)),
    (warm_up, (X, Y, W)),
    (index_tested, (X, W)),
    (index_read_by_a_function_after, (X, W)),
    (temporary_read_after, (X[0], W)),
    (python_number_first, (X, W)),
    (converged_break, (X, W)),
    (converged_break, (X * 1e6, W)),  # (never converges: all the steps)
    (helper_without_effects, (X, W)),
    (integer_power, (np.arange(9).reshape(3, 3) % 4,)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn, args", STAGED, ids=lambda v: getattr(v, "__name__", ""))
def test_settled_loops_are_staged_and_agree(fn, args, backend):
    assert _staged(fn, *args)
    _agrees(fn, *args, backend=backend)


def test_roll_off_keeps_every_step():
    graph = _traced(descent, X, Y, W, optimize={"roll": False})
    assert not any(n.kind == "while" for n in graph.walk())


def test_a_short_loop_is_left_to_the_pass():
    def short(x, w):
        for _ in range(pure_steps.MIN_LEFT):
            w = w - 0.01 * (x.T @ (x @ w))
        return w

    assert not any(n.kind == "while" for n in _traced(short, X, W).walk())
    _agrees(short, X, W)


# --- unrolled: what Python sees differs between the steps ---------------------------------------

HISTORY: list = []


class Model:
    def __init__(self):
        self.count = 0
        self.last = np.zeros(4)
        self.scale = 0.5

    def step(self, w):
        return w * self.scale


def prints(x, w):
    for _ in range(STEPS):
        w = w * 0.5 + 1.0
        print(w[0])
    return w


def appends_to_a_global_list(x, w):
    for _ in range(STEPS):
        w = w * 0.5 + 1.0
        HISTORY.append(w)
    return w


def appends_to_its_own_list(x, w):
    seen = []
    for _ in range(STEPS):
        w = w * 0.5 + x[0]
        seen.append(w)
    return w, len(seen), seen[3]


def attribute_count(x, w, m):
    for _ in range(STEPS):
        w = w * 0.5 + x[0]
        m.count += 1
    return w, m.count


def attribute_write(x, w, m):
    for _ in range(STEPS):
        w = w * 0.5 + x[0]
        m.last = w
    return w, m.last


def method_of_an_object(x, w, m):
    for _ in range(STEPS):
        w = m.step(w) + x[0]
    return w


def closure_counter(x, w):
    calls = 0

    def bump(v):
        nonlocal calls
        calls += 1
        return v * 0.5

    for _ in range(STEPS):
        w = bump(w) + x[0]
    return w, calls


def python_counter(x, w):
    n = 0
    for _ in range(STEPS):
        w = w * 0.5 + x[0]
        n += 1
    return w, n


def python_float_state(x, w):
    lr = 0.1
    for _ in range(STEPS):
        w = w - lr * x[0]
        lr = lr * 0.9
    return w, lr


def index_in_a_python_list(x, w):
    layers = [0.5 + k / 100 for k in range(STEPS)]
    for i in range(STEPS):
        w = w * layers[i]
    return w


def index_tested(x, w):
    for i in range(STEPS):
        if i == 0:
            w = w + 1.0
        w = w * 0.5
    return w


def index_as_a_shape(x, w):
    total = w
    for i in range(STEPS):
        total = total + np.sum(np.ones(i))
    return total


def index_compared_with_a_float(x, w):
    for i in range(STEPS):
        if i < 2.5:
            w = w + 1.0
        w = w * 0.5
    return w


def index_parity(x, w):
    for i in range(STEPS):
        if i % 2 == 0:
            w = w + 1.0
        w = w * 0.5
    return w


def index_compared_with_an_array(x, w):
    for i in range(STEPS):
        if i < x.shape[0] * x[0, 0]:
            w = w + 1.0
        w = w * 0.5
    return w


def index_past_the_end(x, w):
    acc = w
    for i in range(x.shape[0] + 3):
        acc = acc + x[i]
    return acc


def index_of_a_tuple(x, w):
    rows = tuple(x)
    for i in range(STEPS):
        w = w * 0.5 + rows[i % 3]
    return w


def index_as_a_key_and_compared(x, w):
    out = np.zeros((STEPS,))
    for i in range(STEPS):
        w = w * 0.5
        if i < 3:
            w = w + 1.0
        out[i] = np.sum(w)
    return out


def index_as_a_number(x, w):
    for i in range(STEPS):
        w = w * 0.5 + i
    return w


def index_after_the_loop(x, w):
    for i in range(STEPS):  # noqa: B007 - read after the loop
        w = w * 0.5
    return w, i


def growing_shape(x, w):
    for _ in range(STEPS):
        w = np.concatenate([w, w[:1] * 0.5])
    return w


def changing_dtype(x, w):
    for _ in range(STEPS):
        w = (w * 0.5).astype(np.float32) + x[0, 0]  # float64, then float32 from the first step
    return w


def numpy_array_state(x, w):
    k = np.zeros(3, dtype=np.int32)  # a NumPy array: computed while tracing, step by step
    for _ in range(STEPS):
        k = k + 1
        w = w * 0.5
    return k, w


def random_draws(x, w, rng):
    for _ in range(STEPS):
        w = w * 0.5 + rng.normal(size=w.shape)
    return w


def in_place(x, w):
    w = w.copy()
    for _ in range(STEPS):
        w *= 0.5
        w += x[0]
    return w


def global_write(x, w):
    global LAST
    for _ in range(STEPS):
        w = w * 0.5
        LAST = w
    return w


LAST = None


def helper_with_python_if(x, w):
    def step(v, k):
        if k > 3:
            return v * 0.5
        return v

    for _ in range(STEPS):
        w = step(w, 4)
    return w


UNROLLED = [
    (prints, (X, W)),
    (appends_to_its_own_list, (X, W)),
    (closure_counter, (X, W)),
    (python_counter, (X, W)),
    (python_float_state, (X, W)),
    (index_in_a_python_list, (X, W)),
    (index_as_a_shape, (X, W)),
    (index_as_a_number, (X, W)),
    (index_of_a_tuple, (X, W)),
    (index_as_a_key_and_compared, (X, W)),
    (index_compared_with_a_float, (X, W)),
    (index_parity, (X, W)),
    (index_compared_with_an_array, (X, W)),
    (index_after_the_loop, (X, W)),
    (growing_shape, (X, W[:2])),
    (in_place, (X, W)),
    (helper_with_python_if, (X, W)),
    (numpy_array_state, (X, W)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn, args", UNROLLED, ids=lambda v: getattr(v, "__name__", ""))
def test_steps_python_tells_apart_stay_unrolled(fn, args, backend, capsys):
    assert not _staged(fn, *args)
    capsys.readouterr()
    want = fn(*copy.deepcopy(args))
    printed = capsys.readouterr().out
    got = autoconv.function(fn, backend=backend)(*copy.deepcopy(args))
    assert same(want, got), (want, got)
    assert capsys.readouterr().out == printed


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_index_past_the_end_raises_as_eagerly(backend):
    follows_the_rule(index_past_the_end, X, W, backend=backend)


def test_a_global_list_gets_every_step():
    HISTORY.clear()
    graph = _traced(appends_to_a_global_list, X, W)
    assert not any(n.kind == "while" for n in graph.walk())
    assert len(HISTORY) == STEPS  # (appended while tracing, as AutoGraph does)


@pytest.mark.parametrize("fn", [attribute_count, attribute_write, method_of_an_object])
def test_attributes_stay_unrolled(fn):
    assert not _staged(fn, X, W, Model())
    want_m, got_m = Model(), Model()
    want = fn(X, W, want_m)
    got = autoconv.function(fn)(X, W, got_m)
    assert same(want, got)
    assert want_m.count == got_m.count


def test_global_write_stays_unrolled():
    assert not _staged(global_write, X, W)
    want = global_write(X, W)
    want_last = LAST
    assert LAST is want_last
    got = autoconv.function(global_write)(X, W)
    assert same(want, got)


def test_random_draws_stay_unrolled():
    assert not _staged(random_draws, X, W, np.random.default_rng(0))
    want = random_draws(X, W, np.random.default_rng(0))
    got = autoconv.function(random_draws)(X, W, np.random.default_rng(0))
    assert same(want, got)


def test_changing_dtype_settles_after_the_change():
    assert _staged(changing_dtype, X, W)
    _agrees(changing_dtype, X, W)


# --- the checks, directly -----------------------------------------------------------------------


def test_stageable_reads_the_body():
    code = autoconv.to_code(descent)
    assert "for_stmt" in code
    namespace: dict = {}
    import autoconv.runtime as ac

    exec(  # noqa: S102 - converted-looking bodies
        "def make(x, ac):\n"
        "    w = None\n"
        "    def pure(_):\n"
        "        nonlocal w\n"
        "        w = np.sum(x) * 2\n"
        "    def uses_index(i):\n"
        "        nonlocal w\n"
        "        w = x[i]\n"
        "    def prints(_):\n"
        "        ac.print(x)\n"
        "    def sorts(_):\n"
        "        x.sort()\n"
        "    def writes(_):\n"
        "        x.attr = 1\n"
        "    def adds_in_place(_):\n"
        "        nonlocal w\n"
        "        w += x\n"
        "    return pure, uses_index, prints, sorts, writes, adds_in_place\n",
        {"np": np},
        namespace,
    )
    pure, uses_index, *impure = namespace["make"](np.ones(3), ac)
    assert pure_steps.stageable(pure) is not None
    assert pure_steps.stageable(uses_index) is not None  # (checked as it is staged: `Index`)
    for fn in impure:
        assert pure_steps.stageable(fn) is None, fn.__name__
