"""A NumPy function given a value-or-None (`range=(lo, hi) if hi > lo else None`,
`np.clip(x, 0, None if r is None else r[1])`): None is an argument NumPy takes, so the call is
traced with the value and with None, and the result chosen by the value's run-time flag, as a
conditional expression around the call would be. Where the call with None fails while
tracing (None in arithmetic), the value is read behind its run-time check instead, which
raises eager's TypeError on the path where it is None."""

from __future__ import annotations

from autoconv.graph.origin import user_origin
from autoconv.graph.tensor import Tensor
from autoconv.runtime import staging

NOT_CHOSEN = object()


def by_presence(call, func, args: tuple, kwargs: dict, optional_type):
    """`call(func, args, kwargs)` chosen by the flag of the first value-or-None among the
    top-level arguments; NOT_CHOSEN where there is none, or the call with None fails."""
    found = None
    for v in (*args, *kwargs.values()):
        if type(v) is optional_type and v.missing is None and isinstance(v.flag, Tensor):
            found = v
            break
    if found is None or staging.graph_tracer is None:
        return NOT_CHOSEN

    def side(present: bool):
        def sub(v):
            return (found.value if present else None) if v is found else v

        return lambda: call(func, tuple(map(sub, args)), {k: sub(v) for k, v in kwargs.items()})

    try:
        side(False)()  # (a probe: NumPy's error for None here leaves the run-time check)
    except Exception:  # noqa: BLE001 - any error: not a call that takes None
        return NOT_CHOSEN
    name = getattr(func, "__name__", "the NumPy function")
    try:
        return staging.graph_tracer._choice(
            found.flag, side(True), side(False), user_origin(3), f"call of numpy.{name}"
        )
    except Exception:  # noqa: BLE001 - results that cannot be joined (another dtype or shape)
        return NOT_CHOSEN
