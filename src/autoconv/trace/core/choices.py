"""Python values that a staged condition chooses (`label = "pos" if x > 0 else "neg"`), as
both tracers see them: which values can be chosen (`atom`), the options of several (`options_of`)
what an operation applied to every option gives (`mapped_results`) and the uses that apply to
every option (`MapsOptions`). Each tracer holds the run-time index of the chosen option its own
way (a Tensor, a JAX tracer)."""

from __future__ import annotations

import enum

NUMBERS = (bool, int, float, complex)
_NONE = object()  # (an attribute an option lacks)


def atom(v) -> bool:
    """A Python value a choice can hold: compared by value, never changed in place."""
    return v is None or type(v) in (str, bytes) or isinstance(v, (enum.Enum, type))


def same_atom(a, b) -> bool:
    return a is b or (type(a) is type(b) and a == b)


def options_of(*values, options=lambda v: None) -> tuple:
    """The options of `values` (atoms, or choices whose options `options(v)` gives), each
    once, in order."""
    out: list = []
    for v in values:
        held = options(v)
        for o in held if held is not None else (v,):
            if not any(same_atom(o, p) for p in out):
                out.append(o)
    return tuple(out)


def mapped_results(results: list) -> str:
    """What `results` (an operation applied to each option, in order) make: "one" (all the
    same atom or number: that value), "choice" (atoms: a new choice with the same index),
    "table" (Python numbers of one type: picked from a table by the index) or "other"."""
    first = results[0]
    if all(r is first or (atom(r) and r == first) for r in results):
        if atom(first) or type(first) in NUMBERS:
            return "one"
    if all(atom(r) for r in results):
        return "choice"
    kinds = {type(r) for r in results}
    if len(kinds) == 1 and next(iter(kinds)) in NUMBERS:
        return "table"
    return "other"


class MapsOptions:
    """The uses of a chosen value that apply to each option in turn (`==`, `!=`, a method or
    attribute, `+`), for both tracers' `Choice`: a subclass gives `_map(fn, what)` and
    `_operand(other, option)`, the other side of a comparison for one option."""

    __slots__ = ()

    def __eq__(self, other):
        return self._map(lambda o: o == self._operand(other, o), "==")

    def __ne__(self, other):
        return self._map(lambda o: o != self._operand(other, o), "!=")

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        # (an option without it, None say, raises in `_map`: a clear error unless all do)
        values = [v for o in self.options if (v := getattr(o, attr, _NONE)) is not _NONE]
        if values and all(callable(v) for v in values):
            return lambda *args, **kwargs: self._map(
                lambda o: getattr(o, attr)(*args, **kwargs), f".{attr}()"
            )
        return self._map(lambda o: getattr(o, attr), f".{attr}")

    def __add__(self, other):
        return self._map(lambda o: o + other, "+")

    def __radd__(self, other):
        return self._map(lambda o: other + o, "+")
