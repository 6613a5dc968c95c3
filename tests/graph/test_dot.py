"""`to_dot()`: labelled clusters for branches and loops, edges into and out of them, loop
variables entering and leaving, constant values, marked inputs and outputs, no dead operations.

The DOT text is checked structurally; where Graphviz's `dot` is installed it must also render
it without a warning.
"""

import inspect
import re
import shutil
import subprocess

import numpy as np

import autoconv


@autoconv.function
def staged_if(x):
    if np.sum(x) > 0:
        y = x * 2.5
    else:
        y = -x
    return y + 1.0


@autoconv.function
def while_break(x, n):
    i = 0
    total = np.zeros_like(x)
    while i < n:
        total = total + x * i
        if np.max(total) > 100.0:
            break
        i += 1
    return total, i


@autoconv.function
def for_tensor(xs):
    s = np.float64(0.0)
    for row in xs:
        s = s + np.sum(row * row)
    return s


@autoconv.function
def with_dead(x):
    np.cos(x)  # nothing needs it
    return x + 1


def line_of(function, text: str) -> int:
    """The line of this file where `function`'s source has `text`."""
    lines, first = inspect.getsourcelines(function.python_function)
    return first + next(i for i, line in enumerate(lines) if text in line)


def clusters(dot: str) -> list:
    return re.findall(r'subgraph cluster_(\w+) \{ label="([^"]*)"', dot)


def edges(dot: str) -> list:
    """(source, target, attributes) of every edge."""
    return re.findall(r"^\s*(\w+) -> (\w+) \[(.*)\];$", dot, re.M)


def node_label(dot: str, name: str) -> str:
    return re.search(rf'^\s*{name} \[label="((?:[^"\\]|\\.)*)"', dot, re.M).group(1)


def check_renders(dot: str) -> None:
    assert dot.count("{") == dot.count("}")
    if shutil.which("dot"):
        done = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True)
        assert done.returncode == 0 and not done.stderr, done.stderr
        assert "<svg" in done.stdout


def test_a_staged_if_has_then_and_else_blocks_with_edges_in_and_out():
    dot = staged_if.get_concrete_function(np.ones(3)).to_dot()
    check_renders(dot)
    labels = dict(clusters(dot))
    assert sorted(labels.values()) == sorted(
        [f"if (test_dot.py:{line_of(staged_if, 'if np.sum')})", "then", "else"]
    )
    names = {label: name for name, label in labels.items()}
    found = edges(dot)
    # The `if` node leads into each block.
    for label in ("then", "else"):
        assert any(
            f"lhead=cluster_{names[label]}" in attrs and f'label="{label}"' in attrs
            for _, _, attrs in found
        )
    # Each block's yield leads out to the merge node that later operations read.
    merge = next(n for n in re.findall(r"^\s*(m\d+) \[", dot, re.M))
    assert sum(1 for src, dst, _ in found if dst == merge and src.startswith("y")) == 2
    assert any(src == merge for src, _, _ in found)
    # Inputs and outputs are marked; literal values are shown.
    assert "input x\\nfloat64[3]" in dot and "shape=invhouse" in dot
    assert re.search(r'output \[label="return %\d+", shape=house', dot)
    assert "2.5" in dot and "1.0" in dot


def test_a_while_loop_with_break_shows_its_variables_entering_and_leaving():
    dot = while_break.get_concrete_function(np.ones(3), np.int64(5)).to_dot()
    check_renders(dot)
    labels = [label for _, label in clusters(dot)]
    assert labels[:3] == [f"while (test_dot.py:{line_of(while_break, 'while i')})", "test", "body"]
    assert "then" in labels and "else" in labels  # the `if ...: break` inside the body
    attrs = [a for _, _, a in edges(dot)]
    assert sum('taillabel="enter"' in a for a in attrs) == 3  # i, total and the break flag
    for label in ("true", "false", "next iteration", "break"):
        assert any(f'label="{label}"' in a for a in attrs), label
    loop_vars = next(n for n in re.findall(r"^\s*(w\d+) \[", dot, re.M))
    assert node_label(dot, loop_vars).startswith("loop vars %")
    # Constants show their values: the initial 0, False, and zeros_like folded to [0.,0.,0.].
    assert re.search(r'label="0\\nint', dot) and re.search(r'label="False\\nbool', dot)
    assert "[0.,0.,0.]" in dot
    assert re.search(r'output \[label="return \(%\d+, %\d+\)"', dot)


def test_a_for_loop_over_a_tensor_is_a_loop_with_a_test_and_a_body():
    dot = for_tensor.get_concrete_function(np.ones((4, 3))).to_dot()
    check_renders(dot)
    assert [label for _, label in clusters(dot)] == [
        f"while (test_dot.py:{line_of(for_tensor, 'for row')})",
        "test",
        "body",
    ]
    assert "%0[%" in dot  # the row read from the input


def test_the_optimized_graph_by_default_the_traced_one_on_request():
    concrete = staged_if.get_concrete_function(np.ones(3))
    assert concrete.to_dot() == concrete.optimized_graph.to_dot()
    assert concrete.to_dot(optimized=False) == concrete.graph.to_dot()
    assert "sum(" in concrete.to_dot(optimized=False)
    assert "add.reduce(" in concrete.to_dot()  # the lowering pass ran


def test_dead_operations_are_not_drawn_unless_asked():
    graph = with_dead.get_concrete_function(np.ones(2)).graph
    assert "cos" in graph.as_text()
    assert "cos" not in graph.to_dot()
    grey = graph.to_dot(dead=True)
    check_renders(grey)
    line = next(ln for ln in grey.splitlines() if "cos(" in ln)
    assert "color=gray70" in line


def test_quotes_and_backslashes_in_labels_are_escaped():
    @autoconv.function
    def f(x):
        return np.char_count if False else x + len('a"b\\c')

    dot = f.get_concrete_function(np.ones(2)).to_dot()
    check_renders(dot)


def test_a_reduction_names_its_axis_and_leaves_out_default_nones():
    concrete = staged_if.get_concrete_function(np.ones(3))
    dot = concrete.to_dot()
    check_renders(dot)
    assert "add.reduce(%0, axis=None)" in dot and "None, None" not in dot
    assert "add.reduce(%0, None, None, None)" in concrete.optimized_graph.as_text()

    @autoconv.function
    def rows(x):
        return np.add.reduce(x, 1, np.float32)

    dot = rows.get_concrete_function(np.ones((2, 3))).to_dot()
    assert "add.reduce(%0, axis=1, dtype=float32)" in dot


def test_the_pictures_in_graph_mode_md_are_there_and_drawn_by_the_tool(tmp_path):
    """Every image docs/graph-mode.md shows is a PNG in docs/images; the tool that draws the
    graph pictures (reference functions and seed examples) draws each from current DOT."""
    import importlib.util
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2]
    shown = re.findall(r"\]\(images/([\w-]+\.png)\)", (root / "docs/graph-mode.md").read_text())
    assert {"seed-square-if-small.png", "seed-simple-relu.png", "seed-train-step.png"} <= set(shown)
    for name in shown:
        data = (root / "docs/images" / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000, name
    spec = importlib.util.spec_from_file_location(
        "graph_pictures", root / "tools/graph_pictures.py"
    )
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    drawn = {f"{name}.png" for name in tool.CASES}
    assert drawn <= set(shown)
    for func, args in tool.CASES.values():
        check_renders(func.get_concrete_function(*args).to_dot())
