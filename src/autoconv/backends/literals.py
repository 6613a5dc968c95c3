"""Python constants, subscripts and call arguments as source text, for the backends that
generate code from a graph.

Only values whose `repr` is a literal that reads back as the same value are written inline:
None, bools, `...`, ints, finite floats (a negative one in parentheses), strings (as `ascii`
writes them), and tuples, lists, dicts and slices of them. Anything else (arrays, dtypes, NaN,
callables) is bound by the caller as a name, so no text from a graph (or a saved file) reaches
the source otherwise.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable


def literal(v, item: Callable[[object], str]) -> str | None:
    """`v` as source text, with `item` rendering the values it holds; None when `v` is not a
    literal (the caller binds it)."""
    t = type(v)
    if v is None or t is bool or v is Ellipsis:
        return repr(v)
    if t is int:
        return repr(v) if v >= 0 else f"({v!r})"
    if t is float and math.isfinite(v):
        return repr(v) if math.copysign(1.0, v) > 0 else f"({v!r})"
    if t is str:
        return ascii(v)  # printable ASCII: nothing in the text can end the literal or the line
    if t is tuple:
        items = [item(x) for x in v]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if t is list:
        return "[" + ", ".join(item(x) for x in v) + "]"
    if t is dict:
        return "{" + ", ".join(f"{item(k)}: {item(x)}" for k, x in v.items()) + "}"
    if t is slice:
        return f"slice({item(v.start)}, {item(v.stop)}, {item(v.step)})"
    return None


def subscript(key, is_tuple: bool, item: Callable[[object], str]) -> str:
    """What goes between the brackets of `x[key]`: each item of a tuple key (`is_tuple`) or the
    key itself, a slice as `start:stop:step`, anything else as `item(v)`."""
    if not is_tuple:
        return _subscript_item(key, item)
    items = [_subscript_item(k, item) for k in key]
    return ", ".join(items) + ("," if len(items) == 1 else "")


def _subscript_item(v, item):
    if type(v) is slice:
        parts = [
            item(v.start) if v.start is not None else "",
            item(v.stop) if v.stop is not None else "",
        ]
        if v.step is not None:
            parts.append(item(v.step))
        return ":".join(parts)
    return item(v)


def call_arguments(args, kwargs, item: Callable[[object], str]) -> str:
    """`a, b, k=v` for a call's positional and keyword arguments."""
    return ", ".join([*(item(a) for a in args), *(f"{k}={item(v)}" for k, v in kwargs.items())])


def ascii_text(text: str) -> str:
    """`text` for a generated comment or file name: printable ASCII only, so nothing in it can
    end the comment (`\r`, `\x0c`, `\u2028`... are line breaks to some readers)."""
    text = "".join(c if " " <= c <= "~" else "?" for c in text)
    return text if len(text) <= 80 else text[:77] + "..."


_UNSAFE = re.compile(r"[^\x20-\x7e\n]")


def check_source(source: str) -> None:
    """Refuses generated code holding anything but printable ASCII and newlines, before it is
    compiled: every name in it is one the backend made and every literal is written by
    `literal`, so such a character means text from a graph (or a saved file) reached the code,
    which must never run."""
    bad = _UNSAFE.search(source)
    if bad is not None:
        raise AssertionError(
            f"autoconv generated code with the character {bad.group()!a} at offset "
            f"{bad.start()}; it was not run. Please report this as a bug."
        )
