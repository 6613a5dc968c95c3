"""What the fifth fresh batch found (tools/fresh_batch5.py, tools/fresh_batch5_findings.md):
each wrong-result and bad-error class's minimal program, run eagerly and as
`autoconv.function(f)` (on NumPy, and on JAX where it is installed). Each was a strict xfail
until its class was fixed (a new open class goes in as one: `xfail(why)`); all are fixed or
documented limits with a message that names the user's construct now.
"""

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule


def xfail(why):
    return pytest.mark.xfail(strict=True, reason=why)


# W1: a number whose Python type depends on the branch taken (`2` or `np.int64(3)`), appended
# to a list in a staged loop and returned: every item came back as the list's one kind. Fixed
# on main (dfab2fd: the NumPy list keeps each item's type; the JAX backend refuses the list).
def append_path_typed_number(x):
    out = []
    for p in x:
        if p > 4:
            v = 2
        else:
            v = np.int64(3)
        out.append(v)
    return out


def stock_span(prices):
    span = []
    stack = []
    for i, p in enumerate(prices):
        while stack and prices[stack[-1]] <= p:
            stack.pop()
        span.append(i + 1 if not stack else i - stack[-1])
        stack.append(i)
    return span


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [append_path_typed_number, stock_span])
def test_path_typed_number_appended_in_a_staged_loop(fn, backend):
    x = np.array([5, 3, 8, 1])
    # (on JAX, a list of Python and NumPy numbers keeps each item's type in a tag buffer
    # beside its values: backends/jax/tagged.py; it was the "several Python types" error)
    follows_the_rule(fn, x, backend=backend)


def append_then_stack(x):
    out = []
    for p in x:
        if p > 4:
            v = 2
        else:
            v = np.int64(3)
        out.append(v)
    return np.array(out), len(out)


@pytest.mark.parametrize("backend", BACKENDS)
def test_path_typed_numbers_appended_then_stacked(backend):
    follows_the_rule(append_then_stack, np.array([5, 3, 8, 1]), backend=backend)


# W2 (JAX): np.cumsum / .cumprod() of an int32 array accumulated in int32 and overflowed
# before the cast to NumPy's int64 result. Fixed in backends/jax/lowering.py.
def int32_running_sums(a):
    c = np.cumsum(a)
    return c, a.cumprod(), c[-1] == a.sum()


@pytest.mark.parametrize("backend", BACKENDS)
def test_int32_running_sums_do_not_overflow(backend):
    a = np.array([2_000_000_000, 1_000_000_000, 5], dtype=np.int32)
    follows_the_rule(int32_running_sums, a, backend=backend)


def bool_running_sum(m):
    return np.cumsum(m), m.cumsum()


@pytest.mark.parametrize("backend", BACKENDS)
def test_bool_running_sum_is_int64(backend):
    follows_the_rule(bool_running_sum, np.array([True, False, True]), backend=backend)


# C1 (JAX): `sum()` of a generator over a list a staged loop grew: the item read's
# Python-type tag (`as_kind`) was refused by the JAX lowering. Fixed on main (dfab2fd).
def sum_abs_of_grown_list(x):
    errors = []
    for v in x[1:]:
        errors.append(v - x[0])
    return sum(abs(e) for e in errors) / len(errors)


@pytest.mark.parametrize("backend", BACKENDS)
def test_sum_of_a_generator_over_a_grown_list(backend):
    follows_the_rule(sum_abs_of_grown_list, np.array([1.0, 3.0, 0.0]), backend=backend)


# C2: a @property's getter ran unconverted (Python calls it on attribute access), so a
# conditional expression on a Tensor in it was "used as a Python bool" (then a documented
# limit). Fixed by objects8: a class converted code meets gets guarded getters
# (autoconv.conversion.classes), converted while tracing.
class Count:
    def __init__(self):
        self.n = 0
        self.total = 0.0

    @property
    def mean(self):
        return self.total / self.n if self.n else 0.0

    def mean_now(self):
        return self.total / self.n if self.n else 0.0


def counted_mean(x):
    c = Count()
    for v in x:
        c.n += 1
        c.total += v
    return c.mean


def counted_mean_method(x):
    c = Count()
    for v in x:
        c.n += 1
        c.total += v
    return c.mean_now()


@pytest.mark.parametrize("backend", BACKENDS)
def test_property_with_a_conditional_expression_runs(backend):
    follows_the_rule(counted_mean, np.array([2.0, 1.0]), backend=backend)
    follows_the_rule(counted_mean, np.zeros(0), backend=backend)
    follows_the_rule(counted_mean_method, np.array([2.0, 1.0]), backend=backend)
    follows_the_rule(counted_mean_method, np.zeros(0), backend=backend)


# L-generator: a generator's body stays Python, so its `for` over a Tensor is refused; the
# message says the line is in a generator.
def generator_filter_total(x, thr):
    def above(a):
        for v in a:
            if v > thr:
                yield v

    total = 0.0
    for v in above(x):
        total += v
    return total


def test_generator_over_a_tensor_names_the_generator():
    with pytest.raises(autoconv.AutoconvError, match="in generator `above`, whose body"):
        autoconv.function(generator_filter_total)(np.array([1.0, 3.0]), 0.5)


# L-unknown-np: np.select and np.rot90 had no graph form (`select_grades`, `rotate_grid`).
def select_grades(x):
    scores = 50 + 20 * x
    grades = np.select([scores >= 70, scores >= 50, scores >= 30], [3, 2, 1], default=0)
    if grades.size and grades.max() == 3:
        return grades, "has top"
    return grades, "no top"


def select_floats(x):
    return np.select([x > 0, x < -1], [x, -x * 2.0], default=np.nan)


def rotate_grid(g, times):
    for _ in range(times % 4):
        g = np.rot90(g)
    return g, np.rot90(g, 3, axes=(1, 0)), np.rot90(g, -1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_np_select_and_rot90(backend):
    x = np.array([1.5, -0.2, -1.3, 0.1, -3.0, 0.9])
    follows_the_rule(select_grades, x, backend=backend)
    follows_the_rule(select_grades, np.zeros(0), backend=backend)
    follows_the_rule(select_floats, x, backend=backend)
    for times in (1, 2, 3):
        follows_the_rule(rotate_grid, np.arange(6).reshape(2, 3), times, backend=backend)


def select_not_bool(x):
    return np.select([x], [x])


def test_np_select_raises_as_numpy():
    x = np.array([1.0, 2.0])
    with pytest.raises(TypeError):
        select_not_bool(x)
    with pytest.raises(TypeError):
        autoconv.function(select_not_bool)(x)
