"""Conditions on JAX tracers: `pred` (a scalar bool), what is known inside a branch, and the
logical operators `and_` / `or_` / `not_`.

Inside the branch of a staged `if` on `p`, `p` is known (True in the first branch, False in
the other), and so is `q` when `p` is `not q`. `known` answers from these facts, so that a
`Maybe` whose flag is `q` (the converter's `retval`, flagged by `do_return`) is an ordinary
value in the branch of `if not do_return` where a `return` has run.
"""

from __future__ import annotations

import contextlib
import weakref

import jax
import jax.numpy as jnp
from jax import lax

from autoconv.trace.jax import choices
from autoconv.trace.jax import state as st

_facts: dict = {}  # id(tracer) -> (tracer, bool): conditions known in the branch being traced
_negations: dict = {}  # id(not_q) -> (weakref to not_q, q)

try:
    from jax._src.core import is_concrete as _is_concrete
except ImportError:  # pragma: no cover - older or newer JAX: treat every tracer as abstract

    def _is_concrete(x):
        return False


def known(x):
    """True or False when `x` is a Python bool, a concrete tracer (under `jax.grad` without
    `jit`) or a fact of the branch being traced; otherwise None."""
    if x is True or x is False:
        return x
    fact = _facts.get(id(x))
    if fact is not None and fact[0] is x:
        return fact[1]
    if isinstance(x, jax.core.Tracer) and x.shape == () and _is_concrete(x):
        return bool(x)
    return None


def pred(x, origin):
    """`x` as a scalar bool tracer (`x != 0` for numbers), or raises when it is not scalar."""
    if isinstance(x, choices.Choice):  # a string chosen by a staged condition: its truth
        return jnp.asarray(choices.truth(x), bool)
    if x.shape != ():
        st.fail(
            origin,
            f"the condition is an array of shape {tuple(x.shape)}; a condition must be a single "
            "value. Use jnp.any(...) or jnp.all(...).",
        )
    return x if x.dtype == bool else x != 0


@contextlib.contextmanager
def assuming(p, value: bool):
    """Traces a branch knowing that `p` is `value` (and what follows from it)."""
    added = [(p, value)]
    neg = _negations.get(id(p))
    if neg is not None and neg[0]() is p:
        added.append((neg[1], not value))
    saved = [(id(t), _facts.get(id(t))) for t, _ in added]
    for t, v in added:
        _facts[id(t)] = (t, v)
    try:
        yield
    finally:
        for key, old in saved:
            if old is None:
                _facts.pop(key, None)
            else:
                _facts[key] = old


def negate(p):
    """`not p` for a bool tracer, remembered so that branches on it know `p`."""
    q = jnp.logical_not(p)
    key = id(q)
    _negations[key] = (weakref.ref(q, lambda _, key=key: _negations.pop(key, None)), p)
    return q


def not_(value, origin=None):
    """`not value` for a tracer."""
    fact = known(value)
    if fact is not None:
        return not fact
    neg = _negations.get(id(value))
    if neg is not None and neg[0]() is value:
        # `not (not q)` is `q` itself: `if found is not None:` then knows the flag of `found`
        # (`is not None` is `not` of `is None`, the negation of a `Maybe`'s flag).
        return neg[1]
    return negate(pred(value, origin or st.user_origin()))


def _combine(value, operands, is_and):
    """`value and/or operand() and/or ...` with tracers: each operand is evaluated only on the
    path that needs it (a staged `if`), and the result has one dtype."""
    from autoconv.trace.jax.cond import staged_value

    origin = st.user_origin()
    fact = known(value)
    if fact is not None:
        if fact != is_and or not operands:  # decided by this value: Python's rule
            return value
        first, *rest = operands
        nxt = first()
        if not rest:
            return nxt
        return _dispatch(nxt, rest, is_and)
    p = pred(value, origin)

    def rest():
        first, *more = operands
        nxt = first()
        return _dispatch(nxt, more, is_and) if more else nxt

    def keep():
        return value

    if is_and:
        return staged_value(p, rest, keep, origin, "`and`")
    return staged_value(p, keep, rest, origin, "`or`")


def _dispatch(value, operands, is_and):
    from autoconv.runtime import logical

    return (logical.and_ if is_and else logical.or_)(value, *operands)


def and_(value, operands):
    """`value and ...` where `value` is a tracer."""
    return _combine(value, operands, True)


def or_(value, operands):
    """`value or ...` where `value` is a tracer."""
    return _combine(value, operands, False)


def select(p, a, b):
    """`a if p else b` for scalar flags (no branch to trace)."""
    return lax.select(p, jnp.asarray(a, bool), jnp.asarray(b, bool))
