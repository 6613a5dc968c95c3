"""Caches stay bounded and can be cleared (issue 15, item 2).

Each scenario of `benchmarks/memory.py`, small enough to run in CI in about a second: what the
caches hold is counted (`autoconv.caches.sizes()`) and objects that should be freed are watched
through weak references.
"""

import gc
import types
import warnings
import weakref

import numpy as np
import pytest

import autoconv
from autoconv import caches
from autoconv.graph.errors import RetracingWarning


def conversion_entries() -> int:
    # Garbage that earlier tests left (their functions in reference cycles) is collected first,
    # so that a collection in the middle of a measurement cannot change the count.
    gc.collect()
    sizes = caches.sizes()
    return sum(v for k, v in sizes.items() if k.startswith(("conversion", "converted calls")))


HELPERS = """
def outer(x):
    def helper(y):
        if y > 2:
            return y - 1
        return y + 1
    total = 0
    for i in range(x):
        total = total + helper(i)
    return total
"""


def test_a_helper_defined_per_call_is_one_cache_entry(user_module):
    mod = user_module(HELPERS)
    f = autoconv.convert(mod.outer)
    assert f(5) == mod.outer(5)
    before = conversion_entries()
    for x in range(300):
        assert f(x % 7) == mod.outer(x % 7)
    assert conversion_entries() == before


# one signature per length, on purpose: the cache is what is measured
@pytest.mark.filterwarnings("ignore::autoconv.RetracingWarning")
def test_a_traced_helper_defined_per_call_is_one_cache_entry(user_module):
    mod = user_module(HELPERS.replace("range(x)", "range(3)").replace("total = 0", "total = x"))
    f = autoconv.function(mod.outer)
    for n in range(1, 4):
        np.testing.assert_array_equal(f(np.arange(n)), mod.outer(np.arange(n)))
    before = conversion_entries()
    for n in range(4, 30):
        np.testing.assert_array_equal(f(np.arange(n)), mod.outer(np.arange(n)))
    assert conversion_entries() == before


def lambda_module(n: int) -> str:
    return (
        "fs = [\n"
        + "".join(f"    lambda x: x + {i} if x > 0 else x - {i},\n" for i in range(n))
        + "]\n"
    )


def test_converted_lambdas_are_freed_with_them(user_module, always_converted):
    mod = user_module(lambda_module(300))
    before = conversion_entries()
    converted = [autoconv.convert(f) for f in mod.fs]
    assert [g(1) for g in converted] == [f(1) for f in mod.fs]
    assert conversion_entries() >= before + 300
    watch = weakref.ref(converted[0])
    del converted, mod.fs
    gc.collect()
    assert watch() is None
    assert conversion_entries() == before


def test_clear_caches_empties_every_cache(user_module):
    mod = user_module(lambda_module(20) + HELPERS)
    kept = [autoconv.convert(f) for f in mod.fs]
    g = autoconv.function(mod.outer)
    assert g(3) == mod.outer(3)
    assert any(caches.sizes().values())
    autoconv.clear_caches()
    assert not any(caches.sizes().values()), caches.sizes()
    # What was converted before keeps working; Functions trace again.
    assert [k(-1) for k in kept] == [f(-1) for f in mod.fs]
    assert g(3) == mod.outer(3)
    assert g.tracing_count == 2


def test_function_clear_cache():
    @autoconv.function
    def f(x):
        return x * 2

    f(np.ones(2))
    f(np.ones(3))
    f.clear_cache()
    assert f.pretty_printed_concrete_signatures() == ""
    np.testing.assert_array_equal(f(np.ones(2)), np.full(2, 2.0))
    assert f.tracing_count == 3


# more signatures than max_traces, on purpose: eviction is what is measured
@pytest.mark.filterwarnings("ignore::autoconv.RetracingWarning")
def test_max_traces_keeps_the_most_recently_used():
    @autoconv.function(max_traces=3)
    def f(x):
        return x + 1

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in (1, 2, 3):
            f(np.ones(n))
        f(np.ones(1))  # used again: now the most recent
        f(np.ones(4))  # evicts shape (2,), the least recently used
        line = f(np.ones(5)).shape and __import__("sys")._getframe().f_lineno - 1
    assert len(f._concretes) == 3
    assert f.tracing_count == 5
    evictions = [w for w in caught if issubclass(w.category, RetracingWarning)]
    assert len(evictions) == 1 and "max_traces=3" in str(evictions[0].message)
    assert evictions[0].filename == __file__  # the caller's line, not autoconv's
    assert evictions[0].lineno in (line - 1, line)
    f(np.ones(1))
    assert f.tracing_count == 5  # (1,) was kept
    f(np.ones(2))
    assert f.tracing_count == 6  # (2,) was dropped
    np.testing.assert_array_equal(f(np.ones(2)), np.full(2, 2.0))


def test_max_traces_must_be_positive():
    with pytest.raises(ValueError, match="max_traces"):
        autoconv.function(lambda x: x, max_traces=0)


class Model:
    def __init__(self, scale):
        self.scale = scale
        self.w = np.ones(2)

    @autoconv.function
    def call(self, x):
        return x * self.scale + self.w

    @autoconv.function
    def step(self, x):
        self.w = self.w + x
        return self.w.sum()


# a new instance per call, on purpose: what the cache keeps is measured
@pytest.mark.filterwarnings("ignore::autoconv.RetracingWarning")
def test_a_method_keeps_no_instance_alive():
    Model.call.clear_cache()
    models = [Model(float(i)) for i in range(50)]
    refs = [weakref.ref(m) for m in models]
    for i, m in enumerate(models):
        np.testing.assert_array_equal(m.call(np.ones(2)), np.full(2, i + 1.0))
    assert len(Model.call._concretes) == 50
    del models, m
    gc.collect()
    assert all(r() is None for r in refs)
    assert len(Model.call._concretes) == 0  # their graphs went with them


def test_a_new_instance_at_a_dead_ones_address_traces_afresh():
    for i in range(30):  # CPython often reuses the address at once
        m = Model(float(i))
        np.testing.assert_array_equal(m.call(np.ones(2)), np.full(2, i + 1.0))
        np.testing.assert_array_equal(m.call(np.ones(2)), np.full(2, i + 1.0))  # fast path
        del m


def test_method_state_and_semantics_per_instance():
    a, b = Model(1.0), Model(2.0)
    assert a.step(np.float64(1)) == 4.0
    assert b.step(np.float64(2)) == 6.0
    assert a.step(np.float64(1)) == 6.0
    np.testing.assert_array_equal(a.w, np.full(2, 3.0))
    np.testing.assert_array_equal(b.w, np.full(2, 3.0))
    assert Model.step(a, np.float64(0)) == 6.0  # through the class: the same Function
    assert a.step.python_function.__self__ is a
    assert autoconv.convert(a.step)(np.float64(0)) == 6.0


def test_method_concrete_function_and_input_signature():
    class Scaler:
        def __init__(self, k):
            self.k = k

        @autoconv.function(input_signature=[autoconv.TensorSpec([None], np.float64)])
        def apply(self, x):
            return x * self.k

    s = Scaler(3.0)
    np.testing.assert_array_equal(s.apply(np.ones(2)), np.full(2, 3.0))
    np.testing.assert_array_equal(s.apply(np.ones(5)), np.full(5, 3.0))
    assert Scaler.apply.tracing_count == 1
    concrete = s.apply.get_concrete_function()
    np.testing.assert_array_equal(concrete(np.ones(4)), np.full(4, 3.0))
    with pytest.raises(ValueError, match="parameter `x` expects float64 Tensor, shape=.None,."):
        s.apply(np.ones((2, 2)))


def _stacks(xs):
    out = []
    for v in xs:
        out.append(v)
    return np.array(out)


def test_functions_sharing_code_with_other_globals_convert_by_their_own_globals():
    """A call's conversion depends on what its name means (NumPy's functions are staged, other
    libraries' are called as they are): a copy of a function with other globals, made with
    `types.FunctionType`, gets its own conversion, whichever is converted first."""
    import operator

    library = types.ModuleType("library")
    library.array = operator.neg  # a library's function: called as it is
    other = dict(_stacks.__globals__, np=library)
    copy = types.FunctionType(_stacks.__code__, other, "_stacks")
    first, second = autoconv.to_code(copy), autoconv.to_code(_stacks)
    assert "np.array(out)" in first and "ac.converted(np.array)(out)" not in first
    assert "ac.converted(np.array)(out)" in second
    traced = autoconv.function(_stacks)(np.array([1.0, 2.0]))
    np.testing.assert_array_equal(traced, [1.0, 2.0])
