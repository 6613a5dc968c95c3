"""What the fifth fresh batch found (tools/fresh_batch5.py, tools/fresh_batch5_findings.md):
each wrong-result and bad-error class's minimal program, run eagerly and as
`autoconv.function(f)` (on NumPy, and on JAX where it is installed), as a strict xfail until
the class is fixed. When one starts to pass, pytest reports it (XPASS fails under strict):
remove its mark, and the class's entry in FINDINGS of tools/fresh_batch5.py.
"""

import copy

import numpy as np
import pytest

import autoconv

try:
    import jax  # noqa: F401
except ImportError:  # jax is optional
    BACKENDS = ["numpy"]
else:
    BACKENDS = ["numpy", "jax"]


def same(expected, got) -> bool:
    if type(expected) is not type(got):
        return False
    if isinstance(expected, (tuple, list)):
        return len(expected) == len(got) and all(map(same, expected, got))
    if isinstance(expected, (np.ndarray, np.generic)):
        return expected.dtype == got.dtype and np.array_equal(expected, got)
    return expected == got


def follows_the_rule(fn, *args, backend):
    """The eager answer (values, dtypes, Python types)."""
    want = fn(*copy.deepcopy(args))
    got = autoconv.function(fn, backend=backend)(*copy.deepcopy(args))
    assert same(want, got), (want, got)


def xfail(why):
    return pytest.mark.xfail(strict=True, reason=why)


# W1: a number whose Python type depends on the branch taken (`2` or `np.int64(3)`), appended
# to a list in a staged loop and returned: every item came back as the list's one kind. Fixed
# (trace/tensors/appends.py keeps each item's type; the JAX backend refuses such a list).
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
    if backend == "numpy":
        follows_the_rule(fn, x, backend=backend)
        return
    # The JAX backend keeps one buffer per list: it says so, where it gave all NumPy ints.
    with pytest.raises(autoconv.AutoconvError, match="several Python types"):
        autoconv.function(fn, backend=backend)(x)


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


# C1 (JAX): `sum()` over the items of a list a staged loop grew, as a generator expression:
# an item read back may be a Python int among float64s (its declared kinds: float64, float,
# int), so the generator's list is refused as holding "several Python types" (before W1's fix:
# `as_kind` cannot be lowered), where every item is a float64.
def sum_abs_of_grown_list(x):
    errors = []
    for v in x[1:]:
        errors.append(v - x[0])
    return sum(abs(e) for e in errors) / len(errors)


@pytest.mark.parametrize(
    "backend",
    [
        pytest.param(
            b,
            marks=[xfail("C1 (JAX): a float64 list refused as of several types")]
            if b == "jax"
            else [],
        )
        for b in BACKENDS
    ],
)
def test_sum_of_a_generator_over_a_grown_list(backend):
    follows_the_rule(sum_abs_of_grown_list, np.array([1.0, 3.0, 0.0]), backend=backend)


# C2: a @property's getter runs unconverted (docs/cli.md says so; docs/graph-mode.md does
# not), so a conditional expression on a Tensor in it is "used as a Python bool".
class Count:
    def __init__(self):
        self.n = 0
        self.total = 0.0

    @property
    def mean(self):
        return self.total / self.n if self.n else 0.0


def counted_mean(x):
    c = Count()
    for v in x:
        c.n += 1
        c.total += v
    return c.mean


@xfail("C2: a property's getter is not converted: 'used as a Python bool'")
@pytest.mark.parametrize("backend", BACKENDS)
def test_property_with_a_conditional_expression(backend):
    follows_the_rule(counted_mean, np.array([2.0, 1.0]), backend=backend)
