"""`Graph.as_text()` writes an index as Python does: `x[2:]` is a slice, not the index 2."""

import numpy as np
import pytest

import autoconv


@pytest.mark.parametrize(
    "index, text",
    [
        (lambda x: x[2:], "%0[2:]"),
        (lambda x: x[:3], "%0[:3]"),
        (lambda x: x[1:3], "%0[1:3]"),
        (lambda x: x[::2], "%0[::2]"),
        (lambda x: x[1::2], "%0[1::2]"),
        (lambda x: x[:], "%0[:]"),
        (lambda x: x[2], "%0[2]"),
        (lambda x: x[1:, None], "%0[1:, None]"),
    ],
)
def test_slices_in_listings(index, text):
    graph = autoconv.function(index).get_concrete_function(np.zeros(5)).graph
    assert text in graph.as_text()
