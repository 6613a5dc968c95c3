"""Graphs that read lists a staged loop appended to (an item, `sum`, `max(..., default=)`, two
branches' lists joined) save and load, and the loaded function gives eager's results; a list
of tuples appended in a staged loop is a clear SaveError before anything is written."""

import numpy as np
import pytest

import autoconv
from autoconv.functions.saving.errors import SaveError
from tests.graph.test_appended_tuples import amortization
from tests.graph.test_staged_writes_and_appends import same

INPUTS = [np.array([1.0, -2.0, 3.0]), np.array([-1.0]), np.zeros(0)]


def reads(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    last = out[-1] if out else 0.0
    return last, sum(out), max(out, default=-1.0), min(out, default=7), len(out)


def joined(x):
    out = [1.0]
    for v in x:
        if v > 0:
            for _ in range(2):
                out.append(v)
        else:
            out.append(v * 2)
    return out


@pytest.mark.parametrize("f", [reads, joined], ids=lambda f: f.__name__)
def test_run_time_list_reads_save_and_load(f, tmp_path):
    for i, x in enumerate(INPUTS):
        g = autoconv.function(f)
        g(x)
        path = tmp_path / f"{i}.acg"
        g.save(path)
        same(autoconv.load(path)(x), f(x))


def test_a_list_of_tuples_is_a_save_error_and_writes_nothing(tmp_path):
    g = autoconv.function(amortization)
    g(INPUTS[0])
    path = tmp_path / "rows.acg"
    with pytest.raises(SaveError) as info:
        g.save(path)
    assert "list of tuples" in str(info.value)
    assert "test_appended_tuples.py:" in str(info.value)
    assert not path.exists()
