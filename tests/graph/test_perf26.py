"""Branch perf26 (issue 25, autoconv's part of a first call): what the trace now keeps instead
of working out again at every step of a loop unrolled while tracing gives the answers it gave
before. Stand-in result dtypes are cached by what the stand-ins depend on, user origins by the
instruction, the parse of a statement's line by its text, and every traced Tensor starts with
no in-place change noted (`_stale` None) instead of an unset slot."""

import inspect

import numpy as np
import pytest

import autoconv
from autoconv.graph import shapes
from autoconv.graph.origin import user_origin
from autoconv.trace.tensors import user_code
from tests.graph.agreement import BACKENDS, follows_the_rule, message


def _reductions(x, k):
    # The same functions on several dtypes, axes and keywords in one trace: a cache keyed too
    # coarsely would give one of them another's dtype.
    out = []
    for _ in range(k):
        out.append(np.sum(x, axis=0))
        out.append(np.sum(x, axis=0, dtype=np.float32))
        out.append(np.sum(x > 0))
        out.append(np.mean(x, axis=1, keepdims=True))
        out.append(np.argmin(x, axis=1))
        out.append(np.max(np.abs(x)))
        out.append(np.prod(x.astype(np.int8), axis=(0, 1)))
        out.append(np.cumsum(x.astype(np.bool_), axis=1))
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "x",
    [
        np.arange(12, dtype=np.int32).reshape(3, 4) - 5,
        np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4),
        np.arange(12, dtype=np.uint8).reshape(3, 4),
        np.ones((3, 4), dtype=np.bool_),
    ],
)
def test_reductions_keep_eager_dtypes_step_after_step(x, backend):
    follows_the_rule(_reductions, x, 3, backend=backend)


_STANDIN_CASES = [
    (np.sum, (np.ones((2, 3), np.int8),), {}),
    (np.sum, (np.ones((2, 3), np.int8),), {"dtype": np.int16}),
    (np.sum, (np.ones((2, 3), np.float32),), {"axis": (0, 1)}),
    (np.mean, (np.ones((2, 3), np.int64),), {"axis": 1}),
    (np.argmin, (np.ones((2, 3), np.float16),), {"axis": 0}),
    (np.max, (np.ones(3, np.uint16),), {}),
    (np.add, (np.ones(3, np.uint8), 3), {}),
    (np.add, (np.ones(3, np.uint8), 3.0), {}),
    (np.add, (np.ones(3, np.uint8), True), {}),
    (np.add, (np.ones(3, np.float32), np.float64(2.0)), {}),
    (np.add, (np.ones(3, np.float32), np.float32(2.0)), {}),
    (np.clip, (np.ones(3, np.int32), 0, 2.5), {}),
    (np.full_like, (np.ones(3, np.int32), 1.5), {"dtype": np.float32}),
]


def test_cached_standin_dtypes_are_numpys():
    """Each answer, asked first and asked again (from the cache), is NumPy's dtype for the real
    operands, whatever was asked in between."""
    shapes._STANDIN_DTYPES.clear()
    for _ in range(2):
        for func, args, kwargs in _STANDIN_CASES:
            got = shapes.standin_dtype(func, args, kwargs)
            assert got == np.asarray(func(*args, **kwargs)).dtype, (func, args, kwargs)
    assert len(shapes._STANDIN_DTYPES) == len(_STANDIN_CASES)


def test_standin_dtypes_of_other_operands_are_not_cached():
    shapes._STANDIN_DTYPES.clear()
    assert shapes.standin_dtype(np.concatenate, ([np.ones(2), np.ones(2, np.int8)],), {}) == (
        np.float64
    )
    assert shapes.standin_dtype(np.random.default_rng(0).normal, (0.0, 1.0), {}) == np.float64
    rng = np.random.default_rng(0)
    assert shapes.standin_dtype(rng.exponential, (0.5,), {"size": (2,)}) == np.float64
    assert not shapes._STANDIN_DTYPES
    state = rng.bit_generator.state
    shapes.standin_dtype(rng.exponential, (0.5,), {"size": (2,)})
    assert rng.bit_generator.state != state  # (each call draws: never answered from a cache)
    assert not shapes._STANDIN_DTYPES


def _origins():
    found = []
    for _ in range(3):
        found.append(user_origin())  # the first line
        found.append(user_origin())  # the second line
    return found


def test_user_origins_are_each_instructions_line():
    first = inspect.getsourcelines(_origins)[1] + 3
    assert _origins() == [(__file__, first), (__file__, first + 1)] * 3
    # Code objects made and dropped again (their ids may be reused): each call's own lines.
    for offset in range(1, 30):
        source = "\n" * offset + "def f(user_origin):\n    return user_origin()\n"
        namespace: dict = {}
        exec(compile(source, "<perf26>", "exec"), namespace)
        assert namespace["f"](user_origin) == ("<perf26>", offset + 2)
        del namespace


def _late_write(x):
    out = np.zeros(3)
    for i in range(5):
        x = x * 2.0
        out[i] = x  # i == 3: out of bounds, eagerly an IndexError at this line
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_error_on_a_later_step_names_its_own_line(backend):
    follows_the_rule(_late_write, np.array(1.0), backend=backend)
    line = inspect.getsourcelines(_late_write)[1] + 4
    assert f"{__file__}:{line}" in message(_late_write, np.array(1.0), backend=backend)


def test_statement_parses_are_answered_by_text():
    assert user_code.target_name("out[i] = acc") == "out"
    assert user_code.target_name("out[i] = acc") == "out"
    assert user_code.target_name("a[i], a[j] = a[j], a[i]") == "a"
    assert user_code.target_name("x += 1") == "x"
    assert user_code.target_name("print(x)") is None
    assert user_code.target_name("out[i] = (") is None
    assert user_code._parses("x = 1") and not user_code._parses("x = (")


def _aliased_write(x):
    y = x * 1.0
    z = y
    for i in range(3):
        y[i] = i  # eagerly changes `z` too: a clear error in a graph
    return z


@pytest.mark.parametrize("backend", BACKENDS)
def test_changed_in_place_is_still_seen(backend):
    assert "`z`" in message(_aliased_write, np.ones(4), backend=backend)


def _written_then_read(x):
    y = x + 0.0
    for i in range(4):
        y[i] = 2.0 * i
    return y.sum() + x.sum()


@pytest.mark.parametrize("backend", BACKENDS)
def test_traced_tensors_start_unchanged(backend):
    follows_the_rule(_written_then_read, np.ones(5), backend=backend)


def test_a_new_tensor_has_no_change_noted():
    def f(x):
        y = x * 2.0
        seen.append(y._stale)
        return y

    seen: list = []
    autoconv.function(f)(np.ones(3))
    assert seen == [None]
