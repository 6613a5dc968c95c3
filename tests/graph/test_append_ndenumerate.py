"""`np.append` (a graph operation now; in a staged loop the array grows by the data) and
`np.ndenumerate` of a Tensor of known shape (its `(index, item)` pairs, indices of Python ints),
eager vs graph; their errors of eager's type."""

import numpy as np
import pytest

import autoconv
from tests.graph.test_staged_writes_and_appends import same


def appended(x):
    a = np.append(x, 1.0)
    b = np.append(x.reshape(1, -1), x.reshape(1, -1), axis=0)
    c = np.append(x, [[1, 2]])
    return a, b, c


def grown_by_the_data(x, thr):
    kept = np.array([])
    for v in x:
        if v > thr:
            kept = np.append(kept, v)
    return kept.size, kept


def centroid(img):
    total = 0.0
    cy = cx = 0.0
    for (y, x), v in np.ndenumerate(img):
        total += v
        cy += y * v
        cx += x * v
    if total == 0:
        return None
    return cy / total, cx / total


def bright_pixels(img):
    out = []
    for (y, x), v in np.ndenumerate(img):
        if v > 0.5:
            out.append((y, x))
    return out


@pytest.mark.parametrize(
    "f, args",
    [
        (appended, (np.array([1.0, 2.0]),)),
        (grown_by_the_data, (np.array([3.0, -1.0, 5.0]), 0.0)),
        (grown_by_the_data, (np.array([-3.0]), 0.0)),
        (centroid, (np.array([[0.0, 1.0], [2.0, 0.5]]),)),
        (centroid, (np.zeros((2, 3)),)),
        (bright_pixels, (np.array([[0.2, 0.9], [0.7, 0.1]]),)),
    ],
)
def test_append_and_ndenumerate_match_eager(f, args):
    same(autoconv.function(f)(*args), f(*args))


def test_append_of_mismatched_dimensions_is_a_value_error():
    def bad(x):
        return np.append(x, np.ones((2, 2)), axis=0)

    with pytest.raises(ValueError, match="same number of dimensions"):
        bad(np.ones(2))
    with pytest.raises(ValueError, match="same number of dimensions"):
        autoconv.function(bad)(np.ones(2))


def test_ndenumerate_of_an_unknown_shape_says_what_to_write():
    spec = [autoconv.TensorSpec([None], np.float64)]
    g = autoconv.function(bright_pixels, input_signature=spec)
    with pytest.raises(autoconv.AutoconvError, match="np.ndenumerate of an array of shape"):
        g(np.ones(3))
