"""Recursion while tracing: a base case that tests a Tensor cannot end the recursion at trace
time, and must give a clear AutoconvError naming the function, the user's line and saying to
write a loop (not a RecursionError from inside autoconv); recursion on Python values keeps
working."""

import re
import sys

import numpy as np
import pytest

import autoconv

HERE = re.escape(__file__)


def total(n):
    if n <= 0:
        return 0.0
    return n + total(n - 1)


def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


def nested(x):
    def halve(n):
        if n < 1:
            return n
        return halve(n / 2)

    return halve(x)


class Model:
    def fact(self, n):
        if n <= 1:
            return n * 0 + 1
        return n * self.fact(n - 1)


def loop_calling_recursion(n):
    while n > 100:
        n = total(n)
    return n


def _line(fn, text):
    import inspect

    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, line in enumerate(lines) if text in line)


@pytest.mark.parametrize(
    "fn, arg, name, call",
    [
        (total, np.float64(3.0), "`total` calls itself", (total, "total(n - 1)")),
        (is_even, np.int64(4), "`is_even` and `is_odd` call each other", (is_odd, "is_even(")),
        (nested, np.float64(3.0), "halve` calls itself", (nested, "return halve(n / 2)")),
        (Model().fact, np.int64(4), "`Model.fact` calls itself", (Model.fact, "self.fact(")),
        (loop_calling_recursion, np.float64(3.0), "`total` calls itself", (total, "total(n - 1)")),
    ],
    ids=["self", "mutual", "nested_function", "method", "from_a_staged_loop"],
)
def test_recursion_on_a_tensor_is_a_clear_error(fn, arg, name, call):
    with pytest.raises(autoconv.AutoconvError) as info:
        autoconv.function(fn)(arg)
    message = str(info.value)
    assert re.match(rf"{HERE}:{_line(*call)}: ", message), message
    assert name in message
    assert "depends on a Tensor" in message and "write a loop" in message
    # Raised at the trace boundary, not from deep inside the recursion; and autoconv's own
    # frames are hidden (autoconv.tracebacks): the test's call is the whole traceback.
    assert [entry.path.name for entry in info.traceback] == ["test_recursion.py"]


def power(x, k):
    if k == 0:
        return np.ones_like(x)
    return x * power(x, k - 1)


def shrink(x, depth):
    if depth == 0:
        return x
    if np.sum(x) > 0:
        x = x - 1
    return shrink(x, depth - 1)


@pytest.mark.parametrize(
    "fn, args",
    [(power, (np.arange(3.0), 5)), (shrink, (np.arange(3.0), 40))],
    ids=["python_exponent", "staged_if_at_each_level"],
)
def test_recursion_on_python_values_still_traces(fn, args):
    graph = autoconv.function(fn)(*args)
    eager = fn(*args)
    assert graph.dtype == eager.dtype
    np.testing.assert_array_equal(graph, eager)


def test_python_recursion_too_deep_to_trace_says_so():
    depth = sys.getrecursionlimit() // 2
    shrink(np.arange(3.0), depth)  # fine eagerly; traced, each level takes more stack
    with pytest.raises(autoconv.AutoconvError, match="too deeply to be traced") as info:
        autoconv.function(shrink)(np.arange(3.0), depth)
    assert isinstance(info.value, RecursionError)  # what the eager error would be
    assert re.match(rf"{HERE}:{_line(shrink, 'return shrink(')}: `shrink`", str(info.value))


def test_function_is_usable_after_the_error():
    f = autoconv.function(total)
    with pytest.raises(autoconv.AutoconvError):
        f(np.float64(3.0))
    assert f(3) == total(3)
    assert autoconv.function(power)(np.arange(3.0), 2).tolist() == [0.0, 1.0, 4.0]
