"""The graph-mode rule as the finding and mechanism tests check it: a traced function returns
what the eager NumPy function returns (values, dtypes, shapes, Python types, dict order), or
raises the exception eager code raises."""

import copy

import numpy as np
import pytest

import autoconv

try:
    import jax  # noqa: F401
except ImportError:  # jax is optional
    BACKENDS = ["numpy"]
else:
    BACKENDS = ["numpy", "jax"]


def same(want, got) -> bool:
    """Equal values of equal types, deeply; floats to rounding (the JAX backend's sums may
    round differently), NaN equal to NaN."""
    if type(want) is not type(got):
        return False
    if isinstance(want, (tuple, list)):
        return len(want) == len(got) and all(map(same, want, got))
    if isinstance(want, dict):
        return list(want) == list(got) and all(same(want[k], got[k]) for k in want)
    if isinstance(want, (np.ndarray, np.generic)):
        if want.dtype != got.dtype or np.shape(want) != np.shape(got):
            return False
        if want.dtype.kind in "fc":
            return np.allclose(want, got, equal_nan=True)
        return np.array_equal(want, got)
    if isinstance(want, float) and want != want:
        return got != got  # a Python NaN
    return want == got


def follows_the_rule(fn, *args, backend: str = "numpy", text: bool = False):
    """Eager's answer, or an exception of eager's type (`text`: and eager's message in it)."""
    try:
        want = ("return", fn(*copy.deepcopy(args)))
    except Exception as e:  # noqa: BLE001 - an outcome
        want = ("raise", e)
    graph = autoconv.function(fn, backend=backend)
    if want[0] == "raise":
        with pytest.raises(type(want[1])) as info:
            graph(*copy.deepcopy(args))
        if text:
            assert str(want[1]) in str(info.value)
    else:
        got = graph(*copy.deepcopy(args))
        assert same(want[1], got), (want[1], got)


def follows_or_jax_limit(fn, *args, backend: str = "numpy"):
    """`follows_the_rule`; on the JAX backend its documented LoweringError also passes, where
    it names the line of `fn`'s file."""
    try:
        follows_the_rule(fn, *args, backend=backend)
    except autoconv.AutoconvError as e:
        assert backend == "jax" and type(e).__name__ == "LoweringError", str(e)
        assert f"{fn.__code__.co_filename}:" in str(e), str(e)


def message(fn, *args, backend: str = "numpy") -> str:
    """The text of the AutoconvError that tracing or running `fn` gives."""
    with pytest.raises(autoconv.AutoconvError) as info:
        autoconv.function(fn, backend=backend)(*args)
    return str(info.value)
