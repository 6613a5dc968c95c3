"""The uses of a `unions.Union` that are staged: each applies to every alternative, and the
result is the one the tag picks when the graph runs (`select`). `is None`, `is`, `==` and `!=`,
`isinstance()` and reading an attribute of objects; every other use is `unions`' error.
"""

from __future__ import annotations

import operator

import numpy as np

from autoconv.errors import StagingError
from autoconv.graph.eager_types import eager_type
from autoconv.graph.errors import where
from autoconv.graph.origin import user_origin
from autoconv.graph.tensor import Tensor
from autoconv.runtime import staging as rt
from autoconv.trace.tensors import choices, union_methods
from autoconv.trace.tensors.choices import Choice, atom
from autoconv.trace.tensors.leaves import _cond_tensor
from autoconv.trace.tensors.switch import _raise_if, pick
from autoconv.trace.tensors.unions import _NUMBERS, Union, _fail, _object, _same, kinds_text


def select(union: Union, results: list, what: str, origin=None):
    """The result of the alternative the tag picks among `results` (one per alternative)."""
    origin = origin or user_origin(3)
    first = results[0]
    if all(_same(r, first) for r in results):
        return first
    if all(atom(r) for r in results):
        return Choice(union.ac_tag, tuple(results), union.ac_name)
    value = first
    for k in range(1, len(results)):
        value = pick(
            union.ac_tag == k, results[k], value, f"{what} of `{union.ac_name}`", origin, "read"
        )
    return value


def _compare(union: Union, other, op, symbol: str):
    if isinstance(other, (Union, Choice)):
        raise StagingError(
            f"{where(user_origin(3))}: comparing `{union.ac_name}`, whose kind depends on the path "
            f"a staged statement took, with another such value: compare each with constants."
        )
    results = []
    for alt in union.ac_alternatives:
        r = _text_compared(alt, other, op) if type(other) in (str, bytes) else op(alt, other)
        if r is NotImplemented:
            r = op is operator.ne
        results.append(r)
    return select(union, results, f"`{symbol}`")


def _text_compared(alt, text, op):
    """`alt == text` (`op`) as eager NumPy gives it for an array or number `alt`: never equal,
    elementwise for an array, a NumPy bool for a NumPy scalar (a graph value cannot meet a str
    in a NumPy ufunc while tracing)."""
    if not isinstance(alt, Tensor):
        return op(alt, text)
    answer = op is operator.ne
    kind = eager_type(alt)
    if kind in _NUMBERS:
        return answer
    if kind is np.ndarray or kind is None and alt.shape:
        same = np.zeros_like(alt, dtype=bool)
        return np.logical_not(same) if answer else same
    return np.bool_(answer)


def truth(union: Union):
    """`if union:`: each alternative's truth (a number's, a string's, a container's length),
    the one the tag picks; an array's is ambiguous, as eagerly."""
    results = []
    for alt in union.ac_alternatives:
        if isinstance(alt, Tensor) and alt.shape:
            _fail(union, "its truth (an array's is ambiguous)", 4)
        results.append(_cond_tensor(alt, user_origin(3)) if isinstance(alt, Tensor) else bool(alt))
    return select(union, results, "truth")


def is_none(union: Union):
    """`union is None`: true on the paths that took a None alternative."""
    return select(union, [a is None for a in union.ac_alternatives], "`is None`")


def is_instance(union: Union, classinfo):
    """`isinstance(union, classinfo)`, of the eager type each alternative has."""
    results = [
        _tensor_is(a, classinfo, union) if isinstance(a, Tensor) else isinstance(a, classinfo)
        for a in union.ac_alternatives
    ]
    return select(union, results, "isinstance()")


def attribute(union: Union, attr: str):
    """`union.attr` of a union of objects (and None): each one's attribute, picked by the tag;
    eager's AttributeError, raised when the graph runs, on a path that took None."""
    alts = union.ac_alternatives
    if not all(a is None or (_object(a) and not callable(a)) for a in alts):
        raise _AttributeStagingError(
            f"{where(user_origin(3))}: `{union.ac_name}` is {kinds_text(alts)} depending on the "
            f"path a staged statement took, and `.{attr}` of it can be staged only when every "
            "path gives an object (attributes of one class are picked when the graph runs). "
            f"Test which it is first (`isinstance({union.ac_name}, ...)` in an `if`)."
        )
    origin = user_origin(3)
    present = [k for k, a in enumerate(alts) if hasattr(a, attr)]
    if not present:
        raise AttributeError(f"'{type(alts[0]).__name__}' object has no attribute '{attr}'")
    values = [getattr(alts[k], attr) for k in present]
    if any(callable(v) and not isinstance(v, Tensor) for v in values):
        if len(present) == len(alts) and all(isinstance(v, _MethodType) for v in values):
            # Each object's own method, the one the tag picks called when the graph runs.
            return union_methods.call(union.ac_tag, values)
        _fail(union, f"calling its method `.{attr}()`")
    for k, a in enumerate(alts):
        if k not in present:
            exc = AttributeError(f"'{type(a).__name__}' object has no attribute '{attr}'")
            _raise_if(union.ac_tag == k, exc, origin)
    results = [values[present.index(k)] if k in present else values[0] for k in range(len(alts))]
    return select(union, results, f"`.{attr}`", origin)


def _tensor_is(t: Tensor, classinfo, union: Union) -> bool:
    """`isinstance` of the value eager code has where a graph value `t` stands."""
    kind = eager_type(t)
    candidates = (kind,) if kind is not None else (np.ndarray, t.dtype.type)
    answers = {issubclass(k, classinfo) for k in candidates}
    if len(answers) > 1:
        _fail(union, "`isinstance()` (a NumPy scalar or a 0-d array, known only then)", 4)
    return answers.pop()


_MethodType = type(select.__get__(0))  # a bound method


class _AttributeStagingError(StagingError, AttributeError):
    """An attribute of a union that cannot be staged: a StagingError for the user, and an
    AttributeError for code that asks `getattr(v, name, default)`."""


class _UnionTracer:
    """What the runtime's operators ask a Union's tracer: `is None`, `isinstance()` and
    `type()` here, everything else as the Tensor tracer does."""

    def __getattr__(self, name):
        return getattr(rt.TRACERS[Tensor], name)  # the Tensor tracer

    def is_none(self, value):
        return is_none(value)

    def isinstance_(self, value, classinfo):
        return is_instance(value, classinfo)

    def is_same(self, value, other):
        if isinstance(other, Union):
            return _compare(value, other, operator.is_, "is")
        return select(value, [a is other for a in value.ac_alternatives], "`is`")

    def for_stmt(self, iterable, *args, **kwargs):
        _fail(iterable, "iterating over it", 4)

    def type_of(self, value):
        _fail(value, "`type()`")


def _getattr(union: Union, attr: str):
    if attr.startswith("__"):
        raise AttributeError(attr)  # Python's and NumPy's protocol probes
    return attribute(union, attr)


Union.__eq__ = lambda self, other: _compare(self, other, operator.eq, "==")
Union.__ne__ = lambda self, other: _compare(self, other, operator.ne, "!=")
Union.__getattr__ = _getattr
rt.register((Union,), _UnionTracer())
choices.TRUTHS[Union] = truth
