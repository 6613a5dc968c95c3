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
