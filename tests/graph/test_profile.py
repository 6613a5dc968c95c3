"""`ConcreteFunction.profile`: every operation of the graph that runs appears in the table, the
shares add up to the whole, and the table shows as text and as HTML. Structure only: times
are never asserted."""

import re
import sys

import numpy as np
import pytest

import autoconv
from autoconv.graph.listing import _origin


@autoconv.function
def step(x, n):
    total = np.zeros_like(x)
    i = 0
    while i < n:
        total = total + np.sin(x) * i
        i += 1
    if np.sum(total) > 0:
        total = total / np.max(total)
    return total, i


def test_every_operation_line_is_reported_and_shares_sum_to_one():
    concrete = step.get_concrete_function(np.ones(50), np.int64(3))
    result = concrete.profile(np.ones(50), np.int64(3), runs=4)
    assert result.runs == 4 and result.per_run_s > 0
    # With n = 0 the loop body never runs and the `else` branch does: between the two
    # profiles every operation ran.
    other = concrete.profile(np.ones(50), np.int64(0), runs=1)
    profiled = {id(n) for r in result.operations + other.operations for n in r.nodes}
    ran = [
        n
        for n in concrete.optimized_graph.walk()
        if n.kind not in ("const", "placeholder")  # constants are bound, not computed
    ]
    missing = [n for n in ran if id(n) not in profiled]
    assert not missing, missing
    assert sum(r.share for r in result.operations) == pytest.approx(1.0)
    assert sum(r.share for r in result.lines) == pytest.approx(1.0)
    # Sorted, largest first; the loop body ran three times per run.
    seconds = [r.seconds for r in result.operations]
    assert seconds == sorted(seconds, reverse=True)
    sin_row = next(r for r in result.operations if "sin(" in r.what)
    assert sin_row.calls == 3
    # Per line: the user's source text and file:line.
    line_row = next(r for r in result.lines if "np.sin(x)" in r.what)
    assert line_row.where == _origin(sin_row.nodes[0]) and line_row.calls == 3


def test_the_profile_shows_as_a_text_table_and_a_sorted_html_table():
    concrete = step.get_concrete_function(np.ones(5), np.int64(2))
    result = concrete.profile(np.ones(5), np.int64(2), runs=2)
    text = str(result)
    assert text.startswith("profile of step: 2 runs")
    assert "per operation:" in text and "per line:" in text
    assert "total = total + np.sin(x) * i" in text
    page = result._repr_html_()
    assert page.count("<table") == 2
    rows = re.findall(r"<tr><td[^>]*>([\d.]+)%</td>", page)
    assert len(rows) == len(result.operations) + len(result.lines)
    first = [float(v) for v in rows[: len(result.operations)]]
    assert first == sorted(first, reverse=True)
    # Operation and source text are escaped (`np.sum(total) > 0` has a `>`).
    assert re.search(r"%\d+ &gt; 0", page) and not re.search(r"%\d+ > 0", page)


def test_the_profiler_leaves_the_trace_function_as_it_was():
    before = sys.gettrace()
    concrete = step.get_concrete_function(np.ones(5), np.int64(2))
    concrete.profile(np.ones(5), np.int64(2), runs=1)
    assert sys.gettrace() is before
    with pytest.raises(ValueError, match="runs must be at least 1"):
        concrete.profile(np.ones(5), np.int64(2), runs=0)


@autoconv.function
def in_user_words(x, steps):
    h = x * np.array([[1.0, 2.0], [3.0, 4.0]])  # a small 2-d constant
    if np.sum(h) > 0:
        y = h.sum() * 2
    else:
        y = -1  # a Python int on this path: the output's type depends on the path
    for _ in range(steps):
        h = h + 1.0
    return y, h.mean()


def test_profile_rows_say_what_the_user_wrote_with_the_listing_names():
    concrete = in_user_words.get_concrete_function(np.ones((2, 2)), 2)
    result = concrete.profile(np.ones((2, 2)), 2, runs=2)
    rows = [r.what for r in result.operations]
    shown = "\n".join(rows)
    assert re.search(r"%\d+ = %\d+\.sum\(\)", shown), shown  # not add.reduce(%n, None, ...)
    assert re.search(r"%\d+ = %\d+\.mean\(\)", shown), shown  # not mean(%n, 4)
    assert "reduce" not in shown and not re.search(r"\bv\d+\b|\bc_\d+\b", shown), shown
    # The return row ends as the listing does.
    listing_return = concrete.optimized_graph.as_text().splitlines()[-1].strip()
    assert listing_return in rows
    # The optimized listing still shows what runs (the lowered call).
    assert "add.reduce" in concrete.optimized_graph.as_text()


def test_the_listing_keeps_small_constants_and_path_typed_outputs_on_one_line():
    concrete = in_user_words.get_concrete_function(np.ones((2, 2)), 2)
    text = concrete.graph.as_text()
    line = next(t for t in text.splitlines() if "[[" in t)
    assert "[[1.,2.], [3.,4.]]" in line and re.search(r"test_profile\.py:\d+$", line), text
    # `y` is a NumPy value on one path and a Python int on the other.
    assert re.search(r"return \(%\d+ \(a NumPy value or a Python int, by %\d+\), %\d+\)", text)
    assert "<" not in text, text


@autoconv.function
def maybe_largest(xs):
    best = None
    for v in xs:
        if best is None or v > best:
            best = v
    return best


def test_the_listing_shows_an_output_that_may_be_none():
    text = maybe_largest.get_concrete_function(np.ones(3)).graph.as_text()
    assert re.search(r"return %\d+ \(or None where not %\d+\)\n$", text), text
    assert maybe_largest(np.array([1.0, 3.0, 2.0])) == 3.0 and maybe_largest(np.ones(0)) is None
