"""`a, b = lst` and `first, *rest = lst` of a list whose length is known only when the graph
runs (a staged loop appended to it, a filtered comprehension made it): Python would unpack the
one stand-in the traced list holds. While a graph is traced the list's length is checked when
the graph runs (eager's `ValueError` where it does not fit the targets) and its items are
read at their indices (converters/list_items.py writes the call); anything else is returned as
it is, for Python to unpack."""

from autoconv.runtime import staging

_traces = staging.traces


def unpack(value, n: int, star: int = -1):
    """The values `n` targets take from `value` (`star`: the index of the starred target, whose
    value is then a list of the items between, as Python collects them; -1: none): `value`
    itself where Python may unpack it, unless it is a list a staged statement grew while a graph
    is traced."""
    if not _traces or not staging.grown_list(value):
        return value if star < 0 else _starred(value, n, star)
    tracer = staging.tracer_for(value)
    if not hasattr(tracer, "require"):
        return value  # (JAX's lists under jax.jit: Python unpacks them, as before)
    from autoconv.runtime.items import list_item
    from autoconv.runtime.py_builtins import len as length

    size = length(value)
    fixed = n if star < 0 else n - 1
    tracer.require(size >= fixed, _fewer(n, star))
    if star < 0:
        tracer.require(size <= n, ValueError(f"too many values to unpack (expected {n})"))
        return [list_item(value, i) for i in range(n)]
    after = n - 1 - star
    head = [list_item(value, i) for i in range(star)]
    middle = list_item(value, slice(star, -after if after else None))
    tail = [list_item(value, i - after) for i in range(after)]
    return [*head, middle, *tail]


def _fewer(n: int, star: int) -> ValueError:
    if star < 0:
        return ValueError(f"not enough values to unpack (expected {n})")
    return ValueError(f"not enough values to unpack (expected at least {n - 1})")


def _starred(value, n: int, star: int) -> list:
    """Python's `a, *b, c = value` as a list of the `n` values (`b` a list)."""
    items = list(value)
    if len(items) < n - 1:
        raise ValueError(
            f"not enough values to unpack (expected at least {n - 1}, got {len(items)})"
        )
    end = len(items) - (n - 1 - star)
    return [*items[:star], items[star:end], *items[end:]]
