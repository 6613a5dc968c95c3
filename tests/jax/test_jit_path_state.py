"""State hidden from the converter under `jax.jit(autoconv.convert(f))` (issue 24, the third
path): a helper's `nonlocal` counter, `self.count += 1` in a method, a dict entry a helper or a
method changes, all called from a staged `if` or loop. Graph mode carries these as the
statement's variables (`trace.core.hidden`); the JAX client does the same now (it raised an
`AutoconvError` asking the user to return the value instead).

Each program runs eagerly with NumPy and under `jax.jit` with `np` as `jax.numpy`, 64-bit
types on, on inputs that take different paths; values, dtypes, shapes and structure must
agree (`tests/jax/corpus.outcome`, as `tools/three_paths.py` judges its `jit` path).
"""

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import autoconv  # noqa: E402
from tests.jax import corpus  # noqa: E402

MIXED = np.array([1.0, -2.0, 3.0, 0.5])
NEGATIVE = np.array([-1.0, -2.0, -0.5])
EMPTY = np.zeros(0)
INTS = np.array([3, -1, 4, -1, 5], dtype=np.int64)
INPUTS = [(MIXED,), (NEGATIVE,), (EMPTY,), (INTS,)]


def same_as_eager(func, inputs=INPUTS):
    for args in inputs:
        outcome, detail = corpus.outcome(func, args, __file__)
        assert (outcome, detail) == ("same", ""), (func.__name__, args, outcome, detail)


def test_nonlocal_counter_of_a_helper_called_in_a_staged_if():
    def f(x):
        calls = 0

        def double(v):
            nonlocal calls
            calls += 1
            return v * 2

        s = 0.0
        for v in x:
            if v > 0:
                s += double(v)
        return s, calls

    same_as_eager(f)


def test_nonlocal_counter_in_a_staged_while_loop():
    def f(x):
        steps = 0

        def halve(v):
            nonlocal steps
            steps += 1
            return v / 2

        while x > 1.0:
            x = halve(x)
        return x, steps

    same_as_eager(f, [(np.float64(10.0),), (np.float64(0.5),), (np.float64(1000.0),)])


def test_nonlocal_counter_in_a_traced_range():
    def f(x, n):
        seen = 0

        def visit(i):
            nonlocal seen
            seen += i
            return x[i]

        total = 0.0
        for i in range(n):
            total += visit(i)
        return total, seen

    same_as_eager(f, [(MIXED, np.int64(3)), (MIXED, np.int64(0))])


class Tally:
    def __init__(self):
        self.count = 0
        self.total = 0.0

    def add(self, v):
        self.count += 1
        self.total += v


def test_attributes_a_method_changes_in_a_staged_branch():
    def f(x):
        t = Tally()
        for v in x:
            if v > 0:
                t.add(v)
        return t.count, t.total

    same_as_eager(f)


def test_attributes_a_method_changes_in_a_staged_loop():
    def f(x):
        t = Tally()
        for v in x:
            t.add(v * v)
        return t.count, t.total

    same_as_eager(f)


class Counted:
    """A user's class in a module whose name starts with "jax" (a docs page, `jax_tools`): its
    objects are the user's (they were taken for JAX's own, their changes not carried)."""

    def __init__(self):
        self.count = 0

    def add(self, v):
        self.count += 1
        return v


Counted.__module__ = "jax_tools"


def test_objects_of_a_user_module_named_like_jax_are_the_users():
    def f(x):
        c = Counted()
        total = 0.0
        for v in x:
            if v > 0:
                total += c.add(v)
        return total, c.count

    same_as_eager(f)


def test_dict_entries_a_helper_changes_in_staged_branches():
    def f(x):
        stats = {"pos": 0, "neg": 0}

        def note(key):
            stats[key] += 1

        for v in x:
            if v > 0:
                note("pos")
            else:
                note("neg")
        return stats["pos"], stats["neg"]

    same_as_eager(f)


class Inventory:
    def __init__(self):
        self.stock = {"a": 0.0, "b": 0.0}

    def put(self, key, v):
        self.stock[key] = self.stock[key] + v


def test_dict_entries_of_an_object_changed_by_its_method():
    def f(x):
        inv = Inventory()
        for v in x:
            if v > 1:
                inv.put("a", v)
            else:
                inv.put("b", -v)
        return inv.stock

    same_as_eager(f)


def test_a_helper_adding_a_dict_key_in_a_staged_branch_is_an_error_naming_it():
    def f(x):
        seen = {}

        def mark(v):
            seen["big"] = v

        for v in x:
            if v > 2:
                mark(v)
        return len(seen)

    outcome, detail = corpus.outcome(f, (MIXED,), __file__)
    assert outcome == "autoconv-error"
    assert "`seen['big']` is added to its dict" in detail


# --- values a staged condition chooses (graph mode's Choices) ---------------------------------


def test_a_string_chosen_by_a_staged_if_and_compared_later():
    def f(x):
        if x[0] > 0:
            mode = "abs"
        else:
            mode = "square"
        if mode == "abs":
            return np.abs(x)
        return x * x

    same_as_eager(f, [(MIXED,), (NEGATIVE,)])


def test_a_string_chosen_by_a_conditional_expression_then_a_method_and_inequality():
    def f(x):
        label = "pos" if np.sum(x) > 0 else "neg"
        loud = label.upper()
        return np.sum(x) * (2.0 if loud != "POS" else 1.0), label == "pos"

    same_as_eager(f, [(MIXED,), (NEGATIVE,)])


def test_none_or_a_string_chosen_then_tested_with_is_none():
    def f(x):
        reason = None
        if np.max(x) > 2:
            reason = "large"
        if reason is None:
            return np.sum(x)
        return -np.sum(x)

    same_as_eager(f, [(MIXED,), (NEGATIVE,)])


def test_a_chosen_string_merged_again_in_a_later_staged_if():
    def f(x):
        kind = "low"
        if x[0] > 0:
            kind = "mid"
        if x[1] > 0:
            kind = "high"
        return (kind == "low") * 1 + (kind == "mid") * 10 + (kind == "high") * 100

    same_as_eager(f, [(MIXED,), (NEGATIVE,), (np.array([-1.0, 2.0]),)])


def test_a_chosen_string_as_a_dict_key_reads_the_chosen_entry():
    def f(x):
        scale = {"up": 2.0, "down": 0.5}
        direction = "up" if x[0] > 0 else "down"
        return x * scale[direction]

    for x in (MIXED, -MIXED):
        assert corpus.outcome(f, (x,), __file__) == ("same", "")


def test_a_chosen_string_hashed_by_a_dict_method_is_an_error_naming_it():
    def f(x):
        scale = {"up": 2.0, "down": 0.5}
        direction = "up" if x[0] > 0 else "down"
        return x * scale.get(direction, 1.0)

    outcome, detail = corpus.outcome(f, (MIXED,), __file__)
    assert outcome == "autoconv-error"
    assert "is 'up' or 'down', chosen by a condition JAX knows only when" in detail
    assert "a dict key" in detail


def test_a_chosen_string_under_grad_and_vmap():
    def f(x):
        mode = "square" if x > 0 else "linear"
        if mode == "square":
            return x * x
        return 3.0 * x

    slope = jax.jit(jax.grad(autoconv.convert(f)))
    assert (float(slope(2.0)), float(slope(-1.0))) == (4.0, 3.0)
    batch = jax.vmap(autoconv.convert(f))(jax.numpy.array([2.0, -1.0]))
    assert batch.tolist() == [4.0, -3.0]
