"""A helper's list made of two run-time lists (`out + [0] * (len(row) - len(out))`: the items a
staged loop kept, padded to the row's length) appended to a list in a loop. autoconv joins the
two runs into one in place when it appends the list as an item; that is not a change of the
user's, which the check of lists changed after being appended took it for (batch 10's C11:
"a list appended to list `rows` here is changed later"). Eager and graph, both backends."""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_or_jax_limit

INPUTS = [np.array([[2, 0], [0, 0]]), np.array([[1, 2, 0]]), np.array([[0, 3, 0, 4]])]


def _pad(row):
    out = []
    for v in row:
        if v != 0:
            out.append(v)
    return out + [0] * (len(row) - len(out))


def padded_rows(tiles):
    rows = []
    for r in tiles:
        rows.append(_pad(r))
    return rows


def padded_sums(tiles):
    rows = []
    for r in tiles:
        p = _pad(r)
        rows.append(p)
    return [sum(p) for p in rows]


def one_padded_row(tiles):
    return _pad(tiles[0])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f", [padded_rows, padded_sums, one_padded_row], ids=lambda f: f.__name__)
def test_program(f, backend):
    for x in INPUTS:
        follows_or_jax_limit(f, x, backend=backend)
