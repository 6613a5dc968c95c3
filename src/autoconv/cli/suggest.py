""" "Did you mean" for `autoconv show` and `autoconv graph`: the names of a module or class
closest to a mistyped one."""

from __future__ import annotations

import difflib


def close_names(name: str, owner, limit: int = 3) -> list[str]:
    """The attribute names of `owner` most like `name` (case-insensitive), best first."""
    names = [n for n in dir(owner) if not n.startswith("__")]
    by_lower: dict = {}
    for n in names:
        by_lower.setdefault(n.lower(), n)
    found = difflib.get_close_matches(name.lower(), list(by_lower), n=limit, cutoff=0.6)
    return [by_lower[n] for n in found]


def did_you_mean(name: str, owner) -> str:
    """`; did you mean 'a' or 'b'?` for a name that `owner` lacks, or '' when none is close."""
    found = close_names(name, owner)
    if not found:
        return ""
    quoted = [repr(n) for n in found]
    listed = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"
    return f"; did you mean {listed}?"
