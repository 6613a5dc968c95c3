"""Whether JAX is building a trace, and the statements that cannot run inside one."""

from __future__ import annotations

from autoconv.trace.jax import choices, logical
from autoconv.trace.jax import state as st

try:
    from jax._src.core import trace_ctx as _ctx
except ImportError:  # pragma: no cover - another JAX layout: ask the public API
    _ctx = None


def tracing() -> bool:
    """Whether JAX is tracing (`jit`, `grad`, `vmap`, ...) in this thread."""
    if _ctx is not None:
        return not _ctx.is_top_level()
    import jax

    return not jax.core.trace_state_clean()


def assert_(test, message=None):
    """`assert test` with a tracer `test`: checked now when its value is known, otherwise an
    error (JAX programs cannot raise at run time; see `jax.experimental.checkify`)."""
    fact = logical.known(test)
    if fact is not None:
        if not fact:
            raise AssertionError() if message is None else AssertionError(message())
        return
    st.fail(
        st.user_origin(),
        "`assert` on a value JAX computes while tracing: a JAX program cannot raise when it "
        "runs. Check it outside `jax.jit` or use `jax.experimental.checkify`.",
    )


def is_none(value):
    """`value is None` for a tracer (never), a `Maybe` (the negation of its flag) or a
    `Choice` (whether the option chosen is None)."""
    if isinstance(value, choices.Choice):
        return choices.is_none(value)
    if not isinstance(value, st.Maybe):
        return False
    if value.unbound:  # never None: its value, or unbound (an error, known or not)
        return value.resolved() is None
    fact = logical.known(value.present)
    if fact is not None:
        return not fact
    return logical.negate(value.present)


def is_same(value, other):
    """`value is other` where `value` is a stand-in of ours: for a `Choice`, whether the option
    chosen is `other` (a bool when the program runs); for a `Maybe`, `is None` against None,
    else its value's identity where its flag is known (an error naming it where not)."""
    if isinstance(value, choices.Choice):
        if isinstance(other, choices.Choice):
            return choices.pairwise(value, other, lambda a, b: a is b)
        return choices.mapped(value, lambda option: option is other, "`is`")
    if isinstance(value, st.Maybe):
        if other is None:
            return is_none(value)
        return value.resolved() is other
    return value is other
