"""The optimizing passes, each on graphs before and after, and their settings.

Each pass runs alone on a copy of a traced graph (`optimized(f, args, "fold")` runs `fold`,
then `dce` so that what the pass made dead disappears); the tests say what the graph holds
before and after. That results stay identical with every pass setting is the business of the
differential suite (`test_differential.py`), which runs once per setting.
"""

import re

import numpy as np
import pytest

import autoconv
from autoconv.backends.numpy.executor import Program
from autoconv.graph import passes
from autoconv.graph.passes import dce, fold

X = np.arange(12, dtype=np.float32).reshape(3, 4) - 5
W = np.ones((4, 4), np.float32)


def traced(fn, *args):
    """The graph of `fn` as traced, before any pass."""
    return autoconv.function(fn, optimize=False).get_concrete_function(*args).graph


def optimized(fn, args, *names):
    """A copy of the traced graph after running the passes `names` (then `dce`)."""
    graph = traced(fn, *args).copy()
    for name in names:
        passes.PASSES[name].run(graph, passes.Settings())
    dce.run(graph)
    return graph


def ops(graph) -> list:
    """The operations of a graph, nested blocks included, by name."""
    return [node.op for node in graph.walk()]


def run(graph, *args):
    return Program(graph).fn(*args)


# --- constant folding ---------------------------------------------------------------------------


def test_fold_computes_constant_subgraphs_once():
    def f(x):
        ramp = np.cumsum(np.ones_like(x), axis=1)  # depends on x's shape only
        return x * np.exp(-ramp)

    assert ops(traced(f, X)) == ["ones_like", "cumsum", "-", "exp", "*"]
    graph = optimized(f, (X,), "fold")
    assert ops(graph) == ["const", "*"]
    const = graph.nodes[0].attrs["value"]
    assert not const.flags.writeable and const.dtype == np.float32
    np.testing.assert_array_equal(run(graph, X), f(X))


def test_fold_leaves_what_fails_warns_or_is_too_big():
    def f(x):
        with np.errstate(divide="ignore"):
            return np.log(np.zeros_like(x)) + x  # log(0) warns: it warns at run time too

    assert "log" in ops(optimized(f, (X,), "fold"))
    big = np.zeros((1200, 1200))  # 11.5 MB
    settings = passes.Settings(fold_max_bytes=1 << 20)
    graph = traced(lambda x: np.ones_like(x) + x, big).copy()
    fold.run(graph, settings)
    assert "ones_like" in ops(graph)


def test_fold_never_freezes_an_array_the_program_can_change():
    table = np.ones(4, np.float32)

    @autoconv.function
    def f(x):
        return x + (np.zeros_like(x) + table)  # `table` is read when the graph runs

    assert f(np.zeros(4, np.float32)).tolist() == [1, 1, 1, 1]
    table[:] = 2
    assert f(np.zeros(4, np.float32)).tolist() == [2, 2, 2, 2]


def test_fold_takes_the_branch_of_a_constant_condition():
    def f(x):
        if np.sum(np.ones_like(x)) > 100:
            y = x * 2
        else:
            y = x - 1
        return y

    assert "cond" in ops(traced(f, X))
    graph = optimized(f, (X,), "fold")
    assert ops(graph) == ["-"]
    np.testing.assert_array_equal(run(graph, X), X - 1)


def test_fold_switched_off():
    f = autoconv.function(lambda x: np.ones_like(x) + x, optimize={"fold": False})
    assert "ones_like" in f.get_concrete_function(X).code


# --- common subexpressions ---------------------------------------------------------------------


def test_cse_computes_a_repeated_expression_once():
    def f(x):
        return np.sin(x) * np.cos(x) + np.sin(x) * np.cos(x)

    assert ops(traced(f, X)).count("sin") == 2
    graph = optimized(f, (X,), "cse")
    assert ops(graph) == ["sin", "cos", "*", "+"]


def test_cse_reuses_a_value_from_before_a_loop_but_not_across_branches():
    def f(x, n):
        s = np.sin(x)
        if np.sum(x) > 0:
            a = np.cos(x)
        else:
            a = np.cos(x) * 2
        i = 0
        while i < n:
            a = a + np.sin(x)  # the value computed before the loop serves here
            i += 1
        return a + s

    graph = optimized(f, (X, np.int64(2)), "cse")
    assert ops(graph).count("sin") == 1
    assert ops(graph).count("cos") == 2  # one per branch


def test_cse_keeps_arguments_that_differ_in_type_or_sign():
    def f(x):
        return x + 1, x + 1.0, x + True, x * 0.0, x * -0.0

    assert len(optimized(f, (X,), "cse").nodes) == 5


def test_cse_keeps_results_the_caller_receives_distinct():
    def f(x):
        return x + 1, x + 1

    graph = optimized(f, (X,), "cse")
    assert ops(graph) == ["+", "+"]
    a, b = autoconv.function(f)(X)
    assert a is not b


def test_cse_merges_variable_reads_only_without_an_update_between():
    v = autoconv.Variable(np.ones(3))

    def f(x):
        a = x * v
        b = x * v  # same read: merged
        v.assign_add(x)
        return a + b + x * v  # after the update: read again

    graph = optimized(f, (np.ones(3),), "cse")
    assert ops(graph).count("read") == 2


# --- algebraic simplification ------------------------------------------------------------------


@pytest.mark.parametrize(
    "fn, dtype, simplified",
    [
        (lambda x: x * 1, np.float32, True),
        (lambda x: 1 * x, np.int32, True),
        (lambda x: x - 0, np.float32, True),
        (lambda x: x / 1, np.float64, True),
        (lambda x: x**1, np.int64, True),
        (lambda x: x + 0, np.int32, True),
        (lambda x: x + 0, np.float32, False),  # -0.0 + 0 is +0.0
        (lambda x: x + (-0.0), np.float32, True),
        (lambda x: x * 1, np.complex64, False),  # (inf+0j) * 1 has a NaN part
        (lambda x: x * 1.0, np.int32, False),  # a float64 result
        (lambda x: x.astype(np.float32), np.float32, True),
        (lambda x: x.reshape(3, 4), np.float32, True),
        (lambda x: np.reshape(x, (-1, 4)), np.float32, True),
        (lambda x: x.reshape(4, 3), np.float32, False),
    ],
    ids=lambda v: getattr(v, "__name__", repr(v)),
)
def test_simplify_identities(fn, dtype, simplified):
    def f(x):
        return np.sin(fn(x) + 0.5)  # `fn(x)` is read by an operation, not returned

    x = (np.arange(12) - 5).reshape(3, 4).astype(dtype)
    before = traced(f, x)
    graph = optimized(f, (x,), "simplify")
    assert len(list(graph.walk())) == len(list(before.walk())) - (1 if simplified else 0)


def test_simplify_double_negation_and_transposes():
    def f(x):
        y = -x
        return np.sin(-y), np.sin(x.T.T), np.sin(x.transpose(1, 2, 0).transpose(2, 0, 1))

    x = np.ones((2, 3, 4))
    assert ops(optimized(f, (x,), "simplify")) == ["sin", "sin", "sin"]


def test_simplify_composes_transposes():
    def f(x):
        return np.sin(np.transpose(np.transpose(x, (1, 2, 0)), (1, 2, 0)))

    x = np.arange(24.0).reshape(2, 3, 4)
    graph = optimized(f, (x,), "simplify")
    assert ops(graph) == ["transpose", "sin"]
    np.testing.assert_array_equal(run(graph, x), f(x))


def test_simplify_keeps_a_new_array_for_the_caller():
    @autoconv.function
    def f(x):
        return x * 1, x.astype(x.dtype)

    a, b = f(X)
    assert a is not X and b is not X and not np.shares_memory(a, X)


# --- lowering of reductions ----------------------------------------------------------------------


def test_lower_reductions_call_the_ufunc_reduce():
    def f(x):
        return np.sum(x), x.max(axis=0), np.any(x > 0), np.mean(x), x.mean()

    graph = optimized(f, (X,), "lower")
    assert ops(graph) == ["add.reduce", "maximum.reduce", ">", "logical_or.reduce", "mean", "mean"]
    code = autoconv.function(f).get_concrete_function(X).code
    assert "mean_all(v0, 12)" in code and "np_add_reduce(v0, None, None, None)" in code


def test_lower_leaves_what_it_cannot_prove_equal():
    def f(x, s):
        return np.mean(x.astype(np.float16)), np.sum(s), np.mean(x, axis=0)

    graph = optimized(f, (X, np.float32(1)), "lower")
    assert ops(graph) == [".astype", "mean", "sum", "mean"]


# --- dead code -----------------------------------------------------------------------------------


def test_dce_drops_unused_operations_and_keeps_effects():
    v = autoconv.Variable(0.0)

    def f(x):
        np.take(x, [100])  # unused
        autoconv.print("kept")
        v.assign_add(1.0)
        return x + 1

    assert ops(optimized(f, (X,))) == ["print", "read", "+", "assign", "+"]


def test_dce_drops_unused_branch_results():
    def f(x):
        if np.sum(x) > 0:
            y, z = x * 2, np.sqrt(np.abs(x))
        else:
            y, z = x - 1, np.exp(x)
        return y, np.ndim(z)

    before = traced(f, X)
    assert next(n for n in before.nodes if n.kind == "cond").outputs.__len__() == 2
    graph = optimized(f, (X,))
    node = next(n for n in graph.nodes if n.kind == "cond")
    assert len(node.outputs) == 1
    assert "sqrt" not in ops(graph) and "exp" not in ops(graph)


def test_dce_drops_loop_variables_nothing_reads():
    def f(x, n):
        i = 0
        unused = x * 0
        total = x
        while i < n:
            unused = unused + np.exp(total)
            total = total + 1
            i += 1
        return total

    graph = optimized(f, (X, np.int64(3)))
    loop = next(n for n in graph.nodes if n.kind == "while")
    assert len(loop.outputs) == 2  # total and i
    assert "exp" not in ops(graph)
    np.testing.assert_array_equal(run(graph, X, np.int64(3)), X + 3)


def test_dce_off_runs_everything():
    def f(x):
        np.take(x, [100])
        return x

    with pytest.raises(IndexError):
        autoconv.function(f, optimize={"dce": False})(X)
    assert autoconv.function(f)(X) is X


# --- in-place buffer reuse ----------------------------------------------------------------------


def test_inplace_chain_allocates_once():
    def f(a, b, c, d):
        return a * b + c - d

    graph = optimized(f, (X, X, X, X), "inplace")
    assert [n.attrs.get("inplace") for n in graph.nodes] == [None, 0, 0]
    code = autoconv.function(f).get_concrete_function(X, X, X, X).code
    assert "v4 = v0 * v1\n" in code and "v4 += v2  # v5" in code and "v4 -= v3  # v6" in code


def test_inplace_into_the_right_operand_and_ufuncs():
    def f(x):
        return np.maximum(0.0, 2.0 - x @ W)

    code = autoconv.function(f).get_concrete_function(X).code
    assert re.search(r"np_subtract\(c_?\d*, v1, out=v1\)", code)  # 2.0 as a float32 0-d array
    assert re.search(r"np_maximum\(c_?\d*, v1, out=v1\)", code)
    code = autoconv.function(f, optimize={"lower": False}).get_concrete_function(X).code
    assert "np_subtract(2.0, v1, out=v1)" in code and "np_maximum(0.0, v1, out=v1)" in code


def _returned(x):
    y = x * 2
    return y, y + 1


def _viewed(x):
    y = x * 2
    return y.T, y + 1


def _read_twice(x):
    y = x * 2
    return y + 1, y * 2


@pytest.mark.parametrize(
    "fn, marked",
    [
        (lambda x: (x * 2) + 1, 1),
        (_returned, 0),  # y is returned
        (_viewed, 0),  # y has a view
        (_read_twice, 0),  # y is read twice
        (lambda x: x + 1, 0),  # x is the caller's array
        (lambda x: (x * 2) / 3, 0),  # int32 in, float64 out
        (lambda x: (x[:, :1] * 2) + x, 0),  # broadcasts to a larger shape
    ],
    ids=["chain", "returned", "viewed", "read_twice", "input", "new_dtype", "broadcast"],
)
def test_inplace_only_where_nothing_else_sees_the_buffer(fn, marked):
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    graph = optimized(fn, (x,), "inplace")
    assert sum(1 for n in graph.walk() if "inplace" in n.attrs) == marked


def test_inplace_not_inside_a_loop_for_a_value_from_outside():
    def f(x, n):
        y = x * 2
        i = 0
        total = np.zeros_like(x)
        while i < n:
            total = total + (y + 1)  # y is read again by the next iteration
            i += 1
        return total

    x = np.ones(3)
    graph = optimized(f, (x, np.int64(3)), "inplace")
    plus = [n for n in graph.walk() if n.op == "+" and type(n.args[1]) is int]
    assert plus and all("inplace" not in n.attrs for n in plus)
    np.testing.assert_array_equal(autoconv.function(f)(x, np.int64(3)), f(x, 3))


# --- settings ----------------------------------------------------------------------------------


def test_settings_per_function_module_wide_and_in_a_block():
    def f(x):
        return np.sin(x) + np.sin(x)

    assert autoconv.function(f).get_concrete_function(X).code.count("np_sin(") == 1
    assert autoconv.function(f, optimize=False).get_concrete_function(X).code.count("np_sin(") == 2
    assert (
        autoconv.function(f, optimize={"cse": False}).get_concrete_function(X).code.count("np_sin(")
        == 2
    )
    with passes.options(cse=False):
        assert autoconv.function(f).get_concrete_function(X).code.count("np_sin(") == 2
    assert passes.current() == passes.Settings()
    previous = passes.configure(False)
    try:
        assert autoconv.function(f).get_concrete_function(X).code.count("np_sin(") == 2
        assert (
            autoconv.function(f, optimize=True).get_concrete_function(X).code.count("np_sin(") == 1
        )
    finally:
        passes.configure(previous)


def test_unknown_setting_is_named():
    with pytest.raises(TypeError, match=r"unknown optimization setting\(s\) 'fuse'; known: cse"):
        autoconv.function(lambda x: x, optimize={"fuse": True})
    with pytest.raises(TypeError, match="optimize= takes"):
        autoconv.function(lambda x: x, optimize="all")


def test_concrete_function_reports_passes_and_times():
    cf = autoconv.function(lambda x: np.sin(x) + np.sin(x)).get_concrete_function(X)
    assert [r.name for r in cf.pass_records][-3:] == ["lower", "dce", "inplace"]
    assert set(cf.timings) == {"trace", "optimize", "compile"}
    assert "cse" in cf.pass_summary() and "optimize" in cf.pass_summary()
    assert ops(cf.graph).count("sin") == 2  # the traced graph is kept as traced
    assert ops(cf.optimized_graph).count("sin") == 1
    assert "(into %" in cf.optimized_graph.as_text()
