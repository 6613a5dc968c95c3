"""A variable that has a value on some paths only: `None` (a `best = None` sentinel) or not
bound at all (first bound by a loop's iteration) on the others.

Both tracers carry it as an `Optional`: a boolean `flag` (is the value there?) and the `value`,
arrays and numbers in tuples, lists, dicts or namedtuples, with stand-in zeros where it is
missing. Each tracer subclasses it with what using one means there (graph mode checks at run
time; JAX, which cannot raise at run time, needs the flag known). Lifting makes a variable's
two values alike before their leaves are compared: `None` against a value becomes two
Optionals of one structure (`lift_pair`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from autoconv.trace.core.values import is_undefined, unbound


class Optional:
    """A value that exists where `flag` is true. `missing` says what the variable holds
    otherwise: None, or `("unbound", name)` for a variable that is not bound."""

    __slots__ = ("flag", "value", "missing", "name", "origin")

    def __init__(self, flag, value, missing, name="value", origin=None):
        self.flag = flag
        self.value = value
        self.missing = missing
        self.name = name
        self.origin = origin

    def like(self, flag, value):
        """An Optional of the same kind, variable and missing value, with `flag` and `value`."""
        return type(self)(flag, value, self.missing, self.name, self.origin)


def is_missing(v) -> bool:
    """None, or a variable without a value."""
    return v is None or unbound(v)


def missing_of(v, name: str):
    """What an Optional made from `v` (None or an unbound variable) holds when missing."""
    return None if v is None else ("unbound", name)


@dataclass(frozen=True)
class Lifting:
    """How a tracer's Optionals are made: its Optional class, which leaves are arrays or
    numbers, and a stand-in of a leaf where the value is missing (never read there)."""

    optional: type
    numeric: Callable[[object], bool]
    zero: Callable[[object], object]
    # Leaves that stay as they are, on the missing path too (`return "found", i` against
    # None: the string is a constant of the value's structure); a structure needs a numeric
    # leaf besides them.
    constant: Callable[[object], bool] = lambda v: False


def _items(v):
    """`(rebuild, items)` of a tuple, list, dict or namedtuple; None for anything else."""
    t = type(v)
    if t is tuple or t is list:
        return t, list(v)
    if t is dict:
        return (lambda items, keys=list(v): dict(zip(keys, items))), list(v.values())
    if isinstance(v, tuple) and hasattr(t, "_fields"):
        return (lambda items, t=t: t(*items)), list(v)
    return None


def numeric_structure(v, lifting: Lifting) -> bool:
    """Whether `v` is arrays and numbers in tuples, lists, dicts or namedtuples (with
    `lifting.constant` leaves among them)."""
    found = []
    return _numeric_leaves(v, lifting, found) and any(found)


def _numeric_leaves(v, lifting: Lifting, found: list) -> bool:
    if isinstance(v, Optional):
        return _numeric_leaves(v.value, lifting, found)
    parts = _items(v)
    if parts is None:
        found.append(lifting.numeric(v))
        return found[-1] or lifting.constant(v)
    return all(_numeric_leaves(x, lifting, found) for x in parts[1])


def zeros_like(v, lifting: Lifting):
    """A stand-in of the same structure, dtypes and shapes as `v`."""
    if isinstance(v, Optional):
        return v.like(False, zeros_like(v.value, lifting))
    parts = _items(v)
    if parts is None:
        return v if lifting.constant(v) and not lifting.numeric(v) else lifting.zero(v)
    make, items = parts
    return make([zeros_like(x, lifting) for x in items])


def lift(v, like: Optional, lifting: Lifting):
    """`v` as an Optional shaped like `like`: a missing value gets a stand-in, a value a true
    flag. None when `v` cannot take that shape (None against an unbound variable)."""
    if isinstance(v, Optional):
        if v.missing == like.missing:
            return v
        inner = like.value
        if isinstance(inner, Optional) and v.missing == inner.missing:
            return like.like(True, v)  # the value-or-None inside a may-be-unbound
        return None
    if is_missing(v):
        if (v is None) != (like.missing is None):
            inner = like.value
            if isinstance(inner, Optional) and (v is None) == (inner.missing is None):
                return like.like(True, inner.like(False, zeros_like(inner.value, lifting)))
            return None
        return like.like(False, zeros_like(like.value, lifting))
    return like.like(True, v)


def optional_for(a, b, name: str, origin, lifting: Lifting):
    """An Optional template for a variable that is `a` on one path and `b` on another, when
    exactly one of them is missing (None or unbound) and the other arrays and numbers, or
    either is an Optional; else None."""
    for x, y in ((a, b), (b, a)):
        # Unbound on one path and a value or None on the other (`r = None` in a handler), or
        # None on one and a value or unbound on the other (`found = None` in a loop's `else`):
        # an Optional that may be unbound around an Optional that may be None.
        if isinstance(y, Optional) and y.missing is None and unbound(x):
            return lifting.optional(False, y, missing_of(x, name), name, origin)
        if isinstance(y, Optional) and y.missing is not None and x is None:
            inner = lifting.optional(False, y.value, None, name, origin)
            return lifting.optional(False, inner, y.missing, name, origin)
    for x in (a, b):
        if isinstance(x, Optional):
            return x  # its own kind, name and structure: the other path's lifts to it
    for x, y in ((a, b), (b, a)):
        if is_missing(x) and not is_missing(y) and numeric_structure(y, lifting):
            value = y.value if isinstance(y, Optional) else y
            return lifting.optional(False, value, missing_of(x, name), name, origin)
        if is_undefined(x) and y is not None and _constant_structure(y, lifting):
            # (`r = "ok"` on one path, not bound yet on the other: a staged `try`'s statements
            # after a failure point; a read where it is unbound raises as eager code does. Not
            # an `Undefined`, whose use is an error already.)
            return lifting.optional(False, y, missing_of(x, name), name, origin)
    return None


def _constant_structure(v, lifting: Lifting) -> bool:
    """A constant leaf (a string written in the code), or tuples of them and numbers."""
    parts = _items(v)
    if parts is None:
        return lifting.constant(v) or lifting.numeric(v)
    return type(v) is tuple and all(_constant_structure(x, lifting) for x in parts[1])


def lift_pair(name: str, a, b, origin, lifting: Lifting):
    """`a` and `b`, the values of one variable on two paths, made alike where one path leaves
    it None or unbound: both become Optionals (also inside tuples, lists, dicts and
    namedtuples). Values that need no change are returned as they are (the same objects)."""
    template = optional_for(a, b, name, origin, lifting)
    if template is not None:
        la, lb = lift(a, template, lifting), lift(b, template, lifting)
        if la is None or lb is None:
            return a, b
        va, vb = lift_pair(name, la.value, lb.value, origin, lifting)
        if va is not la.value:
            la = la.like(la.flag, va)
        if vb is not lb.value:
            lb = lb.like(lb.flag, vb)
        return la, lb
    pa, pb = _items(a), _items(b)
    if pa is None or pb is None or type(a) is not type(b) or len(pa[1]) != len(pb[1]):
        return a, b
    if type(a) is dict and list(a) != list(b):
        return a, b
    labels = _labels(a, name)
    pairs = [lift_pair(n, x, y, origin, lifting) for n, x, y in zip(labels, pa[1], pb[1])]
    return _rebuilt(a, pa, [p[0] for p in pairs]), _rebuilt(b, pb, [p[1] for p in pairs])


def _labels(v, name):
    t = type(v)
    if t is dict:
        return [f"{name}[{k!r}]" for k in v]
    if t is not tuple and t is not list:
        return [f"{name}.{f}" for f in t._fields]
    return [f"{name}[{i}]" for i in range(len(v))]


def _rebuilt(old, parts, items):
    """`old` itself when `items` are its own items, else the same container of `items`."""
    if all(x is y for x, y in zip(parts[1], items)):
        return old
    return parts[0](items)
