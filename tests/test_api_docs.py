"""docs/api.md, the API reference, is what `tools/gen_api_docs.py` makes of the current code,
and names every public name; the names it adds for a user's first hour behave as documented."""

import importlib.util
import json
import pathlib
import re
import threading

import numpy as np
import pytest

import autoconv

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")


def _generator():
    spec = importlib.util.spec_from_file_location(
        "gen_api_docs", ROOT / "tools" / "gen_api_docs.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _generator()


def test_the_page_is_up_to_date():
    assert gen.render() == PAGE, "run `python tools/gen_api_docs.py` to regenerate docs/api.md"


@pytest.mark.parametrize("name", sorted(autoconv.__all__))
def test_every_public_name_has_an_entry_with_a_docstring(name):
    entry = PAGE.split(f"### `{name}(", 1)[-1] if f"### `{name}(" in PAGE else None
    if entry is None:
        head = f"### `class {name}"
        assert head in PAGE, f"{name} is missing from docs/api.md"
        entry = PAGE.split(head, 1)[1]
    assert not entry.split("\n###", 1)[0].count("(no docstring)"), name


@pytest.mark.parametrize(
    "name",
    ["Function", "ConcreteFunction", "LoadedFunction", "Graph", "TensorSpec", "Variable", "Tensor"],
)
def test_every_public_member_of_the_public_classes_is_listed(name):
    cls = gen.public_objects()[name]
    members = gen.members(cls)
    assert members
    section = re.split(rf"### `class {name}[(`]", PAGE, maxsplit=1)[1].split("\n### ", 1)[0]
    for member, _, _ in members:
        assert f"`{name}.{member}" in section or f"`{member}`" in section, (name, member)


def test_a_public_name_the_page_lacks_fails_the_check(monkeypatch):
    monkeypatch.setattr(autoconv, "__all__", [*autoconv.__all__, "Graph"])
    monkeypatch.setitem(gen.SECTIONS, "Conversion", ["tracing"])  # the others go to OTHER
    assert gen.render() != PAGE
    assert "## Other names" in gen.render()


def test_the_generated_signatures_are_stable():
    assert "0x" not in PAGE
    assert "### `tracing() -> bool`" in PAGE
    assert "### `class TensorSpec(shape, dtype=numpy.float32, name=None)`" in PAGE


# --- the names the page added -------------------------------------------------------------


def test_tracing_is_true_only_while_tracing():
    seen = []

    @autoconv.function
    def f(x):
        seen.append(autoconv.tracing())  # a TraceEffectWarning, on purpose
        return x + 1

    assert autoconv.tracing() is False
    with pytest.warns(autoconv.TraceEffectWarning):
        f(np.ones(2))
    f(np.ones(2))  # the graph runs: no Python code of f
    assert seen == [True]
    autoconv.run_functions_eagerly(True)
    try:
        f(np.ones(2))
    finally:
        autoconv.run_functions_eagerly(False)
    assert seen == [True, False]


def test_tracing_in_another_thread_is_not_this_threads():
    started, release, answers = threading.Event(), threading.Event(), []

    @autoconv.function
    def slow(x):
        started.set()
        release.wait(10)
        return x * 2

    t = threading.Thread(target=slow, args=(np.ones(2),))
    t.start()
    started.wait(10)
    answers.append(autoconv.tracing())
    release.set()
    t.join()
    assert answers == [False]


def test_tracing_under_jax():
    jax = pytest.importorskip("jax")
    seen = []

    def f(x):
        seen.append(autoconv.tracing())
        return x + 1

    jax.jit(f)(1.0)
    f(1.0)
    assert seen == [True, False]


def test_concrete_functions_in_trace_order():
    @autoconv.function
    def f(x):
        return x * 2

    assert f.concrete_functions == []
    a, b = np.ones(2, np.float32), np.ones(3, np.float64)
    f(a), f(b), f(a)
    cfs = f.concrete_functions
    assert cfs == [f.get_concrete_function(a), f.get_concrete_function(b)]
    assert f.pretty_printed_concrete_signatures() == "\n\n".join(
        c.pretty_printed_signature() for c in cfs
    )
    assert repr(f) == "<autoconv.Function f (2 traces)>"
    f.clear_cache()
    f(a)
    assert repr(f) == "<autoconv.Function f (3 traces)>" and len(f.concrete_functions) == 1


def test_singular_counts_in_reprs(tmp_path):
    @autoconv.function
    def f(x):
        return x + 1

    f(np.ones(2))
    assert repr(f) == "<autoconv.Function f (1 trace)>"
    f.save(tmp_path / "f.acg")
    assert repr(autoconv.load(tmp_path / "f.acg")) == "<autoconv.LoadedFunction f (1 signature)>"


def test_function_profile_matches_the_concrete_functions():
    @autoconv.function
    def f(x):
        return np.sum(x * 2)

    x = np.arange(4.0)
    profile = f.profile(x, runs=3)
    assert profile.runs == 3 and f.tracing_count == 1
    assert {(r.what, r.calls) for r in profile.lines} == {
        (r.what, r.calls) for r in f.get_concrete_function(x).profile(x, runs=3).lines
    }

    class Model:
        @autoconv.function
        def scaled(self, x):
            return x * 3

    m = Model()
    assert m.scaled.profile(x, runs=2).runs == 2


def test_graph_as_dict_is_the_saved_form_and_round_trips():
    from autoconv.functions.saving.decode import Decoder

    v = autoconv.Variable(np.float32(2.0), name="scale")

    @autoconv.function
    def f(x):
        if np.sum(x) > 0:
            y = x * v + np.arange(3, dtype=np.float32)
        else:
            y = -x
        return y

    x = np.array([1.0, -2.0, 3.0], np.float32)
    graph = f.get_concrete_function(x).optimized_graph
    data = graph.as_dict()
    assert data["format"] == "autoconv-graph" and data["version"] >= 1
    json.dumps(data["graph"])  # plain data
    assert data["variables"] == [
        {"name": "scale", "trainable": True, "array": len(data["arrays"]) - 1}
    ]
    variables = [
        autoconv.Variable(data["arrays"][d["array"]], name=d["name"]) for d in data["variables"]
    ]
    again = Decoder(data["arrays"], variables).graph(data["graph"], "graph")
    assert again.as_text() == graph.as_text()
    assert again.as_dict()["graph"] == data["graph"]
