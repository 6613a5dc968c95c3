"""Numbers whose Python type depends on the path taken: `-1` on one path, `x[i]` on another.

Such a value is a Tensor whose `py_kinds` is `(tag, kinds, name)`: `tag`, known at run time,
indexes `kinds`, the type each path gives (a Python number type, or None for the NumPy value as
computed); `name` is the user's variable. The value itself has the joined dtype. Returned or
printed, it has its path's type. An operation on it keeps the tag where every path's result
differs only as a Python number differs from the NumPy scalar of the same dtype (`0.05 *
scale`). Where the operation's results differ in dtype by path (`x * scale` with an int32
`x` and `scale` being `-1` or `1.0`; `s * 10 + v` with an int32 `v` and `s` a Python int or
an int64; `np.stack([s])` with `s` a Python float or a float32), no one value can stand for
both: that is an error naming the variable.
"""

from __future__ import annotations

import itertools

import numpy as np

from autoconv.graph.errors import StagingError, where
from autoconv.graph.origin import user_origin
from autoconv.graph.tensor import PY_TYPES, Tensor
from autoconv.trace.core.messages import named, shown
from autoconv.trace.core.values import map_leaves

_PY_NUMBERS = (bool, int, float, complex)
_PY_DTYPES = {bool: np.dtype(bool), int: np.dtype(np.int64), float: np.dtype(np.float64)}
_PY_DTYPES[complex] = np.dtype(np.complex128)


def tagged(value, tag, kinds, name):
    """`value` (a Tensor) with the Python type of each path: `tag` indexes `kinds`."""
    if len(kinds) > 1:
        value.py_kinds = (tag, kinds, name)
    return value


def kinds_of(v) -> tuple:
    """The Python types a number has on the paths that reach it: bool/int/float/complex for a
    Python number (or a weak Tensor standing for one), None for a NumPy value."""
    if isinstance(v, Tensor):
        if v.py_kinds is not None:
            return v.py_kinds[1]
        return (PY_TYPES[v.dtype.kind] if v.weak else None,)
    t = type(v)
    return (t if t in _PY_NUMBERS else None,)


def kept_kinds(kinds: dict, i: int, leaves, carried: dict) -> bool:
    """A staged loop's variable `i` that its body leaves as it was (`t = helper(x)`, then a
    body that assigns `t` on a path it does not take): each carried leaf whose Python type
    depends on the path before the loop (`leaves`) keeps its kinds, as the loop records them
    (`kinds`, `carried`) for a leaf the body changes; whether that changed what it carries."""
    changed = False
    for j, leaf in enumerate(leaves):
        own = kinds_of(leaf)
        if (i, j) in carried and len(own) > 1 and (i, j) not in kinds:
            kinds[(i, j)] = own
            carried[(i, j, 1)] = ((), np.dtype(np.int64), True)
            changed = True
    return changed


def _tagged_in(v, found) -> None:
    t = type(v)
    if t is Tensor:
        if v.py_kinds is not None and all(v is not f for f in found):
            found.append(v)
    elif t is tuple or t is list:
        for x in v:
            _tagged_in(x, found)
    elif t is dict:
        for x in v.values():
            _tagged_in(x, found)


def _standin(v, kind):
    """A concrete 1 of `v`'s rank and dtype, as the Python type `kind` where it is one (a 1:
    a Python division by a stand-in 0 would raise and tell nothing)."""
    if kind is not None:
        return kind(1)
    if v.weak:
        return PY_TYPES[v.dtype.kind](1)
    return np.ones((1,) * len(v.shape), v.dtype) if v.shape else v.dtype.type(1)


def _result_dtype(r):
    """The dtype of a 0-d result (a Python number counts as its NumPy dtype), else None."""
    if type(r) in _PY_NUMBERS:
        return _PY_DTYPES[type(r)]
    return r.dtype if isinstance(r, np.generic) else None


def retag(fn, args, kwargs, result):
    """`result` (of `fn(*args, **kwargs)` on Tensors) tagged with the Python type each path
    gives it, where an operand's type depends on the path and the results differ only so."""
    if not isinstance(result, Tensor):
        return result
    if not kwargs and type(args) is tuple:
        # Most operations: operands with no path-dependent type, no containers to search.
        for x in args:
            tx = type(x)
            if tx is Tensor:
                if x.py_kinds is not None:
                    break
            elif tx is tuple or tx is list or tx is dict:
                break
        else:
            return result
    found: list = []
    _tagged_in((args, kwargs), found)
    if not found:
        return result
    combos = list(itertools.product(*(range(len(m.py_kinds[1])) for m in found)))
    kinds, dtypes, numpy_results, numpy_dtypes = [], set(), set(), set()
    for combo in combos:
        chosen = {id(m): m.py_kinds[1][i] for m, i in zip(found, combo)}

        def standin(x, chosen=chosen):
            if isinstance(x, Tensor):
                return _standin(x, chosen.get(id(x)))
            return x

        try:
            with np.errstate(all="ignore"):
                r = fn(*map_leaves(args, standin), **map_leaves(kwargs, standin))
        except Exception:
            return result  # not telling: the NumPy kind
        dtypes.add(_result_dtype(r))
        kinds.append(type(r) if type(r) in _PY_NUMBERS else None)
        if kinds[-1] is None:
            numpy_dtypes.add(_result_dtype(r))
        # The NumPy results of every path must agree: NumPy's weak-scalar rule makes a Python
        # number give way to a NumPy operand's dtype (`s * 10 + v`, `v` int32), but a NumPy
        # scalar does not (`s` an int64), nor does a lone Python float (`np.stack([0.5])`
        # is float64). A Python number result has no dtype to disagree with.
        if isinstance(r, (np.ndarray, np.generic)):
            numpy_results.add((r.dtype, np.shape(r)))
    if len(numpy_results) > 1:
        _differs(found, numpy_results)
    if result.shape or len(set(kinds)) < 2 or None in dtypes:
        return result  # one type on every path, or an array
    if len(dtypes) != 1 and not numpy_dtypes <= {result.dtype}:
        return result  # NumPy values of another dtype than the graph's
    # A number whose Python type differs by path: the graph's value, in its dtype, becomes the
    # path's Python number where it is returned or printed (`0 + t`, with `t` a Python `0` on
    # one path and a float64 on another, is `0` there, as eagerly).
    tag = None
    for m in found:  # the index of the combination that runs, in `combos`' order
        t = m.py_kinds[0]
        tag = t if tag is None else tag * len(m.py_kinds[1]) + t
    return tagged(result, tag, tuple(kinds), found[0].py_kinds[2])


def _differs(found, results) -> None:
    # The converter's `retval` is a return value here (a helper's, or the function's).
    names = ", ".join(named(shown(m.py_kinds[2], ("do_return",))) for m in found)
    kinds = " or ".join(
        "a NumPy value" if k is None else f"a Python {k.__name__}" for k in found[0].py_kinds[1]
    )
    given = " or ".join(sorted({d.name for d, _ in results}))
    numpy = next((m for m in found if None in m.py_kinds[1]), None)
    if numpy is not None:  # a Python number on some paths, a NumPy value on others
        fix = (
            f"start it as a NumPy value where it is a Python number (`np.{numpy.dtype.name}(0)` "
            "rather than `0`)"
        )
    else:
        fix = "write `-1.0` rather than `-1`"
    raise StagingError(
        f"{where(user_origin(2))}: {names} is {kinds}, depending on the path taken, and this "
        f"operation gives {given} accordingly, so one value of the graph cannot stand for "
        f"both. Give {names} one kind on every path: {fix}."
    )
