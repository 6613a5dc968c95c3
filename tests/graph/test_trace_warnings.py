"""Warnings about code that runs differently once traced: an `autoconv.function` made anew in
every loop iteration, and trace-time effects (Python's `print`, mutating a global or closure
container) that the graph will not repeat."""

import inspect
import warnings

import numpy as np

import autoconv
from autoconv.trace.tensors import made_in_loop

HERE = __file__


def _line(marker: str, func) -> int:
    """The line number of the line of `func`'s source that contains `marker`."""
    lines, start = inspect.getsourcelines(func)
    return start + next(i for i, text in enumerate(lines) if marker in text)


def _caught(run, category=Warning):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run()
    return [w for w in caught if issubclass(w.category, category)]


def double(x):
    return x * 2


# --- a Function made per loop iteration -----------------------------------------------------


def test_function_made_in_a_loop_warns_once_at_the_users_line():
    def run():
        for _ in range(6):
            autoconv.function(double)(np.ones(2))  # made here

    caught = _caught(run, autoconv.RetracingWarning)
    assert len(caught) == 1
    w = caught[0]
    assert (w.filename, w.lineno) == (HERE, _line("# made here", run))
    message = str(w.message)
    assert "`double` was made anew and traced 3 times" in message
    assert "once, outside the loop" in message


def test_decorated_def_inside_a_loop_body_warns():
    def run():
        for x in [np.ones(2)] * 4:

            @autoconv.function  # decorated here
            def inner(y):
                return y + 1

            inner(x)

    caught = _caught(run, autoconv.RetracingWarning)
    assert len(caught) == 1
    assert caught[0].filename == HERE
    assert caught[0].lineno in (_line("# decorated here", run), _line("def inner", run))
    assert "`inner` was made anew" in str(caught[0].message)


def test_function_made_by_a_helper_called_repeatedly_warns_at_the_helpers_line():
    def make_and_call(x):
        return autoconv.function(double)(x)  # in the helper

    def run():
        for _ in range(3):
            make_and_call(np.ones(3))

    caught = _caught(run, autoconv.RetracingWarning)
    assert [(w.filename, w.lineno) for w in caught] == [
        (HERE, _line("# in the helper", make_and_call))
    ]


def test_one_function_called_in_a_loop_does_not_warn():
    f = autoconv.function(double)

    def run():
        for n in range(1, 5):  # four shapes: four traces, below the retracing threshold
            f(np.ones(n))
        for _ in range(10):
            f(np.ones(2))

    assert _caught(run, autoconv.RetracingWarning) == []
    assert f.tracing_count == 4


def test_two_functions_from_one_line_do_not_warn():
    def run():
        for _ in range(2):
            autoconv.function(double)(np.ones(2))

    assert _caught(run, autoconv.RetracingWarning) == []


def test_functions_made_but_never_called_do_not_warn():
    def run():
        return [autoconv.function(double) for _ in range(10)]

    assert _caught(run, autoconv.RetracingWarning) == []


def test_one_method_wrapped_for_each_of_many_objects_does_not_warn():
    class Model:
        def __init__(self, w):
            self.w = w

        def __call__(self, x):
            return x * self.w

    models = [Model(float(i)) for i in range(5)]

    def run():
        return [autoconv.function(m.__call__)(np.ones(2)) for m in models]

    assert _caught(run, autoconv.RetracingWarning) == []


def test_a_cell_run_again_does_not_warn_but_a_loop_in_it_does(tmp_path):
    """A notebook cell (or a module) run again is compiled anew: re-making its Function there
    is no mistake. A loop inside one run of it is."""
    path = tmp_path / "cell.py"
    cell = "@autoconv.function\ndef f(x):\n    return x + 1\n\nf(np.ones(2))\n"
    path.write_text(cell)

    def rerun():
        for _ in range(4):  # like running the same notebook cell four times
            exec(compile(cell, str(path), "exec"), {"autoconv": autoconv, "np": np})

    assert _caught(rerun, autoconv.RetracingWarning) == []
    looped = "for _ in range(3):\n" + "".join(f"    {line}\n" for line in cell.splitlines())
    path.write_text(looped)
    code = compile(looped, str(path), "exec")
    caught = _caught(
        lambda: exec(code, {"autoconv": autoconv, "np": np}), autoconv.RetracingWarning
    )
    assert [(w.filename, w.lineno) for w in caught] == [(str(path), 2)]


def test_clear_caches_forgets_the_counts():
    def run():
        for _ in range(2):
            autoconv.function(double)(np.ones(2))

    run()
    assert made_in_loop._counts
    autoconv.clear_caches()
    assert not made_in_loop._counts
    assert _caught(run, autoconv.RetracingWarning) == []


def test_results_are_unchanged_by_the_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = [autoconv.function(double)(np.arange(3.0)) for _ in range(4)]
    for r in results:
        np.testing.assert_array_equal(r, np.arange(3.0) * 2)


def test_the_warning_comes_with_the_thresholdth_function():
    threshold = made_in_loop.THRESHOLD
    seen = []

    def run():
        for _ in range(threshold + 2):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                autoconv.function(double)(np.ones(2))
            seen.append(len(caught))

    run()
    assert seen == [0] * (threshold - 1) + [1] + [0] * 2


# --- trace-time effects ---------------------------------------------------------------------

LOG = []
TABLE = {}


def _effects(run):
    return _caught(run, autoconv.TraceEffectWarning)


def test_print_in_a_traced_function_warns_once_per_trace_at_its_line(capsys):
    def f(x):
        print("tracing")  # the print
        print("again")
        return x + 1

    g = autoconv.function(f)
    caught = _effects(lambda: g(np.ones(2)))
    assert [(w.filename, w.lineno) for w in caught] == [(HERE, _line("# the print", f))]
    assert "known while tracing runs only while `f` is traced" in str(caught[0].message)
    assert "autoconv.print(...)" in str(caught[0].message)
    assert _effects(lambda: g(np.ones(2))) == []  # the graph runs: no trace, no print
    assert len(_effects(lambda: g(np.ones(3)))) == 1  # a new trace
    assert capsys.readouterr().out == "tracing\nagain\ntracing\nagain\n"


def test_print_in_a_helper_the_trace_calls_warns_at_the_helpers_line(capsys):
    def helper(y):
        print("helper")  # helper's print
        return y * 2

    @autoconv.function
    def f(x):
        return helper(x) + 1

    caught = _effects(lambda: f(np.ones(2)))
    assert [(w.filename, w.lineno) for w in caught] == [(HERE, _line("# helper's print", helper))]
    assert "(in `helper`, called by `f`)" in str(caught[0].message)


def test_print_in_a_comprehension_and_in_a_method_warn(capsys):
    @autoconv.function
    def f(xs):
        return [print(len(x)) for x in xs]  # in a comprehension

    class M:
        @autoconv.function
        def call(self, x):
            print(x.shape)
            return x

    assert len(_effects(lambda: f([np.ones(1)]))) == 1
    assert len(_effects(lambda: M().call(np.ones(1)))) == 1
    assert capsys.readouterr().out == "1\n(1,)\n"


def test_print_of_a_tensor_is_staged_and_never_warns(capsys):
    @autoconv.function
    def f(xs):
        return [print(x) for x in xs]

    class M:
        @autoconv.function
        def call(self, x):
            print(x)
            return x

    for _ in range(2):
        assert _effects(lambda: f([np.ones(1)])) == []
        assert _effects(lambda: M().call(np.ones(1))) == []
    assert capsys.readouterr().out == "[1.]\n[1.]\n" * 2


def test_autoconv_print_never_warns(capsys, user_module):
    def f(x):
        autoconv.print("value", x)
        return x

    assert _effects(lambda: autoconv.function(f)(np.ones(2))) == []
    mod = user_module(
        """
        from autoconv import print

        def f(x):
            print("value", x)
            return x
        """
    )
    assert _effects(lambda: autoconv.function(mod.f)(np.ones(2))) == []
    assert capsys.readouterr().out == "value [1. 1.]\nvalue [1. 1.]\n"


def test_no_effect_warning_outside_traces(capsys):
    def f(x):
        print("eager")
        LOG.append(1)
        return x + 1

    def run():
        f(np.ones(2))
        autoconv.convert(f)(np.ones(2))
        autoconv.run_functions_eagerly(True)
        try:
            autoconv.function(f)(np.ones(2))
        finally:
            autoconv.run_functions_eagerly(False)

    try:
        assert _effects(run) == []
        assert LOG == [1, 1, 1]
    finally:
        LOG.clear()


def test_appending_to_a_global_list_warns_once_at_its_line():
    def f(x):
        LOG.append(x)  # the append
        LOG.append(x)
        return x * 2

    g = autoconv.function(f)
    try:
        caught = _effects(lambda: g(np.ones(2)))
        assert [(w.filename, w.lineno) for w in caught] == [(HERE, _line("# the append", f))]
        message = str(caught[0].message)
        assert "`LOG.append(...)` changes the list `LOG` (a global)" in message
        assert "happens once" in message and "autoconv.Variable" in message
        assert _effects(lambda: g(np.ones(2))) == []
        assert len(LOG) == 2  # the effect itself is unchanged: twice, while tracing
    finally:
        LOG.clear()


def test_changing_a_global_dict_or_a_closure_set_warns():
    def make():
        seen = set()

        @autoconv.function
        def k(x):
            seen.add("x")  # closure
            return x

        return k, seen

    @autoconv.function
    def f(x):
        TABLE.update(x=1)
        return x

    try:
        k, seen = make()
        caught = _effects(lambda: k(np.ones(2)))
        assert len(caught) == 1 and "the set `seen` (held by the function's closure)" in str(
            caught[0].message
        )
        assert seen == {"x"}
        caught = _effects(lambda: f(np.ones(2)))
        assert len(caught) == 1 and "`TABLE.update(...)`" in str(caught[0].message)
    finally:
        TABLE.clear()


def test_local_and_argument_containers_do_not_warn():
    @autoconv.function
    def f(x, acc):
        out = []
        out.append(x)
        acc.append(x)
        parts = list(acc)
        parts.append(x)
        return out[0] + parts[-1]

    acc = []
    assert _effects(lambda: f(np.ones(2), acc)) == []
    assert len(acc) == 1


def test_reading_a_global_container_does_not_warn():
    @autoconv.function
    def f(x):
        TABLE.get("scale", 1.0)
        return x * len(LOG)

    assert _effects(lambda: f(np.ones(2))) == []


def test_item_assignment_or_deletion_on_a_global_or_closure_container_warns():
    def f(x):
        local = {}
        local["a"] = x
        TABLE["x"] = x  # item store
        return x

    def g(x):
        LOG[0] += 1  # augmented
        return x

    def h(x):
        del TABLE["x"]  # deletion
        return x

    def make():
        cache = {}

        def k(x):
            cache["last"] = x  # closure item
            return x

        return k

    try:
        LOG.append(0)
        for func, marker, what in [
            (f, "# item store", "`TABLE[...] = ...` changes the dict `TABLE` (a global)"),
            (g, "# augmented", "`LOG[...] += ...` changes the list `LOG` (a global)"),
            (h, "# deletion", "`del TABLE[...]` changes the dict `TABLE` (a global)"),
            (make(), "# closure item", "the dict `cache` (held by the function's closure)"),
        ]:
            caught = _effects(lambda func=func: autoconv.function(func)(np.ones(2)))
            assert [(w.filename, w.lineno) for w in caught] == [(HERE, _line(marker, func))]
            assert what in str(caught[0].message)
        assert LOG == [1] and TABLE == {}
    finally:
        LOG.clear()
        TABLE.clear()


def test_item_assignment_on_locals_arguments_and_a_helpers_closure_does_not_warn():
    @autoconv.function
    def f(x, out):
        seen = {}
        seen["x"] = x
        out[0] = x

        def remember(v):
            seen["v"] = v  # the helper's closure is a local of the trace
            return v

        return remember(x) + seen["x"]

    out = [None]
    assert _effects(lambda: f(np.ones(2), out)) == []
    np.testing.assert_array_equal(out[0], np.ones(2))
