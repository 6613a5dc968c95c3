"""Rich display in notebooks: `_repr_html_` of Function, ConcreteFunction and Graph, and the
`Code` string that `to_code` returns."""

import html
import pickle
import re
import shutil

import numpy as np
import pytest

import autoconv
from autoconv.code import Code, highlight
from autoconv.graph import display
from tests.system_tools import require


@autoconv.function
def scaled(x, limit):
    if np.sum(x) > limit:  # a staged branch: the picture has then/else
        x = x * 0.5
    return x


def text_of(fragment: str) -> str:
    """The text a browser shows for an HTML fragment (tags dropped, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


@pytest.fixture
def no_dot(monkeypatch):
    monkeypatch.setattr(display.shutil, "which", lambda name: None)


def test_a_function_shows_each_signature_with_its_listing(no_dot):
    f = autoconv.function(scaled.python_function)
    assert "Not traced yet" in f._repr_html_()
    f(np.ones(3), 1.0)
    f(np.ones((2, 2), np.float32), 1.0)
    page = f._repr_html_()
    shown = text_of(page)
    assert "autoconv.Function scaled (2 traces)" in shown
    for concrete in f._concretes:
        assert concrete.pretty_printed_signature() in shown
        assert concrete.optimized_graph.as_text() in shown
    assert page.count("<details") == 2 and "<svg" not in page


def test_a_concrete_function_and_a_graph_show_signature_and_listing(no_dot):
    concrete = scaled.get_concrete_function(np.ones(3), 1.0)
    shown = text_of(concrete._repr_html_())
    assert concrete.pretty_printed_signature() in shown
    assert concrete.optimized_graph.as_text() in shown
    graph_page = concrete.graph._repr_html_()
    assert concrete.graph.as_text() in text_of(graph_page)
    assert "<svg" not in graph_page


def test_with_graphviz_the_display_holds_an_inline_svg_picture():
    require("Graphviz's dot", shutil.which("dot"), "Debian: apt-get install graphviz")
    concrete = scaled.get_concrete_function(np.ones(3), 1.0)
    page = concrete._repr_html_()
    assert page.count("<svg") == 1 and "<?xml" not in page and "DOCTYPE" not in page
    picture = page[page.index("<svg") : page.index("</svg>")]
    assert ">then<" in picture and ">else<" in picture
    assert concrete.optimized_graph.as_text() in text_of(page[page.index("</svg>") :])


def test_without_graphviz_there_is_no_picture(no_dot):
    assert display.svg("digraph { a }") is None


def test_text_from_user_code_is_escaped(no_dot):
    graph = scaled.get_concrete_function(np.ones(3), 1.0).graph.copy()
    graph.name = "<script>alert(1)</script>"
    page = graph._repr_html_()
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "<script" not in Code("x = '<script>'\n")._repr_html_()


def test_to_code_is_a_str_that_notebooks_show_highlighted():
    code = autoconv.to_code(scaled)
    assert isinstance(code, str) and type(code) is Code
    assert code == str(code) and code[:10] == str(code)[:10] and type(code[:3]) is str
    assert compile(code, "<code>", "exec")
    assert pickle.loads(pickle.dumps(code)) == code
    page = code._repr_html_()
    assert page.startswith("<pre") and text_of(page) == code
    assert '<span style="color:#0451a5;font-weight:bold">if_stmt</span>' in page

    class Printer:  # IPython's pretty printer protocol: the code itself, not its repr
        def __init__(self):
            self.parts = []

        def text(self, s):
            self.parts.append(s)

    printer = Printer()
    code._repr_pretty_(printer, False)
    assert printer.parts == [str(code)]


@pytest.mark.parametrize(
    "source",
    [
        "def f(x):\n    return x  # a comment <b>\n",
        's = """a\nmulti-line & string"""\nn = 1.5e3\n',
        "if x:\n  y = 'unterminated\n",  # does not tokenize: plain escaped text
        "",
    ],
    ids=["comment", "multiline-string", "broken", "empty"],
)
def test_the_highlighter_keeps_the_text_exactly(source):
    assert text_of(highlight(source)) == source


def test_a_graph_too_large_to_draw_shows_its_listing_only(monkeypatch):
    monkeypatch.setattr(display, "MAX_DRAWN_OPERATIONS", 1)
    graph = scaled.get_concrete_function(np.ones(3), 1.0).graph
    page = graph._repr_html_()
    assert "too many to draw" in page and "<svg" not in page
    assert graph.as_text() in text_of(page)


def test_signatures_and_pass_summaries_show_as_lines_and_stay_str(no_dot):
    from IPython.lib.pretty import pretty

    f = autoconv.function(scaled.python_function)
    f(np.ones(3), 1.0)
    concrete = f.get_concrete_function(np.ones(3), 1.0)
    for text in (
        f.pretty_printed_concrete_signatures(),
        concrete.pass_summary(),
        concrete.pretty_printed_signature(),
    ):
        assert isinstance(text, str) and "\n" in text
        assert pretty(text) == str(text)  # lines, not one quoted string with \n in it
        assert text_of(text._repr_html_()) == text
    assert f.pretty_printed_concrete_signatures().startswith("scaled(x, limit)\n  Args:")


def test_variables_specs_and_loaded_functions_have_rich_displays(no_dot, tmp_path):
    v = autoconv.Variable(np.arange(3.0), name="w<1>")
    shown = text_of(v._repr_html_())
    assert "autoconv.Variable w<1> float64[3]" in shown and "array([0., 1., 2.])" in shown
    spec = autoconv.TensorSpec([None, 3], np.float32, name="x")
    assert text_of(spec._repr_html_()) == "autoconv.TensorSpec float32[None, 3] x"

    @autoconv.function
    def step(x):
        v.assign_add(x)
        return v * 2

    step(np.ones(3))
    step.save(tmp_path / "step.acg")
    loaded = autoconv.load(tmp_path / "step.acg")
    page = loaded._repr_html_()
    shown = text_of(page)
    assert f"autoconv.LoadedFunction step (1 signature, from {tmp_path / 'step.acg'})" in shown
    assert loaded.signatures[0] in shown and loaded.graph().as_text() in shown
    assert "w<1>: array([1., 2., 3.])" in shown and page.count("<details") == 1


def test_without_graphviz_a_display_says_once_how_to_get_the_picture(no_dot, monkeypatch):
    monkeypatch.setattr(display, "_TOLD", [])
    concrete = scaled.get_concrete_function(np.ones(3), 1.0)
    first, second = concrete._repr_html_(), concrete._repr_html_()
    assert "Install Graphviz" in text_of(first) and "apt install graphviz" in text_of(first)
    assert "Graphviz" not in second
