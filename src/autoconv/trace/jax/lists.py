"""`in`, `count`, `index` and `remove` of a Python list or tuple holding JAX tracers, or of a
tracer in one, in converted code (runtime/py_builtins.py `in_`, runtime/lists.py), issue 24.

Python compares the items with `==` and needs `bool()` of each result, which a tracer has
only when the program runs. Here the comparisons are staged: `in` is `jnp.any` of them and
`count` their sum, exactly as eagerly (an item that *is* the value counts without `==`, as in
Python). `index` and `remove` are exact when some item certainly equals the value (the same
object, or two Python values that compare equal): the position is that of the first item the
run-time comparisons find. Otherwise the value might be missing, and the `ValueError` Python
would raise cannot be raised by a JAX program: an `AutoconvError` naming the line.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from autoconv.trace.jax import choices, strings
from autoconv.trace.jax.state import JaxStagingError

_Tracer = jax.core.Tracer
_NUMBERS = (bool, int, float, complex)


def applies(value, items) -> bool:
    """Whether `value` or an item of `items` is a JAX tracer, or `value` a `Choice` (then this
    module answers)."""
    kinds = (_Tracer, choices.Choice)
    return isinstance(value, kinds) or any(isinstance(i, kinds) for i in items)


def _matches(items, value, what: str) -> list:
    """Per item: True, False, or a traced bool (`item is value or item == value`)."""
    found = []
    for item in items:
        if item is value:
            found.append(True)
        elif isinstance(item, _Tracer) or isinstance(value, _Tracer):
            found.append(_equal(item, value, what))
        elif isinstance(item, choices.Choice) or isinstance(value, choices.Choice):
            found.append(item == value)  # option by option: a bool, or a traced one
        else:
            found.append(bool(item == value))
    return found


def _equal(item, value, what: str):
    for v in (item, value):
        if not (isinstance(v, (_Tracer, *_NUMBERS)) or hasattr(v, "dtype")):
            return False  # a number never equals a string, None, a list (Python's `==` too)
        if jnp.ndim(v) != 0:
            _refuse(
                what,
                "compares arrays of one or more dimensions with `==`, whose truth Python "
                "needs (eagerly a `ValueError` unless they have one item)",
            )
    return jnp.asarray(item == value)


def _any(found):
    if any(f is True for f in found):
        return True
    traced = [f for f in found if f is not False]
    return jnp.any(jnp.stack(traced)) if traced else False


def contains(items, value):
    """`value in items`: a traced bool where a comparison is known only when it runs. A
    string chosen by a traced condition (`mode in ("a", "b")`) compares option by option."""
    return _any(_matches(items, value, "`in`"))


def count(items, value):
    """`items.count(value)`: a traced int where a comparison is known only when it runs."""
    found = _matches(items, value, "`count()`")
    if all(type(f) is bool for f in found):
        return sum(found)
    return jnp.sum(jnp.stack([jnp.asarray(f) for f in found]).astype(int))


def index(items, value, method: str = "index"):
    """`items.index(value)` where some item certainly equals `value`: the first match."""
    found = _matches(items, value, f"`{method}()`")
    certain = next((k for k, f in enumerate(found) if f is True), None)
    if certain is None:
        _refuse(
            f"`{method}()`",
            "may find no equal item (the comparisons are known only when it runs), and the "
            "`ValueError` Python raises then cannot be raised by a JAX program. Compute the "
            "position with `jnp.argmax(jnp.asarray(items) == value)` (and check `jnp.any` of "
            "the comparison) instead",
        )
    if all(type(f) is bool for f in found[:certain]):
        return found.index(True)
    return jnp.argmax(jnp.stack([jnp.asarray(f) for f in found[: certain + 1]]))


def remove(items: list, value) -> None:
    """`items.remove(value)` where some item certainly equals `value`: the list of the other
    items, each picked by the run-time position of the first match."""
    at = index(items, value, "remove")
    if type(at) is int:
        del items[at]
        return
    try:
        stacked = jnp.stack([jnp.asarray(i) for i in items])
    except (TypeError, ValueError):
        _refuse(
            "`remove()`",
            "removes an item at a position known only when the program runs from a list "
            "whose items differ in shape or type",
        )
    kept = [jnp.where(j < at, stacked[j], stacked[j + 1]) for j in range(len(items) - 1)]
    items[:] = kept


def refuse_sort(items) -> None:
    """`sort()` of a list holding tracers (also in its tuples): the order is known only when
    the program runs, and a Python list's order is needed now."""
    if any(isinstance(i, _Tracer) for i in items):
        _refuse(
            "`sort()`",
            "puts them in an order known only when it runs, and a Python list's order is "
            "needed while JAX traces. Sort an array instead (`jnp.sort`, or `jnp.argsort` of "
            "the keys to order the other values)",
        )


def refuse_heap(name: str, items) -> None:
    """`heapq.name` / `bisect.name` of a list holding tracers, or given one: it compares them,
    and a Python list's layout is needed while JAX traces."""
    if any(isinstance(i, _Tracer) for i in items):
        _refuse(
            f"`{name}()`",
            "compares them to place them, and a Python list's layout is needed while JAX "
            "traces. Use autoconv.function(f, backend='jax'), which keeps such a list on the "
            "device, or arrays (`jnp.argmin` over the values not yet taken)",
        )


def _refuse(what: str, why: str):
    where, line = strings.user_line()
    shown = f"`{line}`: " if line else ""
    raise JaxStagingError(
        f"{where}: {shown}{what} on a list holding values JAX knows only when the program runs "
        f"{why}."
    )
